#!/usr/bin/env bash
# A 2-rank MPI step (srun --mpi=pmix) under the plugin: it runs and communicates as without
# it, one step record with both ranks, and two profiles when the profiler is installed.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
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
out=$(cd "$work" && as_user jsalice timeout 120 srun --mpi=pmix -n2 --chdir="$work" ./ring 2>&1); st=$?
ok $st "srun --mpi=pmix -n2 exits 0"
is "$(grep '^rank' <<< "$out" | sort | tr '\n' ';')" "rank 0 of 2 sum 3;rank 1 of 2 sum 3;" "both ranks ran and reduced"
rec=$(job_dir "$(sed -n 's/^job //p' <<< "$out")")/step.0.localhost.json
wait_file "$rec"
is "$(jget "$rec" 'J(r["executable"], r["tasks"], r["local_tasks"], r["exit_code"], r["state"])')" "./ring 2 2 0 COMPLETED" "the step record of the MPI step"
is "$(jget "$rec" 'sorted(t["task_id"] for t in r["task_list"])')" "[0, 1]" "both ranks in task_list"
if profiler_on; then
  is "$(jget "$rec" 'r["profiled"]')" "true" "the MPI step was profiled"
  dir=$(dirname "$rec")/profiles
  is "$(jget "$dir/0.localhost.b1.json" 'sorted(x["mpi_rank"] for x in r["profiles"])')" "[0, 1]" "two profiles, one per rank, in the step's bundle"
else
  skip "profiled" "no profiler built"; skip "two profiles" "no profiler built"
fi
done_testing
