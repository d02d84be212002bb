#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The licence (docs/building.md): GPL-2.0-or-later, as Slurm. COPYING holds it; every tracked
# source file says so in an SPDX line in its first three lines (the vendored JavaScript keeps
# its own licence; data, documents and the Debian packaging's files are not source); the
# packages' metadata say the same.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
cd "$JS_TOP_SRCDIR" || bail "no source tree"
git rev-parse --git-dir >/dev/null 2>&1 || skip_all "not a git checkout (the sources tracked are the ones checked)"
[ -z "$(git rev-parse --show-prefix)" ] || skip_all "not the top of a git checkout (the tarball's copy)"
plan 4
id='SPDX-License-Identifier: GPL-2.0-or-later'
mapfile -t files < <(git ls-files | grep -v -E '^(web/static/vendor/|tests/ingest-suites/|tests/sql/release-|debian/)|\.(json|md|gitignore|csv|xz|keep|txt|png)$|(^|/)(README|COPYING)$')
missing=$(for f in "${files[@]}"; do [ -f "$f" ] && ! head -n 3 "$f" | grep -qF "$id" && echo "$f"; done | head -n 10 | paste -sd ' ')
is "${missing:-none}" none "every source file (${#files[@]}) has the SPDX line GPL-2.0-or-later near its top"
moved=$(for f in "${files[@]}"; do [ -f "$f" ] && sed -n '2,3p' "$f" | grep -q '^#!' && echo "$f"; done | paste -sd ' ')
is "${moved:-none}" none "a shebang stays on the first line (the SPDX line comes after it)"
ok $(grep -q 'GNU GENERAL PUBLIC LICENSE' COPYING && grep -q 'Version 2, June 1991' COPYING; echo $?) "COPYING holds the GPL, version 2"
ok $(grep -q '^License: GPL-2+$' debian/copyright && grep -q '^License: *GPL-2.0-or-later AND MIT$' contrib/rpm/jobscreen.spec.in; echo $?) \
   "debian/copyright and the RPM spec's License: say GPL-2.0-or-later (and MIT for the vendored JavaScript)"
done_testing
