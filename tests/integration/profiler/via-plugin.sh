#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End to end with the plugin: a plain srun as a test user gets the profiler injected by the
# SPANK plugin, and the profiles land in the job's spool directory, owned by the user, with the
# ids the plugin set and exact counts; the exec'd image gets <pid>-1 beside its shell's profile.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
. "$JS_TOP_SRCDIR/tests/profiler/lib.sh"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 10
work=$(work_dir jsalice)
out=$(cd "$work" && as_user jsalice timeout 60 srun -Q -N1 -n1 --chdir="$work" bash -c \
  'echo "$SLURM_JOB_ID $SLURM_STEP_ID $SLURMD_NODENAME $SLURM_CLUSTER_NAME $$"; exec "$0" "$1"' "$PROG/io_known" "$work" 2>&1)
ok $? "srun as jsalice runs bash, which execs io_known"
read -r job step node cluster pid <<< "$out"
dir=$(job_dir "$job")/profiles
b=$dir/$step.$node.b1.json
# srun returns once the tasks ended; the step record comes after the bundles are in the spool
wait_file "$(job_dir "$job")/step.$step.$node.json"
# the bundle the plugin's collector made at step end; bash's image and io_known's share the pid
img() { bundle_json "$b" | jq -c --argjson p "$pid" --arg e "$1" '[.profiles[] | select(.pid == $p and (.exe | endswith($e)))][0]'; }
f=$(mktemp); img /io_known > "$f"
is "$(jq -r '.exe | sub(".*/"; "")' "$f")" io_known "io_known's profile is in $step.$node.b1.json in the job's spool"
is "$(img /bash | jq -r '[.end, (.exe | sub(".*/"; ""))] | @tsv')" "$(printf 'exec\tbash')" \
   "beside it, bash's own profile, ended by the exec"
is "$(stat -c '%U %a' "$b")" "jsalice 600" "owned by the job's user, 0600"
is "$(jq -r '[.job_id, .step, .node, .task_id, .cluster, .uid] | @tsv' "$f")" \
   "$(printf '%s\t%s\t%s\t0\t%s\t%s' "$job" "$step" "$node" "$cluster" "$(id -u jsalice)")" \
   "the ids the plugin set: job, step, node, task, cluster; the user's uid"
is "$(jq -r '.slice_seconds' "$f")" 4 "the site's slice length"
is "$(jq -c '.totals | [.posix_read_calls, .posix_read_bytes, .posix_write_calls, .posix_write_bytes, .stdio_write_calls, .stdio_write_bytes]' "$f")" \
   "[6,2174,13,2150,7,203]" "exact counts, as without the plugin"
is "$(jq -c '[.files[].path]' "$f")" "[\"$work/posix.dat\",\"$work/copy.dat\",\"$work/stdio.txt\"]" "the file list"
is "$(jq -r '[.end, .exit_code] | @tsv' "$f")" "$(printf 'exit\t0')" "io_known ended by exit, status 0 (main's return)"
is "$(find "$dir" -name '.*' ! -name '.quota.*' | wc -l)" 0 "no temporary file, marker, pooled record or live snapshot left in the spool (only the job's quota ledger)"
rm -f "$f"
done_testing
