#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The schema: migrations apply once and again without change, a database of release 0.1.0 gains
# the new migrations and definitions on top and then equals one migrated from nothing, an older
# one or one an admin built on is refused by name, the tables' metric columns are the profile
# format's, incomplete_reason orders its kinds of parts, every table, column and view is
# commented, a newer schema than the binary knows is refused with a clear message, the
# configuration rejects unknown keys by name, --status reports the backlog, and the daemon
# runs as a service account holding only CAP_DAC_OVERRIDE, or drops root for one (--user).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
bin=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
gen=$JS_TOP_BUILDDIR/bench/gen/jsgen
[ -x "$bin" ] && [ -x "$gen" ] || bail "build first"
# uniform jobs of jsalice's: one step on one node, one process of 3 slices writing one file
alice_jobs() { "$gen" --uniform --out "$1" --job-id-base "$2" --jobs "$3" --slices 3 --files 1 --uid "$(id -u jsalice)" --gid "$(id -g jsalice)" --user jsalice >/dev/null; }
plan 25
db=js_schema
conn="$JS_PG_CONNINFO dbname=$db"
dropdb --if-exists "$db" 2>/dev/null; createdb "$db"
q() { psql -X -q -At -d "$db" -c "$1"; }

"$bin" --migrate --db "$conn" 2>"$JS_CLUSTER_DIR/schema.log"
ok $? "--migrate applies the migrations"
# the migrations of sql/migrations/ (000 is the bootstrap, run every time and not recorded)
migrations=$(cd "$JS_TOP_SRCDIR/sql/migrations" && ls [0-9][0-9][0-9]_*.sql | sed 's/\.sql$//' | grep -v '^000_')
is "$(q "SELECT string_agg(version || ' ' || name, ', ' ORDER BY version) FROM js_data.schema_migrations")" \
   "$(for m in $migrations; do printf '%d %s\n' "$((10#${m%%_*}))" "$m"; done | paste -sd, | sed 's/,/, /g')" "each migration of sql/migrations/ is recorded once"
# one object per file of sql/views/, sql/functions/ and sql/types/ (and series_chunk_of, which
# the tables' CHECKs call, in 033_base)
objects() { q "SELECT string_agg(o, ' ' ORDER BY o) FROM (
  SELECT n.nspname || '.' || c.relname AS o FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname IN ('js', 'js_data') AND c.relkind IN ('v', 'c')
  UNION ALL SELECT n.nspname || '.' || p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE n.nspname IN ('js', 'js_data') AND (n.nspname, p.proname) <> ('js_data', 'series_chunk_of')) x"; }
is "$(objects)" "$(cd "$JS_TOP_SRCDIR/sql" && ls views functions types | grep '\.sql' | sed 's/\.sql\(\.in\)\{0,1\}$//' | sort -u | paste -sd ' ')" \
   "the database holds exactly the views, functions and types of sql/views/, sql/functions/ and sql/types/"
state() { q "SELECT (SELECT count(*) FROM js_data.schema_migrations) || ' ' || (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname IN ('js', 'js_data')) || ' ' || (SELECT digest || created_at FROM js_data.schema_definitions) || ' ' || (SELECT min(c.oid::bigint) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'js' AND c.relkind = 'v')"; }
before=$(state); digest=$(q "SELECT digest FROM js_data.schema_definitions")
"$bin" --migrate --db "$conn" 2>"$JS_CLUSTER_DIR/schema2.log"
is "$?|$(state)" "0|$before" "a second --migrate changes nothing (the same migrations, relations and definitions, not created again)"
# the tables' metric columns: the profile format's metrics in its order (bigint totals, bytea
# series), then its kernel counts where the table keeps them
metrics=$(echo '@metrics{{m}}{ }@' | "$JS_TOP_BUILDDIR/sql/tools/expand-metrics")
cols() { q "SELECT string_agg(a.attname, ' ' ORDER BY a.attnum) FROM pg_attribute a
             WHERE a.attrelid = 'js_data.$1'::regclass AND a.attnum > 0 AND NOT a.attisdropped
               AND a.attname = ANY (string_to_array('$metrics', ' '))"; }
got=; want=
for t in processes live_processes live_slice_metrics series_step_node series_step series_node series_cluster; do
  got+="$t: $(cols "$t"); "; want+="$t: $metrics; "
done
is "$got" "$want" "every table of metric columns has the profile format's metrics, in order"
is "$(q "SELECT string_agg(c.relname, ' ') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname IN ('js', 'js_data') AND c.relkind IN ('r', 'p', 'v') AND NOT c.relispartition
           AND obj_description(c.oid, 'pg_class') IS NULL")" "" "every table and view has a COMMENT"
is "$(q "SELECT string_agg(c.relname || '.' || a.attname, ' ') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
         WHERE n.nspname = 'js_data' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
           AND col_description(c.oid, a.attnum) IS NULL")" "" "every column of every table has a COMMENT"
# what is missing of a step, in words: quarantined profiles, processes not recorded (summed over
# the nodes per reason; without a reason none is given), processes with something missing
q "INSERT INTO js_data.clusters (cluster_id, name) VALUES (1, 'c');
   INSERT INTO js_data.jobs (cluster_id, job_id, uid, record) VALUES (1, 5, 1000, '{}');
   INSERT INTO js_data.steps (cluster_id, job_id, step_id) VALUES (1, 5, '0');
   INSERT INTO js_data.step_nodes (cluster_id, job_id, step_id, node, record, unrecorded, unrecorded_reason)
       VALUES (1, 5, '0', 'n1', '{}', 3, 'quota'), (1, 5, '0', 'n2', '{}', 1, 'quota'), (1, 5, '0', 'n3', '{}', 1, NULL),
              (1, 5, '0', 'n4', '{}', 0, NULL);
   INSERT INTO js_data.quarantine (cluster_id, job_id, step_id, node, file, moved_to, reason)
       VALUES (1, 5, '0', 'n2', 'job.5/profiles/0.n2.b1.json', '/q/0.n2.b1.json', 'bad')"
is "$(q "SELECT js_data.incomplete_reason(1::smallint, 5, '0', NULL) || '|' || js_data.incomplete_reason(1::smallint, 5, '0', 'n2')
         || '|' || js_data.incomplete_reason(1::smallint, 5, '0', 'n3') || '|' || coalesce(js_data.incomplete_reason(1::smallint, 5, '0', 'n4'), '-')")" \
   "1 profile quarantined: bad; 4 processes not recorded: quota; 1 process not recorded|1 profile quarantined: bad; 1 process not recorded: quota|1 process not recorded|-" \
   "incomplete_reason: quarantined profiles, then processes not recorded summed over the nodes by reason; nothing for a complete node"
q "DELETE FROM js_data.quarantine; DELETE FROM js_data.step_nodes; DELETE FROM js_data.steps; DELETE FROM js_data.jobs; DELETE FROM js_data.clusters"
q "INSERT INTO js_data.schema_migrations (version, name) VALUES (99, '099_future')"
out=$("$bin" --migrate --db "$conn" 2>&1); st=$?
is "$st" "1" "a newer schema is refused (exit 1)"
newest=$(ls "$JS_TOP_SRCDIR"/sql/migrations/[0-9][0-9][0-9]_*.sql | sed 's#.*/0*\([0-9][0-9]*\)_.*#\1#' | sort -n | tail -1)
like "$out" "the database's schema version 99 is newer than this profile_ingest knows \($newest\): upgrade profile_ingest" "with a message that says so"
q "DELETE FROM js_data.schema_migrations WHERE version = 99"
# A migration missing below the highest applied one (a gap filled by a later release) is applied,
# and the views built on its tables come back with it.
q "SET client_min_messages = warning; DROP TABLE js_data.step_segment_groups, js_data.step_slow_segments CASCADE;
   ALTER TABLE js_data.step_nodes DROP COLUMN segment_processes CASCADE, DROP COLUMN segment_boundaries CASCADE,
       DROP COLUMN segment_ungrouped CASCADE, DROP COLUMN segment_ungrouped_ns CASCADE;
   DELETE FROM js_data.schema_migrations WHERE version = 36"
out=$("$bin" --migrate --db "$conn" 2>&1); st=$?
is "$st|$(q "SELECT count(*) FROM js_data.schema_migrations WHERE version = 36")|$(q "SELECT to_regclass('js.step_segment_groups') IS NOT NULL AND to_regclass('js_data.step_slow_segments') IS NOT NULL")" \
   "0|1|t" "a migration missing below the highest applied one is applied, its views created again"

# An admin's own view on a view of js would go with it: migrate refuses, naming it, and leaves
# the database as it was; once it is dropped, migrate goes on.
q "CREATE VIEW public.my_jobs AS SELECT job_id FROM js.jobs; UPDATE js_data.schema_definitions SET digest = 'changed'"
out=$("$bin" --migrate --db "$conn" 2>&1); st=$?
like "$st|$out" "^1\|.*public\.my_jobs \(on js\.jobs\) depend on them: drop them, migrate, and create them again" \
   "a view of another schema built on js.jobs stops the migrate, named"
is "$(q "SELECT to_regclass('js.jobs') IS NOT NULL")|$(q "SELECT digest FROM js_data.schema_definitions")" "t|changed" "and the database is left as it was"
q "DROP VIEW public.my_jobs"
"$bin" --migrate --db "$conn" 2>/dev/null
is "$?|$(q "SELECT digest FROM js_data.schema_definitions")" "0|$digest" "then it creates the definitions again"

# A database of release 0.1.0 (schema version 33, tests/sql/release-0.1.0.sql) holding a step
# incomplete by a quarantined profile gains the migrations after 33 and the definitions: its
# schema is then the one a migrate from nothing makes (pg_dump), and its rows are kept.
old=js_schema_old
dropdb --if-exists "$old" 2>/dev/null; createdb "$old"
psql -X -q -v ON_ERROR_STOP=1 -d "$old" -f "$JS_TOP_SRCDIR/tests/sql/release-0.1.0.sql" >/dev/null 2>&1 || bail "release 0.1.0's schema does not load"
psql -X -q -v ON_ERROR_STOP=1 -d "$old" >/dev/null <<'SQL' || bail "the old database's rows"
INSERT INTO js_data.clusters (cluster_id, name) VALUES (1, 'old');
INSERT INTO js_data.jobs (cluster_id, job_id, uid, record) VALUES (1, 9, 1000, '{}');
INSERT INTO js_data.steps (cluster_id, job_id, step_id, incomplete, incomplete_reason)
    VALUES (1, 9, '0', true, '1 profile quarantined: field "totals" is missing'), (1, 9, '1', false, NULL);
INSERT INTO js_data.step_nodes (cluster_id, job_id, step_id, node, profiles, quarantined, incomplete, record, incomplete_reason)
    VALUES (1, 9, '0', 'n1', 1, 1, true, '{}', '1 profile quarantined: field "totals" is missing'), (1, 9, '1', 'n1', 1, 0, false, '{}', NULL);
INSERT INTO js_data.quarantine (cluster_id, job_id, step_id, node, file, moved_to, reason)
    VALUES (1, 9, '0', 'n1', 'job.9/profiles/0.n1.5.json', '/q/job.9/0.n1.5.json', 'field "totals" is missing');
SQL
"$bin" --migrate --db "$JS_PG_CONNINFO dbname=$old" 2>"$JS_CLUSTER_DIR/schema-old.log"; st=$?
is "$st|$(psql -X -At -d "$old" -c "SELECT string_agg(version::text, ' ' ORDER BY version) FROM js_data.schema_migrations WHERE version > 30")" \
   "0|31 32 33 36 37 40 41 42 43 44 45 48" "a database of release 0.1.0 gains the migrations after 33"
schema() { pg_dump -s -d "$1" | grep -v -e '^\\restrict' -e '^\\unrestrict'; }
diff <(schema "$db") <(schema "$old") > "$JS_CLUSTER_DIR/schema-old.diff"
is "$?|$(head -c 600 "$JS_CLUSTER_DIR/schema-old.diff")" "0|" "and its schema is then the one a migrate from nothing makes (pg_dump -s)"
is "$(psql -X -At -d "$old" -c "SELECT string_agg(step_id || ':' || coalesce(incomplete_reason, '-') || ':' || killed_processes || ':' || unrecorded_processes, ', ' ORDER BY step_id) FROM js.steps")|$(psql -X -At -d "$old" -c "SELECT count(*) FROM js.step_report")" \
   '0:1 profile quarantined: field "totals" is missing:0:0, 1:-:0:0|2' \
   "its rows are kept and read through the new views"
# a database older than the squashed base is refused, with what to do
psql -X -q -d "$old" -c "DELETE FROM js_data.schema_migrations WHERE version > 20"
out=$("$bin" --migrate --db "$JS_PG_CONNINFO dbname=$old" 2>&1); st=$?
like "$st|$out" "^1\|.*schema version 20 predates 33 \(release 0\.1\.0\), from which this profile_ingest upgrades: migrate it with release 0\.1\.0's profile_ingest first" \
   "a database below 33 is refused, saying to migrate it with release 0.1.0 first"
dropdb "$old" 2>/dev/null

printf 'spool = /tmp\nspoool = /x\n' > "$JS_CLUSTER_DIR/bad.conf"
out=$("$bin" --once --config "$JS_CLUSTER_DIR/bad.conf" 2>&1); st=$?
is "$st|${out##*: }" "2|unknown key \"spoool\"" "an unknown configuration key is refused by name (exit 2)"

# --status: the backlog of a spool and the database's counts
spool=$(mktemp -d "$JS_CLUSTER_DIR/status.XXXXXX"); chmod 711 "$spool"
alice_jobs "$spool" 7000 2
out=$("$bin" --status --spool "$spool" --db "$conn" 2>/dev/null)
like "$out" $'backlog: 2 step records waiting\ningested step records: 0' "--status reports the backlog and the database"

# a service account with CAP_DAC_OVERRIDE only: reads the user's 0700 profiles, empties the spool
if command -v setpriv >/dev/null; then
  id jsingest >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin jsingest
  q "CREATE ROLE jsingest LOGIN" 2>/dev/null; q "GRANT ALL ON SCHEMA js, js_data TO jsingest; GRANT ALL ON ALL TABLES IN SCHEMA js, js_data TO jsingest; GRANT ALL ON ALL SEQUENCES IN SCHEMA js_data TO jsingest; ALTER SCHEMA js_data OWNER TO jsingest; ALTER DATABASE $db OWNER TO jsingest"
  for t in $(q "SELECT schemaname || '.' || tablename FROM pg_tables WHERE schemaname = 'js_data'"); do q "ALTER TABLE $t OWNER TO jsingest"; done
  qdir=$(mktemp -d "$JS_CLUSTER_DIR/q.XXXXXX"); chown jsingest "$qdir"
  setpriv --reuid=jsingest --regid=jsingest --clear-groups --inh-caps=+dac_override --ambient-caps=+dac_override \
    "$bin" --once --spool "$spool" --db "host=127.0.0.1 port=$PGPORT dbname=$db user=jsingest" --quarantine "$qdir" \
    --set job_grace_seconds=0 2>"$JS_CLUSTER_DIR/svc.log"
  is "$?|$(q "SELECT count(*) FROM js_data.step_nodes")|$(find "$spool" -mindepth 1 | wc -l)" "0|2|0" \
     "as a service account with only CAP_DAC_OVERRIDE it ingests the job and empties the spool"
  is "$(grep -c ' error: ' "$JS_CLUSTER_DIR/svc.log")" "0" "and logs no error (no permission was missing)"
else
  ok 0 "# SKIP setpriv not installed"; ok 0 "# SKIP setpriv not installed"
fi
# started as root with --user: it drops root for the account, keeping CAP_DAC_OVERRIDE only
rm -rf "$spool"; mkdir -m 711 "$spool"
alice_jobs "$spool" 7100 1
"$bin" --once --user nobody --spool "$spool" --db "$conn" --quarantine "$spool/.q" --set job_grace_seconds=0 2>"$JS_CLUSTER_DIR/user.log"
is "$?|$(q "SELECT count(*) FROM js_data.step_nodes WHERE job_id = 7100")|$(find "$spool" -name 'job.*' | wc -l)" "0|1|0" \
   "started as root with --user nobody it ingests and empties the spool"
like "$(grep -o 'running as nobody .*' "$JS_CLUSTER_DIR/user.log")" "^running as nobody \(uid [0-9]+\) with CAP_DAC_OVERRIDE only$" \
   "after dropping root to nobody with CAP_DAC_OVERRIDE only"
# --archive: ingested files are moved, not removed
rm -rf "$spool"; mkdir -m 711 "$spool"; arch=$(mktemp -d "$JS_CLUSTER_DIR/archive.XXXXXX")
alice_jobs "$spool" 7200 1
"$bin" --once --archive "$arch" --spool "$spool" --db "$conn" --set job_grace_seconds=0 2>/dev/null
is "$(cd "$arch" && find . -type f | sort | tr '\n' ' ')" "./job.7200/job.json ./job.7200/profiles/0.gen1.1000.json ./job.7200/step.0.gen1.json " \
   "--archive moves the job record, the step record and the profile into ARCHIVE/job.ID/"
rm -rf "$arch"
dropdb "$db" 2>/dev/null
rm -rf "$spool" "$JS_CLUSTER_DIR/bad.conf"
done_testing
