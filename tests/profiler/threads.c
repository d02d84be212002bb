/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * threads DIR T N [PAUSE_US]: T threads each write N records of 10 B to its own file
 * DIR/t<i>.dat and N records of 1 B to the shared DIR/shared.dat (O_APPEND), all at once,
 * pausing PAUSE_US microseconds after each pair (default 0).
 * Expect: posix_write_calls = 2*T*N, posix_write_bytes = 11*T*N; shared.dat: T*N writes, T*N B.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *dir;
static int n, shared;
static long pause_us;
static pthread_barrier_t go;

static void *worker(void *arg)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/t%ld.dat", dir, (long)arg);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        exit(1);
    pthread_barrier_wait(&go);
    for (int i = 0; i < n; i++) {
        if (write(fd, "0123456789", 10) != 10 || write(shared, "s", 1) != 1)
            exit(1);
        if (pause_us > 0)
            usleep((useconds_t)pause_us);
    }
    close(fd);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5)
        return 2;
    pause_us = argc == 5 ? atol(argv[4]) : 0;
    dir = argv[1];
    int t = atoi(argv[2]);
    n = atoi(argv[3]);
    char path[4096];
    snprintf(path, sizeof path, "%s/shared.dat", dir);
    shared = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_APPEND, 0644);
    if (shared < 0 || t < 1 || t > 64)
        return 1;
    pthread_t th[64];
    pthread_barrier_init(&go, NULL, (unsigned)t);
    for (long i = 0; i < t; i++)
        pthread_create(&th[i], NULL, worker, (void *)i);
    for (int i = 0; i < t; i++)
        pthread_join(th[i], NULL);
    close(shared);
    return 0;
}
