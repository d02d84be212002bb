# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the profiler's integration tests: source after tests/lib/tap.sh and need_cluster.
# Until the plugin injects the library, a step's task sets what the plugin would set
# (docs/spool.md) and execs the program with the profiler preloaded: a real Slurm step all the same.
PROF_LIB=${JS_PROFILER_LIB:-$JS_TOP_BUILDDIR/profiler/.libs/libjobscreen-profiler.so}
PROG=$JS_TOP_BUILDDIR/tests/profiler
COLLECT=$JS_TOP_BUILDDIR/profiler/jobscreen-collect
command -v jq >/dev/null 2>&1 || bail "jq is needed to read the profiles (apt-get install jq)"
[ -e "$PROF_LIB" ] || bail "no profiler library at $PROF_LIB"

# prof_srun DIR [srun options...] -- PROGRAM ARGS...
# Runs one step; each task runs PROGRAM profiled into DIR, and then turns the records the step
# left into profiles with jobscreen-collect --final, as the plugin does at step end. JS_SLICE
# (default 4) is the slice length. The step's ids are left in DIR.ids as "JOBID STEPID NODE".
# Returns srun's status.
prof_srun() {
  local dir=$1; shift
  local opts=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  # shellcheck disable=SC2016
  timeout 120 srun -Q "${opts[@]}" sh -c '
    d=$1; lib=$2; shift 2
    [ "$SLURM_PROCID" = 0 ] && echo "$SLURM_JOB_ID $SLURM_STEP_ID $SLURMD_NODENAME" > "$d.ids"
    JOBSCREEN_PROFILE_DIR=$d JOBSCREEN_SLICE_SECONDS=${JS_SLICE:-4} \
    JOBSCREEN_JOB_ID=$SLURM_JOB_ID JOBSCREEN_STEP=$SLURM_STEP_ID JOBSCREEN_NODE=$SLURMD_NODENAME \
    JOBSCREEN_TASK_ID=$SLURM_PROCID JOBSCREEN_CLUSTER=$SLURM_CLUSTER_NAME \
    LD_PRELOAD=$lib exec "$@"' sh "$dir" "$PROF_LIB" "$@"
  local rc=$?
  "$COLLECT" --final --each "$dir" || echo "prof_srun: jobscreen-collect failed on $dir" >&2
  return $rc
}

# prof_one DIR: the single profile in DIR (fails when there is not exactly one)
prof_one() {
  local f n
  n=$(find "$1" -maxdepth 1 -name '*.json' | wc -l)
  [ "$n" -eq 1 ] || { echo "expected 1 profile in $1, found $n" >&2; return 1; }
  f=$(find "$1" -maxdepth 1 -name '*.json')
  echo "$f"
}

# metric_names: the metric names of common/profile_format.h, in order, one per line
metric_names() {
  sed -n '/^#define JS_PROFILE_METRICS/,/^$/p' "$JS_TOP_SRCDIR/common/profile_format.h" |
    sed -n 's/^ *X([A-Z_0-9]*, *"\([a-z_0-9]*\)".*/\1/p'
}

# slice_col_names: the names of a slice row's values (format 5): the metrics, then kernel_ and
# each field of JS_PROFILE_KERNEL_IO_FIELDS
slice_col_names() {
  metric_names
  sed -n '/^#define JS_PROFILE_KERNEL_IO_FIELDS/,/^$/p' "$JS_TOP_SRCDIR/common/profile_format.h" |
    sed -n 's/^ *X([A-Z_0-9]*, *"\([a-z_0-9]*\)".*/kernel_\1/p'
}

# field_names: the top-level member names of common/profile_format.h, in order
field_names() {
  sed -n '/^#define JS_PROFILE_FIELDS/,/^$/p' "$JS_TOP_SRCDIR/common/profile_format.h" |
    sed -n 's/^ *X([A-Z_0-9]*, *"\([a-z_0-9]*\)".*/\1/p'
}

# raw_num FILE KEY: the integer of the first "KEY": in FILE, exactly (jq rounds past 2^53)
raw_num() { grep -o "\"$2\":-\?[0-9]*" "$1" | head -1 | cut -d: -f2; }
