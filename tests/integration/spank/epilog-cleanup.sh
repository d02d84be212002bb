#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Nothing of a job is left in the record area (memory, outside any job's cgroup once the job
# is gone) after its epilog, however deep its processes made a tree there, and nothing outside
# it is touched through a link: jsalice's step makes a tree 12 levels deep with 1 MiB at each
# level and links out of it at the bottom; the job epilog removes it all (an iterative walk, no
# depth limit: docs/plugin.md) and the slurmd log says what it removed.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 6
alice=$(work_dir jsalice)
echo canary > "$alice/canary"; chown jsalice "$alice/canary"

log_mark
job=$(cd "$alice" && as_user jsalice sbatch --parsable --chdir="$alice" -o out.txt -J deep --wrap "srun bash -c '
  cd \$JOBSCREEN_PROFILE_DIR && mkdir tree && cd tree || exit 1
  for i in \$(seq 12); do mkdir l\$i && head -c 1048576 /dev/zero > l\$i/blob && cd l\$i || exit 1; done
  ln -s $alice away && ln -s $alice/canary canary-link && echo done'")
is "$(wait_job_done "$job" 90) $(cat "$alice/out.txt" 2>/dev/null)" "COMPLETED done" "the job made its tree and ran to its end"
node=$(job_node "$job")
area=$JS_RECORD_DIR/$node/job.$job
for i in $(seq 150); do [ -e "$area" ] || break; sleep 0.2; done
ok $([ ! -e "$area" ]; echo $?) "after the job's epilog nothing of job.$job is left in the record area"
is "$(find "$JS_RECORD_DIR/$node" -maxdepth 1 -name "job.$job*" | wc -l)" 0 "not a part of it under another name"
for i in $(seq 50); do log_since | grep -q "job $job: removed" && break; sleep 0.2; done
line=$(log_since | grep -m1 "jobscreen: job $job: removed")
like "$line" "jobscreen: job $job: removed $area: [0-9]+ files \\([0-9]+ bytes\\) and 13 directories below it$" \
   "the slurmd log says what the epilog removed: the tree's 13 directories"
f=$(sed -n 's/.*: \([0-9]*\) files (\([0-9]*\) bytes).*/\1 \2/p' <<< "$line")
ok $(( ${f% *} >= 14 && ${f#* } >= 12 * 1048576 ? 0 : 1 )) \
   "its files and bytes: ${f:-none} (12 blobs of 1 MiB, 2 links, the records and ledgers of the steps)"
is "$(cat "$alice/canary") $(log_since | grep -c "job $job: cannot remove")" "canary 0" \
   "the links were removed, not followed (the file they named is there), and nothing was left"
rm -rf "$alice"
done_testing
