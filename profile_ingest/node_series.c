/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The series of a version-2 bundle (common/bundle_series.h): the sums of its processes' slice
 * rows that the node folded, with their spread. Written as the job's user, so untrusted: each
 * chunk is checked (names, lengths, encodings, slices within the step's, no value negative, a
 * spread that agrees with its sums) and the whole series is held to the step-node's budget
 * (budget.c) before any of it is taken (docs/profile-format.md, "The series of a bundle").
 */
#include "config.h"

#include "validate.h"

#include "bundle_series.h"
#include "series.h"
#include "slice.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The array of names a series must have: "columns" or "spread". */
static int names_ok(const json_t *a, const char *key, int spread, char *reason, size_t size)
{
    int n = spread ? JS_SPREAD_COUNT : JS_FOLD_COLS;
    if (!json_is_array(a) || json_array_size(a) != (size_t)n)
        return pi_invalid(reason, size, "series: \"%s\" is not an array of %d names", key, n);
    for (int i = 0; i < n; i++) {
        const char *want = spread ? js_spread_metrics[i].name : i == 0 ? "processes" : js_profile_slice_cols[i - 1].name;
        const char *got = json_string_value(json_array_get(a, (size_t)i));
        if (!got || strcmp(got, want) != 0)
            return pi_invalid(reason, size, "series: %s[%d] is not \"%s\"", key, i, want);
    }
    return PI_OK;
}

/* List `key` of chunk c: count encoded series of n values each, added into dense from col;
 * *empty (when not NULL) allows [] and says whether it was. */
static int decode_list(const json_t *chunk, size_t c, const char *key, int count, size_t n, int64_t *dense, int col,
                       unsigned char *buf, int *empty, char *reason, size_t size)
{
    const json_t *list = json_object_get(chunk, key);
    if (empty && (*empty = json_is_array(list) && json_array_size(list) == 0))
        return PI_OK;
    if (!json_is_array(list) || json_array_size(list) != (size_t)count)
        return pi_invalid(reason, size, "series: chunks[%zu]: \"%s\" is not an array of %d strings", c, key, count);
    size_t cap = JS_SERIES_MAX_BYTES(n);
    for (int k = 0; k < count; k++) {
        const json_t *s = json_array_get(list, (size_t)k);
        long len = json_is_string(s) && json_string_length(s) <= JS_B64_LEN(cap)
                       ? js_b64_decode(json_string_value(s), json_string_length(s), buf, cap) : -1;
        long saturated = 0;
        if (len < 0 || js_series_add(buf, (size_t)len, n, dense + col + k, PI_SERIES_ROW, &saturated) != 0 || saturated)
            return pi_invalid(reason, size, "series: chunks[%zu]: %s[%d] is not a base64 series of %zu values", c, key, k, n);
    }
    return PI_OK;
}

/* One dense row r of slice s: its values agree with each other. */
static int row_ok(const struct pi_conf *conf, const int64_t *r, size_t c, int64_t s, char *reason, size_t size)
{
    for (int k = 0; k < PI_SERIES_ROW; k++)
        if (r[k] < 0)
            return pi_invalid(reason, size, "series: chunks[%zu]: slice %" PRId64 ": a value is negative", c, s);
    if (r[0] > conf->max_profiles)
        return pi_invalid(reason, size, "series: chunks[%zu]: slice %" PRId64 ": %" PRId64 " processes, more than %d (max_profiles)",
                          c, s, r[0], conf->max_profiles);
    for (int k = 1; r[0] == 0 && k < PI_SERIES_ROW; k++)
        if (r[k] != 0)
            return pi_invalid(reason, size, "series: chunks[%zu]: slice %" PRId64 ": values without processes", c, s);
    for (int k = 0; k < JS_SPREAD_COUNT; k++) {
        int64_t lo = r[JS_FOLD_COLS + k], hi = r[JS_FOLD_COLS + JS_SPREAD_COUNT + k], pid = r[JS_FOLD_COLS + 2 * JS_SPREAD_COUNT + k];
        if (lo > hi || hi > js_spread_value(r + 1, k) || pid > UINT32_MAX)
            return pi_invalid(reason, size, "series: chunks[%zu]: slice %" PRId64 ": the spread of %s (min %" PRId64 ", max %" PRId64
                              ", pid %" PRId64 ") does not agree with its sum", c, s, js_spread_metrics[k].name, lo, hi, pid);
    }
    return PI_OK;
}

struct taken {
    struct pi_slice *s;
    size_t n, cap;
};

static void take_row(struct taken *t, int64_t slice, const int64_t *r)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->s = realloc(t->s, t->cap * sizeof *t->s);
        if (!t->s)
            abort(); /* as grow() in aggregate.c: out of memory */
    }
    struct pi_slice *d = &t->s[t->n++];
    d->slice = slice;
    d->processes = (int32_t)r[0];
    memcpy(d->m, r + 1, sizeof d->m);
    memcpy(d->lo, r + JS_FOLD_COLS, sizeof d->lo);
    memcpy(d->hi, r + JS_FOLD_COLS + JS_SPREAD_COUNT, sizeof d->hi);
    memcpy(d->hi_pid, r + JS_FOLD_COLS + 2 * JS_SPREAD_COUNT, sizeof d->hi_pid);
}

int pi_series_chunk_decode(const json_t *chunk, size_t c, int64_t *firstp, int64_t *np, int64_t *dense, unsigned char *buf,
                           char *reason, size_t size)
{
    const json_t *jf = json_object_get(chunk, "first_slice"), *jn = json_object_get(chunk, "slices");
    if (!json_is_object(chunk))
        return pi_invalid(reason, size, "series: chunks[%zu] is not an object", c);
    if (!json_is_integer(jf) || !json_is_integer(jn) || json_integer_value(jn) < 1 || json_integer_value(jn) > JS_SERIES_CHUNK)
        return pi_invalid(reason, size, "series: chunks[%zu]: \"first_slice\" and \"slices\" (1 to %d) are not integers", c,
                          JS_SERIES_CHUNK);
    int64_t first = *firstp = json_integer_value(jf), n = *np = json_integer_value(jn);
    if (first > INT64_MAX - JS_SERIES_CHUNK || first < INT64_MIN + JS_SERIES_CHUNK)
        return pi_invalid(reason, size, "series: chunks[%zu]: first_slice %" PRId64 " is not a slice", c, first);
    memset(dense, 0, (size_t)n * PI_SERIES_ROW * sizeof *dense);
    int no_min, no_max;
    if (decode_list(chunk, c, "sums", JS_FOLD_COLS, (size_t)n, dense, 0, buf, NULL, reason, size) != PI_OK ||
        decode_list(chunk, c, "min", JS_SPREAD_COUNT, (size_t)n, dense, JS_FOLD_COLS, buf, &no_min, reason, size) != PI_OK ||
        decode_list(chunk, c, "max", JS_SPREAD_COUNT, (size_t)n, dense, JS_FOLD_COLS + JS_SPREAD_COUNT, buf, &no_max, reason, size) != PI_OK ||
        decode_list(chunk, c, "max_pid", JS_SPREAD_COUNT, (size_t)n, dense, JS_FOLD_COLS + 2 * JS_SPREAD_COUNT, buf, NULL, reason, size) != PI_OK)
        return PI_INVALID;
    if (no_min != no_max)
        return pi_invalid(reason, size, "series: chunks[%zu]: one of \"min\" and \"max\" is empty, the other not", c);
    for (int64_t i = 0; no_min && i < n; i++) { /* one process a slice: the least and the most are the sums */
        int64_t *r = dense + (size_t)i * PI_SERIES_ROW;
        if (r[0] > 1)
            return pi_invalid(reason, size, "series: chunks[%zu]: slice %" PRId64 " has %" PRId64 " processes and no min and max",
                              c, first + i, r[0]);
        for (int k = 0; r[0] == 1 && k < JS_SPREAD_COUNT; k++)
            r[JS_FOLD_COLS + k] = r[JS_FOLD_COLS + JS_SPREAD_COUNT + k] = js_spread_value(r + 1, k);
    }
    return PI_OK;
}

/* Chunk c: decoded, its place among the step's slices (after *next), its rows into t. */
static int take_chunk(const struct pi_step *st, const struct pi_conf *conf, const json_t *chunk, size_t c, int64_t *next,
                      int64_t *dense, unsigned char *buf, struct taken *t, char *reason, size_t size)
{
    int64_t first, n;
    if (pi_series_chunk_decode(chunk, c, &first, &n, dense, buf, reason, size) != PI_OK)
        return PI_INVALID;
    int64_t lo = js_slice_of_ns(st->start_ns - PI_PROFILE_SLACK_NS, (int32_t)st->slice_seconds);
    int64_t hi = js_slice_of_ns(st->end_ns + PI_PROFILE_SLACK_NS, (int32_t)st->slice_seconds);
    if (first < *next || first < lo || first > hi - n + 1 || js_series_chunk_of(first) != js_series_chunk_of(first + n - 1))
        return pi_invalid(reason, size, "series: chunks[%zu]: slices %" PRId64 "..%" PRId64 " do not ascend within one chunk "
                          "and within the step's slices %" PRId64 "..%" PRId64, c, first, first + n - 1, lo, hi);
    *next = first + n;
    for (int64_t i = 0; i < n; i++) {
        const int64_t *r = dense + (size_t)i * PI_SERIES_ROW;
        if (row_ok(conf, r, c, first + i, reason, size) != PI_OK)
            return PI_INVALID;
        if (r[0] > 0)
            take_row(t, first + i, r);
    }
    return PI_OK;
}

int pi_series_take(struct pi_step *st, const struct pi_conf *conf, const json_t *series, char *reason, size_t size)
{
    if (!json_is_object(series))
        return pi_invalid(reason, size, "bundle: \"series\" is missing or not an object");
    if (names_ok(json_object_get(series, "columns"), "columns", 0, reason, size) != PI_OK ||
        names_ok(json_object_get(series, "spread"), "spread", 1, reason, size) != PI_OK)
        return PI_INVALID;
    const json_t *chunks = json_object_get(series, "chunks");
    if (!json_is_array(chunks))
        return pi_invalid(reason, size, "series: \"chunks\" is not an array");
    int64_t *dense = malloc((size_t)JS_SERIES_CHUNK * PI_SERIES_ROW * sizeof *dense);
    unsigned char *buf = malloc(JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK));
    if (!dense || !buf)
        abort(); /* as grow() in aggregate.c: out of memory */
    struct taken t = { 0 };
    int64_t next = INT64_MIN;
    int rc = PI_OK;
    for (size_t c = 0; c < json_array_size(chunks) && rc == PI_OK; c++) {
        const json_t *chunk = json_array_get(chunks, c);
        rc = take_chunk(st, conf, chunk, c, &next, dense, buf, &t, reason, size);
    }
    free(dense);
    free(buf);
    if (rc == PI_OK)
        rc = pi_budget_take_slices(st, conf, t.s, t.n, reason, size);
    if (rc == PI_OK)
        pi_step_add_slices(st, t.s, t.n);
    free(t.s);
    return rc;
}
