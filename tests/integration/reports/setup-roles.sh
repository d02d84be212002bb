#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# profile_ingest --setup-roles (docs/reports.md, "Roles"): run by the superuser, it creates the
# owner role, the web role (a member of jobscreen_report) and the database, and migrates it as
# the owner; a second run finds everything in place and changes nothing.  The web role reads
# schema js, also what the owner adds to it later, and nothing of js_data; the owner migrates
# and ingests as itself.  A role with CREATEROLE and CREATEDB does the same; a database the
# superuser made is used as it is; a role without those privileges is refused, and so is a
# database whose schema belongs to another role.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
plan 38
INGEST=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
db=js_setup78 owner=js_setup_owner78 web=js_setup_web78
# set up by a role with CREATEROLE and CREATEDB that is no superuser
db2=js_setup78b owner2=js_setup_owner78b admin=js_setup_admin78
# created beforehand by the superuser
db3=js_setup78c
log=$JS_CLUSTER_DIR/setup78.log
: >"$log"

sq() { psql -X -q -At -d "${2:-postgres}" -v ON_ERROR_STOP=1 -c "$1" 2>&1; }
as() { local who=$1 d=$2; shift 2; PGUSER=$who psql -X -q -At -d "$d" -v ON_ERROR_STOP=1 -c "$1" 2>&1; }
cleanup() {
  local d
  for d in $db $db2 $db3; do sq "DROP DATABASE IF EXISTS $d" >/dev/null; done
  sq "DROP ROLE IF EXISTS $web, $owner, $owner2, $admin" >/dev/null
}
cleanup # what an earlier run may have left
at_exit cleanup
conn() { echo "host=$PGHOST port=$PGPORT dbname=$1 user=${2:-postgres}"; }
# setup CONNINFO ARGS...: --setup-roles; stdout in $out, stderr in $err (and the log), status in $st
setup() {
  local c=$1; shift
  out=$("$INGEST" --setup-roles --db "$c" "$@" 2>"$log.err"); st=$?
  err=$(cat "$log.err"); cat "$log.err" >>"$log"
  return 0
}
# every row a second run could change: the roles, memberships, database, schemas' and default
# privileges, migrations (xmin: a row rewritten to the same values changes too)
snapshot() {
  sq "SELECT rolname, rolsuper, rolcanlogin, rolcreaterole, rolcreatedb, xmin FROM pg_authid
      WHERE rolname IN ('$owner', '$web', 'jobscreen_report') ORDER BY 1"
  sq "SELECT roleid::regrole, member::regrole, admin_option, xmin FROM pg_auth_members
      WHERE member IN (SELECT oid FROM pg_roles WHERE rolname IN ('$owner', '$web')) ORDER BY 1, 2"
  sq "SELECT datname, datdba::regrole, datacl, xmin FROM pg_database WHERE datname = '$db'"
  sq "SELECT nspname, nspowner::regrole, nspacl, xmin FROM pg_namespace WHERE nspname IN ('js', 'js_data') ORDER BY 1" "$db"
  sq "SELECT defaclrole::regrole, defaclobjtype, defaclacl, xmin FROM pg_default_acl ORDER BY 1, 2" "$db"
  sq "SELECT count(*), max(version), max(applied_at) FROM js_data.schema_migrations" "$db"
}
# the relations and functions of js and js_data, and how many are not owned by ROLE
not_owned() {
  sq "SELECT count(*) > 100, count(*) FILTER (WHERE o <> '$1'::regrole) FROM (
        SELECT relowner AS o FROM pg_class WHERE relnamespace IN ('js'::regnamespace, 'js_data'::regnamespace)
        UNION ALL SELECT proowner FROM pg_proc WHERE pronamespace IN ('js'::regnamespace, 'js_data'::regnamespace)) x" "$2"
}

# --- the superuser's first run ------------------------------------------------------------
setup "$(conn $db)" --owner $owner --web-role $web
[ $st -eq 0 ] || diag "$out" "$err"
ok $st "--setup-roles as the superuser: exit 0"
like "$out" "role $owner \(.*\): created" "it creates the owner role"
like "$out" "role jobscreen_report \(.*\): (created|exists)" "it creates jobscreen_report unless the cluster's migrations did"
like "$out" "role $web \(.*\): created" "it creates the web role"
like "$out" "role $web in jobscreen_report: granted" "and makes it a member of jobscreen_report"
like "$out" "database $db \(owner $owner\): created" "it creates the database, owned by the owner"
like "$out" "schema of database $db: [0-9]+ migrations applied, version [0-9]+" "it migrates the database"
is "$(sq "SELECT rolcanlogin, rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = '$owner'" | tr '|' ' ')" \
  "t f f f" "the owner logs in, and is neither superuser nor may create roles or databases"
is "$(sq "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '$db'")" $owner "the database belongs to the owner"
is "$(sq "SELECT string_agg(nspname || ' ' || pg_get_userbyid(nspowner), ', ' ORDER BY nspname) FROM pg_namespace
          WHERE nspname IN ('js', 'js_data')" $db)" "js $owner, js_data $owner" "so do the schemas js and js_data"
is "$(not_owned $owner $db)" "t|0" "and every table, view and function in them (migrated as the owner)"
is "$(sq "SELECT rolcanlogin FROM pg_roles WHERE rolname = 'jobscreen_report'")" f "jobscreen_report is a NOLOGIN role"
is "$(sq "SELECT count(*) FROM pg_auth_members WHERE roleid = 'jobscreen_report'::regrole AND member = '$web'::regrole")" 1 \
  "the web role is a member of jobscreen_report"

# --- the second run ------------------------------------------------------------------------
before=$(snapshot)
setup "$(conn $db)" --owner $owner --web-role $web
[ $st -eq 0 ] || diag "$out" "$err"
ok $st "a second run: exit 0"
! grep -Eq ': (created|granted)$' <<<"$out"
ok $? "it creates and grants nothing"
is "$(grep -c ': exists$' <<<"$out")|$(grep -c ': already a member$' <<<"$out")|$(grep -c ': already granted$' <<<"$out")" "4|1|1" \
  "it finds the three roles and the database, the membership and the read access"
like "$out" "schema of database $db: migrations up to date" "and the schema up to date"
is "$err" "" "it logs nothing"
is "$(snapshot)" "$before" "it changes nothing (roles, membership, database, schemas, default privileges, migrations)"

# --- what the roles may do -------------------------------------------------------------------
is "$(as $web $db "SELECT count(*) FROM js.jobs")" 0 "the web role reads the views of js"
is "$(as $web $db "SELECT js.series_chunk_of(1000)")" 900 "and calls its functions"
like "$(as $web $db "SELECT count(*) FROM js_data.jobs")" "permission denied" "it cannot read js_data"
like "$(as $web $db "CREATE VIEW js.mine78 AS SELECT 1")" "permission denied" "nor create objects in js"
"$INGEST" --migrate --db "$(conn $db $owner)" 2>>"$log"
ok $? "the owner, connecting as itself, runs --migrate"
spool=$JS_CLUSTER_DIR/spool78; rm -rf "$spool" "$spool.q"; mkdir -p "$spool"
"$INGEST" --once --spool "$spool" --quarantine "$spool.q" --db "$(conn $db $owner)" 2>>"$log"
ok $? "and --once on an empty spool"
as $owner $db "CREATE VIEW js.zz_later78 AS SELECT 42 AS answer" >/dev/null
is "$(as $web $db "SELECT answer FROM js.zz_later78")" 42 \
  "a view the owner adds later to js is readable by the web role without a new grant (an upgrade)"

# --- who may run it ------------------------------------------------------------------------
setup "$(conn $db $web)" --owner $owner --web-role $web
is "$st|$out" "1|" "run as a role without the privileges (the web role): exit 1, and nothing done"
like "$err" "needs a superuser or a role with CREATEROLE and CREATEDB" "with a message saying what it needs"

sq "CREATE ROLE $admin LOGIN CREATEROLE CREATEDB" >/dev/null
setup "$(conn $db2 $admin)" --owner $owner2 --web-role $web
[ $st -eq 0 ] || diag "$out" "$err"
ok $st "a role with CREATEROLE and CREATEDB, no superuser, sets up a database too"
like "$out" "role $admin in $owner2 \(to act as the owner\): granted" "as a member of the owner it makes itself"
is "$(sq "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '$db2'")|$(not_owned $owner2 $db2)" "$owner2|t|0" \
  "the database and everything in its schema belong to the owner"
setup "$(conn $db2 $admin)" --owner $owner2 --web-role $web
! grep -Eq ': (created|granted)$' <<<"$out"
is "$st|$?" "0|0" "its second run creates and grants nothing"

# --- databases that existed ----------------------------------------------------------------
sq "CREATE DATABASE $db3" >/dev/null
setup "$(conn $db3)" --owner $owner --web-role $web
[ $st -eq 0 ] || diag "$out" "$err"
like "$out" "database $db3: exists, owned by postgres rather than $owner" \
  "a database the superuser created: it says whose it is"
like "$out" "database $db3: CREATE \(of schemas\) for $owner: granted" "grants the owner to create the schemas in it"
is "$st|$(not_owned $owner $db3)" "0|t|0" "and migrates it as the owner"

jsdb=$(sed -n 's/.*dbname=\([^ ]*\).*/\1/p' <<<"$JS_DB")
setup "$(conn "$jsdb")" --owner $owner --web-role $web
is "$st" 1 "a database whose schema another role migrated (the cluster's, by postgres): exit 1"
like "$err" "REASSIGN OWNED BY postgres TO $owner" "with a message saying what to do"
is "$(sq "SELECT has_database_privilege('$owner', '$jsdb', 'CREATE')")" f "and it grants nothing in it"
done_testing
