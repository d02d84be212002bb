#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the profiler now sees (issue 15), run for real and brought into JS_DB by the cluster's
# pipeline, read back through js.*:
# - fio with every engine (sync, psync, pvsync2, libaio, io_uring, posixaio, mmap): the file's
#   bytes in js.file_accesses are fio's own; mmap's file carries its mapped bytes;
# - a shell redirect's file written by the child shows the child's bytes;
# - I/O made with inline system calls (no wrapper sees it) shows as I/O the kernel counted beyond
#   the wrappers, in total and per slice (js.step_kernel_slices, the step endpoint); a step whose
#   I/O all went through wrappers shows (almost) none;
# - a Fortran MPI program on 2 nodes x 2 ranks: ranks, collectives, MPI_Init/Finalize apart;
# - the runtime share: a sleep is idle, nothing is missing.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline (transport/ or profile_ingest not built)"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 13
q() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
w=$(work_dir jsalice)
run() { # DIR sbatch-args...: submit as jsalice in DIR, wait for the job's end; prints its id
  local d=$1 j; shift
  j=$(cd "$d" && runuser -u jsalice -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable -o /dev/null "$@") &&
    wait_job_done "$j" 300 >/dev/null && echo "$j"
}
PROG=$JS_TOP_BUILDDIR/tests/profiler

# --- fio, one step per engine; a redirect; raw system calls; a sleep ---
engines="sync psync pvsync2 libaio io_uring posixaio mmap"
have_fio=no
command -v fio >/dev/null && have_fio=yes
cat > "$w/steps.sh" <<EOF
#!/bin/bash
if [ $have_fio = yes ]; then
  for e in $engines; do
    srun -N1 -n1 -J fio-\$e fio --name=w --filename=fio-\$e.dat --ioengine=\$e --size=8m --bs=64k --rw=write --direct=0 \\
      --name=r --stonewall --filename=fio-\$e.dat --ioengine=\$e --size=8m --bs=64k --rw=read --direct=0 \\
      --output-format=json --output=fio-\$e.json >/dev/null
  done
fi
srun -N1 -n1 -J redirect sh -c 'head -c 1000 /dev/zero > redir.dat'
srun -J raw -N2 -n2 sh -c 'exec $PROG/raw_io raw.\$SLURM_PROCID.dat 300000'
srun -N1 -n1 -J sleep sleep 2
EOF
chmod 755 "$w/steps.sh"
job=$(run "$w" -J coverage -N2 steps.sh)
ok $? "the job of fio, redirect, raw and sleep steps ran"
wait_pipeline 120 "$job"
ok $? "and reached JS_DB through the pipeline"

# step ids: the batch script's steps are numbered in the order it ran them
nfio=0
[ $have_fio = yes ] && nfio=$(wc -w <<< "$engines")
sid() {
  local i=0 e
  case $1 in
    fio-*) for e in $engines; do [ "fio-$e" = "$1" ] && echo $i; i=$((i + 1)); done ;;
    redirect) echo $((nfio)) ;;
    raw) echo $((nfio + 1)) ;;
    sleep) echo $((nfio + 2)) ;;
  esac
}
if [ $have_fio = yes ]; then
  fails=
  for e in $engines; do
    want=$(jq -c '[(.jobs[] | select(.jobname == "r") | .read.io_bytes), (.jobs[] | select(.jobname == "w") | .write.io_bytes)]' "$w/fio-$e.json")
    if [ "$e" = mmap ]; then
      got=$(q "SELECT '[' || sum(mapped_bytes) || ']' FROM js.file_accesses WHERE job_id = $job AND step_id = '$(sid fio-$e)' AND path = '$w/fio-$e.dat'")
      [ "$got" = "[16777216]" ] || fails="$fails $e:$got"
    else
      got=$(q "SELECT '[' || sum(bytes_read) || ',' || sum(bytes_written) || ']' FROM js.file_accesses WHERE job_id = $job AND step_id = '$(sid fio-$e)' AND path = '$w/fio-$e.dat'")
      [ "$got" = "$want" ] && [ "$want" = "[8388608,8388608]" ] || fails="$fails $e:$got/fio:$want"
    fi
  done
  is "$fails" "" "fio, every engine: the file's bytes in js.file_accesses are fio's own (8 MiB each way); mmap: 8 MiB mapped by each of its two jobs"
  is "$(q "SELECT count(*) FILTER (WHERE unattributed_write_bytes IS NULL OR unattributed_write_bytes > 1048576) FROM js.steps
            WHERE job_id = $job AND step_id IN ('$(sid fio-sync)', '$(sid fio-psync)', '$(sid fio-pvsync2)')")" 0 \
     "the synchronous fio steps: less than 1 MiB written that no wrapper saw (all of it went through them)"
else
  skip "fio's engines through the pipeline" "fio is not installed (tests/install-deps)"
  skip "fio's unattributed I/O" "fio is not installed"
fi
is "$(q "SELECT bytes_written FROM js.file_accesses WHERE job_id = $job AND step_id = '$(sid redirect)' AND path = '$w/redir.dat'")" 1000 \
   "the shell's redirect: the file shows the 1000 bytes its child wrote"
is "$(q "SELECT unattributed_write_bytes >= 300000, unattributed_read_bytes >= 300000, kernel_io_unknown FROM js.steps WHERE job_id = $job AND step_id = '$(sid raw)'")" "t|t|0" \
   "inline system calls: the step shows 300000 bytes written and read that no wrapper saw, the kernel's counts known for every process"
# per slice (profile format 5): the kernel's counts of the slices add up to the processes', on
# both nodes, and the step's page charts what no wrapper saw
is "$(q "SELECT k.w = p.w, k.r = p.r, k.u >= 600000, p.nodes FROM
           (SELECT sum(kernel_wchar) AS w, sum(kernel_rchar) AS r, sum(unattributed_write_bytes) AS u FROM js.step_kernel_slices
             WHERE job_id = $job AND step_id = '$(sid raw)') k,
           (SELECT sum(kernel_wchar) AS w, sum(kernel_rchar) AS r, count(DISTINCT node) AS nodes FROM js.processes
             WHERE job_id = $job AND step_id = '$(sid raw)') p")" "t|t|t|2" \
   "inline system calls on 2 nodes: the kernel's counts per slice add up to each process's, 600000 bytes written beyond the wrappers"
api=$(curl -s -G -u jsalice:jsalice "${JS_WEB_URL}cgi-bin/jobscreen.cgi" --data-urlencode q=step \
        --data-urlencode "job=$job" --data-urlencode "step=$(sid raw)")
is "$(jq '(.step.series.metrics.unattributed_write_bytes // [0]) | add' <<< "$api")" \
   "$(q "SELECT sum(unattributed_write_bytes) FROM js.step_kernel_slices WHERE job_id = $job AND step_id = '$(sid raw)'")" \
   "the step endpoint's slices carry the same unattributed bytes per slice as js.step_kernel_slices"
if [ $have_fio = yes ]; then
  is "$(q "SELECT coalesce(sum(unattributed_write_bytes), 0) < 1048576, sum(kernel_wchar) >= 3 * 8388608 FROM js.step_kernel_slices
            WHERE job_id = $job AND step_id IN ('$(sid fio-sync)', '$(sid fio-psync)', '$(sid fio-pvsync2)')")" "t|t" \
     "the synchronous fio steps per slice: the kernel saw their 8 MiB writes, less than 1 MiB of it beyond the wrappers"
else
  skip "fio's unattributed I/O per slice" "fio is not installed"
fi
is "$(q "SELECT idle_ns > 0.9 * wall_ns, compute_ns < 0.1 * wall_ns FROM js.steps WHERE job_id = $job AND step_id = '$(sid sleep)'")" "t|t" \
   "sleep 2: idle, not computing"
is "$(q "SELECT string_agg(metric, ' ' ORDER BY metric) FROM js.step_digest WHERE job_id = $job AND step_id = '$(sid sleep)'
          AND processes = 1 AND metric IN ('compute_ns', 'cpu_wait_ns', 'idle_ns', 'max_rss_kib', 'unattributed_read_bytes')")" \
   "compute_ns cpu_wait_ns idle_ns max_rss_kib unattributed_read_bytes" \
   "the step's digest has the runtime share, peak memory and the unattributed bytes of its process"

# --- Fortran MPI on 2 nodes x 2 ranks ---
if [ "${JS_HAVE_MPI_FORTRAN:-no}" = yes ]; then
  # one host for all nodes of this cluster: Open MPI's shared memory between "nodes" collides
  # (the same host name, segment names), with or without the profiler; TCP between all ranks
  mj=$(run "$w" -J ftn -N2 --ntasks-per-node=2 --wrap "OMPI_MCA_btl=self,tcp srun --mpi=pmix $PROG/mpi_fortran $w/ftn.data")
  ok $? "the Fortran MPI job ran on 2 nodes x 2 ranks"
  wait_pipeline 120 "$mj"
  is "$(q "SELECT count(DISTINCT node) || ':' || string_agg(mpi_rank || '/' || mpi_size, ',' ORDER BY mpi_rank) || ':' ||
              min(mpi_coll_calls) || '-' || max(mpi_coll_calls) || ':' || bool_and(mpi_setup_ns > 0)
            FROM js.processes WHERE job_id = $mj AND step_id = '0' AND mpi_rank IS NOT NULL")" "2:0/4,1/4,2/4,3/4:6-6:true" \
     "in JS_DB: two nodes, ranks 0-3 of 4, 6 collectives each (MPI_Init and MPI_Finalize not among them, their time apart)"
else
  skip "the Fortran MPI job" "no Fortran MPI compiler (configure)"
  skip "the Fortran MPI job in JS_DB" "no Fortran MPI compiler"
fi
done_testing
