#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The job record keeps what Slurm forgets: afterok, afterany, several dependencies, '?' (any),
# array tasks and whole arrays, and the workflow tag (--workflow or JOBSCREEN_WORKFLOW).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
plan 22
work=$(work_dir jsalice)
sb() { (cd "$work" && as_user jsalice sbatch --parsable --chdir="$work" -o /dev/null "$@"); }

a=$(sb --workflow=wf42 --wrap 'sleep 2')
b=$(sb --dependency=afterok:"$a" --wrap true)
c=$(sb --dependency=afterany:"$a":"$b" --wrap true)
d=$(sb --dependency="afterok:$a?afterany:$b" --wrap true)
arr=$(sb --array=0-2 --wrap true)
e=$(sb --dependency=afterok:"${arr}_1" --wrap true)
f=$(as_user jsalice env JOBSCREEN_WORKFLOW=wf42env sbatch --parsable --chdir="$work" -o /dev/null \
  --dependency=afterok:"$arr",afterany:"$c" --wrap true)
for j in "$a" "$b" "$c" "$d" "$e" "$f"; do wait_job_done "$j" 90 >/dev/null; done
is "$(job_state "$f")" COMPLETED "the last of the chain completes"
for j in "$a" "$b" "$c" "$d" "$e" "$f"; do wait_file "$(job_dir "$j")/job.json"; done
jr() { jget "$(job_dir "$1")/job.json" "$2"; }

is "$(jr "$a" 'J(r["dependency"], r["dependencies"], r["workflow"])')" "null [] wf42" "no dependency; --workflow=wf42 lands in the job record"
is "$(jr "$a" 'J(r["final"], r["state"], r["exit_code"], r["batch"], r["source"])')" "true COMPLETED 0 true plugin" \
  "the batch step's end makes the record final"
is "$(jr "$b" 'r["dependency"]')" "afterok:$a" "afterok: the raw dependency string"
is "$(jr "$b" 'J([(x["type"], x["job_id"]) for x in r["dependencies"]], r["dependency_any"])')" "[[\"afterok\", $a]] false" "afterok: parsed"
is "$(scontrol show job "$b" | grep -o 'Dependency=[^ ]*')" "Dependency=(null)" "slurmctld forgot b's dependency"
is "$(jr "$c" 'r["dependency"]')" "afterany:$a:$b" "afterany with two jobs: raw"
is "$(jr "$c" '[(x["type"], x["job_id"]) for x in r["dependencies"]]')" "[[\"afterany\", $a], [\"afterany\", $b]]" "afterany with two jobs: one element each"
is "$(jr "$d" 'J([(x["type"], x["job_id"]) for x in r["dependencies"]], r["dependency_any"])')" \
  "[[\"afterok\", $a], [\"afterany\", $b]] true" "'?' gives dependency_any"
is "$(jr "$e" 'J(r["dependency"], [(x["job_id"], x["array_task_id"]) for x in r["dependencies"]])')" \
  "afterok:${arr}_1 [[$arr, 1]]" "a dependency on one array task keeps the task id"
is "$(jr "$f" '[(x["type"], x["job_id"], x["array_task_id"]) for x in r["dependencies"]]')" \
  "[[\"afterok\", $arr, null], [\"afterany\", $c, null]]" "whole array and a second job: two elements"
is "$(jr "$f" 'r["workflow"]')" "wf42env" "JOBSCREEN_WORKFLOW in the submitter's environment tags the job"
is "$(jr "$f" 'J(r["user"], r["uid"], r["group"], r["partition"], r["name"])')" "jsalice $(id -u jsalice) jsalice debug wrap" "user, group, partition, name"
is "$(jr "$f" 'r["submit_ns"] <= r["eligible_ns"] <= r["start_ns"] < r["end_ns"] and r["submit_ns"] % 10**9 == 0')" "true" \
  "submit <= eligible <= start < end, Slurm times in whole seconds"
is "$(jr "$f" 'J(r["work_dir"], r["nodes"], r["cpus"], r["tasks"])')" "$work 1 1 1" "work dir, nodes, CPUs, tasks"

# the array's three tasks: each its own job record with array ids
recs=$(grep -l "\"array_job_id\":$arr," "$JS_SPOOL_DIR"/job.*/job.json 2>/dev/null)
is "$(echo "$recs" | grep -c .)" 3 "three job records carry array_job_id $arr"
is "$(for r in $recs; do jget "$r" 'r["array_task_id"]'; done | sort -n | tr '\n' ' ')" "0 1 2 " "with array_task_id 0, 1, 2"
tid=$(for r in $recs; do jget "$r" 'J(r["job_id"], r["array_task_id"])'; done | awk '$2 == 1 {print $1}')
is "$(jget "$(job_dir "$tid")/step.batch.$(job_node "$tid").json" 'J(r["array_job_id"], r["array_task_id"])')" "$arr 1" \
  "the array task's step record carries the array ids too"

# a batch script given as a file, and its exit code
printf '#!/bin/bash\nexit 7\n' > "$work/fails.sh"; chmod 755 "$work/fails.sh"
g=$(sb "$work/fails.sh")
wait_job_done "$g" 60 >/dev/null
wait_file "$(job_dir "$g")/job.json"
for i in $(seq 50); do [ "$(jr "$g" 'r["final"]')" = true ] && break; sleep 0.1; done
is "$(jr "$g" 'J(r["batch_script"], r["exit_code"], r["state"], r["final"])')" "$work/fails.sh 7 FAILED true" "batch script path and exit code 7"
is "$(jr "$a" 'r["batch_script"]')" "null" "--wrap has no script path"

# the plugin writes the job record when the batch step starts: a job that never starts has
# none (the joblog command can backfill it, see joblog/command)
h=$(sb --dependency=afterok:"$g" --wrap true)
sleep 1
is "$(scontrol show job "$h" | grep -o 'Reason=[^ ]*')" "Reason=DependencyNeverSatisfied" "a dependant of a failed job never starts"
ok "$([ ! -e "$(job_dir "$h")" ]; echo $?)" "and has no spool directory (nothing ran)"
scancel "$h"
done_testing
