#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# While a step runs, the plugin's collector (jobscreen-collect --watch, as the job's user) turns
# the records of processes that ended into bundles, and its relay (root) moves them into the
# spool: a step that runs 1,000 short commands leaves a bounded number of files in the record
# area and in the spool at any time, every command's I/O reaches the database, and a live
# snapshot of the running processes is refreshed four times a minute.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 11
work=$(work_dir jsalice)

# --- 1,000 commands, each reading and writing its own small file ---
job=$(cd "$work" && as_user jsalice sbatch --parsable --chdir="$work" -o /dev/null -J many --wrap \
  'srun bash -c "for i in \$(seq 1000); do cat /etc/hostname > f\$i; done; sleep 3"')
dir=$(job_dir "$job")/profiles recs= node=
most=0 seen_bundle=no
for i in $(seq 1200); do
  [ -n "$node" ] || { node=$(job_node "$job"); recs=$JS_RECORD_DIR/$node/job.$job; }
  n=$(( $(find "$dir" -maxdepth 1 -type f 2>/dev/null | wc -l) + $(find "$recs" -maxdepth 1 -type f 2>/dev/null | wc -l) ))
  [ "$n" -gt "$most" ] && most=$n
  ls "$dir" 2>/dev/null | grep -q "^0\\.$node\\.b[0-9]*\\.json$" && seen_bundle=yes
  case "$(job_state "$job")" in COMPLETED|FAILED|CANCELLED|TIMEOUT) break ;; esac
  sleep 0.1
done
is "$(job_state "$job")" COMPLETED "the job of 1,000 commands completes"
ok $(( most < 700 ? 0 : 1 )) "the record area and the spool never held more than $most files for it (bounded: not one per command)"
is "$seen_bundle" yes "bundles appeared while the step ran"
for i in $(seq 50); do [ -e "$(job_dir "$job")/step.0.$node.json" ] && break; sleep 0.2; done
is "$(ls -A "$dir" | grep -vc "^\\(0\\|batch\\)\\.$node\\.b[0-9]*\\.json$")" 0 "at the end only bundles are left in the spool: no temporary or snapshot"
for i in $(seq 50); do [ -e "$recs" ] || break; sleep 0.2; done
ok $([ ! -e "$recs" ]; echo $?) "and the job's record area is gone (job epilog)"
spool=$(mktemp -d "$JS_CLUSTER_DIR/spool48.XXXXXX"); chmod 711 "$spool"
cp -a "$(job_dir "$job")" "$spool/"
DB=js_t48
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
ingest_spool "$spool" "$DB"; ok $? "the ingest loads the bundles"
host_bytes=$(stat -c %s /etc/hostname)
is "$(q "SELECT count(*) || '|' || sum(posix_read_bytes) || '|' || sum(posix_write_bytes) FROM js.processes WHERE job_id = $job AND exe LIKE '%/cat'")" \
   "1000|$((1000 * host_bytes))|$((1000 * host_bytes))" "all 1,000 cat processes, each with its read and its write"
is "$(q "SELECT incomplete FROM js.steps WHERE job_id = $job AND step_id = '0'")" f "the step is complete"

# --- a live snapshot of a running step ---
job=$(cd "$work" && as_user jsalice sbatch --parsable --chdir="$work" -o /dev/null -J live --wrap \
  'srun bash -c "dd if=/dev/zero of=live.dat bs=1k count=64 2>/dev/null; sleep 40; true"')
for i in $(seq 100); do node=$(job_node "$job"); [ -n "$node" ] && break; sleep 0.1; done
snap=$(job_dir "$job")/profiles/.live.0.$node.json
for i in $(seq 300); do [ -s "$snap" ] && jq -e '.profiles[] | select(.exe | endswith("/bash"))' "$snap" >/dev/null 2>&1 && break; sleep 0.1; done
is "$(jq -r '[.profiles[] | select(.exe | endswith("/bash")) | .end] | first' "$snap")" running \
   "a live snapshot of the running shell appears within 30 s"
is "$(jq -r '[.profiles[] | select(.exe | endswith("/dd")) | .end + " " + (.totals.posix_write_bytes | tostring)] | first' "$snap")" "exit 65536" \
   "an ended process is in it until it is bundled: dd, 64 KiB written"
scancel "$job"
for i in $(seq 100); do [ -e "$(job_dir "$job")/step.0.$node.json" ] && break; sleep 0.2; done
ok $([ ! -e "$snap" ]; echo $?) "the step's end removes its snapshot: the bundles say it all"
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null
rm -rf "$spool" "$spool.log" "$spool.quarantine" "$work"
done_testing
