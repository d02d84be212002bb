#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An srun -N2 -n4 step as a test user: one step record per node with the step's exact facts,
# two profiles per node owned by the user when the profiler is installed, a provisional job
# record for the srun-only job, and a failing step recorded as FAILED with its exit code.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
plan 29
uid=$(id -u jsalice); gid=$(id -g jsalice)
work=$(work_dir jsalice)
out=$(cd "$work" && as_user jsalice timeout 60 srun -N2 -n4 --ntasks-per-node=2 --chdir="$work" bash -c \
  '[ -O "$JOBSCREEN_PROFILE_DIR" ] && o=mine; echo "$SLURM_PROCID $SLURM_JOB_ID $JOBSCREEN_TASK_ID $JOBSCREEN_STEP $JOBSCREEN_JOB_ID $JOBSCREEN_PROFILE_DIR $LD_PRELOAD $o"' 2>&1)
ok $? "srun -N2 -n4 as jsalice exits 0"
job=$(awk '$1 == 0 {print $2}' <<< "$out")
like "$job" '^[0-9]+$' "task 0 reports its job id"
read -r n1 n2 <<< "$(job_nodes "$job" | tr '\n' ' ')"
nodelist=$(scontrol show hostlist "$n1,$n2")
rec=$(job_dir "$job")/step.0.$n1.json rec2=$(job_dir "$job")/step.0.$n2.json
wait_file "$rec" && wait_file "$rec2"; ok $? "a step record on each of its two nodes: step.0.$n1.json, step.0.$n2.json"
is "$(jget "$rec" 'r["format"] + " " + str(r["version"])')" "jobscreen-step 1" "format and version"
is "$(jget "$rec" 'r["job_id"]')" "$job" "job id"
is "$(jget "$rec" 'r["step"] + " " + str(r["step_id"])')" "0 0" "step id in words and as a number"
is "$(jget "$rec" 'J(r["node"], r["nodes"], r["node_list"], r["node_index"])') $(jget "$rec2" 'J(r["node"], r["node_index"])')" \
   "$n1 2 $nodelist 0 $n2 1" "node, nodes, node list, the node's index in it"
is "$(jget "$rec" 'J(r["tasks"], r["local_tasks"])') $(jget "$rec2" 'r["local_tasks"]')" "4 2 2" "tasks, and two on each node"
is "$(jget "$rec" 'J(r["uid"], r["gid"], r["user"])')" "$uid $gid jsalice" "the job user's ids and name"
is "$(jget "$rec" 'r["executable"]')" "bash" "executable is argv[0]"
is "$(jget "$rec" 'len(r["argv"])')" "3" "argv has the three arguments"
is "$(jget "$rec" 'r["work_dir"]')" "$work" "work_dir is the step's --chdir"
is "$(jget "$rec" 'J(r["exit_code"], r["signal"], r["state"])')" "0 0 COMPLETED" "exit code, signal, state"
is "$(jget "$rec" 'sorted(t["task_id"] for t in r["task_list"])') $(jget "$rec2" 'sorted(t["task_id"] for t in r["task_list"])')" \
   "[0, 1] [2, 3]" "each node's task_list holds its own ranks"
is "$(jget "$rec" 'all(isinstance(t["pid"], int) and t["pid"] > 1 and t["exit_code"] == 0 for t in r["task_list"])')" "true" "every task has its pid and exit code 0"
is "$(jget "$rec" 'r["elapsed_ns"] == r["end_ns"] - r["start_ns"] and r["elapsed_ns"] > 0')" "true" "elapsed_ns = end_ns - start_ns > 0"
now=$(date +%s%N)
is "$(jget "$rec" "abs(r['end_ns'] - $now) < 60 * 10**9 and r['written_ns'] >= r['end_ns']")" "true" "times are ns since the epoch, written after the end"
is "$(jget "$rec" 'r["slice_seconds"]')" "4" "slice length of the site default"
is "$(stat -c '%U %a' "$rec")" "root 600" "the record is root's, 0600: no other user reads it"
is "$(stat -c '%U %a' "$(job_dir "$job")")" "root 700" "the job directory is root's, 0700"
jrec=$(job_dir "$job")/job.json
wait_file "$jrec"
is "$(jget "$jrec" 'J(r["job_id"], r["batch"], r["final"], r["state"], r["user"])')" \
  "$job false false RUNNING jsalice" "an srun-only job gets a provisional job record"
if profiler_on; then
  is "$(jget "$rec" 'J(r["profiled"], r["profile_reason"], r["profiler"])')" "true on $js_profiler" "the step is marked profiled with the library's path"
  is "$(awk '$1 == 0 {print $3, $4, $5, $6, $7, $8}' <<< "$out")" "0 0 $job $JS_RECORD_DIR/$n1/job.$job $js_profiler mine" \
    "task 0 sees its rank, step, job, its record directory (in the record area, its own) and the profiler in LD_PRELOAD"
  is "$(stat -c '%U %a' "$(job_dir "$job")/profiles")" "root 700" "the spool's profiles/ is root's, 0700: the user's processes cannot write into the spool"
  # each node's profiles come in a bundle, made as the step ended there (before its step record)
  bundle=$(job_dir "$job")/profiles/0.$n1.b1.json bundle2=$(job_dir "$job")/profiles/0.$n2.b1.json
  is "$(jget <(bundle_json "$bundle") 'J(r["format"], len(r["profiles"]), sorted(set(x["node"] for x in r["profiles"])))') $(jget <(bundle_json "$bundle2") 'J(len(r["profiles"]), sorted(set(x["node"] for x in r["profiles"])))')" \
     "jobscreen-profile-bundle 2 [\"$n1\"] 2 [\"$n2\"]" "two profiles, one per rank, in each node's bundle"
  pids=$(jget "$rec" '" ".join(str(p) for p in sorted(t["pid"] for t in r["task_list"]))')
  is "$(jget <(bundle_json "$bundle") '" ".join(str(p) for p in sorted(x["pid"] for x in r["profiles"]))')" \
    "$pids" "the profiles are those of the pids in the node's step record"
  is "$(stat -c %U "$(job_dir "$job")"/profiles/0.n*.json | sort -u)" "jsalice" "the bundles are the user's"
else
  is "$(jget "$rec" 'J(r["profiled"], r["profile_reason"], r["profiler"])')" "false profiler missing null" "without a profiler the step is marked unprofiled"
  for d in "task env" "profiles/ owner" "four profiles" "profile names" "profile owners"; do skip "$d" "no profiler built"; done
fi
# a failing step: recorded, and its exit code is the task's own, not the plugin's
out=$(as_user jsalice timeout 60 srun -n2 --chdir="$work" bash -c 'echo $SLURM_JOB_ID > id.$SLURM_PROCID; exit $((5 + SLURM_PROCID))' 2>&1); st=$?
is "$st" 6 "srun returns the highest task exit code (6)"
job2=$(cat "$work/id.0")
rec3=$(job_dir "$job2")/step.0.$(job_node "$job2").json
wait_file "$rec3"
is "$(jget "$rec3" 'J(r["exit_code"], r["state"], sorted(t["exit_code"] for t in r["task_list"]))')" \
  "6 FAILED [5, 6]" "the failed step's record holds the worst exit code, FAILED, and each task's"
done_testing
