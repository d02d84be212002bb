/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The profiler's private header, for the ground floor and the core: thread blocks, the hot-path
 * helpers every wrapper uses, a file entry's layout, the real (next) symbols, the core's functions
 * and the hooks it reaches the modules above it by (modules.h). See docs/profiler.md.
 */
#ifndef JS_PROFILER_H
#define JS_PROFILER_H

#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>

struct stat;

#include "profile_format.h"

#define JS_EXPORT __attribute__((visibility("default")))
#define JS_LIKELY(x) __builtin_expect(!!(x), 1)
#define JS_UNLIKELY(x) __builtin_expect(!!(x), 0)

#define JS_MAX_THREADS JS_PROFILE_MAX_THREADS /* thread blocks alive at once; more threads go uncounted */
#define JS_FD_MAX 16384     /* descriptors tracked per file; higher ones count in totals only */

enum {
#define JS_X(m) JS_SEGF_##m,
    JS_SEG_FEATURES(JS_X)
#undef JS_X
    JS_SEG_NFEATURES
};

/* Per-thread counters. Only the owning thread writes v[] (relaxed stores, no lock prefix);
 * the heartbeat reads v[] and owns snap[]. Times are kept in time-stamp-counter ticks. */
struct js_thread {
    uint64_t v[JS_M_COUNT];
    uint32_t in_mpi;   /* owner only: depth of MPI calls; POSIX I/O inside goes to lower_* */
    uint32_t dt_gen;   /* owner only: the last MPI datatype and its size, valid for dt_gen */
    int dt_size;
    void *dt_last;
    struct js_thread *next; /* registry list, push-only */
    int tid;
    uint64_t seg_t0;    /* owner only: CLOCK_MONOTONIC ns at its last boundary, 0: none yet */
    uint64_t seg_v[JS_SEG_NFEATURES]; /* owner only: the features' counters at that boundary */
    int state;          /* JS_T_FREE, JS_T_LIVE */
    uint64_t snap[JS_M_COUNT] __attribute__((aligned(64)));
} __attribute__((aligned(64)));

enum { JS_T_FREE = 0, JS_T_LIVE = 1 };

extern __thread struct js_thread *js_tls __attribute__((tls_model("initial-exec")));
extern volatile int js_on; /* 1 while recording */
extern int js_mt;          /* the program has started threads: shared counters need atomic adds */
extern int64_t js_boundary_s;
struct js_thread *js_thread_register(void);
void js_boundary_crossed(void);

/* Single-threaded mode: has the wall clock passed the next slice boundary? Boundaries are whole
 * seconds, and time() is one load from the vDSO data page (1.3 ns here), updated every tick. */
static inline void js_tick(void)
{
    int64_t b = __atomic_load_n(&js_boundary_s, __ATOMIC_RELAXED);
    if (b != INT64_MAX && JS_UNLIKELY((int64_t)time(NULL) >= b))
        js_boundary_crossed();
}

static inline struct js_thread *js_self(void)
{
    struct js_thread *t = js_tls;
    if (JS_LIKELY(t != NULL)) {
        js_tick();
        return t;
    }
    return js_on ? js_thread_register() : NULL;
}

/* Add to a counter that only this thread writes. On x86-64 it is one `add` to memory, without
 * a lock prefix: a signal handler that counts in between cannot lose an increment (signals
 * arrive between instructions), and the heartbeat's aligned 8-byte read sees old or new. */
static inline void js_add_owned(uint64_t *p, uint64_t n)
{
#if defined(__x86_64__)
    __asm__ volatile("addq %1, %0" : "+m"(*p) : "er"(n));
#else
    __atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
#endif
}

static inline void js_add(struct js_thread *t, int m, uint64_t n)
{
    js_add_owned(&t->v[m], n);
}

static inline uint64_t js_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#else
    extern uint64_t js_ticks_fallback(void);
    return js_ticks_fallback();
#endif
}

/* A call of the calls metric made, its time since t0 (ticks) added to the ns metric. */
static inline void js_add_call(struct js_thread *t, int calls, int ns, uint64_t t0)
{
    js_add(t, calls, 1);
    js_add(t, ns, js_ticks() - t0);
}

/* v in decimal at p (no NUL), without stdio (a signal handler may be here): the end */
static inline char *js_put_uint(char *p, unsigned long v)
{
    char rev[20];
    int k = 0;
    do
        rev[k++] = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    while (k)
        *p++ = rev[--k];
    return p;
}

/* --- locks a signal handler may meet on its own thread ---
 * *mine, a __thread flag of the lock, is set from before the mutex is taken until after it is
 * released: a handler that interrupted its own thread inside the lock gets 0 (and does without)
 * instead of waiting for itself for ever. wait 0: also 0 when another thread holds it. */
static inline int js_lock_mine(pthread_mutex_t *mu, int *mine, int wait)
{
    if (*mine)
        return 0;
    *mine = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (wait) {
        pthread_mutex_lock(mu);
    } else if (pthread_mutex_trylock(mu) != 0) {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        *mine = 0;
        return 0;
    }
    return 1;
}

static inline void js_unlock_mine(pthread_mutex_t *mu, int *mine)
{
    pthread_mutex_unlock(mu);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    *mine = 0;
}

/* A wrapper that counts a call of the calls metric and adds its time to the ns metric (the
 * metadata calls of posix.c, stdio.c, async.c); inside MPI only forwarded. */
#define JS_TIMED_CALL(ret, name, params, args, calls, ns) \
    JS_EXPORT ret name params \
    { \
        JS_REAL(ret, name, params); \
        struct js_thread *t = js_self(); \
        if (!t || t->in_mpi) \
            return real_##name args; \
        uint64_t t0 = js_ticks(); \
        ret r = real_##name args; \
        js_add_call(t, calls, ns, t0); \
        return r; \
    }

/* --- the file table's entry, as the record holds it (files.c keeps the table: modules.h) --- */
/* JS_LAYER_TREE: the entry of a software tree, which the files under it count into (files.c) */
enum { JS_LAYER_POSIX = 0, JS_LAYER_STDIO = 1, JS_LAYER_MPIIO = 2, JS_LAYER_TREE = 3 };
enum { JS_MODE_R = 1, JS_MODE_W = 2 };

struct js_file {
    uint64_t read_calls, read_bytes, write_calls, write_bytes;
    uint64_t lower_read_bytes, lower_write_bytes;
    uint64_t mapped_bytes;
    uint64_t opens, first_open_ns, last_close_ns;
    uint64_t dev, ino, btime; /* at the first open (identity.c); 0: unknown */
    int open_count;   /* descriptors open now */
    uint32_t hash;
    uint8_t layer, open_mode;
    const char *path;     /* as opened (the key), or the tree */
    const char *resolved; /* the kernel's name of the file when it differs from path, else NULL */
    struct js_file *hnext;
};


/* --- the ground floor (ground.c): calls nothing above it --- */
uint64_t js_coarse_now_ns(void);
uint64_t js_clock_ns(clockid_t c);
int js_gettid(void);

/* --- the kernel's counts (kcounts.c) --- */
void js_kc_mark(int end, int main_tid); /* at the image's start (0) or as a fold sees them */
void js_kc_thread_ended(void);
void js_kc_after_fork(void);

/* --- real symbols --- */
void *js_next(const char *name);
#define JS_REAL(type, name, args) \
    static type(*real_##name) args; \
    if (JS_UNLIKELY(real_##name == NULL)) \
        real_##name = (type(*) args)js_next(#name)

/* --- system calls made by the wrappers themselves ---
 * On this kind of machine a return that follows a system call is often mispredicted (the kernel's
 * path, read of /dev/zero most of all, leaves the return-stack predictor of no use): each level of
 * functions between the program and the kernel costs 10-20 ns on the way back. A wrapper that
 * calls libc's read() adds one such level. So where the next definition is libc's own and libc
 * itself would make nothing but the system call (the process is single-threaded, by libc's own
 * flag: no cancellation point can act), the wrapper makes the system call itself, with the
 * same result and errno. Another preload tool after us, or a second thread, and the wrapper
 * calls the next definition as usual. docs/profiler.md, "The hot path". */
void *js_next_libc(const char *name, int *is_libc);
extern const volatile char *js_libc_single; /* libc's __libc_single_threaded; a 0 when unknown */
#define JS_REAL_LIBC(type, name, args) \
    static type(*real_##name) args; \
    static int libc_##name; \
    if (JS_UNLIKELY(real_##name == NULL)) \
        real_##name = (type(*) args)js_next_libc(#name, &libc_##name)
/* may the wrapper of name make the system call itself now? */
#define JS_DIRECT(name) (JS_DIRECT_SYSCALLS && libc_##name && *js_libc_single)

#if defined(__x86_64__)
#define JS_DIRECT_SYSCALLS 1
static inline long js_syscall4(long nr, long a, long b, long c, long d)
{
    long r;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall" : "=a"(r) : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
    return r;
}
static inline long js_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
    long r;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(r)
                     : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return r;
}
#else
#define JS_DIRECT_SYSCALLS 0 /* libc's syscall() is a level of its own: no gain on the hot path */
long js_syscall4(long nr, long a, long b, long c, long d);
long js_syscall6(long nr, long a, long b, long c, long d, long e, long f);
#endif
/* a raw system call's result as libc returns it: -1 and errno on failure */
long js_syscall_failed(long r);
static inline long js_sysret(long r)
{
    return JS_UNLIKELY((unsigned long)r > -4096UL) ? js_syscall_failed(r) : r;
}

/* The profiler's own file operations (the record, /proc, the quota ledger): system calls, never
 * a wrapper (ours would count them as the program's; another tool's would see them) and no
 * dlsym at start. */
static inline int js_sys_open(const char *path, int flags, int mode)
{
    return (int)js_sysret(js_syscall4(SYS_openat, AT_FDCWD, (long)path, flags, mode));
}
static inline int js_sys_close(int fd)
{
    return (int)js_sysret(js_syscall4(SYS_close, fd, 0, 0, 0));
}
/* What the profiler itself read and wrote, as the kernel counts it in /proc/self/io (rchar, wchar,
 * syscr, syscw): taken out of the image's kernel_io, which is the program's. */
extern uint64_t js_own_io[4];
static inline ssize_t js_own_count(ssize_t r, int write)
{
    __atomic_fetch_add(&js_own_io[write], r > 0 ? (uint64_t)r : 0, __ATOMIC_RELAXED);
    __atomic_fetch_add(&js_own_io[2 + write], 1, __ATOMIC_RELAXED);
    return r;
}
static inline ssize_t js_sys_read(int fd, void *buf, size_t n)
{
    return js_own_count(js_sysret(js_syscall4(SYS_read, fd, (long)buf, (long)n, 0)), 0);
}
static inline ssize_t js_sys_pwrite(int fd, const void *buf, size_t n, off_t off)
{
    return js_own_count(js_sysret(js_syscall4(SYS_pwrite64, fd, (long)buf, (long)n, (long)off)), 1);
}
static inline ssize_t js_sys_pread(int fd, void *buf, size_t n, off_t off)
{
    return js_own_count(js_sysret(js_syscall4(SYS_pread64, fd, (long)buf, (long)n, (long)off)), 0);
}
static inline int js_sys_ftruncate(int fd, off_t len)
{
    return (int)js_sysret(js_syscall4(SYS_ftruncate, fd, (long)len, 0, 0));
}
static inline int js_sys_fallocate(int fd, off_t off, off_t len)
{
    return (int)js_sysret(js_syscall4(SYS_fallocate, fd, 0, (long)off, (long)len));
}
static inline int js_sys_fstat(int fd, struct stat *st)
{
#ifdef SYS_fstat
    return (int)js_sysret(js_syscall4(SYS_fstat, fd, (long)st, 0, 0));
#else
    return (int)js_sysret(js_syscall4(SYS_newfstatat, fd, (long)"", (long)st, AT_EMPTY_PATH));
#endif
}
/* the profiler's own mappings: never through the mmap wrapper */
static inline void *js_sys_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return (void *)js_sysret(js_syscall6(SYS_mmap, (long)addr, (long)len, prot, flags, fd, (long)off));
}
static inline int js_sys_munmap(void *addr, size_t len)
{
    return (int)js_sysret(js_syscall4(SYS_munmap, (long)addr, (long)len, 0, 0));
}
static inline int js_sys_unlink(const char *path)
{
    return (int)js_sysret(js_syscall4(SYS_unlinkat, AT_FDCWD, (long)path, 0, 0));
}

/* --- identity.c --- */
void js_file_identity(struct js_file *f, int fd); /* dev, ino, btime at the first open; errno kept */

/* --- core.c --- */
extern pid_t js_pid;
void js_end(const char *how);      /* the image ends (exit, exec, _exit): final fold, end marked */
void js_exec_failed(void);         /* an exec returned: the image is live again */
int js_recording_here(void);     /* recording, and not a vfork child */

/* The modules above the core (files, asynchronous I/O, MPI segments), as the core reaches them:
 * hooks.c lists them, at build time, as Darshan's core lists its modules. The core calls nothing
 * of theirs but these; none is on the path of a read or a write. A hook may be NULL. */
struct js_module {
    const char *name;
    void (*on_start)(void);                       /* the record exists: the module's state in it */
    void (*on_thread_start)(struct js_thread *t); /* a block handed to a new thread */
    void (*on_image_end)(void);                   /* the image ends: before its last fold */
    int (*in_use)(void);                          /* did the image use it (else a forked child that
                                                     only exec'd leaves no record) */
    void (*on_fork_prepare)(void);                /* before fork: its lock taken */
    void (*on_fork_parent)(void);                 /* after fork, in the parent: let go */
    void (*on_fork_child_locks)(void);            /* in every child: its locks made anew */
    void (*on_fork_child)(void);                  /* in a child that records: counts from the fork */
};
/* The image starts (glibc's constructor, in hooks.c, with main's arguments) with the modules
 * whose hooks the core calls, in that order; and ends (the destructor). */
void js_core_start(const struct js_module *const *modules, unsigned nmodules, int argc, char **argv);
void js_core_stop(void);


#endif
