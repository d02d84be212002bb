/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * churn FILE N: N short threads one after another (create, write 1 B to FILE, exit, join):
 * more threads over the life of the process than the profiler has counter blocks (4096), so
 * the blocks of ended threads must be handed on. Expect posix_write_calls = N exactly.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static int fd;

static void *one(void *arg)
{
    (void)arg;
    if (write(fd, "c", 1) != 1)
        exit(1);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    fd = open(argv[1], O_CREAT | O_WRONLY | O_TRUNC, 0644);
    int n = atoi(argv[2]);
    if (fd < 0)
        return 1;
    for (int i = 0; i < n; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, one, NULL) != 0 || pthread_join(t, NULL) != 0)
            return 1;
    }
    return close(fd);
}
