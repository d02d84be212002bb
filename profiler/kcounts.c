/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's own counts of an image (/proc: rchar, wchar, syscr, syscw, the storage bytes, the
 * run delay), per thread, less what the profiler itself read and wrote. System calls only: the
 * fold that reads them may run in a signal handler. Why per thread: docs/profiler.md.
 */
#include "config.h"

#include "js.h"
#include "profile.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const js_kio_names[JS_KIO_COUNT] = {
#define JS_X(id, name, unit, desc) name,
    JS_PROFILE_KERNEL_IO_FIELDS(JS_X)
#undef JS_X
};
static uint64_t js_kc_gone[JS_KC_COUNT]; /* the program's threads that ended, at their end */

/* Read a small /proc file whole into buf (NUL-terminated): its length, or -1. */
static ssize_t js_proc_read(const char *path, char *buf, size_t cap)
{
    int fd = js_sys_open(path, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    ssize_t n = js_sys_read(fd, buf, cap - 1);
    js_sys_close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return n;
}

static uint64_t js_parse_u64(const char **p)
{
    uint64_t v = 0;
    while (**p == ' ')
        (*p)++;
    while (**p >= '0' && **p <= '9')
        v = v * 10 + (uint64_t)(*(*p)++ - '0');
    return v;
}

/* Add one thread's counts to sum: its io file ("rchar: N" lines) and the run delay of its
 * schedstat ("on-CPU run-delay timeslices"). dir is "/proc/thread-self" or "/proc/self/task/<tid>".
 * Per thread, because /proc/self/io also holds the children the process reaped (the kernel adds
 * a child's counts to its parent's at the reap), and those are the children's own. 0, or -1. */
static int js_kc_add(const char *dir, uint64_t sum[JS_KC_COUNT])
{
    char path[80], buf[512];
    size_t dl = strlen(dir);
    if (dl + sizeof "/schedstat" > sizeof path)
        return -1;
    memcpy(path, dir, dl);
    memcpy(path + dl, "/io", 4);
    if (js_proc_read(path, buf, sizeof buf) < 0)
        return -1;
    int found = 0;
    for (char *line = buf; *line;) {
        char *colon = strchr(line, ':');
        if (colon == NULL)
            break;
        *colon = '\0';
        const char *p = colon + 1;
        uint64_t v = js_parse_u64(&p);
        for (int k = 0; k < JS_KIO_COUNT; k++)
            if (strcmp(line, js_kio_names[k]) == 0) {
                sum[k] += v;
                found++;
            }
        line = strchr(p, '\n');
        if (line == NULL)
            break;
        line++;
    }
    memcpy(path + dl, "/schedstat", sizeof "/schedstat");
    if (js_proc_read(path, buf, sizeof buf) >= 0) { /* absent without CONFIG_SCHED_INFO: 0 */
        const char *p = buf;
        (void)js_parse_u64(&p);
        sum[JS_KC_RUN_DELAY] += js_parse_u64(&p);
    }
    return found == JS_KIO_COUNT ? 0 : -1;
}

static int js_kc_add_tid(long tid, uint64_t sum[JS_KC_COUNT])
{
    char dir[64] = "/proc/self/task/";
    *js_put_uint(dir + strlen(dir), (unsigned long)tid) = '\0';
    return js_kc_add(dir, sum);
}

/* The kernel's counts of the image's threads, living and ended, less what the profiler itself
 * read and wrote: 0, or -1 when they cannot be read. System calls only: a fold may run in a
 * signal handler. */
static int js_kc_read(uint64_t out[JS_KC_COUNT], int main_tid)
{
    uint64_t own[4];
    for (int k = 0; k < 4; k++)
        own[k] = __atomic_load_n(&js_own_io[k], __ATOMIC_RELAXED);
    memset(out, 0, JS_KC_COUNT * sizeof out[0]);
    if (!js_mt) {
        if (js_kc_add_tid(main_tid, out) != 0)
            return -1;
    } else {
        int dfd = js_sys_open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
        if (dfd < 0)
            return -1;
        char buf[4096];
        long n;
        while ((n = js_sysret(js_syscall4(SYS_getdents64, dfd, (long)buf, sizeof buf, 0))) > 0)
            for (long off = 0; off < n;) {
                const struct dirent64 *d = (const struct dirent64 *)(void *)(buf + off);
                if (d->d_name[0] >= '1' && d->d_name[0] <= '9')
                    (void)js_kc_add_tid(strtol(d->d_name, NULL, 10), out); /* a thread may end meanwhile */
                off += d->d_reclen;
            }
        js_sys_close(dfd);
        for (int k = 0; k < JS_KC_COUNT; k++)
            out[k] += __atomic_load_n(&js_kc_gone[k], __ATOMIC_RELAXED);
    }
    /* (a thread that just ended may count twice until it is gone from /proc: the next read is right) */
    _Static_assert(JS_KIO_RCHAR == 0 && JS_KIO_WCHAR == 1 && JS_KIO_SYSCR == 2 && JS_KIO_SYSCW == 3,
                   "rchar, wchar, syscr, syscw first, in the order of js_own_io");
    for (int k = 0; k < 4; k++)
        out[k] = out[k] > own[k] ? out[k] - own[k] : 0;
    return 0;
}

/* The kernel's counts at the image's start, or as the latest fold saw them. */
void js_kc_mark(int end, int main_tid)
{
    uint64_t v[JS_KC_COUNT];
    if (js_kc_read(v, main_tid) != 0)
        return;
    memcpy(end ? js_g->kc_end : js_g->kc_start, v, sizeof v);
    if (!end)
        memcpy(js_g->kc_sliced, v, sizeof js_g->kc_sliced);
    if (end || js_g->kc_known == 0)
        __atomic_store_n(&js_g->kc_known, end ? 2 : 1, __ATOMIC_RELEASE);
}

/* A thread of the program ends (on that thread): its counts stay the image's. */
void js_kc_thread_ended(void)
{
    uint64_t mine[JS_KC_COUNT] = {0};
    if (js_kc_add("/proc/thread-self", mine) == 0)
        for (int k = 0; k < JS_KC_COUNT; k++)
            __atomic_fetch_add(&js_kc_gone[k], mine[k], __ATOMIC_RELAXED);
}

/* A new process after fork: the kernel counts its I/O from zero, the profiler's own too. */
void js_kc_after_fork(void)
{
    memset(js_own_io, 0, sizeof js_own_io);
    memset(js_kc_gone, 0, sizeof js_kc_gone);
}
