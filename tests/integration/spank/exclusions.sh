#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Site exclusions and the default: exclude_users, exclude_partitions, exclude_exe patterns,
# default=off with the user's opt-in JOBSCREEN_NO_PROFILE=0, and slice= reaching the tasks.
# Changes plugstack.conf (restored on exit); must not run beside other integration tests.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
plan 8
work=$(work_dir jsalice)
# step_reason [ENV=V...] -- CMD...: run CMD as jsalice in one task (CMD itself is the step's
# executable), print its step record's profiled, reason and slice; the job is found by name

step_reason() {
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift

  local name="t46-$(date +%s%N)" f i dir=""
  as_user jsalice env "${envs[@]}" timeout 60 srun -n1 -J "$name" --chdir="$work" "$@" >/dev/null 2>&1
  for i in $(seq 100); do
    dir=$(grep -l "\"name\":\"$name\"" "$JS_SPOOL_DIR"/job.*/job.json 2>/dev/null | head -n 1)
    [ -n "$dir" ] && break; sleep 0.1
  done
  local job=${dir%/job.json}; job=${job##*/job.}
  f=$(dirname "$dir")/step.0.$(job_node "$job").json
  wait_file "$f" && jget "$f" 'J(r["profiled"], r["profile_reason"], r["slice_seconds"])'
}
# a profiler path that exists, so that the decision is not "profiler missing"
prof=${js_profiler:-$JS_TOP_BUILDDIR/spank/.libs/jobscreen.so}

plugstack_with "spool=$JS_SPOOL_DIR" "profiler=$prof" "exclude_users=jsbob,jsalice"
is "$(step_reason -- true)" "false excluded user 4" "exclude_users: jsalice's step is not profiled"
plugstack_with "spool=$JS_SPOOL_DIR" "profiler=$prof" "exclude_partitions=debug"
is "$(step_reason -- true)" "false excluded partition 4" "exclude_partitions: a step in debug is not profiled"
plugstack_with "spool=$JS_SPOOL_DIR" "profiler=$prof" "exclude_exe=tr*,sleep"
is "$(step_reason -- true)" "false excluded executable 4" "exclude_exe: a pattern matches the base name (true ~ tr*)"
is "$(step_reason -- /bin/sleep 0)" "false excluded executable 4" "exclude_exe: sleep matches /bin/sleep"
plugstack_with "spool=$JS_SPOOL_DIR" "profiler=$prof" "exclude_exe=tr*" "default=off" "slice=2"
is "$(step_reason -- hostname)" "false default off 2" "default=off: not profiled; slice=2 recorded"
if profiler_on; then
  is "$(step_reason JOBSCREEN_NO_PROFILE=0 -- hostname)" "true on 2" "default=off: JOBSCREEN_NO_PROFILE=0 opts in"
  out=$(as_user jsalice env JOBSCREEN_NO_PROFILE=0 timeout 60 srun -n1 printenv JOBSCREEN_SLICE_SECONDS 2>/dev/null)
  is "$out" 2 "slice=2 reaches the task as JOBSCREEN_SLICE_SECONDS"
else
  skip "opt-in" "no profiler built"; skip "slice in the task" "no profiler built"
fi
plugstack_restore
is "$(step_reason -- hostname | cut -d' ' -f2-)" "$(profiler_on && echo 'on 4' || echo 'profiler missing 4')" "restored: the site's defaults again"
done_testing
