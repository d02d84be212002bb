#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Opting out: srun --no-profile, JOBSCREEN_NO_PROFILE=1 and sbatch --no-profile leave the
# profiler out of the tasks (even when a profiled batch step handed it down) and still record
# the step, marked with the reason; a profiled step inside a profiled batch step holds the
# library once in LD_PRELOAD.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
plan 16
work=$(work_dir jsalice)

out=$(as_user jsalice timeout 60 srun --no-profile -n1 --chdir="$work" bash -c \
  'echo "$SLURM_JOB_ID|${LD_PRELOAD-unset}|${JOBSCREEN_PROFILE_DIR-unset}|$JOBSCREEN_VERSION"' 2>&1)
ok $? "srun --no-profile exits 0"
job=${out%%|*}
is "${out#*|}" "unset|unset|$(sed -n "s/^PACKAGE_VERSION = //p" "$JS_TOP_BUILDDIR/Makefile") off" \
  "srun --no-profile: no LD_PRELOAD, no profile dir, version marked off"
rec=$(job_dir "$job")/step.0.$(job_node "$job").json
wait_file "$rec"; ok $? "srun --no-profile: the step record is still written"
is "$(jget "$rec" 'J(r["profiled"], r["profile_reason"], r["profiler"], r["exit_code"])')" "false no-profile option null 0" \
  "srun --no-profile: the record says opted out by the option"

out=$(as_user jsalice env JOBSCREEN_NO_PROFILE=1 timeout 60 srun -n1 --chdir="$work" bash -c 'echo "$SLURM_JOB_ID|${LD_PRELOAD-unset}"' 2>&1)
job=${out%%|*}
is "${out#*|}" "unset" "JOBSCREEN_NO_PROFILE=1: no LD_PRELOAD"
rec=$(job_dir "$job")/step.0.$(job_node "$job").json
wait_file "$rec"
is "$(jget "$rec" 'J(r["profiled"], r["profile_reason"])')" "false JOBSCREEN_NO_PROFILE" "JOBSCREEN_NO_PROFILE=1: the record names the variable"

# sbatch --no-profile: the batch step and both steps inside are opted out
job=$(cd "$work" && as_user jsalice sbatch --parsable --no-profile -n2 --chdir="$work" -o nb.out --wrap \
  'srun -n2 bash -c "echo \${LD_PRELOAD-unset}"; srun -n1 true; echo "batch ${LD_PRELOAD-unset}"')
is "$(wait_job_done "$job" 60)" COMPLETED "sbatch --no-profile job completes"
wait_file "$(job_dir "$job")/job.json"
reasons=$(for s in batch 0 1; do f=$(job_dir "$job")/step.$s.$(job_node "$job").json; wait_file "$f" && jget "$f" 'J(r["step"], r["profiled"], r["profile_reason"])'; done | tr '\n' ';')
is "$reasons" "batch false no-profile option;0 false no-profile option;1 false no-profile option;" \
  "sbatch --no-profile reaches the batch step and every srun step in it"
# (srun's own notes aside: a loaded machine makes the second step wait for the first's CPUs)
is "$(grep -v '^srun: ' "$work/nb.out" | sort | tr '\n' ' ')" "batch unset unset unset " "no task of the sbatch --no-profile job had LD_PRELOAD"

if profiler_on; then
  # a profiled batch step hands LD_PRELOAD down to srun; the step must not add it twice,
  # and srun --no-profile inside must take it out again
  job=$(cd "$work" && as_user jsalice sbatch --parsable -n1 --chdir="$work" -o nested.out --wrap \
    'echo "batch $LD_PRELOAD"; srun -n1 bash -c "echo \"step $LD_PRELOAD\""; srun --no-profile -n1 bash -c "echo \"off \${LD_PRELOAD-unset} \${JOBSCREEN_STEP-unset} \${JOBSCREEN_PROFILE_DIR-unset}\""')
  is "$(wait_job_done "$job" 60)" COMPLETED "a profiled batch job with two steps completes"
  is "$(grep '^batch ' "$work/nested.out")" "batch $js_profiler" "the batch script runs with the profiler preloaded"
  is "$(grep '^step ' "$work/nested.out")" "step $js_profiler" "a step inside holds the profiler once in LD_PRELOAD"
  is "$(grep '^off ' "$work/nested.out")" "off unset unset unset" "srun --no-profile inside a profiled batch job takes the inherited profiler and JOBSCREEN_* out"
  out=$(as_user jsalice env LD_PRELOAD="$js_profiler" timeout 60 srun -n1 bash -c 'echo "$LD_PRELOAD"' 2>/dev/null | tail -n 1)
  is "$out" "$js_profiler" "an srun whose environment already preloads the profiler gets it once"
  f=$(job_dir "$job")/step.0.$(job_node "$job").json; wait_file "$f"
  is "$(jget "$f" 'J(r["profiled"], r["profile_reason"])')" "true on" "the inner step is recorded as profiled"
  f=$(job_dir "$job")/step.1.$(job_node "$job").json; wait_file "$f"
  is "$(jget "$f" 'J(r["profiled"], r["profile_reason"])')" "false no-profile option" "the opted-out inner step is recorded as such"
else
  for d in "nested job" "batch preload" "step preload once" "opt-out strips" "srun preload once" "inner profiled" "inner opted out"; do
    skip "$d" "no profiler built"
  done
fi
done_testing
