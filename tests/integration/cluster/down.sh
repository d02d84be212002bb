#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Stops the cluster by PID and proves that nothing of it is left running.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
[ "$(id -u)" -eq 0 ] || skip_all "integration tests need root"
[ -n "${JS_KEEP_CLUSTER:-}" ] && skip_all "JS_KEEP_CLUSTER set: cluster left up in $JS_CLUSTER_DIR"
plan 3
"$JS_TOP_SRCDIR/tests/cluster" down --dir "$JS_CLUSTER_DIR" 2>/dev/null
ok $? "cluster goes down"
left=""
for p in /proc/[0-9]*; do
  { tr "\\0" "\\n" < "$p/environ"; } 2>/dev/null | grep -qxF "SLURM_CONF=$JS_CLUSTER_DIR/slurm/slurm.conf" && left="$left ${p#/proc/}"
  grep -qF -- "$JS_CLUSTER_DIR" "$p/cmdline" 2>/dev/null && left="$left ${p#/proc/}"
done
is "$left" "" "no process of the cluster (daemons, slurmstepd, tasks) is left"
"$JS_TOP_SRCDIR/tests/cluster" down --dir "$JS_CLUSTER_DIR" 2>/dev/null
ok $? "a second 'down' is harmless"
done_testing
