#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What users read must be right (issue 36, part B), on real runs through the cluster's pipeline:
# - a batch step that only waits for its srun is not IDLE_ALLOCATION: the job is judged by its
#   steps together (its srun kept the job's CPU busy);
# - the batch step is named batch: three jobs of one rule without srun are one per-name row
#   (API and CLI), the script's spool path kept as the step's script;
# - a job submitted by a script after an unrelated job ended, but reading what a third job
#   wrote, has the file edge from the third job, no time edge, and is in the third job's
#   workflow, not the unrelated one's.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
CLI=$JS_TOP_BUILDDIR/web/jobscreen
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 12
q() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
w=$(work_dir jsalice)
mkd() { as_user jsalice mkdir -p "$@"; }
sub() { (cd "$1" && shift && setsid runuser -u jsalice -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable -o /dev/null "$@"); }
api() { curl -s -G -u jsalice:jsalice "${JS_WEB_URL}cgi-bin/jobscreen.cgi" "$@"; }
cli() { runuser -u jsalice -- env JOBSCREEN_CLI_CONF="$JOBSCREEN_CLI_CONF" "$CLI" "$@"; }
engine() {
  (cd "$1" && setsid runuser -u jsalice -- env SLURM_CONF="$SLURM_CONF" bash -c '
    sb() { local n=$1; shift; sbatch --parsable -o /dev/null -J "$n" "$@"; }
    wt() { while squeue -h -j "$1" 2>/dev/null | grep -q .; do sleep 0.2; done; }
    '"$2")
}

# --- a batch step that waits for its srun, which computes for 62 s on the job's one CPU ---
ba=$w/waiter; mkd "$ba"
waiter=$(sub "$ba" -J waiter -n1 -c1 --wrap "srun awk 'BEGIN { t = systime() + 62; while (systime() < t) n++ }'")

# --- three jobs of one rule, without srun ---
ru=$w/rule; mkd "$ru"; as_user jsalice sh -c "echo data > '$ru/in.txt'"
tag=rule$$
rules=()
for i in 1 2 3; do rules+=("$(sub "$ru" -J count --workflow="$tag" --wrap "wc -c in.txt > out.$i")"); done

# --- a script: a third job writes c.out; an unrelated job ends after it; then a reader of c.out ---
te=$w/timeedge; mkd "$te"
# (the third job lasts 2 s: the unrelated one, submitted at once, is not "after" it by Slurm's
# whole-second submit time)
read -r third unrelated reader <<< "$(engine "$te" 'c=$(sb third --wrap "srun sh -c \"sleep 2; echo x > c.out\""); a=$(sb unrelated --wrap "srun sleep 5")
  wt $c; wt $a; b=$(sb reader --wrap "srun cat c.out"); wt $b; echo $c $a $b')"
for j in "${rules[@]}" "$third" "$unrelated" "$reader"; do wait_job_done "$j" 120 >/dev/null; done
is "$(wait_job_done "$waiter" 180)" COMPLETED "the waiting job ran"
wait_pipeline 120 "$waiter" "${rules[@]}" "$third" "$unrelated" "$reader"
ok $? "the jobs reached JS_DB"

# --- the batch step that waited: not idle allocation ---
for i in $(seq 300); do
  [ "$(q "SELECT count(*) FROM js_data.insight_pending WHERE job_id = $waiter")|$(q "SELECT count(*) FROM js.step_insights WHERE job_id = $waiter AND step_id = 'batch'")" = "0|1" ] && break
  sleep 0.2
done
diag "$(q "SELECT step_id, num_cpus, round(cpu_ns / 1e9, 1), round(elapsed_s::numeric, 1) FROM js.steps WHERE job_id = $waiter ORDER BY step_id")"
used=$(q "SELECT round(100 * sum(s.cpu_ns) / 1e9 / (extract(epoch FROM j.end_time - j.start_time) * j.num_cpus)) FROM js.steps s JOIN js.jobs j USING (cluster_id, job_id) WHERE s.job_id = $waiter AND s.step_id <> 'extern' GROUP BY j.end_time, j.start_time, j.num_cpus")
diag "the job used $used % of its CPU"
is "$(q "SELECT count(*) FROM js.step_advice WHERE job_id = $waiter AND step_id = 'batch' AND code = 'IDLE_ALLOCATION' AND figures->>'scope' = 'step'")" 0 \
   "the batch step waiting for its srun is not judged by its own CPU"
is "$(q "SELECT count(*) FROM js.step_advice WHERE job_id = $waiter AND code = 'IDLE_ALLOCATION'")" \
   "$([ "${used:-0}" -ge 25 ] && echo 0 || echo 1)" "no IDLE_ALLOCATION while its steps together used 25 % of the job's CPUs or more (here $used %)"

# --- one rule, one row ---
wf=$(q "SELECT DISTINCT workflow_id FROM js.jobs WHERE job_id IN ($(IFS=,; echo "${rules[*]}"))")
is "$(q "SELECT count(*) || ' ' || count(*) FILTER (WHERE name = 'batch' AND script LIKE '%/slurm_script') FROM js.steps WHERE job_id IN ($(IFS=,; echo "${rules[*]}")) AND step_id = 'batch'")" \
   "3 3" "the three batch steps are named batch, their scripts' spool paths kept as script"
is "$(api --data-urlencode q=workflow --data-urlencode "id=$wf" --data-urlencode by=name | jq -c '[.step_names[] | [.job_name, .step_name, .jobs]]')" \
   '[["count","batch",3]]' "the per-name table (API): one row for the rule, 3 jobs"
out=$(cli -w "$wf")
diag "$out"
like "$(grep -A3 'Per job and step name' <<< "$out" | sed -n 3p)" '^  count +batch +3 ' "the CLI's per-name table: one row 'count batch 3'"
ok "$(grep -Eq 'slurm_script|/var/tmp' <<< "$out" && echo 1 || echo 0)" "the CLI shows no spool path"
is "$(api --data-urlencode q=step --data-urlencode "job=${rules[0]}" --data-urlencode step=batch | jq -r '[.step.name, (.step.script | test("/slurm_script$"))] | join(" ")')" \
   "batch true" "the step API: name batch, the script kept"

# --- the time edge that nothing should make ---
is "$(q "SELECT kind || ':' || from_job FROM js.dependencies WHERE to_job = $reader ORDER BY kind")" "file:$third" \
   "the reader: the file edge from the third job, no time edge from the unrelated one"
is "$(q "SELECT (SELECT workflow_id FROM js.jobs WHERE job_id = $reader) = (SELECT workflow_id FROM js.jobs WHERE job_id = $third)")|$(q "SELECT (SELECT workflow_id FROM js.jobs WHERE job_id = $reader) = (SELECT workflow_id FROM js.jobs WHERE job_id = $unrelated)")" \
   "t|f" "the reader is in the third job's workflow, not in the unrelated job's"
is "$(q "SELECT count(*) FROM js.workflows w WHERE w.jobs <> (SELECT count(*) FROM js.jobs j WHERE j.cluster_id = w.cluster_id AND j.workflow_id = w.workflow_id)")" 0 \
   "every workflow's kept job count is its jobs' after the split"
done_testing
