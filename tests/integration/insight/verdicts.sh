#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Insight (docs/insight.md) on real runs through the cluster's pipeline, with nothing run by hand:
# a computing step alone on n1 is judged undisturbed (green); the same step with a CPU hog of
# another job on its node for part of its run is judged disturbed, cause cpu, the evidence
# within the hog's time and the time lost about what the hog took, and none of it blamed on the
# writer running meanwhile on another node (the step does no file I/O); a writer that writes 20
# files of 16 MiB, one every 12 s, has its period and the open-write-close pattern, and its
# 2,000 one-byte log writes give the SMALL_WRITES advice; a bulk-synchronous MPI step on two
# nodes held up 5 times by 200 ms has its segments flagged and the excess estimated. The hog's
# short step is grey (too few slices), and it is computed again once the victim's records are
# in (its background changed).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
. "$JS_TOP_SRCDIR/tests/lib/insight.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline"
[ "$(wc -w <<< "$JS_NODES")" -ge 3 ] || skip_all "needs a cluster of 3 nodes or more"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
[ "${JS_HAVE_MPI:-no}" = yes ] || skip_all "no MPI (the victims are bulk-synchronous MPI kernels)"
plan 28
q() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
w=$(work_dir jsalice)
nodes=($JS_NODES)
mpicc -O1 -o "$w/insight_bsp" "$JS_TOP_SRCDIR/contrib/examples/insight/bsp.c" &&
  mpicc -O1 -o "$w/mpi_segments" "$JS_TOP_SRCDIR/tests/profiler/mpi_segments.c" && chown jsalice "$w/insight_bsp" "$w/mpi_segments"
ok $? "the MPI programs compile"
# a hog: awk computing, nothing else
hog_cmd='awk -v s=$1 "BEGIN { t = systime() + s; while (systime() < t) n++ }"'
# jobs of jsalice's; $1 the name, then sbatch's options and the command
submit() { local name=$1 cmd=${!#}; set -- "${@:2:$#-2}"; (cd "$w" && as_user jsalice sbatch --parsable -o /dev/null -J "$name" "$@" --wrap "$cmd"); }

# the calm step: the kernel alone, two ranks on n1, before anything else of this test runs (the
# test's nodes share this machine's two cores: the writer's fsyncs on n3 hold its ranks up, as
# no other node could on a real cluster, and its segments see that)
calm=$(submit calm -w "${nodes[0]}" -n2 "srun --mpi=pmix ./insight_bsp 28")
is "$(wait_job_done "$calm" 120)" COMPLETED "the calm step ran"
# from now on, on n3: a writer of 20 files of 16 MiB, one every 12 s and the time it takes, with
# 2,000 one-byte log writes at its start. A Z-score among the n/2 amplitudes of n slices is at
# most sqrt(n/2 - 1): ten files (31 slices) reach 3.7 at best, and one write split across two
# slices by the machine's load took them below 3; twenty reach 5.5
writer=$(submit writer -w "${nodes[2]}" -n1 "srun bash -c 'for k in \$(seq 2000); do printf x; done > log; for i in \$(seq 20); do dd if=/dev/zero of=ckpt.\$i bs=4M count=4 conv=fsync status=none; sleep 12; done'")

# the victim, and 14 s into it a hog of four processes on its node for 12 s (a quarter of its
# run: the undisturbed rest tells its usual pace)
victim=$(submit victim -w "${nodes[0]}" -n2 "srun --mpi=pmix ./insight_bsp 44")
for i in $(seq 100); do [ "$(job_state "$victim")" = RUNNING ] && break; sleep 0.2; done
sleep 14
hog=$(submit hog -w "${nodes[0]}" -n4 "srun bash -c '$hog_cmd' hog 12")
is "$(wait_job_done "$victim" 120)|$(wait_job_done "$hog" 120)" "COMPLETED|COMPLETED" "the victim and the hog ran"

# a bulk-synchronous step on two nodes whose rank 0 holds 5 of its 60 iterations up by 200 ms
mpi=$(submit bsp -N2 -n2 -w "${nodes[1]},${nodes[3]}" "srun --mpi=pmix ./mpi_segments 60")
is "$(wait_job_done "$mpi" 120)|$(wait_job_done "$writer" 360)" "COMPLETED|COMPLETED" "the held-up MPI step and the writer ran"
wait_pipeline 90 "$calm" "$writer" "$victim" "$hog" "$mpi"
ok $? "the jobs reached the database"

# their insight: computed insight_settle_seconds (5 s on the test cluster) after their records
insight() { q "SELECT $2 FROM js.step_insights WHERE job_id = $1 AND step_id = '0'"; }
# (wait_pipeline saw every record in): until the queue holds none of them and each has its
# insight (a step computed before a neighbour's records arrived is queued again meanwhile)
jobs="$calm, $writer, $victim, $hog, $mpi"
for i in $(seq 200); do
  [ "$(q "SELECT count(*) FROM js_data.insight_pending WHERE job_id IN ($jobs)")|$(q "SELECT count(*) FROM js.step_insights WHERE job_id IN ($jobs) AND step_id = '0'")" = "0|5" ] && break
  sleep 0.2
done
diag "$(q "SELECT job_id, light, disturbed, cause, round(lost_s::numeric, 1), round(lost_pct::numeric, 1), round(interference_pct::numeric, 1), slices, dented_slices, disturbed_slices, evidence FROM js.step_insights WHERE job_id IN ($calm, $writer, $victim, $hog) AND step_id = '0' ORDER BY job_id")"
is "$(insight "$calm" "light || ' ' || disturbed || ' ' || disturbed_slices || ' ' || coalesce(cause, '-')")" "green false 0 -" \
  "the calm step: green, not disturbed, no disturbed slice, no cause"
is "$(insight "$victim" "disturbed || ' ' || cause || ' ' || (light IN ('yellow', 'red'))")" "true cpu true" \
  "the victim: disturbed, by others' CPU on its node, a yellow or red light"
lost=$(insight "$victim" "round(lost_s)")
ok "$([ "${lost:-0}" -ge 3 ] && [ "${lost:-99}" -le 16 ] && echo 0 || echo 1)" "the victim lost ${lost:-?} s, between 3 and 16 s (the hog had 4 processes for 12 s on its 2 ranks' cores)"
in_time=$(evidence_within "$JS_DB" "$victim" "$hog")
is "$in_time" t "the evidence of the victim lies within the hog's run (one slice either side)"
is "$(q "SELECT e->>'background' || ' ' || (e->>'scope') || ' ' || (e->>'own' IN ('cpu', 'mpi')) FROM js.step_insights i, jsonb_array_elements(i.evidence) e WHERE i.job_id = $victim AND i.step_id = '0' ORDER BY (e->>'lost_s')::float DESC LIMIT 1")" \
  "cpu nodes true" "its largest stretch: others' CPU on the step's nodes peaked while its own CPU or MPI rate fell"
is "$(q "SELECT count(*) FROM js.step_insights i, jsonb_array_elements(i.evidence) e
         WHERE i.job_id = $victim AND i.step_id = '0' AND e->>'background' IN ('io', 'metadata')")" 0 \
  "the writer's I/O beside it is blamed for none of its stretches (the victim does no file I/O)"
is "$(q "SELECT code || ' ' || severity FROM js.step_advice WHERE job_id = $victim AND step_id = '0' AND code = 'DISTURBED'")" \
  "DISTURBED $( [ "$(insight "$victim" "greatest(lost_pct, interference_pct) >= 15")" = t ] && echo high || echo warning)" \
  "the victim's advice says to measure again (high when either estimate is above 15 %)"
is "$(insight "$hog" "light || ' ' || coalesce(disturbed::text, 'null')")" "grey null" "the hog's step of 12 s has too few whole slices: grey, unknown"
is "$(q "SELECT i.computed_at > (SELECT max(ingested_at) FROM js_data.step_nodes WHERE job_id = $victim)
         FROM js.step_insights i WHERE i.job_id = $hog AND i.step_id = '0'")" t \
  "the hog's insight was computed again after the victim's records arrived (its background changed)"

period=$(insight "$writer" "round(io_period_s)")
ok "$([ "${period:-0}" -ge 10 ] && [ "${period:-99}" -le 16 ] && echo 0 || echo 1)" "the writer's I/O has a period of ${period:-none} s (a file every 12 s)"
diag "the writer: period $(insight "$writer" "round(io_period_s::numeric, 1) || ' s, Z ' || round(io_period_z::numeric, 2) || ', sigma_vol ' || round(io_sigma_vol::numeric, 3) || ', sigma_time ' || round(io_sigma_time::numeric, 3)")"
is "$(insight "$writer" "(io_period_z > 3) || ' ' || (io_sigma_vol < 0.5) || ' ' || write_pattern")" "true true open-write-close" \
  "its Z-score is above 3, its volume per period steady (though its period, 12 s and a bit, is no whole number of slices), its pattern open-write-close"
like "$(q "SELECT severity || ': ' || message FROM js.step_advice WHERE job_id = $writer AND code = 'SMALL_WRITES'")" \
  '^(warning|high): 2000 writes of 1 B on average' "its one-byte log writes give SMALL_WRITES with the figures"
is "$(q "SELECT figures->>'write_calls' FROM js.step_advice WHERE job_id = $writer AND code = 'SMALL_WRITES'")" 2000 \
  "the advice's figures: the 2,000 writes"
is "$(q "SELECT count(*) FROM js.step_advice WHERE job_id = $writer AND code = 'METADATA_STORM'")" 0 \
  "its 2,000 printf, each flushed by the shell (stdio's fflush), are no METADATA_STORM"
is "$(q "SELECT count(*) FROM js.step_advice WHERE job_id = $calm AND step_id = '0' AND code = 'DISTURBED'")" 0 "the calm step has no DISTURBED advice"

# the held-up MPI step: too short for its slices, judged by its segments: 2 ranks x 5 segments
# held up 200 ms beyond a median of about 20 ms, about 2 s in excess of median + 4 MAD
diag "$(q "SELECT segments, segment_groups, segments_flagged, round(segment_excess_s::numeric, 2), round(interference_pct::numeric, 1), interference_class, light FROM js.step_insights WHERE job_id = $mpi AND step_id = '0'")"
flagged=$(insight "$mpi" "segments || ' ' || segment_groups || ' ' || (segments_flagged >= 10)")
is "$flagged" "140 2 true" "the held-up MPI step: 140 segments in 2 groups judged, the 10 held up flagged (and any the machine's own load made slow)"
excess=$(insight "$mpi" "round(segment_excess_s * 10)")
ok "$([ "${excess:-0}" -ge 16 ] && [ "${excess:-99}" -le 22 ] && echo 0 || echo 1)" \
  "their excess is $(insight "$mpi" "round(segment_excess_s::numeric, 2)") s: the 2 x 1 s injected, less 2 x 5 x the threshold's margin over the median"
is "$(insight "$mpi" "disturbed || ' ' || light || ' ' || interference_class")" "true red high" \
  "its estimate is high (above 15 % of the ranks' time): disturbed, red"

# the batch steps of the victim and the calm job, shells waiting for their srun, have no verdict
# of their own (once one read disturbed beside step 0, another "slowed by 6 % with their I/O"
# beside a green srun); the job is rolled up from its one real step; the queue is empty
is "$(q "SELECT light || ' ' || coalesce(disturbed::text, 'null') || ' ' || judged_by_sruns FROM js.step_insights
         WHERE job_id IN ($victim, $calm) AND step_id = 'batch' ORDER BY job_id" | tr '\n' ',')" \
  "grey null true,grey null true," "the calm job's and the victim's batch steps: no verdict of their own, judged by their sruns"
is "$(q "SELECT count(*) FROM js.step_advice WHERE job_id IN ($victim, $calm) AND step_id = 'batch' AND code = 'DISTURBED'")" 0 \
  "neither batch step has DISTURBED advice"
is "$(q "SELECT steps || ' ' || light || ' ' || disturbed_steps || ' ' || cause FROM js.job_insights WHERE job_id = $victim")" \
  "1 $(insight "$victim" light) 1 cpu" "js.job_insights: the victim's job has one step judged, its light, 1 disturbed step, cause cpu"
is "$(q "SELECT count(*) FROM js_data.insight_pending WHERE job_id IN ($jobs)")" 0 "nothing of them is left in the queue"
metrics=$(curl -s "$JS_INGEST_METRICS_URL")
is "$(awk '$1 == "jobscreen_ingest_insight_steps_total" { print ($2 >= 10) } $1 == "jobscreen_ingest_insight_errors_total" { print $2 }' <<< "$metrics" | tr '\n' ' ')" \
  "1 0 " "the daemon's metrics: 10 steps' insight computed at least (these jobs' steps), none failed"
done_testing
