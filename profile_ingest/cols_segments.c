/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MPI segments of a bundle of version 3's processes (columns "mpi_segments.*", tables of
 * their groups, the groups' bins and their slowest: common/bundle_cols.h): checked as
 * ingest_segments.c checks a profile's "mpi_segments" (the same bounds, in the same words) and
 * added into the step-node's the same way, without a JSON object per process.
 */
#include "config.h"

#include "cols_read.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COLS(X) \
    X(SEG, "mpi_segments") X(BOUNDARIES, "mpi_segments.boundaries") X(UNGROUPED, "mpi_segments.ungrouped") \
    X(UNGROUPED_NS, "mpi_segments.ungrouped_ns") X(BIN_MIN_NS, "mpi_segments.bin_min_ns") \
    X(BIN_COUNT, "mpi_segments.bin_count") X(DECADES, "mpi_segments.decades") X(SIG, "mpi_segments.groups.signature") \
    X(BOUNDARY, "mpi_segments.groups.boundary") X(COUNT, "mpi_segments.groups.count") \
    X(SUM_NS, "mpi_segments.groups.sum_ns") X(MIN_NS, "mpi_segments.groups.min_ns") \
    X(MAX_NS, "mpi_segments.groups.max_ns") X(BIN, "mpi_segments.groups.bins.bin") \
    X(BIN_N, "mpi_segments.groups.bins.count") X(S_END_NS, "mpi_segments.slowest.end_ns") \
    X(S_NS, "mpi_segments.slowest.ns") X(S_GROUP, "mpi_segments.slowest.group")
enum {
#define X(id, name) SC_##id,
    COLS(X)
#undef X
    SC_N
};
static const char *const names[SC_N] = {
#define X(id, name) name,
    COLS(X)
#undef X
};
static int ix[SC_N];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void ix_init(void)
{
    for (int k = 0; k < SC_N; k++)
        ix[k] = pi_col(names[k]);
}

static int64_t at(const struct pi_cols *c, int k, size_t r) { return pi_col_at(c, ix[k], r); }

static const char *str_at(const struct pi_cols *c, int k, size_t r)
{
    size_t n;
    return pi_col_str(c, ix[k], r, &n);
}

/* the columns from..to (S_*) at row r: present, of their type */
static int fields_ok(const struct pi_cols *c, int from, int to, size_t r, const char *where, char *reason, size_t size)
{
    for (int k = from; k <= to; k++) {
        const struct js_col_def *d = js_cols_def(ix[k]);
        if (!c->col[ix[k]].present || (d->type == 'u' && pi_col_at(c, ix[k], r) < 0))
            return pi_invalid(reason, size, "%s: field \"%s\" is missing or not %s", where, d->field,
                              d->type == 's' ? "a string" : d->type == 'u' ? "a non-negative integer" : "an integer");
    }
    return PI_OK;
}

/* Group row g (the process's i-th): its bins ascending below JS_SEG_BINS, counts >= 1 adding up
 * to its count. */
static int check_bins(const struct pi_cols *c, size_t g, size_t i, char *reason, size_t size)
{
    int64_t last = -1, sum = 0;
    for (size_t r = c->first[PI_REL_SEG_BINS][g], k = 0; r < c->first[PI_REL_SEG_BINS][g + 1]; r++, k++) {
        int64_t b = at(c, SC_BIN, r), n = at(c, SC_BIN_N, r);
        if (b <= last || b >= JS_SEG_BINS)
            return pi_invalid(reason, size, "mpi_segments.groups[%zu].bins[%zu]: bin %" PRId64 " is not ascending within 0..%d", i, k, b,
                              JS_SEG_BINS - 1);
        if (n < 1 || n > INT64_MAX - sum)
            return pi_invalid(reason, size, "mpi_segments.groups[%zu].bins[%zu]: count %" PRId64 " is not at least 1", i, k, n);
        last = b;
        sum += n;
    }
    if (sum != at(c, SC_COUNT, g))
        return pi_invalid(reason, size, "mpi_segments.groups[%zu]: its bins hold %" PRId64 " segments, its count says %" PRId64, i, sum,
                          at(c, SC_COUNT, g));
    return PI_OK;
}

static int check_groups(const struct pi_cols *c, size_t p, int64_t *counted, char *reason, size_t size)
{
    char where[48];
    for (size_t g = c->first[PI_REL_SEG_GROUPS][p], i = 0; g < c->first[PI_REL_SEG_GROUPS][p + 1]; g++, i++) {
        snprintf(where, sizeof where, "mpi_segments.groups[%zu]", i);
        if (fields_ok(c, SC_SIG, SC_MAX_NS, g, where, reason, size) != PI_OK)
            return PI_INVALID;
        const char *sig = str_at(c, SC_SIG, g);
        if (strlen(sig) != 16 || strspn(sig, "0123456789abcdef") != 16)
            return pi_invalid(reason, size, "mpi_segments.groups[%zu]: signature is not 16 lower-case hex digits", i);
        if (js_profile_coll_kind_index(str_at(c, SC_BOUNDARY, g)) < 0)
            return pi_invalid(reason, size, "mpi_segments.groups[%zu]: boundary \"%.32s\" is no collective kind", i, str_at(c, SC_BOUNDARY, g));
        if (at(c, SC_MIN_NS, g) > at(c, SC_MAX_NS, g) || at(c, SC_SUM_NS, g) < at(c, SC_MAX_NS, g))
            return pi_invalid(reason, size, "mpi_segments.groups[%zu]: min_ns, max_ns and sum_ns disagree", i);
        if (check_bins(c, g, i, reason, size) != PI_OK)
            return PI_INVALID;
        if (at(c, SC_COUNT, g) > INT64_MAX - *counted)
            return pi_invalid(reason, size, "mpi_segments.groups[%zu]: count out of range", i);
        *counted += at(c, SC_COUNT, g);
    }
    return PI_OK;
}

int pi_cols_segments_check(const struct pi_cols *c, size_t p, char *reason, size_t size)
{
    pthread_once(&once, ix_init);
    size_t ng = c->first[PI_REL_SEG_GROUPS][p + 1] - c->first[PI_REL_SEG_GROUPS][p];
    size_t ns = c->first[PI_REL_SEG_SLOWEST][p + 1] - c->first[PI_REL_SEG_SLOWEST][p];
    int64_t has = at(c, SC_SEG, p);
    if (has != 0 && has != 1)
        return pi_invalid(reason, size, "field \"mpi_segments\" is not an object");
    if (!has)
        return ng || ns ? pi_invalid(reason, size, "mpi_segments: groups or slowest without its other members") : PI_OK;
    if (fields_ok(c, SC_BOUNDARIES, SC_DECADES, p, "mpi_segments", reason, size) != PI_OK)
        return PI_INVALID;
    if (at(c, SC_BIN_MIN_NS, p) != JS_SEG_BIN_MIN_NS || at(c, SC_BIN_COUNT, p) != JS_SEG_BINS || at(c, SC_DECADES, p) != JS_SEG_DECADES)
        return pi_invalid(reason, size, "mpi_segments: the histograms' scale is not %d ns, %d bins over %d decades", JS_SEG_BIN_MIN_NS,
                          JS_SEG_BINS, JS_SEG_DECADES);
    int64_t counted = at(c, SC_UNGROUPED, p);
    if (check_groups(c, p, &counted, reason, size) != PI_OK)
        return PI_INVALID;
    if (counted > at(c, SC_BOUNDARIES, p))
        return pi_invalid(reason, size, "mpi_segments: the groups and ungrouped hold %" PRId64 " segments, more than its %" PRId64 " boundaries",
                          counted, at(c, SC_BOUNDARIES, p));
    char where[48];
    for (size_t r = c->first[PI_REL_SEG_SLOWEST][p], i = 0; r < c->first[PI_REL_SEG_SLOWEST][p + 1]; r++, i++) {
        snprintf(where, sizeof where, "mpi_segments.slowest[%zu]", i);
        if (fields_ok(c, SC_S_END_NS, SC_S_GROUP, r, where, reason, size) != PI_OK)
            return PI_INVALID;
        if (at(c, SC_S_GROUP, r) < -1 || at(c, SC_S_GROUP, r) >= (int64_t)ng)
            return pi_invalid(reason, size, "mpi_segments.slowest[%zu]: group %" PRId64 " is not one of its groups (or -1)", i, at(c, SC_S_GROUP, r));
    }
    return PI_OK;
}

/* group row g into the step-node's groups (pi_seg_group_merge), with its bins */
static void add_group(struct pi_step *st, const struct pi_cols *c, size_t g)
{
    struct pi_seg_group *x = pi_seg_group_merge(st, str_at(c, SC_SIG, g), str_at(c, SC_BOUNDARY, g), at(c, SC_COUNT, g),
                                                at(c, SC_SUM_NS, g), at(c, SC_MIN_NS, g), at(c, SC_MAX_NS, g));
    if (!x)
        return;
    for (size_t r = c->first[PI_REL_SEG_BINS][g]; r < c->first[PI_REL_SEG_BINS][g + 1]; r++) {
        int64_t *bin = &x->bins[at(c, SC_BIN, r)];
        *bin = pi_sat_add(*bin, at(c, SC_BIN_N, r));
    }
}

void pi_cols_segments_add(struct pi_step *st, const struct pi_cols *c, size_t p, int64_t rank)
{
    pthread_once(&once, ix_init);
    if (!at(c, SC_SEG, p))
        return;
    st->seg_processes++;
    st->seg_boundaries = pi_sat_add(st->seg_boundaries, at(c, SC_BOUNDARIES, p));
    st->seg_ungrouped = pi_sat_add(st->seg_ungrouped, at(c, SC_UNGROUPED, p));
    st->seg_ungrouped_ns = pi_sat_add(st->seg_ungrouped_ns, at(c, SC_UNGROUPED_NS, p));
    size_t g0 = c->first[PI_REL_SEG_GROUPS][p];
    for (size_t g = g0; g < c->first[PI_REL_SEG_GROUPS][p + 1]; g++)
        add_group(st, c, g);
    /* the node's slowest (pi_seg_slow_add) */
    for (size_t r = c->first[PI_REL_SEG_SLOWEST][p]; r < c->first[PI_REL_SEG_SLOWEST][p + 1]; r++) {
        struct pi_seg_slow e = { rank, at(c, SC_S_END_NS, r), at(c, SC_S_NS, r), "" };
        int64_t gi = at(c, SC_S_GROUP, r);
        if (gi >= 0)
            snprintf(e.sig, sizeof e.sig, "%s", str_at(c, SC_SIG, g0 + (size_t)gi));
        pi_seg_slow_add(st, &e);
    }
}

json_t *pi_cols_segments_json(const struct pi_cols *c, size_t p)
{
    pthread_once(&once, ix_init);
    if (!at(c, SC_SEG, p))
        return json_object();
    json_t *o = pi_cols_object_of(c, "mpi_segments", JS_CT_PROC, p), *groups = json_array(), *slowest = json_array();
    for (size_t g = c->first[PI_REL_SEG_GROUPS][p]; g < c->first[PI_REL_SEG_GROUPS][p + 1]; g++) {
        json_t *e = pi_cols_object_of(c, "mpi_segments.groups", JS_CT_SEG_GROUPS, g), *bins = json_array();
        for (size_t r = c->first[PI_REL_SEG_BINS][g]; r < c->first[PI_REL_SEG_BINS][g + 1]; r++)
            json_array_append_new(bins, json_pack("[I, I]", (json_int_t)at(c, SC_BIN, r), (json_int_t)at(c, SC_BIN_N, r)));
        json_object_set_new(e, "bins", bins);
        json_array_append_new(groups, e);
    }
    for (size_t r = c->first[PI_REL_SEG_SLOWEST][p]; r < c->first[PI_REL_SEG_SLOWEST][p + 1]; r++)
        json_array_append_new(slowest, pi_cols_object_of(c, "mpi_segments.slowest", JS_CT_SEG_SLOWEST, r));
    json_object_set_new(o, "groups", groups);
    json_object_set_new(o, "slowest", slowest);
    return o;
}
