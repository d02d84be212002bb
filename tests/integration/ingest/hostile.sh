#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile input (issue 35): what one user's processes write changes nothing another user sees,
# and makes no reply fail. jsbob's forged step-nodes beside jsalice's jobs (jsgen's spools,
# edited as a hostile process would write them), ingested by the real profile_ingest into a
# database of the test's own, read through the real web server, CGI and terminal report (the
# cluster's web configuration points at that database while the test runs):
# - a forged wall_ns (9e18) no longer lifts the bounds: the profile is refused, not its CPU time
#   of 4e18 shown in jsalice's background;
# - cpu_user_ns + cpu_sys_ns of 2^62 each does not wrap negative: refused;
# - 2,000 profiles of one step-node, each at the old per-process limit: refused (bytes over what
#   the configured node moves), and where each fits alone, the step-node's sum per slice stays
#   within one node's bound (the budget: profiles beyond it are refused with the reason); a
#   bundle's series (the node's own sums) beyond it is refused whole;
# - jsalice's figures (job list, job, step, background of both scopes, workflow, the terminal
#   report) are the same before and after;
# - sums of steps past 2^63 (a 10,000-node job's CPU time) answer, saturated, not 500;
# - a background drawn from fewer than background_min_jobs other jobs is not shown per slice to
#   a non-admin, and the reply says why; an admin sees it;
# - users_cluster: where a name is one cluster's user, the same name on another cluster of the
#   database is somebody else, whose jobs it does not see.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
bin=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
gen=$JS_TOP_BUILDDIR/bench/gen/jsgen
CLI=$JS_TOP_BUILDDIR/cli/jobscreen
[ -x "$bin" ] && [ -x "$gen" ] && [ -x "$CLI" ] || bail "build first"
command -v jq >/dev/null || bail "jq is needed"
plan 21

db=js_hostile
conn="$JS_PG_CONNINFO dbname=$db"
q() { psql -X -q -At -d "$db" -c "$1"; }
dropdb --if-exists --force "$db" 2>/dev/null; createdb "$db" || bail "createdb $db"
"$bin" --migrate --db "$conn" 2>/dev/null || bail "migrate"
w=$(mktemp -d "$JS_CLUSTER_DIR/hostile.XXXXXX"); chmod 755 "$w"
conf=$JS_CLUSTER_DIR/www/jobscreen-web.conf
cp -p "$conf" "$w/web.conf.saved"
at_exit "cp -p '$w/web.conf.saved' '$conf'; rm -rf '$w'; dropdb --if-exists --force $db 2>/dev/null"
webconf() { # the cluster's web configuration on this database, with extra lines
  { sed -e "s/dbname=jobscreen/dbname=$db/" -e '/^background_min_jobs/d' "$w/web.conf.saved"; printf '%s\n' "$@"; } > "$conf"
}
webconf "background_min_jobs = 3"
api="${JS_WEB_URL}cgi-bin/jobscreen.cgi"
get() { # get USER QUERY...: the body in $body, the status in $code
  local u=$1; shift
  code=$(curl -s -G -o "$w/body.json" -w '%{http_code}' -u "$u:$u" "$api" "$@")
  body=$(cat "$w/body.json")
}
# a reply without what changes by itself (when things were computed or ingested)
norm() { jq -S -c 'walk(if type == "object" then with_entries(select(.key | test("_at$|^generated|^now$") | not)) else . end)'; }

ALICE=(--uid "$(id -u jsalice)" --gid "$(id -g jsalice)" --user jsalice)
BOB=(--uid "$(id -u jsbob)" --gid "$(id -g jsbob)" --user jsbob)
t0=$(( ($(date +%s) - 3600) / 4 * 4 ))
spool() { mkdir -p "$w/$1"; chmod 711 "$w/$1"; echo "$w/$1"; }
ingest() { # ingest SPOOL [--set ...]: the real profile_ingest, once, as the pipeline runs it
  local s=$1; shift
  "$bin" --once --spool "$s" --db "$conn" --quarantine "$w/quarantine" --set job_grace_seconds=0 \
    --set node_bytes_per_second_max=10000000000 "$@" 2>>"$w/ingest.log"
}
uniform() { "$gen" --uniform --cluster hostile --slices 20 --start "$t0" "$@" >/dev/null; }

# --- jsalice's job 91000 on n1 and n2, beside three jobs of others: her figures -------------
a=$(spool alice)
uniform --out "$a" --job-id-base 91000 --nodes 2 --node-prefix n -p 2 "${ALICE[@]}"
uniform --out "$a" --job-id-base 92000 --jobs 3 --nodes 2 --node-prefix n --uid 30001 --user synth1
ingest "$a"
figures() {
  local out=
  for qs in "q=jobs" "q=job&id=91000" "q=step&job=91000&step=0" "q=background&job=91000&step=0&scope=cluster" \
            "q=background&job=91000&step=0&scope=nodes" "q=workflow&job=91000"; do
    get jsalice --data "$qs"
    out+="$qs $code $(norm <<< "$body")"$'\n'
  done
  out+="cli $(runuser -u jsalice -- env JOBSCREEN_CLI_CONF="$JOBSCREEN_CLI_CONF" "$CLI" --json 91000 | norm)"
  printf '%s' "$out"
}
before=$(figures)
like "$before" "q=background&job=91000&step=0&scope=nodes 200 .*\"others\"" "jsalice's job, its background beside three other jobs and her other figures are read"

# --- jsbob's forgeries over the same slices and nodes --------------------------------------
b=$(spool bob)
# a process of 20 s that says it ran 9e18 ns, with a slice of 4e18 ns of CPU time
uniform --out "$b" --job-id-base 93000 --node-prefix n --cpu-ns 7777777 "${BOB[@]}"
f=$(ls "$b"/job.93000/profiles/*); sed -i -e 's/"wall_ns":[0-9]*/"wall_ns":9000000000000000000/' \
  -e '0,/,7777777,/s//,4000000000000000000,/' "$f"
# cpu_user_ns and cpu_sys_ns of 2^62 each: their sum wraps negative in 64 bits
uniform --out "$b" --job-id-base 93001 --node-prefix n "${BOB[@]}"
f=$(ls "$b"/job.93001/profiles/*); sed -i -e 's/"cpu_user_ns":[0-9]*/"cpu_user_ns":4611686018427387904/' \
  -e 's/"cpu_sys_ns":[0-9]*/"cpu_sys_ns":4611686018427387904/' "$f"
# 2,000 profiles on n1 (files of their own, each with its slices), each writing 1.6e13 bytes a
# slice (the old bound: 4e12 B/s)
uniform --out "$b" --job-id-base 93002 --node-prefix n -p 2000 "${BOB[@]}"
sed -i -E 's/(\[[0-9]+,0,0,1,)10[0-9][0-9],/\116000000000000,/g' "$b"/job.93002/profiles/*
ingest "$b"
log=$(cat "$w/ingest.log")
like "$log" "job\.93000.*wall_ns 9000000000000000000 is more than end_ns - start_ns \(79999999999\): not plausible" \
  "the forged wall_ns is refused, named"
like "$log" "job\.93001.*cpu_user_ns 4611686018427387904 is more than .* not plausible" "cpu times of 2^62 are refused, named"
like "$log" "job\.93002.*posix_write_bytes 16000000000000 is more than 4e\+10, the most a node moves in 4 s \(node_bytes_per_second_max\): not plausible" \
  "the 2,000 profiles of 1.6e13 bytes a slice are refused"
is "$(q "SELECT string_agg(job_id || ':' || incomplete, ' ' ORDER BY job_id) FROM js.steps WHERE job_id BETWEEN 93000 AND 93002 AND step_id = '0'")" \
   "93000:true 93001:true 93002:true" "jsbob's three steps say they are incomplete"
after=$(figures)
is "$after" "$before" "jsalice's job list, job, step, backgrounds, workflow and terminal report are as before, to the byte"

# --- the budget: each profile plausible alone, their sum on the node is not -----------------
c=$(spool budget)
"$gen" --uniform --cluster budget --slices 5 --start "$t0" --out "$c" --job-id-base 94000 --node-prefix n -p 200 \
  "${BOB[@]}" >/dev/null
# each writes 1.2e10 bytes a slice: 30 % of the 4e10 a node moves in 4 s (the setting above)
sed -i -E 's/(\[[0-9]+,0,0,1,)10[0-9][0-9],/\112000000000,/g' "$c"/job.94000/profiles/*
ingest "$c"
like "$(cat "$w/ingest.log")" "job\.94000.*posix_write_bytes of the step-node with this process would be 4\.8e\+10, more than 4e\+10, the most a node moves in 4 s" \
  "past what one node moves, the step-node's further profiles are refused, the sum named"
is "$(q "SELECT max(posix_write_bytes) || ' ' || (SELECT processes FROM js.steps WHERE job_id = 94000) FROM js_data.slice_metrics WHERE job_id = 94000")" \
   "36000000000 3" "the step-node keeps three of them: 3.6e10 bytes a slice, within the node"
# the node's own sums (the series of a bundle of version 2 or 3): its series forged to 1.6e13 bytes a slice is
# refused whole, the sum named, and nothing of the bundle is kept
"$gen" --uniform --cluster budget --slices 5 --start "$t0" --out "$c" --job-id-base 94001 --node-prefix n -p 3 --bundle \
  "${BOB[@]}" >/dev/null
python3 - "$c"/job.94001/profiles/0.n1.b1.json <<'PY'
import base64, json, struct, sys
f = sys.argv[1]
b = json.load(open(f))
col = b["series"]["columns"].index("posix_write_bytes")
for c in b["series"]["chunks"]:  # every slice 1.6e13: width 0, base 1.6e13
    c["sums"][col] = base64.b64encode(bytes([0]) + struct.pack(">q", 16000000000000)).decode()
json.dump(b, open(f, "w"))
PY
ingest "$c"
like "$(cat "$w/ingest.log")" "job\.94001.*series: slice [0-9]+: posix_write_bytes of the step-node with this process would be 1\.6e\+13, more than 4e\+10" \
  "a bundle's series (the node's sums) past what one node moves is refused whole, the sum named"
is "$(q "SELECT count(*) || ' ' || (SELECT processes || ' ' || incomplete FROM js.steps WHERE job_id = 94001) FROM js_data.slice_metrics WHERE job_id = 94001")" \
   "0 0 true" "none of that bundle is kept: no slice, no process, the step incomplete"

# --- no 500: sums of steps beyond 2^63 ------------------------------------------------------
# (every bigint sum the ingest keeps with the step, at 9e18 in each of two steps)
q "INSERT INTO js_data.steps (cluster_id, job_id, step_id) SELECT cluster_id, job_id, '1' FROM js_data.steps WHERE job_id = 93002;
   DO \$\$ DECLARE c text; BEGIN
     FOR c IN SELECT attname FROM pg_attribute WHERE attrelid = 'js_data.steps'::regclass AND atttypid = 'bigint'::regtype
                AND attnum > 0 AND NOT attisdropped AND attname NOT IN ('job_id', 'first_slice', 'last_slice') LOOP
       EXECUTE format('UPDATE js_data.steps SET %I = 9000000000000000000 WHERE job_id = 93002', c);
     END LOOP; END \$\$"
get jsadmin --data q=jobs
is "$code|$(jq -c '.jobs[] | select(.id == 93002) | [.steps, .cpu_ns >= 9.2233e18, .read_bytes >= 9.2233e18]' <<< "$body")" '200|[2,true,true]' \
   "the admin's job list answers with a job whose two steps' CPU time passes 2^63 (saturated at 2^63 - 1)"
codes=
for qs in "q=job&id=93002" "q=step&job=93002&step=0" "q=background&job=93002&step=0" "q=workflow&job=93002" \
          "q=job&id=93000" "q=step&job=93000&step=0" "q=job&id=93001" "q=step&job=93001&step=0" "q=me" "q=export&job=93002"; do
  get jsbob --data "$qs"; codes+="$code "
done
runuser -u jsbob -- env JOBSCREEN_CLI_CONF="$JOBSCREEN_CLI_CONF" "$CLI" 93002 >/dev/null 2>"$w/cli.err"; codes+="cli:$?"
is "$codes" "200 200 200 200 200 200 200 200 200 200 cli:0" "jsbob's own pages of those steps, the export and his terminal report all answer"

# --- a background of one other job is not shown per slice to a non-admin ---------------------
d=$(spool lonely)
"$gen" --uniform --cluster hostile --slices 20 --start $((t0 + 2000)) --out "$d" --job-id-base 91001 --node-prefix m "${ALICE[@]}" >/dev/null
"$gen" --uniform --cluster hostile --slices 20 --start $((t0 + 2000)) --out "$d" --job-id-base 93100 --node-prefix m "${BOB[@]}" >/dev/null
ingest "$d"
get jsalice --data "q=background&job=91001&step=0&scope=nodes"
is "$code|$(jq -c '[.other_jobs, (.series | has("others") or has("other_step_nodes")), (.series.metrics.cpu_ns | add > 0)]' <<< "$body")|$(jq -r .withheld <<< "$body")" \
   "200|[1,false,true]|only 1 other job ran beside this step on its nodes (fewer than 3): per slice, the background would be that job's profile, which is not shown" \
   "beside one other job: jsalice gets her own slices and why the background is not shown"
get jsadmin --data "q=background&job=91001&step=0&scope=nodes"
is "$code|$(jq -c '[(.withheld // "-"), (.series.others.cpu_ns | add > 0)]' <<< "$body")" '200|["-",true]' "an admin sees that background"

# --- a busy background: other jobs counted up to 50, "at least" past it ---------------------
d=$(spool busy)
"$gen" --uniform --cluster hostile --slices 20 --start $((t0 + 3000)) --out "$d" --job-id-base 91101 --node-prefix m "${ALICE[@]}" >/dev/null
"$gen" --uniform --cluster hostile --slices 20 --start $((t0 + 3000)) --out "$d" --job-id-base 93200 --jobs 60 --node-prefix m "${BOB[@]}" >/dev/null
ingest "$d"
for scope in cluster nodes; do
  get jsalice --data "q=background&job=91101&step=0&scope=$scope"
  is "$code|$(jq -c '[.other_jobs, .other_jobs_at_least, (.withheld // "-"), (.series.others.cpu_ns | add > 0)]' <<< "$body")" \
     '200|[50,true,"-",true]' "beside 60 other jobs ($scope): other_jobs says at least 50, the background is shown"
done
get jsalice --data "q=background&job=91001&step=0&scope=nodes"
is "$(jq -c '[.other_jobs, (.other_jobs_at_least // "-")]' <<< "$body")" '[1,"-"]' "beside one other job the count is exact"
# FastCGI runs the first count on its generic plan (planned once a process), a plain CGI plans
# it for the request: the same replies, to the byte, at least and exact, withheld and shown
plain=${JS_WEB_PLAIN_CGI_URL:-${JS_WEB_URL}cgi-plain/jobscreen.cgi}
differ=
for qs in "job=91101&step=0&scope=cluster" "job=91101&step=0&scope=nodes" "job=91001&step=0&scope=nodes" \
          "job=91000&step=0&scope=cluster&metric=cpu_ns&points=10"; do
  for i in 1 2 3 4 5 6 7; do get jsalice --data "q=background&$qs"; done # past the plan choice's first five
  a=$body
  b=$(curl -s -G -u jsalice:jsalice "$plain" --data "q=background&$qs")
  [ -n "$a" ] && [ "$a" = "$b" ] || differ+=" $qs"
done
is "${JS_WEB_MODE:-}|$differ" "${JS_WEB_MODE:-}|" "backgrounds through FastCGI (the count's generic plan) and the plain CGI are the same"

# --- users_cluster: jsalice of cluster hostile is not jsalice of cluster other ---------------
o=$(spool other)
"$gen" --uniform --cluster other --slices 3 --start "$t0" --out "$o" --job-id-base 95000 "${ALICE[@]}" >/dev/null
ingest "$o"
get jsalice --data "q=job&id=95000&cluster=other"
is "$code" 200 "without users_cluster, a user name is the same person on every cluster of the database"
webconf "background_min_jobs = 3" "users_cluster = hostile"
get jsalice --data "q=job&id=95000&cluster=other"; c1=$code
get jsalice --data "q=jobs"
is "$c1|$(jq -c '[.jobs[].cluster] | unique' <<< "$body")" '404|["hostile"]' \
   "with users_cluster = hostile, jsalice sees the jobs of cluster hostile only, not other's jsalice's"
get jsadmin --data "q=job&id=95000&cluster=other"
is "$code" 200 "an admin still sees every cluster"
done_testing
