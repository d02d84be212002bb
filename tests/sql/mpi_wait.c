/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpi_wait: 2 ranks that spend about half their time waiting in MPI (for the runtime-shares
 * report): each rank in turn sleeps while the other waits for its message, for ROUNDS rounds.
 */
#include <mpi.h>
#include <time.h>

#define ROUNDS 4

static void nap(void)
{
    struct timespec ts = { 0, 250 * 1000 * 1000 };
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    int rank, size, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        MPI_Finalize();
        return 2;
    }
    for (int i = 0; i < ROUNDS; i++) {
        if (rank == 0) {
            nap();
            MPI_Send(&v, 1, MPI_INT, 1, i, MPI_COMM_WORLD);
            MPI_Recv(&v, 1, MPI_INT, 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&v, 1, MPI_INT, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            nap();
            MPI_Send(&v, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
