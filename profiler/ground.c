/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The profiler's ground floor: the next definition of a wrapped symbol, system calls made
 * without libc's wrappers, clocks, and the one error an image reports. It calls nothing of the
 * floors above (wrappers, files, segments, the core), so that any of them may call it, even
 * from a signal handler or before the record exists.
 */
#include "config.h"

#include "js.h"
#include "profile.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

/* The state every floor reads, defined on the lowest one: the thread's block, whether the image
 * records, whether it has threads, its record's header, the profiler's own I/O. */
__thread struct js_thread *js_tls __attribute__((tls_model("initial-exec")));
volatile int js_on;
int js_mt; /* the program has started a thread: the heartbeat folds */
static struct js_global js_g_boot; /* before the record exists, or without one */
struct js_global *js_g = &js_g_boot;
uint64_t js_own_io[4];

void *js_next(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

static const char js_libc_unknown; /* 0: "not known to be single-threaded" */
const volatile char *js_libc_single = &js_libc_unknown;
static int js_cancel_seen;          /* pthread_cancel was called: libc's wrappers only */
static uintptr_t js_libc_lo, js_libc_hi; /* libc's loaded segments, once found; hi 1: none */

static int find_libc(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size, (void)arg;
    const char *slash = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    if (slash == NULL || strcmp(slash + 1, "libc.so.6") != 0)
        return 0;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD) {
            uintptr_t a = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            if (a < lo)
                lo = a;
            if (a + info->dlpi_phdr[i].p_memsz > hi)
                hi = a + info->dlpi_phdr[i].p_memsz;
        }
    js_libc_lo = lo;
    js_libc_hi = hi;
    return 1;
}

/* The next definition of name; *is_libc when it is libc's own (not another preload tool's).
 * Only asked while recording: a library that does not record just forwards. No dlopen or
 * dladdr: the first allocates (a program that never calls malloc would pay for its set-up),
 * the second scans libc's whole symbol table. */
void *js_next_libc(const char *name, int *is_libc)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!js_on || p == NULL)
        return p;
    if (js_libc_hi == 0) {
        /* libc's flag, glibc 2.32 on (without it no wrapper makes system calls itself): the
         * definition everyone sees, which libc updates even where the program has a copy of
         * it (copy relocation) */
        const char *flag = dlsym(RTLD_DEFAULT, "__libc_single_threaded");
        if (flag == NULL || dl_iterate_phdr(find_libc, NULL) == 0) {
            js_libc_lo = 0;
            js_libc_hi = 1; /* nothing is libc's */
        } else if (!__atomic_load_n(&js_cancel_seen, __ATOMIC_RELAXED)) {
            js_libc_single = flag;
        }
    }
    *is_libc = (uintptr_t)p >= js_libc_lo && (uintptr_t)p < js_libc_hi;
    return p;
}

long js_syscall_failed(long r)
{
    errno = (int)-r;
    return -1;
}

#if !JS_DIRECT_SYSCALLS
long js_syscall4(long nr, long a, long b, long c, long d)
{
    int e = errno;
    long r = syscall(nr, a, b, c, d);
    if (r == -1) {
        r = -errno;
        errno = e;
    }
    return r;
}
long js_syscall6(long nr, long a, long b, long c, long d, long e6, long f)
{
    int e = errno;
    long r = syscall(nr, a, b, c, d, e6, f);
    if (r == -1) {
        r = -errno;
        errno = e;
    }
    return r;
}
#endif

/* A thread cancelling itself makes libc's read() and the like act as cancellation points even
 * in a single-threaded process: from the first pthread_cancel on, the wrappers call libc. */
JS_EXPORT int pthread_cancel(pthread_t th)
{
    JS_REAL(int, pthread_cancel, (pthread_t));
    __atomic_store_n(&js_cancel_seen, 1, __ATOMIC_RELAXED);
    js_libc_single = &js_libc_unknown;
    return real_pthread_cancel(th);
}

#if !(defined(__x86_64__) || defined(__i386__))
uint64_t js_ticks_fallback(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
#endif

uint64_t js_clock_ns(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t js_now_ns(void)
{
    return js_clock_ns(CLOCK_REALTIME);
}

uint64_t js_coarse_now_ns(void)
{
    return js_clock_ns(CLOCK_REALTIME_COARSE);
}


void js_note_error(const char *what, int err)
{
    if (js_g->err_what == NULL) {
        js_g->err_what = what;
        js_g->err_errno = err;
    }
}

/* One line to syslog, once per image, never to the program's stdout/stderr. */
void js_report_error(void)
{
    if (js_g->err_what == NULL || js_g->err_reported)
        return;
    js_g->err_reported = 1;
    int e = errno;
    syslog(LOG_USER | LOG_WARNING, "jobscreen-profiler[%d]: %s: %s (job %llu step %s); its record is incomplete",
           (int)getpid(), js_g->err_what, strerror(js_g->err_errno), (unsigned long long)js_g->job_id, js_g->step);
    errno = e;
}

int js_gettid(void)
{
    return (int)js_syscall4(SYS_gettid, 0, 0, 0, 0);
}
