/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the ingest's database code (ingest_db.c: the session; dbstep.c: one step
 * record; dbrecord.c: a record's values as parameters; fold.c: the totals): a growing buffer for
 * COPY text data, result checks that tell a transient error (retry) from a lasting one, and a
 * few query shorthands. All take the session of struct pi_db.
 */
#ifndef PI_DBUTIL_H
#define PI_DBUTIL_H

#include "ingest_db.h"

#include <stddef.h>
#include <stdint.h>

struct sbuf {
    char *p;
    size_t len, cap;
};

void sb_need(struct sbuf *b, size_t more);
void sb_raw(struct sbuf *b, const char *s, size_t n);
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* a decimal integer (the hot path of COPY: a vsnprintf per value costs more than the COPY) */
void sb_int(struct sbuf *b, int64_t v);
/* a text field in COPY text format: NULL as \N, backslash, tab, newline, CR escaped */
void sb_text(struct sbuf *b, const char *s);
/* a timestamptz field from epoch nanoseconds, \N when negative */
void sb_ts(struct sbuf *b, int64_t ns);
/* one encoded series (common/series.h) as a bytea field of COPY text format: \N when all the
 * values are zero; tmp holds JS_SERIES_MAX_BYTES(n) */
void sb_series(struct sbuf *b, const int64_t *v, size_t n, size_t stride, unsigned char *tmp);

/* one element of an array literal ('{...}'), double-quoted with \\ and " escaped; NULL as NULL */
void sb_array_elem(struct sbuf *b, const char *text);
/* an open COPY ... FROM STDIN: start it, hand it b's rows whenever b has grown (b is emptied),
 * and finish it with what is left in b */
int dbu_copy_start(struct pi_db *db, const char *sql, const char *what);
int dbu_copy_put(struct pi_db *db, struct sbuf *b, const char *what);
int dbu_copy_finish(struct pi_db *db, struct sbuf *b, const char *what);

/* 1 when the error of r (or of the connection) may pass: the database is down or restarting,
 * a deadlock, a serialization failure, a prepared statement the server session lost */
int dbu_transient(PGconn *c, const PGresult *r);
/* Check a result: PI_DB_OK, or RETRY/FAIL after logging (and clearing) it. */
int dbu_check(struct pi_db *db, PGresult *r, ExecStatusType want, const char *what);
int dbu_exec(struct pi_db *db, const char *sql, const char *what);
void dbu_rollback(struct pi_db *db);
PGresult *dbu_q(struct pi_db *db, const char *sql, int n, const char *const *params);
/* Statements sent in one round trip: in libpq's pipeline mode (libpq 14 and later; one by one
 * with an older libpq), their results read in order. A named one is prepared on its first use
 * in the session, so that the server plans it once; one without a name runs as it is (BEGIN,
 * COMMIT). The params arrays must live until dbu_batch_run returns; what names the statement in
 * a message. */
#define DBU_BATCH_MAX (PI_DB_BATCH_MAX + 8)
struct dbu_batch {
    int n;
    struct {
        const char *name, *sql, *what;
        int nparams, binary;
        const char *const *params;
    } q[DBU_BATCH_MAX];
    PGresult *r[DBU_BATCH_MAX];
};
void dbu_batch_add(struct dbu_batch *b, const char *name, const char *sql, int nparams, const char *const *params,
                   int binary, const char *what);
/* Send them and read the results into b->r: PI_DB_OK when every statement succeeded (its rows in
 * b->r, for dbu_batch_clear), or the first failure's error (as dbu_check: logged, RETRY or FAIL;
 * the results cleared). */
int dbu_batch_run(struct pi_db *db, struct dbu_batch *b);
/* Clear the results. */
void dbu_batch_clear(struct dbu_batch *b);

/* COPY ... FROM STDIN with the rows in b; while gathering, b's rows are kept for one COPY of
 * the same statement (b emptied) */
int dbu_copy(struct pi_db *db, const char *sql, struct sbuf *b, const char *what);
/* Gather the rows of the dbu_copy calls that follow (on 1), or send what was gathered as one COPY
 * per statement and stop (0), or drop it (-1): a transaction of many step records writes each
 * table once. */
int dbu_gather(struct pi_db *db, int on);
/* 1 when this session committed the job record of job (of cluster cid) written at written_ns;
 * note one committed. */
int dbu_job_sent(const struct pi_db *db, const char *cid, long long job, long long written);
void dbu_job_note(struct pi_db *db, const char *cid, long long job, long long written);
/* the metric columns of JS_PROFILE_METRICS, comma-separated */
const char *dbu_metric_columns(void);
/* "kernel_rchar, kernel_wchar, ...": the kernel's counts of a slice row after the metrics */
const char *dbu_kernel_columns(void);
/* The parameters of one statement: strings owned (freed by dbu_params_free), NULL for SQL NULL. */
#define DBU_MAX_PARAMS 128
struct dbu_params {
    const char *v[DBU_MAX_PARAMS];
    char *owned[DBU_MAX_PARAMS];
    int n;
};
struct js_record_field;
void dbu_params_add(struct dbu_params *p, const char *v);
/* The values of a validated record (rec; NULL: all NULL) as parameters, one per scalar field of
 * table (dbrecord.c), and "ROW($i, ...)::type" for them appended to sql: 0, or -1 when too many. */
int dbu_params_record(struct dbu_params *p, const json_t *rec, const struct js_record_field *table,
                      const char *type, struct sbuf *sql);
void dbu_params_free(struct dbu_params *p);

/* The id of cluster (made with slice_seconds when new) into out; cached for the session. */
int dbu_cluster_id(struct pi_db *db, const char *cluster, int slice_seconds, char *out, size_t size);

#endif
