/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The insight's view of a step's slices (docs/insight.md, "Cost"): its own rates and the
 * background beside them, read from the stored series (docs/schema.md, "Series") and decoded
 * here in C, a few ns a value. The SQL views (js.step_background_cluster) decode every metric of
 * every chunk in SQL, anew for each step: a third of a second a step, where this takes a
 * millisecond or two. The totals hold the folded step-nodes, so the background is the totals
 * less the step's folded series; its step-nodes still queued for the fold are its own.
 */
#include "config.h"

#include "dbutil.h"
#include "insight.h"
#include "log.h"
#include "profile_format.h"
#include "series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The metrics the insight reads. Slot 0 of a slice holds its processes, slot 1 + i the metric
 * in_metrics[i]. */
static const enum js_metric in_metrics[] = {
    JS_M_CPU_NS,
    JS_M_POSIX_READ_BYTES, JS_M_POSIX_WRITE_BYTES, JS_M_STDIO_READ_BYTES, JS_M_STDIO_WRITE_BYTES,
    JS_M_MPIIO_READ_BYTES, JS_M_MPIIO_WRITE_BYTES,
    JS_M_POSIX_OPEN_CALLS, JS_M_POSIX_META_CALLS, JS_M_STDIO_OPEN_CALLS, JS_M_STDIO_META_CALLS, JS_M_MPIIO_META_CALLS,
    JS_M_MPI_SEND_CALLS, JS_M_MPI_RECV_CALLS, JS_M_MPI_COLL_CALLS, JS_M_MPI_SEND_BYTES, JS_M_MPI_COLL_BYTES,
    JS_M_POSIX_NS, JS_M_STDIO_NS, JS_M_MPIIO_NS,
};
#define IN_METRICS (sizeof in_metrics / sizeof in_metrics[0])
#define IN_SLOTS (1 + IN_METRICS)

/* the slot of a metric of in_metrics */
static size_t slot(enum js_metric m)
{
    static size_t table[JS_M_COUNT];
    if (!table[in_metrics[0]])
        for (size_t i = 0; i < IN_METRICS; i++)
            table[in_metrics[i]] = 1 + i;
    if (!table[m])
        abort(); /* a metric the list lacks: a programming error */
    return table[m];
}

/* the sum of some metrics of a slice */
static double in_sum(const int64_t *slice, const enum js_metric *m, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (double)slice[slot(m[i])];
    return sum;
}

/* The series queries: every one returns chunk, first_slice, slices (bigint), then bytea series:
 * processes (or NULL) and the metrics of in_metrics (Q_OWN, Q_PENDING, Q_CLUSTER), or cpu_ns
 * alone (Q_NODES); $1 .. $3 are the step's key, the chunks those of the step's slices (none for
 * a step longer than PI_IN_SLICES_MAX). */
enum in_query { Q_OWN, Q_PENDING, Q_CLUSTER, Q_NODES, Q_COUNT };

static const char *const q_names[Q_COUNT] = { "insight_own", "insight_own_pending", "insight_cluster",
                                              "insight_nodes" };
/* also the messages' names of the queries' errors */
static const char *const q_what[Q_COUNT] = { "insight: the step's series", "insight: its series queued for the fold",
                                             "insight: the cluster's series", "insight: its nodes' series" };

static const char *in_query(enum in_query q)
{
    static char *text[Q_COUNT];
    if (text[q])
        return text[q];
    /* per chunk of the step's slices, one lookup by key each (a lateral subquery, kept one by
     * OFFSET 0): as a join the planner read the chunks of every node of the cluster and kept
     * the step's */
    struct sbuf b = { 0 };
    sb_printf(&b, "SELECT x.* FROM js_data.steps s%s CROSS JOIN LATERAL ("
                  "SELECT x.chunk::bigint, x.first_slice::bigint, x.slices::bigint",
              q == Q_NODES ? " JOIN js_data.step_nodes sn ON sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id"
                             " AND sn.step_id = s.step_id" : "");
    if (q == Q_NODES) {
        sb_printf(&b, ", x.cpu_ns");
    } else {
        sb_printf(&b, q == Q_CLUSTER ? ", NULL::bytea" : ", x.processes");
        for (size_t i = 0; i < IN_METRICS; i++)
            sb_printf(&b, ", x.%s", js_profile_metrics[in_metrics[i]].name);
    }
    static const char *const from[Q_COUNT] = {
        "js_data.series_step x WHERE x.job_id = s.job_id AND x.step_id = s.step_id",
        "js_data.series_step_node x JOIN js_data.totals_pending p ON p.cluster_id = x.cluster_id AND p.job_id = x.job_id "
        "AND p.step_id = x.step_id AND p.node = x.node WHERE x.job_id = s.job_id AND x.step_id = s.step_id",
        "js_data.series_cluster x WHERE true",
        "js_data.series_node x WHERE x.node = sn.node",
    };
    sb_printf(&b, " FROM %s AND x.cluster_id = s.cluster_id"
                  " AND x.chunk BETWEEN js_data.series_chunk_of(s.first_slice) AND s.last_slice OFFSET 0) x"
                  " WHERE s.cluster_id = $1 AND s.job_id = $2 AND s.step_id = $3 AND s.last_slice - s.first_slice < %d",
              from[q], PI_IN_SLICES_MAX);
    return text[q] = b.p;
}

void pi_in_series_queries(struct dbu_batch *b, const char *const key[3])
{
    for (int q = 0; q < Q_COUNT; q++)
        dbu_batch_add(b, q_names[q], in_query((enum in_query)q), 3, key, 1, q_what[q]);
}

/* A step's slices first .. first + n - 1, stride values each. */
struct in_buf {
    int64_t first;
    size_t n, stride;
    int64_t *v;
    long saturated;
};

static int64_t bin_i64(const PGresult *r, int row, int col)
{
    const unsigned char *p = (const unsigned char *)PQgetvalue(r, row, col);
    uint64_t u = 0;
    for (int i = 0; i < 8; i++)
        u = u << 8 | p[i];
    return (int64_t)u;
}

/* Add the rows of a series query's result (binary) into buf: series column c into slot c.
 * PI_DB_OK, or PI_DB_FAIL after logging a series that does not decode. */
static int add_series(PGresult *const *results, enum in_query q, const char *const key[3], struct in_buf *buf)
{
    const PGresult *r = results[q];
    int cols = PQnfields(r) - 3, bad = cols < 1 || (size_t)cols > buf->stride;
    int64_t tmp[JS_SERIES_CHUNK];
    for (int row = 0; row < PQntuples(r) && !bad; row++) {
        bad = PQgetlength(r, row, 0) != 8 || PQgetlength(r, row, 1) != 8 || PQgetlength(r, row, 2) != 8;
        int64_t first = bad ? 0 : bin_i64(r, row, 1), n = bad ? 0 : bin_i64(r, row, 2);
        bad = bad || n < 1 || n > JS_SERIES_CHUNK;
        for (int c = 0; c < cols && !bad; c++)
            if (!PQgetisnull(r, row, 3 + c))
                bad = js_series_add_window((const unsigned char *)PQgetvalue(r, row, 3 + c),
                                           (size_t)PQgetlength(r, row, 3 + c), first, (size_t)n, buf->first, buf->n,
                                           buf->v + c, buf->stride, tmp, &buf->saturated) < 0;
    }
    if (bad) {
        pi_error("%s of job %s step %s: a series that does not decode", q_what[q], key[1], key[2]);
        return PI_DB_FAIL;
    }
    return PI_DB_OK;
}

/* The step's own series, the cluster's and its nodes' into own, tot and nod; the background is
 * left in tot (every metric) and nod (CPU). */
static int read_buffers(PGresult *const *results, const char *const key[3], struct in_buf *own, struct in_buf *tot,
                        struct in_buf *nod)
{
    int rc = add_series(results, Q_OWN, key, own);
    if (rc == PI_DB_OK)
        rc = add_series(results, Q_CLUSTER, key, tot);
    if (rc == PI_DB_OK)
        rc = add_series(results, Q_NODES, key, nod);
    if (rc != PI_DB_OK)
        return rc;
    size_t cpu = slot(JS_M_CPU_NS);
    for (size_t t = 0; t < own->n; t++) {
        for (size_t m = 1; m < IN_SLOTS; m++)
            tot->v[t * IN_SLOTS + m] -= own->v[t * IN_SLOTS + m];
        nod->v[t] -= own->v[t * IN_SLOTS + cpu];
    }
    return add_series(results, Q_PENDING, key, own);
}

#define SUM(buf, t, ...) in_sum((buf) + (t) * IN_SLOTS, (const enum js_metric[]){ __VA_ARGS__ }, \
                                sizeof((const enum js_metric[]){ __VA_ARGS__ }) / sizeof(enum js_metric))
#define IO_BYTES JS_M_POSIX_READ_BYTES, JS_M_POSIX_WRITE_BYTES, JS_M_STDIO_READ_BYTES, JS_M_STDIO_WRITE_BYTES, \
                 JS_M_MPIIO_READ_BYTES, JS_M_MPIIO_WRITE_BYTES
#define META_OPS JS_M_POSIX_OPEN_CALLS, JS_M_POSIX_META_CALLS, JS_M_STDIO_OPEN_CALLS, JS_M_STDIO_META_CALLS, \
                 JS_M_MPIIO_META_CALLS
/* the step's own, for METADATA_STORM: not stdio's "metadata" calls (fflush, fseek, ungetc, fclose),
 * which work on a stream's buffer and reach no metadata server (issue 36: test insight/verdicts's writer's
 * 2,000 one-byte printf, each flushed, read as a storm of 1,014 a second); fopen is an open */
#define STORM_OPS JS_M_POSIX_OPEN_CALLS, JS_M_POSIX_META_CALLS, JS_M_STDIO_OPEN_CALLS, JS_M_MPIIO_META_CALLS

int pi_in_series_slices(PGresult *const *results, const char *const key[3], int64_t first, int64_t last,
                        double slice_s, struct pi_in_slices *s, double **mem)
{
    size_t n = (size_t)(last - first + 1);
    struct in_buf own = { first, n, IN_SLOTS, NULL, 0 }, tot = own, nod = { first, n, 1, NULL, 0 };
    own.v = calloc(n * IN_SLOTS, sizeof *own.v);
    tot.v = calloc(n * IN_SLOTS, sizeof *tot.v);
    nod.v = calloc(n, sizeof *nod.v);
    *mem = calloc(n * (PI_OWN_COUNT + PI_BG_COUNT + 4), sizeof **mem);
    if (!own.v || !tot.v || !nod.v || !*mem)
        abort();
    int rc = read_buffers(results, key, &own, &tot, &nod);
    if (rc == PI_DB_OK && own.saturated + tot.saturated + nod.saturated)
        pi_warn("insight of job %s step %s: %ld per-slice sums beyond 2^63 were kept at 2^63 - 1", key[1], key[2],
                own.saturated + tot.saturated + nod.saturated);
    *s = (struct pi_in_slices){ .n = n, .slice_s = slice_s, .first_slice = first };
    double *next = *mem;
    for (int o = 0; o < PI_OWN_COUNT; o++, next += n)
        s->own[o] = next;
    for (int g = 0; g < PI_BG_COUNT; g++, next += n)
        s->bg[g] = next;
    s->io_bytes = next;
    s->meta_ops = next + n;
    s->io_s = next + 2 * n;
    s->procs = next + 3 * n;
    for (size_t t = 0; rc == PI_DB_OK && t < n; t++) {
        s->own[PI_OWN_CPU][t] = SUM(own.v, t, JS_M_CPU_NS) / 1e9 / slice_s;
        s->io_bytes[t] = SUM(own.v, t, IO_BYTES);
        s->own[PI_OWN_IO][t] = s->io_bytes[t] / slice_s;
        s->own[PI_OWN_MPI][t] = SUM(own.v, t, JS_M_MPI_SEND_CALLS, JS_M_MPI_RECV_CALLS, JS_M_MPI_COLL_CALLS) / slice_s;
        s->meta_ops[t] = SUM(own.v, t, STORM_OPS);
        s->bg[PI_BG_IO][t] = SUM(tot.v, t, IO_BYTES) / slice_s;
        s->bg[PI_BG_META][t] = SUM(tot.v, t, META_OPS) / slice_s;
        s->bg[PI_BG_MPI][t] = SUM(tot.v, t, JS_M_MPI_SEND_BYTES, JS_M_MPI_COLL_BYTES) / slice_s;
        s->bg[PI_BG_CPU][t] = (double)nod.v[t] / 1e9 / slice_s;
        s->io_s[t] = SUM(own.v, t, JS_M_POSIX_NS, JS_M_STDIO_NS, JS_M_MPIIO_NS) / 1e9;
        s->procs[t] = (double)own.v[t * IN_SLOTS];
    }
    free(own.v);
    free(tot.v);
    free(nod.v);
    if (rc != PI_DB_OK) {
        free(*mem);
        *mem = NULL;
    }
    return rc;
}
