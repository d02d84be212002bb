/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bsp_kernel: the bulk-synchronous MPI victim of bench/insight. Each iteration computes a
 * fixed amount of work (work.h), exchanges a small halo with both ring neighbours and ends in
 * an MPI_Allreduce: the segments between those collectives are what the single-run
 * interference estimate measures.
 *
 *   bsp_kernel --iters N --work UNITS [--halo BYTES]
 *
 * Rank 0 prints one line:
 *   bsp_kernel: job J ranks P iterations N work U wall S s median_iter M s excess_pct E
 * where E is the kernel's own view of its lost time: the sum over iterations of the time above
 * the median iteration, as % of the wall time (a reference for the estimate, not the label).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void usage(void)
{
    fprintf(stderr, "usage: bsp_kernel --iters N --work UNITS [--halo BYTES]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    long iters = 0, halo = 4096;
    unsigned long long work = 0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--iters") == 0)
            iters = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--work") == 0)
            work = strtoull(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--halo") == 0)
            halo = strtol(argv[++i], NULL, 10);
        else
            usage();
    }
    if (iters <= 0 || work == 0 || halo <= 0)
        usage();

    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    char *out = calloc(2, (size_t)halo), *in = calloc(2, (size_t)halo);
    double *dt = calloc((size_t)iters, sizeof *dt);
    if (!out || !in || !dt)
        MPI_Abort(MPI_COMM_WORLD, 1);

    /* start together, so that the wall time is the kernel's and not the launch's skew */
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = js_now(), prev = t0, x = 1.0 + rank;
    for (long it = 0; it < iters; it++) {
        x = js_work(work, x);
        memcpy(out, &x, sizeof x);
        MPI_Sendrecv(out, (int)halo, MPI_BYTE, right, 1, in, (int)halo, MPI_BYTE, left, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(out + halo, (int)halo, MPI_BYTE, left, 2, in + halo, (int)halo, MPI_BYTE, right, 2,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double local = x, sum;
        MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double now = js_now();
        dt[it] = now - prev;
        prev = now;
    }
    double wall = prev - t0;

    if (rank == 0) {
        double *s = malloc((size_t)iters * sizeof *s);
        if (!s)
            MPI_Abort(MPI_COMM_WORLD, 1);
        memcpy(s, dt, (size_t)iters * sizeof *s);
        qsort(s, (size_t)iters, sizeof *s, cmp_double);
        double med = iters % 2 ? s[iters / 2] : (s[iters / 2 - 1] + s[iters / 2]) / 2, excess = 0;
        for (long it = 0; it < iters; it++)
            if (dt[it] > med)
                excess += dt[it] - med;
        const char *job = getenv("SLURM_JOB_ID");
        printf("bsp_kernel: job %s ranks %d iterations %ld work %llu wall %.3f s median_iter %.4f s excess_pct %.2f\n",
               job ? job : "-", size, iters, work, wall, med, wall > 0 ? 100 * excess / wall : 0);
        free(s);
    }
    free(out);
    free(in);
    free(dt);
    MPI_Finalize();
    return 0;
}
