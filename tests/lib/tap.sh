# SPDX-License-Identifier: GPL-2.0-or-later
# TAP helpers for the shell integration tests: source this file, call plan N, then ok/is/...
# Every test function records one TAP line; `done_testing` checks the plan.
_tap_n=0
_tap_failed=0

plan() { echo "1..$1"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
bail() { echo "Bail out! $*"; exit 1; }
diag() { local l; while IFS= read -r l; do echo "# $l"; done <<< "$*"; }

# ok COND_EXIT_STATUS DESCRIPTION: `cmd; ok $? "what it proves"`
ok() {
  local st=$1; shift
  _tap_n=$((_tap_n + 1))
  if [ "$st" -eq 0 ]; then echo "ok $_tap_n - $*"; else echo "not ok $_tap_n - $*"; _tap_failed=$((_tap_failed + 1)); fi
  return 0
}
# is GOT WANT DESCRIPTION
is() {
  local got=$1 want=$2; shift 2
  if [ "$got" = "$want" ]; then ok 0 "$*"; else ok 1 "$*"; diag "got:  '$got'"; diag "want: '$want'"; fi
}
# like GOT REGEX DESCRIPTION
like() {
  local got=$1 re=$2; shift 2
  if [[ $got =~ $re ]]; then ok 0 "$*"; else ok 1 "$*"; diag "got: '$got'"; diag "does not match: $re"; fi
}
# skip DESCRIPTION REASON: a planned test that cannot run here (TAP's SKIP directive)
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP $2"; }
done_testing() { exit $((_tap_failed > 0)); }
# at_exit CMD: run CMD when the test exits, however it exits (the last registered first)
_tap_at_exit=()
at_exit() { _tap_at_exit=("$1" "${_tap_at_exit[@]}"); trap _tap_run_at_exit EXIT; }
_tap_run_at_exit() { local c; for c in "${_tap_at_exit[@]}"; do eval "$c"; done; }

# The integration tests run on the cluster that cluster/up.sh started.
need_cluster() {
  [ "$(id -u)" -eq 0 ] || skip_all "integration tests need root"
  [ -s "${JS_CLUSTER_DIR:?}/env" ] || bail "no cluster in $JS_CLUSTER_DIR (cluster/up.sh failed?)"
  # shellcheck disable=SC1091
  . "$JS_CLUSTER_DIR/env"
}

# job_state JOBID: the job's state as slurmctld knows it (COMPLETED, FAILED, PENDING, ...)
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }

# wait_job_done JOBID [SECONDS]: wait until the job has ended; prints its final state
wait_job_done() {
  local id=$1 secs=${2:-60} i st
  for i in $(seq $((secs * 5))); do
    st=$(job_state "$id")
    case $st in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED) echo "$st"; return 0 ;; esac
    sleep 0.2
  done
  echo "${st:-UNKNOWN}"
  return 1
}

# wait_pipeline SECONDS JOBID...: wait until the cluster's pipeline has carried these jobs into
# JS_DB: no node spool and not the received spool holds their directories any more (everything
# was sent, stored and ingested) and js.jobs has each one's final record. Says what it still
# waits for when SECONDS pass, and returns 1.
wait_pipeline() {
  local secs=$1 i j left; shift
  for i in $(seq $((secs * 5))); do
    left=
    for j in "$@"; do
      if compgen -G "$JS_CLUSTER_DIR/spool/*/job.$j" >/dev/null || [ -e "$JS_RECEIVED_DIR/job.$j" ] ||
         ( for r in ${JS_RECEIVED_DIRS:-}; do [ -e "$r/job.$j" ] && exit 0; done; exit 1 ) ||
         [ "$(psql -X -q -At -d "$JS_DB" -c "SELECT final FROM js.jobs WHERE job_id = $j" 2>/dev/null)" != t ]; then
        left="$left $j"
      fi
    done
    [ -z "$left" ] && return 0
    sleep 0.2
  done
  diag "the pipeline did not bring job(s)$left into JS_DB within $secs s: $(cd "$JS_CLUSTER_DIR" && ls -d spool/*/job.* received*/job.* 2>/dev/null | tr '\n' ' ')"
  return 1
}

# steps_sums_differ CONNINFO: the steps whose sums kept by the ingest (js_data.steps.processes
# ...) are not those of their processes, counted afresh here (0 when all agree)
steps_sums_differ() {
  psql -X -q -At -d "$1" -c "SELECT count(*) FROM js_data.steps s, LATERAL (
      SELECT count(*)::integer AS n, coalesce(sum(p.wall_ns), 0)::bigint AS wall, coalesce(sum(p.cpu_ns), 0)::bigint AS cpu,
             coalesce(sum(p.posix_write_bytes + p.stdio_write_bytes + p.mpiio_write_bytes), 0)::bigint AS written,
             count(*) FILTER (WHERE p.ended_by = 'signal')::integer AS killed, sum(p.idle_ns)::bigint AS idle,
             max(p.max_rss_kib)::bigint AS rss, count(*) FILTER (WHERE p.kernel_rchar IS NULL)::integer AS unknown
      FROM js_data.processes p WHERE p.cluster_id = s.cluster_id AND p.job_id = s.job_id AND p.step_id = s.step_id) a
    WHERE (s.processes, s.wall_ns, s.cpu_ns, s.write_bytes, s.killed_processes, s.idle_ns, s.max_rss_kib, s.kernel_io_unknown)
          IS DISTINCT FROM (a.n, a.wall, a.cpu, a.written, a.killed, a.idle, a.rss, a.unknown)"
}

# job_totals_differ CONNINFO: the jobs whose totals kept by the triggers (js_data.job_totals,
# migration 053) are not their steps' and insights' summed afresh here as the job list summed
# them before (js.steps, js.step_insights), or whose kept step count, incomplete flag and
# workflow name (migration 060) are not js.jobs', or that have no row; and the rows of no job (0 when all
# agree). Those three are checked for a running job too. The query alone:
# $job_totals_differ_sql.
job_totals_differ_sql="SELECT (SELECT count(*) FROM js_data.jobs j
      LEFT JOIN js_data.job_totals t ON t.cluster_id = j.cluster_id AND t.job_id = j.job_id
      JOIN js.jobs n ON n.cluster_id = j.cluster_id AND n.job_id = j.job_id
      CROSS JOIN LATERAL (
          SELECT js.saturated(sum(s.cpu_ns)) AS cpu_ns, max(s.max_rss_kib) AS rss, js.saturated(sum(s.read_bytes)) AS rb,
                 js.saturated(sum(s.write_bytes)) AS wb, count(*) FILTER (WHERE s.profiled) AS profiled
          FROM js.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id AND s.step_id <> 'extern') u
      CROSS JOIN LATERAL (
          SELECT (array_agg(i.light ORDER BY js.light_rank(i.light) DESC))[1] AS light, sum(i.lost_s) AS lost_s
          FROM js.step_insights i WHERE i.cluster_id = j.cluster_id AND i.job_id = j.job_id) i
      WHERE t.job_id IS NULL OR (t.steps, t.incomplete, t.workflow) IS DISTINCT FROM (n.steps, n.incomplete, n.workflow_name)
         OR (NOT EXISTS (SELECT 1 FROM js_data.live_step_nodes l WHERE l.cluster_id = j.cluster_id AND l.job_id = j.job_id)
             AND (t.cpu_ns, t.max_rss_kib, t.read_bytes, t.write_bytes, t.profiled_steps, t.light, t.lost_s)
                 IS DISTINCT FROM (u.cpu_ns, u.rss, u.rb, u.wb, u.profiled, i.light, i.lost_s)))
    + (SELECT count(*) FROM js_data.job_totals t
       WHERE NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = t.cluster_id AND j.job_id = t.job_id))"
job_totals_differ() { psql -X -q -At -d "$1" -c "$job_totals_differ_sql"; }
# stored_vs_computed WHERE DIR GET...: a stored reply (the js_data.stored_replies row WHERE) served,
# stored and computed without it (the row set aside, then put back), by the command GET... (curl
# arguments follow): DIR/served, DIR/stored, DIR/computed; 0 when the three are the same bytes
stored_vs_computed() {
  local where=$1 d=$2 t=public.stored_saved_$$; shift 2
  "$@" -o "$d/served"
  psql -X -q -At -d "$JS_DB" -c "SELECT body FROM js_data.stored_replies WHERE $where" | head -c -1 > "$d/stored"
  psql -X -q -At -d "$JS_DB" -c "CREATE TABLE $t AS SELECT * FROM js_data.stored_replies WHERE $where;
                                  DELETE FROM js_data.stored_replies WHERE $where"
  "$@" -o "$d/computed"
  psql -X -q -At -d "$JS_DB" -c "INSERT INTO js_data.stored_replies SELECT * FROM $t; DROP TABLE $t"
  cmp -s "$d/served" "$d/stored" && cmp -s "$d/computed" "$d/stored"
}
# stored_sent_as_is WHERE DIR GET...: three checks of a stored reply (the row WHERE) asked for by
# GET... with gzip accepted: its stored gzip bytes sent as they are, decoding to DIR/stored
# (stored_vs_computed's); its stored ETag; If-None-Match with it: 304
stored_sent_as_is() {
  local where=$1 d=$2 etag; shift 2
  "$@" -H 'Accept-Encoding: gzip' -D "$d/h" -o "$d/gz"
  etag=$(psql -X -q -At -d "$JS_DB" -c "SELECT etag FROM js_data.stored_replies WHERE $where")
  grep -qi '^content-encoding: gzip' "$d/h" && gunzip -c < "$d/gz" | cmp -s - "$d/stored" &&
    [ "$(od -An -tx1 < "$d/gz" | tr -d ' \n')" = \
      "$(psql -X -q -At -d "$JS_DB" -c "SELECT encode(body_gz, 'hex') FROM js_data.stored_replies WHERE $where")" ]
  ok $? "gzip: the stored gzip bytes sent as they are, decoding to the reply"
  is "$(sed -n 's/^[Ee][Tt]ag: *//p' "$d/h" | tr -d '\r')" "$etag" "its ETag is the stored one"
  is "$("$@" -H "If-None-Match: $etag" -o /dev/null -w '%{http_code}')" 304 "If-None-Match with it: 304"
}
