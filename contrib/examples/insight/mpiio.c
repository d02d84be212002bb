/* SPDX-License-Identifier: GPL-2.0-or-later */
/* MPI-IO (tests/integration/57d): each rank writes N blocks of B bytes (collective or independent), then reads them back */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = atol(argv[2]), b = atol(argv[3]);
    int coll = !strcmp(argv[4], "coll");
    char *buf = malloc(b);
    memset(buf, 'a' + rank, b);
    MPI_File f;
    MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &f);
    for (long i = 0; i < n; i++) {
        MPI_Offset off = ((MPI_Offset)i * size + rank) * b;
        if (coll)
            MPI_File_write_at_all(f, off, buf, (int)b, MPI_BYTE, MPI_STATUS_IGNORE);
        else
            MPI_File_write_at(f, off, buf, (int)b, MPI_BYTE, MPI_STATUS_IGNORE);
    }
    MPI_File_sync(f);
    for (long i = 0; i < n; i++) {
        MPI_Offset off = ((MPI_Offset)i * size + rank) * b;
        if (coll)
            MPI_File_read_at_all(f, off, buf, (int)b, MPI_BYTE, MPI_STATUS_IGNORE);
        else
            MPI_File_read_at(f, off, buf, (int)b, MPI_BYTE, MPI_STATUS_IGNORE);
    }
    MPI_File_close(&f);
    free(buf);
    MPI_Finalize();
    return 0;
}
