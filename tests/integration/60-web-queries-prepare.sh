#!/usr/bin/env bash
# Every query of web/queries.sql prepares against the schema of sql/ (the js.* views): a
# renamed view or column breaks this test, not a user's page.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
db=jobscreen_web_t60
dropdb --if-exists "$db" 2>/dev/null
createdb "$db" || bail "createdb $db failed"
trap 'dropdb --if-exists "$db" 2>/dev/null' EXIT
mapfile -t names < <(sed -n 's/^-- name: \([a-z_]*\).*/\1/p' "$JS_TOP_SRCDIR/web/queries.sql")
plan $((1 + ${#names[@]}))
st=0
for f in "$JS_TOP_SRCDIR"/sql/[0-9][0-9][0-9]_*.sql; do
  psql -q -X -v ON_ERROR_STOP=1 -d "$db" -f "$f" >/dev/null 2>"$JS_CLUSTER_DIR/t60.err" || { st=1; diag "$(cat "$JS_CLUSTER_DIR/t60.err")"; break; }
done
ok $st "the migrations of sql/ load into an empty database"
for n in "${names[@]}"; do
  sql=$(awk -v want="$n" '/^-- name: /{on = ($3 == want); next} /^[ \t]*--/{next} on{print}' "$JS_TOP_SRCDIR/web/queries.sql")
  out=$(printf 'PREPARE q AS %s;\n' "$sql" | psql -q -X -v ON_ERROR_STOP=1 -d "$db" 2>&1)
  ok $? "query '$n' prepares against the js.* views"
  [ -n "$out" ] && diag "$out"
done
done_testing
