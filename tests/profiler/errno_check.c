/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * errno_check DIR: errno after each intercepted call is what libc alone gives. Prints one
 * line "name errno" per check; the test runs it with and without the profiler and compares.
 * Successful calls must leave a preset errno (4242) untouched.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHOW(name, expr) do { errno = 4242; if ((expr)) { } printf("%s %d\n", name, errno); } while (0)

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    char p[4096], missing[4096];
    snprintf(p, sizeof p, "%s/errno.dat", argv[1]);
    snprintf(missing, sizeof missing, "%s/no/such/file", argv[1]);
    struct stat st;
    char b[8];
    int fd;
    SHOW("open-ok", fd = open(p, O_CREAT | O_RDWR | O_TRUNC, 0600));
    SHOW("write-ok", write(fd, "abc", 3));
    SHOW("pread-ok", pread(fd, b, 3, 0));
    SHOW("lseek-ok", lseek(fd, 0, SEEK_SET));
    SHOW("read-ok", read(fd, b, 3));
    SHOW("fstat-ok", fstat(fd, &st));
    SHOW("close-ok", close(fd));
    SHOW("open-missing", open(missing, O_RDONLY));
    SHOW("openat-missing", openat(AT_FDCWD, missing, O_RDONLY));
    SHOW("write-badfd", write(-1, "x", 1));
    SHOW("read-badfd", read(987, b, 1));
    SHOW("close-badfd", close(987));
    SHOW("stat-missing", stat(missing, &st));
    SHOW("unlink-missing", unlink(missing));
    SHOW("mkdir-exists", mkdir(argv[1], 0700));
    FILE *f;
    SHOW("fopen-missing", fopen(missing, "r"));
    SHOW("fopen-ok", f = fopen(p, "r"));
    SHOW("fread-ok", fread(b, 1, 3, f));
    SHOW("fgets-eof", fgets(b, sizeof b, f));
    SHOW("fclose-ok", fclose(f));
    SHOW("fdopen-badfd", fdopen(987, "r"));
    SHOW("execv-missing", execv(missing, (char *[]){missing, NULL}));
    SHOW("unlink-ok", unlink(p));
    return 0;
}
