#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The metric list lives once, in common/profile_format.h (JS_PROFILE_METRICS and
# JS_PROFILE_KERNEL_IO_FIELDS): no other source file spells it. A file "spells the list" where 16
# or more of the metrics follow each other in the list's order (each may be named several times
# in a row: `CASE WHEN $6 = 'x' THEN x.x END AS x`); a few named together (the POSIX ones in a
# test, the I/O ones of a chart) are a choice, not the list. Templates write lists as
# @metrics{ITEM}{SEP}@ (sql/tools/expand-metrics). Data is not source: the ingest suites'
# profiles and the header itself are skipped, and docs/profile-format.md's table of the metrics
# is checked against the header instead, row by row. History is not source either: the squashed
# base migration (sql/migrations/033_base.sql) and the release schema the upgrade is tested from
# (tests/sql/) are what release 0.1.0 had, and stay so when the list changes.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
cd "$JS_TOP_SRCDIR" || bail "no source tree"
git rev-parse --git-dir >/dev/null 2>&1 || skip_all "not a git checkout (the sources tracked are the ones checked)"
expand=$JS_TOP_BUILDDIR/sql/tools/expand-metrics
[ -x "$expand" ] || bail "build first: no $expand"
plan 4

names=$(echo '@slice_cols{{m}}{ }@' | "$expand")
is "$(wc -w <<< "$names")" 38 "expand-metrics lists the 32 metrics and the kernel's 6 counts from the header"

# spelled FILE...: "FILE:LINE FIRST..LAST" for each run of >= 16 metrics in list order
spelled() {
  awk -v names="$names" -v min=16 '
    BEGIN { n = split(names, m, " "); for (i = 1; i <= n; i++) idx[m[i]] = i }
    FNR == 1 { flush() }
    { line = $0
      while (match(line, /[A-Za-z0-9_]+/)) {
        w = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
        if (w in idx) { note(idx[w]); continue }
        if (w ~ /^bg_/ && substr(w, 4) in idx) note(idx[substr(w, 4)])
      } }
    function note(i) {
      if (run > 0 && (i == last || i == last + 1)) { if (i != last) run++; last = i; return }
      flush(); run = 1; first = i; last = i; start = FNR }
    function flush() { if (run >= min) printf "%s:%d %s..%s\n", fname, start, m[first], m[last]; run = 0 }
    { fname = FILENAME }
    END { flush() }' "$@"
}

# the checker finds a list where one is spelled (a copy of a templated migration, expanded)
probe=$(mktemp); trap 'rm -f "$probe"' EXIT
"$expand" < sql/views/js_data.slice_metrics.sql.in > "$probe"
like "$(spelled "$probe")" "posix_read_calls\.\.(cpu_ns|kernel_write_bytes)" "the check finds the lists an expanded view spells (it can fail)"

mapfile -t files < <(git ls-files | grep -v -e '^common/profile_format\.h$' -e '^tests/ingest-suites/' \
  -e '^docs/profile-format\.md$' -e '\.json$' -e '^web/static/vendor/' \
  -e '^sql/migrations/033_base\.sql$' -e '^tests/sql/release-')
found=$(spelled "${files[@]}" 2>/dev/null)
is "${found:-none}" none "no tracked source file spells the metric list by hand (${#files[@]} files)"

# docs/profile-format.md: one table row per metric, in order, with the header's unit
rows=$(sed -n 's/^| [0-9]* | \([a-z0-9_]*\) | \([a-z]*\) | .*/\1 \2/p' docs/profile-format.md | tr '\n' ' ')
want=$(echo '@metrics{{m} {u}}{ }@' | "$expand")
is "$rows" "$want " "docs/profile-format.md's table of the metrics has the header's names, order and units"
done_testing
