#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# srun runs a step on the real cluster with the jobscreen SPANK plugin loaded; each slurmd
# names, once as it loads the plugin, the Slurm the plugin was built for: the one it runs.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
plan 6
running=$(slurmd -V | awk '{print $2}')
diag "Slurm $running ($JS_SLURM_PREFIX)"
lines=$(for log in $JS_SLURMD_LOGS; do grep -c 'jobscreen [0-9.]* built for Slurm ' "$log"; done | tr '\n' ' ')
is "$lines" "$(for n in $JS_NODES; do printf '1 '; done)" "each slurmd's log names the plugin's Slurm once, at load"
is "$(cat $JS_SLURMD_LOGS | grep -o 'built for Slurm [0-9.]*' | sort -u)" "built for Slurm $running" \
   "the plugin was built for the Slurm that runs it ($running)"
out=$(srun --help 2>&1)
like "$out" "--no-profile" "srun --help lists the plugin's --no-profile option"
out=$(timeout 60 srun -N1 -n1 printenv JOBSCREEN_VERSION 2>&1); st=$?
ok $st "srun step exits 0"
like "$out" "^[0-9]+\.[0-9]+\.[0-9]+" "the plugin ran in slurmstepd and marked the task environment"
out=$(timeout 60 srun --no-profile -n1 printenv JOBSCREEN_VERSION 2>&1)
like "$out" " off$" "srun --no-profile reaches the plugin in slurmstepd"
done_testing
