/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The transaction of many step records (issue 37): one round trip claims them all (BEGIN and
 * each record's js_data.ingest_begin, pipelined: its exactly-once key, its job record when this
 * session did not commit that record before), then the rows of the claimed ones go table by
 * table for all of them (dbstep.c), then one COMMIT. A record that fails for a reason of its own
 * is tried alone afterwards, so that it fails alone; a deadlock with another daemon retries the
 * transaction (docs/ingest.md).
 */
#include "config.h"

#include "dbstep.h"
#include "dbutil.h"
#include "log.h"
#include "record_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long long written_ns(const struct pi_step *st)
{
    return json_integer_value(json_object_get(st->job, "written_ns"));
}

/* The parameters of st's claim (job: its job record, or NULL) and the statement's text into sql
 * (the same text for every record): 0, or -1 when a record has too many values. */
static int claim_params(const struct pi_db *db, const struct pi_step *st, const char *cid, const json_t *job, int seq,
                        struct dbu_params *p, struct sbuf *sql)
{
    char nprof[24], nbad[24], nseq[24];
    snprintf(nprof, sizeof nprof, "%zu", st->nprocs);
    snprintf(nbad, sizeof nbad, "%zu", st->nbad);
    snprintf(nseq, sizeof nseq, "%d", seq);
    dbu_params_add(p, cid);
    sb_printf(sql, "SELECT js_data.ingest_begin($1, ");
    int bad = dbu_params_record(p, job, js_job_record_fields, "js_data.job_record_values", sql);
    sb_printf(sql, ", ");
    bad |= dbu_params_record(p, st->rec, js_step_record_fields, "js_data.step_record_values", sql);
    dbu_params_add(p, nprof);
    dbu_params_add(p, nbad);
    dbu_params_add(p, db->who);
    dbu_params_add(p, nseq);
    sb_printf(sql, ", $%d, $%d, $%d, $%d)", p->n - 3, p->n - 2, p->n - 1, p->n);
    return bad;
}

static struct pi_step *const *key_order_sts;

static int cmp_key(const void *a, const void *b)
{
    const struct pi_step *x = key_order_sts[*(const int *)a], *y = key_order_sts[*(const int *)b];
    int c = (x->job_id > y->job_id) - (x->job_id < y->job_id);
    if (!c)
        c = strcmp(x->step, y->step);
    return c ? c : strcmp(x->node, y->node);
}

/* BEGIN and the n claims in one round trip, in the order of their keys (job, step, node), so
 * that two daemons take the rows' locks in one order and never wait for each other in a
 * circle; what[k]: 'o' (claimed), 'b' (busy), 'd' (done); sent[k]: the claim carried its job
 * record. */
static int claim_all(struct pi_db *db, struct pi_step *const *sts, int n, const char *cid, char *what, char *sent)
{
    struct dbu_params *ps = calloc((size_t)n, sizeof *ps);
    struct dbu_batch *b = calloc(1, sizeof *b);
    int *order = calloc((size_t)n, sizeof *order);
    struct sbuf text = { 0 };
    if (!ps || !b || !order)
        abort();
    for (int k = 0; k < n; k++)
        order[k] = k;
    key_order_sts = sts;
    qsort(order, (size_t)n, sizeof *order, cmp_key);
    dbu_batch_add(b, NULL, "BEGIN", 0, NULL, 0, "begin");
    /* the commit need not wait for the log flush: no file leaves the spool before
     * pi_db_durable() made it durable (group commit) */
    dbu_batch_add(b, NULL, "SET LOCAL synchronous_commit = off", 0, NULL, 0, "begin");
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int k = order[i];
        long long w = written_ns(sts[k]);
        /* the job record, unless this session committed it: with each claim of its job, the
         * first one not busy writes it (ingest_begin) */
        sent[k] = !dbu_job_sent(db, cid, sts[k]->job_id, w);
        struct sbuf sql = { 0 };
        bad |= claim_params(db, sts[k], cid, sent[k] ? sts[k]->job : NULL, k, &ps[i], &sql);
        if (!text.p)
            text = sql;
        else
            free(sql.p);
        dbu_batch_add(b, "ingest_begin", text.p, ps[i].n, ps[i].v, 0, "step record");
    }
    int rc = bad ? dbu_check(db, NULL, PGRES_TUPLES_OK, "step record: too many values") : dbu_batch_run(db, b);
    for (int i = 0; rc == PI_DB_OK && i < n; i++)
        what[order[i]] = PQgetvalue(b->r[2 + i], 0, 0)[0];
    if (rc == PI_DB_OK)
        dbu_batch_clear(b);
    for (int k = 0; k < n; k++)
        dbu_params_free(&ps[k]);
    free(ps);
    free(b);
    free(order);
    free(text.p);
    return rc;
}

/* The tables the ingest's functions plan their statements on, analysed after 64, 256, 1024, ...
 * step records of this process: a database that starts empty has statistics of empty tables
 * until autovacuum comes, and plans made on them walk whole tables (a fresh database's first
 * 100-node 2 h cluster at 8 processes per node: 12.4 s instead of 7.1 s). Its cost (a sample of
 * each table) is paid at most a few dozen times over a daemon's life; a failure (no privilege)
 * is logged and the ingest goes on. */
static void analyse_grown(struct pi_db *db, int committed)
{
    if (db->analyse_at == 0)
        db->analyse_at = 64;
    db->committed += committed;
    if (db->committed < db->analyse_at)
        return;
    while (db->analyse_at <= db->committed)
        db->analyse_at *= 4;
    PGresult *r = PQexec(db->conn, "ANALYZE js_data.jobs, js_data.workflows, js_data.dependencies, js_data.dependency_refs, "
                                   "js_data.files, js_data.file_accesses, js_data.steps, js_data.step_nodes, js_data.processes");
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        pi_warn("database: ANALYZE after %lld step records failed (the ingest goes on): %.*s", db->committed,
                (int)strcspn(PQresultErrorMessage(r), "\n"), PQresultErrorMessage(r));
    else
        pi_debug("analysed the tables after %lld step records", db->committed);
    PQclear(r);
}

/* One transaction of n step records of one cluster: PI_DB_OK with rcs[] set, or its failure
 * (rolled back). */
static int batch_once(struct pi_db *db, const struct pi_conf *conf, struct pi_step *const *sts, char *const *const *moved,
                      int n, int *rcs)
{
    char cid[16];
    int rc = dbu_cluster_id(db, sts[0]->cluster, (int)sts[0]->slice_seconds, cid, sizeof cid);
    for (int k = 0; k < n && rc == PI_DB_OK; k++)
        rc = dbs_ensure_partitions(db, sts[k]);
    if (rc == PI_DB_OK && !db->staged) {
        if ((rc = dbu_check(db, PQexec(db->conn, "SELECT js_data.create_staging()"), PGRES_TUPLES_OK, "staging table")) == PI_DB_OK)
            db->staged = 1;
    }
    if (rc != PI_DB_OK)
        return rc;
    char *what = calloc((size_t)n, 2), *sent = what + n;
    struct pi_step **oks = calloc((size_t)n, sizeof *oks);
    char *const **okmoved = calloc((size_t)n, sizeof *okmoved);
    if (!what || !oks || !okmoved)
        abort();
    rc = claim_all(db, sts, n, cid, what, sent);
    size_t nok = 0;
    for (int k = 0; k < n && rc == PI_DB_OK; k++)
        if (what[k] == 'o') {
            oks[nok] = sts[k];
            okmoved[nok++] = moved[k];
        }
    if (rc == PI_DB_OK && nok)
        rc = dbs_write_rows(db, conf, oks, (char *const *const *)okmoved, nok, cid);
    if (rc == PI_DB_OK)
        rc = dbu_exec(db, "COMMIT", "commit");
    if (rc == PI_DB_OK) {
        for (int k = 0; k < n; k++) {
            if (sent[k] && what[k] != 'b')
                dbu_job_note(db, cid, sts[k]->job_id, written_ns(sts[k]));
            rcs[k] = what[k] == 'o' ? PI_DB_OK : what[k] == 'b' ? PI_DB_BUSY : PI_DB_DONE;
        }
        analyse_grown(db, (int)nok);
    } else {
        db->nparts = 0; /* e.g. retention dropped a partition this session thought it had */
        dbu_rollback(db);
    }
    free(what);
    free(oks);
    free(okmoved);
    return rc;
}

/* n step records of one cluster: in one transaction, retried at once after a deadlock; when it
 * fails and the database is still there, each record alone. */
static int run_batch(struct pi_db *db, const struct pi_conf *conf, struct pi_step *const *sts, char *const *const *moved,
                     int n, int *rcs)
{
    int rc = PI_DB_RETRY;
    for (int attempt = 0; attempt < 3; attempt++) {
        if ((rc = pi_db_ensure(db, conf->migrate)) != PI_DB_OK)
            break;
        if ((rc = batch_once(db, conf, sts, moved, n, rcs)) == PI_DB_OK)
            return PI_DB_OK;
        /* a deadlock or serialisation failure with another daemon: try again at once */
        if (rc != PI_DB_RETRY || !db->conn)
            break;
    }
    if (n > 1 && db->conn && (rc == PI_DB_FAIL || rc == PI_DB_RETRY)) {
        pi_info("database: a transaction of %d step records failed; each is tried alone", n);
        for (int k = 0; k < n; k++)
            if (run_batch(db, conf, sts + k, moved + k, 1, rcs + k) == PI_DB_RETRY && !db->conn) {
                for (int j = k; j < n; j++)
                    rcs[j] = PI_DB_RETRY;
                return PI_DB_RETRY;
            }
        return PI_DB_OK;
    }
    for (int k = 0; k < n; k++)
        rcs[k] = rc;
    return rc;
}

int pi_db_ingest_batch(struct pi_db *db, const struct pi_conf *conf, struct pi_step *const *sts, char *const *const *moved_to,
                       int n, int *rcs)
{
    /* a transaction's records are of one cluster: a run of them at a time */
    for (int start = 0, end; start < n; start = end) {
        for (end = start + 1; end < n && !strcmp(sts[end]->cluster, sts[start]->cluster) &&
                              sts[end]->slice_seconds == sts[start]->slice_seconds;)
            end++;
        if (run_batch(db, conf, sts + start, moved_to + start, end - start, rcs + start) == PI_DB_RETRY && !db->conn) {
            for (int j = end; j < n; j++)
                rcs[j] = PI_DB_RETRY;
            return PI_DB_RETRY;
        }
    }
    return PI_DB_OK;
}
