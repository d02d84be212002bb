#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Arrays and every job's end, through the cluster's pipeline into JS_DB and the API (issue 14):
# an array of four tasks keeps its task indexes (35_1), a dependant of the whole array gets a
# scheduler edge from every task, one of a single task from that task only, in either order of
# ingest, and the array is one workflow; an srun-only job and an salloc session end final with
# their end time, a time-limited job is TIMEOUT, and jobs that never started (a dependant of a
# failed job, cancelled; a held job, cancelled) are there with their state and pending reason
# (slurmctld's EpilogSlurmctld runs joblog --controller into the controller's spool).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline (transport/ or profile_ingest not built)"
[ -s "$JS_CLUSTER_DIR/pipeline/send.ctld.pid" ] || skip_all "the cluster has no controller spool (tests/cluster too old)"
command -v jq >/dev/null || skip_all "jq is not installed"
plan 23
q() { psql -X -q -At -F' ' -d "$JS_DB" -c "$1"; }
api() { curl -s -G -u jsalice:jsalice "${JS_WEB_URL}cgi-bin/jobscreen.cgi" "$@"; }
w=$(work_dir jsalice)
sb() { (cd "$w" && as_user jsalice sbatch --parsable --chdir="$w" -o /dev/null "$@"); }

# the time-limited job first: Slurm's limits are whole minutes, checked every 30 s
tl=$(sb -J tlim --time=1 --wrap 'sleep 300')
arr=$(sb -J arr --array=0-3 --wrap 'sleep 2'); arr=${arr%%;*}
dall=$(sb -J after-arr --dependency=afterok:"$arr" --wrap true)
done1=$(sb -J after-task --dependency=afterok:"${arr}_1" --wrap true)
bad=$(sb -J fails --wrap false)
never=$(sb -J never --dependency=afterok:"$bad" --wrap true)
held=$(sb -J held --hold --wrap true)
only=$(cd "$w" && as_user jsalice srun -N1 -J only bash -c 'echo $SLURM_JOB_ID' | head -n 1)
sess=$(cd "$w" && as_user jsalice salloc -N1 -J sess sh -c 'srun true; echo $SLURM_JOB_ID' 2>/dev/null | tail -n 1)
like "$only $sess" '^[0-9]+ [0-9]+$' "an srun-only job ($only) and an salloc session ($sess) ran"

# the never-started: wait until Slurm says why they wait, then cancel them
wait_job_done "$bad" 60 >/dev/null
for i in $(seq 150); do
  scontrol show job "$never" | grep -q 'Reason=DependencyNeverSatisfied' && break; sleep 0.2
done
scancel "$never" "$held"
is "$(wait_job_done "$dall" 60)/$(wait_job_done "$done1" 60)" COMPLETED/COMPLETED "the dependants of the array and of its task 1 ran"
ids=$(scontrol show job "$arr" | sed -n 's/^JobId=\([0-9]*\) ArrayJobId=[0-9]* ArrayTaskId=\([0-9]*\).*/\2 \1/p' | sort -n)
task1=$(awk '$1 == 1 { print $2 }' <<< "$ids")
is "$(wc -l <<< "$ids")" 4 "Slurm made four tasks of array $arr: $(tr '\n' ' ' <<< "$ids")"
alltasks=$(awk '{ print $2 }' <<< "$ids" | sort -n | paste -sd' ')

wait_pipeline 120 $alltasks "$dall" "$done1" "$bad" "$only" "$sess" "$never" "$held"
ok $? "the array's tasks, their dependants, the srun-only, salloc and never-started jobs reached JS_DB"

# arrays
is "$(q "SELECT array_task_id || ':' || job_id FROM js.jobs WHERE array_job_id = $arr ORDER BY array_task_id" | paste -sd' ')" \
   "$(awk '{ print $1 ":" $2 }' <<< "$ids" | paste -sd' ')" "js.jobs keeps each task's array job id and index"
is "$(q "SELECT from_job FROM js.dependencies WHERE kind = 'scheduler' AND to_job = $dall ORDER BY from_job" | paste -sd' ')" \
   "$alltasks" "afterok:$arr: a scheduler edge from every task"
is "$(q "SELECT from_job FROM js.dependencies WHERE kind = 'scheduler' AND to_job = $done1" | paste -sd' ')" \
   "$task1" "afterok:${arr}_1: an edge from task 1 (job $task1) only"
is "$(q "SELECT count(DISTINCT workflow_id) FROM js.jobs WHERE job_id IN ($(tr ' ' , <<< "$alltasks"), $dall, $done1)")" 1 \
   "the tasks and both dependants are one workflow"

# the same records ingested the other way round (dependants first, then the tasks one by one)
# into a database of this test's own
scratch=js64_$$
psql -X -q -d "$JS_DB" -c "CREATE DATABASE $scratch" >/dev/null
at_exit "psql -X -q -d '$JS_DB' -c 'DROP DATABASE IF EXISTS $scratch' >/dev/null 2>&1"
sdb=$(sed "s/dbname=[^ ]*/dbname=$scratch/" <<< "$JS_DB")
"$JS_TOP_BUILDDIR/profile_ingest/profile_ingest" --migrate --db "$sdb" >/dev/null 2>&1
# one pass of the ingest per job record, in that order (a spool of root's holding only it)
one=$(mktemp -d "$JS_CLUSTER_DIR/spool64.XXXXXX")
at_exit "rm -rf '$one' '$one.q'"
for j in "$done1" "$dall" $(tr ' ' '\n' <<< "$alltasks" | sort -rn); do
  install -d -m 0700 "$one/job.$j"
  q "SELECT record FROM js_data.jobs WHERE job_id = $j" > "$one/job.$j/job.json"
  "$JS_TOP_BUILDDIR/profile_ingest/profile_ingest" --once --no-migrate --spool "$one" --db "$sdb" --quarantine "$one.q" \
    --set cluster=jobscreen --set job_grace_seconds=0 --log-level warn 2>>"$JS_CLUSTER_DIR/ingest64.log"
done
is "$(psql -X -q -At -d "$sdb" -c "SELECT to_job || '<' || string_agg(from_job::text, ',' ORDER BY from_job) FROM js.dependencies WHERE kind = 'scheduler' GROUP BY to_job ORDER BY to_job" | paste -sd' ')" \
   "$dall<$(tr ' ' , <<< "$alltasks") $done1<$task1" "dependants ingested before the tasks: the same edges"

# the API and what the viewer reads
j1=$(api --data-urlencode q=job --data-urlencode "id=$task1")
is "$(jq -r '.job | "\(.array_job_id)_\(.array_task_id)"' <<< "$j1")" "${arr}_1" "job: array_job_id and array_task_id"
is "$(api --data-urlencode q=jobs --data-urlencode name=arr | jq -r "[.jobs[] | select(.array_job_id == $arr) | .array_task_id] | sort | join(\",\")")" \
   "0,1,2,3" "jobs: every task with its index"
wf=$(api --data-urlencode q=workflow --data-urlencode "job=$dall" | jq -f "$JS_TOP_SRCDIR/tests/web/workflow-decode.jq")
is "$(jq -r "[.jobs[] | select(.array_job_id == $arr)] | length" <<< "$wf")/$(jq -r "[.edges[] | select(.kind == \"scheduler\" and .to_job == $dall)] | length" <<< "$wf")" \
   "4/4" "workflow: the four tasks (grouped by array_job_id in the graph) and their four edges to the dependant"

# every job's end
is "$(q "SELECT state || ' ' || final || ' ' || (end_time IS NOT NULL) FROM js.jobs WHERE job_id = $only")" "COMPLETED true true" \
   "the srun-only job: final, COMPLETED, with its end time"
is "$(q "SELECT state || ' ' || final || ' ' || (end_time >= start_time) FROM js.jobs WHERE job_id = $sess")" "COMPLETED true true" \
   "the salloc session: final, COMPLETED, with its end time"
is "$(q "SELECT state || ' ' || coalesce(reason, '-') FROM js.jobs WHERE job_id = $bad")" "FAILED NonZeroExitCode" \
   "the failed job: FAILED, reason NonZeroExitCode"
is "$(q "SELECT state || ' ' || reason || ' ' || final || ' ' || (start_time IS NULL) || ' ' || (end_time IS NOT NULL) || ' ' || dependency FROM js.jobs WHERE job_id = $never")" \
   "CANCELLED DependencyNeverSatisfied true true true afterok:$bad(failed)" \
   "the dependant of the failed job, cancelled: CANCELLED, DependencyNeverSatisfied, never started, its dependency"
is "$(q "SELECT from_job FROM js.dependencies WHERE kind = 'scheduler' AND to_job = $never")" "$bad" "and its scheduler edge from the failed job"
is "$(q "SELECT state || ' ' || reason || ' ' || (start_time IS NULL) FROM js.jobs WHERE job_id = $held")" "CANCELLED JobHeldUser true" \
   "the held job, cancelled while pending: CANCELLED, JobHeldUser"
is "$(api --data-urlencode q=job --data-urlencode "id=$never" | jq -r '.job | "\(.state) \(.reason) \(.start)"')" \
   "CANCELLED DependencyNeverSatisfied null" "the API gives its state, reason and no start"

is "$(wait_job_done "$tl" 150)" TIMEOUT "the time-limited job ended by its limit"
wait_pipeline 60 "$tl"
ok $? "and reached JS_DB"
is "$(q "SELECT state || ' ' || reason || ' ' || final || ' ' || (end_time IS NOT NULL) FROM js.jobs WHERE job_id = $tl")" "TIMEOUT TimeLimit true true" \
   "recorded TIMEOUT (not CANCELLED), reason TimeLimit, with its end time"
is "$(q "SELECT count(*) FROM js.quarantine WHERE job_id IN ($(tr ' ' , <<< "$alltasks"), $dall, $done1, $bad, $never, $held, $only, $sess, $tl)")" 0 \
   "nothing was quarantined"
done_testing
