#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A 2-rank MPI step across two nodes (srun --mpi=pmix -N2) under the plugin: it runs and
# communicates as without it, a step record on each node with its rank, and a profile per rank
# in its node's bundle when the profiler is installed.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
[ "${JS_HAVE_MPI:-no}" = yes ] || skip_all "built without MPI (no mpicc)"
plan 7
work=$(work_dir jsalice)
cat > "$work/ring.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int rank, size, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int one = rank + 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d sum %d\n", rank, size, sum);
    if (rank == 0)
        printf("job %s\n", getenv("SLURM_JOB_ID"));
    MPI_Finalize();
    return 0;
}
C
mpicc -o "$work/ring" "$work/ring.c"; ok $? "an MPI program compiles"
chown jsalice "$work/ring"
out=$(cd "$work" && as_user jsalice timeout 120 srun --mpi=pmix -N2 -n2 --chdir="$work" ./ring 2>&1); st=$?
ok $st "srun --mpi=pmix -N2 -n2 (a rank on each of two nodes) exits 0"
is "$(grep '^rank' <<< "$out" | sort | tr '\n' ';')" "rank 0 of 2 sum 3;rank 1 of 2 sum 3;" "both ranks ran and reduced"
job=$(sed -n 's/^job //p' <<< "$out")
read -r n1 n2 <<< "$(job_nodes "$job" | tr '\n' ' ')"
rec=$(job_dir "$job")/step.0.$n1.json rec2=$(job_dir "$job")/step.0.$n2.json
wait_file "$rec" && wait_file "$rec2"
is "$(jget "$rec" 'J(r["executable"], r["tasks"], r["local_tasks"], r["nodes"], r["exit_code"], r["state"])')" "./ring 2 1 2 0 COMPLETED" "the step record of the MPI step on its first node"
is "$(jget "$rec" 'sorted(t["task_id"] for t in r["task_list"])') $(jget "$rec2" 'sorted(t["task_id"] for t in r["task_list"])')" "[0] [1]" "a rank in each node's task_list"
if profiler_on; then
  is "$(jget "$rec" 'r["profiled"]')" "true" "the MPI step was profiled"
  dir=$(dirname "$rec")/profiles
  is "$(jget <(bundle_json "$dir/0.$n1.b1.json") 'sorted(x["mpi_rank"] for x in r["profiles"])') $(jget <(bundle_json "$dir/0.$n2.b1.json") 'sorted(x["mpi_rank"] for x in r["profiles"])')" \
     "[0] [1]" "a profile per rank, in the bundle of its node"
else
  skip "profiled" "no profiler built"; skip "two profiles" "no profiler built"
fi
done_testing
