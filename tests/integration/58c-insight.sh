#!/usr/bin/env bash
# Insight (docs/insight.md) on real runs through the cluster's pipeline, with nothing run by hand:
# a computing step alone on n1 is judged undisturbed (green); the same step with a CPU hog of
# another job on its node for part of its run is judged disturbed, cause cpu, the evidence
# within the hog's time and the time lost about what the hog took; a writer on another node
# that writes four files of 16 MiB, one every 12 s, has its period and the open-write-close
# pattern, and its 2,000 one-byte log writes give the SMALL_WRITES advice. The hog's short step
# is grey (too few slices), and it is computed again once the victim's records are in (its
# background changed).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline"
[ "$(wc -w <<< "$JS_NODES")" -ge 3 ] || skip_all "needs a cluster of 3 nodes or more"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 16
q() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
w=$(work_dir jsalice)
nodes=($JS_NODES)
# a busy loop of awk: CPU only (a shell's loop makes stdio calls on every turn)
busy='awk -v s=$1 "BEGIN { t = systime() + s; while (systime() < t) n++ }"'

# the calm step and the writer at the same time, on different nodes: the step computes only,
# so others' I/O is nothing it could feel
calm=$(cd "$w" && as_user jsalice sbatch --parsable -o /dev/null -w "${nodes[0]}" -n1 -J calm \
  --wrap "srun bash -c '$busy' busy 36")
writer=$(cd "$w" && as_user jsalice sbatch --parsable -o /dev/null -w "${nodes[2]}" -n1 -J writer \
  --wrap "srun bash -c 'for i in 1 2 3 4; do dd if=/dev/zero of=ckpt.\$i bs=4M count=4 conv=fsync status=none; [ \$i = 1 ] && for k in \$(seq 2000); do printf x; done > log; sleep 12; done'")
is "$(wait_job_done "$calm" 120)|$(wait_job_done "$writer" 120)" "COMPLETED|COMPLETED" "the calm step and the writer ran"

# the victim, and 10 s into it a hog of four processes on its node for 12 s
victim=$(cd "$w" && as_user jsalice sbatch --parsable -o /dev/null -w "${nodes[0]}" -n1 -J victim \
  --wrap "srun bash -c '$busy' busy 36")
for i in $(seq 100); do [ "$(job_state "$victim")" = RUNNING ] && break; sleep 0.2; done
sleep 10
hog=$(cd "$w" && as_user jsalice sbatch --parsable -o /dev/null -w "${nodes[0]}" -n4 -J hog \
  --wrap "srun bash -c '$busy' busy 12")
is "$(wait_job_done "$victim" 120)|$(wait_job_done "$hog" 120)" "COMPLETED|COMPLETED" "the victim and the hog ran"
wait_pipeline 90 "$calm" "$writer" "$victim" "$hog"
ok $? "the four jobs reached the database"

# their insight: computed insight_settle_seconds (5 s on the test cluster) after their records
insight() { q "SELECT $2 FROM js.step_insights WHERE job_id = $1 AND step_id = '0'"; }
for i in $(seq 150); do
  n=$(q "SELECT count(*) FROM js.step_insights i JOIN js_data.steps s USING (cluster_id, job_id, step_id)
         WHERE i.job_id IN ($calm, $writer, $victim, $hog) AND i.step_id = '0'
           AND i.computed_at > (SELECT max(ingested_at) FROM js_data.step_nodes WHERE job_id IN ($victim, $hog))")
  [ "$n" -ge 2 ] && [ -n "$(insight "$victim" light)" ] && [ -n "$(insight "$calm" light)" ] && [ -n "$(insight "$writer" light)" ] && break
  sleep 0.2
done
diag "$(q "SELECT job_id, light, disturbed, cause, round(lost_s::numeric, 1), round(lost_pct::numeric, 1), slices, dented_slices, disturbed_slices, evidence FROM js.step_insights WHERE job_id IN ($calm, $writer, $victim, $hog) ORDER BY job_id")"
is "$(insight "$calm" "light || ' ' || disturbed || ' ' || disturbed_slices || ' ' || coalesce(cause, '-')")" "green false 0 -" \
  "the calm step: green, not disturbed, no disturbed slice, no cause"
is "$(insight "$victim" "disturbed || ' ' || cause || ' ' || (light IN ('yellow', 'red'))")" "true cpu true" \
  "the victim: disturbed, by others' CPU on its node, a yellow or red light"
lost=$(insight "$victim" "round(lost_s)")
ok "$([ "${lost:-0}" -ge 3 ] && [ "${lost:-99}" -le 16 ] && echo 0 || echo 1)" "the victim lost ${lost:-?} s, between 3 and 16 s (the hog had 4 processes for 12 s on 2 cores)"
in_time=$(q "SELECT bool_and(js_data.slice_start(i.cluster_id, (e->>'last_slice')::bigint) >= s.start_time - interval '4 s'
                               AND js_data.slice_start(i.cluster_id, (e->>'first_slice')::bigint) <= s.end_time + interval '4 s')
                      AND count(*) >= 1
             FROM js.step_insights i CROSS JOIN jsonb_array_elements(i.evidence) e
             JOIN js_data.steps s ON s.cluster_id = i.cluster_id AND s.job_id = $hog AND s.step_id = '0'
             WHERE i.job_id = $victim AND i.step_id = '0'")
is "$in_time" t "the evidence of the victim lies within the hog's run (one slice either side)"
is "$(q "SELECT e->>'background' || ' ' || (e->>'scope') || ' ' || (e->>'own') FROM js.step_insights i, jsonb_array_elements(i.evidence) e WHERE i.job_id = $victim ORDER BY (e->>'lost_s')::float DESC LIMIT 1")" \
  "cpu nodes cpu" "its largest stretch: others' CPU on the step's nodes peaked while its own CPU rate fell"
is "$(q "SELECT code || ' ' || severity FROM js.step_advice WHERE job_id = $victim AND code = 'DISTURBED'")" \
  "DISTURBED $( [ "$(insight "$victim" "lost_pct >= 15")" = t ] && echo high || echo warning)" "the victim's advice says to measure again"
is "$(insight "$hog" "light || ' ' || coalesce(disturbed::text, 'null')")" "grey null" "the hog's step of 12 s has too few whole slices: grey, unknown"
is "$(q "SELECT i.computed_at > (SELECT max(ingested_at) FROM js_data.step_nodes WHERE job_id = $victim)
         FROM js.step_insights i WHERE i.job_id = $hog AND i.step_id = '0'")" t \
  "the hog's insight was computed again after the victim's records arrived (its background changed)"

period=$(insight "$writer" "round(io_period_s)")
ok "$([ "${period:-0}" -ge 10 ] && [ "${period:-99}" -le 16 ] && echo 0 || echo 1)" "the writer's I/O has a period of ${period:-none} s (a file every 12 s)"
is "$(insight "$writer" "(io_period_z > 3) || ' ' || (io_sigma_vol < 0.5) || ' ' || write_pattern")" "true true open-write-close" \
  "its Z-score is above 3, its volume per period steady, its pattern open-write-close"
like "$(q "SELECT severity || ': ' || message FROM js.step_advice WHERE job_id = $writer AND code = 'SMALL_WRITES'")" \
  '^(warning|high): 2000 writes of 1 B on average' "its one-byte log writes give SMALL_WRITES with the figures"
is "$(q "SELECT figures->>'write_calls' FROM js.step_advice WHERE job_id = $writer AND code = 'SMALL_WRITES'")" 2000 \
  "the advice's figures: the 2,000 writes"
is "$(q "SELECT count(*) FROM js.step_advice WHERE job_id = $calm")" 0 "the calm step has no advice"

# rolled up per job; the queue is empty
is "$(q "SELECT light || ' ' || disturbed_steps || ' ' || cause FROM js.job_insights WHERE job_id = $victim")" \
  "$(insight "$victim" light) 1 cpu" "js.job_insights: the victim's job has its step's light, one disturbed step, cause cpu"
is "$(q "SELECT count(*) FROM js_data.insight_pending WHERE job_id IN ($calm, $writer, $victim, $hog)")" 0 "nothing of them is left in the queue"
done_testing
