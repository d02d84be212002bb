/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The step endpoint (docs/api.md, step): a step with its slices, spread, digest, files,
 * processes, GPUs, insight and, with node=NAME, one node's slices. */
#include "config.h"

#include <string.h>

#include <libpq-fe.h>

#include "endpoints.h"
#include "profile_format.h"

/* node=NAME: a Slurm node name */
static bool node_name_valid(const char *n)
{
    size_t len = strlen(n);
    if (len == 0 || len > 64 || n[0] == '-' || n[0] == '.')
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = n[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.'))
            return false;
    }
    return true;
}

/* The slices of a chart: at most `points` groups of `width` consecutive slices (1 when the
 * step has no more slices than points, or points is 0). */
size_t jsw_group_width(size_t n, int64_t points)
{
    return points > 0 && n > (size_t)points ? (n + (size_t)points - 1) / (size_t)points : 1;
}

/* Decode a step's own slices (its folded series and its step-nodes queued for the fold; with
 * live, its running step-nodes' provisional vectors too; with kernel, the kernel's counts per
 * slice besides the metrics): 0, or -1 with err set. */
int jsw_own_slices(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step,
                   const char *metric, bool live, bool kernel, json_t *s, struct jsw_slices *own, char *err,
                   size_t errlen)
{
    json_t *lo = json_object_get(s, "first_slice"), *hi = json_object_get(s, "last_slice");
    if (!json_is_integer(lo) || !json_is_integer(hi)) {
        memset(own, 0, sizeof *own); /* no slice was recorded */
        return 0;
    }
    if (jsw_slices_init(own, json_integer_value(lo), json_integer_value(hi)) < 0) {
        snprintf(err, errlen, "the step's slices %lld .. %lld are too many to chart",
                 (long long)json_integer_value(lo), (long long)json_integer_value(hi));
        return -1;
    }
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, job, true);
    jsw_arg_str(&a, step);
    jsw_arg_str(&a, metric);
    if (jsw_slices_add(own, db, "series_own", a.n, a.v, err, errlen) < 0 ||
        (kernel && jsw_slices_add_kernel(own, db, a.n - 1, a.v, err, errlen) < 0) ||
        (live && jsw_slices_add_live(own, db, a.n - 1, a.v, err, errlen) < 0)) {
        jsw_slices_free(own);
        return -1;
    }
    return 0;
}

/* The row of query "step" for job and step, with a holding its parameters ($4 job, $5 step), or
 * NULL with *status 500 (err: the database's message) or 404 (not a step of the viewer's). */
json_t *jsw_step_row(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, struct jsw_args *a,
                     int *status, char *err, size_t errlen)
{
    jsw_args_init(a, req);
    jsw_arg_int(a, job, true);
    jsw_arg_str(a, step);
    json_t *s = jsw_db_row(db, "step", a->n, a->v, err, errlen);
    if (!s)
        DBFAIL();
    if (json_is_null(s))
        FAIL(404, "no step %s of a job %lld of yours", step, (long long)job);
    return s;
}

#define STEP_PROCESSES_MAX 1000 /* processes listed by the step endpoint */

int64_t jsw_step_process_limit(const struct jsw_request *req)
{
    return req->max_rows > 0 && req->max_rows < STEP_PROCESSES_MAX ? req->max_rows : STEP_PROCESSES_MAX;
}

/* The step's parts besides its series, added to s: digest, files, its processes, GPUs,
 * insight and, with node, that node's slices; a: the step query's parameters. 0, or -1 with
 * *status and err set. */
static int step_parts(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, const char *node,
                      json_t *s, const struct jsw_args *a, int *status, char *err, size_t errlen)
{
    *status = 500; /* the database layer has put its message into err */
    static const char *const parts[][2] = { { "digest", "step_digest" }, { "files", "step_files" } };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        json_t *rows = jsw_db_rows(db, parts[i][1], a->n, a->v, err, errlen);
        if (!rows)
            return -1;
        json_object_set_new(s, parts[i][0], rows);
    }
    /* its processes, how each ended: those that did not end well first, at most
     * STEP_PROCESSES_MAX (and max_rows) of them */
    int64_t limit = jsw_step_process_limit(req);
    struct jsw_args pa = *a;
    jsw_arg_int(&pa, limit + 1, true);
    json_t *procs = jsw_db_rows(db, "step_processes", pa.n, pa.v, err, errlen);
    if (!procs)
        return -1;
    bool truncated = json_array_size(procs) > (size_t)limit;
    if (truncated)
        json_array_remove(procs, json_array_size(procs) - 1);
    json_object_set_new(s, "process_list", procs);
    json_object_set_new(s, "process_list_truncated", json_boolean(truncated));
    int grc = jsw_step_gpus(db, req, s, a->n, a->v, err, errlen);
    if (grc < 0) {
        *status = grc == -2 ? 400 : 500; /* err says why */
        return -1;
    }
    /* its insight (null until the ingest computed it) and advice */
    json_t *one = json_pack("[O]", s);
    int rc = jsw_add_insights(db, req, job, step, one, err, errlen);
    json_decref(one);
    if (rc < 0)
        return -1;
    if (node) {
        struct jsw_args na = *a;
        jsw_arg_str(&na, node);
        json_t *rows = jsw_db_rows(db, "step_node_slices", na.n, na.v, err, errlen);
        if (!rows)
            return -1;
        json_object_set_new(s, "node", json_string(node));
        json_object_set_new(s, "node_slices", rows);
    }
    return 0;
}

/* The spread at width w: as the keeper stored it beside a finished step's replies (read in one
 * row, where computing it reads every step-node's series: most of a day-long step's reply), else
 * computed. A lookup that fails is computed too, as stored.c does. */
static int spread_part(struct jsw_text *t, jsw_db *db, const struct jsw_args *a, const char *step,
                       const struct jsw_slices *own, size_t w, char *err, size_t errlen)
{
    char key[JSW_STORED_PARAMS_MAX];
    if (own->n > 0 && step && jsw_spread_key(key, sizeof key, step, own->first, own->n)) {
        struct jsw_args ka = *a;
        jsw_arg_str(&ka, key);
        PGresult *r = jsw_db_result(db, "stored_spread", ka.n, ka.v, err, errlen);
        int rc = r && PQntuples(r) == 1 ? jsw_spread_stored_text(t, PQgetvalue(r, 0, 0), own->first, own->n, w) : -1;
        PQclear(r);
        if (rc == 0)
            return 0;
    }
    return jsw_spread_text(t, db, a->n, a->v, own->first, own->n, w, err, errlen);
}

/* The reply as text: {"step": {..., "series": {... "spread": {...}}}} (docs/api.md, "Series"). */
static char *step_text(jsw_db *db, json_t *s, const struct jsw_slices *own, size_t w, const struct jsw_args *a,
                       size_t *n, int *status, char *err, size_t errlen)
{
    struct jsw_text t = { 0 };
    jsw_text_lit(&t, "{\"step\":");
    if (jsw_text_open_object(&t, s))
        jsw_text_raw(&t, ",", 1);
    jsw_text_lit(&t, "\"series\":");
    int rc = jsw_step_series_text(&t, own, jsw_int_or(json_object_get(s, "slice_seconds"), 4), w);
    jsw_text_lit(&t, ",\"spread\":");
    /* the spread of its processes, in the same points */
    if (rc == 0 && spread_part(&t, db, a, json_string_value(json_object_get(s, "step")), own, w, err, errlen) < 0) {
        jsw_text_free(&t);
        *status = 500;
        return NULL;
    }
    jsw_text_lit(&t, "}}}");
    char *text = rc == 0 ? jsw_text_take(&t, n) : NULL;
    jsw_text_free(&t);
    if (!text) {
        *status = 500;
        snprintf(err, errlen, "out of memory");
    }
    return text;
}

char *jsw_t_step(jsw_db *db, const struct jsw_request *req, size_t *n, int *status, char *err, size_t errlen)
{
    int64_t job, points = 0;
    const char *step, *node = jsw_param(req, "node");
    if (jsw_job_param(req, "job", &job, status, err, errlen) || jsw_step_param(req, &step, status, err, errlen))
        return NULL;
    if (node && !node_name_valid(node))
        FAIL(400, "parameter 'node': not a valid node name");
    if (jsw_param_int(req, "points", 10, 100000, &points, NULL, err, errlen)) {
        *status = 400;
        return NULL;
    }
    struct jsw_args a;
    json_t *s = jsw_step_row(db, req, job, step, &a, status, err, errlen);
    if (!s)
        return NULL;
    struct jsw_slices own;
    if (jsw_own_slices(db, req, job, step, NULL, json_is_true(json_object_get(s, "live")), true, s, &own, err, errlen) < 0) {
        json_decref(s);
        DBFAIL();
    }
    char *text = NULL;
    if (step_parts(db, req, job, step, node, s, &a, status, err, errlen) == 0)
        text = step_text(db, s, &own, jsw_group_width(own.n, points), &a, n, status, err, errlen);
    jsw_slices_free(&own);
    json_decref(s);
    return text;
}
