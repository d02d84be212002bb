/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inject: the disturber of bench/insight, run as a Slurm job step of its own (srun) so that
 * the profiler records it and it shows in the victims' background. It loads the machine for
 * SECONDS of wall time, then exits; the campaign starts it at the chosen delay after the victim.
 *
 *   inject --mode io  --duration S [--threads N] [--mib MIB] --dir DIR
 *            N writers, each writing MIB MiB files in 1 MiB writes into DIR, fsync, close, again
 *   inject --mode cpu --duration S [--threads N]
 *            N busy threads (one per core of the machine by default)
 *   inject --mode mem --duration S [--threads N] [--mib MIB]
 *            N threads streaming over an array of MIB MiB each (read, add, write back)
 *   inject --mode mpi --duration S [--kib KIB]          (under srun --mpi=pmix, with MPI)
 *            every rank in an MPI_Alltoall of KIB KiB per pair, then a sendrecv of as much
 *            with its ring neighbour, until rank 0's clock says the time is up
 *
 * Prints one line: inject: job J mode M duration S s (and per mode what it moved).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef JS_INJECT_MPI
#include <mpi.h>
#endif

#include "work.h"

static double t_end;
static const char *io_dir;
static long io_mib = 64, mem_mib = 256;

struct worker {
    pthread_t t;
    int k;
    uint64_t done; /* MiB written, MiB streamed, or work units */
};

static void *io_worker(void *arg)
{
    struct worker *w = arg;
    char *buf = malloc(1 << 20), path[4096];
    if (!buf)
        return NULL;
    memset(buf, 'i', 1 << 20);
    snprintf(path, sizeof path, "%s/inject.%ld.%d.dat", io_dir, (long)getpid(), w->k);
    while (js_now() < t_end) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) {
            perror(path);
            break;
        }
        for (long m = 0; m < io_mib && js_now() < t_end; m++) {
            if (write(fd, buf, 1 << 20) < 0) {
                perror("write");
                break;
            }
            w->done++;
        }
        fsync(fd);
        close(fd);
    }
    unlink(path);
    free(buf);
    return NULL;
}

static void *cpu_worker(void *arg)
{
    struct worker *w = arg;
    volatile double sink = 0;
    /* small chunks of work, so that the end comes within a few ms of the time */
    while (js_now() < t_end) {
        sink += js_work(10, 1.0 + w->k);
        w->done += 10;
    }
    return NULL;
}

static void *mem_worker(void *arg)
{
    struct worker *w = arg;
    size_t n = (size_t)mem_mib << 17; /* uint64_t per MiB: 2^17 */
    uint64_t *a = malloc(n * sizeof *a);
    if (!a)
        return NULL;
    memset(a, 1, n * sizeof *a);
    while (js_now() < t_end) {
        for (size_t i = 0; i < n; i++)
            a[i] += i;
        w->done += (uint64_t)mem_mib;
    }
    free(a);
    return NULL;
}

#ifdef JS_INJECT_MPI
static uint64_t mpi_storm(double duration, long kib, int *nranks)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    *nranks = size;
    size_t per = (size_t)kib << 10;
    char *sb = malloc(per * (size_t)size), *rb = malloc(per * (size_t)size);
    if (!sb || !rb)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(sb, 'm', per * (size_t)size);
    MPI_Barrier(MPI_COMM_WORLD);
    double end = js_now() + duration;
    uint64_t rounds = 0;
    int go = 1;
    while (go) {
        MPI_Alltoall(sb, (int)per, MPI_BYTE, rb, (int)per, MPI_BYTE, MPI_COMM_WORLD);
        MPI_Sendrecv(sb, (int)per, MPI_BYTE, (rank + 1) % size, 3, rb, (int)per, MPI_BYTE, (rank + size - 1) % size, 3,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        rounds++;
        /* one clock decides, so that every rank leaves after the same round */
        go = rank == 0 ? js_now() < end : 0;
        MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    free(sb);
    free(rb);
    return rounds;
}
#endif

static void usage(void)
{
    fprintf(stderr, "usage: inject --mode io|cpu|mem|mpi --duration SECONDS [--threads N] [--mib MIB] [--kib KIB] [--dir DIR]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *mode = NULL;
    double duration = 0;
    long threads = sysconf(_SC_NPROCESSORS_ONLN), kib = 1024;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--mode") == 0)
            mode = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--duration") == 0)
            duration = strtod(argv[++i], NULL);
        else if (i + 1 < argc && strcmp(argv[i], "--threads") == 0)
            threads = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--mib") == 0)
            io_mib = mem_mib = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--kib") == 0)
            kib = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--dir") == 0)
            io_dir = argv[++i];
        else
            usage();
    }
    if (!mode || duration <= 0 || threads <= 0 || threads > 256 || io_mib <= 0 || kib <= 0)
        usage();
    const char *job = getenv("SLURM_JOB_ID");
    if (!job)
        job = "-";

    if (strcmp(mode, "mpi") == 0) {
#ifdef JS_INJECT_MPI
        MPI_Init(&argc, &argv);
        int n, rank;
        uint64_t rounds = mpi_storm(duration, kib, &n);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0)
            printf("inject: job %s mode mpi duration %.1f s ranks %d kib %ld rounds %llu\n", job, duration, n, kib,
                   (unsigned long long)rounds);
        MPI_Finalize();
        return 0;
#else
        fprintf(stderr, "inject: built without MPI: no mode mpi\n");
        return 2;
#endif
    }

    void *(*fn)(void *) = NULL;
    if (strcmp(mode, "io") == 0 && io_dir)
        fn = io_worker;
    else if (strcmp(mode, "cpu") == 0)
        fn = cpu_worker;
    else if (strcmp(mode, "mem") == 0)
        fn = mem_worker;
    else
        usage();
    struct worker *w = calloc((size_t)threads, sizeof *w);
    if (!w)
        return 1;
    t_end = js_now() + duration;
    for (long k = 0; k < threads; k++) {
        w[k].k = (int)k;
        if (pthread_create(&w[k].t, NULL, fn, &w[k]) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    uint64_t done = 0;
    for (long k = 0; k < threads; k++) {
        pthread_join(w[k].t, NULL);
        done += w[k].done;
    }
    printf("inject: job %s mode %s duration %.1f s threads %ld %s %llu\n", job, mode, duration, threads,
           fn == cpu_worker ? "work_units" : "mib", (unsigned long long)done);
    free(w);
    return 0;
}
