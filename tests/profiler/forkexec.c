/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forkexec DIR: a fork and exec chain with known I/O per image.
 *  image 1 (origin start, end exec): writes 1 x 111 B to DIR/parent.dat; forks a child that
 *    writes 2 x 22 B to DIR/child.dat and exits with exit(0) (origin fork, end exit); forks a
 *    second child that writes 1 x 7 B to DIR/quick.dat and calls _exit(0) (end _exit); waits for
 *    both; then execs itself as "forkexec DIR stage2".
 *  image 2 (same pid, origin start, end exit): writes 3 x 33 B to DIR/after.dat.
 * So: 4 profiles, the exec'd image under <pid>-1.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void put(const char *dir, const char *name, int times, int len)
{
    char path[4096], buf[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    memset(buf, 'f', sizeof buf);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        _exit(1);
    for (int i = 0; i < times; i++)
        if (write(fd, buf, (size_t)len) != len)
            _exit(1);
    close(fd);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[2], "stage2") == 0) {
        put(argv[1], "after.dat", 3, 33);
        return 0;
    }
    if (argc != 2)
        return 2;
    put(argv[1], "parent.dat", 1, 111);
    pid_t a = fork();
    if (a == 0) {
        put(argv[1], "child.dat", 2, 22);
        exit(0);
    }
    pid_t b = fork();
    if (b == 0) {
        put(argv[1], "quick.dat", 1, 7);
        _exit(0);
    }
    int st;
    if (a < 0 || b < 0 || waitpid(a, &st, 0) != a || st != 0 || waitpid(b, &st, 0) != b || st != 0)
        return 1;
    execl(argv[0], argv[0], argv[1], "stage2", (char *)NULL);
    return 3;
}
