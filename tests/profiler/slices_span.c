/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slices_span FILE K: writes 1 B to FILE every 200 ms, K times, with slices of 1 s
 * (JOBSCREEN_SLICE_SECONDS=1) the writes fall into several slices; their sum is K.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int k = atoi(argv[2]);
    int fd = open(argv[1], O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        return 1;
    struct timespec d = {0, 200000000};
    for (int i = 0; i < k; i++) {
        if (write(fd, "x", 1) != 1)
            return 1;
        nanosleep(&d, NULL);
    }
    close(fd);
    return 0;
}
