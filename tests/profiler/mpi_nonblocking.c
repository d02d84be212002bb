/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpi_nonblocking MODE [FILE]: non-blocking MPI with known traffic, ranks in pairs (0-1, 2-3, ...;
 * an even number of ranks). Each mode does only what it says, so that the time of its waits can
 * be checked against the class it belongs to.
 *  barriers   exactly 3 MPI_Barrier: coll calls 3 (MPI_Init and MPI_Finalize are not collectives)
 *  iallreduce rank 0 sleeps 300 ms, then every rank does MPI_Iallreduce of 4 ints (16 B) and
 *             MPI_Wait: the other ranks wait >= 300 ms, all of it collective time (allreduce),
 *             none point-to-point
 *  p2p        even rank: MPI_Isend 100 ints (400 B), MPI_Issend 200 (800 B), MPI_Ibsend 50
 *             (200 B), MPI_Irsend 25 (100 B): sends 4 calls 1500 B; odd rank: the 4 matching
 *             MPI_Irecv (recv 4 calls 1500 B), posted before 1 MPI_Barrier that orders the
 *             ready send; both MPI_Waitall
 *  coll       each non-blocking collective once, on 4 ints unless said: MPI_Ibarrier (completed
 *             with an MPI_Test loop), Ibcast 16 chars (16 B), Ireduce (16), Iallreduce (16),
 *             Iallgather 2 ints (8), Igather 2 ints (8), Iscatter 2 ints (8), Ialltoall 1 int per
 *             rank (4 x size), Ireduce_scatter_block 1 int per rank (4 x size), Ireduce_scatter
 *             1 int per rank (4 x size), each with MPI_Wait; then Iscan (16) and Iexscan (16)
 *             completed by one MPI_Waitall. Per kind: barrier 1, bcast 1/16, reduce 1/16,
 *             allreduce 1/16, allgather 1/8, gather 1/8, scatter 1/8, alltoall 1/4n,
 *             reduce_scatter 2/8n, other 2/32: 12 calls, 104 + 12n B
 *  io FILE    MPI_File_open; MPI_File_iwrite_at 100 ints (400 B) at rank*400, MPI_File_iwrite_at_all
 *             at 400n + rank*400, MPI_File_seek to 800n + rank*400 and MPI_File_iwrite; then
 *             MPI_File_iread_at, MPI_File_iread_at_all, MPI_File_seek + MPI_File_iread of the same,
 *             each with MPI_Wait; MPI_File_close: write 3 calls 1200 B, read 3 calls 1200 B,
 *             collective 2, meta 4 (open, 2 seeks, close)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

static int fail(const char *what)
{
    fprintf(stderr, "mpi_nonblocking: rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
}

static int p2p(void)
{
    int a[100], b[200], c[50], d[25];
    MPI_Request rq[4];
    int peer = rank ^ 1;
    static char bsend[4096];
    MPI_Buffer_attach(bsend, sizeof bsend);
    if (rank % 2 == 1) {
        MPI_Irecv(a, 100, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq[0]);
        MPI_Irecv(b, 200, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
        MPI_Irecv(c, 50, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[2]);
        MPI_Irecv(d, 25, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[3]);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        for (int i = 0; i < 100; i++)
            a[i] = i;
        memset(b, 0, sizeof b);
        memset(c, 0, sizeof c);
        memset(d, 0, sizeof d);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Isend(a, 100, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq[0]);
        MPI_Issend(b, 200, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
        MPI_Ibsend(c, 50, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[2]);
        MPI_Irsend(d, 25, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[3]);
    }
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    void *buf;
    int n;
    MPI_Buffer_detach(&buf, &n);
    return rank % 2 == 1 && a[99] != 99 ? fail("p2p data") : 0;
}

static int coll(void)
{
    int in[4] = {1, 2, 3, 4}, out[4], g[2 * 64], two[2] = {rank, rank}, *all = calloc((size_t)size * 2, sizeof(int));
    int *one = calloc((size_t)size, sizeof(int)), *cnt = calloc((size_t)size, sizeof(int)), r1, flag = 0;
    char cbuf[16] = "0123456789abcde";
    MPI_Request rq, two_rq[2];
    if (size > 64 || !all || !one || !cnt)
        return fail("coll: too many ranks");
    for (int i = 0; i < size; i++)
        cnt[i] = 1;
    MPI_Ibarrier(MPI_COMM_WORLD, &rq);
    while (!flag)
        MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
    MPI_Ibcast(cbuf, 16, MPI_CHAR, 0, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Ireduce(in, out, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Iallreduce(in, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Iallgather(two, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Igather(two, 2, MPI_INT, g, 2, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Iscatter(all, 2, MPI_INT, two, 2, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Ialltoall(one, 1, MPI_INT, cnt, 1, MPI_INT, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    for (int i = 0; i < size; i++)
        one[i] = cnt[i] = 1;
    MPI_Ireduce_scatter_block(one, &r1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Ireduce_scatter(one, &r1, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Iscan(in, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &two_rq[0]);
    MPI_Iexscan(in, g, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &two_rq[1]);
    MPI_Waitall(2, two_rq, MPI_STATUSES_IGNORE);
    return r1 != size || out[3] != 4 * (rank + 1) ? fail("coll data") : 0;
}

static int io(const char *path)
{
    int w[100], r[100];
    MPI_File fh;
    MPI_Request rq;
    MPI_Offset n = size, me = rank;
    for (int i = 0; i < 100; i++)
        w[i] = rank * 1000 + i;
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) != MPI_SUCCESS)
        return fail("MPI_File_open");
    MPI_File_iwrite_at(fh, me * 400, w, 100, MPI_INT, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_File_iwrite_at_all(fh, 400 * n + me * 400, w, 100, MPI_INT, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_File_seek(fh, 800 * n + me * 400, MPI_SEEK_SET);
    MPI_File_iwrite(fh, w, 100, MPI_INT, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_File_iread_at(fh, me * 400, r, 100, MPI_INT, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_File_iread_at_all(fh, 400 * n + me * 400, r, 100, MPI_INT, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_File_seek(fh, 800 * n + me * 400, MPI_SEEK_SET);
    MPI_File_iread(fh, r, 100, MPI_INT, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    return r[99] != rank * 1000 + 99 ? fail("io data") : 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "";
    int rc = 0;
    if (size % 2 != 0)
        rc = fail("an even number of ranks is needed");
    else if (strcmp(mode, "barriers") == 0)
        for (int i = 0; i < 3; i++)
            MPI_Barrier(MPI_COMM_WORLD);
    else if (strcmp(mode, "iallreduce") == 0) {
        int in[4] = {1, 2, 3, 4}, out[4];
        MPI_Request rq;
        if (rank == 0)
            usleep(300000);
        MPI_Iallreduce(in, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        rc = out[3] != 4 * size;
    } else if (strcmp(mode, "p2p") == 0)
        rc = p2p();
    else if (strcmp(mode, "coll") == 0)
        rc = coll();
    else if (strcmp(mode, "io") == 0 && argc > 2)
        rc = io(argv[2]);
    else
        rc = fail("usage: mpi_nonblocking barriers|iallreduce|p2p|coll|io FILE");
    MPI_Finalize();
    return rc;
}
