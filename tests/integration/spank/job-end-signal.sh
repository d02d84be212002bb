#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An srun-only job ends as soon as srun has its tasks' exit messages, and Slurm then sends
# SIGTERM to everything under the step's slurmstepd, while the plugin's exit may still be
# turning the step's records into profiles: its final collector must outlive that signal.
# Slurm 25.11 sends the exit messages before the plugin's exit runs (1 in 5 such jobs lost its
# last records before the collector blocked SIGTERM itself); 22.05 happened to block it.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 3
work=$(work_dir jsalice)
log_mark
jobs=() bad=0
for i in $(seq 20); do
  out=$(cd "$work" && as_user jsalice timeout 60 srun -Q -N1 -n1 --chdir="$work" bash -c \
    'echo "$SLURM_JOB_ID $SLURMD_NODENAME"; for i in $(seq 30); do /bin/true; done') || bad=$((bad + 1))
  jobs+=("$out")
done
is "$bad" 0 "20 srun-only jobs of 32 processes each exit 0"
# each job's bundles hold its 32 profiles: bash, seq and the 30 /bin/true
short=
for j in "${jobs[@]}"; do
  read -r job node <<< "$j"
  wait_file "$(job_dir "$job")/step.0.$node.json"
  n=$(bundle_json "$(job_dir "$job")"/profiles/0."$node".b*.json 2>/dev/null | jq -s '[.[].profiles | length] | add // 0')
  [ "$n" = 32 ] || short="$short $job:$n"
done
is "${short:-none}" none "every job's profiles reached the spool, all 32 (job:count where not)"
is "$(log_since | grep -c 'jobscreen-collect ended with status')" 0 "no final collector was ended by a signal (slurmd logs)"
done_testing
