/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Replies kept ahead (docs/web.md, "Stored replies"): the workflow graph, which costs tens of
 * milliseconds of CPU for a large workflow, is computed by the ingest when its rows change
 * (profile_ingest/replies.c, with stored_compute.c: the CGI's own handler) and stored; the CGI
 * serves it as stored, gzip and ETag included, when the viewer may see the workflow (the access
 * rule is applied by the lookup's own statement) and nothing changed since (js.stored_replies).
 * Anything else, or any failure, computes the reply as always. A finished step's reply in the
 * viewer's forms is stored and served the same way (stored_step.c), and the job reply of a
 * large job (its files, edges and warnings) as its owner sees it, and the file reply of a file
 * many jobs accessed as each of their owners sees it. */
#include "config.h"

#include <string.h>

#include <libpq-fe.h>

#include "endpoints.h"

/* The request is the workflow graph by id= or job= and nothing else (q and cluster aside):
 * the one form stored. by=, from=/to= or any other parameter: computed. */
static bool workflow_key(const struct jsw_request *req, int64_t *id, int64_t *job)
{
    static const char *const names[] = { "q", "cluster", "id", "job" };
    if (strcmp(req->endpoint, "workflow") != 0 || !jsw_stored_only(req, names, 4))
        return false;
    bool has_id = jsw_param(req, "id") != NULL, has_job = jsw_param(req, "job") != NULL;
    char err[128];
    return has_id != has_job && !jsw_param_int(req, "id", 1, INT64_MAX, id, NULL, err, sizeof err) &&
           !jsw_param_int(req, "job", 1, 4294967295LL, job, NULL, err, sizeof err);
}

/* Send the one row of a stored_* lookup (etag, body_gz, body), if there is one: 1 (sent), 0 */
static int send_row(PGresult *r)
{
    int col = PQntuples(r) == 1 ? (PQgetisnull(r, 0, 1) ? 2 : 1) : -1;
    if (col >= 0 && !PQgetisnull(r, 0, col)) {
        jsw_reply_stored(PQgetvalue(r, 0, 0), PQgetvalue(r, 0, col), (size_t)PQgetlength(r, 0, col), col == 1);
        col = -2;
    }
    PQclear(r);
    return col == -2;
}

/* A finished step's reply in the forms stored (jsw_stored_step_key): looked up by stored_step */
static int serve_step(jsw_db *db, const struct jsw_request *req)
{
    int64_t job;
    const char *step;
    char params[JSW_STORED_PARAMS_MAX];
    if (!jsw_stored_step_key(req, &job, &step, params, sizeof params))
        return 0;
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, job, true);
    jsw_arg_str(&a, step);
    jsw_arg_str(&a, params);
    jsw_arg_str(&a, jsw_reply_gzip() ? "t" : "f");
    char err[256];
    PGresult *r = jsw_db_result_binary(db, "stored_step", a.n, a.v, err, sizeof err);
    return r ? send_row(r) : 0; /* no result: logged by the database layer; computed instead */
}

/* The job or file reply by id= alone (q and cluster aside), to a viewer who is not an admin,
 * looked up by query stored_ENDPOINT, which applies the access rule. The job reply is stored as
 * the owner sees it (an admin's shows the edges and warnings to other users' jobs too), served
 * to the owner only; the file reply per viewer, under the form key user=NAME (it shows the
 * viewer's jobs' accesses only), passed apart from the viewer $1 that only the access rule
 * reads (tests/unit/queries-access.sh). insight= or any other parameter: computed. */
static int serve_by_id(jsw_db *db, const struct jsw_request *req, const char *query, bool per_viewer)
{
    static const char *const names[] = { "q", "cluster", "id" };
    int64_t id;
    int status;
    char err[256];
    if (req->admin || !jsw_stored_only(req, names, 3) || jsw_job_param(req, "id", &id, &status, err, sizeof err))
        return 0;
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, id, true);
    jsw_arg_str(&a, jsw_reply_gzip() ? "t" : "f");
    char form[JSW_NAME_MAX + 8];
    if (per_viewer) {
        snprintf(form, sizeof form, "user=%s", req->user);
        jsw_arg_str(&a, form);
    }
    PGresult *r = jsw_db_result_binary(db, query, a.n, a.v, err, sizeof err);
    return r ? send_row(r) : 0; /* no result: logged by the database layer; computed instead */
}

int jsw_stored_serve(jsw_db *db, const struct jsw_request *req)
{
    int64_t id = 0, job = 0;
    if (db && !strcmp(req->endpoint, "file"))
        return serve_by_id(db, req, "stored_file", true);
    if (db && !strcmp(req->endpoint, "step"))
        return serve_step(db, req);
    if (db && !strcmp(req->endpoint, "job"))
        return serve_by_id(db, req, "stored_job", false);
    if (!db || !workflow_key(req, &id, &job))
        return 0;
    bool gzip = jsw_reply_gzip();
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, id, id > 0);
    jsw_arg_int(&a, job, job > 0);
    jsw_arg_str(&a, gzip ? "t" : "f");
    char err[256];
    /* binary: the gzip bytes as they are stored, no hex to decode */
    PGresult *r = jsw_db_result_binary(db, "stored_workflow", a.n, a.v, err, sizeof err);
    return r ? send_row(r) : 0; /* no result: logged by the database layer; computed instead */
}
