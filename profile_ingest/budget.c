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

/* Whether the profile's slices fit (ncols values a row). */
static int slices_fit(const struct pi_step *st, const struct pi_conf *conf, const json_t *p, int ncols, char *reason,
                      size_t size)
{
    double L = (double)st->slice_seconds;
    const json_t *row;
    size_t i;
    char where[64];
    json_array_foreach(json_object_get(p, "slices"), i, row) {
        const int64_t *have = sums_of(&st->budget, json_integer_value(json_array_get(row, 0)));
        for (int k = 0; k < ncols; k++) {
            int64_t v = json_integer_value(json_array_get(row, (size_t)k + 1));
            snprintf(where, sizeof where, "slices[%zu]", i);
            if (fits(have ? have[k] : 0, v, node_bound(conf, k, L, 1), where, k, L, conf, reason, size))
                return -1;
        }
    }
    return 0;
}

int pi_budget_take(struct pi_step *st, const struct pi_conf *conf, const json_t *p, int ncols, char *reason, size_t size)
{
    struct pi_budget *b = &st->budget;
    /* the node's span from the step record, which root wrote: the profile's own times may lie
     * a slack outside it (validate.c) */
    double span = (double)(st->end_ns - st->start_ns + 2 * PI_PROFILE_SLACK_NS) / 1e9 + 2.0 * (double)st->slice_seconds;
    const json_t *tot = json_object_get(p, "totals");
    for (int m = 0; m < JS_M_COUNT; m++)
        if (fits(b->totals[m], (int64_t)json_integer_value(json_object_get(tot, js_profile_metrics[m].name)),
                 node_bound(conf, m, span, 0), "totals", m, span, conf, reason, size))
            return PI_INVALID;
    if (slices_fit(st, conf, p, ncols, reason, size))
        return PI_INVALID;
    for (int m = 0; m < JS_M_COUNT; m++)
        b->totals[m] += (int64_t)json_integer_value(json_object_get(tot, js_profile_metrics[m].name));
    const json_t *row;
    size_t i;
    json_array_foreach(json_object_get(p, "slices"), i, row) {
        if ((b->n + 1) * 2 > b->cap && grow(b) != 0)
            abort(); /* as grow() in aggregate.c: out of memory */
        int64_t slice = json_integer_value(json_array_get(row, 0));
        size_t j = slot_of(b, slice);
        if (b->keys[j] == EMPTY) {
            b->keys[j] = slice;
            b->n++;
        }
        for (int k = 0; k < ncols; k++)
            b->sums[j][k] += json_integer_value(json_array_get(row, (size_t)k + 1));
    }
    return PI_OK;
}

void pi_budget_free(struct pi_budget *b)
{
    free(b->keys);
    free(b->sums);
    memset(b, 0, sizeof *b);
}
