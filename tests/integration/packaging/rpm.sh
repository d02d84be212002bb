#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The RPM packages (jobscreen.spec, from contrib/rpm/jobscreen.spec.in; docs/building.md "RPM
# packages"): `rpmbuild -ta` builds them from the `make dist` tarball alone, split as the Debian
# packages are, with no file left unpackaged, -compute requiring the headers' Slurm series;
# unpacked into a scratch root, the plugstack.conf
# snippet names the packaged plugin and profiler, every unit starts a packaged program, the
# configuration files are %config(noreplace), and %pre creates the account. This machine is
# Debian: rpm's database knows none of the build dependencies (--nodeps), the build uses
# Debian's libraries, and nothing is installed.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
[ "$(id -u)" -eq 0 ] || skip_all "needs root (installs rpm)"
command -v rpmbuild >/dev/null && command -v cpio >/dev/null ||
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q rpm cpio >/dev/null 2>&1 || skip_all "rpmbuild or cpio is not available"
plan 10

work=$JS_CLUSTER_DIR/rpm-packages log=$JS_CLUSTER_DIR/rpm-packages.log
rm -rf "$work" && mkdir -p "$work/root"
: > "$log"
make -s -C "$JS_TOP_BUILDDIR" dist >>"$log" 2>&1 || bail "make dist failed (see $log)"
tarball=$(ls -t "$JS_TOP_BUILDDIR"/jobscreen-*.tar.gz | head -n 1)
version=$(basename "$tarball" .tar.gz); version=${version#jobscreen-}
# the unit tests ran already in this suite: _without_check skips %check
rpmbuild --nodeps --define "_topdir $work" --define "_without_check 1" -ta "$tarball" >>"$log" 2>&1
st=$?
[ $st -eq 0 ] || diag "$(tail -n 30 "$log")"
ok $st "rpmbuild -ta builds the packages from the make dist tarball ($(basename "$tarball")), no file left unpackaged"
names=$(cd "$work/RPMS" && ls */*.rpm | sed 's|.*/||' | sort | tr '\n' ' ')
is "$names" "jobscreen-client-$version-1.x86_64.rpm jobscreen-compute-$version-1.x86_64.rpm jobscreen-doc-$version-1.noarch.rpm jobscreen-server-$version-1.x86_64.rpm jobscreen-web-$version-1.x86_64.rpm " \
  "one package per part, as the Debian packages: compute, server, web, client, doc"

q() { rpm -qp --nosignature --nodigest "$@" 2>/dev/null; }
files() { q -l "$work"/RPMS/*/jobscreen-"$1"-"$version"-*.rpm; }
in_only() { # in_only PART FILE...: the part's package holds each file, no other package does
  local p=$1 f o bad=; shift
  for f; do
    files "$p" | grep -qx "$f" || bad="$bad $f(missing)"
    for o in compute server web client doc; do [ "$o" = "$p" ] || ! files "$o" | grep -qx "$f" || bad="$bad $f(also in $o)"; done
  done
  echo "${bad:-ok}"
}
libdir=$(rpm --eval '%{_libdir}')
is "$(in_only compute "$libdir/slurm/jobscreen.so" "$libdir/jobscreen/libjobscreen-profiler.so" /usr/sbin/jobscreen-send /usr/sbin/joblog \
  /etc/slurm/plugstack.conf.d/jobscreen.conf)|$(in_only server /usr/sbin/profile_ingest /usr/libexec/jobscreen/jobscreen-receive \
  /usr/lib/systemd/system/jobscreen-retention.timer)|$(in_only web /usr/libexec/jobscreen/jobscreen.cgi /usr/share/jobscreen/static/index.html)|$(in_only client /usr/bin/jobscreen)" \
  "ok|ok|ok|ok" "the plugin, profiler, sender and joblog on compute nodes; ingest and receiver on the server; CGI and viewer on the web; the report on login nodes"
# the plugin runs only in the Slurm series it was built for: the headers' (here Debian's, in /usr)
series=$(dpkg-query -W -f='${Version}' libslurm-dev | awk -F'[.-]' '{printf "%s.%s %s.%02d", $1, $2, $1, $2 + 1}')
is "$(q --requires "$work"/RPMS/*/jobscreen-compute-"$version"-*.rpm | grep '^slurm ' | sort | tr '\n' ' ')" \
   "slurm < ${series#* } slurm >= ${series% *} " "jobscreen-compute requires the Slurm series it was built against (${series% *})"
conf=$(for p in compute server web client; do q -c "$work"/RPMS/*/jobscreen-$p-$version-*.rpm; done | sort | tr '\n' ' ')
is "$conf" "/etc/default/jobscreen-send /etc/jobscreen/cli.conf /etc/jobscreen/profile_ingest-received.conf /etc/jobscreen/profile_ingest.conf /etc/jobscreen/receive.conf /etc/jobscreen/web.conf /etc/slurm/plugstack.conf.d/jobscreen.conf " \
  "every configuration file is %config (noreplace: an upgrade keeps the site's)"
like "$(q --scripts "$work"/RPMS/*/jobscreen-server-"$version"-*.rpm)" "useradd -r -g jobscreen -d /var/lib/jobscreen -s /sbin/nologin" \
  "the server package's %pre creates the system account jobscreen"
is "$(q --qf '[%{FILEMODES:perms} %{FILEUSERNAME} %{FILENAMES}\n]' "$work"/RPMS/*/jobscreen-compute-"$version"-*.rpm | grep ' /var/spool/jobscreen$')" \
  "drwx--x--x root /var/spool/jobscreen" "the compute package's spool is root's, mode 0711"

for r in "$work"/RPMS/*/*.rpm; do (cd "$work/root" && rpm2cpio "$r" | cpio -idm --quiet); done
line=$(grep '^optional ' "$work/root/etc/slurm/plugstack.conf.d/jobscreen.conf")
plugin=$(awk '{print $2}' <<< "$line"); profiler=$(sed -n 's/.* profiler=\([^ ]*\).*/\1/p' <<< "$line")
ok $([ -f "$work/root$plugin" ] && [ -f "$work/root$profiler" ]; echo $?) "the snippet names the packaged plugin ($plugin) and profiler ($profiler)"
missing= n=0
for u in "$work"/root/usr/lib/systemd/system/*.service; do
  [ -f "$u" ] || continue
  n=$((n + 1))
  exe=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$u")
  case $exe in */spawn-fcgi) exe=$(sed -n 's/^ExecStart=.* -- \([^ ]*\).*/\1/p' "$u") ;; esac
  [ -x "$work/root$exe" ] || missing="$missing ${u##*/}:$exe"
done
is "$n ${missing:-none}" "5 none" "the five services are there, each starts a packaged program"
is "$(sed -n 's/^User=//p' "$work/root/usr/lib/systemd/system/jobscreen-fcgi.service")|$(sed -n 's/^record_uid = //p' "$work/root/etc/jobscreen/profile_ingest-received.conf")" \
  "apache|apache" "the FastCGI unit and the received spool's ingest name Red Hat's web server account (--with-web-user)"
rm -rf "$work"
done_testing
