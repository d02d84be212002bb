#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The web reads from a streaming replica (hot standby) while the ingest writes to the primary
# (docs/web.md, "A read replica"): `tests/cluster replica on` starts one from a base backup and
# names it first in the CGI's conninfo (target_session_attrs=prefer-standby, the primary second).
# - The CGI's database sessions are on the standby, none on the primary.
# - A new two-node job is in the API, read from the replica, within seconds of its ingest.
# - With the primary stopped: the API (list, job, step), the terminal report and the viewer in
#   Chromium answer from the replica; the job reads the same as before the stop.
# - The primary back: the ingest resumes and a job run meanwhile reaches the web.
# - A reporting query on the replica (the role jobscreen_report) reads what the primary holds.
# - `replica off`: the web reads from the primary again.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
[ "${JS_WEB_MODE:-}" = fastcgi ] || skip_all "the cluster serves jobscreen.cgi as a plain CGI"
cluster() { "$JS_TOP_SRCDIR/tests/cluster" "$@" --dir "$JS_CLUSTER_DIR"; }
api="${JS_WEB_URL}cgi-bin/jobscreen.cgi"
get() { curl -s -G -u jsalice:jsalice "$api" --data-urlencode "q=$1" "${@:2}"; }
code() { get "$@" -o /dev/null -w '%{http_code}'; }
w=$(mktemp -d "$JS_CLUSTER_DIR/t67b.XXXXXX"); chown jsalice "$w"; chmod 755 "$w"
at_exit "rm -rf '$w'"
# whatever happens, the cluster is left as the next test expects it: primary up, no replica
at_exit "cluster primary start >/dev/null 2>&1; cluster replica off >/dev/null 2>&1"
submit() { # submit NAME: a two-node job of jsalice's writing a file on each node; prints its id
  (cd "$w" && runuser -u jsalice -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable -N2 -n2 -o /dev/null -J "$1" \
    --wrap "srun sh -c 'dd if=/dev/zero of=$1.\$SLURM_PROCID bs=64k count=8 status=none'")
}
visible() { [ "$(get job --data-urlencode "id=$1" | jq -r '.job.final' 2>/dev/null)" = true ]; }
plan 16

cluster replica on 2>"$w/replica.err"
st=$?; ok $st "tests/cluster replica on"; [ $st = 0 ] || bail "no replica: $(cat "$w/replica.err")"
. "$JS_CLUSTER_DIR/env.replica"
rq() { psql -X -q -At -d "$JS_PG_REPLICA_CONNINFO" -c "$1"; }
pq() { psql -X -q -At -d "$JS_DB" -c "$1"; }
is "$(rq 'SELECT pg_is_in_recovery()')" t "the replica is a hot standby (in recovery, answering reads)"

# --- the CGI reads from the standby ------------------------------------------------------
for i in $(seq 10); do code jobs --data-urlencode limit=5 >/dev/null; done
cgi_sessions() { "$1" "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'jobscreen.cgi' AND client_addr IS NOT NULL"; }
for i in $(seq 50); do [ "$(cgi_sessions pq)" = 0 ] && break; sleep 0.1; done
r=$(cgi_sessions rq); p=$(cgi_sessions pq)
[ "$r" -ge 1 ] && [ "$p" = 0 ]; ok $? "the CGI's sessions are on the replica ($r), none on the primary ($p)"

# --- a new job reaches the web through the replica ---------------------------------------
j1=$(submit rep1)
wait_job_done "$j1" 120 >/dev/null
wait_pipeline 120 "$j1"
t0=$(date +%s.%N)
for i in $(seq 100); do visible "$j1" && break; sleep 0.1; done
lag=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
visible "$j1"; ok $? "job $j1 is in the API, read from the replica, within 10 s of its ingest"
diag "seen through the replica $lag s after the primary had its final record"
steps_before=$(get job --data-urlencode "id=$j1" | jq -c '[.job.steps[] | {step, state, nodes}]')
replay=$(rq "SELECT pg_last_wal_replay_lsn() >= (SELECT '$(pq 'SELECT pg_current_wal_lsn()')'::pg_lsn)")
diag "replica caught up to the primary's WAL position: $replay"

# --- the primary stopped: the web answers from the replica --------------------------------
cluster primary stop && ! pg_isready -q -h 127.0.0.1 -p "$PGPORT"; ok $? "the primary is stopped"
# one request for both checks, its body said when the second fails
list=$(get jobs --data-urlencode limit=50 -w '\n%{http_code}')
is "${list##*$'\n'}" 200 "the job list answers (200) with the primary down"
held=$(jq --argjson j "$j1" '[.jobs[] | select(.id == $j)] | length' <<< "${list%$'\n'*}" 2>&1)
is "$held" 1 "the list holds job $j1"
[ "$held" = 1 ] || diag "the reply: $(head -c 800 <<< "$list")"
steps_after=$(get job --data-urlencode "id=$j1" | jq -c '[.job.steps[] | {step, state, nodes}]')
[ "$(jq length <<< "$steps_before")" -ge 2 ] && [ "$steps_after" = "$steps_before" ]
ok $? "job $j1's steps (batch and 0) read as before the stop ($steps_after)"
is "$(get step --data-urlencode "job=$j1" --data-urlencode step=0 | jq -r '.step.nodes')" 2 "its step 0 answers: 2 nodes"
out=$(runuser -u jsalice -- env JOBSCREEN_CLI_CONF="$JOBSCREEN_CLI_CONF" "${JS_CLI:-$JS_TOP_BUILDDIR/cli/jobscreen}" "$j1" 2>&1)
like "$out" "rep1" "the terminal report of job $j1 answers (jobscreen $j1)"
tw=$JS_TOP_SRCDIR/tests/web
if [ -x /usr/bin/chromium ] && command -v node >/dev/null && [ -d "$tw/node_modules/playwright-core" ]; then
  shown=$(timeout 120 node "$tw/job-page.js" --url "$JS_WEB_URL" --user jsalice --password jsalice --job "$j1" \
    --shot "$JS_CLUSTER_DIR/t67b-job-page.png" 2>"$w/browser.err" | paste -sd' ')
  like "$shown" "(^| )0( |$)" "the viewer in Chromium shows job $j1's steps ($shown)"
  [ -s "$w/browser.err" ] && diag "$(cat "$w/browser.err")"
else
  skip "the viewer in Chromium" "no chromium, node or tests/web/node_modules (63 installs them)"
fi
j2=$(submit rep2) # while the primary is down: it waits in the spools
wait_job_done "$j2" 120 >/dev/null

# --- the primary back: the ingest resumes --------------------------------------------------
cluster primary start; ok $? "the primary started again"
wait_pipeline 120 "$j2"
for i in $(seq 100); do visible "$j2" && break; sleep 0.1; done
visible "$j2"; ok $? "job $j2, run while the primary was down, reaches the web through the replica"
is "$(rq "SET ROLE jobscreen_report; SELECT count(*) FROM js.jobs WHERE job_id IN ($j1, $j2)")" 2 \
  "the reporting role reads both jobs on the replica"

# --- back to the primary -------------------------------------------------------------------
cluster replica off 2>"$w/replica.err" && [ ! -e "$JS_CLUSTER_DIR/env.replica" ]
st=$?; ok $st "tests/cluster replica off"; [ $st = 0 ] || diag "$(cat "$w/replica.err")"
is "$(code job --data-urlencode "id=$j2")" 200 "the web answers from the primary again"
done_testing
