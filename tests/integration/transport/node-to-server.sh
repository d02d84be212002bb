#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# From node to server: jobs' files split into node-local spools (a job spanning two nodes, a
# job on one), shipped by jobscreen-send through lighttpd to jobscreen-receive, ingested from
# the received spool (received = yes) by the cluster's ingest daemon into JS_DB, give the same
# rows as a direct ingest; the node spools
# keep everything while the receiver is unreachable and lose exactly what it stored; a parcel
# sent twice is ingested once; forged parcels (jsbob's credential, an altered body, a replayed
# credential, bad framing) are refused with 403/400, logged, and nothing is written.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
[ -n "${JS_RECEIVE_URL:-}" ] || skip_all "the cluster serves no /receive (built without transport/?)"
[ "$(wc -w <<< "$JS_NODES")" -ge 2 ] || skip_all "needs a cluster of 2 nodes or more"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline (transport/ or profile_ingest not built)"
SEND=$JS_TOP_BUILDDIR/transport/jobscreen-send
plan 20
JS_CGI_LOG=${JS_CGI_LOG:-$JS_CLUSTER_DIR/log/www/cgi.log}
T=$(mktemp -d "$JS_CLUSTER_DIR/t56.XXXXXX")
w=$(work_dir jsalice)
io='dd if=/dev/zero of=f.$SLURM_PROCID bs=64k count=16 conv=fsync 2>/dev/null; cat f.$SLURM_PROCID >/dev/null'
sub() { (cd "$w" && as_user jsalice sbatch --parsable --chdir="$w" -o /dev/null "$@"); }
span=$(sub -N2 -n2 -J span --wrap "srun bash -c '$io'; srun -n1 true")
one=$(sub -N1 -n1 -J one --wrap "srun bash -c '$io'")
for j in "$span" "$one"; do wait_job_done "$j" 120 >/dev/null; done
is "$(job_state "$span") $(job_state "$one")" "COMPLETED COMPLETED" "a job on two nodes and a job on one complete"

# --- the node-local spools: each node's step records, bundles and ledgers; job.json on the batch node ---
mapfile -t span_nodes < <(job_nodes "$span")
for n in "${span_nodes[@]}"; do wait_file "$(job_dir "$span")/step.0.$n.json"; done
wait_file "$(job_dir "$span")/step.1.${span_nodes[0]}.json"
wait_file "$(job_dir "$one")/step.0.$(job_node "$one").json"
for j in "$span" "$one"; do wait_file "$(job_dir "$j")/step.batch.$(job_node "$j").json"; done
sleep 1 # the batch step's final job record follows its step record
for j in "$span" "$one"; do
  src=$(job_dir "$j") batch=$(job_node "$j")
  for n in $(job_nodes "$j"); do
    d=$T/node.$n/job.$j
    mkdir -p "$d/profiles"; chmod 711 "$T/node.$n"; chmod 700 "$d" "$d/profiles"
    [ "$n" = "$batch" ] && cp -a "$src/job.json" "$d/"
    for f in "$src"/step.*."$n".json "$src"/.spool."$n" "$src"/.relay.*."$n"; do [ -e "$f" ] && cp -a "$f" "$d/"; done
    for f in "$src"/profiles/*."$n".b*.json; do [ -e "$f" ] && cp -a "$f" "$d/profiles/"; done
  done
done
# the reference: the same jobs straight from (a copy of) the shared spool
mkdir "$T/direct"; chmod 711 "$T/direct"
cp -a "$(job_dir "$span")" "$(job_dir "$one")" "$T/direct/"
direct_steps=$(find "$T/direct" -name 'step.*.json' | wc -l)
DB=js_t56_direct
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS js_t56_direct" -c "CREATE DATABASE js_t56_direct" >/dev/null 2>&1
ingest_spool "$T/direct" js_t56_direct
ok $? "the direct ingest of the shared spool's copy loads both jobs"
counts() { # steps, step-nodes, processes and their bytes of the two jobs in database $1
  DB=$1 q "SELECT (SELECT count(*) FROM js.steps WHERE job_id IN ($span, $one)) || ' ' ||
                  (SELECT count(*) FROM js.step_nodes WHERE job_id IN ($span, $one)) || ' ' ||
                  (SELECT count(*) || ' ' || coalesce(sum(posix_write_bytes), 0) || ' ' || coalesce(sum(posix_read_bytes), 0)
                     FROM js.processes WHERE job_id IN ($span, $one))"
}
want=$(counts js_t56_direct)
like "$want" "^[4-9] [6-9] [1-9][0-9]* [1-9][0-9]* [1-9][0-9]*$" "the direct ingest: the steps of both jobs on their nodes, with processes ($want)"

q_db() { DB=$JS_DB q "$1"; }
listing() { (cd "$T" && find node.* -printf '%p %s %u\n' | sort); }
sendall() { local n rc=0; for n in "$T"/node.*; do "$SEND" --once --spool "$n" --munge-socket "$JS_MUNGE_SOCKET" --job-grace 0 "$@" 2>>"$T/send.log" || rc=$?; done; return $rc; }

# --- the receiver unreachable: everything kept, exit 75 ---
before=$(listing)
sendall --url "http://127.0.0.1:1/receive"
is "$?" 75 "receiver unreachable: jobscreen-send --once exits 75"
is "$(listing)" "$before" "receiver unreachable: the node spools keep every file"
like "$(tail -n 3 "$T/send.log")" "Couldn't connect|Could not connect|Connection refused.*backlog: [1-9][0-9]* parcels waiting" \
  "the failure and the backlog are logged"
like "$("$SEND" --status --spool "$T/node.${span_nodes[0]}")" "^backlog: [1-9][0-9]* parcels waiting, oldest [0-9]+ s$" \
  "--status prints the backlog"

# --- sent for real ---
cp -a "$T/node.${span_nodes[1]}" "$T/again" # to send this node's parcels a second time below
sendall --url "$JS_RECEIVE_URL"
ok $? "receiver up: every node's sender sends all and exits 0"
is "$(cd "$T" && find node.* \( -name 'step.*' -o -name '*.b*.json' -o -name job.json \) | wc -l)" 0 \
  "the node spools hold no step record, bundle or job record any more"
is "$(ls "$T/node.$(job_node "$one")" | grep -c "^job.$one$")" 0 "the finished job's directory is gone from its node"

# --- the cluster's ingest daemon loads the received spool into JS_DB: the same rows ---
wait_pipeline 60 "$span" "$one"
ok $? "the ingest daemon (received = yes, record_uid = www-data) loaded what was received and removed it"
is "$(counts "$JS_DB")" "$want" "JS_DB holds the same steps, step-nodes, processes and bytes as the direct ingest"
is "$(q_db "SELECT count(*) FROM js.quarantine WHERE job_id IN ($span, $one)")" 0 "nothing quarantined (every received file is the receiver's, as record_uid wants)"

# --- the same parcels a second time (a sender killed after the server stored, before it removed) ---
rm -rf "$T/node.${span_nodes[1]}"; mv "$T/again" "$T/node.${span_nodes[1]}"
"$SEND" --once --spool "$T/node.${span_nodes[1]}" --url "$JS_RECEIVE_URL" --munge-socket "$JS_MUNGE_SOCKET" --job-grace 0 2>>"$T/send.log" &&
  wait_pipeline 60 "$span"
ok $? "the second node's parcels sent again and ingested again"
is "$(counts "$JS_DB")" "$want" "sent twice: each step and process is in the database once"

# --- forged parcels: refused, logged, nothing written ---
body=$T/forged.parcel
printf 'jobscreen-parcel 1 job.999999\njob.json 2\n{}end\n' > "$body"
post() { curl -s -o "$T/reply" -w '%{http_code}' -H "X-Jobscreen-Credential: $1" --data-binary "@$2" "$JS_RECEIVE_URL"; }
cred() { openssl dgst -sha256 -binary "$2" | runuser -u "$1" -- munge -S "$JS_MUNGE_SOCKET"; }
logmark=$(stat -c %s "$JS_CGI_LOG" 2>/dev/null || echo 0)
newlog() { tail -c +$((logmark + 1)) "$JS_CGI_LOG"; }
code=$(post "$(cred jsbob "$body")" "$body")
is "$code $(newlog | grep -c "refused parcel .*: credential of uid $(id -u jsbob), not of uid 0")" "403 1" \
  "a parcel with jsbob's credential: 403, and one log line naming the uid"
good=$(cred root "$body")
printf 'jobscreen-parcel 1 job.999999\njob.json 2\n[]end\n' > "$T/altered.parcel"
is "$(post "$good" "$T/altered.parcel") $(newlog | grep -c 'refused parcel.*does not match the credential')" "403 1" \
  "a body altered after root's credential was made: 403, logged"
printf 'jobscreen-parcel 1 job.999999\n../job.json 2\n{}end\n' > "$T/bad.parcel"
is "$(post "$(cred root "$T/bad.parcel")" "$T/bad.parcel") $(newlog | grep -c 'refused parcel.*holds ".."')" "400 1" \
  "bad framing under root's credential: 400, logged"
printf 'jobscreen-parcel 1 job.999998\njob.json 2\n{}end\n' > "$T/replay.parcel"
rc=$(cred root "$T/replay.parcel")
first=$(post "$rc" "$T/replay.parcel"); rm -rf "$JS_RECEIVED_DIR/job.999998"
is "$first $(post "$rc" "$T/replay.parcel") $(newlog | grep -c 'refused parcel.*[Rr]eplayed')" "200 403 1" \
  "root's credential is taken once; replayed, it is refused and logged"
is "$(ls -d "$JS_RECEIVED_DIR"/job.99999[89] 2>/dev/null | wc -l)" 0 "no refused parcel wrote anything"

psql -X -q -d postgres -c "DROP DATABASE IF EXISTS js_t56_direct" >/dev/null
done_testing
