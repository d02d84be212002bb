#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# failed and undeclared-deps on the real runs of reports/real-runs: the failing job and its failed step are
# listed with the afterok dependant it left waiting and the afterany one behind it (not the
# afterany dependant that ran); the pair chained by a file only is listed as serialised with
# no scheduler edge, the pair chained by a file and afterok is not.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
need_reports_db
plan 10

out=$(report failed); diag "$out"
is "$(echo "$out" | section 'failed jobs' | field 1 | tr '\n' ' ')" "$FAILER " "the failing job, and only it, is listed as failed"
like "$(echo "$out" | section 'failed jobs' | field 9)" "(^| )0:FAILED:3( |$)" "with its step 0 FAILED, exit code 3"
waiting=$(echo "$out" | section 'dependants left waiting')
is "$(echo "$waiting" | cut -d'|' -f1,2,5,6,7,8)" "$FAILER|$WAITER|afterok|$FAILER|1|PENDING
$FAILER|$WAITER2|afterany|$WAITER|2|PENDING" \
  "left waiting: the afterok dependant (depth 1) and the afterany one behind it (depth 2)"
is "$(echo "$waiting" | field 2 | grep -cx "$CLEANUP")" 0 "the afterany dependant of the failed job ran, so it is not waiting"
is "$(DB=$REPORTS_DB q "SELECT state FROM js.jobs WHERE job_id = $CLEANUP")" COMPLETED "(it completed)"

out=$(report undeclared-deps); diag "$out"
pairs=$(echo "$out" | section 'file dependencies with no scheduler edge')
is "$(echo "$pairs" | cut -d'|' -f1,4,8,10)" "$PRODUCER|$CONSUMER|1|t" \
  "one undeclared pair: producer -> consumer, one file, serialised (consumer started after producer ended)"
like "$(echo "$pairs" | field 9)" "/chain\\.dat$" "the file is chain.dat"
is "$(DB=$REPORTS_DB q "SELECT count(*) FROM js.dependencies WHERE from_job = $DPROD AND to_job = $DCONS AND kind = 'file'") $(DB=$REPORTS_DB q "SELECT count(*) FROM js.dependencies WHERE from_job = $DPROD AND to_job = $DCONS AND kind = 'scheduler'")" \
  "1 1" "the declared pair has a file edge and a scheduler edge"
is "$(echo "$pairs" | field 1 | grep -cx "$DPROD")" 0 "so it is not listed"
is "$(echo "$out" | section 'per workflow' | cut -d'|' -f2,4,5)" "producer|1|1" "per workflow: producer's workflow has one undeclared, serialised pair"
done_testing
