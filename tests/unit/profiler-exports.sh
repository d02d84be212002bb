#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every function the profiler wraps is exported under each name the loaded glibc gives it: glibc
# defines many functions under several names at one address (read and __read, pread64 and
# __pread64, getc and _IO_getc, fopen and _IO_fopen ...), and a program, or a library built
# against an older glibc, may call any public one of them: a name left out would bypass the
# profiler. The libc checked is the one the library actually loads (ldd).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
lib=${JS_PROFILER_LIB:-$JS_TOP_BUILDDIR/profiler/.libs/libjobscreen-profiler.so}
[ -e "$lib" ] || bail "no profiler library at $lib"
command -v nm >/dev/null 2>&1 || skip_all "nm (binutils) is needed"
libc=$(ldd "$lib" | awk '/libc\.so\.6/ {print $3}')
[ -e "$libc" ] || bail "no libc.so.6 in ldd $lib"

# Names no program can call, left out on purpose (each with its reason). Names that exist only in
# the GLIBC_PRIVATE version (glibc's own, refused to anyone else by the dynamic linker) and
# compatibility-only names (a single "@", no default "@@" version: no program built today can
# link them, e.g. llseek) are left out by rule below, not listed here.
allow=(
)

plan 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# libc: address, name, version, whether it is the default version (@@)
nm -D --defined-only "$libc" | awk '$2 ~ /^[TtWwiI]$/ {
  n = $3; v = ""; def = 0
  if (index(n, "@@")) { v = substr(n, index(n, "@@") + 2); n = substr(n, 1, index(n, "@@") - 1); def = 1 }
  else if (index(n, "@")) { v = substr(n, index(n, "@") + 1); n = substr(n, 1, index(n, "@") - 1) }
  print $1, n, v, def }' > "$tmp/libc"
nm -D --defined-only "$lib" | awk '$2 ~ /^[TW]$/ { n = $3; sub(/@.*/, "", n); print n }' | sort -u > "$tmp/prof"
printf '%s\n' "${allow[@]}" > "$tmp/allow"
ok $([ -s "$tmp/prof" ] && [ -s "$tmp/libc" ]; echo $?) "the profiler's exports and $libc's symbols are read"
# for every exported name that libc defines: the other names at its address that a program can
# call (a default, non-private version) and the profiler does not export
awk 'FILENAME == ARGV[1] { p[$1] = 1; next }
     FILENAME == ARGV[2] { a[$1] = 1; next }
     { addr[$2] = $1; if ($4 == 1 && $3 != "GLIBC_PRIVATE") callable[$1] = callable[$1] " " $2 }
     END { for (s in p) if (s in addr) { n = split(callable[addr[s]], c, " ");
             for (i = 1; i <= n; i++) if (!(c[i] in p) && !(c[i] in a)) print s " -> " c[i] } }' \
  "$tmp/prof" "$tmp/allow" "$tmp/libc" | sort -u > "$tmp/missing"
is "$(cat "$tmp/missing")" "" "every public glibc name of a wrapped function is exported too (wrapped -> missing name)"
# the allow-list holds no name that is exported anyway or that libc does not have
stale=$(for n in "${allow[@]}"; do grep -qx "$n" "$tmp/prof" && echo "$n exported"; awk -v n="$n" '$2 == n {f = 1} END {exit !f}' "$tmp/libc" || echo "$n not in libc"; done)
is "$stale" "" "the allow-list is current"
done_testing
