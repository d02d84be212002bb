#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Rooms that say what they are (docs/architecture.md): no two tracked C files, sources or
# headers, share a basename, so that an error message, an assert's __FILE__ or a stack trace
# says which part it comes from (profile_ingest/ingest_spool.c, joblog/joblog_spool.c; not
# spool.c twice). A name counts with its extension: foo.c and foo.h may live in two folders.
# The tests (tests/) and the vendored code (web/static/vendor/) are left aside.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
cd "$JS_TOP_SRCDIR" || bail "no source tree"
git rev-parse --git-dir >/dev/null 2>&1 || skip_all "not a git checkout (the sources tracked are the ones checked)"
# a tarball unpacked inside a checkout (make distcheck) is not the tree git tracks
[ -z "$(git rev-parse --show-prefix)" ] || skip_all "not the top of a git checkout (the tarball's copy)"
plan 2

# "NAME: PATH PATH ..." for each basename that more than one of the paths on stdin has
shared() {
  awk '{ n = $0; sub(/.*\//, "", n); paths[n] = paths[n] " " $0; count[n]++ }
       END { for (n in count) if (count[n] > 1) print n ":" paths[n] }' | sort
}

# the measure itself: a name two folders share is found, a source and a header are two names
is "$(printf '%s\n' a/conf.c b/conf.c a/conf.h c/x.c | shared)" "conf.c: a/conf.c b/conf.c" \
   "the check finds a basename that two folders share, and not a .c and a .h of one name"

mapfile -t files < <(git ls-files '*.c' '*.h' | grep -v -E '^(tests/|web/static/vendor/)')
[ ${#files[@]} -gt 0 ] || bail "no tracked C file"
dups=$(printf '%s\n' "${files[@]}" | shared | paste -sd ';' | sed 's/;/; /g')
is "${dups:-none}" none "no two C files outside tests/ share a basename (${#files[@]} files)"
done_testing
