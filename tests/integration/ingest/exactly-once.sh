#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Exactly once, whatever happens: profile_ingest killed with SIGKILL at random points and
# restarted; PostgreSQL stopped (immediate) and started again under a running daemon; two
# daemons on one spool. Each time the database ends up exactly as one clean ingest makes it:
# the same rows, and pre-aggregated totals that count every vector once. Also: SIGHUP reloads
# the configuration, SIGTERM stops the daemon cleanly, inotify picks up a new job at once; two
# daemons taking a job's two records at once keep both records' captures; a daemon keeps a job's
# stored reply only once its rows have settled (replies_settle_seconds).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
bin=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
gen=$JS_TOP_BUILDDIR/bench/gen/jsgen
[ -x "$bin" ] && [ -x "$gen" ] || bail "build first"
plan 27

# 30 jobs x 2 steps x 2 nodes = 120 step records, 4 profiles each, 50 slices, 3 files each
JOBS=30 STEPS=2 NODES=2 PROFILES=4 SLICES=50 FILES=3
RECS=$((JOBS * STEPS * NODES)) PROFS=$((JOBS * STEPS * NODES * PROFILES))
BYTES=$((PROFS * (SLICES * 1000 + SLICES * (SLICES - 1) / 2)))
uid=$(id -u jsalice) gid=$(id -g jsalice)
db=js_exactly_once
conn="$JS_PG_CONNINFO dbname=$db"
work=$(mktemp -d "$JS_CLUSTER_DIR/once.XXXXXX")
pids=()
cleanup() { local p; for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; }
at_exit cleanup

fresh() { # fresh SPOOL: a new database and a new synthetic spool
  dropdb --if-exists "$db" 2>/dev/null; createdb "$db"
  rm -rf "$1"; mkdir -p "$1"; chmod 711 "$1"
  gen_jobs "$1" 1000 $JOBS $STEPS $NODES $PROFILES $SLICES $FILES
}
# gen_jobs SPOOL FIRST JOBS STEPS NODES PROFILES SLICES FILES: uniform jobs of jsalice's
gen_jobs() {
  "$gen" --uniform --out "$1" --job-id-base "$2" --jobs "$3" --steps "$4" --nodes "$5" --ppn "$6" --slices "$7" --files "$8" \
    --uid "$uid" --gid "$gid" --user jsalice >/dev/null
}
q() { psql -X -q -At -d "$db" -c "$1"; }
# exact STEP: every count and sum as one clean ingest of the synthetic spool makes them
exact() {
  is "$(q "SELECT count(*) FROM js_data.step_nodes")|$(q "SELECT count(*) FROM js_data.processes")|$(q "SELECT count(*) FROM js_data.slice_metrics")|$(q "SELECT count(*) FROM js_data.file_accesses")" \
     "$RECS|$PROFS|$((RECS * SLICES))|$((RECS * (PROFILES * FILES + 1)))" "$1: every step record, profile, slice vector and file access once"
  local i; for i in $(seq 50); do [ "$(q "SELECT count(*) FROM js_data.totals_pending")" = 0 ] && break; sleep 0.1; done
  is "$(q "SELECT sum(posix_write_bytes) FROM js_data.slice_metrics")|$(q "SELECT sum(posix_write_bytes) FROM js_data.slice_totals_cluster")|$(q "SELECT sum(posix_write_bytes) FROM js_data.slice_totals_node")|$(q "SELECT min(step_nodes) || '-' || max(step_nodes) FROM js_data.slice_totals_cluster")|$(q "SELECT count(*) FROM js_data.totals_pending")" \
     "$BYTES|$BYTES|$BYTES|$RECS-$RECS|0" "$1: the pre-aggregated totals count every vector exactly once (all folded in)"
}
drained() { ! find "$1" -name 'step.*.json' 2>/dev/null | grep -q .; }
wait_drained() { local i; for i in $(seq $(( $2 * 10 ))); do drained "$1" && return 0; sleep 0.1; done; return 1; }
alive() { [ -d "/proc/$1" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }

# --- 1: SIGKILL at random points, then a clean run ------------------------------------------
spool=$work/spool1
fresh "$spool"
kills=0
for i in $(seq 12); do
  "$bin" --once --spool "$spool" --db "$conn" --quarantine "$work/q" --set job_grace_seconds=0 2>>"$work/kill.log" &
  p=$!
  sleep "0.$(printf %02d $(( RANDOM % 14 + 2 )))"   # 20-150 ms: mid-pass
  kill -9 "$p" 2>/dev/null && kills=$((kills + 1))
  wait "$p" 2>/dev/null
  drained "$spool" && break
done
"$bin" --once --spool "$spool" --db "$conn" --quarantine "$work/q" --set job_grace_seconds=0 2>>"$work/kill.log"
ok $? "after $kills kills a clean run exits 0"
diag "killed $kills times; $(grep -c 'ingested job' "$work/kill.log") ingests logged"
ok "$([ "$kills" -ge 3 ] && echo 0 || echo 1)" "the ingest was killed mid-way at least 3 times"
exact "kill -9"
is "$(find "$spool" -mindepth 1 | wc -l)" "0" "kill -9: the spool is empty"
is "$(q "SELECT count(*) FROM js_data.quarantine")" "0" "kill -9: nothing quarantined"
is "$(steps_sums_differ "$conn")|$(job_totals_differ "$conn")" "0|0" "kill -9: every step's kept sums are its processes' (none added twice), every job's totals its steps'"
# the migration's way (js_data.steps_resum): the sums of steps that hold none, from their processes
q "UPDATE js_data.steps SET processes = 0, wall_ns = 0, cpu_ns = 0, write_bytes = 0, killed_processes = 0, idle_ns = NULL,
     max_rss_kib = NULL, kernel_io_unknown = 0" >/dev/null
is "$(q "SELECT js_data.steps_resum() > 0")|$(steps_sums_differ "$conn")|$(job_totals_differ "$conn")" "t|0|0" "js_data.steps_resum sums them again from the processes, the same (and the jobs' totals follow)"

# --- 2: PostgreSQL stopped and started under a running daemon --------------------------------
spool=$work/spool2
fresh "$spool"
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
"$bin" --spool "$spool" --db "$conn" --quarantine "$work/q" --set job_grace_seconds=0 --set rescan_seconds=1 \
  --set backoff_max_seconds=2 2>"$work/pg.log" &
d=$!; pids+=("$d")
sleep 0.1
runuser -u postgres -- "$pgbin/pg_ctl" -D "$JS_CLUSTER_DIR/pg/data" -m immediate -w stop >/dev/null 2>&1
ok $? "PostgreSQL stopped (immediate) while the daemon ingests"
sleep 3
alive "$d"; ok $? "the daemon stays up while the database is down"
runuser -u postgres -- "$pgbin/pg_ctl" -D "$JS_CLUSTER_DIR/pg/data" -l "$JS_CLUSTER_DIR/log/postgresql.log" -w -t 30 \
  -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $JS_CLUSTER_DIR/pg/sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  start >/dev/null 2>&1
ok $? "PostgreSQL started again"
wait_drained "$spool" 60; ok $? "the daemon resumes by itself and drains the spool"
for i in $(seq 200); do [ "$(q "SELECT count(*) FROM js_data.totals_pending" 2>/dev/null)" = 0 ] && break; sleep 0.1; done
kill -TERM "$d"; wait "$d"; st=$?
is "$st" "0" "SIGTERM stops the daemon with status 0"
like "$(grep -E 'database unavailable: retrying' "$work/pg.log" | head -n 1)" "retrying in [0-9]+ s; the spool is kept" "the log says the database is down, that it retries, and keeps the spool"
exact "PostgreSQL restart"

# --- 3: two daemons on one spool; inotify; SIGHUP --------------------------------------------
spool=$work/spool3
dropdb --if-exists "$db" 2>/dev/null; createdb "$db"
"$bin" --migrate --db "$conn" 2>/dev/null
rm -rf "$spool"; mkdir -p "$spool"; chmod 711 "$spool"
conf=$work/ingest.conf
printf 'spool = %s\ndb = %s\nquarantine = %s\njob_grace_seconds = 0\nrescan_seconds = 2\n' "$spool" "$conn" "$work/q" > "$conf"
"$bin" --config "$conf" 2>"$work/a.log" & a=$!; pids+=("$a")
"$bin" --config "$conf" 2>"$work/b.log" & b=$!; pids+=("$b")
sleep 0.5
gen_jobs "$spool" 1000 $JOBS $STEPS $NODES $PROFILES $SLICES $FILES
wait_drained "$spool" 60; ok $? "two daemons drain the spool"
sleep 1
exact "two daemons"
diag "step records per daemon: $(q "SELECT string_agg(n::text, ' ') FROM (SELECT count(*) n FROM js_data.step_nodes GROUP BY ingested_by) x")"
# inotify: with a 300 s rescan, a new job is ingested at once
sed -i 's/^rescan_seconds = .*/rescan_seconds = 300/; $a log_level = debug' "$conf"
kill -HUP "$a" "$b"; sleep 0.5
like "$(grep -c 'configuration reloaded' "$work/a.log")" '^1$' "SIGHUP reloads the configuration"
sleep 2.5   # both daemons are now waiting on inotify with the new 300 s rescan
t0=$(date +%s%N)
gen_jobs "$spool" 5000 1 1 1 1 3 1
wait_drained "$spool" 10; ok $? "a new job is ingested without waiting for the rescan (inotify)"
diag "new job ingested after $(( ($(date +%s%N) - t0) / 1000000 )) ms"
is "$(q "SELECT count(*) FROM js_data.step_nodes WHERE job_id = 5000")" "1" "the new job's step record is there once"
kill -TERM "$a" "$b"; wait "$a"; sa=$?; wait "$b"; sb=$?
is "$sa$sb" "00" "both daemons stop on SIGTERM with status 0"
is "$(grep -c 'stopping on request' "$work/a.log" "$work/b.log" | awk -F: '{s += $2} END {print s}')" "2" "each says it stops on request"
pids=()

# --- 4: two daemons take a job's two records at once -----------------------------------------
# the node's (the workflow and dependency the plugin captured) and the controller's final one,
# newer, without them (two receivers: each in its own received spool): before the job's row
# exists, FOR UPDATE locks nothing; the second waits for the first and keeps its captures
record() { # record WRITTEN_NS WORKFLOW DEPENDENCY DEP_TYPE DEP_JOB STATE FINAL: job 9000's record as the ingest hands it over
  echo "SELECT js_data.ingest_job_record((SELECT min(cluster_id) FROM js_data.clusters),
          jsonb_populate_record(NULL::js_data.job_record_values, r || jsonb_build_object('record', r)))
        FROM (SELECT jsonb_build_object('job_id', 9000, 'uid', $uid, 'gid', $gid, 'user', 'jsalice', 'name', 'plot',
                'written_ns', $1, 'workflow', $2, 'dependency', $3, 'dependencies_type', jsonb_build_array($4::text),
                'dependencies_job_id', jsonb_build_array($5), 'dependencies_array_task_id', jsonb_build_array(NULL),
                'state', '$6', 'final', $7) AS r) x"
}
psql -X -q -At -d "$db" -c "BEGIN" -c "$(record 1000 "'sample'" "'afterany:8999'" "'afterany'" 8999 RUNNING false)" \
  -c "SELECT pg_sleep(1.5)" -c "COMMIT" >/dev/null 2>"$work/first.err" & first=$!
sleep 0.5
q "$(record 2000 NULL NULL NULL NULL COMPLETED true)" >/dev/null 2>"$work/second.err"; second=$?
wait "$first"
is "$?$second $(q "SELECT workflow_tag, dependency, state, (SELECT count(*) FROM js_data.dependency_refs WHERE to_job = 9000)
                  FROM js_data.jobs WHERE job_id = 9000" | tr '|' ' ')" "00 sample afterany:8999 COMPLETED 1" \
   "two daemons storing a job's two records at once: the newer's state, the older's workflow and dependency $(cat "$work"/*.err)"

# --- 5: a daemon keeps a job's reply once its rows have settled ------------------------------
# (replies_settle_seconds: not while a job's records are still coming; the test cluster settles
# 1 s, so only here does a settle show)
spool=$work/spool5
dropdb --if-exists "$db" 2>/dev/null; createdb "$db"
"$bin" --migrate --db "$conn" 2>/dev/null
rm -rf "$spool"; mkdir -p "$spool"; chmod 711 "$spool"
printf 'spool = %s\ndb = %s\nquarantine = %s\njob_grace_seconds = 0\nrescan_seconds = 1\nreplies_settle_seconds = 5\nreplies_min_job_rows = 2\n' \
  "$spool" "$conn" "$work/q" > "$conf"
"$bin" --config "$conf" 2>"$work/settle.log" & d=$!; pids+=("$d")
kept() { q "SELECT count(*) FROM js_data.stored_replies WHERE endpoint = 'job' AND key = 7000"; }
gen_jobs "$spool" 7000 1 1 1 2 10 3
wait_drained "$spool" 30; t0=$(date +%s%N)
sleep 2 # two passes of the daemon, each a round of the keepers
is "$(q "SELECT count(*) FROM js_data.jobs WHERE job_id = 7000")/$(kept)" "1/0" "a job ingested is not kept before its rows are 5 s old"
for i in $(seq 150); do [ "$(kept)" = 1 ] && break; sleep 0.1; done
waited=$(( ($(date +%s%N) - t0) / 1000000 ))
ok "$([ "$(kept)" = 1 ] && [ "$waited" -ge 3500 ] && echo 0 || echo 1)" "it is kept once they are ($waited ms after the ingest; kept: $(kept))"
kill -TERM "$d"; wait "$d"; pids=()
dropdb --if-exists "$db" 2>/dev/null
[ "${JS_KEEP:-}" ] || rm -rf "$work"
done_testing
