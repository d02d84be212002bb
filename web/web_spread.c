/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The spread of a step's processes per slice, for the step endpoint (docs/api.md, "spread"):
 * over the step's nodes, the least and the most one process had of CPU, MPI time, I/O time and
 * I/O bytes (common/bundle_series.h), and where the most was (node, pid). The node keeps them
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

/* Cell col of row i (a bytea in text form) decoded into out (n values; NULL: zeros, *null
 * set): 0, or -1 when it does not decode. buf holds JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK). */
static int cell(const PGresult *r, int i, int col, size_t n, int64_t *out, int *null, unsigned char *buf)
{
    memset(out, 0, n * sizeof *out);
    *null = PQgetisnull(r, i, col);
    if (*null)
        return 0;
    long saturated = 0, len = js_series_unhex(PQgetvalue(r, i, col), buf, JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK));
    return len < 0 ? -1 : js_series_add(buf, (size_t)len, n, out, 1, &saturated);
}

/* Row i of the result (one step-node's chunk) into sp. */
static int add_row(struct spread *sp, const PGresult *r, int i, int node, int64_t *tmp, unsigned char *buf)
{
    int64_t first = strtoll(PQgetvalue(r, i, FIRST), NULL, 10), n = strtoll(PQgetvalue(r, i, SLICES), NULL, 10);
    if (n < 1 || n > JS_SERIES_CHUNK)
        return -1;
    int64_t *col[NCOLS];
    int null[NCOLS];
    for (int c = PROCS; c < NCOLS; c++) {
        col[c] = tmp + (size_t)c * JS_SERIES_CHUNK;
        if (cell(r, i, c, (size_t)n, col[c], &null[c], buf) < 0)
            return -1;
    }
    for (int64_t k = 0; k < n; k++) {
        int64_t s = first + k - sp->first, procs = col[PROCS][k];
        if (s < 0 || s >= (int64_t)sp->n || procs <= 0)
            continue;
        int64_t row[JS_SLICE_COLS] = { 0 };
        for (int c = 0; c < NSUM; c++)
            row[sum_cols[c]] = col[SUM0 + c][k];
        for (int v = 0; v < JS_SPREAD_COUNT; v++) {
            int lo_c = SPREAD0 + 3 * v, hi_c = lo_c + 1, pid_c = lo_c + 2;
            if (null[lo_c] && procs > 1)
                continue; /* ingested before migration 040: not known */
            int64_t lo = null[lo_c] ? js_spread_value(row, v) : col[lo_c][k];
            int64_t hi = null[hi_c] ? js_spread_value(row, v) : col[hi_c][k];
            int64_t pid = null[pid_c] ? -1 : col[pid_c][k];
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
    return 0;
}

/* Slices [i, end) as one row, or NULL when none has a known spread. */
static json_t *run_json(const struct spread *sp, size_t i, size_t end, double len, const PGresult *r)
{
    json_t *row = NULL;
    int64_t procs = 0;
    for (int v = 0; v < JS_SPREAD_COUNT; v++) {
        size_t lo_at = SIZE_MAX, hi_at = SIZE_MAX;
        for (size_t k = i; k < end; k++) {
            if (!(sp->known[k] & (1 << v)))
                continue;
            lo_at = lo_at == SIZE_MAX || sp->lo[k][v] < sp->lo[lo_at][v] ? k : lo_at;
            hi_at = hi_at == SIZE_MAX || sp->hi[k][v] > sp->hi[hi_at][v] ? k : hi_at;
            procs = sp->procs[k] > procs ? sp->procs[k] : procs;
        }
        if (hi_at == SIZE_MAX)
            continue;
        if (!row)
            row = json_object();
        json_t *o = json_pack("{s:I, s:I, s:s}", "min", (json_int_t)sp->lo[lo_at][v], "max", (json_int_t)sp->hi[hi_at][v],
                              "node", PQgetvalue(r, sp->node[hi_at][v], NODE));
        json_object_set_new(o, "pid", sp->pid[hi_at][v] >= 0 ? json_integer(sp->pid[hi_at][v]) : json_null());
        json_object_set_new(row, js_spread_metrics[v].name, o);
    }
    if (!row)
        return NULL;
    int64_t slice = sp->first + (int64_t)i;
    json_object_set_new(row, "slice", json_integer(slice));
    json_object_set_new(row, "t", json_real((double)slice * len));
    json_object_set_new(row, "processes", json_integer(procs));
    if (end - i > 1)
        json_object_set_new(row, "slices", json_integer((json_int_t)(end - i)));
    return row;
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

json_t *jsw_step_spread(jsw_db *db, int nparams, const char *const *params, int64_t first, int64_t last, double len,
                        size_t width, char *err, size_t errlen)
{
    struct spread sp = { .first = first, .n = (size_t)(last - first + 1) };
    sp.procs = calloc(sp.n, sizeof *sp.procs);
    sp.lo = calloc(sp.n, sizeof *sp.lo);
    sp.hi = calloc(sp.n, sizeof *sp.hi);
    sp.pid = calloc(sp.n, sizeof *sp.pid);
    sp.node = calloc(sp.n, sizeof *sp.node);
    sp.known = calloc(sp.n, sizeof *sp.known);
    int64_t *tmp = malloc((size_t)NCOLS * JS_SERIES_CHUNK * sizeof *tmp);
    unsigned char *buf = malloc(JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK));
    PGresult *r = jsw_db_result(db, "step_spread", nparams, params, err, errlen);
    int bad = !sp.procs || !sp.lo || !sp.hi || !sp.pid || !sp.node || !sp.known || !tmp || !buf || !r || PQnfields(r) != NCOLS;
    /* a node is known by the first row of its own (rows come ordered by node) */
    for (int i = 0, node = 0; i < PQntuples(r) && !bad; i++) {
        if (i > 0 && strcmp(PQgetvalue(r, i, NODE), PQgetvalue(r, node, NODE)) != 0)
            node = i;
        bad = add_row(&sp, r, i, node, tmp, buf) < 0;
    }
    json_t *out = NULL;
    if (!bad) {
        out = json_array();
        for (size_t i = 0; i < sp.n; i += width) {
            json_t *row = run_json(&sp, i, i + width < sp.n ? i + width : sp.n, len, r);
            if (row)
                json_array_append_new(out, row);
        }
    } else if (r) {
        snprintf(err, errlen, "database query 'step_spread': a series that does not decode");
    }
    PQclear(r);
    free(tmp);
    free(buf);
    spread_free(&sp);
    return out;
}
