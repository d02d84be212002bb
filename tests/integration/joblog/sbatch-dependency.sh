#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# sbatch --dependency=afterok:N runs after N, and not before.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
plan 5
work=$(mktemp -d "$JS_CLUSTER_DIR/dep.XXXXXX"); chmod 755 "$work"
first=$(sbatch --parsable --chdir="$work" -o first.out --wrap 'sleep 2; date +%s.%N > first.done')
like "$first" '^[0-9]+$' "first job submitted"
second=$(sbatch --parsable --chdir="$work" -o second.out --dependency="afterok:$first" \
  --wrap 'date +%s.%N > second.start; echo "$SLURM_JOB_DEPENDENCY" > second.dep')
like "$second" '^[0-9]+$' "dependent job submitted"
is "$(wait_job_done "$second" 60)" COMPLETED "dependent job completes"
awk -v a="$(cat "$work/first.done" 2>/dev/null || echo 9e18)" -v b="$(cat "$work/second.start" 2>/dev/null || echo 0)" \
  'BEGIN { exit !(b >= a) }'
ok $? "dependent job started after the first one finished"
is "$(cat "$work/second.dep" 2>/dev/null)" "afterok:$first" "the dependent job sees its dependency in SLURM_JOB_DEPENDENCY"
done_testing
