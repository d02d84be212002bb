/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A step-node's budget (issue 35): what its accepted processes add up to, per slice and in
 * total, held against what one node can do in that time. Each profile is checked alone by
 * validate.c; a bundle of 2,000 profiles each at that bound would still add up to what no node
 * does (3.2e16 bytes read in one slice, shown in every other user's background). A profile is
 * taken only when the step-node's sums with it stay within the node's bounds (docs/ingest.md,
 * "Plausible values"); else it is refused with the reason, like any implausible profile. The
 * sums never overflow, so the merge of the slices (aggregate.c) cannot wrap.
 */
#include "config.h"

#include "validate.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EMPTY INT64_MIN

/* Times in calls are bounded per process only (a call that waited hours ends in one slice):
 * summed, they must only not overflow. */
static int overflow_only(int col) { return col != JS_M_CPU_NS && !strcmp(js_profile_slice_cols[col].unit, "ns"); }

/* The most a node does in `seconds` of value col of a slice row (or of the totals), at
 * validate.c's rates; CPU time twice over for a slice (a process killed between two folds
 * leaves the CPU time since the last one in its last slice). */
static double node_bound(const struct pi_conf *conf, int col, double seconds, int slice)
{
    if (overflow_only(col))
        return (double)INT64_MAX;
    double rate = pi_node_rate(conf, js_profile_slice_cols[col].unit, col == JS_M_CPU_NS);
    return (col == JS_M_CPU_NS && slice ? 2.0 : 1.0) * rate * seconds;
}

static size_t slot_of(const struct pi_budget *b, int64_t slice)
{
    uint64_t h = (uint64_t)slice * 0x9E3779B97F4A7C15ULL;
    size_t i = (size_t)(h >> 20) & (b->cap - 1);
    while (b->keys[i] != EMPTY && b->keys[i] != slice)
        i = (i + 1) & (b->cap - 1);
    return i;
}

static int grow(struct pi_budget *b)
{
    size_t cap = b->cap ? 2 * b->cap : 256;
    int64_t *keys = malloc(cap * sizeof *keys);
    int64_t(*sums)[JS_SLICE_COLS] = calloc(cap, sizeof *sums);
    if (!keys || !sums) {
        free(keys);
        free(sums);
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        keys[i] = EMPTY;
    struct pi_budget nb = { keys, sums, 0, cap, { 0 } };
    for (size_t i = 0; i < b->cap; i++)
        if (b->keys[i] != EMPTY) {
            size_t j = slot_of(&nb, b->keys[i]);
            nb.keys[j] = b->keys[i];
            memcpy(nb.sums[j], b->sums[i], sizeof nb.sums[j]);
            nb.n++;
        }
    free(b->keys);
    free(b->sums);
    b->keys = nb.keys;
    b->sums = nb.sums;
    b->cap = cap;
    return 0;
}

/* The sums of a slice so far (NULL: none yet). */
static const int64_t *sums_of(const struct pi_budget *b, int64_t slice)
{
    if (!b->cap)
        return NULL;
    size_t i = slot_of(b, slice);
    return b->keys[i] == slice ? b->sums[i] : NULL;
}

/* have + v within bound, else the reason (a refusal as validate.c words them) */
static int fits(int64_t have, int64_t v, double bound, const char *where, int col, double seconds,
                const struct pi_conf *conf, char *reason, size_t size)
{
    int64_t sum;
    if (!__builtin_add_overflow(have, v, &sum) && (double)sum <= bound)
        return 0;
    char why[96];
    if (overflow_only(col))
        snprintf(why, sizeof why, "more than a 64-bit sum holds");
    else
        pi_node_rate_words(conf, js_profile_slice_cols[col].unit, col == JS_M_CPU_NS, seconds, why, sizeof why);
    pi_invalid(reason, size, "%s: %s of the step-node with this process would be %.4g, more than %.3g, %s: not plausible",
               where, js_profile_slice_cols[col].name, (double)have + (double)v, bound, why);
    return -1;
}

/* Whether a row of ncols values of slice `slice` fits with the sums so far (where: the row's
 * name in the reason). */
static int row_fits(const struct pi_step *st, const struct pi_conf *conf, int64_t slice, const int64_t *v, int ncols,
                    const char *where, char *reason, size_t size)
{
    double L = (double)st->slice_seconds;
    const int64_t *have = sums_of(&st->budget, slice);
    for (int k = 0; k < ncols; k++)
        if (fits(have ? have[k] : 0, v[k], node_bound(conf, k, L, 1), where, k, L, conf, reason, size))
            return -1;
    return 0;
}

static void row_take(struct pi_budget *b, int64_t slice, const int64_t *v, int ncols)
{
    if ((b->n + 1) * 2 > b->cap && grow(b) != 0)
        abort(); /* as grow() in aggregate.c: out of memory */
    size_t j = slot_of(b, slice);
    if (b->keys[j] == EMPTY) {
        b->keys[j] = slice;
        b->n++;
    }
    for (int k = 0; k < ncols; k++)
        b->sums[j][k] += v[k];
}

/* A profile's slice row as values (ncols of them). */
static int64_t row_values(const json_t *row, int ncols, int64_t *v)
{
    for (int k = 0; k < ncols; k++)
        v[k] = json_integer_value(json_array_get(row, (size_t)k + 1));
    return json_integer_value(json_array_get(row, 0));
}

/* The totals of a profile (JS_M_COUNT values) within the step-node's, over the node's span. */
static int totals_fit(const struct pi_step *st, const struct pi_conf *conf, const int64_t *tot, char *reason, size_t size)
{
    double span = (double)(st->end_ns - st->start_ns + 2 * PI_PROFILE_SLACK_NS) / 1e9 + 2.0 * (double)st->slice_seconds;
    for (int m = 0; m < JS_M_COUNT; m++)
        if (fits(st->budget.totals[m], tot[m], node_bound(conf, m, span, 0), "totals", m, span, conf, reason, size))
            return -1;
    return 0;
}

int pi_budget_take_totals(struct pi_step *st, const struct pi_conf *conf, const int64_t *tot, char *reason, size_t size)
{
    if (totals_fit(st, conf, tot, reason, size))
        return PI_INVALID;
    for (int m = 0; m < JS_M_COUNT; m++)
        st->budget.totals[m] += tot[m];
    return PI_OK;
}

int pi_budget_take(struct pi_step *st, const struct pi_conf *conf, const json_t *p, int ncols, char *reason, size_t size)
{
    /* the node's span from the step record, which root wrote: the profile's own times may lie
     * a slack outside it (validate.c) */
    const json_t *tot = json_object_get(p, "totals"), *row;
    size_t i;
    int64_t v[JS_SLICE_COLS], t[JS_M_COUNT];
    char where[64];
    for (int m = 0; m < JS_M_COUNT; m++)
        t[m] = (int64_t)json_integer_value(json_object_get(tot, js_profile_metrics[m].name));
    if (totals_fit(st, conf, t, reason, size))
        return PI_INVALID;
    json_array_foreach(json_object_get(p, "slices"), i, row) {
        int64_t slice = row_values(row, ncols, v);
        snprintf(where, sizeof where, "slices[%zu]", i);
        if (row_fits(st, conf, slice, v, ncols, where, reason, size))
            return PI_INVALID;
    }
    for (int m = 0; m < JS_M_COUNT; m++)
        st->budget.totals[m] += t[m];
    json_array_foreach(json_object_get(p, "slices"), i, row) {
        int64_t slice = row_values(row, ncols, v);
        row_take(&st->budget, slice, v, ncols);
    }
    return PI_OK;
}

int pi_budget_take_slices(struct pi_step *st, const struct pi_conf *conf, const struct pi_slice *s, size_t n, char *reason,
                          size_t size)
{
    char where[64];
    /* a series holds a slice once: each row against the sums before the series */
    for (size_t i = 0; i < n; i++) {
        snprintf(where, sizeof where, "series: slice %" PRId64, s[i].slice);
        if (row_fits(st, conf, s[i].slice, s[i].m, JS_SLICE_COLS, where, reason, size))
            return PI_INVALID;
    }
    for (size_t i = 0; i < n; i++)
        row_take(&st->budget, s[i].slice, s[i].m, JS_SLICE_COLS);
    return PI_OK;
}

void pi_budget_free(struct pi_budget *b)
{
    free(b->keys);
    free(b->sums);
    memset(b, 0, sizeof *b);
}
