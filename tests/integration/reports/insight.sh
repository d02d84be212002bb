#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# insight on the real runs of reports/real-runs: the test clears what the ingest computed and writes known
# insight and advice rows (tests/lib/insight.sh; test insight/verdicts checks the analysis) for jsalice's besidex (red, I/O, 12.3 s
# lost), storm (yellow, metadata, 6 s) and crunch (grey), and jsbob's bigio (step 0 red, CPU,
# 20 s; step 1 green). The report sums the disturbed steps per user and cause, lists them the
# largest loss first, counts the lights per user and the advice codes per code and user; the
# green and grey steps are no disturbed steps; a window without those steps shows none.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
. "$JS_TOP_SRCDIR/tests/lib/insight.sh"
need_reports_db
plan 8
DB=$REPORTS_DB
# the database of reports/real-runs is kept by the other report tests: leave no insight behind
at_exit "q 'DELETE FROM js_data.step_advice; DELETE FROM js_data.step_insights' >/dev/null"
conn="$JS_PG_CONNINFO dbname=$REPORTS_DB"
clear_insight "$conn" && put_insight "$conn" "$BESIDEX" 0 red && put_insight "$conn" "$STORM" 0 red && put_insight "$conn" "$CRUNCH" 0 grey &&
  put_insight "$conn" "$BIGIO" 0 red && put_insight "$conn" "$BIGIO" 1 green &&
  q "UPDATE js_data.step_insights SET light = 'yellow', cause = 'metadata', lost_s = 6, lost_pct = 9
     WHERE job_id = $STORM AND step_id = '0';
     UPDATE js_data.step_insights SET cause = 'cpu', lost_s = 20, lost_pct = 40 WHERE job_id = $BIGIO AND step_id = '0'" >/dev/null
ok $? "insight rows for besidex, storm and crunch (jsalice) and bigio (jsbob)"

out=$(report insight); st=$?; diag "$out"
is "$st|$(echo "$out" | head -1 | cut -c1-9)" "0|# window " "the report runs and names its window"
is "$(echo "$out" | section 'disturbed steps by user and cause' | cut -d'|' -f1-6 | tr '\n' ' ')" \
   "jsbob|cpu|1|1|20.0|40.0 jsalice|io|1|1|12.3|15.4 jsalice|metadata|1|1|6.0|9.0 " \
   "disturbed steps per user and cause: steps, jobs, time lost, its share of the run; the most lost first"
steps=$(echo "$out" | section 'disturbed steps, the largest loss first')
is "$(echo "$steps" | cut -d'|' -f1-9 | tr '\n' ' ')" \
   "$BIGIO|0|jsbob|bigio|dd|red|cpu|20.0|40.0 $BESIDEX|0|jsalice|besidex|sleep|red|io|12.3|15.4 $STORM|0|jsalice|storm|bash|yellow|metadata|6.0|9.0 " \
   "the disturbed steps one by one, the largest loss first; not the green nor the grey step"
like "$(echo "$steps" | head -1 | cut -d'|' -f10-13)" "^cluster\|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z\|2\|9\.1$" \
   "with the scope and time of the stretch that lost most, the stretches and the MPI interference estimate"
is "$(echo "$out" | section 'traffic lights by user' | cut -d'|' -f1-7 | tr '\n' ' ')" \
   "jsbob|2|1|0|1|0|20.4 jsalice|3|1|1|0|1|18.3 " "the lights per user: steps, red, yellow, green, grey, time lost"
is "$(echo "$out" | section 'advice codes by code and user' | cut -d'|' -f1-4 | tr '\n' ' ')" \
   "DISTURBED|jsalice|2|2 DISTURBED|jsbob|1|1 IO_DOMINATED|jsalice|2|2 IO_DOMINATED|jsbob|1|1 MANY_OPENS|jsbob|1|1 SMALL_WRITES|jsalice|2|2 SMALL_WRITES|jsbob|1|1 " \
   "the advice codes counted per code and user"
out=$(psql -X -q -At -F'|' -d "$REPORTS_DB" -v since=2000-01-01 -v until=2000-01-02 -f "$REPORTS/insight.sql")
is "$(echo "$out" | grep -v '^# \|^== ' | wc -l)" 0 "a window in which none of the steps started lists nothing"
done_testing
