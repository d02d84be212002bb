#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Sync calls are not metadata (issue 36, part A, item 1), on real runs through the cluster's
# pipeline: a writer that appends 3,000 records with an fsync after each (and 30 opens) gets
# SYNC_STORM with the figures of its processes, and not METADATA_STORM; its fsyncs are its
# sync_calls, not posix_meta_calls; writes on an O_SYNC descriptor count as writes and as sync
# calls. A stat storm on another node gets METADATA_STORM and not SYNC_STORM. No advice of either
# step says what a reading of the step contradicts.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
command -v python3 >/dev/null || skip_all "no python3"
plan 11
q() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
w=$(work_dir jsalice)
nodes=($JS_NODES)
submit() { local name=$1 cmd=${!#}; set -- "${@:2:$#-2}"; (cd "$w" && as_user jsalice sbatch --parsable -o /dev/null -J "$name" "$@" --wrap "$cmd"); }

# the writer: 30 files opened once each, 100 records of 1 KiB appended to each with an fsync
# after every record; then 200 writes through a descriptor opened with O_SYNC
cat > "$w/fsync_writer.py" <<'EOF'
import os
rec = b"x" * 1024
for i in range(30):
    fd = os.open("out.%d" % i, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    for k in range(100):
        os.write(fd, rec)
        os.fsync(fd)
    os.close(fd)
fd = os.open("osync.dat", os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_SYNC, 0o644)
for k in range(200):
    os.write(fd, rec)
os.close(fd)
EOF
# the stat storm: 60,000 stats of one file, no sync
cat > "$w/stat_storm.py" <<'EOF'
import os
open("target", "w").close()
for i in range(60000):
    os.stat("target")
EOF
chown jsalice "$w"/*.py
fw=$(submit fsync-writer -w "${nodes[0]}" -n1 "srun python3 fsync_writer.py")
st=$(submit stat-storm -w "${nodes[1]}" -n1 "srun python3 stat_storm.py")
is "$(wait_job_done "$fw" 300)|$(wait_job_done "$st" 300)" "COMPLETED|COMPLETED" "the fsync writer and the stat storm ran"
wait_pipeline 120 "$fw" "$st"
ok $? "both reached the database"
for i in $(seq 300); do
  [ "$(q "SELECT count(*) FROM js_data.insight_pending WHERE job_id IN ($fw, $st)")|$(q "SELECT count(*) FROM js.step_insights WHERE job_id IN ($fw, $st) AND step_id = '0'")" = "0|2" ] && break
  sleep 0.2
done
advice() { q "SELECT string_agg(code, ' ' ORDER BY code) FROM js.step_advice WHERE job_id = $1 AND step_id = '0'"; }
diag "fsync writer: $(advice "$fw"); stat storm: $(advice "$st")"
diag "$(q "SELECT code, message, figures FROM js.step_advice WHERE job_id IN ($fw, $st) AND step_id = '0' ORDER BY job_id, code")"

# the writer's python process: its 3,000 fsyncs and 200 O_SYNC writes are sync calls, its
# metadata calls are its opens' closes, seeks and stats (Python's start: a few hundred at most)
py="job_id = $fw AND step_id = '0' AND exe LIKE '%python%'"
is "$(q "SELECT sync_calls FROM js.processes WHERE $py")" 3200 \
   "the writer's sync calls: 3,000 fsyncs and 200 writes on its O_SYNC descriptor"
is "$(q "SELECT posix_meta_calls < 1000 AND posix_write_calls >= 3200 AND sync_ns > 0 AND sync_ns <= posix_ns FROM js.processes WHERE $py")" t \
   "its fsyncs are not metadata calls ($(q "SELECT posix_meta_calls FROM js.processes WHERE $py")), the O_SYNC writes are writes too, their time is part of posix_ns"
like "$(advice "$fw")" "SYNC_STORM" "the fsync writer gets SYNC_STORM"
unlike_meta=$(advice "$fw"); [[ " $unlike_meta " != *" METADATA_STORM "* ]]
ok $? "and not METADATA_STORM"
# the advice's figures are the step's: its processes' sync calls over its elapsed time
is "$(q "SELECT (a.figures->>'sync_calls')::bigint = (SELECT sum(sync_calls) FROM js.processes WHERE job_id = $fw AND step_id = '0')
          AND abs((a.figures->>'wall_s')::float - s.elapsed_s) <= 1
          AND a.message LIKE (a.figures->>'sync_calls') || ' sync calls (fsync, fdatasync, O_SYNC writes ...)%sync once at the end.'
        FROM js.step_advice a JOIN js.steps s ON s.job_id = a.job_id AND s.step_id = a.step_id
        WHERE a.job_id = $fw AND a.step_id = '0' AND a.code = 'SYNC_STORM'")" t \
   "SYNC_STORM quotes the step's sync calls and elapsed time"

like "$(advice "$st")" "METADATA_STORM" "the stat storm gets METADATA_STORM"
stat_codes=$(advice "$st"); [[ " $stat_codes " != *" SYNC_STORM "* ]]
ok $? "and not SYNC_STORM"
is "$(q "SELECT coalesce(sum(sync_calls), -1) FROM js.processes WHERE job_id = $st AND step_id = '0'")" 0 \
   "the stat storm made no sync call"
# METADATA_STORM's peak is within what the step did: its metadata calls over one slice at most
is "$(q "SELECT ((a.figures->>'meta_ops_per_s')::float - 0.5) * c.slice_seconds <= (SELECT sum(posix_meta_calls + posix_open_calls + stdio_meta_calls + stdio_open_calls + mpiio_meta_calls) FROM js.processes WHERE job_id = $st AND step_id = '0')
        FROM js.step_advice a JOIN js.clusters c ON c.cluster_id = a.cluster_id
        WHERE a.job_id = $st AND a.step_id = '0' AND a.code = 'METADATA_STORM'")" t \
   "METADATA_STORM's peak rate is the step's own calls"
done_testing
