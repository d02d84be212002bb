#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The read-only reporting role (sql/023_roles.sql, docs/reports.md): a login role made a
# member of jobscreen_report runs every report and reads the views, and can neither read nor
# write a js_data table, write through a view, create objects in js, nor run the owner's
# maintenance functions.  Views added later by the owner are readable without a new grant.
# The ingest's role is the owner: a role with neither superuser nor CREATEROLE migrates its
# own database, ingests the real runs, and runs retention; the reporting role reads it.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
need_reports_db
plan 27
role=js_report_tester
is "$(q "SELECT rolcanlogin FROM pg_roles WHERE rolname = 'jobscreen_report'")" f "the migrations created jobscreen_report, a NOLOGIN role"
q "DROP ROLE IF EXISTS $role" >/dev/null 2>&1
q "CREATE ROLE $role LOGIN IN ROLE jobscreen_report" >/dev/null
ok $? "a login role is made a member of jobscreen_report"
as_role() { PGUSER=$role psql -X -q -At -d "$REPORTS_DB" -v ON_ERROR_STOP=1 "$@" 2>&1; }

for r in top-io runtime-shares failed undeclared-deps opt-out usage-daily usage-monthly node-anomalies insight; do
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

owner=js_owner_tester odb=js_owner_tester
q "DROP DATABASE IF EXISTS $odb" >/dev/null 2>&1; q "DROP ROLE IF EXISTS $owner" >/dev/null 2>&1
q "CREATE ROLE $owner LOGIN NOSUPERUSER NOCREATEROLE" >/dev/null && q "CREATE DATABASE $odb OWNER $owner" >/dev/null
oconn="host=$PGHOST port=$PGPORT dbname=$odb user=$owner"
"$INGEST" --migrate --db "$oconn" 2>"$JS_CLUSTER_DIR/owner76.log"
ok $? "the ingest's role, neither superuser nor CREATEROLE, migrates its database (jobscreen_report exists)"
spool=$REPORTS_WORK/spool76; rm -rf "$spool"; cp -a "$REPORTS_WORK/spool.keep" "$spool"
"$INGEST" --once --spool "$spool" --db "$oconn" --quarantine "$spool.q" --set job_grace_seconds=0 2>>"$JS_CLUSTER_DIR/owner76.log"
is "$?|$(DB=$odb q "SELECT count(*) FROM js.jobs")" "0|$(q "SELECT count(*) FROM js.jobs")" "as that role it ingests the real runs again"
is "$(PGUSER=$role psql -X -q -At -d "$odb" -c "SELECT count(*) FROM js.job_report")" "$(q "SELECT count(*) FROM js.jobs")" \
  "the reporting role reads the views of that database (granted by the migration)"
is "$(PGUSER=$owner psql -X -q -At -d "$odb" -c "SELECT count(*) > 0 AND bool_and(action = 'dropped') FROM js_data.apply_retention(interval '1 day', false, now() + interval '3 days')")" t \
  "the ingest's role runs retention: it owns the partitions it created"
is "$(PGUSER=$owner psql -X -q -At -d "$odb" -c "SELECT count(*) FROM js.slice_partitions")" 0 "and they are gone"
q "DROP DATABASE $odb" >/dev/null; q "DROP ROLE $owner" >/dev/null

q "CREATE VIEW js.zz_later AS SELECT 42 AS answer" >/dev/null
is "$(as_role -c "SELECT answer FROM js.zz_later")" 42 "a view the owner adds later is readable at once (default privileges)"
q "DROP VIEW js.zz_later" >/dev/null
q "DROP OWNED BY $role; DROP ROLE $role" >/dev/null
done_testing
