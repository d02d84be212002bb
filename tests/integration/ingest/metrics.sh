#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The ingest daemon's /metrics (metrics_listen, Prometheus text format) and the first node's
# sender's (--metrics-listen): after a job on two nodes went through the pipeline, the sender
# counted the parcels it shipped with nothing waiting and the receiver up; the ingest the step records, profiles and slice rows it committed are
# counted, the lag from each step's end to its commit is in the histogram, the database is up,
# nothing waits, no error was counted; every line is a comment or a sample; other paths 404,
# other methods 405.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline"
[ -n "${JS_INGEST_METRICS_URL:-}" ] || skip_all "the cluster's ingest serves no metrics"
[ "$(wc -w <<< "$JS_NODES")" -ge 2 ] || skip_all "needs a cluster of 2 nodes or more"
plan 10
val() { awk -v k="$1" '$1 == k { print $2 }' <<< "$2"; }
before=$(curl -sf "$JS_INGEST_METRICS_URL")
ok $? "GET /metrics answers"
sbefore=$(curl -sf "$JS_SEND_METRICS_URL")
ok $? "the sender's GET /metrics answers"
w=$(work_dir jsalice)
job=$(cd "$w" && as_user jsalice srun -N2 -n2 -w "$(awk '{print $1 "," $2}' <<< "$JS_NODES")" -J metrics bash -c 'echo $SLURM_JOB_ID; dd if=/dev/zero of=/dev/null bs=1k count=10 status=none' | head -n 1)
wait_pipeline 90 "$job"
ok $? "a job on two nodes went through the pipeline"
for i in $(seq 50); do
  after=$(curl -sf "$JS_INGEST_METRICS_URL")
  [ "$(val jobscreen_ingest_backlog_step_records "$after")" = 0 ] && break
  sleep 0.2
done
records=$(psql -X -q -At -d "$JS_DB" -c "SELECT count(*) FROM js.step_nodes WHERE job_id = $job")
d_steps=$(( $(val jobscreen_ingest_step_records_total "$after") - $(val jobscreen_ingest_step_records_total "$before") ))
d_lag=$(( $(val jobscreen_ingest_lag_seconds_count "$after") - $(val jobscreen_ingest_lag_seconds_count "$before") ))
ok $([ "$d_steps" -ge "$records" ] && [ "$records" -ge 2 ]; echo $?) \
   "step records committed: +$d_steps (the job's step-nodes in the database: $records)"
ok $([ "$d_lag" -ge "$records" ] && [ "$(val 'jobscreen_ingest_lag_seconds_bucket{le="60"}' "$after")" -ge "$d_lag" ]; echo $?) \
   "each one's lag from its step's end to its commit is in the histogram, all within a minute (+$d_lag)"
is "$(val jobscreen_ingest_database_up "$after") $(val jobscreen_ingest_backlog_step_records "$after") $(( $(val jobscreen_ingest_errors_total "$after") - $(val jobscreen_ingest_errors_total "$before") ))" \
   "1 0 0" "the database is up, nothing waits, no error was counted"
bad=$(grep -v -E '^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{le="[^"]+"\})? -?[0-9.]+(e[+-]?[0-9]+)?)$' <<< "$after")
is "${bad:-none}" "none" "every line is a HELP or TYPE comment or a sample (Prometheus text format)"
is "$(curl -s -o /dev/null -w '%{http_code}' "${JS_INGEST_METRICS_URL%/metrics}/other")" 404 "another path: 404"
is "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$JS_INGEST_METRICS_URL")" 405 "another method: 405"
safter=$(curl -sf "$JS_SEND_METRICS_URL")
is "$([ $(( $(val jobscreen_send_parcels_total "$safter") - $(val jobscreen_send_parcels_total "$sbefore") )) -ge 1 ] && echo shipped) $(val jobscreen_send_waiting_parcels "$safter") $(val jobscreen_send_receiver_up "$safter")" \
   "shipped 0 1" "the first node's sender counted the parcels it shipped; nothing waits; the receiver is up"
done_testing
