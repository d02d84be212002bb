/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Known I/O, for exact counts (tests/integration/profiler/posix-stdio.sh):
 *   io_known DIR
 * POSIX on DIR/posix.dat: open(O_CREAT|O_WRONLY) 1; write 10 x 100 B; pwrite 1 x 50 B;
 *   writev 1 x (30 + 20) B; fsync 1; close 1; open(O_RDONLY) 1; read 4 x 256 B (1024 + 126 = 1150
 *   bytes in the file: reads return 256, 256, 256, 256); pread 1 x 100 B; lseek 1; fstat 1;
 *   close 1; then open(O_RDONLY) posix.dat and open(O_CREAT|O_WRONLY) DIR/copy.dat, one
 *   copy_file_range of 1050 B (counted as a read of posix.dat and a write of copy.dat), close 2;
 *   stat 1; rename 1 (to posix2.dat); unlink 1 (posix2.dat); mkdir 1 (DIR/sub).
 * stdio on DIR/stdio.txt: fopen("w") 1; fwrite 3 x 64 B; fprintf 1 ("%05d\n" -> 6 B);
 *   fputs 1 ("abc" -> 3 B); fputc 2; fclose 1; fopen("r") 1; fgets 2 with size 100 on the 203 B
 *   file (first returns the 198 B up to and including the newline... see below); fclose 1.
 * Prints nothing on success (stdout would be counted as stdio); exit 1 on any failure.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { _exit(1); } } while (0)

int main(int argc, char **argv)
{
    CHECK(argc == 2);
    char p[4096], q[4096], s[4096], d[4096], c[4096];
    snprintf(p, sizeof p, "%s/posix.dat", argv[1]);
    snprintf(q, sizeof q, "%s/posix2.dat", argv[1]);
    snprintf(s, sizeof s, "%s/stdio.txt", argv[1]);
    snprintf(d, sizeof d, "%s/sub", argv[1]);
    snprintf(c, sizeof c, "%s/copy.dat", argv[1]);
    char buf[1024];
    memset(buf, 'x', sizeof buf);

    int fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    CHECK(fd >= 0);
    for (int i = 0; i < 10; i++)
        CHECK(write(fd, buf, 100) == 100);
    CHECK(pwrite(fd, buf, 50, 1000) == 50);
    struct iovec iov[2] = {{buf, 30}, {buf, 20}};
    CHECK(writev(fd, iov, 2) == 50); /* at offset 1000: file is 1050 B */
    CHECK(fsync(fd) == 0);
    CHECK(close(fd) == 0);

    fd = open(p, O_RDONLY);
    CHECK(fd >= 0);
    /* 1050 B: reads of 256 return 256, 256, 256, 256 */
    for (int i = 0; i < 4; i++)
        CHECK(read(fd, buf, 256) == 256);
    CHECK(pread(fd, buf, 100, 0) == 100);
    CHECK(lseek(fd, 0, SEEK_SET) == 0);
    struct stat st;
    CHECK(fstat(fd, &st) == 0 && st.st_size == 1050);
    CHECK(close(fd) == 0);
    fd = open(p, O_RDONLY);
    int out = open(c, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    CHECK(fd >= 0 && out >= 0);
    CHECK(copy_file_range(fd, NULL, out, NULL, 1050, 0) == 1050);
    CHECK(close(fd) == 0 && close(out) == 0);
    CHECK(stat(p, &st) == 0);
    CHECK(rename(p, q) == 0);
    CHECK(unlink(q) == 0);
    CHECK(mkdir(d, 0755) == 0);

    FILE *f = fopen(s, "w");
    CHECK(f != NULL);
    for (int i = 0; i < 3; i++)
        CHECK(fwrite(buf, 1, 64, f) == 64);
    CHECK(fprintf(f, "%05d\n", 42) == 6);
    CHECK(fputs("abc", f) >= 0);
    CHECK(fputc('\n', f) == '\n');
    CHECK(fputc('z', f) == 'z');
    CHECK(fclose(f) == 0); /* 192 + 6 + 3 + 1 + 1 = 203 B */

    f = fopen(s, "r");
    CHECK(f != NULL);
    /* line 1: 192 x + "00042\n" = 198 B; fgets(100) returns 99, then 99 */
    CHECK(fgets(buf, 100, f) != NULL && strlen(buf) == 99);
    CHECK(fgets(buf, 100, f) != NULL && strlen(buf) == 99);
    CHECK(fclose(f) == 0);
    return 0;
}
