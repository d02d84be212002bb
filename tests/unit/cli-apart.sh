#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The terminal client (cli/, jobscreen(1)) is a client of the CGI's JSON API over HTTP, for
# login nodes that have no database: it links none of web/'s code and no libpq
# (docs/architecture.md). Checked in its sources (no header of web/, nothing of web/ in its
# Makefile.am) and in the program built (no jsw_ symbol, no libpq).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
bin=$JS_TOP_BUILDDIR/cli/jobscreen
# a libtool wrapper script stands there when the program links shared libraries of the tree
[ -e "$JS_TOP_BUILDDIR/cli/.libs/jobscreen" ] && bin=$JS_TOP_BUILDDIR/cli/.libs/jobscreen
[ -x "$bin" ] || bail "no jobscreen built at $bin"
command -v nm >/dev/null 2>&1 || skip_all "nm (binutils) is needed"
cli=$JS_TOP_SRCDIR/cli
web=$JS_TOP_SRCDIR/web
plan 5

# headers a cli/ source includes with quotes that only web/ has
web_headers() {
  sed -n 's/^#include "\([^"]*\)".*/\1/p' "$@" | sort -u | while read -r h; do
    [ -e "$cli/$h" ] || [ -e "$JS_TOP_SRCDIR/common/$h" ] || [ "$h" = config.h ] || echo "$h"
  done
}
# the measures find what they look for: web/'s own header, and web/'s symbols in its library
is "$(web_headers "$web/serve.c" | grep -c '^jsweb.h$')" 1 "the include check finds web/'s header in web/serve.c"
syms=$(nm "$JS_TOP_BUILDDIR/web/.libs/libjsweb.a" 2>/dev/null | grep -c ' T jsw_')
ok $([ "$syms" -gt 0 ]; echo $?) "the symbol check finds jsw_ functions in web/'s library ($syms)"

is "$(web_headers "$cli"/*.c "$cli"/*.h | paste -sd ' ')" "" "no cli/ source includes a header of web/"
is "$(grep -n -E 'web/|libjsweb|LIBPQ' "$cli/Makefile.am" | grep -v '^[0-9]*:#' | paste -sd ' ')" "" \
   "cli/Makefile.am builds from nothing of web/ and links no libpq"
is "$( (nm "$bin" 2>/dev/null; nm -D "$bin" 2>/dev/null; ldd "$bin" 2>/dev/null) |
       grep -E ' (jsw_|PQ)[A-Za-z_]*|libpq' | sort -u | paste -sd ' ')" "" \
   "$bin holds no jsw_ symbol and links no libpq"
done_testing
