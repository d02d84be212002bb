#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The access rule of the web (which jobs a viewer may see) is stated once, by js.may_see
# (sql/functions/js.may_see.sql), and every query of web/queries.sql(.in) applies it: each calls js.may_see, or
# a function of schema js that does (js.exported_jobs), with the viewer ($1, $2, $3), and
# names the viewer's name $1 nowhere else, so that no query spells `user_name = $1` by hand and
# none can forget the rule.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
queries=${JS_QUERIES_SQL:-$JS_TOP_BUILDDIR/web/queries.sql}   # as built from queries.sql.in
sqldir=$JS_TOP_SRCDIR/sql
[ -r "$queries" ] || bail "no $queries"

# Queries that may leave the rule out, each with its reason (none today: every query reads
# something that belongs to a job).
allow=(
)

plan 5
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# one line per query, "NAME<TAB>SQL", without the comment lines (as sql2c.awk compiles them)
awk '/^-- name: / { if (n) print ""; printf "%s\t", $3; n++; next }
     /^[ \t]*--/ { next }
     n { printf "%s ", $0 }
     END { if (n) print "" }' "$queries" > "$tmp/queries"
# the functions of schema js that apply the rule: js.may_see and those whose body calls it
awk 'match($0, /^CREATE (OR REPLACE )?FUNCTION js\.[a-z_0-9]+/) { f = substr($0, RSTART, RLENGTH); sub(/.* js\./, "js.", f) }
     f != "" && f != "js.may_see" && /js\.may_see\(/ { print f }
     /;[ \t]*$/ { f = "" }' "$sqldir"/functions/*.sql* | sort -u > "$tmp/appliers"
printf '%s\n' "${allow[@]}" | sed '/^$/d' > "$tmp/allow"

ok $([ -s "$tmp/queries" ] && grep -q '^CREATE FUNCTION js\.may_see(' "$sqldir"/functions/*.sql*; echo $?) \
   "$(wc -l < "$tmp/queries") queries read; sql/ defines js.may_see"
# a call with the viewer: js.may_see($1, $2, $3, ...) or js.APPLIER($1, $2, $3, ...)
calls="js\\.may_see\\(\\\$1, \\\$2, \\\$3,"
while read -r f; do calls="$calls|${f//./\\.}\\(\\\$1, \\\$2, \\\$3,"; done < "$tmp/appliers"
missing=$(CALLS=$calls awk -F'\t' 'BEGIN { re = ENVIRON["CALLS"] } FILENAME == ARGV[1] { a[$1] = 1; next }
                                     !($1 in a) && $2 !~ re { print $1 }' "$tmp/allow" "$tmp/queries")
is "$missing" "" "every query applies the rule: calls js.may_see or $(paste -sd' ' "$tmp/appliers") with the viewer (\$1, \$2, \$3)"
by_hand=$(CALLS=$calls awk -F'\t' 'BEGIN { re = ENVIRON["CALLS"] } { s = $2; gsub(re, "", s); if (s ~ /\$1([^0-9]|$)/) print $1 }' "$tmp/queries")
is "$by_hand" "" "no query names the viewer \$1 outside those calls (no user_name = \$1 by hand)"
is "$(grep -c 'user_name *= *\$1\|\$1 *= *[a-z]*\.\?user_name' "$queries")" "0" "no line of queries.sql compares a user name with \$1"
# the allow-list names queries that exist and leave the rule out
stale=$(CALLS=$calls awk -F'\t' 'BEGIN { re = ENVIRON["CALLS"] } FILENAME == ARGV[1] { a[$1] = 1; next }
                                   ($1 in a) { seen[$1] = 1; if ($2 ~ re) print $1 " applies it" }
                                   END { for (n in a) if (!(n in seen)) print n " is no query" }' "$tmp/allow" "$tmp/queries")
is "$stale" "" "the allow-list is current"
done_testing
