#!/usr/bin/env bash
# One user cannot take the spool from everyone: each job has a share of it per node
# (plugstack.conf spool_quota=, spool_files=), charged by the profiler where it makes and grows
# records. jsbob's job starts more processes at once than his share holds: the ones beyond it
# run unrecorded, and his step's bundle says how many and why; jsalice's job beside it keeps
# every record and profile, and both steps' root-written records are there.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 12
trap plugstack_restore EXIT
args=$(cut -d' ' -f3- <<< "$js_plugstack_orig")
plugstack_with "$args spool_quota=4M spool_files=20"
bob=$(work_dir jsbob) alice=$(work_dir jsalice)
sub() { local u=$1 w=$2; shift 2; (cd "$w" && as_user "$u" sbatch --parsable --chdir="$w" -o out.txt "$@"); }
# bob: 60 processes alive at once (each record holds a file of the share while it lives)
jb=$(sub jsbob "$bob" -J hog --wrap 'srun bash -c "for i in \$(seq 60); do sleep 3 & done; wait; echo done"')
ja=$(sub jsalice "$alice" -J fair --wrap 'srun bash -c "for i in \$(seq 5); do dd if=/dev/zero of=f\$i bs=64k count=4 2>/dev/null; done"')
wait_job_done "$jb" 90 >/dev/null; wait_job_done "$ja" 90 >/dev/null
is "$(job_state "$jb") $(cat "$bob/out.txt")" "COMPLETED done" "bob's job runs to its end: unrecorded processes run as ever"
is "$(job_state "$ja")" COMPLETED "alice's job completes"
for j in "$jb" "$ja"; do wait_file "$(job_dir "$j")/step.0.localhost.json"; done
ok $([ -s "$(job_dir "$jb")/step.0.localhost.json" ] && [ -s "$(job_dir "$ja")/step.0.localhost.json" ]; echo $?) \
   "both steps' records, written by root, are there"
bb=$(ls "$(job_dir "$jb")"/profiles/0.localhost.b*.json | tail -1)
n=$(jq -r '.unrecorded.processes // 0' "$bb")
ok $(( n >= 30 ? 0 : 1 )) "bob's bundle: $n process images of his not recorded (his share holds 20 records)"
like "$(jq -r '.unrecorded.reason' "$bb")" "spool quota on this node \\(4194304 B, 20 records\\)" "and why, in words"
rec=$(cat "$(job_dir "$jb")"/profiles/0.localhost.b*.json | jq -s '[.[].profiles | length] | add')
ok $(( rec + n >= 61 ? 0 : 1 )) "recorded ($rec) and unrecorded ($n) cover every process of his step (bash and 60 sleeps; a forked child refused before its exec counts as an image of its own)"
is "$(cat "$(job_dir "$ja")"/profiles/0.localhost.b*.json | jq -s '[.[].profiles[] | select(.exe | endswith("/dd"))] | length')" 5 \
   "alice's step: all five dd processes recorded"
is "$(cat "$(job_dir "$ja")"/profiles/0.localhost.b*.json | jq -s '[.[] | .unrecorded.processes // 0] | add')" 0 \
   "nothing of hers unrecorded"
q=$(job_dir "$jb")/profiles/.quota.localhost
is "$(od -An -t d8 -j 24 -N 16 "$q" | tr -s ' ' | sed 's/^ //')" "0 0" \
   "once collected, bob's records are all discharged from his share (bytes, files)"
is "$(stat -c %U "$q")" jsbob "the ledger is bob's (his processes charge it), made by the plugin"
# through the ingest: the step says it is incomplete, and why
spool=$(mktemp -d "$JS_CLUSTER_DIR/spool49.XXXXXX"); chmod 711 "$spool"
cp -a "$(job_dir "$jb")" "$spool/"
DB=js_t49
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
ingest_spool "$spool" "$DB"
is "$(q "SELECT unrecorded_processes FROM js.steps WHERE job_id = $jb AND step_id = '0'")" "$n" \
   "js.steps: the $n unrecorded process images"
like "$(q "SELECT incomplete || ' ' || incomplete_reason FROM js.steps WHERE job_id = $jb AND step_id = '0'")" \
   "^true .*$n processes not recorded: the job's spool quota on this node" "js.steps: incomplete, and why"
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null
rm -rf "$bob" "$alice" "$spool" "$spool.log" "$spool.quarantine"
done_testing
