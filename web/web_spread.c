/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The spread of a step's processes per slice, for the step endpoint (docs/api.md, "spread"):
 * over the step's nodes, the least and the most one process had of CPU, MPI time, I/O time and
 * I/O bytes (common/bundle_series.h), and where the most was (node, pid), as columns. The node keeps them
 * when it folds its processes' slices (series_step_node's min_, max_ and max_..._pid, migration
 * 040), so a slow rank shows though the processes' own slices never reach the server.
 */
#include "jsweb.h"

#include "bundle_series.h"
#include "profile_format.h"
#include "series.h"

#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>

/* The sums a spread value is made of, in the query's order after the key columns. */
static const int sum_cols[] = { JS_M_CPU_NS, JS_M_MPI_P2P_NS, JS_M_MPI_COLL_NS, JS_M_POSIX_NS, JS_M_STDIO_NS, JS_M_MPIIO_NS,
                                JS_M_POSIX_READ_BYTES, JS_M_POSIX_WRITE_BYTES, JS_M_STDIO_READ_BYTES,
                                JS_M_STDIO_WRITE_BYTES, JS_M_MPIIO_READ_BYTES, JS_M_MPIIO_WRITE_BYTES };
#define NSUM ((int)(sizeof sum_cols / sizeof sum_cols[0]))
enum { NODE, CHUNK, FIRST, SLICES, PROCS, SUM0, SPREAD0 = SUM0 + NSUM, NCOLS = SPREAD0 + 3 * JS_SPREAD_COUNT };

/* Per slice of the step: processes (the largest of a node's), the least and most of each value
 * and where the most was (-1: unknown, a row from before migration 040). */
struct spread {
    int64_t first;
    size_t n;
    int64_t *procs, (*lo)[JS_SPREAD_COUNT], (*hi)[JS_SPREAD_COUNT], (*pid)[JS_SPREAD_COUNT];
    int (*node)[JS_SPREAD_COUNT];
    int *known;
};

/* The sums each spread value is made of: sum_cols[sum_first[v]] and the sum_count[v] - 1 after it
 * (js_spread_value's). */
static const int sum_first[JS_SPREAD_COUNT] = { 0, 1, 3, 6 }, sum_count[JS_SPREAD_COUNT] = { 1, 2, 3, 6 };

/* Cell c of row i (a bytea of the binary result) decoded into out (n values): 1, 0 for SQL NULL
 * (out untouched), -1 when it does not decode. */
static int cell(const PGresult *r, int i, int c, size_t n, int64_t *out)
{
    size_t len;
    const unsigned char *b = jsw_bin_bytes(r, i, c, &len);
    if (!b)
        return PQgetisnull(r, i, c) ? 0 : -1;
    long saturated = 0;
    memset(out, 0, n * sizeof *out);
    return js_series_add(b, len, n, out, 1, &saturated) < 0 ? -1 : 1;
}

/* Spread value v of each slice from the row's sums (a NULL sum: zeros) into sv: 0, or -1. */
static int value_sums(const PGresult *r, int i, int v, size_t n, int64_t *sv, int64_t *tmp)
{
    memset(sv, 0, n * sizeof *sv);
    for (int c = sum_first[v]; c < sum_first[v] + sum_count[v]; c++) {
        int got = cell(r, i, SUM0 + c, n, tmp);
        if (got < 0)
            return -1;
        for (size_t k = 0; got && k < n; k++)
            if (__builtin_add_overflow(sv[k], tmp[k], &sv[k]))
                sv[k] = INT64_MAX;
    }
    return 0;
}

/* One slice k of a row into sp (the row's columns decoded: got says which are not NULL). */
static void add_slice(struct spread *sp, int64_t s, int node, int64_t procs, int64_t *const *col, const int *got,
                      int64_t *const *sums, size_t k)
{
    for (int v = 0; v < JS_SPREAD_COUNT; v++) {
        int lo_c = 3 * v, hi_c = lo_c + 1, pid_c = lo_c + 2;
        if (!got[lo_c] && procs > 1)
            continue; /* ingested before migration 040: not known */
        int64_t lo = got[lo_c] ? col[lo_c][k] : sums[v][k];
        int64_t hi = got[hi_c] ? col[hi_c][k] : sums[v][k];
        int64_t pid = got[pid_c] ? col[pid_c][k] : -1;
        int had = sp->known[s] & (1 << v);
        if (!had || lo < sp->lo[s][v])
            sp->lo[s][v] = lo;
        if (!had || hi > sp->hi[s][v]) {
            sp->hi[s][v] = hi;
            sp->pid[s][v] = pid;
            sp->node[s][v] = node;
        }
        sp->known[s] |= 1 << v;
    }
    sp->procs[s] += procs;
}

/* Row i of the result (one step-node's chunk) into sp. Only the columns that are there are
 * decoded, the sums only for a value whose min or max is NULL: 29 columns of 64 step-nodes x
 * 24 chunks of 900 slices were most of a day-long step's reply. tmp: 18 chunks' values. */
static int add_row(struct spread *sp, const PGresult *r, int i, int node, int64_t *tmp)
{
    int64_t first, n;
    if (jsw_bin_int(r, i, FIRST, &first) < 0 || jsw_bin_int(r, i, SLICES, &n) < 0 || n < 1 || n > JS_SERIES_CHUNK)
        return -1;
    int64_t *procs = tmp, *col[3 * JS_SPREAD_COUNT], *sums[JS_SPREAD_COUNT] = { NULL };
    int got[3 * JS_SPREAD_COUNT], have = cell(r, i, PROCS, (size_t)n, procs);
    if (have <= 0)
        return have; /* NULL: no slice with processes */
    for (int c = 0; c < 3 * JS_SPREAD_COUNT; c++) {
        col[c] = tmp + (size_t)(1 + c) * JS_SERIES_CHUNK;
        if ((got[c] = cell(r, i, SPREAD0 + c, (size_t)n, col[c])) < 0)
            return -1;
    }
    int64_t *scratch = tmp + (size_t)(1 + 4 * JS_SPREAD_COUNT) * JS_SERIES_CHUNK;
    for (int v = 0; v < JS_SPREAD_COUNT; v++) {
        if (got[3 * v] && got[3 * v + 1])
            continue;
        sums[v] = tmp + (size_t)(1 + 3 * JS_SPREAD_COUNT + v) * JS_SERIES_CHUNK;
        if (value_sums(r, i, v, (size_t)n, sums[v], scratch) < 0)
            return -1;
    }
    for (int64_t k = 0; k < n; k++) {
        int64_t s = first + k - sp->first;
        if (s >= 0 && s < (int64_t)sp->n && procs[k] > 0)
            add_slice(sp, s, node, procs[k], col, got, sums, (size_t)k);
    }
    return 0;
}

/* The spread per point of width slices (np points), written as
 * {"processes": [...], "node_names": [...], VALUE: {"min": [...], "max": [...], "node": [...], "pid": [...]}}:
 * node an index into node_names; null where a point has no known spread (pid: not kept). */
static void spread_text(struct jsw_text *t, const struct spread *sp, size_t width, const char *const *names, int nnames)
{
    size_t np = jsw_series_points(sp->n, width);
    int64_t *procs = jsw_zalloc(np + 1, sizeof *procs), *col = jsw_zalloc(4 * (np + 1), sizeof *col);
    bool *known = jsw_zalloc(2 * (np + 1), sizeof *known);
    if (!procs || !col || !known) {
        t->oom = true;
        goto out;
    }
    for (size_t p = 0; p < np; p++)
        for (size_t k = p * width; k < sp->n && k < (p + 1) * width; k++)
            procs[p] = sp->procs[k] > procs[p] ? sp->procs[k] : procs[p];
    jsw_text_lit(t, "{\"processes\":");
    jsw_text_int_array(t, procs, np, 1);
    jsw_text_lit(t, ",\"node_names\":[");
    for (int i = 0; i < nnames; i++) {
        if (i)
            jsw_text_raw(t, ",", 1);
        jsw_text_str(t, names[i]);
    }
    jsw_text_raw(t, "]", 1);
    int64_t *lo = col, *hi = col + np + 1, *node = col + 2 * (np + 1), *pid = col + 3 * (np + 1);
    for (int v = 0; v < JS_SPREAD_COUNT; v++) {
        bool any = false, *has = known, *has_pid = known + np + 1;
        for (size_t p = 0; p < np; p++) {
            size_t lo_at = SIZE_MAX, hi_at = SIZE_MAX;
            for (size_t k = p * width; k < sp->n && k < (p + 1) * width; k++) {
                if (!(sp->known[k] & (1 << v)))
                    continue;
                lo_at = lo_at == SIZE_MAX || sp->lo[k][v] < sp->lo[lo_at][v] ? k : lo_at;
                hi_at = hi_at == SIZE_MAX || sp->hi[k][v] > sp->hi[hi_at][v] ? k : hi_at;
            }
            has[p] = hi_at != SIZE_MAX;
            any |= has[p];
            lo[p] = has[p] ? sp->lo[lo_at][v] : 0;
            hi[p] = has[p] ? sp->hi[hi_at][v] : 0;
            node[p] = has[p] ? sp->node[hi_at][v] : 0;
            pid[p] = has[p] ? sp->pid[hi_at][v] : -1;
            has_pid[p] = pid[p] >= 0;
        }
        if (!any)
            continue; /* a value no slice knows */
        jsw_text_key(t, true, js_spread_metrics[v].name);
        static const char *const keys[] = { "{\"min\":", ",\"max\":", ",\"node\":", ",\"pid\":" };
        for (int c = 0; c < 4; c++) {
            jsw_text_lit(t, keys[c]);
            jsw_text_int_array_known(t, col + (size_t)c * (np + 1), c == 3 ? has_pid : has, np);
        }
        jsw_text_raw(t, "}", 1);
    }
    jsw_text_raw(t, "}", 1);
out:
    free(procs);
    free(col);
    free(known);
}

static void spread_free(struct spread *sp)
{
    free(sp->procs);
    free(sp->lo);
    free(sp->hi);
    free(sp->pid);
    free(sp->node);
    free(sp->known);
}

/* sp's arrays for n slices from first, zero: 0, or -1 (spread_free frees what was allocated) */
static int spread_alloc(struct spread *sp, int64_t first, size_t n)
{
    *sp = (struct spread){ .first = first, .n = n };
    sp->procs = jsw_zalloc(sp->n, sizeof *sp->procs);
    sp->lo = jsw_zalloc(sp->n, sizeof *sp->lo);
    sp->hi = jsw_zalloc(sp->n, sizeof *sp->hi);
    sp->pid = jsw_zalloc(sp->n, sizeof *sp->pid);
    sp->node = jsw_zalloc(sp->n, sizeof *sp->node);
    sp->known = jsw_zalloc(sp->n, sizeof *sp->known);
    return sp->procs && sp->lo && sp->hi && sp->pid && sp->node && sp->known ? 0 : -1;
}

int jsw_spread_text(struct jsw_text *t, jsw_db *db, int nparams, const char *const *params, int64_t first, size_t n,
                    size_t width, char *err, size_t errlen)
{
    if (n == 0) {
        jsw_text_lit(t, "{\"processes\":[],\"node_names\":[]}");
        return 0;
    }
    struct spread sp;
    int failed = spread_alloc(&sp, first, n);
    int64_t *tmp = malloc((size_t)(2 + 4 * JS_SPREAD_COUNT) * JS_SERIES_CHUNK * sizeof *tmp);
    PGresult *r = jsw_db_result_binary(db, "step_spread", nparams, params, err, errlen);
    const char **names = r ? calloc((size_t)PQntuples(r) + 1, sizeof *names) : NULL;
    int bad = failed || !tmp || !r || !names || PQnfields(r) != NCOLS;
    /* the nodes in the order of their first rows (rows come ordered by node) */
    int nnames = 0;
    for (int i = 0; i < PQntuples(r) && !bad; i++) {
        if (nnames == 0 || strcmp(PQgetvalue(r, i, NODE), names[nnames - 1]) != 0)
            names[nnames++] = PQgetvalue(r, i, NODE);
        bad = add_row(&sp, r, i, nnames - 1, tmp) < 0;
    }
    if (!bad)
        spread_text(t, &sp, width, names, nnames);
    else if (r)
        snprintf(err, errlen, "database query 'step_spread': a series that does not decode");
    PQclear(r);
    free(names);
    free(tmp);
    spread_free(&sp);
    return bad ? -1 : 0;
}

/* ---- the spread the keeper stored (width 1), read back ---------------------------------------- */

bool jsw_spread_key(char *key, size_t size, const char *step, int64_t first, size_t n)
{
    int w = snprintf(key, size, "spread&step=%s&first=%lld&slices=%zu", step, (long long)first, n);
    return w > 0 && (size_t)w < size;
}

/* p past the text s, or NULL */
static const char *lit(const char *p, const char *s)
{
    size_t n = strlen(s);
    return p && strncmp(p, s, n) == 0 ? p + n : NULL;
}

/* "[...]" of n integers or nulls (has[i] false, v[i] 0) as jsw_text_int_array_known writes them:
 * past it, or NULL */
static const char *ints(const char *p, size_t n, int64_t *v, bool *has)
{
    if (!(p = lit(p, "[")))
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (i && *p++ != ',')
            return NULL;
        has[i] = strncmp(p, "null", 4) != 0;
        v[i] = 0;
        if (!has[i]) {
            p += 4;
            continue;
        }
        bool neg = *p == '-';
        p += neg;
        if (*p < '0' || *p > '9')
            return NULL;
        uint64_t u = 0;
        for (int d = 0; *p >= '0' && *p <= '9'; p++, d++)
            if (d > 18 || __builtin_mul_overflow(u, 10, &u) || __builtin_add_overflow(u, (uint64_t)(*p - '0'), &u))
                return NULL;
        if (u > (uint64_t)INT64_MAX + neg)
            return NULL;
        v[i] = neg ? (int64_t)(0 - u) : (int64_t)u;
    }
    return lit(p, "]");
}

/* "[\"a\",...]" of plain names (no escapes: anything else is not read) copied into buf (at least
 * as long as the text), names[] pointing into it: past it, or NULL */
static const char *names_of(const char *p, char *buf, const char **names, int max, int *n)
{
    if (!(p = lit(p, "[")))
        return NULL;
    for (*n = 0; *p != ']'; ++*n) {
        if ((*n && *p++ != ',') || *n >= max || *p++ != '"')
            return NULL;
        const char *e = strchr(p, '"');
        if (!e || memchr(p, '\\', (size_t)(e - p)) || e == p)
            return NULL;
        memcpy(buf, p, (size_t)(e - p));
        buf[e - p] = '\0';
        names[*n] = buf;
        buf += e - p + 1;
        p = e + 1;
    }
    return p + 1;
}

/* Value v's four arrays ({"min":[...],...}) into sp: past them, or NULL */
static const char *value_of(const char *p, struct spread *sp, int v, int nnames, int64_t *col, bool *has)
{
    static const char *const keys[] = { "{\"min\":", ",\"max\":", ",\"node\":", ",\"pid\":" };
    for (int c = 0; c < 4 && p; c++)
        p = ints(lit(p, keys[c]), sp->n, col + (size_t)c * sp->n, has + (size_t)c * sp->n);
    if (!(p = lit(p, "}")))
        return NULL;
    for (size_t k = 0; k < sp->n; k++) {
        int64_t node = col[2 * sp->n + k];
        if (!has[k])
            continue;
        if (!has[sp->n + k] || !has[2 * sp->n + k] || node < 0 || node >= nnames)
            return NULL;
        sp->lo[k][v] = col[k];
        sp->hi[k][v] = col[sp->n + k];
        sp->node[k][v] = (int)node;
        sp->pid[k][v] = has[3 * sp->n + k] ? col[3 * sp->n + k] : -1;
        sp->known[k] |= 1 << v;
    }
    return p;
}

/* body (spread_text's at width 1 of sp's slices) into sp and names (in buf): 0, or -1 */
static int spread_read(const char *body, struct spread *sp, char *buf, const char **names, int max, int *nnames)
{
    int64_t *col = malloc(4 * sp->n * sizeof *col);
    bool *has = malloc(4 * sp->n * sizeof *has);
    const char *p = col && has ? ints(lit(body, "{\"processes\":"), sp->n, sp->procs, has) : NULL;
    p = names_of(lit(p, ",\"node_names\":"), buf, names, max, nnames);
    while (p && *p == ',') {
        int v = 0;
        const char *q = lit(p, ",\""), *e = q ? strchr(q, '"') : NULL;
        while (e && v < JS_SPREAD_COUNT && (strlen(js_spread_metrics[v].name) != (size_t)(e - q) ||
                                           strncmp(q, js_spread_metrics[v].name, (size_t)(e - q)) != 0))
            v++;
        p = e && v < JS_SPREAD_COUNT ? value_of(lit(e, "\":"), sp, v, *nnames, col, has) : NULL;
    }
    free(col);
    free(has);
    return p && strcmp(p, "}") == 0 ? 0 : -1;
}

int jsw_spread_stored_text(struct jsw_text *t, const char *body, int64_t first, size_t n, size_t width)
{
    if (width == 1) { /* as it was written */
        jsw_text_lit(t, body);
        return 0;
    }
    struct spread sp = { 0 };
    size_t len = strlen(body);
    char *buf = malloc(len + 1);
    const char **names = calloc(len / 3 + 1, sizeof *names); /* a name takes 3 characters at least */
    int nnames = 0, rc = n == 0 || !buf || !names || spread_alloc(&sp, first, n) < 0 ? -1 : 0;
    if (rc == 0 && (rc = spread_read(body, &sp, buf, names, (int)(len / 3 + 1), &nnames)) == 0)
        spread_text(t, &sp, width, names, nnames);
    spread_free(&sp);
    free(buf);
    free(names);
    return rc;
}
