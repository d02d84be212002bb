/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exit_now FILE: writes 5 B to FILE, then _exit(3) without running exit handlers. */
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    int fd = open(argv[1], O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "hello", 5) != 5)
        return 1;
    _exit(3);
}
