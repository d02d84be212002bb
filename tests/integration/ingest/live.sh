#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A running step is visible in the database within 60 s of its start: one ingest pass stores its
# live snapshot (and the bundles so far) as provisional rows, js.steps shows it RUNNING with the
# bytes it wrote and js.step_slices its slices so far; a newer snapshot replaces them; the ingest
# never removes the snapshot; once the step ends, the final ingest replaces the provisional rows
# (one row per profile, bytes not doubled) and the slice totals count the step exactly once.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 13
work=$(work_dir jsalice)
spool=$(mktemp -d "$JS_CLUSTER_DIR/spool57.XXXXXX"); chmod 711 "$spool"
DB=js_t57
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
bytes=262144

# the web's job list on $DB, by hand: list USER -> the reply's row of $job as
# "live|running_steps|write_bytes|cpu_ns|profiled_steps", or "none" when the list does not show it
sed "s/dbname=[^ ]*/dbname=$DB/" "$JS_CLUSTER_DIR/www/jobscreen-web.conf" > "$spool.conf"
list() {
  env -i JOBSCREEN_CONF="$spool.conf" REMOTE_USER="$1" REQUEST_METHOD=GET QUERY_STRING='q=jobs&limit=500' \
    "$JS_TOP_BUILDDIR/web/jobscreen.cgi" | sed '1,/^\r*$/d' |
    jq -r --argjson id "$job" '[.jobs[] | select(.id == $id) | "\(.live)|\(.running_steps)|\(.write_bytes)|\(.cpu_ns)|\(.profiled_steps)"] | first // "none"'
}

# copy the job's spool directory as it is now, and run one ingest pass over the copy
pass() { rm -rf "${spool:?}/job.$job"; cp -a "$(job_dir "$job")" "$spool/" && ingest_spool "$spool" "$DB"; }

t0=$(date +%s)
job=$(cd "$work" && as_user jsalice sbatch --parsable --chdir="$work" -o /dev/null -J live57 --wrap \
  "srun bash -c 'dd if=/dev/zero of=live.dat bs=1k count=256 status=none; sleep 60; true'")
for i in $(seq 100); do node=$(job_node "$job"); [ -n "$node" ] && break; sleep 0.1; done
seen=
while [ $(( $(date +%s) - t0 )) -lt 60 ]; do
  if [ -e "$(job_dir "$job")/profiles/.live.0.$node.json" ] && pass; then
    seen=$(q "SELECT state || '|' || CASE WHEN live THEN 't' ELSE 'f' END || '|' || write_bytes FROM js.steps WHERE job_id = $job AND step_id = '0'")
    [ "$seen" = "RUNNING|t|$bytes" ] && break
  fi
  sleep 2
done
took=$(( $(date +%s) - t0 ))
is "$seen" "RUNNING|t|$bytes" "within 60 s of its start ($took s) the running step is in js.steps: RUNNING, live, dd's $bytes bytes"
is "$(q "SELECT count(*) > 0 AND sum(posix_write_bytes) = $bytes FROM js.step_slices WHERE job_id = $job AND step_id = '0'")|$(q "SELECT count(*) > 0 AND sum(posix_write_bytes) = $bytes FROM js.step_node_slices WHERE job_id = $job AND step_id = '0' AND node = '$node'")" \
   "t|t" "js.step_slices and js.step_node_slices hold its slices so far"
is "$(q "SELECT running_steps > 0 FROM js.jobs WHERE job_id = $job")|$(q "SELECT t.write_bytes = (SELECT sum(write_bytes) FROM js.steps WHERE job_id = $job AND step_id <> 'extern') AND t.write_bytes >= $bytes FROM js.job_totals t WHERE job_id = $job")" \
   "t|t" "js.jobs counts it among the job's running steps; js.job_totals (the job list) sums its bytes so far"
is "$(q "SELECT coalesce(sum(posix_write_bytes), 0) FROM js.slice_totals_cluster")|$(q "SELECT count(*) FROM js_data.totals_pending")|$(q "SELECT count(*) FROM js.step_nodes WHERE job_id = $job AND step_id = '0'")" \
   "0|0|0" "provisional rows are in no slice total and no step-node key"
ok $([ -e "$spool/job.$job/profiles/.live.0.$node.json" ]; echo $?) "the ingest leaves the live snapshot in place"
# the list reads a running job's usage through js.steps, not from the kept totals
is "$(list jsalice)" "$(q "SELECT 'true|' || j.running_steps || '|' || t.write_bytes || '|' || coalesce(t.cpu_ns::text, 'null') || '|' || t.profiled_steps FROM js.job_totals t JOIN js.jobs j USING (cluster_id, job_id) WHERE job_id = $job AND j.running_steps > 0")" \
   "the owner's job list shows it live, its running steps and its usage so far as js.job_totals"
is "$(list jsbob)" none "another user's job list does not show it"

# a newer snapshot (refreshed at least once a minute) replaces the provisional rows
first=$(q "SELECT snapshot_time FROM js_data.live_step_nodes WHERE job_id = $job AND step_id = '0'")
for i in $(seq 40); do
  sleep 2; pass
  now=$(q "SELECT snapshot_time FROM js_data.live_step_nodes WHERE job_id = $job AND step_id = '0'")
  [ "$now" != "$first" ] && break
done
isnt_same=$([ "$now" != "$first" ] && echo newer || echo same)
is "$isnt_same|$(q "SELECT state || '|' || write_bytes || '|' || CASE WHEN processes = (SELECT count(*) FROM js_data.live_processes WHERE job_id = $job AND step_id = '0') THEN 't' ELSE 'f' END FROM js.steps WHERE job_id = $job AND step_id = '0'")" \
   "newer|RUNNING|$bytes|t" "a newer snapshot replaces the provisional rows (bytes not added twice)"
before=$(q "SELECT ingested_at FROM js_data.live_step_nodes WHERE job_id = $job AND step_id = '0'")
"$INGEST" --once --spool "$spool" --db "$JS_PG_CONNINFO dbname=$DB" --quarantine "$spool.quarantine" 2>>"$spool.log"
is "$(q "SELECT ingested_at FROM js_data.live_step_nodes WHERE job_id = $job AND step_id = '0'")" "$before" "an unchanged snapshot is not stored again"

# the step ends: the final ingest replaces the provisional rows
is "$(wait_job_done "$job" 120)" COMPLETED "the job completes"
for i in $(seq 100); do [ -e "$(job_dir "$job")/step.0.$node.json" ] && [ -e "$(job_dir "$job")/step.batch.$node.json" ] && break; sleep 0.2; done
profiles=$(bundle_json "$(job_dir "$job")"/profiles/0."$node".b*.json | jq -s '[.[].profiles | length] | add')
pass
is "$(q "SELECT state || '|' || CASE WHEN live THEN 't' ELSE 'f' END || '|' || write_bytes || '|' || processes FROM js.steps WHERE job_id = $job AND step_id = '0'")" \
   "COMPLETED|f|$bytes|$profiles" "after the step record: COMPLETED, one process per profile ($profiles), the bytes once"
is "$(q "SELECT count(*) FROM js_data.live_step_nodes WHERE job_id = $job")|$(q "SELECT count(*) FROM js_data.live_processes WHERE job_id = $job")|$(q "SELECT count(*) FROM js_data.live_slice_metrics WHERE job_id = $job")|$(q "SELECT running_steps FROM js.jobs WHERE job_id = $job")" \
   "0|0|0|0" "no provisional row is left"
is "$(q "SELECT (SELECT sum(posix_write_bytes) FROM js.slice_totals_cluster) = (SELECT sum(posix_write_bytes) FROM js_data.slice_metrics)")|$(q "SELECT sum(posix_write_bytes) >= $bytes FROM js_data.slice_metrics WHERE job_id = $job AND step_id = '0'")" \
   "t|t" \
   "the slice totals count the step exactly once"

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null
rm -rf "$spool" "$spool.log" "$spool.conf" "$spool.quarantine" "$work"
done_testing
