#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Junk is cheap (issue 13): one user's big junk step-node (3000 tiny profiles and 2000 files that
# are no profile at all) and 200 tiny jobs do not hold another user's step records back. With a
# user's budget a pass, the other user's step records are all committed before any of the
# junk user's, the junk user's rest waits for later passes (said at info); with a pass's budget,
# the same, and what the pass left goes first in the next; the daemon starts the next pass at
# once. In the end everything is ingested exactly once, the junk refused with its reason (20 log
# lines and a sum, not 2000). --once computes the insight of every step, beyond a pass's batch.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
bin=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
gen=$JS_TOP_BUILDDIR/bench/gen/jsgen
[ -x "$bin" ] && [ -x "$gen" ] || bail "build first"
plan 26

db=js_fairness
conn="$JS_PG_CONNINFO dbname=$db"
work=$(mktemp -d "$JS_CLUSTER_DIR/fairness.XXXXXX")
at_exit '[ -n "$JS_KEEP" ] || rm -rf "$work"; dropdb --if-exists "$db" 2>/dev/null'
ua=$(id -u jsalice) ga=$(id -g jsalice) ub=$(id -u jsbob) gb=$(id -g jsbob)
GOOD=3000 JUNK=2000 TINY=200 BJOBS=5 BSLICES=30
RECS=$((1 + TINY + BJOBS * 2)) PROFS=$((GOOD + TINY + BJOBS * 2 * 2))
BYTES=$(( (GOOD + TINY) * 1000 + BJOBS * 2 * 2 * (BSLICES * 1000 + BSLICES * (BSLICES - 1) / 2) ))

fresh() { # fresh SPOOL: a new database; the junk user's job 100 and tiny jobs 1000.., the other's jobs 200..
  dropdb --if-exists "$db" 2>/dev/null; createdb "$db"
  "$bin" --migrate --db "$conn" 2>/dev/null
  rm -rf "$1" "$1.q"; mkdir -p "$1"; chmod 711 "$1"
  "$gen" --uniform --out "$1" --job-id-base 100 --ppn $GOOD --uid "$ua" --gid "$ga" --user jsalice >/dev/null
  ( cd "$1/job.100/profiles" && seq 1 $JUNK | sed 's/^/0.gen1.junk/; s/$/.json/' | xargs sh -c 'for f; do echo x > "$f"; done' sh &&
    find . -name '0.gen1.junk*' -print0 | xargs -0 chown jsalice: )
  "$gen" --uniform --out "$1" --job-id-base 1000 --jobs $TINY --uid "$ua" --gid "$ga" --user jsalice >/dev/null
  "$gen" --uniform --out "$1" --job-id-base 200 --jobs $BJOBS --nodes 2 --ppn 2 --slices $BSLICES --files 1 \
    --uid "$ub" --gid "$gb" --user jsbob >/dev/null
}
q() { psql -X -q -At -d "$db" -c "$1"; }
ingest() { # ingest SPOOL LOG SET...
  local s=$1 log=$2; shift 2
  "$bin" --once --spool "$s" --db "$conn" --quarantine "$s.q" --set job_grace_seconds=0 --log-level info "$@" 2> "$log"
}
# exact NAME SPOOL LOG: every step record and profile once, the junk refused once with its reason
exact() {
  is "$(q "SELECT count(*) FROM js_data.step_nodes")|$(q "SELECT count(*) FROM js_data.processes")|$(q "SELECT sum(posix_write_bytes) FROM js_data.slice_metrics")" \
     "$RECS|$PROFS|$BYTES" "$1: every step record, profile and byte once"
  is "$(q "SELECT quarantined || ' ' || incomplete || ' ' || split_part(incomplete_reason, ':', 1) FROM js_data.step_nodes WHERE job_id = 100")|$(q "SELECT count(*) FROM js_data.quarantine WHERE job_id = 100")|$(find "$2.q/job.100" -name '*.json' | wc -l)" \
     "$JUNK true $JUNK profiles quarantined|$JUNK|$JUNK" "$1: the junk is refused once each, the step-node says so"
  ok $([ -z "$(ls "$2")" ]; echo $?) "$1: the spool is empty"
}

# 1. a user's budget a pass
s=$work/user
fresh "$s"
ingest "$s" "$s.log" --set user_budget_bytes=1048576 --set pass_budget_bytes=0
ok $? "user budget: the ingest passes over the spool"
is "$(q "SELECT max(ingested_at) FILTER (WHERE job_id BETWEEN 200 AND 299) < min(ingested_at) FILTER (WHERE job_id = 100 OR job_id >= 1000) FROM js_data.step_nodes")" "t" \
   "user budget: the other user's step records are all committed before any of the junk user's"
# the log says so too: every "ingested job.2xx" line comes before the first of job.100 or job.1xxx
first_a=$(grep -n 'ingested job\.\(100\|1[0-9][0-9][0-9]\)/' "$s.log" | head -1 | cut -d: -f1)
last_b=$(grep -n 'ingested job\.2[0-9][0-9]/' "$s.log" | tail -1 | cut -d: -f1)
ok $([ -n "$first_a" ] && [ -n "$last_b" ] && [ "$last_b" -lt "$first_a" ]; echo $?) "user budget: and in the log"
like "$(grep -m1 'budget:' "$s.log")" "budget: $TINY step records of uid $ua \([0-9]+ bytes of profiles\) wait for the next pass: the user's budget of 1048576 bytes a pass \(user_budget_bytes\) is spent" \
   "user budget: the junk user's rest waits for the next pass, said at info"
is "$(grep -c 'refused job.100/profiles/' "$s.log")|$(grep -c "refused $((JUNK + 0 - 20)) more files of job.100 step 0 node gen1" "$s.log")" "20|1" \
   "user budget: 20 refusals logged one by one, the rest in one line"
exact "user budget" "$s" "$s.log"
# more steps than the insight's batch of a pass (200): --once passes again until it has them all
is "$(q "SELECT count(*) FROM js_data.insight_pending")|$(q "SELECT count(*) FROM js.step_insights")" "0|$((1 + TINY + BJOBS))" \
   "user budget: --once computed the insight of all $((1 + TINY + BJOBS)) steps (more than a pass's 200), none left queued"
# the queue gives one step a take, whatever the plan: statistics of a queue of one row made a
# subquery's LIMIT 1 FOR UPDATE SKIP LOCKED a rescanned inner side that took all of them
is "$(psql -X -q -At -d "$db" <<'SQL'
BEGIN;
INSERT INTO js_data.insight_pending (cluster_id, job_id, step_id, queued_at) VALUES (1, 1, 'q0', now() - interval '1 h');
ANALYZE js_data.insight_pending;
INSERT INTO js_data.insight_pending (cluster_id, job_id, step_id, queued_at)
    SELECT 1, 1, 'q' || i, now() - interval '1 h' + i * interval '1 s' FROM generate_series(1, 5) i;
SELECT count(*) || ' ' || min(step_id) FROM js_data.insight_take('0 s', 1);
SELECT count(*) FROM js_data.insight_pending;
ROLLBACK;
SQL
)" "1 q0
5" "js_data.insight_take(settle, 1) takes the oldest step due, one, and leaves the other five queued"
# a step whose records arrive after its neighbours' insight queues them again, each due after
# a back-off as long as its insight came after its end (a day at most); a settle takes none of
# them before, NULL (--once) takes them all. Job 200's neighbours: every other step (they overlap).
is "$(psql -X -q -At -d "$db" <<'SQL'
BEGIN;
UPDATE js_data.step_insights SET computed_at = now() - interval '2 min';
UPDATE js_data.steps SET end_time = now() - interval '5 min';
UPDATE js_data.steps SET end_time = now() - interval '3 days' WHERE job_id = 201;
UPDATE js_data.step_nodes SET ingested_at = now() WHERE job_id = 200;
INSERT INTO js_data.insight_pending (cluster_id, job_id, step_id, queued_at) VALUES (1, 202, '0', now() - interval '1 h');
SELECT js_data.insight_requeue_neighbours(1::smallint, 200, '0') + 1
       = (SELECT count(*) FROM js_data.steps o, js_data.steps a WHERE a.job_id = 200 AND a.step_id = '0'
          AND o.first_slice <= a.last_slice AND o.last_slice >= a.first_slice AND NOT (o.job_id = 200 AND o.step_id = '0'));
SELECT count(*) FILTER (WHERE queued_at BETWEEN now() + interval '59 s' AND now() + interval '61 s') || ' '
       || (SELECT queued_at = now() - interval '2 min' + interval '1 day' FROM js_data.insight_pending WHERE job_id = 201) || ' '
       || (SELECT queued_at < now() FROM js_data.insight_pending WHERE job_id = 202)
FROM js_data.insight_pending;
SELECT string_agg(job_id::text, ' ' ORDER BY job_id) FROM js_data.insight_take('0 s', 1000);
SELECT count(*) FROM js_data.insight_take(NULL, 1000);
SELECT count(*) FROM js_data.insight_pending;
ROLLBACK;
SQL
)" "t
$((TINY + BJOBS - 2)) true true
200 202
$((TINY + BJOBS - 1))
0" "js_data.insight_requeue_neighbours: the steps overlapping one queued again after their back-off (1 min; a day at most); one already queued keeps its turn; a settle takes only those due (that one, and the step itself, queued by its records), NULL the rest"
# a step whose insight fails for a reason of its own (a stored series that does not decode) is
# logged with the reason and left out of the queue; the steps beside it are computed
q "UPDATE js_data.series_step SET cpu_ns = '\\x01'::bytea WHERE job_id = 201;
   UPDATE js_data.step_insights SET computed_at = now() - interval '1 h' WHERE job_id IN (200, 202);
   INSERT INTO js_data.insight_pending (cluster_id, job_id, step_id) SELECT cluster_id, job_id, step_id FROM js_data.steps WHERE job_id IN (200, 201, 202)"
mkdir -p "$work/empty"
t0=$(q "SELECT now()")
ingest "$work/empty" "$work/bad-series.log"
ok $? "a step whose insight fails: the ingest runs on"
is "$(grep -c "insight: the step's series of job 201 step 0: a series that does not decode" "$work/bad-series.log")|$(grep -c 'insight of job 201 step 0 failed (see above)' "$work/bad-series.log")|$(q "SELECT count(*) FROM js_data.insight_pending")|$(q "SELECT string_agg(job_id::text, ' ' ORDER BY job_id) FROM js_data.step_insights WHERE job_id IN (200, 201, 202) AND computed_at > '$t0'")" \
   "1|1|0|200 202" "a step whose insight fails: logged with its reason, out of the queue; its neighbours computed"
# a statement of a step's batch that fails (here the insight's write, refused by a trigger) is
# told with its own message, not as the statements after it that the server did not run; the
# step is left out of the queue and the one beside it computed
q "CREATE FUNCTION public.refuse_202() RETURNS trigger LANGUAGE plpgsql AS \$\$ BEGIN
     IF NEW.job_id = 202 THEN RAISE EXCEPTION 'refused by test ingest/fairness'; END IF; RETURN NEW; END \$\$;
   CREATE TRIGGER refuse_202 BEFORE INSERT OR UPDATE ON js_data.step_insights FOR EACH ROW EXECUTE FUNCTION public.refuse_202();
   INSERT INTO js_data.insight_pending (cluster_id, job_id, step_id) SELECT cluster_id, job_id, step_id FROM js_data.steps WHERE job_id IN (202, 203)"
t0=$(q "SELECT now()")
ingest "$work/empty" "$work/refused.log"
ok $? "a step whose insight's write fails: the ingest runs on"
is "$(grep -c "database: insight: write the step's insight: ERROR:  refused by test ingest/fairness" "$work/refused.log")|$(grep -c 'insight of job 202 step 0 failed (see above)' "$work/refused.log")|$(grep -c 'will retry' "$work/refused.log")|$(q "SELECT count(*) FROM js_data.insight_pending")|$(q "SELECT string_agg(job_id::text, ' ') FROM js_data.step_insights WHERE job_id IN (202, 203) AND computed_at > '$t0'")" \
   "1|1|0|0|203" "a step whose insight's write fails: that error told, the step out of the queue, the other computed"
q "DROP TRIGGER refuse_202 ON js_data.step_insights; DROP FUNCTION public.refuse_202()"

# 2. a pass's budget
s=$work/pass
fresh "$s"
ingest "$s" "$s.log" --set user_budget_bytes=0 --set pass_budget_bytes=1048576
ok $? "pass budget: the ingest passes over the spool"
is "$(q "SELECT max(ingested_at) FILTER (WHERE job_id BETWEEN 200 AND 299) < min(ingested_at) FILTER (WHERE job_id = 100 OR job_id >= 1000) FROM js_data.step_nodes")" "t" \
   "pass budget: the other user's step records are all committed before any of the junk user's"
like "$(grep -m1 'budget:' "$s.log")" "budget: $((1 + TINY)) step records \([0-9]+ bytes of profiles\) wait for the next pass, where they go first: the pass's budget of 1048576 bytes \(pass_budget_bytes\) is spent" \
   "pass budget: what the pass left waits for the next, said at info"
exact "pass budget" "$s" "$s.log"

# 3. the daemon: what a budget left is taken by the next pass at once, not at the rescan (an hour)
s=$work/daemon
fresh "$s"
"$bin" --spool "$s" --db "$conn" --quarantine "$s.q" --set job_grace_seconds=0 --set rescan_seconds=3600 \
  --set user_budget_bytes=1048576 --set pass_budget_bytes=0 --log-level info 2> "$s.log" &
dpid=$!
at_exit "kill -9 $dpid 2>/dev/null"
for i in $(seq 600); do [ -z "$(ls "$s")" ] && break; sleep 0.5; done
ok $([ -z "$(ls "$s")" ]; echo $?) "daemon: the passes the budget made follow one another until the spool is empty"
kill -TERM $dpid; wait $dpid
ok $? "daemon: stops cleanly"
exact "daemon" "$s" "$s.log"
done_testing
