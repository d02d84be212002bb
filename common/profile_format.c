/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "profile_format.h"

#include <string.h>

const struct js_metric_def js_profile_metrics[JS_M_COUNT] = {
#define JS_X(id, name, unit, desc) [JS_M_##id] = { name, unit, desc },
    JS_PROFILE_METRICS(JS_X)
#undef JS_X
};

const struct js_metric_def js_profile_slice_cols[JS_SLICE_COLS] = {
#define JS_X(id, name, unit, desc) [JS_M_##id] = { name, unit, desc },
    JS_PROFILE_METRICS(JS_X)
#undef JS_X
#define JS_X(id, name, unit, desc) [JS_M_COUNT + JS_KIO_##id] = { "kernel_" name, unit, desc " (in the slice)" },
    JS_PROFILE_KERNEL_IO_FIELDS(JS_X)
#undef JS_X
};

const char *const js_profile_coll_kinds[JS_COLL_COUNT] = {
#define JS_X(id, name) [JS_COLL_##id] = name,
    JS_PROFILE_COLL_KINDS(JS_X)
#undef JS_X
};

int js_profile_metric_index(const char *name)
{
    for (int i = 0; i < JS_M_COUNT; i++)
        if (strcmp(js_profile_metrics[i].name, name) == 0)
            return i;
    return -1;
}

int js_profile_coll_kind_index(const char *name)
{
    for (int i = 0; i < JS_COLL_COUNT; i++)
        if (strcmp(js_profile_coll_kinds[i], name) == 0)
            return i;
    return -1;
}

/* --- MPI segments: the histogram's bins --- */

/* e^x for 0 <= x < 2.31 by its series, so that neither side needs libm (the profiler links
 * libc alone) and both compute the very same table: 40 terms are past double precision */
static double exp_series(double x)
{
    double term = 1, sum = 1;
    for (int k = 1; k < 40; k++) {
        term *= x / k;
        sum += term;
    }
    return sum;
}

static uint64_t seg_lo[JS_SEG_BINS + 1];
static int seg_lo_ready;

void js_seg_bins_init(void)
{
    if (__atomic_load_n(&seg_lo_ready, __ATOMIC_ACQUIRE))
        return;
    /* lo(b) = 1000 x 10^(9b/1024): the whole decades exactly, the fraction by exp(f ln 10);
     * two threads that fill it at once store the same values */
    for (int b = 0; b <= JS_SEG_BINS; b++) {
        int whole = JS_SEG_DECADES * b / JS_SEG_BINS;
        double frac = (double)(JS_SEG_DECADES * b - whole * JS_SEG_BINS) / JS_SEG_BINS;
        double v = JS_SEG_BIN_MIN_NS * exp_series(frac * 2.302585092994045684);
        for (int d = 0; d < whole; d++)
            v *= 10;
        __atomic_store_n(&seg_lo[b], (uint64_t)(v + 0.5), __ATOMIC_RELAXED);
    }
    __atomic_store_n(&seg_lo_ready, 1, __ATOMIC_RELEASE);
}

uint64_t js_seg_bin_lo_ns(int b)
{
    js_seg_bins_init();
    if (b < 0)
        return 0;
    return seg_lo[b > JS_SEG_BINS ? JS_SEG_BINS : b];
}

int js_seg_bin_of(uint64_t ns)
{
    if (__builtin_expect(!__atomic_load_n(&seg_lo_ready, __ATOMIC_ACQUIRE), 0))
        js_seg_bins_init();
    if (ns < seg_lo[1])
        return 0;
    if (ns >= seg_lo[JS_SEG_BINS - 1])
        return JS_SEG_BINS - 1;
    int lo = 1, hi = JS_SEG_BINS - 1; /* lo(lo) <= ns < lo(hi) */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (seg_lo[mid] <= ns)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int js_profile_member_bundled(const char *name)
{
    return strcmp(name, "slice_metrics") != 0 && strcmp(name, "slices") != 0;
}
