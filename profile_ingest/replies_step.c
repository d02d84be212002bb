/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The keeper of the stored step and job replies (docs/web.md, "Stored replies"; migrations 052,
 * 055): after a pass, the jobs whose rows changed (js_data.reply_job_changes, noted by triggers)
 * get the replies of their finished large steps computed in the viewer's forms by the web's own
 * handler (jsw_stored_compute_step), and a large job its job reply as its owner sees it
 * (jsw_stored_compute_job), stored with gzip and ETag, as replies.c keeps the
 * workflow graph: per job the change rows are read first, the replies computed, then in one
 * transaction those rows deleted and the job's step replies replaced; a change committed
 * meanwhile keeps its row, so they are not served until computed again. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dbutil.h"
#include "ingest.h"
#include "jsweb.h"
#include "log.h"
#include "replies.h"

/* The forms stored: the step tab's chart (web/static/step.js) and the GPU tab's (gpu.js) */
static const struct {
    int points;
    bool gpu_series;
} forms[] = { { 1500, true }, { 300, true } };
#define NFORMS (int)(sizeof forms / sizeof forms[0])
#define STEPS_MAX 64 /* a job's steps stored: the largest */

/* whether a step is kept (s: its js_data.steps row): at least $1 slices x step-nodes, none of its
 * nodes running (a running step's figures change with every live snapshot) */
#define KEPT "s.first_slice IS NOT NULL" \
    " AND (s.last_slice - s.first_slice + 1) * greatest(s.num_nodes, 1) >= $1::bigint" \
    " AND NOT EXISTS (SELECT 1 FROM js_data.live_step_nodes l" \
    "     WHERE l.cluster_id = s.cluster_id AND l.job_id = s.job_id AND l.step_id = s.step_id)"
/* whether a job's (c) reply is kept: at least $2 rows of file accesses (per step, node and file)
 * and edges (what the reply's cost grows with; each count stops at $2), no step running */
#define JOB_KEPT "((SELECT count(*) FROM (SELECT 1 FROM js_data.file_accesses a" \
    "     WHERE a.cluster_id = c.cluster_id AND a.job_id = c.job_id LIMIT $2::bigint) a)" \
    " + (SELECT count(*) FROM (SELECT 1 FROM js_data.dependencies d" \
    "     WHERE d.cluster_id = c.cluster_id AND d.from_job = c.job_id LIMIT $2::bigint) d)" \
    " + (SELECT count(*) FROM (SELECT 1 FROM js_data.dependencies d" \
    "     WHERE d.cluster_id = c.cluster_id AND d.to_job = c.job_id LIMIT $2::bigint) d) >= $2::bigint" \
    " AND NOT EXISTS (SELECT 1 FROM js_data.live_step_nodes l WHERE l.cluster_id = c.cluster_id AND l.job_id = c.job_id))"
/* The jobs of the change rows seen (the oldest 20,000), each tested once (materialized: planned
 * inside a join, the tests ran once per job and row of js.jobs, 0.4-0.8 s a round at 160 jobs;
 * issue 37's bench): its change rows, the first, whether a step of it and its job reply are kept */
#define JOBS_SEEN "WITH seen AS MATERIALIZED (SELECT change_id, cluster_id, job_id, noted FROM js_data.reply_job_changes" \
    "     ORDER BY change_id LIMIT 20000)," \
    " k AS MATERIALIZED (SELECT c.cluster_id, c.job_id, c.changes, c.first, c.last," \
    "     EXISTS (SELECT 1 FROM js_data.steps s WHERE s.cluster_id = c.cluster_id AND s.job_id = c.job_id AND " KEPT ")" \
    "     AS steps_kept, " JOB_KEPT " AS job_kept" \
    "   FROM (SELECT cluster_id, job_id, array_agg(change_id)::text AS changes, min(change_id) AS first," \
    "         max(noted) AS last" \
    "         FROM seen GROUP BY cluster_id, job_id) c)"

/* The jobs with nothing kept among the changes seen: their stored step and job replies and those
 * change rows deleted in one statement, in bulk (most jobs are small) */
static const char *const q_drop_due =
    JOBS_SEEN ", n AS MATERIALIZED (SELECT cluster_id, job_id FROM k WHERE NOT (steps_kept OR job_kept)),"
    " gone AS (DELETE FROM js_data.stored_replies s USING n WHERE s.cluster_id = n.cluster_id"
    "     AND s.endpoint IN ('step', 'job') AND s.key = n.job_id)"
    " DELETE FROM js_data.reply_job_changes r USING seen, n WHERE r.change_id = seen.change_id"
    "     AND seen.cluster_id = n.cluster_id AND seen.job_id = n.job_id";

/* the jobs kept among them whose last change is $3 old, oldest change first: the change rows
 * seen, the owner, the cluster, whether the job reply is kept */
static const char *const q_due =
    JOBS_SEEN " SELECT k.cluster_id, k.job_id, k.changes, j.user_name, j.cluster, k.job_kept"
    " FROM k JOIN js.jobs j ON j.cluster_id = k.cluster_id AND j.job_id = k.job_id"
    " WHERE j.user_name IS NOT NULL AND (k.steps_kept OR k.job_kept) AND k.last <= now() - $3::interval"
    " ORDER BY k.first";
/* a due job's steps kept, the largest first */
static const char *const q_steps =
    "SELECT s.step_id FROM js_data.steps s WHERE s.cluster_id = $2::smallint AND s.job_id = $3::bigint AND " KEPT
    " ORDER BY (s.last_slice - s.first_slice + 1) * greatest(s.num_nodes, 1) DESC, s.step_id LIMIT 64"; /* STEPS_MAX */

static const char *const q_take =
    "WITH d AS (DELETE FROM js_data.reply_job_changes WHERE change_id = ANY ($1::bigint[]) RETURNING 1)"
    " SELECT count(*) FROM d";
static const char *const q_drop =
    "DELETE FROM js_data.stored_replies WHERE cluster_id = $1::smallint AND endpoint IN ('step', 'job')"
    " AND key = $2::bigint";
/* The replies of one step in every form, appended to rs (*n of them): 0, or -1 (failed: the
 * job stays due; 404 and the like only leave that reply out) */
static int compute_step(jsw_db *reader, struct jsw_stored_step *k, struct pi_reply *rs, int *n)
{
    for (int f = 0; f <= NFORMS; f++) { /* the forms, then the spread the others read */
        struct pi_reply *r = &rs[*n];
        r->endpoint = "step";
        int status = 200;
        char err[512] = "";
        double t0 = pi_replies_now();
        r->plain = f == NFORMS;
        r->etag[0] = '\0';
        if (f < NFORMS) {
            k->points = forms[f].points;
            k->gpu_series = forms[f].gpu_series;
            r->text = jsw_stored_compute_step(reader, k, r->params, &r->n, r->etag, &status, err, sizeof err);
        } else {
            r->text = jsw_stored_compute_spread(reader, k, r->params, &r->n, &status, err, sizeof err);
        }
        r->ms = (pi_replies_now() - t0) * 1000.0;
        if (r->text) {
            ++*n;
        } else if (status == 500) {
            pi_warn("stored step replies: job %lld step %s: %s", (long long)k->job, k->step, err);
            pi_replies_reader_reset(); /* suspect (the database restarting): connected anew */
            return -1;
        }
    }
    return 0;
}

/* The job reply of k's job as its owner sees it, appended to rs (*n of them): 0, or -1 */
static int compute_job(jsw_db *reader, const struct jsw_stored_step *k, struct pi_reply *rs, int *n)
{
    struct pi_reply *r = &rs[*n];
    r->endpoint = "job";
    r->params[0] = '\0';
    int status = 200;
    char err[512] = "";
    double t0 = pi_replies_now();
    r->text = jsw_stored_compute_job(reader, k->viewer, k->cluster, k->job, &r->n, r->etag, &status, err, sizeof err);
    r->ms = (pi_replies_now() - t0) * 1000.0;
    if (r->text) {
        ++*n;
    } else if (status == 500) {
        pi_warn("stored job replies: job %lld: %s", (long long)k->job, err);
        pi_replies_reader_reset();
        return -1;
    }
    return 0;
}

/* One due job (row i of q_due): its kept steps' replies and its job reply (when kept) computed
 * and stored; *done counts it */
static int keep_one(struct pi_db *db, PGresult *due, int i, const char *const *lim, long *kept, long *done)
{
    const char *ms = lim[0], *cid = PQgetvalue(due, i, 0), *job = PQgetvalue(due, i, 1);
    PGresult *st = dbu_q(db, q_steps, 3, (const char *const[]){ ms, cid, job });
    if (!st || PQresultStatus(st) != PGRES_TUPLES_OK)
        return dbu_check(db, st, PGRES_TUPLES_OK, "stored step replies: the steps");
    static struct pi_reply rs[STEPS_MAX * (NFORMS + 1) + 1];
    int n = 0, failed = 0;
    jsw_db *reader = pi_replies_reader(db);
    struct jsw_stored_step k = { .viewer = PQgetvalue(due, i, 3), .cluster = PQgetvalue(due, i, 4),
                                 .job = strtoll(job, NULL, 10), .max_rows = 0 };
    for (int s = 0; s < PQntuples(st) && !failed; s++) {
        k.step = PQgetvalue(st, s, 0);
        failed = !reader || compute_step(reader, &k, rs, &n) < 0;
    }
    if (!failed && !strcmp(PQgetvalue(due, i, 5), "t"))
        failed = !reader || compute_job(reader, &k, rs, &n) < 0;
    PQclear(st);
    return pi_replies_done(db, q_take, q_drop, "stored step replies", cid, job, PQgetvalue(due, i, 2), rs, n, failed,
                           kept, done);
}

int pi_db_step_replies(struct pi_db *db, long long min_slices, int min_job_rows, int all, int settle, long *kept,
                       long *dropped)
{
    static const struct pi_replies_keeper k = { q_drop_due, q_due, "stored step replies", 2, keep_one };
    char ms[24], mj[16];
    snprintf(ms, sizeof ms, "%lld", min_slices);
    snprintf(mj, sizeof mj, "%d", min_job_rows);
    return pi_replies_rounds(db, &k, (const char *const[]){ ms, mj }, all, settle, kept, dropped);
}
