/* SPDX-License-Identifier: GPL-2.0-or-later */
/* static_write FILE: a static binary (LD_PRELOAD does not apply): writes 4 B, runs unprofiled. */
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    int fd = open(argv[1], O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "stat", 4) != 4)
        return 1;
    return close(fd);
}
