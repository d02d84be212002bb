/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-slice series of the database decoded for the step and background endpoints: the CGI
 * reads the encoded series (common/series.h) and adds them up here, a few ns per value,
 * instead of having SQL decode and sum them. */
#include "jsweb.h"
#include "profile_format.h"
#include "series.h"

#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* the largest step the CGI decodes: a week of 4 s slices */
#define JSW_SLICES_MAX (7 * 21600)

void *jsw_zalloc(size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes))
        return NULL;
    void *p = NULL;
    if (bytes >= (2u << 20)) {
        if (posix_memalign(&p, 2u << 20, bytes) != 0)
            return NULL;
#ifdef MADV_HUGEPAGE
        (void)madvise(p, bytes, MADV_HUGEPAGE); /* refused (THP off): plain pages, as before */
#endif
    } else {
        p = malloc(bytes ? bytes : 1);
    }
    if (p)
        memset(p, 0, bytes);
    return p;
}

int jsw_slices_init(struct jsw_slices *s, int64_t first, int64_t last)
{
    memset(s, 0, sizeof *s);
    if (last < first || last - first >= JSW_SLICES_MAX)
        return -1;
    s->first = first;
    s->n = (size_t)(last - first + 1);
    s->count = calloc(s->n, sizeof *s->count);
    s->procs = calloc(s->n, sizeof *s->procs);
    if (!s->count || !s->procs) {
        jsw_slices_free(s);
        return -1;
    }
    return 0;
}

void jsw_slices_free(struct jsw_slices *s)
{
    free(s->count);
    free(s->procs);
    for (int m = 0; m < JS_M_COUNT; m++)
        free(s->v[m]);
    free(s->kio);
    memset(s, 0, sizeof *s);
}

int64_t *jsw_slices_column(struct jsw_slices *s, int m)
{
    if (!s->v[m])
        s->v[m] = calloc(s->n ? s->n : 1, sizeof *s->v[m]);
    return s->v[m];
}

int jsw_bin_int(const PGresult *r, int row, int col, int64_t *v)
{
    Oid t = PQftype(r, col);
    int len = PQgetlength(r, row, col);
    if ((t != OID_INT2 && t != OID_INT4 && t != OID_INT8) || PQgetisnull(r, row, col) ||
        len != (t == OID_INT2 ? 2 : t == OID_INT4 ? 4 : 8))
        return -1;
    const unsigned char *p = (const unsigned char *)PQgetvalue(r, row, col);
    uint64_t u = p[0] & 0x80 ? UINT64_MAX : 0;
    for (int i = 0; i < len; i++)
        u = u << 8 | p[i];
    *v = (int64_t)u;
    return 0;
}

/* A boolean cell of a binary result (one byte), NULL as false. */
static bool bin_bool(const PGresult *r, int row, int col)
{
    return PQftype(r, col) == OID_BOOL && !PQgetisnull(r, row, col) && PQgetlength(r, row, col) == 1 &&
           PQgetvalue(r, row, col)[0] != 0;
}

const unsigned char *jsw_bin_bytes(const PGresult *r, int row, int col, size_t *len)
{
    if (PQftype(r, col) != OID_BYTEA || PQgetisnull(r, row, col))
        return NULL;
    *len = (size_t)PQgetlength(r, row, col);
    return (const unsigned char *)PQgetvalue(r, row, col);
}

/* Decode the series of one cell (n slices from first) and add the part inside the step's range
 * into dst (stride apart); when counts is set, count the slices above zero into it instead. */
static int add_cell(struct jsw_slices *s, const PGresult *r, int row, int col, int64_t first, size_t n,
                    int64_t *dst, size_t stride, int64_t *counts, int64_t *tmp)
{
    size_t len;
    const unsigned char *series = jsw_bin_bytes(r, row, col, &len);
    if (!series)
        return PQgetisnull(r, row, col) ? 0 : -1;
    if (!counts)
        return js_series_add_window(series, len, first, n, s->first, s->n, dst, stride, tmp, &s->saturated);
    /* the cell's part inside the step's slices: [lo, hi) */
    int64_t lo = s->first > first ? s->first - first : 0;
    int64_t hi = s->first + (int64_t)s->n - first < (int64_t)n ? s->first + (int64_t)s->n - first : (int64_t)n;
    if (lo >= hi)
        return 0;
    memset(tmp, 0, n * sizeof *tmp);
    if (js_series_add(series, len, n, tmp, 1, &s->saturated) < 0)
        return -1;
    for (int64_t i = lo; i < hi; i++)
        counts[first + i - s->first] += tmp[i] > 0;
    return 0;
}

/* The chunk, first_slice and slices cells of a series row, from column c on: the slices its
 * series cover (first, n), 0; or -1 when they are not a part of one chunk. */
static int chunk_cells(const PGresult *r, int row, int c, int64_t *first, int64_t *n)
{
    int64_t chunk;
    if (jsw_bin_int(r, row, c, &chunk) || jsw_bin_int(r, row, c + 1, first) || jsw_bin_int(r, row, c + 2, n) ||
        *n < 1 || *n > JS_SERIES_CHUNK || *first < chunk || *first + *n > chunk + JS_SERIES_CHUNK)
        return -1;
    return 0;
}

int jsw_slices_add(struct jsw_slices *s, jsw_db *db, const char *query_name, int nparams,
                   const char *const *params, char *err, size_t errlen)
{
    PGresult *r = jsw_db_result_binary(db, query_name, nparams, params, err, errlen);
    if (!r)
        return -1;
    /* pending, chunk, first_slice, slices, count, processes, the metrics */
    enum { PENDING, CHUNK, COUNT = CHUNK + 3, PROCS, METRIC0 };
    int64_t *tmp = malloc(JS_SERIES_CHUNK * sizeof *tmp);
    int bad = !tmp || PQnfields(r) != METRIC0 + JS_M_COUNT;
    for (int i = 0; i < PQntuples(r) && !bad; i++) {
        int64_t first, n;
        if (chunk_cells(r, i, CHUNK, &first, &n) < 0) {
            bad = 1;
            break;
        }
        bool pending = bin_bool(r, i, PENDING);
        /* a pending step-node counts as one node wherever it has processes */
        bad = add_cell(s, r, i, COUNT, first, (size_t)n, s->count, 1, pending ? s->count : NULL, tmp) < 0 ||
              add_cell(s, r, i, PROCS, first, (size_t)n, s->procs, 1, NULL, tmp) < 0;
        for (int m = 0; m < JS_M_COUNT && !bad; m++) {
            if (PQgetisnull(r, i, METRIC0 + m))
                continue; /* a metric not asked for: its column stays unallocated */
            int64_t *col = jsw_slices_column(s, m);
            bad = !col || add_cell(s, r, i, METRIC0 + m, first, (size_t)n, col, 1, NULL, tmp) < 0;
        }
    }
    free(tmp);
    PQclear(r);
    if (bad) {
        snprintf(err, errlen, "database query '%s': a series that does not decode", query_name);
        fprintf(stderr, "jobscreen.cgi: %s\n", err);
        return -1;
    }
    return 0;
}

int jsw_slices_add_kernel(struct jsw_slices *s, jsw_db *db, int nparams, const char *const *params,
                          char *err, size_t errlen)
{
    if (!s->kio && !(s->kio = jsw_zalloc(s->n * JS_KIO_COUNT, sizeof *s->kio))) {
        snprintf(err, errlen, "out of memory for the kernel's counts");
        return -1;
    }
    PGresult *r = jsw_db_result_binary(db, "series_kernel", nparams, params, err, errlen);
    if (!r)
        return -1;
    /* chunk, first_slice, slices, the kernel's counts */
    enum { CHUNK, KIO0 = CHUNK + 3 };
    int64_t *tmp = malloc(JS_SERIES_CHUNK * sizeof *tmp);
    int bad = !tmp || PQnfields(r) != KIO0 + JS_KIO_COUNT;
    for (int i = 0; i < PQntuples(r) && !bad; i++) {
        int64_t first, n;
        if (chunk_cells(r, i, CHUNK, &first, &n) < 0) {
            bad = 1;
            break;
        }
        for (int k = 0; k < JS_KIO_COUNT && !bad; k++)
            bad = add_cell(s, r, i, KIO0 + k, first, (size_t)n, s->kio + k, JS_KIO_COUNT, NULL, tmp) < 0;
    }
    free(tmp);
    PQclear(r);
    if (bad) {
        snprintf(err, errlen, "database query 'series_kernel': a series that does not decode");
        fprintf(stderr, "jobscreen.cgi: %s\n", err);
        return -1;
    }
    return 0;
}

int jsw_slices_add_live(struct jsw_slices *s, jsw_db *db, int nparams, const char *const *params,
                        char *err, size_t errlen)
{
    PGresult *r = jsw_db_result(db, "series_live", nparams, params, err, errlen);
    if (!r)
        return -1;
    /* slice, processes, the metrics, the kernel's counts */
    if (PQnfields(r) != 2 + JS_SLICE_COLS) {
        PQclear(r);
        snprintf(err, errlen, "database query 'series_live': unexpected columns");
        return -1;
    }
    for (int i = 0; i < PQntuples(r); i++) {
        int64_t slice = strtoll(PQgetvalue(r, i, 0), NULL, 10);
        if (slice < s->first || slice >= s->first + (int64_t)s->n)
            continue;
        size_t k = (size_t)(slice - s->first);
        s->count[k] += 1;
        s->procs[k] += strtoll(PQgetvalue(r, i, 1), NULL, 10);
        for (int m = 0; m < JS_M_COUNT; m++) {
            int64_t v = strtoll(PQgetvalue(r, i, 2 + m), NULL, 10), *col = v ? jsw_slices_column(s, m) : NULL;
            if (col)
                col[k] += v;
        }
        for (int m = 0; m < JS_KIO_COUNT && s->kio; m++)
            s->kio[k * JS_KIO_COUNT + (size_t)m] += strtoll(PQgetvalue(r, i, 2 + JS_M_COUNT + m), NULL, 10);
    }
    PQclear(r);
    return 0;
}

/* ---- ranking the contributors to a background (admins) -------------------------------------- */

struct job_sum {
    int64_t job, value;
    int active; /* a slice with activity in the range */
};

static int by_value(const void *a, const void *b)
{
    const struct job_sum *x = a, *y = b;
    if (x->value != y->value)
        return x->value > y->value ? -1 : 1;
    return x->job < y->job ? -1 : x->job > y->job;
}

int jsw_series_rank(jsw_db *db, int nparams, const char *const *params, int64_t first, int64_t last,
                    struct jsw_rank **out, char *err, size_t errlen)
{
    *out = NULL;
    PGresult *r = jsw_db_result_binary(db, "background_rank", nparams, params, err, errlen);
    if (!r)
        return -1;
    /* job_id, step_id, chunk, first_slice, slices, activity, series */
    enum { JOB, STEP, CHUNK, ACTIVITY = CHUNK + 3, SERIES, NFIELDS };
    size_t slots = 64, n = 0;
    while (slots < 2 * (size_t)PQntuples(r) + 2)
        slots *= 2;
    struct job_sum *map = calloc(slots, sizeof *map);
    int64_t *act = malloc(JS_SERIES_CHUNK * sizeof *act), *val = malloc(JS_SERIES_CHUNK * sizeof *val);
    int bad = !map || !act || !val || PQnfields(r) != NFIELDS;
    long sat = 0;
    for (int i = 0; i < PQntuples(r) && !bad; i++) {
        int64_t job, f, k;
        if (jsw_bin_int(r, i, JOB, &job) || chunk_cells(r, i, CHUNK, &f, &k) < 0) {
            bad = 1;
            break;
        }
        memset(act, 0, (size_t)k * sizeof *act);
        memset(val, 0, (size_t)k * sizeof *val);
        for (int c = ACTIVITY; c <= SERIES && !bad; c++) {
            size_t len;
            const unsigned char *series = jsw_bin_bytes(r, i, c, &len);
            if (!series) {
                bad = !PQgetisnull(r, i, c);
                continue;
            }
            bad = js_series_add(series, len, (size_t)k, c == ACTIVITY ? act : val, 1, &sat) < 0;
        }
        int64_t sum = 0;
        int active = 0;
        for (int64_t s = 0; s < k; s++)
            if (f + s >= first && f + s <= last) {
                sum += val[s];
                active |= act[s] > 0;
            }
        if (!active && sum == 0)
            continue;
        size_t h = ((uint64_t)job * 0x9E3779B97F4A7C15ull) & (slots - 1);
        while (map[h].active && map[h].job != job)
            h = (h + 1) & (slots - 1);
        if (!map[h].active) {
            map[h].job = job;
            map[h].active = 1;
            n++;
        }
        map[h].value += sum;
    }
    PQclear(r);
    free(act);
    free(val);
    if (bad) {
        free(map);
        snprintf(err, errlen, "database query 'background_rank': a series that does not decode");
        return -1;
    }
    /* the jobs, best first */
    size_t j = 0;
    for (size_t h = 0; h < slots; h++)
        if (map[h].active)
            map[j++] = map[h];
    qsort(map, n, sizeof *map, by_value);
    *out = malloc((n ? n : 1) * sizeof **out);
    for (size_t i = 0; i < n && *out; i++) {
        (*out)[i].job = map[i].job;
        (*out)[i].value = map[i].value;
    }
    free(map);
    return *out ? (int)n : -1;
}
