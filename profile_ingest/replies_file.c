/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The keeper of the stored file replies (docs/web.md, "Stored replies"; migration 061): after a
 * pass, the files whose rows changed (js_data.reply_file_changes, noted by triggers) that are
 * kept (at least replies_min_file_rows accesses, none by a running step) get the file reply
 * computed by the web's own handler for each user whose jobs accessed them, as that user sees
 * it (params user=NAME), stored with gzip and ETag as replies_step.c keeps the job reply: the
 * change rows read first, the replies computed, then in one transaction those rows deleted and
 * the file's replies replaced; a change committed meanwhile keeps its row, so they are not
 * served until computed again. The others' change rows are dropped in bulk (most files are
 * accessed by a few jobs). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbutil.h"
#include "ingest.h"
#include "jsweb.h"
#include "log.h"
#include "replies.h"

#define VIEWERS_MAX 64 /* a file's users stored (the others are computed) */

/* every access of file c by index (file_accesses_readers OR _writers, migration 057) */
#define BY_FILE "a.cluster_id = c.cluster_id AND a.file_id = c.file_id" \
    " AND (a.last_write IS NOT NULL OR a.last_write IS NULL)"
/* whether a file (c) is kept: at least $1 accesses (the count stops at $1), none by a step running */
#define KEPT "((SELECT count(*) FROM (SELECT 1 FROM js_data.file_accesses a WHERE " BY_FILE " LIMIT $1::bigint) a)" \
    " >= $1::bigint AND NOT EXISTS (SELECT 1 FROM js_data.file_accesses a JOIN js_data.live_step_nodes l" \
    "     ON l.cluster_id = a.cluster_id AND l.job_id = a.job_id AND l.step_id = a.step_id WHERE " BY_FILE "))"
#define SEEN "SELECT change_id, cluster_id, file_id, noted FROM js_data.reply_file_changes ORDER BY change_id LIMIT 20000"

/* the files not kept among the changes seen: their stored replies and those change rows deleted */
static const char *const q_drop_due =
    "WITH seen AS MATERIALIZED (" SEEN "),"
    " c AS MATERIALIZED (SELECT DISTINCT cluster_id, file_id FROM seen),"
    " n AS MATERIALIZED (SELECT c.cluster_id, c.file_id FROM c WHERE NOT " KEPT "),"
    " gone AS (DELETE FROM js_data.stored_replies s USING n WHERE s.cluster_id = n.cluster_id"
    "     AND s.endpoint = 'file' AND s.key = n.file_id)"
    " DELETE FROM js_data.reply_file_changes r USING seen, n WHERE r.change_id = seen.change_id"
    "     AND seen.cluster_id = n.cluster_id AND seen.file_id = n.file_id";
/* the files kept among them whose last change is $2 old, oldest change first: the change rows
 * seen, the cluster's name */
static const char *const q_due =
    "SELECT c.cluster_id, c.file_id, c.changes, k.name"
    " FROM (SELECT cluster_id, file_id, array_agg(change_id)::text AS changes, min(change_id) AS first"
    "       FROM (" SEEN ") s GROUP BY cluster_id, file_id HAVING max(noted) <= now() - $2::interval) c"
    " JOIN js_data.clusters k ON k.cluster_id = c.cluster_id"
    " WHERE " KEPT " ORDER BY c.first";
/* a due file's viewers: the owners of the jobs that accessed it */
static const char *const q_viewers =
    "SELECT DISTINCT a.user_name FROM (SELECT $1::smallint AS cluster_id, $2::bigint AS file_id) c"
    " JOIN js.file_accesses a ON " BY_FILE " WHERE a.user_name IS NOT NULL ORDER BY 1 LIMIT 64"; /* VIEWERS_MAX */
static const char *const q_take =
    "WITH d AS (DELETE FROM js_data.reply_file_changes WHERE change_id = ANY ($1::bigint[]) RETURNING 1)"
    " SELECT count(*) FROM d";
static const char *const q_drop =
    "DELETE FROM js_data.stored_replies WHERE cluster_id = $1::smallint AND endpoint = 'file' AND key = $2::bigint";
/* One due file (row i of q_due): its reply computed for each viewer and stored; *done counts it */
static int keep_one(struct pi_db *db, PGresult *due, int i, const char *const *min, long *kept, long *done)
{
    (void)min; /* the threshold: q_due's */
    const char *cid = PQgetvalue(due, i, 0), *file = PQgetvalue(due, i, 1);
    PGresult *vs = dbu_q(db, q_viewers, 2, (const char *const[]){ cid, file });
    if (!vs || PQresultStatus(vs) != PGRES_TUPLES_OK)
        return dbu_check(db, vs, PGRES_TUPLES_OK, "stored file replies: the viewers");
    static struct pi_reply rs[VIEWERS_MAX];
    int n = 0, failed = 0;
    jsw_db *reader = pi_replies_reader(db);
    for (int v = 0; v < PQntuples(vs) && v < VIEWERS_MAX && !failed; v++) {
        struct pi_reply *r = &rs[n];
        r->endpoint = "file";
        r->plain = false;
        int status = 200;
        char err[512] = "";
        double t0 = pi_replies_now();
        r->text = reader ? jsw_stored_compute_file(reader, PQgetvalue(vs, v, 0), PQgetvalue(due, i, 3),
                                                   strtoll(file, NULL, 10), r->params, &r->n, r->etag, &status, err,
                                                   sizeof err)
                         : NULL;
        r->ms = (pi_replies_now() - t0) * 1000.0;
        if (r->text) {
            n++;
        } else if (!reader || status == 500) {
            pi_warn("stored file replies: file %s: %s", file, reader ? err : "no connection");
            pi_replies_reader_reset(); /* suspect (the database restarting): connected anew */
            failed = 1;
        }
    }
    PQclear(vs);
    return pi_replies_done(db, q_take, q_drop, "stored file replies", cid, file, PQgetvalue(due, i, 2), rs, n, failed,
                           kept, done);
}

int pi_db_file_replies(struct pi_db *db, int min_rows, int all, int settle, long *kept, long *dropped)
{
    static const struct pi_replies_keeper k = { q_drop_due, q_due, "stored file replies", 1, keep_one };
    char min[16];
    snprintf(min, sizeof min, "%d", min_rows);
    return pi_replies_rounds(db, &k, (const char *const[]){ min }, all, settle, kept, dropped);
}
