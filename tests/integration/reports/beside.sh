#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# beside on the real runs of reports/real-runs: the dd job of jsbob that ran during the quiet job is the
# top contributor to its background (in the slice it ran in, and over the whole span); the
# small-file storm, which ended a slice before the quiet job started, is not listed, nor is
# the quiet job itself.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
need_reports_db
plan 7

out=$(report beside -v job="$BESIDEX"); diag "$out"
is "$(echo "$out" | section "the job's steps" | field 2 | sort | tr '\n' ' ')" "0 batch " "the quiet job's two steps are shown"
slices=$(echo "$out" | section 'contributors to the background')
is "$(echo "$slices" | awk -F'|' -v j="$BIGIO" '$3 == 1 && $4 == j { print $6 ":" $9 }' | sort -u)" "jsbob:t" \
  "bigio (jsbob, same node) ranks first in the slice it ran in"
jobs=$(echo "$out" | section 'other jobs over the whole span')
is "$(echo "$jobs" | head -1 | field 1)" "$BIGIO" "bigio is the top contributor over the whole span"
ok "$([ "$(echo "$jobs" | head -1 | field 6)" -ge $((512 * 1024 * 1024)) ]; echo $?)" "with at least 512 MiB moved beside the quiet job"
is "$(echo "$slices$jobs" | awk -F'|' -v j="$STORM" '$1 == j || $4 == j' | wc -l)" 0 \
  "the storm, which ended in an earlier slice, is not a contributor"
is "$(echo "$jobs" | field 1 | grep -cx "$BESIDEX")" 0 "the job itself is not its own background"
outside=$(DB=$REPORTS_DB q "SELECT string_agg(DISTINCT o.job_id::text, ' ') FROM js.steps o
  WHERE o.job_id <> $BESIDEX AND o.last_slice < (SELECT min(first_slice) FROM js.steps WHERE job_id = $BESIDEX)")
st=0; for j in $outside; do echo "$jobs" | field 1 | grep -qx "$j" && st=1; done
ok $st "no job whose slices all lie before the quiet job's is listed (${outside:-none})"
done_testing
