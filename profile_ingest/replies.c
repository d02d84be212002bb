/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The keeper of the stored replies (docs/web.md, "Stored replies"; migration 051): after a
 * pass, the workflows whose rows changed (js_data.reply_changes, noted by triggers) get their
 * graph computed by the web's own handler (libjsweb: jsw_stored_compute_workflow, on a
 * connection set up as the CGI's, to the primary this daemon writes) and stored with its gzip
 * and ETag. Per workflow: the change rows are read first, the reply computed, then in one
 * transaction those rows deleted and the reply stored; when another keeper took some of the
 * rows meanwhile, nothing is stored. A change committed during the computation keeps its row,
 * so the stored reply is not served until the next pass computes it again. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dbutil.h"
#include "ingest.h"
#include "jsweb.h"
#include "log.h"
#include "replies.h"

#define REPLIES_CHANGES_MAX "20000" /* change rows read at once */

/* whether a workflow's graph is kept (w: its js.workflows row, c: its key): it exists, has an
 * owner's name, at least $1 jobs and no step running (whose figures change with every live
 * snapshot, which no trigger notes) */
#define KEPT "w.user_name IS NOT NULL AND w.jobs >= $1::int AND NOT EXISTS (" \
    " SELECT 1 FROM js_data.jobs j JOIN js_data.live_step_nodes l ON l.cluster_id = j.cluster_id AND l.job_id = j.job_id" \
    " WHERE j.cluster_id = c.cluster_id AND j.workflow_id = c.workflow_id)"
/* the change rows seen */
#define SEEN "SELECT change_id, cluster_id, workflow_id, noted FROM js_data.reply_changes ORDER BY change_id LIMIT 20000"

/* The workflows not kept among the changes seen: their stored replies and those change rows
 * deleted in one statement, in bulk (a database filled by SQL has a change row per workflow) */
static const char *const q_drop_due =
    "WITH seen AS MATERIALIZED (" SEEN "),"
    " c AS MATERIALIZED (SELECT DISTINCT cluster_id, workflow_id FROM seen),"
    " n AS MATERIALIZED (SELECT c.cluster_id, c.workflow_id FROM c"
    "     LEFT JOIN js.workflows w ON w.cluster_id = c.cluster_id AND w.workflow_id = c.workflow_id"
    "     WHERE NOT coalesce(" KEPT ", false)),"
    " gone AS (DELETE FROM js_data.stored_replies s USING n WHERE s.cluster_id = n.cluster_id AND s.endpoint = 'workflow'"
    "     AND s.key = n.workflow_id)"
    " DELETE FROM js_data.reply_changes r USING seen, n WHERE r.change_id = seen.change_id"
    "     AND seen.cluster_id = n.cluster_id AND seen.workflow_id = n.workflow_id";

/* the workflows kept among them whose last change is $2 old, oldest change first: the change
 * rows seen, the owner */
static const char *const q_due =
    "SELECT c.cluster_id, c.workflow_id, array_agg(c.change_id)::text AS changes, w.user_name"
    " FROM (" SEEN ") c"
    " JOIN js.workflows w ON w.cluster_id = c.cluster_id AND w.workflow_id = c.workflow_id"
    " WHERE " KEPT
    " GROUP BY c.cluster_id, c.workflow_id, w.user_name"
    " HAVING max(c.noted) <= now() - $2::interval"
    " ORDER BY min(c.change_id)";

/* the change rows seen, deleted: how many were still there */
static const char *const q_take =
    "WITH d AS (DELETE FROM js_data.reply_changes WHERE change_id = ANY ($1::bigint[]) RETURNING 1)"
    " SELECT count(*) FROM d";
static const char *const q_store =
    "INSERT INTO js_data.stored_replies (cluster_id, endpoint, key, params, etag, body, body_gz, compute_ms)"
    " VALUES ($1::smallint, 'workflow', $2::bigint, '', $3, $4, $5::bytea, $6::real)"
    " ON CONFLICT (cluster_id, endpoint, key, params) DO UPDATE SET etag = excluded.etag, body = excluded.body,"
    "     body_gz = excluded.body_gz, computed = now(), compute_ms = excluded.compute_ms";
static const char *const q_drop =
    "DELETE FROM js_data.stored_replies WHERE cluster_id = $1::smallint AND endpoint = 'workflow' AND key = $2::bigint";

static jsw_db *reader; /* set up as the CGI's connection, to this daemon's database */

double pi_replies_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

jsw_db *pi_replies_reader(struct pi_db *db)
{
    if (reader)
        return reader;
    struct jsw_config cfg;
    jsw_config_defaults(&cfg);
    snprintf(cfg.conninfo, sizeof cfg.conninfo, "%s", db->conninfo ? db->conninfo : "");
    char err[512];
    reader = jsw_db_connect(&cfg, err, sizeof err);
    if (!reader) {
        pi_warn("stored replies: cannot connect as the web does: %s", err);
        return NULL;
    }
    /* named as the daemon's, not the CGI's: the web's sessions are counted by that name */
    PQclear(PQexec(reader, "SET application_name = 'profile_ingest'"));
    return reader;
}

void pi_replies_reader_reset(void)
{
    jsw_db_close(reader);
    reader = NULL;
}

/* The gzip bytes as a bytea literal in hex ('\x...'), malloc'd */
static char *bytea_hex(const unsigned char *b, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    char *s = malloc(2 * n + 3);
    if (!s)
        return NULL;
    s[0] = '\\';
    s[1] = 'x';
    for (size_t i = 0; i < n; i++) {
        s[2 + 2 * i] = hex[b[i] >> 4];
        s[3 + 2 * i] = hex[b[i] & 15];
    }
    s[2 + 2 * n] = '\0';
    return s;
}

char *pi_replies_gzip_hex(const char *body, size_t n)
{
    size_t gzn = 0;
    unsigned char *gz = n >= JSW_GZIP_MIN ? jsw_gzip(body, n, 6, &gzn) : NULL;
    char *hex = bytea_hex(gz, gz ? gzn : 0);
    free(gz);
    return hex;
}

int pi_replies_take(struct pi_db *db, const char *take, const char *changes)
{
    PGresult *r = dbu_q(db, take, 1, (const char *const[]){ changes });
    if (!r || PQresultStatus(r) != PGRES_TUPLES_OK)
        return dbu_check(db, r, PGRES_TUPLES_OK, "stored replies: take the changes");
    long took = atol(PQgetvalue(r, 0, 0));
    PQclear(r);
    /* as many as seen: array_agg's text has one comma less than elements */
    long seen = 1;
    for (const char *p = changes; *p; p++)
        seen += *p == ',';
    return took == seen ? PI_DB_OK : PI_REPLIES_TAKEN;
}

/* One transaction: the change rows seen deleted, and the reply stored (body NULL: dropped).
 * Nothing when another keeper deleted some of them first. */
static int store(struct pi_db *db, const char *cid, const char *wid, const char *changes, const char *etag,
                 const char *body, size_t n, double ms)
{
    int rc = dbu_exec(db, "BEGIN", "stored replies: begin");
    if (rc != PI_DB_OK)
        return rc;
    rc = pi_replies_take(db, q_take, changes);
    if (rc != PI_DB_OK) {
        dbu_rollback(db);
        return rc == PI_DB_RETRY || rc == PI_DB_FAIL ? rc : PI_DB_OK; /* taken by another: nothing */
    }
    PGresult *r;
    if (!body) {
        r = dbu_q(db, q_drop, 2, (const char *const[]){ cid, wid });
        rc = dbu_check(db, r, PGRES_COMMAND_OK, "stored replies: drop");
    } else {
        char *gzhex = pi_replies_gzip_hex(body, n), msbuf[32];
        snprintf(msbuf, sizeof msbuf, "%.3f", ms);
        rc = PI_DB_FAIL;
        if (gzhex) {
            r = dbu_q(db, q_store, 6, (const char *const[]){ cid, wid, etag, body, gzhex, msbuf });
            rc = dbu_check(db, r, PGRES_COMMAND_OK, "stored replies: store");
        }
        free(gzhex);
    }
    if (rc != PI_DB_OK) {
        dbu_rollback(db);
        return rc;
    }
    return dbu_exec(db, "COMMIT", "stored replies: commit");
}

/* One due workflow (row i of q_due): computed and stored (or, when the handler found nothing to
 * show, its stored reply dropped) */
static int keep_one(struct pi_db *db, PGresult *due, int i, long *kept, long *dropped)
{
    const char *cid = PQgetvalue(due, i, 0), *wid = PQgetvalue(due, i, 1), *list = PQgetvalue(due, i, 2);
    char *text = NULL, etag[JSW_ETAG_LEN] = "";
    size_t n = 0;
    double t0 = pi_replies_now();
    if (pi_replies_reader(db)) {
        int status = 200;
        char err[512] = "";
        text = jsw_stored_compute_workflow(reader, PQgetvalue(due, i, 3), strtoll(wid, NULL, 10), &n, etag,
                                           &status, err, sizeof err);
        if (!text && status == 500) {
            /* the reader is suspect (the database restarting): connect anew next time */
            pi_warn("stored replies: workflow %s: %s", wid, err);
            pi_replies_reader_reset();
        }
    }
    int rc = store(db, cid, wid, list, text ? etag : NULL, text, n, (pi_replies_now() - t0) * 1000.0);
    if (rc == PI_DB_OK)
        ++*(text ? kept : dropped);
    free(text);
    return rc;
}

/* One round over the change rows seen: the workflows not kept dropped, the others kept */
static int round_once(struct pi_db *db, const char *mj, const char *settle, int all, double t0, long *kept,
                      long *dropped)
{
    PGresult *r = dbu_q(db, q_drop_due, 1, (const char *const[]){ mj });
    if (!r || PQresultStatus(r) != PGRES_COMMAND_OK)
        return dbu_check(db, r, PGRES_COMMAND_OK, "stored replies: drop those not kept");
    *dropped += atol(PQcmdTuples(r));
    PQclear(r);
    PGresult *due = dbu_q(db, q_due, 2, (const char *const[]){ mj, settle });
    if (!due || PQresultStatus(due) != PGRES_TUPLES_OK)
        return dbu_check(db, due, PGRES_TUPLES_OK, "stored replies: the due workflows");
    int rc = PI_DB_OK;
    for (int i = 0; i < PQntuples(due) && rc != PI_DB_RETRY; i++) {
        rc = keep_one(db, due, i, kept, dropped);
        if (!all && pi_replies_now() - t0 >= REPLIES_PASS_SECONDS)
            break;
    }
    PQclear(due);
    return rc == PI_DB_FAIL ? PI_DB_OK : rc; /* a failed one is logged and stays due */
}

const char *pi_replies_settle(char *buf, int settle)
{
    snprintf(buf, 32, "%d seconds", settle);
    return buf;
}

int pi_db_replies(struct pi_db *db, int min_jobs, int all, int settle, long *kept, long *dropped)
{
    *kept = *dropped = 0;
    char mj[16], st[32];
    snprintf(mj, sizeof mj, "%d", min_jobs);
    pi_replies_settle(st, settle);
    double t0 = pi_replies_now();
    /* --once: rounds until one finds nothing more to do; a daemon: one round */
    for (;;) {
        long k = *kept, d = *dropped;
        int rc = round_once(db, mj, st, all, t0, kept, dropped);
        if (rc != PI_DB_OK || !all || (*kept == k && *dropped == d))
            return rc;
    }
}

/* One round of a keeper (struct pi_replies_keeper); *done: the change rows dropped and the
 * rows of due finished */
static int keeper_round(struct pi_db *db, const struct pi_replies_keeper *k, const char *const *params, int all,
                        const char *settle, double t0, long *kept, long *dropped, long *done)
{
    char what[96];
    const char *due_params[8]; /* the thresholds, then the settle interval */
    if (k->nparams >= 8)
        return PI_DB_FAIL;
    for (int i = 0; i < k->nparams; i++)
        due_params[i] = params[i];
    due_params[k->nparams] = settle;
    PGresult *r = dbu_q(db, k->drop_due, k->nparams, params);
    if (!r || PQresultStatus(r) != PGRES_COMMAND_OK) {
        snprintf(what, sizeof what, "%s: drop those not kept", k->what);
        return dbu_check(db, r, PGRES_COMMAND_OK, what);
    }
    *done = atol(PQcmdTuples(r));
    *dropped += *done;
    PQclear(r);
    PGresult *due = dbu_q(db, k->due, k->nparams + 1, due_params);
    if (!due || PQresultStatus(due) != PGRES_TUPLES_OK) {
        snprintf(what, sizeof what, "%s: the due ones", k->what);
        return dbu_check(db, due, PGRES_TUPLES_OK, what);
    }
    int rc = PI_DB_OK;
    for (int i = 0; i < PQntuples(due) && rc != PI_DB_RETRY; i++) {
        rc = k->keep(db, due, i, params, kept, done);
        if (!all && pi_replies_now() - t0 >= REPLIES_PASS_SECONDS)
            break;
    }
    PQclear(due);
    return rc == PI_DB_FAIL ? PI_DB_OK : rc; /* a failed one is logged and stays due */
}

int pi_replies_rounds(struct pi_db *db, const struct pi_replies_keeper *k, const char *const *params, int all,
                      int settle, long *kept, long *dropped)
{
    *kept = *dropped = 0;
    char st[32];
    pi_replies_settle(st, settle);
    double t0 = pi_replies_now();
    /* every ingest statement on a job's or file's tables notes a row: more than one round may
     * take in a busy pass */
    for (;;) {
        long done = 0;
        int rc = keeper_round(db, k, params, all, st, t0, kept, dropped, &done);
        if (rc != PI_DB_OK || done == 0 || (!all && pi_replies_now() - t0 >= REPLIES_PASS_SECONDS))
            return rc;
    }
}

int pi_replies_store(struct pi_db *db, const char *take, const char *drop, const char *what, const char *cid,
                     const char *key, const char *changes, const struct pi_reply *rs, int n)
{
    static const char *const q_insert =
        "INSERT INTO js_data.stored_replies (cluster_id, endpoint, key, params, etag, body, body_gz, compute_ms)"
        " VALUES ($1::smallint, $8, $2::bigint, $3, $4, $5, $6::bytea, $7::real)";
    char label[96];
    snprintf(label, sizeof label, "%s: store", what);
    int rc = dbu_exec(db, "BEGIN", label);
    if (rc != PI_DB_OK)
        return rc;
    rc = pi_replies_take(db, take, changes);
    if (rc == PI_DB_OK)
        rc = dbu_check(db, dbu_q(db, drop, 2, (const char *const[]){ cid, key }), PGRES_COMMAND_OK, label);
    for (int i = 0; i < n && rc == PI_DB_OK; i++) {
        char *gzhex = rs[i].plain ? strdup("\\x") : pi_replies_gzip_hex(rs[i].text, rs[i].n), ms[32];
        snprintf(ms, sizeof ms, "%.3f", rs[i].ms);
        rc = PI_DB_FAIL;
        if (gzhex) {
            PGresult *r = dbu_q(db, q_insert, 8,
                                (const char *const[]){ cid, key, rs[i].params, rs[i].etag, rs[i].text, gzhex, ms,
                                                       rs[i].endpoint });
            rc = dbu_check(db, r, PGRES_COMMAND_OK, label);
        }
        free(gzhex);
    }
    if (rc != PI_DB_OK) {
        dbu_rollback(db);
        return rc;
    }
    return dbu_exec(db, "COMMIT", label);
}

int pi_replies_done(struct pi_db *db, const char *take, const char *drop, const char *what, const char *cid,
                    const char *key, const char *changes, struct pi_reply *rs, int n, int failed, long *kept,
                    long *done)
{
    int rc = failed ? PI_DB_FAIL : pi_replies_store(db, take, drop, what, cid, key, changes, rs, n);
    if (rc == PI_DB_OK)
        *kept += n;
    if (rc == PI_DB_OK || rc == PI_REPLIES_TAKEN)
        ++*done;
    for (int r = 0; r < n; r++)
        free(rs[r].text);
    return rc == PI_REPLIES_TAKEN ? PI_DB_OK : rc;
}
