#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make install puts what a site needs where this build's configure said, and the deployment
# files it installs name those places: the plugstack.conf snippet names the installed plugin and
# profiler, the systemd units the installed daemons, the web server configurations the installed
# CGI and viewer; no placeholder is left and nothing names another machine's paths. Installed
# into a scratch DESTDIR, part by part (not tests/ and bench/).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
top=$JS_TOP_BUILDDIR
[ -f "$top/contrib/Makefile" ] || bail "no configured build in $top"
plan 10
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
for part in common profiler joblog spank profile_ingest sql web cli transport contrib; do
  make -s -C "$top/$part" install DESTDIR="$d" > "$d.log" 2>&1 || { cat "$d.log" >&2; bail "make install in $part failed"; }
done
rm -f "$d.log"
find_one() { find "$d" -path "*/$1" | head -n 1; }
snippet=$(find_one "slurm/plugstack.conf.d/jobscreen.conf")
ok $([ -n "$snippet" ]; echo $?) "the plugstack.conf snippet is installed (${snippet#$d})"
line=$(grep '^optional ' "$snippet")
plugin=$(awk '{print $2}' <<< "$line"); profiler=$(sed -n 's/.* profiler=\([^ ]*\).*/\1/p' <<< "$line")
ok $([ -f "$d$plugin" ] && [ -f "$d$profiler" ]; echo $?) "it names the installed plugin ($plugin) and profiler ($profiler)"
units=$(find "$d" -name '*.service' | sort)
missing=
for u in $units; do
  exe=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$u")
  case $exe in */spawn-fcgi) exe=$(sed -n 's/^ExecStart=.* -- \([^ ]*\).*/\1/p' "$u") ;; esac
  [ -x "$d$exe" ] || missing="$missing ${u##*/}:$exe"
done
is "$(wc -w <<< "$units") ${missing:-none} $(find "$d" -name 'jobscreen-retention.timer' | wc -l)" "5 none 1" \
   "the systemd units are installed, each starts an installed program, and the retention timer is there"
cgi=$(sed -n 's/^Alias \/jobscreen\/cgi-bin\/jobscreen.cgi \(.*\)$/\1/p' "$(find_one web-servers/apache.conf)")
static=$(sed -n 's/^Alias \/jobscreen \(.*\)$/\1/p' "$(find_one web-servers/apache.conf)")
ok $([ -x "$d$cgi" ] && [ -f "$d$static/index.html" ] && [ -f "$d$static/vendor/LICENSES.md" ]; echo $?) \
   "the web server configurations name the installed CGI ($cgi) and viewer ($static)"
# the viewer is ES modules served as they are (web/Makefile.am, STATIC_FILES): every script
# index.html loads and every module those import, followed file by file, is installed
todo=$(sed -n 's/.*<script[^>]* src="\([^"]*\)".*/\1/p' "$d$static/index.html" | tr '\n' ' '); seen=; missing=
while [ -n "${todo// /}" ]; do
  read -r f todo <<< "$todo"
  case " $seen " in *" $f "*) continue ;; esac
  seen="$seen $f"
  [ -f "$d$static/$f" ] || { missing="$missing $f"; continue; }
  todo="$todo $(sed -n "s/^import .* from '\.\/\([^']*\)';\$/\1/p" "$d$static/$f" | tr '\n' ' ')"
done
is "${missing:-none}" "none" "every script of the viewer and every module it imports is installed ($(wc -w <<< "$seen") files)"
left=$(grep -rln '@[a-z]*dir@' "$d" 2>/dev/null | sed "s|^$d||")
is "${left:-none}" "none" "no placeholder is left in any installed file"
man=$(find "$d" -path '*/man/man*/*' -type f -printf '%f\n' | sort | tr '\n' ' ')
missing=
for m in jobscreen.1 jobscreen-web.conf.5 jobscreen.8 joblog.8 profile_ingest.8; do grep -qw "$m" <<< "$man" || missing="$missing $m"; done
is "${missing:-none}" "none" "the man pages are installed: $man"
ok $([ -n "$(find_one sql/views/js.jobs.sql)" ] && [ -x "$(find "$d" -path '*/bin/jobscreen' | head -n 1)" ]; echo $?) \
   "the SQL and the terminal report are installed"
conf=$(find "$d" -path '*/jobscreen/web.conf' | head -n 1); etc=${conf%/jobscreen/web.conf}
is "$( (cd "$etc" && ls jobscreen && ls default) | tr '\n' ' ')" \
  "cli.conf profile_ingest-received.conf profile_ingest.conf receive.conf web.conf jobscreen-send " \
  "the configuration files are installed in SYSCONFDIR/jobscreen (and the sender's environment in SYSCONFDIR/default)"
echo "admins = site-admin" >> "$conf"
make -s -C "$top/contrib" install DESTDIR="$d" >/dev/null 2>&1 && make -s -C "$top/contrib" uninstall DESTDIR="$d" >/dev/null 2>&1
is "$(tail -n 1 "$conf")|$(ls "$etc/jobscreen" | tr '\n' ' ')" "admins = site-admin|web.conf " \
  "make install keeps a configuration the site changed; make uninstall removes only those it put there unchanged"
done_testing
