/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Thread lifecycles the profiler must not change (tests/integration/38):
 *   thread_life pexit DIR    main ends with pthread_exit() while a worker writes DIR/pexit.dat
 *                            (100 x 1 KiB, then 300 ms asleep) and ends: the process must end then
 *   thread_life joined DIR   a worker writes DIR/joined.dat and is joined; the program prints
 *                            how many threads the process has afterwards, once the kernel has
 *                            let the joined ones go (within 0.2 s; 1 without a profiler) */
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[4096];

static void *worker(void *arg)
{
    char buf[1024];
    memset(buf, 'w', sizeof buf);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    for (int i = 0; fd >= 0 && i < 100; i++)
        if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            break;
    if (fd >= 0)
        close(fd);
    if (arg)
        usleep(300000);
    return NULL;
}

static int threads_now(void)
{
    char line[256];
    int n = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "Threads:", 8) == 0)
            n = atoi(line + 8);
    if (f)
        fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    pthread_t t;
    if (strcmp(argv[1], "pexit") == 0) {
        snprintf(path, sizeof path, "%s/pexit.dat", argv[2]);
        if (pthread_create(&t, NULL, worker, (void *)1) != 0)
            return 1;
        pthread_exit(NULL);
    }
    snprintf(path, sizeof path, "%s/joined.dat", argv[2]);
    if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, NULL) != 0)
        return 1;
    /* a joined thread's futex wakes the joiner a moment before the kernel takes the thread
     * out of /proc (bare programs see that too): a left-behind thread would never go */
    int n = threads_now();
    for (int i = 0; i < 100 && n > 1; i++) {
        usleep(2000);
        n = threads_now();
    }
    printf("threads %d\n", n);
    return 0;
}
