#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One user cannot take the spool from everyone. The user's processes write only into their
# job's directory of the record area (record_dir=, memory); the spool is root's, and the
# plugin's relay puts each bundle there charged to the job's share on the node
# (spool_quota=, spool_files=), which it enforces where it writes. jsbob's job makes more
# profiles than his share holds, and writes a bundle by hand: both are refused, counted, and
# said in his step record and through the ingest in js.steps; jsalice's job beside his keeps
# every profile. The profiler's own cap on the record area (record_quota=, record_files=)
# refuses processes beyond it, and the bundle says so. Nobody can write into the spool.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 17
args=$(cut -d' ' -f3- <<< "$js_plugstack_orig")
bob=$(work_dir jsbob) alice=$(work_dir jsalice)
sub() { local u=$1 w=$2; shift 2; (cd "$w" && as_user "$u" sbatch --parsable --chdir="$w" -o out.txt "$@"); }
bundles() { local f; for f in "$(job_dir "$1")"/profiles/0.*.b*.json; do [ -e "$f" ] && bundle_json "$f"; done 2>/dev/null; }

# --- the spool's share: 24 KiB of bundles per job and node ---
plugstack_with "$args spool_quota=24K"
# bob: 600 processes (their profiles are far more than 24 KiB, also as a bundle's columns: ~0.12 KB a
# process, so that 200 could all fit in the share), and a bundle of his own
# making, written by hand where the collector writes them, and an attempt at the spool itself
jb=$(sub jsbob "$bob" -J hog --wrap 'srun bash -c "for i in \$(seq 600); do cat /etc/hostname > /dev/null; done
  head -c 65536 /dev/zero > \$JOBSCREEN_PROFILE_DIR/0.\$SLURMD_NODENAME.b77.json
  touch $JS_SPOOL_DIR/job.\$SLURM_JOB_ID/profiles/mine 2> spool.err || echo refused > spool.txt; echo done"')
ja=$(sub jsalice "$alice" -J fair --wrap 'srun bash -c "dd if=/dev/zero of=f1 bs=1k count=1 2>/dev/null"')
wait_job_done "$jb" 90 >/dev/null; wait_job_done "$ja" 90 >/dev/null
is "$(job_state "$jb") $(cat "$bob/out.txt")" "COMPLETED done" "bob's job runs to its end: what the share refuses changes nothing for the job"
is "$(cat "$bob/spool.txt" 2>/dev/null)" refused "bob cannot create a file in the spool (its profiles/ is root's)"
nb=$(job_node "$jb") na=$(job_node "$ja")
for j in "$jb.$nb" "$ja.$na"; do wait_file "$(job_dir "${j%%.*}")/step.0.${j#*.}.json"; done
# and the batch steps' ends: their live snapshots, charged to the share while they run, are gone
for j in "$jb.$nb" "$ja.$na"; do wait_file "$(job_dir "${j%%.*}")/step.batch.${j#*.}.json"; done
rec=$(job_dir "$jb")/step.0.$nb.json
n=$(jq -r '.unrecorded.processes // 0' "$rec")
kept=$(bundles "$jb" | jq -s '[.[].profiles | length] | add // 0')
ok $(( n >= 1 && n + kept >= 601 ? 0 : 1 )) "bob's step record: $n processes whose profiles the share refused; with the $kept kept, every process (bash and 600 cat at least)"
like "$(jq -r '.unrecorded.reason' "$rec")" "^the job's spool quota on this node \\(24576 B, 10000 bundles\\) was reached$" "and why, in words"
sizes=$(stat -c %s "$(job_dir "$jb")"/profiles/* 2>/dev/null | awk '{s += $1; n++} END {print s + 0, n + 0}')
taken=$(od -An -t d8 -j 8 -N 16 "$(job_dir "$jb")/.spool.$nb" 2>/dev/null | tr -s ' ' | sed 's/^ //')
is "${taken:-0 0} $(stat -c %U "$(job_dir "$jb")/.spool.$nb")" "$sizes root" \
   "the share's ledger (root's) holds the bytes and bundles of his in the spool ($sizes)"
ok $(( ${sizes% *} <= 24576 ? 0 : 1 )) "which are at most his share, 24 KiB: his hand-made 64 KiB bundle is not among them"
is "$(bundles "$ja" | jq -s '[.[].profiles[] | select(.exe | endswith("/dd"))] | length')" 1 \
   "alice's job beside his: her dd's profile is in the spool"
is "$(jq -r '.unrecorded.processes // 0' "$(job_dir "$ja")/step.0.$na.json")" 0 "nothing of hers refused"
is "$(stat -c '%U %a' "$(job_dir "$ja")/profiles") $(stat -c %U "$(job_dir "$ja")"/profiles/0.$na.b1.json)" \
   "root 700 jsalice" "the spool's profiles/ is root's; the bundle in it is hers (copied by root, given to her)"
ok $([ ! -e "$JS_RECORD_DIR/$na/job.$ja" ] && [ ! -e "$JS_RECORD_DIR/$nb/job.$jb" ]; echo $?) \
   "the jobs' directories in the record area are gone with the jobs (job epilog)"
# through the ingest: the step says it is incomplete, and why
spool=$(mktemp -d "$JS_CLUSTER_DIR/spool49.XXXXXX"); chmod 711 "$spool"
cp -a "$(job_dir "$jb")" "$spool/"
DB=js_t49
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
ingest_spool "$spool" "$DB"
is "$(q "SELECT unrecorded_processes FROM js.steps WHERE job_id = $jb AND step_id = '0'")" "$n" \
   "js.steps: the $n processes not recorded"
like "$(q "SELECT incomplete || ' ' || incomplete_reason FROM js.steps WHERE job_id = $jb AND step_id = '0'")" \
   "^true $n processes not recorded: the job's spool quota on this node" "js.steps: incomplete, and why"
is "$(ls -A "$spool")" "" "the ingest empties the job's directory, the relay's ledgers with it"
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null
rm -rf "$spool" "$spool.log" "$spool.quarantine"

# --- the profiler's cap on the record area: 20 records at once per job and node ---
plugstack_with "$args record_quota=4M record_files=20"
jb=$(sub jsbob "$bob" -J many --wrap 'srun bash -c "for i in \$(seq 60); do sleep 3 & done; wait; echo done"')
wait_job_done "$jb" 90 >/dev/null
is "$(job_state "$jb") $(tail -1 "$bob/out.txt")" "COMPLETED done" "bob's job runs to its end: unrecorded processes run as ever"
wait_file "$(job_dir "$jb")/step.0.$(job_node "$jb").json"
u=$(bundles "$jb" | jq -s '[.[] | .unrecorded.processes // 0] | add')
ok $(( u >= 30 ? 0 : 1 )) "his bundles: $u process images not recorded (the record area holds 20 records of his at once)"
like "$(bundles "$jb" | jq -rs '[.[] | .unrecorded.reason // empty] | first')" \
   "^the job's record quota on this node \\(4194304 B, 20 records\\) was reached$" "and why, in words"
rec=$(bundles "$jb" | jq -s '[.[].profiles | length] | add')
ok $(( rec + u >= 61 ? 0 : 1 )) "recorded ($rec) and unrecorded ($u) cover every process of his step (bash and 60 sleeps; a forked child refused before its exec counts as an image of its own)"
rm -rf "$bob" "$alice"
done_testing
