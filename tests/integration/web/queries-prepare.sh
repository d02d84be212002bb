#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every query of web/queries.sql prepares against the schema of sql/ (the js.* views): a
# renamed view or column breaks this test, not a user's page. Each is prepared and run as the
# web's role of docs/web.md, a login role that is only a member of jobscreen_report (schema js,
# nothing of js_data): a query that reaches past the views fails here. The access rule's
# functions (js.may_see, js.exported_jobs: sql/functions/) must be inlined into every
# query's generic plan (the FastCGI mode's), so that the plans are those of the rule written out.
# The file tab's queries (file, file_accesses) find a file's accesses by index, led by the
# cluster and file (migration 057): a scan of every access was seconds on a site's table.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
db=jobscreen_web_t60
dropdb --if-exists "$db" 2>/dev/null
createdb "$db" || bail "createdb $db failed"
trap 'dropdb --if-exists "$db" 2>/dev/null' EXIT
mapfile -t names < <(sed -n 's/^-- name: \([a-z_]*\).*/\1/p' "$JS_TOP_BUILDDIR/web/queries.sql")
plan $((3 + ${#names[@]}))
"$JS_TOP_BUILDDIR/profile_ingest/profile_ingest" --migrate --db "$JS_PG_CONNINFO dbname=$db" --log-level warn 2>"$JS_CLUSTER_DIR/t60.err"
st=$?
[ $st = 0 ] || diag "$(cat "$JS_CLUSTER_DIR/t60.err")"
ok $st "the schema of sql/ is created in an empty database (profile_ingest --migrate)"
web=js_web_t60
psql -q -X -d "$db" -c "DROP ROLE IF EXISTS $web" >/dev/null 2>&1
psql -q -X -v ON_ERROR_STOP=1 -d "$db" -c "CREATE ROLE $web LOGIN IN ROLE jobscreen_report" >/dev/null || bail "cannot create role $web"
trap 'dropdb --if-exists "$db" 2>/dev/null; psql -q -X -d postgres -c "DROP ROLE IF EXISTS $web" >/dev/null 2>&1' EXIT
not_inlined=
for n in "${names[@]}"; do
  sql=$(awk -v want="$n" '/^-- name: /{on = ($3 == want); next} /^[ \t]*--/{next} on{print}' "$JS_TOP_BUILDDIR/web/queries.sql")
  # its parameters all NULL but the viewer's name and admin flag: it runs on the empty views
  np=$(grep -o '\$[0-9]\+' <<< "$sql" | tr -d '$' | sort -n | tail -n 1)
  args="'nobody', true$(for ((i = 3; i <= np; i++)); do printf ', NULL'; done)"
  out=$(printf 'PREPARE q AS %s;\nEXECUTE q(%s);\n' "$sql" "$args" | PGUSER=$web psql -q -X -v ON_ERROR_STOP=1 -d "$db" 2>&1 >/dev/null)
  ok $? "query '$n' prepares and runs against the js.* views as a member of jobscreen_report"
  [ -n "$out" ] && diag "$out"
  plan_text=$(printf 'SET plan_cache_mode = force_generic_plan;\nPREPARE q AS %s;\nEXPLAIN (VERBOSE) EXECUTE q(%s);\n' "$sql" "$args" |
              PGUSER=$web psql -q -X -At -v ON_ERROR_STOP=1 -d "$db" 2>&1)
  grep -q 'js\.may_see\|js\.exported_jobs\|ERROR' <<< "$plan_text" && not_inlined+=" $n"
done
is "$not_inlined" "" "the access rule (js.may_see, js.exported_jobs) is inlined into every query's generic plan"
# a file's accesses by index: with the primary key dropped (in a transaction rolled back; on
# this empty table its walk, every access of the cluster, is priced as cheap) and sequential
# scans priced out, a plan that still scans file_accesses has no index path to them
unkeyed=
for n in file file_accesses; do
  sql=$(awk -v want="$n" '/^-- name: /{on = ($3 == want); next} /^[ \t]*--/{next} on{print}' "$JS_TOP_BUILDDIR/web/queries.sql")
  plan_text=$(printf 'BEGIN;\nALTER TABLE js_data.file_accesses DROP CONSTRAINT file_accesses_pkey;\nSET LOCAL enable_seqscan = off;\nSET LOCAL plan_cache_mode = force_generic_plan;\nSET LOCAL ROLE %s;\nPREPARE q AS %s;\nEXPLAIN (VERBOSE) EXECUTE q(%s);\nROLLBACK;\n' \
                "$web" "$sql" "'jsalice', false, NULL, 5" | psql -q -X -At -v ON_ERROR_STOP=1 -d "$db" 2>&1)
  grep -qE 'Seq Scan on (js_data\.)?file_accesses|ERROR' <<< "$plan_text" && { unkeyed+=" $n"; diag "$plan_text"; }
  grep -q 'file_accesses_readers' <<< "$plan_text" || unkeyed+=" $n(no-readers-index)"
done
is "$unkeyed" "" "the file tab's queries reach a file's accesses by index (cluster and file), not by a scan"
done_testing
