#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Faults never harm a job: a missing spool, a spool that is a file or belongs to a user, a
# planted symbolic link, a missing profiler library, a bad plugstack argument.  Each job exits
# 0 and the slurmd log says why with "jobscreen:".  Only fail_on_error=yes fails a step.
# Changes plugstack.conf (it applies to the next step): the original is restored on exit, and
# this test must not run beside other integration tests (make check runs them one by one).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
plan 33
work=$(work_dir jsalice)
prof_arg=${js_profiler:+profiler=$js_profiler}

# run_both DESCRIPTION: an srun step and an sbatch job as jsalice; both must end well
run_both() {
  out=$(as_user jsalice timeout 60 srun -n1 --chdir="$work" bash -c 'echo $SLURM_JOB_ID' 2>&1); st=$?
  ok $st "$1: srun exits 0"
  srun_job=$(tail -n 1 <<< "$out")
  sb_job=$(cd "$work" && as_user jsalice sbatch --parsable --chdir="$work" -o /dev/null --wrap 'srun -n1 true')
  is "$(wait_job_done "$sb_job" 60):$(scontrol show job "$sb_job" | grep -o ' ExitCode=[^ ]*')" "COMPLETED: ExitCode=0:0" "$1: sbatch job completes with 0:0"
}
# logged REGEX DESCRIPTION: the slurmd log gained a line matching REGEX since log_mark
logged() {
  local i
  for i in $(seq 30); do log_since | grep -Eq "$1" && break; sleep 0.1; done
  like "$(log_since | grep -E "$1" | head -n 1)" "$1" "$2"
}

log_mark
plugstack_with "spool=$JS_CLUSTER_DIR/no-such-spool" $prof_arg
run_both "missing spool"
logged "error: jobscreen: spool=$JS_CLUSTER_DIR/no-such-spool: No such file or directory; job $srun_job runs without the profiler and without records" \
  "missing spool: the slurmd log names the spool and the reason"

log_mark
touch "$work/a-file"
plugstack_with "spool=$work/a-file" $prof_arg
run_both "spool is a file"
logged "jobscreen: spool=$work/a-file: Not a directory" "spool is a file: logged"

log_mark
mkdir -p "$work/user-spool"; chown jsalice "$work/user-spool"
plugstack_with "spool=$work/user-spool" $prof_arg
run_both "spool owned by a user"
logged "jobscreen: spool=$work/user-spool: must be a directory owned by uid 0 and not writable by group or others" "spool owned by a user: logged"
ok "$(ls -A "$work/user-spool" | grep -c .)" "nothing was written into the user's spool"

log_mark
plugstack_with "spool=$JS_SPOOL_DIR" "profiler=$JS_CLUSTER_DIR/no-such-profiler.so"
out=$(as_user jsalice timeout 60 srun -n1 --chdir="$work" bash -c 'echo "$SLURM_JOB_ID ${LD_PRELOAD-unset}"' 2>&1)
ok $? "missing profiler: srun exits 0"
job=${out%% *}
is "${out#* }" "unset" "missing profiler: the task has no LD_PRELOAD (it would break every program)"
logged "jobscreen: profiler=$JS_CLUSTER_DIR/no-such-profiler.so: No such file or directory; the tasks run without the profiler" "missing profiler: logged"
rec=$(job_dir "$job")/step.0.$(job_node "$job").json; wait_file "$rec"
is "$(jget "$rec" 'J(r["profiled"], r["profile_reason"])')" "false profiler missing" "missing profiler: the step record says so"

# a profiler= that ld.so would refuse (text; an executable): not preloaded, so ld.so prints
# nothing into the job's output; the slurmd log says why
printf 'not a library\n' > "$JS_CLUSTER_DIR/text-profiler.so"; chmod 644 "$JS_CLUSTER_DIR/text-profiler.so"
install -m 755 /bin/true "$JS_CLUSTER_DIR/exe-profiler.so"
for bad in "text-profiler.so:not an ELF file" "exe-profiler.so:an ELF executable, not a shared library"; do
  log_mark
  plugstack_with "spool=$JS_SPOOL_DIR" "profiler=$JS_CLUSTER_DIR/${bad%%:*}"
  out=$(as_user jsalice timeout 60 srun -n1 --chdir="$work" bash -c 'echo "$SLURM_JOB_ID ${LD_PRELOAD-unset}"' 2>&1)
  like "$?|$out" "^0\|[0-9]+ unset$" "profiler= ${bad%%:*}: srun exits 0, no LD_PRELOAD, nothing from ld.so in the job's output"
  logged "jobscreen: profiler=$JS_CLUSTER_DIR/${bad%%:*}: ${bad#*:}; the tasks run without the profiler" "profiler= ${bad%%:*}: the slurmd log says why"
done

log_mark
plugstack_with "spool=$JS_SPOOL_DIR" $prof_arg "bogus=1"
run_both "unknown argument"
logged "error: jobscreen: plugstack.conf: unknown argument 'bogus=1'; jobscreen is disabled for this step" "unknown argument: logged by name"
ok "$([ ! -e "$(job_dir "$srun_job")" ]; echo $?)" "unknown argument: the plugin stayed out of the step (no records)"

log_mark
plugstack_with "spool=$JS_SPOOL_DIR" $prof_arg "slice=0"
out=$(as_user jsalice timeout 60 srun -n1 true 2>&1); ok $? "bad slice value: srun exits 0"
logged "jobscreen: plugstack.conf: slice=0: not a whole number of seconds between 1 and 3600; jobscreen is disabled for this step" "bad slice value: logged"

# an error after the step's I/O is set up (a collector that cannot run, at the step's end):
# slurmstepd would copy an error() into the first task's stderr; the plugin's goes to the
# slurmd log only, so the job's output is its own (srun's stderr, a batch job's file)
log_mark
printf '#!/bin/sh\necho "collector says no" >&2\nexit 3\n' > "$JS_CLUSTER_DIR/failing-collector"
chmod 755 "$JS_CLUSTER_DIR/failing-collector"
plugstack_with "spool=$JS_SPOOL_DIR" $prof_arg "collector=$JS_CLUSTER_DIR/failing-collector"
err=$(as_user jsalice timeout 60 srun -n1 --chdir="$work" bash -c 'echo "$SLURM_JOB_ID"' 2>&1 >/dev/null); st=$?
is "$st|$err" "0|" "failing collector: srun exits 0 and its stderr has nothing of ours"
fj=$(cd "$work" && as_user jsalice sbatch --parsable --chdir="$work" -o "$work/fc.out" --wrap 'srun -n1 echo hello')
is "$(wait_job_done "$fj" 60)|$(cat "$work/fc.out")" "COMPLETED|hello" "failing collector: the batch job's output file holds its own output only"
logged "error: jobscreen: job $fj: .*failing-collector ended with status" "failing collector: the slurmd log says so, as an error"
like "$(log_since | grep -F 'collector says no' | head -n 1)" "jobscreen: job [0-9]+: collector says no" "failing collector: what it said is in the slurmd log"

# a symbolic link planted where the next job's directory will be
plugstack_restore
log_mark
held=$(cd "$work" && as_user jsalice sbatch --parsable --hold --chdir="$work" -o /dev/null --wrap true)
mkdir -p "$work/decoy"
ln -s "$work/decoy" "$(job_dir "$held")"
scontrol release "$held"
is "$(wait_job_done "$held" 60)" COMPLETED "planted symlink: the job completes"
logged "jobscreen: $JS_SPOOL_DIR/job.$held: is a symbolic link; not followed" "planted symlink: refused and logged"
ok "$(ls -A "$work/decoy" | grep -c .)" "planted symlink: nothing written through it"
rm -f "$(job_dir "$held")"

# only the site's explicit fail_on_error=yes turns our error into a failed step
plugstack_with "spool=$JS_CLUSTER_DIR/no-such-spool" $prof_arg "fail_on_error=yes"
out=$(as_user jsalice timeout 60 srun -n1 bash -c 'echo ran' 2>/dev/null); st=$?
is "$st:$out" "1:" "fail_on_error=yes: a spool error fails the step's tasks before they run"
plugstack_restore
as_user jsalice timeout 60 srun -n1 true; ok $? "after the restore, steps run as before"
done_testing
