# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/cluster: a streaming replica (hot standby) of the cluster's PostgreSQL for the
# web's reads, and the primary stopped and started under it (docs/web.md, "A read replica").
#
#   tests/cluster replica on|off [--dir DIR]   the standby in DIR/pg/replica; the CGI's conninfo
#                                              names it first (prefer-standby), the primary second
#   tests/cluster primary stop|start [--dir DIR]
#
# The ingest and every test's JS_DB stay on the primary. DIR/env.replica (sourced by DIR/env)
# says JS_PG_REPLICA_PORT and JS_PG_REPLICA_CONNINFO while the standby runs.

replica_data() { echo "$dir/pg/replica"; }
replica_pid() { head -n 1 "$(replica_data)/postmaster.pid" 2>/dev/null | tr -dc 0-9 || true; }

# the CGI's conninfo: the standby first where there is one, the primary otherwise. libpq tries
# the hosts in order; prefer-standby takes the primary only when no standby answers.
web_conninfo() { # web_conninfo [REPLICA_PORT]
  if [ -n "${1:-}" ]; then
    echo "host=127.0.0.1,127.0.0.1 port=$1,$PGPORT dbname=jobscreen user=postgres target_session_attrs=prefer-standby application_name=jobscreen-web"
  else
    echo "host=127.0.0.1 port=$PGPORT dbname=jobscreen user=postgres"
  fi
}

# The FastCGI processes read their configuration once: the web server and its CGIs restarted.
restart_web() {
  stop_pid "$(pidfile_pid "$dir/www/lighttpd.pid")" lighttpd
  local p
  for p in /proc/[0-9]*; do
    if { tr "\\0" "\\n" < "$p/environ"; } 2>/dev/null | grep -qxF "JOBSCREEN_CONF=$dir/www/jobscreen-web.conf"; then
      stop_pid "${p#/proc/}" "jobscreen.cgi ${p#/proc/}"
    fi
  done
  lighttpd -f "$dir/www/lighttpd.conf" || die "lighttpd did not start: $dir/log/www/error.log"
  wait_for 10 "lighttpd" bash -c "exec 3<>/dev/tcp/127.0.0.1/$JS_WEB_PORT"
}

set_web_conninfo() {
  local conf=$dir/www/jobscreen-web.conf
  sed -i "s|^conninfo = .*|conninfo = $1|" "$conf"
  grep -qxF "conninfo = $1" "$conf" || die "could not set the conninfo in $conf"
  restart_web
}

replica_start() {
  local pgbin; pgbin=$(pg_bindir)
  local rport=$(( PGPORT + 500 ))
  while ! port_free "$rport"; do rport=$((rport + 1)); done
  rm -rf "$(replica_data)"
  # -R: standby.signal and primary_conninfo; -X stream: the WAL of the copy streamed with it
  runuser -u postgres -- "$pgbin/pg_basebackup" -h 127.0.0.1 -p "$PGPORT" -U postgres -D "$(replica_data)" \
    -R -X stream -c fast >"$dir/log/pg_basebackup.log" 2>&1 ||
    die "pg_basebackup failed: $dir/log/pg_basebackup.log"
  touch "$dir/log/postgresql-replica.log"; chown postgres "$dir/log/postgresql-replica.log"
  # hot_standby_feedback: long reads on the standby are not cancelled by the primary's vacuum
  runuser -u postgres -- "$pgbin/pg_ctl" -D "$(replica_data)" -l "$dir/log/postgresql-replica.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $rport -k $dir/pg/sock -c hot_standby=on -c hot_standby_feedback=on -c fsync=off" \
    start >/dev/null || die "the replica did not start: $dir/log/postgresql-replica.log"
  {
    echo "# the read replica (tests/cluster replica on)"
    echo "export JS_PG_REPLICA_PORT=$rport"
    echo "export JS_PG_REPLICA_CONNINFO=\"host=127.0.0.1 port=$rport dbname=jobscreen user=postgres\""
  } > "$dir/env.replica"
  echo "$rport"
}

replica_stop() {
  local pid; pid=$(replica_pid)
  if pid_alive "$pid"; then
    runuser -u postgres -- "$(pg_bindir)/pg_ctl" -D "$(replica_data)" -m fast -w -t 20 stop >/dev/null 2>&1 || true
    stop_pid "$pid" "postgres (replica)"
  fi
  rm -f "$dir/env.replica"
}

replica_cmd() {
  [ "$(id -u)" -eq 0 ] || die "must run as root"
  healthy || die "the cluster in $dir is not up"
  . "$dir/env"
  case $sub in
    on)
      local rport; rport=$(replica_start)
      set_web_conninfo "$(web_conninfo "$rport")"
      say "replica on :$rport; the web reads from it" ;;
    off)
      set_web_conninfo "$(web_conninfo)"
      replica_stop
      say "replica off; the web reads from the primary" ;;
  esac
}

# The primary stopped (fast) or started again with the options it was started with.
primary_cmd() {
  [ "$(id -u)" -eq 0 ] || die "must run as root"
  [ -s "$dir/env" ] || die "the cluster in $dir is not up"
  . "$dir/env"
  local pgbin; pgbin=$(pg_bindir)
  case $sub in
    stop)
      runuser -u postgres -- "$pgbin/pg_ctl" -D "$dir/pg/data" -m fast -w -t 20 stop >/dev/null ||
        die "the primary did not stop" ;;
    start)
      runuser -u postgres -- "$pgbin/pg_ctl" -D "$dir/pg/data" -l "$dir/log/postgresql.log" -w -t 30 \
        -o "$(pg_options)" start >/dev/null || die "the primary did not start: $dir/log/postgresql.log" ;;
  esac
}
