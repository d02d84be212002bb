/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fold: step-nodes queued in js_data.totals_pending are added into the series of their
 * step (over its nodes), of their nodes (over the steps on each) and of the cluster
 * (docs/schema.md "Series"). js_data.rollup_totals() in SQL (sql/functions/) computes the
 * same sums; this does it in C, where decoding and adding a series costs a few ns per value
 * instead of a few hundred.
 *
 * One transaction per batch, one fold at a time across daemons (an advisory lock): a series is
 * read, added to and written back whole, so two folds must not interleave. The queue rows are
 * deleted in the same transaction, so every step-node is added exactly once.
 *
 * The kernel's counts per slice (profile format 5) are added into the step's series only: no
 * background has them.
 */
#include "config.h"

#include "dbutil.h"
#include "ingest_db.h"
#include "log.h"
#include "series.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Step-nodes per transaction: bounds the memory of the sums (a few hundred KiB per touched
 * chunk at most) and the time the totals stay locked. */
#define FOLD_BATCH 100

enum level { STEP, NODE, CLUSTER, LEVELS };
/* Columns of a sum: the count (nodes of the step, or step-nodes), processes (step level only),
 * then the metrics of JS_PROFILE_METRICS, then the kernel's counts (step level only). */
enum { COUNT = 0, PROCS = 1, METRIC0 = 2, NCOL = 2 + JS_SLICE_COLS };

/* Values of a slice row a level sums: the metrics, and at the step level the kernel's counts too. */
static int values_of(enum level level)
{
    return level == STEP ? JS_SLICE_COLS : JS_M_COUNT;
}

/* ", t.posix_read_calls, ..." for the values of a level */
static void value_columns(struct sbuf *b, enum level level, const char *alias)
{
    for (int m = 0; m < values_of(level); m++)
        sb_printf(b, ", %s%s", alias, js_profile_slice_cols[m].name);
}

static const char *const table[LEVELS] = { "js_data.series_step", "js_data.series_node", "js_data.series_cluster" };
static const char *const keycols[LEVELS] = { "cluster_id, job_id, step_id", "cluster_id, node", "cluster_id" };
static const char *const countcols[LEVELS] = { "nodes, processes", "step_nodes", "step_nodes" };

struct sum {
    enum level level;
    char *key;     /* the level's key fields, raw, each ended by \x1f (hashing and equality) */
    char *fields;   /* a copy of key split into field[] */
    char *field[3]; /* the key fields: cluster id, then job and step, or node */
    int64_t chunk, lo, hi;
    int64_t *col[NCOL]; /* JS_SERIES_CHUNK values each, from chunk; NULL while all zero */
};

struct fold {
    struct sum *sums;
    size_t n, cap;
    size_t *index; /* open addressing over sums, 0 = empty, else position + 1 */
    size_t slots;
    long saturated;
    int64_t *tmp;
};

static uint64_t hash_of(enum level level, const char *key, int64_t chunk)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)level;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return (h ^ (uint64_t)chunk) * 1099511628211ull;
}

static void reindex(struct fold *f)
{
    free(f->index);
    f->slots = f->slots ? f->slots * 2 : 256;
    f->index = calloc(f->slots, sizeof *f->index);
    if (!f->index)
        abort();
    for (size_t i = 0; i < f->n; i++) {
        size_t s = hash_of(f->sums[i].level, f->sums[i].key, f->sums[i].chunk) & (f->slots - 1);
        while (f->index[s])
            s = (s + 1) & (f->slots - 1);
        f->index[s] = i + 1;
    }
}

static struct sum *sum_of(struct fold *f, enum level level, const char *key, int64_t chunk)
{
    if (2 * (f->n + 1) > f->slots)
        reindex(f);
    size_t s = hash_of(level, key, chunk) & (f->slots - 1);
    for (; f->index[s]; s = (s + 1) & (f->slots - 1)) {
        struct sum *x = &f->sums[f->index[s] - 1];
        if (x->level == level && x->chunk == chunk && !strcmp(x->key, key))
            return x;
    }
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 64;
        f->sums = realloc(f->sums, f->cap * sizeof *f->sums);
        if (!f->sums)
            abort();
    }
    struct sum *x = &f->sums[f->n];
    memset(x, 0, sizeof *x);
    x->level = level;
    x->key = strdup(key);
    x->fields = strdup(key);
    if (!x->key || !x->fields)
        abort();
    char *p = x->fields;
    for (int k = 0; k < 3 && *p; k++) {
        x->field[k] = p;
        p += strcspn(p, "\x1f");
        *p++ = '\0';
    }
    x->chunk = chunk;
    x->lo = INT64_MAX;
    x->hi = INT64_MIN;
    f->index[s] = ++f->n;
    return x;
}

static int64_t *column(struct sum *x, int c)
{
    if (!x->col[c] && !(x->col[c] = calloc(JS_SERIES_CHUNK, sizeof *x->col[c])))
        abort();
    return x->col[c];
}

/* Add the series in field col of row r (n slices from first) into column c of x; when counts
 * is not NULL, also count the slices where the series is above zero into it. */
static int add_field(struct fold *f, const PGresult *r, int row, int fcol, struct sum *x, int c, int64_t first,
                     size_t n, int64_t *counts, unsigned char *buf)
{
    if (PQgetisnull(r, row, fcol))
        return 0;
    long len = js_series_unhex(PQgetvalue(r, row, fcol), buf, JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK));
    memset(f->tmp, 0, n * sizeof *f->tmp);
    if (len < 0 || js_series_add(buf, (size_t)len, n, f->tmp, 1, &f->saturated) < 0)
        return -1;
    int64_t *dst = column(x, c) + (first - x->chunk);
    long sat = 0;
    for (size_t i = 0; i < n; i++) {
        if (__builtin_add_overflow(dst[i], f->tmp[i], &dst[i])) {
            dst[i] = INT64_MAX;
            sat++;
        }
        if (counts)
            counts[i] += f->tmp[i] > 0;
    }
    f->saturated += sat;
    return 0;
}

/* a key field and its terminator (names hold no control characters: the ingest checks them) */
static void key_field(struct sbuf *k, const char *v)
{
    sb_raw(k, v, strlen(v));
    sb_raw(k, "\x1f", 1);
}

static void span(struct sum *x, int64_t first, size_t n)
{
    if (first < x->lo)
        x->lo = first;
    if (first + (int64_t)n - 1 > x->hi)
        x->hi = first + (int64_t)n - 1;
}

/* Rows of js_data.series_step_node: cluster_id, job_id, step_id, node, chunk, first_slice,
 * slices, processes, metrics, the kernel's counts. Added into the three levels. */
static int add_step_nodes(struct fold *f, const PGresult *r, unsigned char *buf)
{
    struct sbuf k = { 0 };
    for (int i = 0; i < PQntuples(r); i++) {
        if (PQgetisnull(r, i, 5))
            continue; /* a step-node without slices */
        int64_t chunk = strtoll(PQgetvalue(r, i, 5), NULL, 10), first = strtoll(PQgetvalue(r, i, 6), NULL, 10);
        long n = strtol(PQgetvalue(r, i, 7), NULL, 10);
        if (n < 1 || n > JS_SERIES_CHUNK || first < chunk || first + n > chunk + JS_SERIES_CHUNK)
            return -1;
        /* positions, not pointers: a later sum_of may move f->sums */
        size_t at[LEVELS];
        for (int l = 0; l < LEVELS; l++) {
            k.len = 0;
            key_field(&k, PQgetvalue(r, i, 1));
            if (l == STEP) {
                key_field(&k, PQgetvalue(r, i, 2));
                key_field(&k, PQgetvalue(r, i, 3));
            } else if (l == NODE) {
                key_field(&k, PQgetvalue(r, i, 4));
            }
            struct sum *y = sum_of(f, (enum level)l, k.p, chunk);
            span(y, first, (size_t)n);
            at[l] = (size_t)(y - f->sums);
        }
        struct sum *x[LEVELS];
        for (int l = 0; l < LEVELS; l++)
            x[l] = &f->sums[at[l]];
        /* processes: the step's sum, and one node (or step-node) wherever it is above zero */
        int64_t *counts = calloc((size_t)n, sizeof *counts);
        if (!counts)
            abort();
        if (add_field(f, r, i, 8, x[STEP], PROCS, first, (size_t)n, counts, buf) < 0) {
            free(counts);
            free(k.p);
            return -1;
        }
        for (int l = 0; l < LEVELS; l++) {
            int64_t *dst = column(x[l], COUNT) + (first - chunk);
            for (long s = 0; s < n; s++)
                dst[s] += counts[s];
        }
        free(counts);
        for (int m = 0; m < JS_SLICE_COLS; m++)
            for (int l = 0; l < LEVELS && m < values_of((enum level)l); l++)
                if (add_field(f, r, i, 9 + m, x[l], METRIC0 + m, first, (size_t)n, NULL, buf) < 0) {
                    free(k.p);
                    return -1;
                }
    }
    free(k.p);
    return 0;
}

/* one element of an array literal; the first opens it */
static void array_elem(struct sbuf *b, const char *text, int first)
{
    sb_raw(b, first ? "{" : ",", 1);
    sb_array_elem(b, text);
}

/* Read (and lock) the stored series of every sum of a level and add them in. */
static int add_stored(struct pi_db *db, struct fold *f, enum level level, unsigned char *buf)
{
    /* the keys as arrays, one parameter per key column and one for the chunks */
    int nkeys = level == STEP ? 3 : level == NODE ? 2 : 1;
    struct sbuf a[4] = { { 0 } };
    size_t cnt = 0;
    for (size_t i = 0; i < f->n; i++) {
        struct sum *x = &f->sums[i];
        if (x->level != level)
            continue;
        char chunk[32];
        snprintf(chunk, sizeof chunk, "%" PRId64, x->chunk);
        for (int c = 0; c <= nkeys; c++)
            array_elem(&a[c], c < nkeys ? x->field[c] : chunk, cnt == 0);
        cnt++;
    }
    if (cnt == 0)
        return PI_DB_OK;
    for (int c = 0; c <= nkeys; c++)
        sb_raw(&a[c], "}", 1);
    static const char *const match[LEVELS] = {
        "(t.cluster_id, t.job_id, t.step_id, t.chunk) IN (SELECT * FROM unnest($1::smallint[], $2::bigint[], $3::text[], $4::bigint[]))",
        "(t.cluster_id, t.node, t.chunk) IN (SELECT * FROM unnest($1::smallint[], $2::text[], $3::bigint[]))",
        "(t.cluster_id, t.chunk) IN (SELECT * FROM unnest($1::smallint[], $2::bigint[]))" };
    struct sbuf sql = { 0 };
    sb_printf(&sql, "SELECT t.chunk, t.first_slice, t.slices, %s", level == STEP ? "t.nodes, t.processes" : "t.step_nodes");
    value_columns(&sql, level, "t.");
    for (int c = 0; c < nkeys; c++)
        sb_printf(&sql, ", t.%s", c == 0 ? "cluster_id" : level == STEP ? (c == 1 ? "job_id" : "step_id") : "node");
    sb_printf(&sql, " FROM %s t WHERE %s FOR UPDATE", table[level], match[level]);
    const char *p[4] = { a[0].p, a[1].p, a[2].p, a[3].p };
    PGresult *r = dbu_q(db, sql.p, nkeys + 1, p);
    free(sql.p);
    for (int c = 0; c < 4; c++)
        free(a[c].p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        return dbu_check(db, r, PGRES_TUPLES_OK, "fold: read the totals to add to");
    int ncount = level == STEP ? 2 : 1, nvalues = values_of(level), c0 = 3 + ncount + nvalues;
    struct sbuf k = { 0 };
    int bad = 0;
    for (int i = 0; i < PQntuples(r) && !bad; i++) {
        k.len = 0;
        for (int c = 0; c < nkeys; c++)
            key_field(&k, PQgetvalue(r, i, c0 + c));
        int64_t chunk = strtoll(PQgetvalue(r, i, 0), NULL, 10), first = strtoll(PQgetvalue(r, i, 1), NULL, 10);
        long n = strtol(PQgetvalue(r, i, 2), NULL, 10);
        if (n < 1 || n > JS_SERIES_CHUNK || first < chunk || first + n > chunk + JS_SERIES_CHUNK) {
            bad = 1;
            break;
        }
        struct sum *x = sum_of(f, level, k.p, chunk);
        span(x, first, (size_t)n);
        for (int c = 0; c < ncount + nvalues && !bad; c++)
            bad = add_field(f, r, i, 3 + c, x, c < ncount ? c : METRIC0 + (c - ncount), first, (size_t)n, NULL, buf) < 0;
    }
    PQclear(r);
    free(k.p);
    if (bad) {
        pi_error("database: a stored series of %s is not one (common/series.h); the fold stops", table[level]);
        return PI_DB_FAIL;
    }
    return PI_DB_OK;
}

/* Write every sum of a level back: COPY into a temporary table, then one upsert. */
static int write_level(struct pi_db *db, struct fold *f, enum level level, unsigned char *buf)
{
    static const char *const temp[LEVELS] = { "fold_step", "fold_node", "fold_cluster" };
    struct sbuf b = { 0 };
    for (size_t i = 0; i < f->n; i++) {
        struct sum *x = &f->sums[i];
        if (x->level != level)
            continue;
        size_t n = (size_t)(x->hi - x->lo + 1);
        int nkeys = level == STEP ? 3 : level == NODE ? 2 : 1;
        for (int c = 0; c < nkeys; c++) {
            sb_text(&b, x->field[c]);
            sb_raw(&b, "\t", 1);
        }
        sb_printf(&b, "%" PRId64 "\t%" PRId64 "\t%zu", x->chunk, x->lo, n);
        for (int c = 0; c < METRIC0 + values_of(level); c++) {
            if (c == PROCS && level != STEP)
                continue;
            sb_raw(&b, "\t", 1);
            if (x->col[c])
                sb_series(&b, x->col[c] + (x->lo - x->chunk), n, 1, buf);
            else
                sb_raw(&b, "\\N", 2);
        }
        sb_raw(&b, "\n", 1);
    }
    if (b.len == 0)
        return PI_DB_OK;
    char sql[8192];
    /* with the table's compression (lz4): a value compressed in the temporary table moves into
     * the table as it is, and pglz, the default, decompresses several times slower */
    snprintf(sql, sizeof sql, "CREATE TEMP TABLE IF NOT EXISTS %s (LIKE %s INCLUDING COMPRESSION)", temp[level], table[level]);
    int rc = dbu_exec(db, sql, "fold: a temporary table");
    if (rc == PI_DB_OK) {
        snprintf(sql, sizeof sql, "COPY %s (%s, chunk, first_slice, slices, %s, %s%s%s) FROM STDIN", temp[level],
                 keycols[level], countcols[level], dbu_metric_columns(), level == STEP ? ", " : "",
                 level == STEP ? dbu_kernel_columns() : "");
        rc = dbu_copy(db, sql, &b, "fold: COPY the sums");
    }
    free(b.p);
    if (rc != PI_DB_OK)
        return rc;
    struct sbuf set = { 0 };
    sb_printf(&set, "first_slice = excluded.first_slice, slices = excluded.slices");
    const char *counts = level == STEP ? "nodes,processes" : "step_nodes";
    char cl[64];
    snprintf(cl, sizeof cl, "%s", counts);
    for (char *save = NULL, *t = strtok_r(cl, ",", &save); t; t = strtok_r(NULL, ",", &save))
        sb_printf(&set, ", %s = excluded.%s", t, t);
    for (int m = 0; m < values_of(level); m++)
        sb_printf(&set, ", %s = excluded.%s", js_profile_slice_cols[m].name, js_profile_slice_cols[m].name);
    snprintf(sql, sizeof sql, "INSERT INTO %s SELECT * FROM %s ON CONFLICT (%s, chunk) DO UPDATE SET %s",
             table[level], temp[level], keycols[level], set.p);
    free(set.p);
    rc = dbu_exec(db, sql, "fold: write the sums");
    if (rc == PI_DB_OK) {
        snprintf(sql, sizeof sql, "DELETE FROM %s", temp[level]);
        rc = dbu_exec(db, sql, "fold: empty the temporary table");
    }
    return rc;
}

static void fold_free(struct fold *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->sums[i].key);
        free(f->sums[i].fields);
        for (int c = 0; c < NCOL; c++)
            free(f->sums[i].col[c]);
    }
    free(f->sums);
    free(f->index);
    free(f->tmp);
    memset(f, 0, sizeof *f);
}

/* One batch: PI_DB_OK with *folded step-nodes (0: the queue is empty, or another daemon is
 * folding), or RETRY / FAIL (rolled back: the batch stays queued). */
static int fold_batch(struct pi_db *db, long *folded)
{
    *folded = 0;
    int rc = dbu_exec(db, "BEGIN", "fold: begin");
    if (rc != PI_DB_OK)
        return rc;
    PGresult *r = PQexec(db->conn, "SELECT pg_try_advisory_xact_lock(hashtext('jobscreen totals'))");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        rc = dbu_check(db, r, PGRES_TUPLES_OK, "fold: lock");
        dbu_rollback(db);
        return rc;
    }
    int mine = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    if (!mine)
        return dbu_exec(db, "COMMIT", "fold: another daemon folds");
    char lim[16];
    snprintf(lim, sizeof lim, "%d", FOLD_BATCH);
    const char *p[1] = { lim };
    struct sbuf qs = { 0 };
    sb_printf(&qs, "WITH b AS (SELECT cluster_id, job_id, step_id, node FROM js_data.totals_pending "
                   "           ORDER BY queued_at LIMIT $1::integer FOR UPDATE SKIP LOCKED), "
                   "d AS (DELETE FROM js_data.totals_pending t USING b WHERE t.cluster_id = b.cluster_id "
                   "      AND t.job_id = b.job_id AND t.step_id = b.step_id AND t.node = b.node "
                   "      RETURNING t.cluster_id, t.job_id, t.step_id, t.node) "
                   "SELECT (SELECT count(*) FROM d), d.cluster_id, d.job_id, d.step_id, d.node, s.chunk, "
                   "       s.first_slice, s.slices, s.processes");
    value_columns(&qs, STEP, "s.");
    sb_printf(&qs, " FROM d LEFT JOIN js_data.series_step_node s ON s.cluster_id = d.cluster_id AND s.job_id = d.job_id "
                   "AND s.step_id = d.step_id AND s.node = d.node");
    r = dbu_q(db, qs.p, 1, p);
    free(qs.p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        rc = dbu_check(db, r, PGRES_TUPLES_OK, "fold: take a batch");
        dbu_rollback(db);
        return rc;
    }
    long n = PQntuples(r) ? strtol(PQgetvalue(r, 0, 0), NULL, 10) : 0;
    struct fold f = { 0 };
    unsigned char *buf = malloc(JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK));
    f.tmp = malloc(JS_SERIES_CHUNK * sizeof *f.tmp);
    if (!buf || !f.tmp)
        abort();
    if (add_step_nodes(&f, r, buf) < 0) {
        pi_error("database: a series of js_data.series_step_node is not one (common/series.h); the fold stops");
        rc = PI_DB_FAIL;
    }
    PQclear(r);
    for (int l = 0; l < LEVELS && rc == PI_DB_OK; l++)
        rc = add_stored(db, &f, (enum level)l, buf);
    for (int l = 0; l < LEVELS && rc == PI_DB_OK; l++)
        rc = write_level(db, &f, (enum level)l, buf);
    if (f.saturated)
        pi_warn("fold: %ld values of the totals reached the largest integer and were kept there", f.saturated);
    fold_free(&f);
    free(buf);
    if (rc == PI_DB_OK)
        rc = dbu_exec(db, "COMMIT", "fold: commit");
    if (rc != PI_DB_OK) {
        dbu_rollback(db);
        return rc;
    }
    *folded = n;
    return PI_DB_OK;
}

int pi_db_rollup(struct pi_db *db, long *folded)
{
    *folded = 0;
    for (int attempt = 0; attempt < 100000; attempt++) {
        long n = 0;
        int rc = fold_batch(db, &n);
        if (rc == PI_DB_RETRY && db->conn && attempt < 3)
            continue; /* a deadlock with another daemon */
        if (rc != PI_DB_OK)
            return rc;
        *folded += n;
        if (n == 0)
            break;
    }
    return PI_DB_OK;
}
