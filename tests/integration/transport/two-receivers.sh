#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two receivers (issue 37): `tests/cluster receivers 2` splits the nodes between /receive and
# /receive2 (n1, n3 and the controller's spool to the first; n2, n4 to the second), each with
# its received spool and its own ingest daemon, both writing JS_DB. Real jobs spanning nodes of
# both, and a backlog of synthetic step-nodes dropped into every node's spool at once (the
# senders post many parcels per request, gzipped): every step-node reaches the database exactly
# once (its rows and its processes against what ran, or against a direct ingest of the same
# spool), nothing is quarantined, no spool keeps anything. The cluster goes back to one receiver.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline (transport/ or profile_ingest not built)"
[ "$(wc -w <<< "$JS_NODES")" -ge 4 ] || skip_all "needs a cluster of 4 nodes or more"
[ "$JS_INSTALLED" = no ] || skip_all "tests/cluster receivers runs the build tree's pipeline"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
INGEST=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest GEN=$JS_TOP_BUILDDIR/bench/gen/jsgen
[ -x "$GEN" ] || skip_all "bench/gen/jsgen is not built"
plan 10
q() { psql -X -q -At -F' ' -d "${DB:-$JS_DB}" -c "$1"; }
cluster() { "$JS_TOP_SRCDIR/tests/cluster" "$@" --dir "$JS_CLUSTER_DIR"; }
T=$(mktemp -d /var/tmp/js59c.XXXXXX)
trap 'cluster receivers 1 >/dev/null 2>&1; rm -rf "$T"; dropdb --if-exists js_59c 2>/dev/null' EXIT

cluster receivers 2 2>"$T/switch.log"
. "$JS_CLUSTER_DIR/env"
is "$JS_RECEIVERS $(wc -w <<< "$JS_RECEIVED_DIRS") $(pgrep -cf "profile_ingest .*--spool $JS_CLUSTER_DIR/received2 ")" "2 2 1" \
  "two receivers, two received spools, an ingest daemon on the second"
# each URL stores into its own spool (a bundle of a job that never was, taken away at once)
cred() { openssl dgst -sha256 -binary "$1" | munge -S "$JS_MUNGE_SOCKET"; }
printf 'jobscreen-parcel 1 job.999995\nprofiles/0.n1.b1.json 2\n{}end\n' > "$T/probe.parcel"
read -r -a urls <<< "$JS_RECEIVE_URLS"; read -r -a spools <<< "$JS_RECEIVED_DIRS"
where=
for u in "${urls[@]}"; do
  curl -s -o /dev/null -X POST --data-binary "@$T/probe.parcel" -H "X-Jobscreen-Credential: $(cred "$T/probe.parcel")" "$u"
  for s in "${spools[@]}"; do [ -e "$s/job.999995/profiles/0.n1.b1.json" ] && where="$where ${s##*/}"; done
  for s in "${spools[@]}"; do rm -rf "$s/job.999995"; done
done
is "$where" " received received2" "/receive stores into received, /receive2 into received2"

# --- real jobs across the nodes of both receivers ---
w=$(work_dir jsalice)
t0=$(date +%s)
write="dd if=/dev/zero of=out.\$SLURM_JOB_ID.\$SLURM_STEP_ID.\$SLURM_PROCID bs=64k count=4 conv=fsync status=none"
batch=$(cd "$w" && as_user jsalice sbatch --parsable --chdir="$w" -o /dev/null -N4 -n4 -J two4 \
  --wrap "srun bash -c '$write'; srun bash -c '$write'")
only=()
for k in 1 2 3; do
  only+=("$(cd "$w" && as_user jsalice srun -N2 -n2 -w "n$k,n$((k + 1))" -J two2 bash -c "echo \$SLURM_JOB_ID; $write" | head -n 1)")
done
is "$(wait_job_done "$batch" 120)" COMPLETED "a batch job of two steps on the four nodes completed"
wait_pipeline 120 "$batch" "${only[@]}"
ok $? "it and three srun-only jobs (n1+n2, n2+n3, n3+n4) reached JS_DB within $(( $(date +%s) - t0 )) s, no spool keeps them"
want="0:$(job_nodes "$batch" | sort | paste -sd,) 1:$(job_nodes "$batch" | sort | paste -sd,) batch:$(job_node "$batch")"
for j in "${only[@]}"; do want="$want|0:$(job_nodes "$j" | sort | paste -sd,)"; done
got=$(q "SELECT step_id || ':' || string_agg(node, ',' ORDER BY node) FROM js_data.step_nodes WHERE job_id = $batch GROUP BY step_id ORDER BY step_id" | paste -sd' ')
for j in "${only[@]}"; do got="$got|$(q "SELECT step_id || ':' || string_agg(node, ',' ORDER BY node) FROM js_data.step_nodes WHERE job_id = $j GROUP BY step_id")"; done
is "$got" "$want" "every step on every node it ran on, once (js_data.step_nodes)"
in_jobs="job_id IN ($batch, $(IFS=,; echo "${only[*]}"))"
is "$(q "SELECT count(*) || ' ' || sum(posix_write_bytes) FROM js.processes WHERE $in_jobs AND step_id <> 'batch' AND posix_write_bytes > 0")" \
   "14 $((14 * 4 * 65536))" "a writing process per task (4 + 4 + 3 x 2), each with its bytes: none doubled, none missing"

# --- a backlog in every node's spool at once: posts of many parcels to both receivers ---
JOBS=12 STEPS=2 NODES=4
first=$(( 62000000 + RANDOM % 1000 * 1000 ))
mkdir -m 711 "$T/gen"
"$GEN" --uniform --bundle --out "$T/gen" --job-id-base "$first" --jobs "$JOBS" --steps "$STEPS" --nodes "$NODES" --ppn 2 \
  --slices 60 --files 2 --uid "$(id -u nobody)" --gid "$(id -g nobody)" --user nobody \
  --start $(( ($(date +%s) / 4 - 21600 - 70) * 4 )) >/dev/null
createdb js_59c && "$INGEST" --migrate --db "$JS_PG_CONNINFO dbname=js_59c" >/dev/null 2>&1
cp -a "$T/gen" "$T/direct"
"$INGEST" --once --spool "$T/direct" --db "$JS_PG_CONNINFO dbname=js_59c" --set job_grace_seconds=0 --log-level warn
k=0
read -r -a nodes <<< "$JS_NODES"
for g in $(ls "$T/gen"/job.*/ | sed -n 's/^step\.[^.]*\.\(.*\)\.json$/\1/p' | sort -u); do
  n=${nodes[$k]} k=$((k + 1))
  mkdir -m 711 "$T/node.$n"
  for j in "$T"/gen/job.*; do
    d=$T/node.$n/$(basename "$j")
    mkdir -m 711 "$d"; install -d -m 700 "$d/profiles"
    cp -a "$j/job.json" "$j"/step.*."$g".json "$d/"; cp -a "$j"/profiles/*."$g".b*.json "$d/profiles/"
  done
done
mark=$(for n in "${nodes[@]}"; do stat -c %s "$JS_CLUSTER_DIR/log/send.$n.log"; done)
# each node's whole backlog appears at once (a rename into the spool)
for n in "${nodes[@]}"; do mv "$T/node.$n"/job.* "$JS_SPOOL_DIR/$n/"; done
in59c="job_id BETWEEN $first AND $((first + 999))"
for i in $(seq 600); do
  [ "$(q "SELECT count(*) FROM js_data.step_nodes WHERE $in59c")" = $((JOBS * STEPS * NODES)) ] && break; sleep 0.2
done
is "$(q "SELECT count(*) FROM js_data.step_nodes WHERE $in59c")" $((JOBS * STEPS * NODES)) \
  "the backlog: all $((JOBS * STEPS * NODES)) step-nodes in JS_DB, sent through both receivers"
is "$(q "SELECT count(*) || ' ' || sum(posix_write_bytes) FROM js.processes WHERE $in59c")" \
   "$(DB="$JS_PG_CONNINFO dbname=js_59c" q "SELECT count(*) || ' ' || sum(posix_write_bytes) FROM js.processes")" \
   "its processes are those of a direct ingest of the same spool: none doubled, none missing"
posts=$(k=0; for n in "${nodes[@]}"; do k=$((k + 1)); tail -c +$(( $(sed -n "${k}p" <<< "$mark") + 1 )) "$JS_CLUSTER_DIR/log/send.$n.log"; done |
  grep -c 'stored a post of [0-9]* parcels .*gzip)')
ok "$([ "$posts" -ge 1 ] && echo 0 || echo 1)" "the senders posted many parcels per request, gzipped ($posts such posts)"
sum_q=0
for d in $JS_QUARANTINE_DIRS; do sum_q=$((sum_q + $(find "$d" -type f | wc -l))); done
is "$(q "SELECT count(*) FROM js.quarantine WHERE $in59c OR $in_jobs") $sum_q" "0 0" "nothing was quarantined"
done_testing
