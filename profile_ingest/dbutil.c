/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers of the ingest's database code: COPY buffers, result checks, queries. */
#include "config.h"

#include "dbutil.h"
#include "log.h"
#include "series.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- a growing buffer for COPY data ---------------------------------------------- */

void sb_need(struct sbuf *b, size_t more)
{
    if (b->len + more + 1 <= b->cap)
        return;
    size_t n = b->cap ? b->cap * 2 : 65536;
    while (n < b->len + more + 1)
        n *= 2;
    char *q = realloc(b->p, n);
    if (!q)
        abort();
    b->p = q;
    b->cap = n;
}

void sb_raw(struct sbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap)
        sb_need(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    sb_need(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* a decimal integer (the hot path of COPY: a vsnprintf per value costs more than the COPY) */
void sb_int(struct sbuf *b, int64_t v)
{
    char tmp[24], *e = tmp + sizeof tmp, *p = e;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    sb_raw(b, p, (size_t)(e - p));
}

/* a text field in COPY text format: NULL as \N, backslash, tab, newline, CR escaped */
void sb_text(struct sbuf *b, const char *s)
{
    if (!s) {
        sb_raw(b, "\\N", 2);
        return;
    }
    for (; *s; s++) {
        switch (*s) {
        case '\\': sb_raw(b, "\\\\", 2); break;
        case '\t': sb_raw(b, "\\t", 2); break;
        case '\n': sb_raw(b, "\\n", 2); break;
        case '\r': sb_raw(b, "\\r", 2); break;
        default: sb_raw(b, s, 1);
        }
    }
}

void sb_ts(struct sbuf *b, int64_t ns)
{
    if (ns < 0) {
        sb_raw(b, "\\N", 2);
        return;
    }
    time_t sec = (time_t)(ns / 1000000000);
    struct tm tm;
    gmtime_r(&sec, &tm);
    char t[40];
    strftime(t, sizeof t, "%Y-%m-%d %H:%M:%S", &tm);
    sb_printf(b, "%s.%06" PRId64 "+00", t, (ns % 1000000000) / 1000);
}

/* ---- errors ------------------------------------------------------------------------ */
int dbu_transient(PGconn *c, const PGresult *r)
{
    if (PQstatus(c) != CONNECTION_OK)
        return 1;
    const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (!st)
        return 1;
    /* 26000: a prepared statement gone with the server session (a pooler), prepared again */
    return !strncmp(st, "08", 2) || !strncmp(st, "57P", 3) || !strncmp(st, "53", 2) ||
           !strcmp(st, "40001") || !strcmp(st, "40P01") || !strcmp(st, "55P03") || !strcmp(st, "26000");
}

/* Check a result: PI_DB_OK, or RETRY/FAIL after logging (and clearing) it. */
int dbu_check(struct pi_db *db, PGresult *r, ExecStatusType want, const char *what)
{
    if (r && PQresultStatus(r) == want) {
        PQclear(r);
        return PI_DB_OK;
    }
    ExecStatusType got = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (got == PGRES_COMMAND_OK || got == PGRES_TUPLES_OK || got == PGRES_COPY_IN) {
        /* no error, another kind of result: our SQL is wrong (e.g. a migration ending in a
         * SELECT), which no retry mends */
        pi_error("database: %s: the server answered %s where %s was expected", what, PQresStatus(got), PQresStatus(want));
        PQclear(r);
        return PI_DB_FAIL;
    }
    int t = dbu_transient(db->conn, r);
    const char *msg = r ? PQresultErrorMessage(r) : PQerrorMessage(db->conn);
    char m[1024];
    snprintf(m, sizeof m, "%s", msg && *msg ? msg : PQerrorMessage(db->conn));
    m[strcspn(m, "\n")] = '\0';
    if (t)
        pi_warn("database: %s: %s (will retry)", what, m);
    else
        pi_error("database: %s: %s", what, m);
    PQclear(r);
    if (PQstatus(db->conn) != CONNECTION_OK) {
        PQfinish(db->conn);
        db->conn = NULL;
        db->staged = 0;
    }
    return t ? PI_DB_RETRY : PI_DB_FAIL;
}

int dbu_exec(struct pi_db *db, const char *sql, const char *what)
{
    return dbu_check(db, PQexec(db->conn, sql), PGRES_COMMAND_OK, what);
}

void dbu_rollback(struct pi_db *db)
{
    if (db->conn && PQtransactionStatus(db->conn) != PQTRANS_IDLE)
        PQclear(PQexec(db->conn, "ROLLBACK"));
}

PGresult *dbu_q(struct pi_db *db, const char *sql, int n, const char *const *params)
{
    return PQexecParams(db->conn, sql, n, NULL, params, NULL, NULL, 0);
}

static int is_prepared(const struct pi_db *db, const char *name)
{
    for (int i = 0; i < db->nprepared; i++)
        if (!strcmp(db->prepared[i], name))
            return 1;
    return 0;
}

void dbu_batch_add(struct dbu_batch *b, const char *name, const char *sql, int nparams, const char *const *params,
                   int binary, const char *what)
{
    if (b->n == DBU_BATCH_MAX)
        abort(); /* a batch larger than the callers build: a programming error */
    b->q[b->n].name = name;
    b->q[b->n].sql = sql;
    b->q[b->n].what = what;
    b->q[b->n].nparams = nparams;
    b->q[b->n].params = params;
    b->q[b->n].binary = binary;
    b->r[b->n++] = NULL;
}

/* prepare the batch's named statements not yet prepared in the session */
static int batch_prepare(struct pi_db *db, const struct dbu_batch *b)
{
    for (int i = 0; i < b->n; i++) {
        const char *name = b->q[i].name;
        if (!name || is_prepared(db, name))
            continue;
        if (db->nprepared == (int)(sizeof db->prepared / sizeof db->prepared[0]))
            abort(); /* more statements than the session keeps: a programming error */
        int rc = dbu_check(db, PQprepare(db->conn, name, b->q[i].sql, b->q[i].nparams, NULL), PGRES_COMMAND_OK,
                           b->q[i].what);
        if (rc != PI_DB_OK)
            return rc;
        db->prepared[db->nprepared++] = name;
    }
    return PI_DB_OK;
}

static int batch_send(PGconn *c, const struct dbu_batch *b, int i)
{
    if (b->q[i].name)
        return PQsendQueryPrepared(c, b->q[i].name, b->q[i].nparams, b->q[i].params, NULL, NULL, b->q[i].binary);
    return PQsendQueryParams(c, b->q[i].sql, b->q[i].nparams, NULL, b->q[i].params, NULL, NULL, b->q[i].binary);
}

/* send the batch and read its results: 1, or 0 when the connection failed */
static int batch_exchange(struct pi_db *db, struct dbu_batch *b)
{
#ifdef LIBPQ_HAS_PIPELINING
    int ok = PQenterPipelineMode(db->conn);
    for (int i = 0; i < b->n && ok; i++)
        ok = batch_send(db->conn, b, i);
    ok = ok && PQpipelineSync(db->conn);
    /* each statement's result, then NULL; at the end the sync's */
    for (int i = 0; i < b->n && ok; i++) {
        b->r[i] = PQgetResult(db->conn);
        for (PGresult *more; b->r[i] && (more = PQgetResult(db->conn));)
            PQclear(more);
        ok = b->r[i] != NULL;
    }
    PGresult *sync = ok ? PQgetResult(db->conn) : NULL;
    ok = ok && sync && PQresultStatus(sync) == PGRES_PIPELINE_SYNC;
    PQclear(sync);
    return PQexitPipelineMode(db->conn) && ok;
#else
    int ok = 1;
    for (int i = 0; i < b->n && ok; i++) {
        ok = batch_send(db->conn, b, i);
        for (PGresult *r; ok && (r = PQgetResult(db->conn));)
            if (b->r[i])
                PQclear(r);
            else
                b->r[i] = r;
        ok = ok && b->r[i] != NULL;
    }
    return ok;
#endif
}

int dbu_batch_run(struct pi_db *db, struct dbu_batch *b)
{
    int rc = batch_prepare(db, b);
    if (rc != PI_DB_OK)
        return rc;
    if (!batch_exchange(db, b)) {
        dbu_batch_clear(b);
        rc = dbu_check(db, NULL, PGRES_COMMAND_OK, b->q[0].what); /* the connection's error */
#ifdef LIBPQ_HAS_PIPELINING
        if (db->conn && PQpipelineStatus(db->conn) != PQ_PIPELINE_OFF) {
            /* stuck in pipeline mode with results unread: a new connection next time */
            PQfinish(db->conn);
            db->conn = NULL;
            db->staged = 0;
        }
#endif
        return rc;
    }
    /* in order, so that the first error is told (the statements after it were not run) */
    for (int i = 0; i < b->n; i++) {
        ExecStatusType st = PQresultStatus(b->r[i]);
        if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
            continue;
        /* a statement the server no longer has (a connection pooler gave us another server
         * session): prepared again next time (dbu_transient retries it) */
        const char *state = PQresultErrorField(b->r[i], PG_DIAG_SQLSTATE);
        for (int j = 0; b->q[i].name && state && !strcmp(state, "26000") && j < db->nprepared; j++)
            if (!strcmp(db->prepared[j], b->q[i].name))
                db->prepared[j] = db->prepared[--db->nprepared];
        rc = dbu_check(db, b->r[i], PGRES_COMMAND_OK, b->q[i].what);
        b->r[i] = NULL;
        dbu_batch_clear(b);
        return rc;
    }
    return PI_DB_OK;
}

void dbu_batch_clear(struct dbu_batch *b)
{
    for (int i = 0; i < b->n; i++) {
        PQclear(b->r[i]);
        b->r[i] = NULL;
    }
}

void sb_array_elem(struct sbuf *b, const char *text)
{
    if (!text) {
        sb_raw(b, "NULL", 4);
        return;
    }
    sb_raw(b, "\"", 1);
    for (const char *s = text; *s; s++) {
        if (*s == '"' || *s == '\\')
            sb_raw(b, "\\", 1);
        sb_raw(b, s, 1);
    }
    sb_raw(b, "\"", 1);
}

int dbu_copy_start(struct pi_db *db, const char *sql, const char *what)
{
    return dbu_check(db, PQexec(db->conn, sql), PGRES_COPY_IN, what);
}

int dbu_copy_put(struct pi_db *db, struct sbuf *b, const char *what)
{
    size_t off = 0;
    while (off < b->len) {
        size_t n = b->len - off > (1 << 20) ? (1 << 20) : b->len - off;
        if (PQputCopyData(db->conn, b->p + off, (int)n) != 1) {
            pi_error("database: %s: %s", what, PQerrorMessage(db->conn));
            return PI_DB_RETRY;
        }
        off += n;
    }
    b->len = 0;
    return PI_DB_OK;
}

int dbu_copy_finish(struct pi_db *db, struct sbuf *b, const char *what)
{
    int rc = dbu_copy_put(db, b, what);
    PQputCopyEnd(db->conn, rc == PI_DB_OK ? NULL : "client error");
    int end = dbu_check(db, PQgetResult(db->conn), PGRES_COMMAND_OK, what);
    return rc != PI_DB_OK ? rc : end;
}

static int gather_flush(struct pi_db *db)
{
    int rc = PI_DB_OK;
    if (db->gather_sql && db->gather_len) {
        struct sbuf b = { db->gather_p, db->gather_len, db->gather_cap };
        rc = dbu_copy_start(db, db->gather_sql, "COPY");
        rc = rc != PI_DB_OK ? rc : dbu_copy_finish(db, &b, "COPY");
    }
    free(db->gather_sql);
    db->gather_sql = NULL;
    db->gather_len = 0;
    return rc;
}

int dbu_copy(struct pi_db *db, const char *sql, struct sbuf *b, const char *what)
{
    if (db->gathering) {
        int rc = PI_DB_OK;
        if (db->gather_sql && strcmp(db->gather_sql, sql) != 0)
            rc = gather_flush(db);
        if (!db->gather_sql && !(db->gather_sql = strdup(sql)))
            abort();
        struct sbuf g = { db->gather_p, db->gather_len, db->gather_cap };
        sb_raw(&g, b->p ? b->p : "", b->len);
        db->gather_p = g.p;
        db->gather_len = g.len;
        db->gather_cap = g.cap;
        b->len = 0;
        return rc;
    }
    int rc = dbu_copy_start(db, sql, what);
    return rc != PI_DB_OK ? rc : dbu_copy_finish(db, b, what);
}

int dbu_gather(struct pi_db *db, int on)
{
    int rc = PI_DB_OK;
    if (on == 0 && db->gathering)
        rc = gather_flush(db);
    free(db->gather_sql); /* on < 0: dropped (the transaction failed) */
    db->gather_sql = NULL;
    db->gathering = on > 0;
    db->gather_len = 0;
    return rc;
}

int dbu_job_sent(const struct pi_db *db, const char *cid, long long job, long long written)
{
    long long cl = atoll(cid);
    for (int i = 0; i < db->njobs_sent; i++)
        if (db->jobs_sent[i].job == job && db->jobs_sent[i].cluster == cl && db->jobs_sent[i].written == written)
            return 1;
    return 0;
}

void dbu_job_note(struct pi_db *db, const char *cid, long long job, long long written)
{
    const int cap = (int)(sizeof db->jobs_sent / sizeof db->jobs_sent[0]);
    long long cl = atoll(cid);
    for (int i = 0; i < db->njobs_sent; i++)
        if (db->jobs_sent[i].job == job && db->jobs_sent[i].cluster == cl) {
            db->jobs_sent[i].written = written;
            return;
        }
    int k = db->njobs_sent < cap ? db->njobs_sent++ : db->jobs_sent_next++ % cap; /* the oldest goes */
    db->jobs_sent[k].cluster = cl;
    db->jobs_sent[k].job = job;
    db->jobs_sent[k].written = written;
}

const char *dbu_metric_columns(void)
{
    static char cols[2048];
    if (!cols[0])
        for (int k = 0; k < JS_M_COUNT; k++) {
            strncat(cols, k ? ", " : "", sizeof cols - strlen(cols) - 1);
            strncat(cols, js_profile_metrics[k].name, sizeof cols - strlen(cols) - 1);
        }
    return cols;
}

const char *dbu_kernel_columns(void)
{
    static char cols[512];
    if (!cols[0])
        for (int k = JS_M_COUNT; k < JS_SLICE_COLS; k++) {
            strncat(cols, k > JS_M_COUNT ? ", " : "", sizeof cols - strlen(cols) - 1);
            strncat(cols, js_profile_slice_cols[k].name, sizeof cols - strlen(cols) - 1);
        }
    return cols;
}

/* One encoded series as a COPY text field: \N when it is all zeros, else \\x<hex>. */
void sb_series(struct sbuf *b, const int64_t *v, size_t n, size_t stride, unsigned char *tmp)
{
    static const char hex[] = "0123456789abcdef";
    size_t len = js_series_encode(v, n, stride, tmp);
    if (len == 0) {
        sb_raw(b, "\\N", 2);
        return;
    }
    sb_need(b, 3 + 2 * len);
    memcpy(b->p + b->len, "\\\\x", 3);
    b->len += 3;
    for (size_t i = 0; i < len; i++) {
        b->p[b->len++] = hex[tmp[i] >> 4];
        b->p[b->len++] = hex[tmp[i] & 15];
    }
}

/* ---- the session's cluster ------------------------------------------------------ */

int dbu_cluster_id(struct pi_db *db, const char *cluster, int slice_seconds, char *out, size_t size)
{
    if (db->cluster_id[0] && strcmp(db->cluster_name, cluster) == 0) {
        snprintf(out, size, "%s", db->cluster_id);
        return PI_DB_OK;
    }
    char len[16];
    snprintf(len, sizeof len, "%d", slice_seconds);
    const char *p[2] = { cluster, len };
    PGresult *r = dbu_q(db, "SELECT js_data.cluster_id($1, $2)", 2, p);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        return dbu_check(db, r, PGRES_TUPLES_OK, "cluster id");
    snprintf(out, size, "%s", PQgetvalue(r, 0, 0));
    snprintf(db->cluster_id, sizeof db->cluster_id, "%s", out);
    snprintf(db->cluster_name, sizeof db->cluster_name, "%s", cluster);
    PQclear(r);
    return PI_DB_OK;
}
