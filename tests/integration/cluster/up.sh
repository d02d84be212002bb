#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Brings up the real single-node cluster that the other integration tests use.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
[ "$(id -u)" -eq 0 ] || skip_all "integration tests need root"
plan 2
out=$("$JS_TOP_SRCDIR/tests/cluster" up --dir "$JS_CLUSTER_DIR" 2>&1); st=$?
diag "$out"
ok $st "cluster comes up: munged, slurmctld, slurmd, PostgreSQL, lighttpd answer"
"$JS_TOP_SRCDIR/tests/cluster" status --dir "$JS_CLUSTER_DIR" >/dev/null 2>&1
ok $? "a second 'up' finds it healthy"
done_testing
