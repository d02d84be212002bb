/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_mpi N: 2 ranks; rank 0 sends N messages of 8 B with MPI_Send, rank 1 receives them;
 * rank 0 prints the mean ns per MPI_Send.
 * bench_mpi allreduce N: N MPI_Allreduce of 8 B on any number of ranks (each ends an MPI segment under the
 * profiler); rank 0 prints the mean ns per call.
 * bench_mpi compute: 200 blocks of about 5-10 ms of arithmetic, each followed by an
 * MPI_Allreduce of 8 B (an MPI+compute application); rank 0 prints the loop's seconds.
 * Used by bench/profiler/run.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double compute(double x)
{
    for (int i = 0; i < 2000000; i++)
        x = x * 1.0000001 + 1e-9;
    return x;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = argc > 1 ? atol(argv[1]) : 100000;
    double buf = 0;
    if (argc > 2 && strcmp(argv[1], "allreduce") == 0) {
        long k = atol(argv[2]);
        double x = rank, y = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < k; i++)
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double t1 = MPI_Wtime();
        if (rank == 0)
            printf("%.2f\n", (t1 - t0) * 1e9 / (double)k);
        MPI_Finalize();
        return 0;
    }
    if (size != 2) {
        MPI_Finalize();
        return 2;
    }
    if (argc > 1 && strcmp(argv[1], "compute") == 0) {
        double x = rank, y = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < 200; i++) {
            x = compute(x);
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        double t1 = MPI_Wtime();
        if (rank == 0) /* seconds of the compute+allreduce loop; y keeps the loop alive */
            printf("%.6f\n", (t1 - t0) + (y == 42.0 ? 1e-12 : 0.0));
        MPI_Finalize();
        return 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < n; i++) {
        if (rank == 0)
            MPI_Send(&buf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
        else
            MPI_Recv(&buf, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t1 = MPI_Wtime();
    if (rank == 0)
        printf("%.2f\n", (t1 - t0) * 1e9 / (double)n);
    MPI_Finalize();
    return 0;
}
