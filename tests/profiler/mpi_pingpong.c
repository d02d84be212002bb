/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpi_pingpong: 2 ranks, known traffic.
 *  rank 0: MPI_Send 10 x 1000 MPI_INT (4000 B) to rank 1; MPI_Recv 5 x 100 MPI_DOUBLE (800 B).
 *  rank 1: the matching 10 MPI_Recv (4000 B) and 5 MPI_Send (800 B).
 *  both: 3 MPI_Barrier; 2 MPI_Allreduce of 4 MPI_INT (16 B); 1 MPI_Bcast of 16 MPI_CHAR (16 B).
 * Per rank: coll calls 6, coll bytes 2*16 + 16 = 48.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, ibuf[1000] = {0}, red[4] = {1, 2, 3, 4}, sum[4], max[4];
    double dbuf[100] = {0};
    char cbuf[16] = "0123456789abcde";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        MPI_Finalize();
        return 2;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < 10; i++) {
        if (rank == 0)
            MPI_Send(ibuf, 1000, MPI_INT, 1, i, MPI_COMM_WORLD);
        else
            MPI_Recv(ibuf, 1000, MPI_INT, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < 5; i++) {
        if (rank == 1)
            MPI_Send(dbuf, 100, MPI_DOUBLE, 0, 100 + i, MPI_COMM_WORLD);
        else
            MPI_Recv(dbuf, 100, MPI_DOUBLE, 1, 100 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(red, sum, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(red, max, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Bcast(cbuf, 16, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return sum[3] == 8 && max[3] == 4 && cbuf[0] == '0' ? 0 : 1;
}
