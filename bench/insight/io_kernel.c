/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_kernel: the I/O victim of bench/insight, a periodic writer. Each cycle computes a fixed
 * amount of work (work.h), writes MIB MiB into a file of the directory (open, 1 MiB writes,
 * optionally fsync, close) and sleeps SLEEP ms. A fixed number of cycles, not a fixed time, so
 * that interference on the CPU or the file system lengthens the run.
 *
 *   io_kernel --dir DIR --cycles N --mib MIB [--work UNITS] [--sleep-ms MS] [--fsync]
 *   io_kernel --calibrate MS      prints the work units that take MS ms here now (the campaign
 *                                 calibrates once, unloaded, and gives every run the same units)
 *
 * Prints one line:
 *   io_kernel: job J cycles N mib M wall S s write_s W s
 * (write_s: the time in open/write/fsync/close, as seen here).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "work.h"

static void usage(void)
{
    fprintf(stderr, "usage: io_kernel --dir DIR --cycles N --mib MIB [--work UNITS] [--sleep-ms MS] [--fsync]\n"
                    "       io_kernel --calibrate MS\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *dir = NULL;
    long cycles = 0, mib = 0, sleep_ms = 0;
    unsigned long long work = 0;
    int do_fsync = 0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--calibrate") == 0) {
            printf("%llu\n", (unsigned long long)js_work_calibrate(strtod(argv[i + 1], NULL)));
            return 0;
        } else if (i + 1 < argc && strcmp(argv[i], "--dir") == 0)
            dir = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--cycles") == 0)
            cycles = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--mib") == 0)
            mib = strtol(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--work") == 0)
            work = strtoull(argv[++i], NULL, 10);
        else if (i + 1 < argc && strcmp(argv[i], "--sleep-ms") == 0)
            sleep_ms = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--fsync") == 0)
            do_fsync = 1;
        else
            usage();
    }
    if (!dir || cycles <= 0 || mib <= 0 || sleep_ms < 0)
        usage();

    static char buf[1 << 20];
    memset(buf, 'v', sizeof buf);
    char path[4096];
    snprintf(path, sizeof path, "%s/io_kernel.%ld.dat", dir, (long)getpid());
    double t0 = js_now(), in_io = 0, x = 1.0;
    for (long c = 0; c < cycles; c++) {
        if (work)
            x = js_work(work, x);
        buf[0] = (char)x;
        double w0 = js_now();
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) {
            perror(path);
            return 1;
        }
        for (long m = 0; m < mib; m++) {
            size_t off = 0;
            while (off < sizeof buf) {
                ssize_t n = write(fd, buf + off, sizeof buf - off);
                if (n < 0) {
                    perror("write");
                    return 1;
                }
                off += (size_t)n;
            }
        }
        if (do_fsync && fsync(fd) < 0)
            perror("fsync");
        close(fd);
        in_io += js_now() - w0;
        if (sleep_ms) {
            struct timespec ts = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000L };
            nanosleep(&ts, NULL);
        }
    }
    double wall = js_now() - t0;
    unlink(path);
    const char *job = getenv("SLURM_JOB_ID");
    printf("io_kernel: job %s cycles %ld mib %ld wall %.3f s write_s %.3f s\n", job ? job : "-", cycles, mib, wall, in_io);
    return 0;
}
