#!/usr/bin/env bash
# The read-only reporting role (sql/023_roles.sql, docs/reports.md): a login role made a
# member of jobscreen_report runs every report and reads the views, and can neither read nor
# write a js_data table, write through a view, create objects in js, nor run the owner's
# maintenance functions.  Views added later by the owner are readable without a new grant.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
need_reports_db
plan 21
role=js_report_tester
is "$(q "SELECT rolcanlogin FROM pg_roles WHERE rolname = 'jobscreen_report'")" f "the migrations created jobscreen_report, a NOLOGIN role"
q "DROP ROLE IF EXISTS $role" >/dev/null 2>&1
q "CREATE ROLE $role LOGIN IN ROLE jobscreen_report" >/dev/null
ok $? "a login role is made a member of jobscreen_report"
as_role() { PGUSER=$role psql -X -q -At -d "$REPORTS_DB" -v ON_ERROR_STOP=1 "$@" 2>&1; }

for r in top-io runtime-shares failed undeclared-deps opt-out usage-daily usage-monthly node-anomalies; do
  out=$(PGUSER=$role report "$r" 2>&1); st=$?
  [ $st -eq 0 ] || diag "$out"
  ok $st "it runs the report $r"
done
out=$(PGUSER=$role report beside -v job="$BESIDEX" 2>&1); st=$?
[ $st -eq 0 ] || diag "$out"
ok $st "it runs the report beside"
is "$(as_role -c "SELECT count(*) > 0 FROM js.step_slices WHERE slice_start IS NOT NULL")" t \
  "it reads the views, slice start times included (js_data.slice_start runs as its owner)"

denied() { # denied DESCRIPTION SQL: the statement fails with permission denied
  local out; out=$(as_role -c "$2"); like "$out" "permission denied" "$1"
}
denied "it cannot read a js_data table" "SELECT count(*) FROM js_data.jobs"
denied "nor the per-slice detail directly" "SELECT count(*) FROM js_data.slice_metrics"
denied "it cannot write a js_data table" "DELETE FROM js_data.jobs"
denied "it cannot write through a simple view" "INSERT INTO js.files (cluster_id, path, node, scope) VALUES (1, '/x', '', 'shared')"
denied "nor update one" "UPDATE js.clusters SET slice_seconds = 1"
denied "it cannot create objects in schema js" "CREATE VIEW js.mine AS SELECT 1"
denied "it cannot run retention" "SELECT * FROM js_data.apply_retention(interval '1 day', true)"
denied "nor refresh the rollups" "SELECT js_data.rollup_usage(current_date, current_date)"

q "CREATE VIEW js.zz_later AS SELECT 42 AS answer" >/dev/null
is "$(as_role -c "SELECT answer FROM js.zz_later")" 42 "a view the owner adds later is readable at once (default privileges)"
q "DROP VIEW js.zz_later" >/dev/null
q "DROP OWNED BY $role; DROP ROLE $role" >/dev/null
done_testing
