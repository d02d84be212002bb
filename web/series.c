/* Per-slice series of the database decoded for the step and background endpoints: the CGI
 * reads the encoded series (common/series.h) and adds them up here, a few ns per value,
 * instead of having SQL decode and sum them. */
#include "jsweb.h"
#include "profile_format.h"
#include "series.h"

#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>

/* the largest step the CGI decodes: a week of 4 s slices */
#define JSW_SLICES_MAX (7 * 21600)

int jsw_slices_init(struct jsw_slices *s, int64_t first, int64_t last)
{
    memset(s, 0, sizeof *s);
    if (last < first || last - first >= JSW_SLICES_MAX)
        return -1;
    s->first = first;
    s->n = (size_t)(last - first + 1);
    s->count = calloc(s->n, sizeof *s->count);
    s->procs = calloc(s->n, sizeof *s->procs);
    s->v = calloc(s->n * JS_M_COUNT, sizeof *s->v);
    if (!s->count || !s->procs || !s->v) {
        jsw_slices_free(s);
        return -1;
    }
    return 0;
}

void jsw_slices_free(struct jsw_slices *s)
{
    free(s->count);
    free(s->procs);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* Decode the series of one cell (n slices from first) and add the part inside the step's range
 * into dst (stride apart); when counts is set, count the slices above zero into it instead. */
static int add_cell(struct jsw_slices *s, const PGresult *r, int row, int col, int64_t first, size_t n,
                    int64_t *dst, size_t stride, int64_t *counts, unsigned char *buf, int64_t *tmp)
{
    if (PQgetisnull(r, row, col))
        return 0;
    long len = js_series_unhex(PQgetvalue(r, row, col), buf, JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK));
    memset(tmp, 0, n * sizeof *tmp);
    if (len < 0 || js_series_add(buf, (size_t)len, n, tmp, 1, &s->saturated) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int64_t slice = first + (int64_t)i;
        if (slice < s->first || slice >= s->first + (int64_t)s->n)
            continue;
        size_t k = (size_t)(slice - s->first);
        if (counts) {
            counts[k] += tmp[i] > 0;
            continue;
        }
        int64_t *d = dst + k * stride;
        if (__builtin_add_overflow(*d, tmp[i], d)) {
            *d = INT64_MAX;
            s->saturated++;
        }
    }
    return 0;
}

int jsw_slices_add(struct jsw_slices *s, jsw_db *db, const char *query_name, int nparams,
                   const char *const *params, char *err, size_t errlen)
{
    PGresult *r = jsw_db_result(db, query_name, nparams, params, err, errlen);
    if (!r)
        return -1;
    /* pending, chunk, first_slice, slices, count, processes, the metrics */
    enum { PENDING, CHUNK, FIRST, SLICES, COUNT, PROCS, METRIC0 };
    unsigned char *buf = malloc(JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK));
    int64_t *tmp = malloc(JS_SERIES_CHUNK * sizeof *tmp);
    int bad = !buf || !tmp || PQnfields(r) != METRIC0 + JS_M_COUNT;
    for (int i = 0; i < PQntuples(r) && !bad; i++) {
        int64_t chunk = strtoll(PQgetvalue(r, i, CHUNK), NULL, 10), first = strtoll(PQgetvalue(r, i, FIRST), NULL, 10);
        long n = strtol(PQgetvalue(r, i, SLICES), NULL, 10);
        if (n < 1 || n > JS_SERIES_CHUNK || first < chunk || first + n > chunk + JS_SERIES_CHUNK) {
            bad = 1;
            break;
        }
        int pending = PQgetvalue(r, i, PENDING)[0] == 't';
        /* a pending step-node counts as one node wherever it has processes */
        bad = add_cell(s, r, i, COUNT, first, (size_t)n, s->count, 1, pending ? s->count : NULL, buf, tmp) < 0 ||
              add_cell(s, r, i, PROCS, first, (size_t)n, s->procs, 1, NULL, buf, tmp) < 0;
        for (int m = 0; m < JS_M_COUNT && !bad; m++)
            bad = add_cell(s, r, i, METRIC0 + m, first, (size_t)n, s->v + m, JS_M_COUNT, NULL, buf, tmp) < 0;
    }
    free(buf);
    free(tmp);
    PQclear(r);
    if (bad) {
        snprintf(err, errlen, "database query '%s': a series that does not decode", query_name);
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
    /* slice, processes, the metrics */
    if (PQnfields(r) != 2 + JS_M_COUNT) {
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
        for (int m = 0; m < JS_M_COUNT; m++)
            s->v[k * JS_M_COUNT + (size_t)m] += strtoll(PQgetvalue(r, i, 2 + m), NULL, 10);
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
    PGresult *r = jsw_db_result(db, "background_rank", nparams, params, err, errlen);
    if (!r)
        return -1;
    /* job_id, step_id, chunk, first_slice, slices, activity, series */
    enum { JOB, STEP, CHUNK, FIRST, SLICES, ACTIVITY, SERIES, NFIELDS };
    size_t slots = 64, n = 0;
    while (slots < 2 * (size_t)PQntuples(r) + 2)
        slots *= 2;
    struct job_sum *map = calloc(slots, sizeof *map);
    unsigned char *buf = malloc(JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK));
    int64_t *act = malloc(JS_SERIES_CHUNK * sizeof *act), *val = malloc(JS_SERIES_CHUNK * sizeof *val);
    int bad = !map || !buf || !act || !val || PQnfields(r) != NFIELDS;
    long sat = 0;
    for (int i = 0; i < PQntuples(r) && !bad; i++) {
        int64_t job = strtoll(PQgetvalue(r, i, JOB), NULL, 10), chunk = strtoll(PQgetvalue(r, i, CHUNK), NULL, 10),
                f = strtoll(PQgetvalue(r, i, FIRST), NULL, 10);
        long k = strtol(PQgetvalue(r, i, SLICES), NULL, 10);
        if (k < 1 || k > JS_SERIES_CHUNK || f < chunk || f + k > chunk + JS_SERIES_CHUNK) {
            bad = 1;
            break;
        }
        memset(act, 0, (size_t)k * sizeof *act);
        memset(val, 0, (size_t)k * sizeof *val);
        for (int c = ACTIVITY; c <= SERIES && !bad; c++) {
            if (PQgetisnull(r, i, c))
                continue;
            long len = js_series_unhex(PQgetvalue(r, i, c), buf, JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK));
            bad = len < 0 || js_series_add(buf, (size_t)len, (size_t)k, c == ACTIVITY ? act : val, 1, &sat) < 0;
        }
        int64_t sum = 0;
        int active = 0;
        for (long s = 0; s < k; s++)
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
    free(buf);
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
