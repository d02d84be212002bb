/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the profiler and jobscreen-collect both need of a record: its layout and size, the
 * bytes it holds, and the job's share of the spool on a node (common/record_quota.h), charged by
 * the profiler and discharged by the collector. Lock-free: a process killed at any instruction
 * leaves the ledger consistent (at worst a charge that is never discharged, on the safe side).
 */
#include "config.h"

#include "js.h"
#include "profile.h"

#include <string.h>

static uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

uint64_t js_rec_layout(struct js_global *g)
{
    g->off_threads = JS_REC_HEADER_BYTES;
    g->off_files = g->off_threads + align_up(sizeof(struct js_thread) * JS_MAX_THREADS, JS_REC_CHUNK);
    g->off_paths = g->off_files + align_up(sizeof(struct js_file) * JS_PROFILE_MAX_FILES, JS_REC_CHUNK);
    g->off_slices = g->off_paths + JS_REC_PATH_BYTES;
    g->off_segs = g->off_slices + align_up(JS_PROFILE_SLICE_BUDGET, JS_REC_CHUNK);
    return g->off_segs + JS_REC_SEG_BYTES;
}

int js_quota_charge(struct js_quota *q, int64_t files, int64_t bytes)
{
    if (q == NULL)
        return 0;
    int64_t f = __atomic_add_fetch(&q->files, files, __ATOMIC_RELAXED);
    int64_t b = __atomic_add_fetch(&q->bytes, bytes, __ATOMIC_RELAXED);
    if ((files > 0 && q->cap_files > 0 && f > q->cap_files) || (bytes > 0 && q->cap_bytes > 0 && b > q->cap_bytes)) {
        __atomic_sub_fetch(&q->files, files, __ATOMIC_RELAXED);
        __atomic_sub_fetch(&q->bytes, bytes, __ATOMIC_RELAXED);
        return -1;
    }
    return 0;
}

void js_quota_refused(struct js_quota *q, const char *step)
{
    if (q == NULL)
        return;
    size_t n = strnlen(step, sizeof q->steps[0].step - 1);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < JS_QUOTA_STEPS; i++) {
            int64_t st = __atomic_load_n(&q->steps[i].state, __ATOMIC_ACQUIRE);
            if (st == 2 && strncmp(q->steps[i].step, step, n) == 0 && q->steps[i].step[n] == '\0') {
                __atomic_add_fetch(&q->steps[i].refused, 1, __ATOMIC_RELAXED);
                return;
            }
            int64_t free_state = 0;
            if (pass == 1 && st == 0 &&
                __atomic_compare_exchange_n(&q->steps[i].state, &free_state, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
                memcpy(q->steps[i].step, step, n);
                q->steps[i].step[n] = '\0';
                __atomic_add_fetch(&q->steps[i].refused, 1, __ATOMIC_RELAXED);
                __atomic_store_n(&q->steps[i].state, 2, __ATOMIC_RELEASE);
                return;
            }
        }
}

int64_t js_quota_take_refused(struct js_quota *q, const char *step)
{
    int64_t n = 0;
    for (int i = 0; q && i < JS_QUOTA_STEPS; i++)
        if (__atomic_load_n(&q->steps[i].state, __ATOMIC_ACQUIRE) == 2 &&
            strncmp(q->steps[i].step, step, sizeof q->steps[i].step) == 0)
            n += __atomic_exchange_n(&q->steps[i].refused, 0, __ATOMIC_RELAXED);
    return n;
}

int64_t js_rec_allocated(const struct js_global *g)
{
    int64_t n = 0;
    for (unsigned w = 0; w < JS_REC_CHUNK_WORDS; w++)
        n += __builtin_popcountll(__atomic_load_n(&g->alloc[w], __ATOMIC_RELAXED));
    return n * JS_REC_CHUNK;
}
