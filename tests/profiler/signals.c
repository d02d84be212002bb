/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * signals DIR: I/O from a signal handler while the program itself is inside I/O calls.
 * An interval timer fires every 500 us; its SIGALRM handler opens DIR/h<k>.dat, writes 1 B and
 * closes it (all async-signal-safe). Meanwhile main opens, writes 2 B to and closes DIR/m.dat
 * 20000 times. Then the counts go to DIR/counts as "main handler" through syscall(), which the
 * profiler counts as one more write (test profiler/heartbeat-signals adds it). A deadlock would show as a hang.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

static char hpath[2][4096];
static volatile sig_atomic_t handled;

static void on_alarm(int sig)
{
    (void)sig;
    int fd = open(hpath[handled & 1], O_CREAT | O_WRONLY | O_APPEND, 0644);
    if (fd >= 0) {
        if (write(fd, "h", 1) == 1)
            handled++;
        close(fd);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    char mpath[4096], out[64];
    snprintf(mpath, sizeof mpath, "%s/m.dat", argv[1]);
    snprintf(hpath[0], sizeof hpath[0], "%s/h0.dat", argv[1]);
    snprintf(hpath[1], sizeof hpath[1], "%s/h1.dat", argv[1]);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 500}, {0, 500}};
    setitimer(ITIMER_REAL, &it, NULL);
    long done = 0;
    for (int i = 0; i < 20000; i++) {
        int fd = open(mpath, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd < 0)
            return 1;
        if (write(fd, "mm", 2) == 2)
            done++;
        close(fd);
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    snprintf(mpath, sizeof mpath, "%s/counts", argv[1]);
    int n = snprintf(out, sizeof out, "%ld %d\n", done, (int)handled);
    int fd = (int)syscall(SYS_open, mpath, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || syscall(SYS_write, fd, out, (size_t)n) != n)
        return 1;
    syscall(SYS_close, fd);
    return 0;
}
