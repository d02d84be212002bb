#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Brings up the real multi-node cluster that the other integration tests use; a cluster kept
# across a rebuild runs the new binaries (tests/cluster, refresh_rebuilt).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
[ "$(id -u)" -eq 0 ] || skip_all "integration tests need root"
plan 4
out=$("$JS_TOP_SRCDIR/tests/cluster" up --dir "$JS_CLUSTER_DIR" 2>&1); st=$?
diag "$out"
ok $st "cluster comes up: munged, slurmctld, slurmd, PostgreSQL, lighttpd answer"
"$JS_TOP_SRCDIR/tests/cluster" status --dir "$JS_CLUSTER_DIR" >/dev/null 2>&1
ok $? "a second 'up' finds it healthy"

# a rebuild replaces a binary (a new file, as the linker writes it): the next `up` keeps the
# cluster and restarts what ran the old one
ingest=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
pidf=$JS_CLUSTER_DIR/pipeline/ingest.pid
if [ -x "$ingest" ] && [ -s "$pidf" ]; then
  before=$(cat "$pidf")
  cp -p "$ingest" "$ingest.new" && mv -f "$ingest.new" "$ingest"
  out=$("$JS_TOP_SRCDIR/tests/cluster" up --dir "$JS_CLUSTER_DIR" 2>&1); st=$?
  diag "$out"
  ok $([ $st = 0 ] && grep -q 'rebuilt binaries' <<< "$out"; echo $?) "a second 'up' after a rebuild keeps the cluster and says it restarts the rebuilt parts"
  after=$(cat "$pidf")
  ok $([ "$after" != "$before" ] && [ "$(readlink "/proc/$after/exe")" = "$(realpath "$ingest")" ]; echo $?) \
     "the ingest daemon runs the rebuilt binary (pid $before, then $after: $(readlink "/proc/$after/exe"))"
else
  skip "a second 'up' after a rebuild" "no pipeline (profile_ingest not built)"
  skip "the ingest daemon runs the rebuilt binary" "no pipeline"
fi
done_testing
