#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The joblog command: prints or writes a job record from what slurmctld still knows, keeps the
# dependency and workflow the plugin captured while the job was alive, backfills a job that
# never ran, and takes its job id from SLURM_JOB_ID as in an epilog.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
plan 14
joblog=$JS_TOP_BUILDDIR/joblog/joblog
work=$(work_dir jsalice)
sb() { (cd "$work" && as_user jsalice sbatch --parsable --chdir="$work" -o /dev/null "$@"); }
a=$(sb --wrap 'sleep 1')
b=$(sb --dependency=afterok:"$a" --workflow=wf43 --wrap 'exit 4')
wait_job_done "$b" 60 >/dev/null
wait_file "$(job_dir "$b")/job.json"

out=$("$joblog" --print "$b" 2>&1); st=$?
ok $st "joblog --print exits 0"
printf '%s\n' "$out" > "$work/printed.json"
is "$(jget "$work/printed.json" 'J(r["format"], r["version"], r["job_id"], r["source"], r["final"], r["state"], r["exit_code"])')" \
  "jobscreen-job 1 $b joblog true FAILED 4" "printed record: Slurm's view of a finished job"
is "$(jget "$work/printed.json" 'J(r["dependency"], r["workflow"])')" "null null" \
  "without the spool, Slurm no longer knows the dependency (why the plugin captures it)"

"$joblog" --spool "$JS_SPOOL_DIR" "$b"; ok $? "joblog --spool rewrites the job record"
rec=$(job_dir "$b")/job.json
is "$(jget "$rec" 'J(r["source"], r["dependency"], r["workflow"], r["exit_code"], r["state"])')" "joblog afterok:$a wf43 4 FAILED" \
  "the captured dependency and workflow are kept"
is "$(stat -c '%U %a' "$rec")" "root 600" "root's record, 0600"
ok "$(ls -a "$(job_dir "$b")" | grep -c '\.tmp$')" "no temporary left behind"

# a job that never ran: pending on a failed dependency, then cancelled
c=$(sb --dependency=afterok:"$b" --wrap true)
sleep 1
scancel "$c"; wait_job_done "$c" 30 >/dev/null
"$joblog" --spool "$JS_SPOOL_DIR" "$c"; ok $? "joblog backfills a job that never ran"
is "$(jget "$(job_dir "$c")/job.json" 'J(r["job_id"], r["state"], r["final"], r["start_ns"] is None or r["start_ns"] >= r["submit_ns"], r["user"])')" \
  "$c CANCELLED true true jsalice" "its record: cancelled, final, the user's"
is "$(stat -c '%U %a' "$(job_dir "$c")")" "root 700" "joblog makes the job directory like the plugin does"
ok "$([ ! -e "$(job_dir "$c")/profiles" ]; echo $?)" "and no profiles/ (nothing to profile)"

# epilog style: the job id from SLURM_JOB_ID
SLURM_JOB_ID=$a "$joblog" --spool "$JS_SPOOL_DIR"; ok $? "SLURM_JOB_ID gives the job id"
out=$("$joblog" --spool "$JS_SPOOL_DIR" notanid 2>&1); st=$?
is "$st:$out" "2:joblog: notanid: not a job id" "a bad job id is refused with exit 2"
out=$(env -u JOBSCREEN_SPOOL "$joblog" 999999 2>&1); st=$?
is "$st" 2 "no spool and no --print: usage error"
done_testing
