/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A program that writes 10 MiB to FILE (ten writes of 1 MiB), notes READY=FILE.ready, then
 * ends as MODE says (tests/integration/39):
 *   kill  raise(SIGKILL)          segv  a store through a null pointer
 *   abort abort()                 wait  sleep until killed (scancel, time limit)
 *   oom   touch memory until the OOM killer ends it (run it inside a memory limit) */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    static char buf[1 << 20];
    memset(buf, 'd', sizeof buf);
    int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    for (int i = 0; fd >= 0 && i < 10; i++)
        if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            return 1;
    if (fd < 0 || close(fd) != 0)
        return 1;
    char ready[4200];
    snprintf(ready, sizeof ready, "%s.ready", argv[2]);
    close(open(ready, O_WRONLY | O_CREAT, 0644));
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    const char *m = argv[1];
    if (strcmp(m, "kill") == 0)
        raise(SIGKILL);
    else if (strcmp(m, "segv") == 0)
        *(volatile int *)(uintptr_t)(argc - 3) = 1;
    else if (strcmp(m, "abort") == 0)
        abort();
    else if (strcmp(m, "wait") == 0)
        for (;;)
            pause();
    else if (strcmp(m, "oom") == 0)
        for (;;) {
            char *p = malloc(1 << 20);
            if (p)
                memset(p, 1, 1 << 20);
        }
    return 3;
}
