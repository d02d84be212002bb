/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn_misc DIR: the awkward ways of starting processes and touching descriptors.
 *  - vfork + execv("/bin/true"): the vfork child writes nothing itself; /bin/true profiles itself.
 *  - posix_spawn of "spawn_misc DIR child": the child writes 4 x 25 B to DIR/spawned.dat.
 *  - dlopen("libm.so.6") + dlsym + dlclose.
 *  - opens DIR/a.dat, then close_range(3, ~0U) closes every descriptor from 3 on (as daemons
 *    and "close all descriptors" programs do); then opens DIR/b.dat (likely the same number)
 *    and writes 3 x 10 B to it: they must count for b.dat, not a.dat.
 * Parent totals: posix_write_calls 3, posix_write_bytes 30, posix_open_calls 2.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
    char path[4096], buf[32];
    memset(buf, 'm', sizeof buf);
    if (argc == 3 && strcmp(argv[2], "child") == 0) {
        snprintf(path, sizeof path, "%s/spawned.dat", argv[1]);
        int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        for (int i = 0; i < 4; i++)
            if (fd < 0 || write(fd, buf, 25) != 25)
                return 1;
        return close(fd);
    }
    if (argc != 2)
        return 2;
    int st;
    pid_t v = vfork();
    if (v == 0) {
        execv("/bin/true", (char *[]){"true", NULL});
        _exit(127);
    }
    if (v < 0 || waitpid(v, &st, 0) != v || st != 0)
        return 1;

    pid_t s;
    char *cargv[] = {argv[0], argv[1], "child", NULL};
    if (posix_spawn(&s, argv[0], NULL, NULL, cargv, environ) != 0 || waitpid(s, &st, 0) != s || st != 0)
        return 1;

    void *h = dlopen("libm.so.6", RTLD_NOW);
    if (h == NULL || dlsym(h, "cos") == NULL || dlclose(h) != 0)
        return 1;

    snprintf(path, sizeof path, "%s/a.dat", argv[1]);
    if (open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644) < 0)
        return 1;
    if (close_range(3, ~0U, 0) != 0)
        return 1;
    snprintf(path, sizeof path, "%s/b.dat", argv[1]);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    for (int i = 0; i < 3; i++)
        if (fd < 0 || write(fd, buf, 10) != 10)
            return 1;
    return close(fd);
}
