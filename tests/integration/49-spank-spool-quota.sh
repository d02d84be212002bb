#!/usr/bin/env bash
# One user cannot take the spool from everyone: each job has a share of it per node
# (plugstack.conf spool_quota=, spool_files=), charged by the profiler where it makes and grows
# records. jsbob's job starts more processes at once than his share holds: the ones beyond it
# run unrecorded, and his step's bundle says how many and why; jsalice's job beside it keeps
# every record and profile, and both steps' root-written records are there. And when he fills
# the spool's file system by hand (which no share can stop), a job already running keeps its
# profiles and records: each step keeps room for its end from its start.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 16
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
rm -rf "$spool" "$spool.log" "$spool.quarantine"

# --- a spool filled by hand: the room kept for each step's end ---
small=$(mktemp -d "$JS_CLUSTER_DIR/small.XXXXXX")
if mount -t tmpfs -o size=8m,mode=0711 tmpfs "$small"; then
  trap 'plugstack_restore; umount -l "$small" 2>/dev/null' EXIT
  plugstack_with "$(sed "s|spool=[^ ]*|spool=$small|" <<< "$args")"
  ja=$(sub jsalice "$alice" -J patient --wrap 'srun bash -c "dd if=/dev/zero of=a.dat bs=64k count=4 2>/dev/null; sleep 6"')
  for i in $(seq 100); do ls "$small/job.$ja/profiles/" 2>/dev/null | grep -q '^0\.' && break; sleep 0.1; done
  # bob fills it and stays, so that nothing of his is given back while alice's job ends
  hog=$(sub jsbob "$bob" -J filler --wrap 'srun bash -c "dd if=/dev/zero of=\$JOBSCREEN_PROFILE_DIR/fill bs=64k 2>/dev/null; df --output=avail -B1 \$JOBSCREEN_PROFILE_DIR | tail -1 > left; sleep 60"')
  for i in $(seq 100); do [ -s "$bob/left" ] && break; sleep 0.1; done
  is "$(tr -d ' ' < "$bob/left" 2>/dev/null)" 0 "jsbob filled the spool by hand (no byte left when his dd stopped)"
  wait_job_done "$ja" 60 >/dev/null
  for i in $(seq 50); do grep -qE '"final": ?true' "$small/job.$ja/job.json" 2>/dev/null && break; sleep 0.2; done
  ok $([ -s "$small/job.$ja/step.0.localhost.json" ] && [ -s "$small/job.$ja/step.batch.localhost.json" ]; echo $?) \
     "alice's running job still gets its step records"
  is "$(jq -r '.final' "$small/job.$ja/job.json")" true "and its final job record"
  is "$(cat "$small/job.$ja"/profiles/0.localhost.b*.json 2>/dev/null | jq -s '[.[].profiles[] | select(.exe | endswith("/dd")) | .totals.posix_write_bytes] | add')" 262144 \
     "and its profiles: dd's 256 KiB"
  scancel "$hog" 2>/dev/null; wait_job_done "$hog" 60 >/dev/null; plugstack_restore
  umount -l "$small"
else
  for d in "filled by hand" "step records" "job record" "profiles"; do skip "$d" "cannot mount a tmpfs here"; done
fi
rm -rf "$bob" "$alice" "$small"
done_testing
