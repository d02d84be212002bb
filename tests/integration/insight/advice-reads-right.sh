#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Advice read against what each step did (issue 36's campaign), on the issue's workloads that no
# other test runs, through the cluster's pipeline: an fsync after every 4 KiB record (its I/O
# time is syncs: "sync less", never "fewer, larger"), another user's dd bs=1M conv=fsync (its
# calls are large already: "move less data", no SMALL_WRITES), MPI-IO in 4 KiB pieces
# (SMALL_READS, SMALL_WRITES) and in collective 1 MiB pieces (never "fewer, larger"), and a
# Nextflow-style task (a work directory, .command.sh run by .command.run, inputs staged as
# symlinks): its commands run one after another, so no CPU_WAIT tells it to run fewer at once.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline"
[ "$(wc -w <<< "$JS_NODES")" -ge 4 ] || skip_all "needs a cluster of 4 nodes or more"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
command -v python3 >/dev/null || skip_all "no python3"
[ "${JS_HAVE_MPI:-no}" = yes ] || skip_all "no MPI (MPI-IO steps)"
plan 9
q() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
nodes=($JS_NODES)
w=$(work_dir jsalice) wb=$(work_dir jsbob)
sb() { local u=$1 d=$2; shift 2; (cd "$d" && as_user "$u" sbatch --parsable -o /dev/null "$@"); }
cat > "$w/fsync_writer.py" <<'EOF'
import os
fd = os.open("records.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
for i in range(8000):
    os.write(fd, b"r" * 4096)
    os.fsync(fd)
os.close(fd)
EOF
mpicc -O1 -o "$w/mpiio" "$JS_TOP_SRCDIR/contrib/examples/insight/mpiio.c"
ok $? "the MPI-IO program compiles"
chown jsalice "$w"/*

fw=$(sb jsalice "$w" -J fsync-writer -w "${nodes[1]}" -n1 --wrap "srun python3 fsync_writer.py")
dd=$(sb jsbob "$wb" -J dd-fsync -w "${nodes[2]}" -n1 --wrap "srun dd if=/dev/zero of=big bs=1M count=1500 conv=fsync status=none; rm -f big")
small=$(sb jsalice "$w" -J mpiio-small -N2 -n2 -w "${nodes[0]},${nodes[3]}" --wrap "srun --mpi=pmix ./mpiio small.dat 4000 4096 indep")
wait_job_done "$small" 300 >/dev/null
coll=$(sb jsalice "$w" -J mpiio-coll -N2 -n2 -w "${nodes[0]},${nodes[3]}" --wrap "srun --mpi=pmix ./mpiio coll.dat 64 1048576 coll")

# a Nextflow-style task: its input staged as a symlink into a work directory of its own
nf=$w/nf && mkdir -p "$nf/data" "$nf/work/a1/b2c3d4"
python3 -c "
import random
random.seed(1)
with open('$nf/data/reads.fa', 'w') as f:
    for i in range(40000): f.write('>r%d\n%s\n' % (i, ''.join(random.choice('ACGT') for _ in range(60))))"
t=$nf/work/a1/b2c3d4
ln -s "$nf/data/reads.fa" "$t/reads.fa"
printf '#!/bin/bash -ue\n%s\n' "grep -c '>' reads.fa > count.txt; python3 -c \"s = open('reads.fa').read(); open('gc.txt', 'w').write(str(sum(c in 'GC' for c in s)))\"; cat count.txt gc.txt | paste -sd+ | bc > total.txt" > "$t/.command.sh"
printf '#!/bin/bash\n#SBATCH -J nf-count\ncd %s\ntouch .command.begin\nbash .command.sh > .command.out 2> .command.err\necho $? > .exitcode\n' "$t" > "$t/.command.run"
chown -R jsalice "$nf"
task=$(cd "$t" && as_user jsalice sbatch --parsable -o "$t/.command.log" "$t/.command.run")
jobs="$fw, $dd, $small, $coll, $task"
is "$(for j in $fw $dd $small $coll $task; do wait_job_done "$j" 300; done | sort -u | tr '\n' ' ')|$(cat "$t/.exitcode" 2>/dev/null)" "COMPLETED |0" \
  "the fsync writer, jsbob's dd, the two MPI-IO steps and the Nextflow-style task ran"
wait_pipeline 120 $fw $dd $small $coll $task
ok $? "they reached the database"
for i in $(seq 300); do
  [ "$(q "SELECT count(*) FROM js_data.insight_pending WHERE job_id IN ($jobs)")|$(q "SELECT count(*) FROM js.step_insights WHERE job_id IN ($fw, $dd, $small, $coll) AND step_id = '0'")" = "0|4" ] && break
  sleep 0.2
done
advice() { q "SELECT string_agg(code, ' ' ORDER BY code) FROM js.step_advice WHERE job_id = $1 AND step_id = '0'"; }
says() { q "SELECT message FROM js.step_advice WHERE job_id = $1 AND step_id = '0' AND code = '$2'"; }
diag "$(q "SELECT job_id, step_id, code, message FROM js.step_advice WHERE job_id IN ($jobs) ORDER BY job_id, step_id, code")"

is "$(advice "$fw")" "IO_DOMINATED SMALL_WRITES SYNC_STORM" "the fsync writer: IO_DOMINATED, SMALL_WRITES, SYNC_STORM"
like "$(says "$fw" IO_DOMINATED)" '^[0-9]+ % of the time is spent in I/O calls: its [0-9]+ opens, closes, file lookups \(metadata\) and syncs are as many as its [0-9]+ data calls or more: keep files open, sync less' \
  "its I/O time is its syncs, and it is told so (not \"fewer, larger\": each write is one record)"
like "$(advice "$dd")|$(says "$dd" IO_DOMINATED)" '^IO_DOMINATED\|[0-9]+ % of the time is spent in I/O calls: 3000 reads and writes moved 2.9 GiB \(1.0 MiB each on average\), few or large already: move less data' \
  "jsbob's dd bs=1M: its calls are large already, no SMALL_WRITES"
like "$(advice "$small")" '^(IO_DOMINATED )?SMALL_READS SMALL_WRITES$' "MPI-IO in 4 KiB pieces: SMALL_READS and SMALL_WRITES (no UNBALANCED_RANKS)"
is "$(q "SELECT count(*) FROM js.step_advice WHERE job_id = $coll AND (message LIKE '%fewer, larger%' OR code LIKE 'SMALL_%')")" 0 \
  "collective MPI-IO in 1 MiB pieces is not told to write fewer, larger pieces"
is "$(q "SELECT count(*) FROM js.step_advice WHERE job_id = $task AND code IN ('CPU_WAIT', 'IO_DOMINATED', 'MPI_DOMINATED')")" 0 \
  "the Nextflow-style task's commands, one after another in under a second each, get no share advice (no 'run fewer at once')"
done_testing
