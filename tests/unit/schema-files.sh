#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The schema's present is in one place (docs/schema.md, "Migrations"): each view, function and
# type of schemas js and js_data is defined by exactly one file, sql/views/NAME.sql,
# sql/functions/NAME.sql or sql/types/NAME.sql (or its template NAME.sql.in), named after it;
# no migration defines one (but js_data.series_chunk_of, which the tables' CHECKs call, in the
# base 033); sql/objects.am lists every such file once, in an order where each comes after the
# views and types it is built on (checked on a database by tests/integration/ingest/schema.sh).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
cd "$JS_TOP_SRCDIR" || bail "no source tree"
git rev-parse --git-dir >/dev/null 2>&1 || skip_all "not a git checkout (the sources tracked are the ones checked)"
[ -z "$(git rev-parse --show-prefix)" ] || skip_all "not the top of a git checkout (the tarball's copy)"
plan 5

# "FILE OBJECT" for every CREATE of a view, function or type in the tracked files of sql/
creates() {
  git ls-files sql | grep -E '\.sql(\.in)?$' | grep -v '^sql/reports/' | while read -r f; do
    grep -oiE '^[[:space:]]*CREATE[[:space:]]+(OR[[:space:]]+REPLACE[[:space:]]+)?(VIEW|FUNCTION|TYPE)[[:space:]]+[a-z_]+\.[a-z_0-9]+' "$f" |
      awk -v f="$f" '{ print f, $NF }'
  done
}
all=$(creates)
[ -n "$all" ] || bail "no CREATE found under sql/"
dups=$(awk '{ print $2 }' <<< "$all" | sort | uniq -d | paste -sd ' ')
is "${dups:-none}" none "each view, function and type is created once under sql/ ($(wc -l <<< "$all") objects)"
misnamed=$(awk '$1 ~ /^sql\/(views|functions|types)\// { n = $1; sub(/.*\//, "", n); sub(/\.sql(\.in)?$/, "", n)
                 if (n != $2) print $1 }' <<< "$all" | paste -sd ' ')
is "${misnamed:-none}" none "each file of sql/views/, sql/functions/ and sql/types/ creates the object it is named after"
elsewhere=$(awk '$1 !~ /^sql\/(views|functions|types)\// && !($1 == "sql/migrations/033_base.sql" && $2 == "js_data.series_chunk_of")' <<< "$all" |
            paste -sd ',' | sed 's/,/, /g')
is "${elsewhere:-none}" none "no migration creates a view, function or type (033_base: js_data.series_chunk_of, which its tables' CHECKs call)"
files=$(git ls-files sql/views sql/functions sql/types | sed 's#^sql/##; s/\.in$//' | sort)
empty=$(for f in $files; do awk -v f="sql/$f" '$1 == f || $1 == f ".in"' <<< "$all" | grep -q . || echo "$f"; done | paste -sd ' ')
is "${empty:-none}" none "every file there creates something"
listed=$(sed -n '/^SQL_TYPES/,/^SQL_TEMPLATES/p' sql/objects.am | grep -oE '(views|functions|types)/[a-z_.0-9]+\.sql' | sort)
is "$(diff <(echo "$files") <(echo "$listed") | grep '^[<>]' | paste -sd ' ')" "" \
   "sql/objects.am lists every file of sql/views/, sql/functions/ and sql/types/ once, and nothing else"
done_testing
