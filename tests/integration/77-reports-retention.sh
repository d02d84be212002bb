#!/usr/bin/env bash
# Retention (sql/022_retention.sql) on a copy of the real runs of 70: a dry run lists the
# per-slice partitions and drops nothing; with the default age nothing is that old; run as
# if three days later with one day kept, it rolls up their days, drops every partition of the
# three per-slice tables and moves the horizon, while jobs, steps with their totals, processes,
# files, file accesses, dependencies and the rollups stay as they were, and a later rollup of
# those days leaves the rows alone.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
need_reports_db
plan 15
export DB=js_retention
dropdb --if-exists "$DB" 2>/dev/null
createdb -T "$REPORTS_DB" "$DB" || bail "cannot copy $REPORTS_DB"
later="now() + interval '3 days'"
today="(now() AT TIME ZONE 'UTC')::date"

kept() { q "SELECT (SELECT count(*) FROM js.jobs) || ' ' || (SELECT count(*) FROM js.steps) || ' ' ||
  (SELECT sum(wall_ns) || ' ' || sum(read_bytes) || ' ' || sum(write_bytes) || ' ' || sum(meta_calls) FROM js.steps) || ' ' ||
  (SELECT count(*) FROM js.processes) || ' ' || (SELECT count(*) FROM js.files) || ' ' ||
  (SELECT count(*) FROM js.file_accesses) || ' ' || (SELECT count(*) FROM js.dependencies)"; }
usage() { q "SELECT day, uid, jobs_started, steps_started, read_bytes, write_bytes, meta_ops, node_slices FROM js.usage_daily ORDER BY 1, 2"; }
q "SELECT js_data.rollup_usage($today - 4, $today)" >/dev/null
before=$(kept); usage_before=$(usage)
parts=$(q "SELECT count(*) FROM js.slice_partitions")
ok "$([ "$parts" -ge 3 ]; echo $?)" "the real runs made per-slice partitions ($parts)"
ok "$([ "$(q "SELECT count(*) FROM js.step_slices")" -gt 0 ]; echo $?)" "and per-slice rows"

is "$(q "SELECT count(*) || ' ' || bool_and(action = 'would drop') FROM js_data.apply_retention(interval '1 day', true, $later)")" "$parts true" \
  "a dry run lists every partition as 'would drop'"
is "$(q "SELECT count(*) FROM js.slice_partitions")" "$parts" "and drops nothing"
is "$(q "SELECT count(*) FROM js_data.apply_retention()")" 0 "with the default age (180 days) nothing is old enough"

is "$(q "SELECT count(*) || ' ' || bool_and(action = 'dropped') FROM js_data.apply_retention(interval '1 day', false, $later)")" "$parts true" \
  "three days later, keeping one day: every partition is dropped"
is "$(q "SELECT count(*) FROM js.slice_partitions")" 0 "none is left"
is "$(q "SELECT count(*) FROM js_data.retention_log")" "$parts" "each drop is logged"
is "$(q "SELECT count(*) FROM js.step_slices") $(q "SELECT count(*) FROM js.slice_totals_cluster")" "0 0" "the per-slice detail and totals are gone"
is "$(kept)" "$before" "jobs, steps and their totals, processes, files, file accesses and dependencies stay"
is "$(usage)" "$usage_before" "the daily rollups stay"
q "SELECT js_data.rollup_usage($today - 4, $today)" >/dev/null
is "$(usage)" "$usage_before" "a later rollup of those days leaves them as they were (their detail is gone)"
is "$(q "SELECT horizon_slice = (SELECT max(end_slice) FROM js_data.retention_log) FROM js.retention")" t \
  "js.retention shows the horizon below which the detail was dropped"
ok "$(report beside -v job="$BESIDEX" >/dev/null 2>&1; echo $?)" "the reports still run (beside finds no detail, and says nothing)"
is "$(q "SELECT coalesce(bool_and(row(w.jobs, w.first_submit, w.last_end)
           IS NOT DISTINCT FROM (SELECT row(count(j.job_id)::integer, min(j.submit_time), max(j.end_time))
                                 FROM js.jobs j WHERE j.cluster_id = w.cluster_id AND j.workflow_id = w.workflow_id)), true)
         FROM js.workflows w")" t "after retention every workflow's kept summary is still its jobs'"
dropdb "$DB"
done_testing
