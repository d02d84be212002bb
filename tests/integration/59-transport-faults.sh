#!/usr/bin/env bash
# Nothing lost, nothing doubled, for real: a node spool of 240 step records (spoolgen, bundled
# as the relay leaves them) shipped by a jobscreen-send daemon that is killed with SIGKILL in
# the middle and started again, then ingested from the received spool by a profile_ingest
# daemon while PostgreSQL is restarted under it: the database holds exactly the rows of a
# direct ingest of the same spool, and the node spool is empty.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
[ -n "${JS_RECEIVE_URL:-}" ] || skip_all "the cluster serves no /receive (built without transport/?)"
SEND=$JS_TOP_BUILDDIR/transport/jobscreen-send GEN=$JS_TOP_BUILDDIR/profile_ingest/spoolgen
plan 8
T=$(mktemp -d "$JS_CLUSTER_DIR/t59.XXXXXX")
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done' EXIT
JOBS=30 STEPS=2 NODES=4
RECS=$((JOBS * STEPS * NODES))
mkdir -m 711 "$T/node"
"$GEN" "$T/node" 59000 "$JOBS" "$STEPS" "$NODES" 2 60 2 "$(id -u jsalice)" "$(id -g jsalice)" jsalice
for d in "$T/node"/job.*/profiles; do # a bundle per step-node in a profiles/ of root's, as the relay leaves them
  for s in $(ls "$d" | sed -n 's/^\([^.]*\.[^.]*\)\.[0-9]*\.json$/\1/p' | sort -u); do
    jq -c -s '{format: "jobscreen-profile-bundle", version: 1, profiles: .}' "$d/$s".[0-9]*.json > "$d/$s.b1.json"
    rm -f "$d/$s".[0-9]*.json; chown jsalice: "$d/$s.b1.json"
  done
  chown root: "$d"; chmod 700 "$d"
done
cp -a "$T/node" "$T/direct"
rm -rf "${JS_RECEIVED_DIR:?}"/job.59*
for db in js_t59_direct js_t59_recv; do
  psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null 2>&1
done
ingest_spool "$T/direct" js_t59_direct
counts() { DB=$1 q "SELECT count(*) || ' ' || sum(posix_write_bytes) || ' ' || count(DISTINCT (job_id, step_id, node)) FROM js.processes WHERE job_id >= 59000"; }
want=$(counts js_t59_direct)
like "$want" "^$((RECS * 2)) [1-9][0-9]* $RECS$" "the direct ingest: $RECS step-nodes, two processes each ($want)"

# --- the sender, killed with SIGKILL while it ships, then started again ---
"$SEND" --spool "$T/node" --url "$JS_RECEIVE_URL" --munge-socket "$JS_MUNGE_SOCKET" 2>"$T/send1.log" &
sender=$!; pids+=("$sender")
for i in $(seq 400); do
  [ "$(find "$JS_RECEIVED_DIR" -path '*/job.59*' -name 'step.*.json' 2>/dev/null | wc -l)" -ge 40 ] && break; sleep 0.05
done
kill -9 "$sender"; wait "$sender" 2>/dev/null
got=$(find "$JS_RECEIVED_DIR" -path '*/job.59*' -name 'step.*.json' | wc -l)
left=$(find "$T/node" -name 'step.*.json' | wc -l)
ok $(( got >= 40 && got < RECS && left > 0 && got + left >= RECS ? 0 : 1 )) \
   "killed with SIGKILL after $got of $RECS step records: $left are still on the node, none is lost ($got + $left >= $RECS)"
"$SEND" --once --job-grace 0 --spool "$T/node" --url "$JS_RECEIVE_URL" --munge-socket "$JS_MUNGE_SOCKET" 2>"$T/send2.log"
ok $? "started again, it ships the rest (--once: everything sent)"
is "$(find "$JS_RECEIVED_DIR" -path '*/job.59*' -name 'step.*.json' | wc -l) $(ls -A "$T/node" | wc -l)" "$RECS 0" \
   "the received spool holds every step record; the node spool is empty (the jobs ended: their directories went)"

# --- the ingest daemon on the received spool, PostgreSQL restarted under it ---
"$INGEST" --spool "$JS_RECEIVED_DIR" --db "$JS_PG_CONNINFO dbname=js_t59_recv" --quarantine "$T/quarantine" \
  --set received=yes --set "record_uid=$(id -u www-data)" --set job_grace_seconds=0 --set rescan_seconds=1 \
  --set backoff_max_seconds=2 2>"$T/ingest.log" &
ingestd=$!; pids+=("$ingestd")
for i in $(seq 400); do
  [ "$(DB=js_t59_recv q "SELECT count(*) FROM js.step_nodes WHERE job_id >= 59000" 2>/dev/null)" -ge 20 ] 2>/dev/null && break; sleep 0.05
done
pgdata=$JS_CLUSTER_DIR/pg/data
runuser -u postgres -- "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/pg_ctl" -D "$pgdata" -m fast -w -t 30 restart \
  >"$T/pg.log" 2>&1
ok $? "PostgreSQL restarted (fast: connections cut) while the daemon ingests"
for i in $(seq 600); do
  [ "$(DB=js_t59_recv q "SELECT count(*) FROM js.step_nodes WHERE job_id >= 59000" 2>/dev/null)" = "$RECS" ] &&
    [ -z "$(find "$JS_RECEIVED_DIR" -path '*/job.59*' -name 'step.*.json' 2>/dev/null)" ] && break
  sleep 0.1
done
is "$(counts js_t59_recv)" "$want" "the database holds exactly the rows of the direct ingest: nothing lost, nothing doubled"
like "$(cat "$T/ingest.log")" "database (unavailable|back)" "the daemon said the database went away and came back"
kill "$ingestd" 2>/dev/null; wait "$ingestd" 2>/dev/null
is "$(ls "$T/quarantine" 2>/dev/null | wc -l)" 0 "nothing was quarantined"
for db in js_t59_direct js_t59_recv; do psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1; done
rm -rf "$T" "${JS_RECEIVED_DIR:?}"/job.59*
done_testing
