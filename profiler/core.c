/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The profiler's core: start-up from the environment, thread blocks, the heartbeat thread that
 * closes slices, fork handling and the end of an image (exit, exec, _exit).
 * Design and decisions: docs/profiler.md. Format: docs/profile-format.md.
 */
#include "config.h"

#include "js.h"
#include "profile.h"
#include "slice.h"
#include "slices.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

pid_t js_pid;

static struct js_thread *js_pool;      /* JS_MAX_THREADS blocks, in the record */
static struct js_thread *js_list;      /* every block ever handed out, push-only */
static struct js_thread js_sink;       /* threads beyond the pool count here, never folded */
static int js_main_tid;

static pthread_mutex_t js_fold_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t js_hb_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t js_hb_cv = PTHREAD_COND_INITIALIZER;
static pthread_t js_hb;
static int js_hb_running, js_hb_stop;

static uint64_t js_tsc0, js_mono0, js_cpu_last;
/* This thread holds js_fold_mu: set before taking it, cleared after letting go, so that a
 * signal handler on the same thread (I/O, fork, _exit) never waits for its own thread. */
static __thread int js_fold_here __attribute__((tls_model("initial-exec")));

/* 1 when the fold lock was taken; 0 when this thread already holds it, or (wait == 0) when
 * another thread does. */
static int fold_lock(int wait) { return js_lock_mine(&js_fold_mu, &js_fold_here, wait); }
static void fold_unlock(void) { js_unlock_mine(&js_fold_mu, &js_fold_here); }
int64_t js_boundary_s = INT64_MAX; /* single-threaded: the next slice boundary, in seconds */

/* ns per time-stamp-counter tick, calibrated against CLOCK_MONOTONIC over the life of the
 * process (1 where times are read from the clock itself). */
static double js_ns_per_tick(void)
{
#if defined(__x86_64__) || defined(__i386__)
    uint64_t dt = js_ticks() - js_tsc0;
    uint64_t dn = js_clock_ns(CLOCK_MONOTONIC) - js_mono0;
    return dt && dn ? (double)dn / (double)dt : 1.0;
#else
    return 1.0;
#endif
}

static void js_fold_at(uint64_t now, int reap);

/* The modules above the core, handed to js_core_start by hooks.c (the core names none of them,
 * so that no file below calls one above it). */
static const struct js_module *const *js_mods;
static unsigned js_nmods;

/* Each module's hook, in the order hooks.c lists them (none on the path of a read or write). */
#define JS_EACH_MODULE(hook, ...) \
    for (unsigned m_ = 0; m_ < js_nmods; m_++) \
        if (js_mods[m_]->hook) \
            js_mods[m_]->hook(__VA_ARGS__)

static int js_modules_in_use(void)
{
    for (unsigned m = 0; m < js_nmods; m++)
        if (js_mods[m]->in_use && js_mods[m]->in_use())
            return 1;
    return 0;
}

static struct js_thread *js_claim_free(void)
{
    for (struct js_thread *b = __atomic_load_n(&js_list, __ATOMIC_ACQUIRE); b; b = b->next) {
        int expect = JS_T_FREE;
        if (__atomic_compare_exchange_n(&b->state, &expect, JS_T_LIVE, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            return b;
    }
    return NULL;
}

struct js_thread *js_thread_register(void)
{
    int e = errno;
    struct js_thread *t = js_claim_free();
    if (t == NULL && __atomic_load_n(&js_g->threads_used, __ATOMIC_RELAXED) < JS_MAX_THREADS) {
        unsigned i = __atomic_fetch_add(&js_g->threads_used, 1, __ATOMIC_RELAXED);
        if (i < JS_MAX_THREADS && js_rec_reserve(&js_pool[i], sizeof *js_pool) == 0) {
            t = &js_pool[i];
            t->state = JS_T_LIVE;
            struct js_thread *head = __atomic_load_n(&js_list, __ATOMIC_RELAXED);
            do
                t->next = head;
            while (!__atomic_compare_exchange_n(&js_list, &head, t, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
        }
    }
    if (t == NULL && fold_lock(0)) {
        /* every block taken: fold now, which hands on the blocks of ended threads */
        if (js_on)
            js_fold_at(js_now_ns(), 1);
        fold_unlock();
        t = js_claim_free();
    }
    if (t == NULL) { /* more live threads than blocks: this one goes uncounted */
        js_tls = &js_sink;
        errno = e;
        return &js_sink;
    }
    t->tid = js_gettid();
    JS_EACH_MODULE(on_thread_start, t);
    unsigned live = __atomic_add_fetch(&js_g->threads_live, 1, __ATOMIC_RELAXED);
    unsigned peak = __atomic_load_n(&js_g->threads_peak, __ATOMIC_RELAXED);
    while (live > peak && !__atomic_compare_exchange_n(&js_g->threads_peak, &peak, live, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    __atomic_add_fetch(&js_g->threads_seen, 1, __ATOMIC_RELAXED);
    js_tls = t;
    errno = e;
    return t;
}

/* Append a slice, its bytes allocated in the record first (else: truncated, as when full). */
static void js_slice_store(int64_t s, const uint64_t *vec)
{
    struct js_slices *sl = &js_g->slices;
    if (sl->truncated)
        return;
    /* an entry is at most: two varints of 10 bytes and one per value */
    size_t room = sl->cap - sl->len < 10 * (JS_SLICE_COLS + 2) ? sl->cap - sl->len : 10 * (JS_SLICE_COLS + 2);
    if (room == 0 || js_rec_reserve(sl->buf + sl->len, room) != 0) {
        sl->truncated = 1;
        return;
    }
    js_slices_append(sl, s, vec);
}


/* Fold every thread's counts since the last fold: they belong to js_g->cur_slice (every wrapper
 * checks the boundary before it counts). The CPU time since the last fold is spread over the
 * slices of that interval by wall-clock overlap. Caller holds js_fold_mu. reap: hand on the
 * blocks of threads that have ended. */
static void js_fold_at(uint64_t now, int reap)
{
    uint64_t vec[JS_SLICE_COLS] = {0};
    for (struct js_thread *b = __atomic_load_n(&js_list, __ATOMIC_ACQUIRE); b; b = b->next) {
        int dead = 0;
        if (reap && __atomic_load_n(&b->state, __ATOMIC_ACQUIRE) == JS_T_LIVE && b->tid != js_main_tid &&
            js_syscall4(SYS_tgkill, (long)js_pid, (long)b->tid, 0L, 0) == -ESRCH)
            dead = 1; /* its counts are final: fold them, then hand the block on */
        for (int m = 0; m < JS_M_COUNT; m++) {
            uint64_t cur = __atomic_load_n(&b->v[m], __ATOMIC_RELAXED);
            vec[m] += cur - b->snap[m];
            b->snap[m] = cur;
        }
        if (dead) {
            __atomic_sub_fetch(&js_g->threads_live, 1, __ATOMIC_RELAXED);
            __atomic_store_n(&b->state, JS_T_FREE, __ATOMIC_RELEASE);
        }
    }
    /* times stay in ticks (the collector converts them with the last calibration, so that
     * slices and totals agree exactly); totals are the blocks' counters themselves */
    js_g->ns_per_tick = js_ns_per_tick();
    vec[JS_M_CPU_NS] = 0;
    uint64_t cpu = js_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    uint64_t dcpu = cpu > js_cpu_last ? cpu - js_cpu_last : 0;
    js_cpu_last = cpu;
    int counts = 0;
    for (int m = 0; m < JS_M_COUNT; m++)
        counts |= vec[m] != 0;
    js_g->cpu_folded_ns += dcpu;
    /* the kernel's I/O counts since the last fold: spread over the slices like the CPU time (a
     * count that went down, a thread just ended and counted twice, books nothing until it is
     * passed) */
    uint64_t dk[JS_KIO_COUNT] = {0}, dk_left[JS_KIO_COUNT];
    if (js_g->kc_known) {
        js_kc_mark(1, js_main_tid);
        for (int k = 0; k < JS_KIO_COUNT; k++)
            if (js_g->kc_end[k] > js_g->kc_sliced[k]) {
                dk[k] = js_g->kc_end[k] - js_g->kc_sliced[k];
                js_g->kc_sliced[k] = js_g->kc_end[k];
            }
    }
    memcpy(dk_left, dk, sizeof dk);

    const uint64_t len = (uint64_t)js_g->slice_seconds * 1000000000ULL;
    const uint64_t last = js_g->last_fold_ns < now ? js_g->last_fold_ns : now;
    const uint64_t span = now - last;
    const int64_t s_now = js_slice_of_ns((int64_t)now, js_g->slice_seconds);
    /* a slice is recorded when it has counts or at least 1 ms of CPU time */
    const uint64_t min_cpu = 1000000;
    int sparse_cpu = span / len > 2 && (uint64_t)((unsigned __int128)dcpu * len / span) < min_cpu;
    for (int64_t s = js_g->cur_slice; s <= s_now; s++) {
        if (sparse_cpu && s != js_g->cur_slice && s != s_now)
            s = s_now; /* a long quiet stretch: no slice in its middle reaches 1 ms of CPU */
        uint64_t a = (uint64_t)s * len, b = a + len;
        if (a < last)
            a = last;
        if (b > now)
            b = now;
        uint64_t share = span && b > a ? (uint64_t)((unsigned __int128)dcpu * (b - a) / span) : 0;
        uint64_t other[JS_KIO_COUNT], *kio = s == js_g->cur_slice ? vec + JS_M_COUNT : other;
        int kany = 0;
        for (int k = 0; k < JS_KIO_COUNT; k++) { /* the last slice takes what is left */
            kio[k] = s == s_now ? dk_left[k] : span && b > a ? (uint64_t)((unsigned __int128)dk[k] * (b - a) / span) : 0;
            dk_left[k] -= kio[k];
            kany |= kio[k] != 0;
        }
        if (s == js_g->cur_slice) {
            vec[JS_M_CPU_NS] = share;
            if (counts || kany || share >= min_cpu)
                js_slice_store(s, vec);
        } else if (share >= min_cpu || kany) {
            uint64_t row[JS_SLICE_COLS] = {0};
            row[JS_M_CPU_NS] = share;
            memcpy(row + JS_M_COUNT, kio, JS_KIO_COUNT * sizeof *kio);
            js_slice_store(s, row);
        }
    }
    js_g->cur_slice = s_now;
    js_g->last_fold_ns = now;
    if (!js_mt)
        __atomic_store_n(&js_boundary_s, (s_now + 1) * js_g->slice_seconds, __ATOMIC_RELAXED);
}

/* Single-threaded processes have no heartbeat thread (a second thread would make every
 * cancellable system call of the program slower); the first intercepted call after a slice
 * boundary folds instead. Never from inside a fold (a signal handler that does I/O). */
void js_boundary_crossed(void)
{
    int e = errno;
    if (js_on && fold_lock(0)) {
        if (js_on && getpid() == js_pid)
            js_fold_at(js_now_ns(), 1);
        fold_unlock();
    }
    errno = e;
}

/* The heartbeat thread exists only while the program has a thread besides the one it started
 * with: js_prog_threads counts the program's threads (its first included) made through our
 * pthread_create; each one's end is seen by a thread-specific key's destructor (pthread_exit,
 * return, cancellation). When one thread is left the heartbeat folds once more and ends, so a
 * program that is single-threaded again has exactly one thread (Python 3.12 warns at fork()
 * otherwise) and a program whose last thread ends is not kept alive by ours: if the heartbeat
 * is the last thread to end, glibc calls exit(0) from it, as it would from the program's own. */
static int js_prog_threads = 1;  /* under js_hb_mu */
static pthread_key_t js_thread_key;
static int js_thread_key_ok;

static void *js_heartbeat(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&js_hb_mu);
    while (!js_hb_stop) {
        int64_t s = js_slice_of_ns((int64_t)js_now_ns(), js_g->slice_seconds);
        int64_t end_ns = (s + 1) * (int64_t)js_g->slice_seconds * 1000000000LL;
        struct timespec until = {.tv_sec = (time_t)(end_ns / 1000000000LL), .tv_nsec = 0};
        while (!js_hb_stop && (int64_t)js_now_ns() < end_ns)
            pthread_cond_timedwait(&js_hb_cv, &js_hb_mu, &until);
        if (js_hb_stop)
            break;
        pthread_mutex_unlock(&js_hb_mu);
        fold_lock(1);
        if (js_on)
            js_fold_at(js_now_ns(), 1);
        fold_unlock();
        pthread_mutex_lock(&js_hb_mu);
    }
    pthread_mutex_unlock(&js_hb_mu);
    if (fold_lock(1)) {
        /* back to one thread: fold what the others counted, then its own calls close slices
         * (unless a new thread came meanwhile: it starts the next heartbeat after this one) */
        pthread_mutex_lock(&js_hb_mu);
        int single = js_prog_threads <= 1;
        pthread_mutex_unlock(&js_hb_mu);
        if (single && js_on && js_mt) {
            js_fold_at(js_now_ns(), 1);
            js_mt = 0;
            __atomic_store_n(&js_boundary_s, (js_g->cur_slice + 1) * js_g->slice_seconds, __ATOMIC_RELAXED);
        }
        fold_unlock();
    }
    return NULL;
}

/* Start the heartbeat with every signal blocked, so that no signal of the program is ever
 * delivered to it. Caller holds js_hb_mu. */
static int js_hb_start_locked(void)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    static int (*create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    if (create == NULL)
        create = (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))js_next("pthread_create");
    js_hb_stop = 0;
    int rc = create ? create(&js_hb, NULL, js_heartbeat, NULL) : EAGAIN;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    js_hb_running = rc == 0;
    return rc;
}

/* Wait for a heartbeat that was told to stop (it needs only the fold lock to finish). Caller
 * holds js_hb_mu, which is let go while waiting. */
static void js_hb_reap_locked(void)
{
    while (js_hb_running && js_hb_stop) {
        pthread_t hb = js_hb;
        js_hb_running = 0;
        pthread_mutex_unlock(&js_hb_mu);
        pthread_join(hb, NULL);
        pthread_mutex_lock(&js_hb_mu);
    }
}

int js_hb_start(void)
{
    pthread_mutex_lock(&js_hb_mu);
    js_hb_reap_locked();
    int rc = js_hb_running ? 0 : js_hb_start_locked();
    pthread_mutex_unlock(&js_hb_mu);
    return rc;
}

void js_hb_halt(int join)
{
    pthread_mutex_lock(&js_hb_mu);
    if (js_hb_running) {
        js_hb_stop = 1;
        pthread_cond_broadcast(&js_hb_cv);
        if (join && !pthread_equal(pthread_self(), js_hb))
            js_hb_reap_locked();
    }
    pthread_mutex_unlock(&js_hb_mu);
}

int js_hb_is_running(void)
{
    return js_hb_running && !js_hb_stop;
}

/* A thread of the program ends (key destructor, on that thread). */
static void js_thread_gone(void *unused)
{
    (void)unused;
    int e = errno;
    if (js_on)
        js_kc_thread_ended();
    pthread_mutex_lock(&js_hb_mu);
    if (js_prog_threads > 0)
        js_prog_threads--;
    if (js_prog_threads <= 1 && js_hb_running && !js_hb_stop) {
        js_hb_stop = 1;
        pthread_cond_broadcast(&js_hb_cv);
        /* gone before this thread is: whoever joins it then finds one thread left */
        js_hb_reap_locked();
    }
    pthread_mutex_unlock(&js_hb_mu);
    errno = e;
}

/* Did this image move any data (reads, writes, messages)? Opens, closes and dup2 of a child
 * between fork and exec are boilerplate, not activity. */
static int js_any_activity(void)
{
    for (struct js_thread *t = __atomic_load_n(&js_list, __ATOMIC_ACQUIRE); t; t = t->next)
        for (int m = 0; m < JS_M_COUNT; m++) {
            const char *unit = js_profile_metrics[m].unit;
            if (m != JS_M_POSIX_META_CALLS && m != JS_M_POSIX_OPEN_CALLS && m != JS_M_STDIO_META_CALLS &&
                m != JS_M_STDIO_OPEN_CALLS && strcmp(unit, "ns") != 0 && t->v[m])
                return 1;
        }
    return 0;
}

int js_recording_here(void)
{
    return js_on && getpid() == js_pid;
}

static void set_word(char *dst, size_t cap, const char *src)
{
    size_t n = strnlen(src, cap - 1);
    memcpy(dst, src, n);
    memset(dst + n, 0, cap - n);
}

/* The image ends (exit, _exit) or is about to be replaced (exec): a last fold and how it
 * ended go into the record; jobscreen-collect makes the profile of it later. */
void js_end(const char *how)
{
    int e = errno;
    if (!js_on || getpid() != js_pid) { /* vfork child, or a child made without fork handlers */
        errno = e;
        return;
    }
    int is_exit = strcmp(how, "exec") != 0;
    JS_EACH_MODULE(on_image_end); /* e.g. what io_uring rings submitted since the last look */
    if (is_exit)
        js_hb_halt(0);
    /* from a signal handler that interrupted a fold: no fold, the collector folds the rest */
    int locked = fold_lock(1);
    if (__atomic_load_n(&js_g->state, __ATOMIC_ACQUIRE) == JS_REC_LIVE) {
        if (locked)
            js_fold_at(js_now_ns(), 0);
        set_word(js_g->end, sizeof js_g->end, how);
        js_g->end_ns = js_now_ns();
        struct rusage ru;
        if (getrusage(RUSAGE_SELF, &ru) == 0) {
            js_g->cpu_user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_utime.tv_usec * 1000ULL;
            js_g->cpu_sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_stime.tv_usec * 1000ULL;
            js_g->max_rss_kib = (uint64_t)ru.ru_maxrss;
        }
        if (!locked && js_g->kc_known)
            js_kc_mark(1, js_main_tid);
        /* a forked child that only exec'd says nothing: the new image records itself */
        if (!is_exit && strcmp(js_g->origin, "fork") == 0 && !js_any_activity() && !js_modules_in_use() &&
            js_rec_remove() == 0)
            js_g->unlinked = 1;
        __atomic_store_n(&js_g->state, JS_REC_ENDED, __ATOMIC_RELEASE);
        if (is_exit)
            js_on = 0;
    }
    if (locked)
        fold_unlock();
    if (is_exit)
        js_report_error();
    errno = e;
}

/* An exec returned: the image goes on, live again (under a new file if its record was removed). */
void js_exec_failed(void)
{
    int e = errno;
    int locked = fold_lock(1);
    if (js_g->unlinked && js_rec_rehome() != 0) {
        js_on = 0; /* nowhere to record: forward from now on */
        js_rec_detach();
    }
    set_word(js_g->end, sizeof js_g->end, "");
    js_g->end_ns = 0;
    __atomic_store_n(&js_g->state, JS_REC_LIVE, __ATOMIC_RELEASE);
    if (locked)
        fold_unlock();
    errno = e;
}

/* --- the program's threads: every start routine is wrapped, so that the thread's end is seen
 * (key destructor) and threads an MPI library starts inside an MPI call are marked as part of
 * MPI: their POSIX I/O is MPI's lower layer (pipes and sockets of PMIx, progress threads) --- */
struct js_start {
    void *(*fn)(void *);
    void *arg;
    int in_mpi;
};

static void *js_thread_start(void *p)
{
    struct js_start s = *(struct js_start *)p;
    free(p);
    if (js_thread_key_ok)
        pthread_setspecific(js_thread_key, (void *)1);
    if (s.in_mpi) {
        struct js_thread *t = js_self();
        if (t)
            t->in_mpi = 1;
    }
    return s.fn(s.arg);
}

/* A new thread of the program: from now on the heartbeat thread closes the slices. */
static void js_go_multithreaded(void)
{
    int e = errno;
    if (fold_lock(1)) {
        if (!js_mt && js_on && getpid() == js_pid) {
            js_fold_at(js_now_ns(), 0);
            js_mt = 1;
            __atomic_store_n(&js_boundary_s, INT64_MAX, __ATOMIC_RELAXED);
        }
        fold_unlock();
    }
    if (js_mt)
        js_hb_start();
    errno = e;
}

static void js_thread_not_started(void)
{
    js_thread_gone(NULL);
}

JS_EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    JS_REAL(int, pthread_create, (pthread_t *, const pthread_attr_t *, void *(*)(void *), void *));
    if (!js_on || !js_thread_key_ok || getpid() != js_pid)
        return real_pthread_create(th, attr, fn, arg);
    int e = errno;
    struct js_start *s = malloc(sizeof *s);
    errno = e;
    if (s == NULL)
        return real_pthread_create(th, attr, fn, arg);
    struct js_thread *t = js_tls;
    s->fn = fn;
    s->arg = arg;
    s->in_mpi = t != NULL && t->in_mpi;
    pthread_mutex_lock(&js_hb_mu);
    js_prog_threads++;
    int need_hb = !js_hb_running || js_hb_stop;
    pthread_mutex_unlock(&js_hb_mu);
    if (need_hb)
        js_go_multithreaded();
    int rc = real_pthread_create(th, attr, js_thread_start, s);
    if (rc != 0) {
        free(s);
        js_thread_not_started();
        errno = e;
    }
    return rc;
}

/* --- fork --- */
/* fork() is async-signal-safe: a handler may fork while its thread is inside a fold or a file
 * table update; then that lock is not taken (the child re-initialises both anyway). */
static int js_fork_fold_locked;

static void js_atfork_prepare(void)
{
    /* a heartbeat on its way out is gone before the fork: a program that is single-threaded
     * again forks with one thread */
    pthread_mutex_lock(&js_hb_mu);
    js_hb_reap_locked();
    pthread_mutex_unlock(&js_hb_mu);
    js_fork_fold_locked = fold_lock(1);
    JS_EACH_MODULE(on_fork_prepare);
}

static void js_atfork_parent(void)
{
    JS_EACH_MODULE(on_fork_parent);
    if (js_fork_fold_locked)
        fold_unlock();
}

static void js_atfork_child(void)
{
    int e = errno;
    pthread_mutex_init(&js_fold_mu, NULL);
    js_fold_here = 0;
    pthread_mutex_init(&js_hb_mu, NULL);
    pthread_cond_init(&js_hb_cv, NULL);
    JS_EACH_MODULE(on_fork_child_locks);
    js_hb_running = 0;
    js_hb_stop = 0;
    js_prog_threads = 1;
    js_rec_reinit_lock();
    if (!js_on) {
        errno = e;
        return;
    }
    /* the child's own record: a copy of the parent's under the child's pid, mapped over it */
    if (js_rec_rehome() != 0) {
        js_on = 0;
        __atomic_store_n(&js_boundary_s, INT64_MAX, __ATOMIC_RELAXED);
        js_rec_detach();
        errno = e;
        return;
    }
    js_pid = getpid();
    js_main_tid = js_gettid();
    struct js_thread *self = js_tls;
    for (struct js_thread *b = js_list; b; b = b->next) {
        memset(b->v, 0, sizeof b->v); /* the child counts from the fork */
        memset(b->snap, 0, sizeof b->snap);
        b->state = (b == self) ? JS_T_LIVE : JS_T_FREE;
    }
    if (self && self != &js_sink)
        self->tid = js_main_tid;
    js_g->threads_live = js_g->threads_peak = js_g->threads_seen = 1;
    js_g->cpu_folded_ns = 0;
    memset(js_g->coll, 0, sizeof js_g->coll);
    js_g->mpi_setup_ticks = 0;
    js_g->sync_calls = js_g->sync_ticks = 0;
    /* a new process: the kernel counts its I/O from zero, the profiler's own too */
    js_kc_after_fork();
    memset(js_g->kc_start, 0, sizeof js_g->kc_start);
    memset(js_g->kc_end, 0, sizeof js_g->kc_end);
    memset(js_g->kc_sliced, 0, sizeof js_g->kc_sliced);
    js_g->kc_known = 1;
    js_g->cpu_user_start_ns = js_g->cpu_sys_start_ns = 0;
    js_slices_init(&js_g->slices, js_g->slices.buf, JS_PROFILE_SLICE_BUDGET);
    set_word(js_g->origin, sizeof js_g->origin, "fork");
    set_word(js_g->end, sizeof js_g->end, "");
    js_g->state = JS_REC_LIVE;
    memset(&js_g->reaped, 0, sizeof js_g->reaped);
    js_g->exit_code = -1;
    js_g->pid = js_pid;
    js_g->ppid = (int32_t)getppid();
    js_g->end_ns = js_g->cpu_user_ns = js_g->cpu_sys_ns = js_g->max_rss_kib = 0;
    js_g->start_ns = js_now_ns();
    js_g->err_what = NULL;
    js_g->err_reported = 0;
    js_g->mpi_rank = js_g->mpi_size = -1;
    js_cpu_last = js_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    js_g->last_fold_ns = js_g->start_ns;
    js_g->cur_slice = js_slice_of_ns((int64_t)js_g->start_ns, js_g->slice_seconds);
    js_mt = 0; /* the child has one thread */
    js_boundary_s = (js_g->cur_slice + 1) * js_g->slice_seconds;
    JS_EACH_MODULE(on_fork_child); /* the modules count from the fork too */
    errno = e;
}

static int js_env_u64(const char *name, uint64_t *out)
{
    const char *v = getenv(name);
    if (v == NULL || *v == '\0')
        return -1;
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    if (*end != '\0')
        return -1;
    *out = x;
    return 0;
}

static void js_env_str(const char *name, char *dst, size_t cap)
{
    const char *v = getenv(name);
    if (v == NULL)
        v = "";
    size_t n = strnlen(v, cap - 1);
    memcpy(dst, v, n);
    dst[n] = '\0';
}

/* The command line, NULs turned into spaces, truncated to cap - 1 bytes: what
 * /proc/self/cmdline says, taken from the arguments glibc passes to constructors when it
 * does (no /proc read at start), else from /proc. */
static void js_read_args(char *dst, size_t cap, int argc, char **argv)
{
    size_t n = 0;
    if (argc > 0 && argv != NULL) {
        for (int i = 0; i < argc && argv[i] && n < cap - 1; i++) {
            size_t l = strnlen(argv[i], cap - 1 - n);
            memcpy(dst + n, argv[i], l);
            n += l;
            if (n < cap - 1)
                dst[n++] = '\0';
        }
    } else {
        int fd = js_sys_open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC, 0);
        while (fd >= 0 && n < cap - 1) {
            ssize_t r = js_sys_read(fd, dst + n, cap - 1 - n);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;
            n += (size_t)r;
        }
        if (fd >= 0)
            js_sys_close(fd);
    }
    while (n > 0 && dst[n - 1] == '\0')
        n--;
    for (size_t i = 0; i < n; i++)
        if (dst[i] == '\0')
            dst[i] = ' ';
    dst[n] = '\0';
}

void js_core_start(const struct js_module *const *modules, unsigned nmodules, int argc, char **argv)
{
    int e = errno;
    js_mods = modules;
    js_nmods = nmodules;
    const char *dir = getenv("JOBSCREEN_PROFILE_DIR");
    const char *ver = getenv("JOBSCREEN_VERSION");
    size_t vl = ver ? strlen(ver) : 0;
    if (dir == NULL || dir[0] != '/' || (vl >= 4 && strcmp(ver + vl - 4, " off") == 0))
        goto out; /* not a profiled task: forward every call, record nothing */
    size_t dl = strnlen(dir, sizeof js_g->dir);
    if (dl >= sizeof js_g->dir - 1)
        goto out;
    memcpy(js_g->dir, dir, dl + 1);
    while (dl > 1 && js_g->dir[dl - 1] == '/')
        js_g->dir[--dl] = '\0';
    js_g->dir_len = dl;
    js_env_str("JOBSCREEN_STEP", js_g->step, sizeof js_g->step);
    js_env_str("JOBSCREEN_NODE", js_g->node, sizeof js_g->node);
    if (js_g->node[0] == '\0')
        gethostname(js_g->node, sizeof js_g->node - 1);
    if (js_g->step[0] == '\0' || strchr(js_g->step, '/') || strchr(js_g->node, '/'))
        goto out; /* the file name would not be a record name */
    if (js_env_u64("JOBSCREEN_JOB_ID", &js_g->job_id) != 0)
        js_g->job_id = 0;
    js_g->slice_seconds = js_slice_parse_seconds(getenv("JOBSCREEN_SLICE_SECONDS"));
    if (js_g->slice_seconds < 0) {
        js_g->slice_seconds = JS_SLICE_DEFAULT_SECONDS;
        js_note_error("JOBSCREEN_SLICE_SECONDS is not a whole number of seconds; using 4", EINVAL);
    }

    /* the record: from here on everything counted is in the record area, whatever becomes of us; the
     * identity is written straight into it (fewer pages touched than building it aside) */
    if (js_rec_create() != 0)
        goto out;
    js_env_str("JOBSCREEN_CLUSTER", js_g->cluster, sizeof js_g->cluster);
    uint64_t task;
    js_g->task_id = js_env_u64("JOBSCREEN_TASK_ID", &task) == 0 ? (int64_t)task : -1;
    js_pid = getpid();
    js_g->pid = js_pid;
    js_g->ppid = (int32_t)getppid();
    js_g->uid = (uint32_t)getuid();
    gethostname(js_g->hostname, sizeof js_g->hostname - 1);
    ssize_t el = readlink("/proc/self/exe", js_g->exe, sizeof js_g->exe - 1);
    js_g->exe[el > 0 ? el : 0] = '\0';
    js_read_args(js_g->args, sizeof js_g->args, argc, argv);
    set_word(js_g->origin, sizeof js_g->origin, "start");
    js_g->exit_code = -1;
    js_g->ns_per_tick = 1.0;
    js_pool = js_rec_region(js_g->off_threads);
    js_slices_init(&js_g->slices, js_rec_region(js_g->off_slices), JS_PROFILE_SLICE_BUDGET);
    JS_EACH_MODULE(on_start);

    /* after an exec the process's counts include the images before */
    js_main_tid = js_gettid();
    js_kc_mark(0, js_main_tid);
    struct rusage ru0;
    if (getrusage(RUSAGE_SELF, &ru0) == 0) {
        js_g->cpu_user_start_ns = (uint64_t)ru0.ru_utime.tv_sec * 1000000000ULL + (uint64_t)ru0.ru_utime.tv_usec * 1000ULL;
        js_g->cpu_sys_start_ns = (uint64_t)ru0.ru_stime.tv_sec * 1000000000ULL + (uint64_t)ru0.ru_stime.tv_usec * 1000ULL;
    }
    js_tsc0 = js_ticks();
    js_mono0 = js_clock_ns(CLOCK_MONOTONIC);
    js_cpu_last = js_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    js_g->start_ns = js_now_ns();
    js_main_tid = js_gettid();
    js_g->mpi_rank = js_g->mpi_size = -1;
    js_g->last_fold_ns = js_g->start_ns;
    js_g->cur_slice = js_slice_of_ns((int64_t)js_g->start_ns, js_g->slice_seconds);
    js_boundary_s = (js_g->cur_slice + 1) * js_g->slice_seconds;
    js_rec_publish();
    js_on = 1;
    js_thread_register();
    /* the first thread's end (pthread_exit in main) is seen like any other's */
    js_thread_key_ok = pthread_key_create(&js_thread_key, js_thread_gone) == 0;
    if (js_thread_key_ok)
        pthread_setspecific(js_thread_key, (void *)1);
    /* fork handlers only once everything above succeeded */
    pthread_atfork(js_atfork_prepare, js_atfork_parent, js_atfork_child);
out:
    errno = e;
}

void js_core_stop(void)
{
    js_end("exit");
    if (!js_on)
        js_report_error(); /* the record could not be made at start */
}
