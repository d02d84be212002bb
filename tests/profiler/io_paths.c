/* SPDX-License-Identifier: GPL-2.0-or-later */
/* I/O through paths the profiler covers beyond plain read/write (issue 15): built with
 * -D_FILE_OFFSET_BITS=64, so pwritev2/preadv2 are pwritev64v2/preadv64v2 (fio's pvsync2);
 * dprintf; a descriptor copied with fcntl(F_DUPFD); splice through a pipe. Usage: io_paths DIR.
 * Known totals (test profiler/posix-stdio): v2.dat 100 B written and read back, dprintf.txt 50 B written,
 * dup.dat 7 B written through the copy, splice.out 64 B written from splice.in (64 B read). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static int open_in(const char *dir, const char *name, int flags)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, flags, 0644);
    if (fd < 0) {
        perror(path);
        exit(1);
    }
    return fd;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    const char *dir = argv[1];
    char buf[128];
    memset(buf, 'v', sizeof buf);

    int fd = open_in(dir, "v2.dat", O_RDWR | O_CREAT | O_TRUNC);
    struct iovec iov = { buf, 100 };
    if (pwritev2(fd, &iov, 1, 0, 0) != 100 || preadv2(fd, &iov, 1, 0, 0) != 100)
        return 1;
    close(fd);

    fd = open_in(dir, "dprintf.txt", O_WRONLY | O_CREAT | O_TRUNC);
    if (dprintf(fd, "%s", "0123456789012345678901234567890123456789012345678\n") != 50)
        return 1;
    close(fd);

    fd = open_in(dir, "dup.dat", O_WRONLY | O_CREAT | O_TRUNC);
    int copy = fcntl(fd, F_DUPFD, 20);
    close(fd);
    if (copy < 20 || write(copy, "dupdata", 7) != 7)
        return 1;
    close(copy);

    fd = open_in(dir, "splice.in", O_WRONLY | O_CREAT | O_TRUNC);
    memset(buf, 's', 64);
    if (write(fd, buf, 64) != 64)
        return 1;
    close(fd);
    int in = open_in(dir, "splice.in", O_RDONLY), out = open_in(dir, "splice.out", O_WRONLY | O_CREAT | O_TRUNC), p[2];
    if (pipe(p) != 0 || splice(in, NULL, p[1], NULL, 64, 0) != 64 || splice(p[0], NULL, out, NULL, 64, 0) != 64)
        return 1;
    close(in);
    close(out);
    return 0;
}
