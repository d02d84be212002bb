/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpi_segments [N]: 2 ranks (or more). Loop 1: N iterations of about 20 ms of arithmetic then an
 * MPI_Allreduce of one double; in iterations 30-34 rank 0 also sleeps 200 ms (an interfered
 * segment: every rank waits for it in the allreduce). Loop 2: 10 iterations with an allreduce
 * of 4 doubles (another signature). Then an MPI_Barrier on a communicator of one rank (no
 * boundary: not global) and an MPI_Iallreduce waited for (no boundary: non-blocking).
 * Test profiler/mpi-segments reads the segments the profiler made of it.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double compute_ms(double x, int ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do {
        for (int i = 0; i < 100000; i++)
            x = x * 1.0000001 + 1e-9;
        clock_gettime(CLOCK_MONOTONIC, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
    return x;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n = argc > 1 ? atoi(argv[1]) : 60;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double x = 1, in[4] = {1, 2, 3, 4}, out[4];
    for (int i = 0; i < n; i++) {
        x = compute_ms(x, 20);
        if (rank == 0 && i >= 30 && i < 35) {
            struct timespec z = {0, 200000000};
            nanosleep(&z, NULL);
        }
        in[0] = x;
        MPI_Allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    for (int i = 0; i < 10; i++) {
        x = compute_ms(x, 5);
        MPI_Allreduce(in, out, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Comm self;
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &self);
    MPI_Barrier(self);
    MPI_Comm_free(&self);
    MPI_Request rq;
    MPI_Iallreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("%g\n", x > 0 ? 1.0 : 0.0);
    MPI_Finalize();
    return 0;
}
