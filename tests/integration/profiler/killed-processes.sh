#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A process that dies by a signal keeps everything it counted: a program that writes 10 MiB and
# then raises SIGKILL, crashes with SIGSEGV, calls abort(), is cancelled with scancel, runs into
# its job's time limit or is killed by the OOM killer shows the 10 MiB in js.steps after the
# ingest, and how it ended in js.processes; `yes | head` keeps yes, ended by SIGPIPE; the ranks
# of an MPI job after one rank calls MPI_Abort keep theirs too.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
. "$JS_TOP_SRCDIR/tests/profiler/lib.sh"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 25
work=$(work_dir jsalice)
cp "$PROG/die" "$work/die"; chmod 755 "$work/die"
sub() { (cd "$work" && as_user jsalice sbatch --parsable --chdir="$work" -o /dev/null "$@"); }
wait_ready() { local i; for i in $(seq 200); do [ -e "$1.ready" ] && return 0; sleep 0.1; done; return 1; }
wait_gone() { local i; for i in $(seq "${2:-600}"); do
  case "$(job_state "$1")" in PENDING|RUNNING|CONFIGURING|COMPLETING|"") sleep 0.2 ;; *) return 0 ;; esac; done; return 1; }

# the time limit takes a minute or more: it runs while the others do
limit=$(sub -J limit -t 1 --wrap 'srun ./die wait limit.dat')
for mode in kill segv abort; do
  (cd "$work" && as_user jsalice timeout 60 srun -Q -J "$mode" ./die "$mode" "$mode.dat" >/dev/null 2>&1)
done
cancel=$(sub -J cancel --wrap 'srun ./die wait cancel.dat')
wait_ready "$work/cancel.dat"; ok $? "the job to cancel wrote its 10 MiB"
scancel "$cancel"
# OOM: a memory cgroup (v1 or v2) the test user may move its own process into
oom=
cg=
if [ -w /sys/fs/cgroup/memory ] && mkdir -p /sys/fs/cgroup/memory/js39 2>/dev/null; then
  cg=/sys/fs/cgroup/memory/js39
  echo 64M > "$cg/memory.limit_in_bytes" && echo 0 > "$cg/memory.swappiness" 2>/dev/null
elif [ -w /sys/fs/cgroup/cgroup.subtree_control ] && mkdir -p /sys/fs/cgroup/js39 2>/dev/null; then
  cg=/sys/fs/cgroup/js39; echo 64M > "$cg/memory.max"; echo 0 > "$cg/memory.swap.max" 2>/dev/null
fi
if [ -n "$cg" ] && chown jsalice "$cg/cgroup.procs"; then
  # die runs as the shell's child: the shell's wait gives its CPU time and peak memory
  oom=$(sub -J oom --wrap "srun sh -c 'echo \$\$ > $cg/cgroup.procs && ./die oom oom.dat; true'")
fi
(cd "$work" && as_user jsalice timeout 60 srun -Q -J pipe sh -c 'yes | head -c 1000 > /dev/null')
if [ "$JS_HAVE_MPI" = yes ] && [ -x "$PROG/mpi_abort" ]; then
  cp "$PROG/mpi_abort" "$work/mpi_abort"; chmod 755 "$work/mpi_abort"
  (cd "$work" && as_user jsalice timeout 60 srun -Q -J mpiabort --mpi=pmix -n2 ./mpi_abort "$work" >/dev/null 2>&1)
fi
wait_gone "$cancel" 100; [ -n "$oom" ] && wait_gone "$oom" 300
wait_gone "$limit" 900; ok $? "the job with a one-minute limit ended"
is "$(job_state "$limit")" TIMEOUT "and Slurm says TIMEOUT"

# every step record is written once its collector ran: ingest a copy of these jobs' spool
spool=$(mktemp -d "$JS_CLUSTER_DIR/spool39.XXXXXX"); chmod 711 "$spool"
jobs=$(cd "$JS_SPOOL_DIR" && for d in job.*; do grep -q "\"user\": *\"jsalice\"" "$d/job.json" 2>/dev/null &&
  grep -q "$work" "$d"/step.*.json 2>/dev/null && echo "$d"; done)
for d in $jobs; do cp -a "$JS_SPOOL_DIR/$d" "$spool/"; done
DB=js_t39
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
ingest_spool "$spool" "$DB"; ok $? "the ingest loads them"
is "$(find "$spool" -name '*.rec' | wc -l)" 0 "no record is left unturned in the spool"

step_of() { # step_of JOBNAME: "written bytes|end|exit_code|signal" of the die process
  q "SELECT p.posix_write_bytes || '|' || p.ended_by || '|' || coalesce(p.exit_code::text, '') || '|' || p.signal
     FROM js.jobs j JOIN js.steps s USING (cluster_id, job_id) JOIN js.processes p
       ON p.cluster_id = s.cluster_id AND p.job_id = s.job_id AND p.step_id = s.step_id
     WHERE j.name = '$1' AND p.exe LIKE '%/die' ORDER BY s.step_id LIMIT 1"
}
is "$(step_of kill)" "10485760|signal||9" "raise(SIGKILL): 10 MiB written, killed by signal 9"
is "$(step_of segv)" "10485760|signal||11" "a null store: 10 MiB written, killed by SIGSEGV"
is "$(step_of abort)" "10485760|signal||6" "abort(): 10 MiB written, killed by SIGABRT"
like "$(step_of cancel)" "^10485760\|signal\|\|(9|15)$" "scancel: 10 MiB written, killed by SIGTERM or SIGKILL"
like "$(step_of limit)" "^10485760\|signal\|\|(9|15)$" "time limit: 10 MiB written, killed by SIGTERM or SIGKILL"
is "$(q "SELECT string_agg(DISTINCT s.write_bytes::text, ',') FROM js.steps s JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name IN ('kill','segv','abort','cancel','limit') AND s.step_id = '0'")" 10485760 \
   "js.steps: each of those five steps wrote its 10 MiB"
if [ -n "$oom" ]; then
  is "$(step_of oom)" "10485760|signal||9" "the OOM killer: 10 MiB written, killed by SIGKILL"
  like "$(q "SELECT max_rss_kib || '|' || missing FROM js.processes p JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name = 'oom' AND p.exe LIKE '%/die'")" \
     '^[0-9]{5,}\|$' "its peak memory, from its shell's wait, is tens of MiB, and nothing is missing"
else
  skip "the OOM killer: 10 MiB written, killed by SIGKILL" "no memory cgroup this test can use"
  skip "its peak memory" "no memory cgroup this test can use"
fi
# a task killed under slurmstepd: nobody measured its CPU time after its last fold (within
# its last slice), and the record says so; the step is incomplete for that reason alone
is "$(q "SELECT count(*) FROM js.processes p JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name IN ('kill','segv','abort','cancel','limit') AND p.exe LIKE '%/die' AND p.missing LIKE 'CPU time after % and peak memory%'")" 5 \
   "a killed task's record says what it misses: CPU time after its last fold, peak memory"
is "$(q "SELECT string_agg(DISTINCT s.killed_processes::text, ',') FROM js.steps s JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name IN ('kill','segv','abort') AND s.step_id = '0'")" 1 \
   "each of those steps counts one killed process"
like "$(q "SELECT string_agg(DISTINCT s.incomplete_reason, ',') FROM js.steps s JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name IN ('kill','segv','abort') AND s.step_id = '0'")" \
   '^1 process: CPU time after .* and peak memory' "the step is incomplete for that reason, and says it"
# slices: the killed process's bytes are in its step's slices too
is "$(q "SELECT sum(x.posix_write_bytes) FROM js.step_slices x JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name = 'kill'")" 10485760 "the killed process's 10 MiB are in its step's slices"

# yes | head: yes keeps its record, ended by SIGPIPE; its parent shell reaped it
is "$(q "SELECT p.ended_by || '|' || p.signal || '|' || (p.posix_write_bytes > 0) || '|' || p.missing FROM js.processes p JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name = 'pipe' AND p.exe LIKE '%/yes'")" \
   "signal|13|true|" "yes | head: yes has its record, killed by SIGPIPE, its writes counted, nothing missing (its shell's wait4 gave its CPU time)"
is "$(q "SELECT p.ended_by || '|' || p.exit_code FROM js.processes p JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name = 'pipe' AND p.exe LIKE '%/head'")" \
   "exit|0" "head ended by exit, status 0"
is "$(q "SELECT p.stdio_read_bytes + p.posix_read_bytes FROM js.processes p JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name = 'pipe' AND p.exe LIKE '%/head'")" 1000 \
   "head read its 1000 bytes"
if [ "$JS_HAVE_MPI" = yes ] && [ -x "$PROG/mpi_abort" ]; then
  is "$(q "SELECT string_agg(p.mpi_rank || ':' || (p.posix_write_bytes >= 1048576), ',' ORDER BY p.mpi_rank) FROM js.processes p JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name = 'mpiabort' AND p.exe LIKE '%/mpi_abort'")" \
     "0:true,1:true" "MPI_Abort on rank 1: both ranks have their records and their 1 MiB"
  is "$(q "SELECT string_agg(p.ended_by || '/' || coalesce(p.exit_code::text, '-') || '/' || p.signal, ',' ORDER BY p.mpi_rank) FROM js.processes p JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name = 'mpiabort' AND p.exe LIKE '%/mpi_abort'")" \
     "signal/-/9,_exit/3/0" "rank 0 killed by SIGKILL, rank 1 ended by its abort with status 3"
else
  skip "MPI_Abort: both ranks' records" "built without MPI"
  skip "MPI_Abort: how each rank ended" "built without MPI"
fi
# the step record is written after the collector: the ingest saw every profile of the cancelled job
is "$(q "SELECT count(*) FROM js.processes p JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name = 'cancel' AND p.exe LIKE '%/die'")" 1 \
   "the cancelled step's killed process is there once"
is "$(q "SELECT count(*) FROM js.processes p JOIN js.jobs j USING (cluster_id, job_id) WHERE j.name = 'kill' AND p.ended_by = 'unknown'")" 0 \
   "no process of a step whose task was seen by slurmstepd ends as unknown"
left=0; for d in $jobs; do left=$(( left + $(find "$JS_SPOOL_DIR/$d" -name '*.rec' | wc -l) )); done
is "$left" 0 "and none is left in the cluster's spool either"
[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null
rm -rf "$spool" "$spool.log" "$spool.quarantine" "$work"
done_testing
