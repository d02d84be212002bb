/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_io: the loops that bench/profiler/run times with and without a preloaded profiler
 * (jobscreen's, Darshan's). Files go to $TMPDIR (default /tmp): a scratch directory, since
 * Darshan ignores /dev and other system paths.
 *
 *   bench_io OP N        N calls of OP in a loop after a short untimed warm-up, in 10 parts;
 *                        prints the process CPU ns per call of the fastest part, then of the
 *                        whole loop (CPU time: the machine is shared, and time spent
 *                        descheduled is not the profiler's; the fastest part is the one least
 *                        disturbed by other processes' cache damage). OP:
 *     write      1 B write() to /dev/null          read       1 B read() from /dev/zero
 *     pwrite     1 B pwrite() at offset 0 of a regular file
 *     pread      1 B pread() at offset 0 of a regular file
 *     writefile  1 B write() appended to a regular file
 *     openclose  open()+close() of an existing regular file (one pair per call)
 *     fwrite     1 B fwrite() to a /dev/null stream
 *     fwritefile 1 B fwrite() to a regular file's stream
 *   bench_io image       a tiny process image: creates a file, writes, reads it back, closes,
 *                        writes 1 B to /dev/null, exits (for the cost per process image)
 *   bench_io spawn K PRELOAD PROG [ARG...]
 *                        runs PROG K times one after another with LD_PRELOAD=PRELOAD added to
 *                        the environment (empty: no LD_PRELOAD), waits for each; prints the
 *                        children's CPU ms (user+system, RUSAGE_CHILDREN) per run, then their
 *                        wall ms per run. Run this driver itself without LD_PRELOAD.
 *   bench_io steady SECONDS
 *                        steady small I/O for SECONDS: every 20 ms a 512 B pwrite and pread of
 *                        a regular file and a 1 B write to /dev/null (for the spool bytes)
 *   bench_io timed N BYTES
 *                        N writes of BYTES to a file, an fdatasync after every 64th, each call
 *                        (open and close too) timed here: prints their total ns (the reference
 *                        for the profiler's time in calls)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void scratch(char *path, size_t len, const char *what)
{
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(path, len, "%s/bench_io.%s.%d", tmp, what, (int)getpid());
}

#define CHUNKS 10

enum op { OP_WRITE, OP_READ, OP_PWRITE, OP_PREAD, OP_WRITEFILE, OP_OPENCLOSE, OP_FWRITE, OP_FWRITEFILE };
static const char *const op_names[] = {"write", "read", "pwrite", "pread", "writefile",
                                       "openclose", "fwrite", "fwritefile"};

/* one call of OP; returns 0 on success */
static inline int call(enum op op, int fd, FILE *fp, const char *path)
{
    char c = 'x';
    switch (op) {
    case OP_WRITE:
    case OP_WRITEFILE:
        return write(fd, &c, 1) == 1 ? 0 : -1;
    case OP_READ:
        return read(fd, &c, 1) == 1 ? 0 : -1;
    case OP_PWRITE:
        return pwrite(fd, &c, 1, 0) == 1 ? 0 : -1;
    case OP_PREAD:
        return pread(fd, &c, 1, 0) == 1 ? 0 : -1;
    case OP_FWRITE:
    case OP_FWRITEFILE:
        return fwrite(&c, 1, 1, fp) == 1 ? 0 : -1;
    case OP_OPENCLOSE: {
        int f = open(path, O_RDONLY);
        return f >= 0 && close(f) == 0 ? 0 : -1;
    }
    }
    return -1;
}

static int loop(const char *name, long n)
{
    int k = -1;
    for (int i = 0; i < (int)(sizeof op_names / sizeof op_names[0]); i++)
        if (strcmp(name, op_names[i]) == 0)
            k = i;
    if (k < 0 || n <= 0)
        return 2;
    enum op op = (enum op)k;
    char path[4096];
    scratch(path, sizeof path, name);
    int fd = -1;
    FILE *fp = NULL;
    switch (op) {
    case OP_WRITE:
        fd = open("/dev/null", O_WRONLY);
        break;
    case OP_READ:
        fd = open("/dev/zero", O_RDONLY);
        break;
    case OP_FWRITE:
        fp = fopen("/dev/null", "w");
        break;
    case OP_FWRITEFILE:
        fp = fopen(path, "w");
        break;
    case OP_OPENCLOSE:
        fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
        break;
    default:
        fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
        if (fd >= 0 && write(fd, "x", 1) != 1)
            return 1;
    }
    if (fd < 0 && fp == NULL) {
        perror(path);
        return 1;
    }
    if (op == OP_OPENCLOSE) {
        close(fd);
        fd = -1;
    }
    long warm = n < 1000 ? n : 1000;
    for (long i = 0; i < warm; i++)
        if (call(op, fd, fp, path) != 0)
            return 1;
    /* the loop in CHUNKS parts, each timed: the fastest part is the least disturbed by the
     * other processes of a shared machine (their cache and TLB damage counts as our CPU time) */
    long chunks = n >= CHUNKS * 100 ? CHUNKS : 1, per = n / chunks;
    double best = 0, total = 0;
    for (long c = 0; c < chunks; c++) {
        double t0 = cpu_ns();
        for (long i = 0; i < per; i++)
            if (call(op, fd, fp, path) != 0)
                return 1;
        double t = cpu_ns() - t0;
        total += t;
        if (c == 0 || t < best)
            best = t;
    }
    if (fp)
        fclose(fp);
    if (fd >= 0)
        close(fd);
    if (op != OP_WRITE && op != OP_READ && op != OP_FWRITE)
        unlink(path);
    printf("%.2f %.2f\n", best / (double)per, total / (double)(per * chunks));
    return 0;
}

static int image(void)
{
    char path[4096], buf[256];
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(path, sizeof path, "%s/bench_io.image", tmp);
    memset(buf, 'x', sizeof buf);
    int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
    if (fd < 0 || write(fd, buf, sizeof buf) != (ssize_t)sizeof buf || pread(fd, buf, sizeof buf, 0) != (ssize_t)sizeof buf ||
        close(fd) != 0)
        return 1;
    int nul = open("/dev/null", O_WRONLY);
    if (nul < 0 || write(nul, buf, 1) != 1)
        return 1;
    close(nul);
    return 0;
}

static int spawn(long k, const char *preload, char **argv)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    char *pre = malloc(strlen(preload) + sizeof "LD_PRELOAD=");
    if (!env || !pre)
        return 1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
            env[m++] = environ[i];
    if (preload[0]) {
        sprintf(pre, "LD_PRELOAD=%s", preload);
        env[m++] = pre;
    }
    env[m] = NULL;
    double w0 = wall_ns();
    for (long i = 0; i < k; i++) {
        pid_t pid;
        int st;
        if (posix_spawn(&pid, argv[0], NULL, NULL, argv, env) != 0) {
            perror(argv[0]);
            return 1;
        }
        if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "bench_io spawn: %s failed\n", argv[0]);
            return 1;
        }
    }
    double w1 = wall_ns();
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    printf("%.4f %.4f\n", cpu / (double)k, (w1 - w0) / 1e6 / (double)k);
    return 0;
}

static int steady(double seconds)
{
    char path[4096], buf[512];
    scratch(path, sizeof path, "steady");
    memset(buf, 'x', sizeof buf);
    int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
    int nul = open("/dev/null", O_WRONLY);
    if (fd < 0 || nul < 0)
        return 1;
    double end = wall_ns() + seconds * 1e9;
    struct timespec d = {0, 20000000};
    while (wall_ns() < end) {
        if (pwrite(fd, buf, sizeof buf, 0) != (ssize_t)sizeof buf || pread(fd, buf, sizeof buf, 0) != (ssize_t)sizeof buf ||
            write(nul, buf, 1) != 1)
            return 1;
        nanosleep(&d, NULL);
    }
    close(fd);
    close(nul);
    unlink(path);
    return 0;
}

/* The reference for the profiler's times: n writes of bytes each to a scratch file, an
 * fdatasync after every 64th (slow, uneven calls: what sampling got wrong), the open, close and
 * unlink, each call timed here by CLOCK_MONOTONIC. Prints the calls' total in ns. */
static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int timed(long n, long bytes)
{
    char path[4096];
    scratch(path, sizeof path, "timed");
    char *buf = calloc(1, (size_t)bytes);
    if (buf == NULL)
        return 1;
    uint64_t sum = 0, t = mono_ns();
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    sum += mono_ns() - t;
    if (fd < 0)
        return 1;
    for (long i = 0; i < n; i++) {
        t = mono_ns();
        if (write(fd, buf, (size_t)bytes) != bytes)
            return 1;
        sum += mono_ns() - t;
        if (i % 64 == 63) {
            t = mono_ns();
            fdatasync(fd);
            sum += mono_ns() - t;
        }
    }
    t = mono_ns();
    close(fd);
    unlink(path);
    sum += mono_ns() - t;
    printf("%llu\n", (unsigned long long)sum);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "timed") == 0)
        return timed(atol(argv[2]), atol(argv[3]));
    if (argc == 2 && strcmp(argv[1], "image") == 0)
        return image();
    if (argc >= 5 && strcmp(argv[1], "spawn") == 0)
        return spawn(atol(argv[2]), argv[3], argv + 4);
    if (argc == 3 && strcmp(argv[1], "steady") == 0)
        return steady(atof(argv[2]));
    if (argc == 3)
        return loop(argv[1], atol(argv[2]));
    fprintf(stderr, "usage: bench_io OP N | image | spawn K PRELOAD PROG [ARG...] | steady SECONDS | timed N BYTES\n");
    return 2;
}
