#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# srun runs a step on the real cluster with the jobscreen SPANK plugin loaded.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
plan 4
out=$(srun --help 2>&1)
like "$out" "--no-profile" "srun --help lists the plugin's --no-profile option"
out=$(timeout 60 srun -N1 -n1 printenv JOBSCREEN_VERSION 2>&1); st=$?
ok $st "srun step exits 0"
like "$out" "^[0-9]+\.[0-9]+\.[0-9]+" "the plugin ran in slurmstepd and marked the task environment"
out=$(timeout 60 srun --no-profile -n1 printenv JOBSCREEN_VERSION 2>&1)
like "$out" " off$" "srun --no-profile reaches the plugin in slurmstepd"
done_testing
