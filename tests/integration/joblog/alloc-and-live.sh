#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Jobs without a batch script and records of live jobs: salloc with two steps ending at once
# (both rewrite job.json: it stays whole), salloc --no-profile and --workflow reaching every
# step, srun --dependency captured, and a batch job's record on disk with its dependency while
# the job still runs.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
plan 18
work=$(work_dir jsalice)

# salloc: two steps side by side, ending together
out=$(cd "$work" && as_user jsalice timeout 90 salloc -Q -n2 --workflow=wf47 --no-profile bash -c \
  'echo "job $SLURM_JOB_ID"; srun -n1 --exact sleep 1 & srun -n1 --exact sleep 1 & wait' 2>&1)
ok $? "salloc with two concurrent steps exits 0"
job=$(sed -n 's/^job //p' <<< "$out")
d=$(job_dir "$job") node=$(job_node "$job")
wait_file "$d/step.0.$node.json"; wait_file "$d/step.1.$node.json"
is "$(ls "$d" | tr '\n' ' ')" "job.json step.0.$node.json step.1.$node.json " \
  "two step records and one job record, no profiles/ (salloc --no-profile), no temporaries"
is "$(ls -a "$d" | grep -c '\.tmp$')" 0 "no temporary file left by the two writers"
is "$(jget "$d/job.json" 'J(r["job_id"], r["batch"], r["final"], r["state"], r["workflow"], r["tasks"])')" \
  "$job false false RUNNING wf47 2" "the job record of an salloc job: provisional, tagged, whole"
is "$(for s in 0 1; do jget "$d/step.$s.$node.json" 'J(r["profiled"], r["profile_reason"], r["workflow"], r["executable"])'; done | sort -u)" \
  "false no-profile option wf47 sleep" "salloc --no-profile and --workflow reach both steps"
is "$(jget "$d/step.0.$node.json" 'r["end_ns"] - 10**9 >= r["start_ns"]')" "true" "a 1 s sleep step lasts at least 1 s"

# srun --dependency: srun-only jobs capture it too
a=$(cd "$work" && as_user jsalice sbatch --parsable --chdir="$work" -o /dev/null --wrap 'sleep 1')
out=$(cd "$work" && as_user jsalice timeout 60 srun -Q --dependency=afterok:"$a" -n1 bash -c 'echo $SLURM_JOB_ID' 2>&1)
ok $? "srun --dependency waits and runs"
jr=$(job_dir "$out")/job.json
wait_file "$jr"
is "$(jget "$jr" 'J(r["dependency"], [x["job_id"] for x in r["dependencies"]], r["batch"])')" "afterok:$a [$a] false" \
  "srun --dependency lands in the srun-only job's record"

# while a batch job runs, its record is there already, dependency included
b=$(cd "$work" && as_user jsalice sbatch --parsable --chdir="$work" -o /dev/null --dependency=afterany:"$a" \
  --wrap 'touch started; sleep 4')
for i in $(seq 100); do [ -e "$work/started" ] && break; sleep 0.1; done
ok "$([ -e "$work/started" ]; echo $?)" "the dependant batch job is running"
is "$(scontrol show job "$b" | grep -o 'Dependency=[^ ]*')" "Dependency=(null)" "slurmctld no longer shows its dependency"
jr=$(job_dir "$b")/job.json
wait_file "$jr"
is "$(jget "$jr" 'J(r["final"], r["state"], r["dependency"], r["end_ns"], r["exit_code"])')" "false RUNNING afterany:$a null null" \
  "while it runs, the job record already holds the dependency"
is "$(wait_job_done "$b" 30)" COMPLETED "the job completes"
for i in $(seq 50); do [ "$(jget "$jr" 'r["final"]')" = true ] && break; sleep 0.1; done
is "$(jget "$jr" 'J(r["final"], r["state"], r["dependency"], r["exit_code"])')" "true COMPLETED afterany:$a 0" "at its end the record is final"
is "$(jget "$jr" 'r["end_ns"] - r["start_ns"] >= 4 * 10**9 - 10**9')" "true" "and its times span the 4 s sleep (start in whole seconds)"

# workflow names: refused where typed, ignored (and logged) when they come from the environment
out=$(as_user jsalice timeout 30 srun -Q --workflow='a b' -n1 true 2>&1); st=$?
is "$st" 255 "srun --workflow='a b' is refused before submission"
like "$out" "jobscreen: --workflow=a b: a workflow name is 1 to 127 printable characters without blanks or '/'" "and says why"
log_mark
as_user jsalice env JOBSCREEN_WORKFLOW=bad/name timeout 30 srun -Q -n1 true
ok $? "a step with a bad JOBSCREEN_WORKFLOW runs (exit 0)"
for i in $(seq 30); do log_since | grep -q 'JOBSCREEN_WORKFLOW=bad/name' && break; sleep 0.1; done
like "$(log_since | grep 'JOBSCREEN_WORKFLOW')" "jobscreen: JOBSCREEN_WORKFLOW=bad/name: not a workflow name; ignored" "a bad JOBSCREEN_WORKFLOW is logged and ignored"
done_testing
