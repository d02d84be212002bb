#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian packages (debian/, docs/building.md "Debian packages"): dpkg-buildpackage builds
# them from the sources, split the way sites deploy; lintian finds no error and no warning;
# installing them creates the service account and the directories and starts or enables nothing;
# the demo then runs against the installed files alone (a 4-node cluster whose plugin, profiler,
# senders, receiver, ingest, CGI and viewer are the packages'), the terminal report too; purge
# leaves nothing of them but the account.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
[ "$(id -u)" -eq 0 ] || skip_all "needs root (installs packages)"
command -v dpkg >/dev/null || skip_all "not a Debian system"
git -C "$JS_TOP_SRCDIR" rev-parse --git-dir >/dev/null 2>&1 || skip_all "the sources are not a git checkout"
plan 23

work=$JS_CLUSTER_DIR/debian-packages demo=/var/tmp/jobscreen-pkgdemo
pkgs="jobscreen-compute jobscreen-server jobscreen-web jobscreen-client jobscreen-doc"
log=$work/log; rm -rf "$work"; mkdir -p "$work/src"
purge() { apt-get purge -y -q $pkgs >>"$log" 2>&1; }
cleanup() { "$JS_TOP_SRCDIR/tests/cluster" down --dir "$demo" >>"$log" 2>&1; purge; }
at_exit cleanup
purge   # an earlier run's, if it stopped half way

# what building and checking packages needs (the test command installs its own dependencies)
missing=
for p in debhelper lintian; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"; done
[ -z "$missing" ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >>"$log" 2>&1 || bail "cannot install$missing"

# the committed and new sources, as a clean tree (no build products)
(cd "$JS_TOP_SRCDIR" && git ls-files -co --exclude-standard | tar -cf - -T -) | tar -xf - -C "$work/src"
(cd "$work/src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b) >>"$log" 2>&1
st=$?
[ $st -eq 0 ] || diag "$(tail -n 30 "$log")"
ok $st "dpkg-buildpackage -us -uc -b builds the packages"
debs=$(for p in $pkgs; do ls "$work"/${p}_*.deb 2>/dev/null; done)
is "$(wc -w <<< "$debs")" 5 "one package per part: $pkgs"
# the plugin runs only in the Slurm series it was built for: the headers' (libslurm-dev's)
series=$(dpkg-query -W -f='${Version}' libslurm-dev | awk -F'[.-]' '{printf "%s.%s %s.%02d", $1, $2, $1, $2 + 1}')
like "$(dpkg-deb -f "$work"/jobscreen-compute_*.deb Depends)" \
  "slurm-wlm-basic-plugins \\(>= ${series% *}\\), slurm-wlm-basic-plugins \\(<< ${series#* }\\)" \
  "jobscreen-compute depends on the Slurm series it was built against (${series% *})"

contents() { dpkg-deb -c "$work/$1"_*.deb | awk '{print $6}' | sed 's|^\./|/|'; }
has() { # has PACKAGE FILE-PATTERN...: the package holds each, and no other package does
  local p=$1 f q bad=; shift
  for f; do
    contents "$p" | grep -qx "$f" || bad="$bad $f(missing)"
    for q in $pkgs; do [ "$q" = "$p" ] || ! contents "$q" | grep -qx "$f" || bad="$bad $f(also in $q)"; done
  done
  echo "${bad:-ok}"
}
is "$(has jobscreen-compute '/usr/lib/[^/]*/slurm-wlm/jobscreen.so' '/usr/lib/[^/]*/jobscreen/libjobscreen-profiler.so' \
  /usr/libexec/jobscreen/jobscreen-collect /usr/sbin/joblog /usr/sbin/jobscreen-send \
  /etc/slurm/plugstack.conf.d/jobscreen.conf /lib/systemd/system/jobscreen-send.service)" ok \
  "compute nodes: the plugin with its plugstack.conf snippet, the profiler and collector, joblog, the sender"
is "$(has jobscreen-server /usr/sbin/profile_ingest /usr/libexec/jobscreen/jobscreen-receive \
  /usr/share/jobscreen/sql/migrations/033_base.sql /etc/jobscreen/profile_ingest.conf /lib/systemd/system/profile_ingest.service \
  /lib/systemd/system/jobscreen-retention.timer)" ok "the server: the ingest, the receiver, the SQL, the units and the retention timer"
is "$(has jobscreen-web /usr/libexec/jobscreen/jobscreen.cgi /usr/share/jobscreen/static/index.html \
  /usr/share/jobscreen/web-servers/apache.conf /etc/jobscreen/web.conf)" ok "the web: the CGI, the viewer, the web server configurations"
is "$(has jobscreen-client /usr/bin/jobscreen /etc/jobscreen/cli.conf)" ok "login nodes: the terminal report"
is "$(contents jobscreen-compute | grep -c 'profile_ingest\|jobscreen.cgi\|\.la$')" 0 "no server or web file, and no libtool archive, on a compute node"

(cd "$work" && lintian --pedantic ./*.changes) > "$work/lintian.txt" 2>&1
is "$(grep -cE '^[EW]: ' "$work/lintian.txt")" 0 "lintian finds no error and no warning"
grep -E '^[EW]: ' "$work/lintian.txt" | head -n 20 | while read -r l; do diag "$l"; done

# processes of the installed daemons (other test clusters on this machine run the build's)
installed_daemons() {
  local p n=0
  for p in $(pgrep -x profile_ingest) $(pgrep -x jobscreen-send); do
    case $(readlink "/proc/$p/exe" 2>/dev/null) in /usr/sbin/profile_ingest|/usr/sbin/jobscreen-send) n=$((n + 1)) ;; esac
  done
  echo "$n"
}
DEBIAN_FRONTEND=noninteractive apt-get install -y -q $debs >>"$log" 2>&1
ok $? "the packages install (apt-get install)"
is "$(getent passwd jobscreen | cut -d: -f6,7)" "/var/lib/jobscreen:/usr/sbin/nologin" "the service account jobscreen exists, without a shell"
is "$(stat -c '%U %a' /var/spool/jobscreen /var/lib/jobscreen /var/spool/jobscreen-received | tr '\n' ' ')" \
  "root 711 jobscreen 750 www-data 750 " "the spool is root's 0711, the state directory the account's, the received spool the web server's"
enabled=$(find /etc/systemd/system -name 'profile_ingest*' -o -name 'jobscreen-*' 2>/dev/null | wc -l)
is "$enabled|$(installed_daemons)" "0|0" "nothing is enabled or started by the install"
is "$(dpkg-query -W -f='${Conffiles}' jobscreen-server | awk '{print $1}' | sort | tr '\n' ' ')" \
  "/etc/jobscreen/profile_ingest-received.conf /etc/jobscreen/profile_ingest.conf /etc/jobscreen/receive.conf " \
  "the configuration files are conffiles (an upgrade keeps the site's)"

JS_DEMO_INSIGHT=no JS_DEMO_DIR=$demo "$JS_TOP_SRCDIR/contrib/demo/run" --installed > "$work/demo.txt" 2>&1
st=$?
[ $st -eq 0 ] || diag "$(tail -n 20 "$work/demo.txt")"
ok $st "contrib/demo/run --installed runs the sample workflow through the installed pipeline into the database"
# shellcheck disable=SC1091
. "$demo/env"
line=$(grep '^optional' "$JS_PLUGSTACK")
like "$line" "^optional /usr/lib/[^ ]*/slurm-wlm/jobscreen.so .*profiler=/usr/lib/[^ ]*/jobscreen/libjobscreen-profiler.so" \
  "its cluster loads the installed plugin and profiler"
is "$(psql -X -q -At -d "$JS_DB" -c "SELECT count(DISTINCT s.job_id) >= 5 AND count(*) FILTER (WHERE p.step_id IS NOT NULL) > 0 FROM js.steps s LEFT JOIN js.processes p USING (step_id)")" t \
  "the database holds the workflow's jobs and the processes the installed profiler recorded"
last=$(squeue --states=all -h -o '%i' | sort -n | tail -n 1)
out=$(runuser -u jsalice -- env JOBSCREEN_CLI_CONF="$JOBSCREEN_CLI_CONF" /usr/bin/jobscreen "$last" 2>&1)
like "$out" "^Job $last \"archive\" of jsalice .*COMPLETED" "the installed jobscreen reports the workflow's last job through the installed CGI"
page=$(curl -s -u jsalice:jsalice "$JS_WEB_URL" | grep -c 'vendor/cytoscape.min.js')
jobs=$(curl -s -u jsalice:jsalice "${JS_WEB_URL}cgi-bin/jobscreen.cgi/jobs" | jq '.jobs | length')
is "$page|$jobs" "1|5" "the installed viewer is served, and its CGI lists the user's 5 jobs"

exes=$(for p in $(pgrep -f "$demo"); do readlink "/proc/$p/exe"; done | grep 'jobscreen\|profile_ingest' | sort -u | tr '\n' ' ')
cgis=$(for p in $(pgrep -x jobscreen.cgi); do readlink "/proc/$p/exe"; done | grep -c '^/usr/libexec/jobscreen/jobscreen.cgi$')
is "$exes|$(grep -c '"bin-path" => "/usr/libexec/jobscreen/jobscreen.cgi"' "$demo/www/lighttpd.conf")|$([ "$cgis" -gt 0 ] && echo running)" \
  "/usr/sbin/jobscreen-send /usr/sbin/profile_ingest |1|running" \
  "its senders and ingest run the installed programs, and its web server the installed CGI (FastCGI)"
# the one recipe for the database (reports.md, "Roles") with the installed ingest, on the demo's
# PostgreSQL: the packages' account jobscreen owns the schema, www-data reads it
sdb=jobscreen_pkg80
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $sdb" >>"$log" 2>&1
out=$(/usr/sbin/profile_ingest --setup-roles --db "host=127.0.0.1 port=$PGPORT dbname=$sdb user=postgres" 2>>"$log")
is "$?|$(grep -c ': created$' <<< "$out")" "0|3" "the installed profile_ingest --setup-roles creates the owner jobscreen, the web role www-data and the database"
runuser -u jobscreen -- /usr/sbin/profile_ingest --migrate --db "host=127.0.0.1 port=$PGPORT dbname=$sdb" >>"$log" 2>&1
st=$?
is "$st|$(runuser -u www-data -- psql -X -q -At -h 127.0.0.1 -p "$PGPORT" -d "$sdb" -c 'SELECT count(*) FROM js.jobs' 2>&1)" "0|0" \
  "the packages' account jobscreen migrates it as its owner, and www-data reads its views"
"$JS_TOP_SRCDIR/tests/cluster" down --dir "$demo" >>"$log" 2>&1
purge
left=$(for p in $pkgs; do dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -v 'not-installed'; done)
is "${left:-none}|$(ls -d /etc/jobscreen /var/lib/jobscreen /var/spool/jobscreen /var/spool/jobscreen-received 2>/dev/null | tr '\n' ' ')" "none|" \
  "purge removes the packages, their configuration, state and empty spools"
done_testing
