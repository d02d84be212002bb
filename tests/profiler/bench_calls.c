/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_calls OP N: N intercepted calls in a loop, prints the mean ns per call.
 * OP: write (1 B to /dev/null), read (1 B from /dev/zero), openclose (open+close of a file in
 * $TMPDIR or /tmp, which is in the file list), fwrite (1 B to a /dev/null stream),
 * writefile (1 B write to a regular file in $TMPDIR or /tmp, which is in the file list).
 * Used by bench/profiler/run with and without the profiler.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    const char *op = argv[1];
    long n = atol(argv[2]);
    char c = 'x';
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/bench_calls.%d", tmp, (int)getpid());
    int fd = -1;
    FILE *fp = NULL;
    if (strcmp(op, "write") == 0)
        fd = open("/dev/null", O_WRONLY);
    else if (strcmp(op, "read") == 0)
        fd = open("/dev/zero", O_RDONLY);
    else if (strcmp(op, "writefile") == 0)
        fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    else if (strcmp(op, "fwrite") == 0)
        fp = fopen("/dev/null", "w");
    else if (strcmp(op, "openclose") == 0)
        close(open(path, O_CREAT | O_WRONLY, 0600));
    else
        return 2;
    double t0 = now();
    if (strcmp(op, "write") == 0 || strcmp(op, "writefile") == 0) {
        for (long i = 0; i < n; i++)
            if (write(fd, &c, 1) != 1)
                return 1;
    } else if (strcmp(op, "read") == 0) {
        for (long i = 0; i < n; i++)
            if (read(fd, &c, 1) != 1)
                return 1;
    } else if (strcmp(op, "fwrite") == 0) {
        for (long i = 0; i < n; i++)
            if (fwrite(&c, 1, 1, fp) != 1)
                return 1;
    } else {
        for (long i = 0; i < n; i++) {
            int f = open(path, O_WRONLY);
            if (f < 0 || close(f) != 0)
                return 1;
        }
    }
    double t1 = now();
    if (strcmp(op, "openclose") == 0 || strcmp(op, "writefile") == 0)
        unlink(path);
    printf("%.2f\n", (t1 - t0) / (double)n);
    return 0;
}
