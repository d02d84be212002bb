/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MPI segments of profile format 6 ("mpi_segments", docs/profile-format.md): the checks of a
 * profile's member, and its groups and slowest segments added into the step-node's (summed by
 * signature, bounded: PI_SEG_GROUPS_MAX, PI_SEG_SLOW_MAX). No I/O here: unit-testable.
 */
#include "config.h"

#include "validate.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define I64(o, k) ((int64_t)json_integer_value(json_object_get((o), (k))))
#define STR(o, k) json_string_value(json_object_get((o), (k)))
#define PI_NELEM(a) (sizeof (a) / sizeof (a)[0])


struct field {
    const char *name;
    char type; /* 's', 'u' or 'i' (a, o: of their own kind), as in common/profile_format.h */
};
static const struct field segment_fields[] = {
#define JS_X(id, name, type, unit, desc) { name, type },
    JS_PROFILE_SEGMENT_FIELDS(JS_X)
#undef JS_X
}, segment_group_fields[] = {
#define JS_X(id, name, type, unit, desc) { name, type },
    JS_PROFILE_SEGMENT_GROUP_FIELDS(JS_X)
#undef JS_X
}, segment_slow_fields[] = {
#define JS_X(id, name, type, unit, desc) { name, type },
    JS_PROFILE_SEGMENT_SLOW_FIELDS(JS_X)
#undef JS_X
};

static int type_ok(const json_t *v, char t)
{
    return t == 's' ? json_is_string(v) : t == 'u' ? json_is_integer(v) && json_integer_value(v) >= 0
         : t == 'i' ? json_is_integer(v) : t == 'a' ? json_is_array(v) : t == 'o' ? json_is_object(v) : 0;
}

static const char *type_name(char t)
{
    return t == 's' ? "a string" : t == 'u' ? "a non-negative integer" : t == 'i' ? "an integer" : t == 'a' ? "an array" : "an object";
}

/* every field of the list present, of its type; where: "mpi_segments", "mpi_segments.groups[3]" */
static int fields_ok(const json_t *o, const struct field *f, size_t n, const char *where, char *reason, size_t size)
{
    for (size_t k = 0; k < n; k++) {
        const json_t *x = json_object_get(o, f[k].name);
        if (!x || !type_ok(x, f[k].type))
            return pi_invalid(reason, size, "%s: field \"%s\" is missing or not %s", where, f[k].name, type_name(f[k].type));
    }
    return PI_OK;
}

/* A group's histogram: [bin, count] pairs, bins ascending below JS_SEG_BINS, counts >= 1 adding
 * up to the group's count. */
static int check_segment_bins(const json_t *ge, size_t i, char *reason, size_t size)
{
    const json_t *pair;
    size_t k;
    int64_t last = -1, sum = 0;
    json_array_foreach(json_object_get(ge, "bins"), k, pair) {
        const json_t *b = json_array_get(pair, 0), *n = json_array_get(pair, 1);
        if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_integer(b) || !json_is_integer(n))
            return pi_invalid(reason, size, "mpi_segments.groups[%zu].bins[%zu] is not a pair [bin, count] of integers", i, k);
        if (json_integer_value(b) <= last || json_integer_value(b) >= JS_SEG_BINS)
            return pi_invalid(reason, size, "mpi_segments.groups[%zu].bins[%zu]: bin %" JSON_INTEGER_FORMAT " is not ascending within 0..%d", i,
                        k, json_integer_value(b), JS_SEG_BINS - 1);
        if (json_integer_value(n) < 1 || json_integer_value(n) > INT64_MAX - sum)
            return pi_invalid(reason, size, "mpi_segments.groups[%zu].bins[%zu]: count %" JSON_INTEGER_FORMAT " is not at least 1", i, k,
                        json_integer_value(n));
        last = json_integer_value(b);
        sum += json_integer_value(n);
    }
    if (sum != I64(ge, "count"))
        return pi_invalid(reason, size, "mpi_segments.groups[%zu]: its bins hold %" PRId64 " segments, its count says %" PRId64, i, sum,
                    I64(ge, "count"));
    return PI_OK;
}

/* The MPI segments (version 6): {} or every member, on the scale of this build, groups and the
 * slowest within their bounds, and as many segments counted as grouped and ungrouped. */
int pi_segments_check(const json_t *p, char *reason, size_t size)
{
    const json_t *seg = json_object_get(p, "mpi_segments"), *ge, *se;
    size_t i;
    if (json_object_size(seg) == 0)
        return PI_OK;
    if (fields_ok(seg, segment_fields, PI_NELEM(segment_fields), "mpi_segments", reason, size) != PI_OK)
        return PI_INVALID;
    if (I64(seg, "bin_min_ns") != JS_SEG_BIN_MIN_NS || I64(seg, "bin_count") != JS_SEG_BINS || I64(seg, "decades") != JS_SEG_DECADES)
        return pi_invalid(reason, size, "mpi_segments: the histograms' scale is not %d ns, %d bins over %d decades", JS_SEG_BIN_MIN_NS,
                    JS_SEG_BINS, JS_SEG_DECADES);
    const json_t *groups = json_object_get(seg, "groups"), *slowest = json_object_get(seg, "slowest");
    if (json_array_size(groups) > JS_SEG_MAX_GROUPS)
        return pi_invalid(reason, size, "mpi_segments: groups has more than %d entries", JS_SEG_MAX_GROUPS);
    if (json_array_size(slowest) > JS_SEG_SLOWEST)
        return pi_invalid(reason, size, "mpi_segments: slowest has more than %d entries", JS_SEG_SLOWEST);
    int64_t counted = I64(seg, "ungrouped");
    json_array_foreach(groups, i, ge) {
        char where[48];
        snprintf(where, sizeof where, "mpi_segments.groups[%zu]", i);
        int rc = fields_ok(ge, segment_group_fields, PI_NELEM(segment_group_fields), where, reason, size);
        if (rc != PI_OK)
            return rc;
        const char *sig = STR(ge, "signature");
        if (strlen(sig) != 16 || strspn(sig, "0123456789abcdef") != 16)
            return pi_invalid(reason, size, "mpi_segments.groups[%zu]: signature is not 16 lower-case hex digits", i);
        if (js_profile_coll_kind_index(STR(ge, "boundary")) < 0)
            return pi_invalid(reason, size, "mpi_segments.groups[%zu]: boundary \"%.32s\" is no collective kind", i, STR(ge, "boundary"));
        if (I64(ge, "min_ns") > I64(ge, "max_ns") || I64(ge, "sum_ns") < I64(ge, "max_ns"))
            return pi_invalid(reason, size, "mpi_segments.groups[%zu]: min_ns, max_ns and sum_ns disagree", i);
        if ((rc = check_segment_bins(ge, i, reason, size)) != PI_OK)
            return rc;
        if (I64(ge, "count") > INT64_MAX - counted)
            return pi_invalid(reason, size, "mpi_segments.groups[%zu]: count out of range", i);
        counted += I64(ge, "count");
    }
    if (counted > I64(seg, "boundaries"))
        return pi_invalid(reason, size, "mpi_segments: the groups and ungrouped hold %" PRId64 " segments, more than its %" PRId64 " boundaries",
                    counted, I64(seg, "boundaries"));
    json_array_foreach(slowest, i, se) {
        char where[48];
        snprintf(where, sizeof where, "mpi_segments.slowest[%zu]", i);
        int rc = fields_ok(se, segment_slow_fields, PI_NELEM(segment_slow_fields), where, reason, size);
        if (rc != PI_OK)
            return rc;
        if (I64(se, "group") < -1 || I64(se, "group") >= (int64_t)json_array_size(groups))
            return pi_invalid(reason, size, "mpi_segments.slowest[%zu]: group %" PRId64 " is not one of its groups (or -1)", i, I64(se, "group"));
    }
    return PI_OK;
}

/* One process's group of MPI segments merged into the step-node's, by signature: created (with
 * its boundary and bins) when new; past PI_SEG_GROUPS_MAX its calls count as ungrouped and NULL
 * is returned. The caller adds the group's bins. Both bundle readers (JSON, columns) merge here. */
struct pi_seg_group *pi_seg_group_merge(struct pi_step *st, const char *sig, const char *boundary, int64_t count,
                                        int64_t sum_ns, int64_t min_ns, int64_t max_ns)
{
    size_t k = 0;
    while (k < st->nseg_groups && strcmp(st->seg_groups[k].sig, sig) != 0)
        k++;
    if (k == st->nseg_groups && k >= PI_SEG_GROUPS_MAX) { /* bounded: the rest count as ungrouped */
        st->seg_ungrouped = pi_sat_add(st->seg_ungrouped, count);
        st->seg_ungrouped_ns = pi_sat_add(st->seg_ungrouped_ns, sum_ns);
        return NULL;
    }
    if (k == st->nseg_groups) {
        if (k == st->capseg_groups) {
            st->capseg_groups = st->capseg_groups ? 2 * st->capseg_groups : 16;
            st->seg_groups = realloc(st->seg_groups, st->capseg_groups * sizeof *st->seg_groups);
            if (!st->seg_groups)
                abort();
        }
        struct pi_seg_group *n = &st->seg_groups[st->nseg_groups++];
        memset(n, 0, sizeof *n);
        snprintf(n->sig, sizeof n->sig, "%s", sig);
        n->boundary = pi_step_intern(st, boundary);
        n->min_ns = min_ns;
        if (!(n->bins = calloc(JS_SEG_BINS, sizeof *n->bins)))
            abort();
    }
    struct pi_seg_group *g = &st->seg_groups[k];
    g->processes++;
    g->count = pi_sat_add(g->count, count);
    g->sum_ns = pi_sat_add(g->sum_ns, sum_ns);
    g->min_ns = min_ns < g->min_ns ? min_ns : g->min_ns;
    g->max_ns = max_ns > g->max_ns ? max_ns : g->max_ns;
    return g;
}

/* One of a process's slowest segments into the node's list: a new one replaces the shortest
 * kept once the list is full. */
void pi_seg_slow_add(struct pi_step *st, const struct pi_seg_slow *e)
{
    size_t at = st->nseg_slow;
    if (at == PI_SEG_SLOW_MAX) {
        at = 0;
        for (size_t k = 1; k < PI_SEG_SLOW_MAX; k++)
            if (st->seg_slow[k].ns < st->seg_slow[at].ns)
                at = k;
        if (st->seg_slow[at].ns >= e->ns)
            return;
    } else
        st->nseg_slow++;
    st->seg_slow[at] = *e;
}

/* Its MPI segments (version 6), added into the step-node's by signature. */
void pi_segments_add(struct pi_step *st, const json_t *p)
{
    const json_t *seg = json_object_get(p, "mpi_segments"), *ge, *se;
    size_t i;
    if (json_object_size(seg) == 0)
        return;
    st->seg_processes++;
    st->seg_boundaries = pi_sat_add(st->seg_boundaries, I64(seg, "boundaries"));
    st->seg_ungrouped = pi_sat_add(st->seg_ungrouped, I64(seg, "ungrouped"));
    st->seg_ungrouped_ns = pi_sat_add(st->seg_ungrouped_ns, I64(seg, "ungrouped_ns"));
    const json_t *groups = json_object_get(seg, "groups");
    json_array_foreach(groups, i, ge) {
        struct pi_seg_group *g = pi_seg_group_merge(st, STR(ge, "signature"), STR(ge, "boundary"), I64(ge, "count"),
                                                    I64(ge, "sum_ns"), I64(ge, "min_ns"), I64(ge, "max_ns"));
        if (!g)
            continue;
        const json_t *pair;
        size_t b;
        json_array_foreach(json_object_get(ge, "bins"), b, pair) {
            int64_t *bin = &g->bins[json_integer_value(json_array_get(pair, 0))];
            *bin = pi_sat_add(*bin, json_integer_value(json_array_get(pair, 1)));
        }
    }
    /* the node's slowest: a new one replaces the shortest kept once the list is full */
    json_array_foreach(json_object_get(seg, "slowest"), i, se) {
        struct pi_seg_slow e = { I64(p, "mpi_rank"), I64(se, "end_ns"), I64(se, "ns"), "" };
        int64_t gi = I64(se, "group");
        if (gi >= 0)
            snprintf(e.sig, sizeof e.sig, "%s", STR(json_array_get(groups, (size_t)gi), "signature"));
        pi_seg_slow_add(st, &e);
    }
}

