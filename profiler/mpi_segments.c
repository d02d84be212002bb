/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MPI segments (profile format 6, docs/profiler.md "MPI segments"): the durations of the
 * stretches between global blocking collectives, grouped by what the stretch did (its
 * signature), for the single-run interference estimate. mpi.c calls js_seg_boundary() at the end
 * of each boundary; everything lives in the record's segment region (profile.h), so a process
 * killed at any instruction leaves what it had. Any thread may end a segment: groups are claimed
 * by compare-and-swap, counters are atomic adds; only the list of the slowest takes a spin lock,
 * and only for a segment slower than all it holds.
 */
#include "config.h"

#include "js.h"
#include "modules.h"
#include "profile.h"

#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#define JS_PAUSE() __builtin_ia32_pause()
#else
#define JS_PAUSE() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

static struct js_seg_store *js_seg; /* NULL: no segments recorded (not MPI, or no room) */

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint32_t *hist_of(int g)
{
    return (uint32_t *)(void *)((char *)js_seg + JS_REC_CHUNK * (size_t)(g + 1));
}

static void snap_features(struct js_thread *t)
{
#define JS_X(m) t->seg_v[JS_SEGF_##m] = t->v[JS_M_##m];
    JS_SEG_FEATURES(JS_X)
#undef JS_X
}

/* a block handed to a new thread */
static void seg_thread_start(struct js_thread *t)
{
    t->seg_t0 = 0;
    snap_features(t);
}

void js_seg_init_done(void)
{
    struct js_thread *t = js_tls;
    struct js_seg_store *s = js_rec_region(js_g->off_segs);
    if (s == NULL || t == NULL || js_rec_reserve(s, JS_REC_CHUNK) != 0)
        return;
    js_seg_bins_init(); /* the table of bins, now rather than inside the first segment */
    uint64_t now = mono_ns();
    s->init_end_ns = now;
    t->seg_t0 = now;
    snap_features(t);
    __atomic_store_n(&js_seg, s, __ATOMIC_RELEASE);
}

/* the child's store starts empty */
static void seg_after_fork(void)
{
    /* MPI does not carry over into a forked child: it records no segments */
    if (js_seg)
        memset(js_seg, 0, sizeof *js_seg);
    js_seg = NULL;
}

/* The group of signature sig (made when new): its index, or -1 (no free group, no room for its
 * histogram, or another thread stuck making it). Slots are claimed in probe order and never
 * freed, so the first free slot met means the signature is not there. */
static int group_of(struct js_seg_store *s, uint64_t sig, int kind)
{
    unsigned start = (unsigned)(sig ^ sig >> 32) % JS_SEG_MAX_GROUPS;
    for (unsigned i = 0; i < JS_SEG_MAX_GROUPS; i++) {
        unsigned k = (start + i) % JS_SEG_MAX_GROUPS;
        struct js_seg_group *g = &s->groups[k];
        int32_t st = __atomic_load_n(&g->state, __ATOMIC_ACQUIRE);
        if (st == JS_SEG_FREE) {
            int32_t expect = JS_SEG_FREE;
            if (__atomic_compare_exchange_n(&g->state, &expect, JS_SEG_CLAIMING, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                g->sig = sig;
                g->kind = kind;
                g->min_ns = UINT64_MAX;
                int ok = js_rec_reserve(hist_of((int)k), JS_REC_CHUNK) == 0;
                __atomic_store_n(&g->state, ok ? JS_SEG_READY : JS_SEG_NO_ROOM, __ATOMIC_RELEASE);
                return ok ? (int)k : -1;
            }
            st = expect;
        }
        for (unsigned spin = 0; st == JS_SEG_CLAIMING && spin < (1u << 22); spin++) {
            JS_PAUSE();
            st = __atomic_load_n(&g->state, __ATOMIC_ACQUIRE);
        }
        if (st == JS_SEG_CLAIMING)
            return -1;
        if (g->sig == sig)
            return st == JS_SEG_READY ? (int)k : -1;
    }
    return -1;
}

static void atomic_min(uint64_t *p, uint64_t v)
{
    uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < cur && !__atomic_compare_exchange_n(p, &cur, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

static void atomic_max(uint64_t *p, uint64_t v)
{
    uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v > cur && !__atomic_compare_exchange_n(p, &cur, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* Among the slowest of the image? Checked without the lock first: nearly every segment is not. */
static void note_slow(struct js_seg_store *s, uint64_t ns, int group)
{
    if (__atomic_load_n(&s->nslow, __ATOMIC_RELAXED) >= JS_SEG_SLOWEST && ns <= __atomic_load_n(&s->slow_min, __ATOMIC_RELAXED))
        return;
    struct js_seg_slow e = {js_now_ns(), ns, group, 0};
    while (__atomic_exchange_n(&s->slow_lock, 1, __ATOMIC_ACQUIRE))
        JS_PAUSE();
    unsigned n = s->nslow;
    if (n < JS_SEG_SLOWEST) {
        s->slow[n] = e;
        __atomic_store_n(&s->nslow, n + 1, __ATOMIC_RELAXED);
    } else {
        unsigned least = 0;
        for (unsigned i = 1; i < JS_SEG_SLOWEST; i++)
            if (s->slow[i].ns < s->slow[least].ns)
                least = i;
        if (ns > s->slow[least].ns)
            s->slow[least] = e;
    }
    if (s->nslow >= JS_SEG_SLOWEST) {
        uint64_t m = UINT64_MAX;
        for (unsigned i = 0; i < JS_SEG_SLOWEST; i++)
            m = s->slow[i].ns < m ? s->slow[i].ns : m;
        __atomic_store_n(&s->slow_min, m, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&s->slow_lock, 0, __ATOMIC_RELEASE);
}

#define JS_FNV_OFFSET 0xcbf29ce484222325ULL
#define JS_FNV_PRIME 0x100000001b3ULL

void js_seg_boundary(struct js_thread *t, int kind, uint64_t bytes)
{
    struct js_seg_store *s = __atomic_load_n(&js_seg, __ATOMIC_ACQUIRE);
    if (s == NULL || t == NULL)
        return;
    uint64_t now = mono_ns();
    uint64_t t0 = t->seg_t0 ? t->seg_t0 : s->init_end_ns;
    uint64_t ns = now > t0 ? now - t0 : 0;
    t->seg_t0 = now;
    /* FNV-1a a 64-bit word at a time (not a byte: 8 times fewer multiplications in a chain) */
    uint64_t h = JS_FNV_OFFSET;
#define JS_X(m) \
    { \
        uint64_t c = t->v[JS_M_##m]; \
        h = (h ^ (c - t->seg_v[JS_SEGF_##m])) * JS_FNV_PRIME; \
        t->seg_v[JS_SEGF_##m] = c; \
    }
    JS_SEG_FEATURES(JS_X)
#undef JS_X
    h = (h ^ (uint64_t)kind) * JS_FNV_PRIME;
    h = (h ^ bytes) * JS_FNV_PRIME;

    __atomic_fetch_add(&s->boundaries, 1, __ATOMIC_RELAXED);
    int g = group_of(s, h, kind);
    if (g < 0) {
        __atomic_fetch_add(&s->ungrouped, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&s->ungrouped_ns, ns, __ATOMIC_RELAXED);
    } else {
        struct js_seg_group *gr = &s->groups[g];
        __atomic_fetch_add(&hist_of(g)[js_seg_bin_of(ns)], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&gr->sum_ns, ns, __ATOMIC_RELAXED);
        atomic_min(&gr->min_ns, ns);
        atomic_max(&gr->max_ns, ns);
        /* count last: a reader of a live record sees no more segments than the bins hold */
        __atomic_fetch_add(&gr->count, 1, __ATOMIC_RELEASE);
    }
    note_slow(s, ns, g);
}

const struct js_module js_seg_module = {
    .name = "mpi_segments",
    .on_thread_start = seg_thread_start,
    .on_fork_child = seg_after_fork,
};
