/* SPDX-License-Identifier: GPL-2.0-or-later */
/* raw_io FILE N: writes N bytes to FILE and reads them back with system calls made inline (no
 * libc function, so no wrapper sees them), as a statically linked helper or a runtime with its
 * own system-call layer does. The profiler's kernel_io counts them; its wrappers do not: the
 * step shows N bytes written and read that no wrapper saw. x86-64 only (elsewhere: exit 77). */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
static long raw(long nr, long a, long b, long c)
{
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "0"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return r;
}
#endif

int main(int argc, char **argv)
{
#if defined(__x86_64__)
    if (argc != 3)
        return 2;
    long n = atol(argv[2]);
    char *buf = calloc(1, (size_t)n);
    int fd = open(argv[1], O_CREAT | O_RDWR | O_TRUNC, 0644); /* the open is wrapped: the file is listed */
    if (buf == NULL || fd < 0)
        return 1;
    if (raw(SYS_write, fd, (long)buf, n) != n || raw(SYS_lseek, fd, 0, SEEK_SET) != 0 ||
        raw(SYS_read, fd, (long)buf, n) != n)
        return 1;
    return close(fd);
#else
    (void)argc;
    (void)argv;
    return 77;
#endif
}
