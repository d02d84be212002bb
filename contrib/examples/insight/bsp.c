/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bsp SECONDS: a bulk-synchronous MPI kernel (the demo's calm and disturbed runs, tests insight/verdicts and
 * 58e). Until SECONDS have passed (rank 0's clock, agreed in the reduction), each iteration
 * computes a fixed amount of work (not a fixed time: another job taking the CPUs makes it
 * longer) and ends in an MPI_Allreduce, a segment boundary. It does no file I/O. An iteration is about 100 ms of work
 * here, as the validation campaign's kernel: at a few ms a segment, the test cluster's own
 * daemons (on the same two cores as the ranks) hold up enough segments to read as interference
 * (reference 001's caveat on codes of a high collective rate).
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double seconds = argc > 1 ? atof(argv[1]) : 30, t0 = MPI_Wtime(), done = 0;
    volatile double x = 1;
    while (!done) {
        for (int i = 0; i < 22000000; i++)
            x = x * 1.0000001 + 1e-9;
        double mine = MPI_Wtime() - t0 >= seconds;
        MPI_Allreduce(&mine, &done, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return x > 0 ? 0 : 1;
}
