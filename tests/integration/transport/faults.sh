#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Nothing lost, nothing doubled, for real: a node spool of 240 step records (bench/gen/jsgen,
# bundled as the relay leaves them) shipped by a jobscreen-send daemon that is killed with SIGKILL in
# the middle and started again, receivers killed with SIGKILL in the middle of their requests,
# while the cluster's ingest daemon loads the received spool into JS_DB and PostgreSQL is
# restarted under it: the database holds exactly the rows of a direct ingest of the same spool,
# nothing is quarantined, and the node spool and the received spool are empty.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
[ -n "${JS_RECEIVE_URL:-}" ] || skip_all "the cluster serves no /receive (built without transport/?)"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline (transport/ or profile_ingest not built)"
SEND=$JS_TOP_BUILDDIR/transport/jobscreen-send GEN=$JS_TOP_BUILDDIR/bench/gen/jsgen
plan 11
T=$(mktemp -d "$JS_CLUSTER_DIR/t59.XXXXXX")
pids=()
at_exit 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done'
JOBS=30 STEPS=2 NODES=4
RECS=$((JOBS * STEPS * NODES))
mkdir -m 711 "$T/node"
# jobs of nobody's, a day old: no test user sees them, and they are in no background that
# other tests look at; ids of this run's own (a rerun on the same cluster adds new jobs)
first=$(( 59000000 + RANDOM % 1000 * 1000 )) recv="job.${first%000}0??"
# a bundle per step-node in a profiles/ of root's, as the relay leaves them
"$GEN" --uniform --bundle --out "$T/node" --job-id-base "$first" --jobs "$JOBS" --steps "$STEPS" --nodes "$NODES" --ppn 2 \
  --slices 60 --files 2 --uid "$(id -u nobody)" --gid "$(id -g nobody)" --user nobody \
  --start $(( ($(date +%s) / 4 - 21600 - 70) * 4 )) >/dev/null
cp -a "$T/node" "$T/direct"
q_db() { DB=$JS_DB q "$1"; }
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS js_t59_direct" -c "CREATE DATABASE js_t59_direct" >/dev/null 2>&1
ingest_spool "$T/direct" js_t59_direct
in59="job_id BETWEEN $first AND $((first + 999))"
counts() { DB=$1 q "SELECT count(*) || ' ' || sum(posix_write_bytes) || ' ' || count(DISTINCT (job_id, step_id, node)) FROM js.processes WHERE $in59"; }
want=$(counts js_t59_direct)
like "$want" "^$((RECS * 2)) [1-9][0-9]* $RECS$" "the direct ingest: $RECS step-nodes, two processes each ($want)"
is "$(q_db "SELECT count(*) FROM js.processes WHERE $in59")" 0 "JS_DB holds none of them yet"

# --- the sender, killed with SIGKILL while it ships, then started again; PostgreSQL restarted ---
log0=$(stat -c %s "$JS_INGEST_LOG")
"$SEND" --spool "$T/node" --url "$JS_RECEIVE_URL" --munge-socket "$JS_MUNGE_SOCKET" 2>"$T/send1.log" &
sender=$!; pids+=("$sender")
for i in $(seq 400); do
  [ "$(find "$T/node" -name 'step.*.json' | wc -l)" -le $((RECS - 40)) ] && break; sleep 0.05
done
kill -9 "$sender"; wait "$sender" 2>/dev/null
left=$(find "$T/node" -name 'step.*.json' | wc -l)
ok $(( left > 0 && left <= RECS - 40 ? 0 : 1 )) \
   "killed with SIGKILL after it shipped $((RECS - left)) of $RECS step records: $left are still on the node"
# --- started again, as a daemon; every receiver of the next 3 s killed with SIGKILL in the
# middle of its request; then PostgreSQL goes down (fast: connections cut) while the daemon ingests
base=$(q_db "SELECT count(*) FROM js.step_nodes WHERE $in59")
"$SEND" --spool "$T/node" --url "$JS_RECEIVE_URL" --munge-socket "$JS_MUNGE_SOCKET" --job-grace 0 --backoff-max 1 \
  2>"$T/send2.log" &
again=$!; pids+=("$again")
# the receiver's program: the CGI's alias, or the FastCGI responders' bin-path
receiver=$(sed -n -e 's|.*"/receive" => "\([^"]*\)".*|\1|p' \
  -e '/"\/receive" => ( "receive" => (/,/bin-path/ s|.*"bin-path" => "\([^"]*\)".*|\1|p' "$JS_CLUSTER_DIR/www/lighttpd.conf" | head -n 1)
# never an empty pattern: pkill -f "^" would kill every process of the machine
[ -n "$receiver" ] && [ -x "$receiver" ] || bail "no receiver found in $JS_CLUSTER_DIR/www/lighttpd.conf"
kills=0 end=$((SECONDS + 3))
while [ $SECONDS -lt $end ]; do pkill -9 -f "^$receiver" && kills=$((kills + 1)); sleep 0.01; done
ok $(( kills > 0 ? 0 : 1 )) "the receiver killed with SIGKILL in the middle of $kills requests"
for i in $(seq 400); do
  [ "$(q_db "SELECT count(*) FROM js.step_nodes WHERE $in59" 2>/dev/null)" -ge $((base + 20)) ] 2>/dev/null && break; sleep 0.05
done
runuser -u postgres -- "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/pg_ctl" -D "$JS_CLUSTER_DIR/pg/data" -m fast -w -t 30 restart \
  >"$T/pg.log" 2>&1
ok $? "PostgreSQL restarted (fast: connections cut) while the daemon ingests"
for i in $(seq 600); do [ -z "$(ls -A "$T/node")" ] && break; sleep 0.1; done
is "$(ls -A "$T/node" | wc -l)" 0 "the sender shipped the rest: the node spool is empty (the jobs ended: their directories went)"
like "$(cat "$T/send2.log")" "retrying in" "the sender said it retries after the killed requests"
kill "$again"; wait "$again" 2>/dev/null
for i in $(seq 600); do
  [ "$(q_db "SELECT count(*) FROM js.step_nodes WHERE $in59" 2>/dev/null)" = "$RECS" ] &&
    ! compgen -G "$JS_RECEIVED_DIR/$recv" >/dev/null && break
  sleep 0.1
done
is "$(counts "$JS_DB")" "$want" "JS_DB holds exactly the rows of the direct ingest: nothing lost, nothing doubled"
ok $([ -z "$(compgen -G "$JS_RECEIVED_DIR/$recv")" ]; echo $?) "the received spool holds nothing more of them"
like "$(tail -c +$((log0 + 1)) "$JS_INGEST_LOG")" "database (unavailable|back)" "the ingest daemon said the database went away and came back"
is "$(q_db "SELECT count(*) FROM js.quarantine WHERE $in59")" 0 "nothing was quarantined"
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS js_t59_direct" >/dev/null 2>&1
rm -rf "$T"
done_testing
