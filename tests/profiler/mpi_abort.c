/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mpi_abort DIR: each rank writes 1 MiB to DIR/rank<r>.dat, then rank 1 calls MPI_Abort (code 3)
 * while the others wait to be killed (tests/integration/39). */
#include <mpi.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    static char buf[1 << 20];
    char path[4096];
    int rank = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc != 2)
        MPI_Abort(MPI_COMM_WORLD, 2);
    snprintf(path, sizeof path, "%s/rank%d.dat", argv[1], rank);
    memset(buf, 'm', sizeof buf);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, buf, sizeof buf) != (ssize_t)sizeof buf || close(fd) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (;;)
        pause();
}
