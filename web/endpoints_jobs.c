/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The lists and objects of docs/api.md: me, workflows, jobs, job (with its insights), file. */
#include "config.h"

#include <string.h>

#include "endpoints.h"

/* A job's files listed (files=N): a job of one file per process has tens of thousands (a
 * 100-node job of 128 ranks: 25,606, a 6 MB reply, a table the browser draws slowly); beyond,
 * those that moved the most bytes, and files_total says how many there are */
#define JOB_FILES_DEFAULT 1000
#define JOB_FILES_MAX 100000

/* user=NAME: whose jobs to list. A user may name only themself; an admin anyone (or nobody:
 * all users). NULL on success with *owner set (NULL = all), else the 403/400 message. */
static int owner_param(const struct jsw_request *req, const char **owner, int *status, char *err,
                       size_t errlen)
{
    const char *u = jsw_param(req, "user");
    if (!u) {
        *owner = req->admin ? NULL : req->user;
        return 0;
    }
    if (!jsw_user_name_valid(u)) {
        *status = 400;
        snprintf(err, errlen, "parameter 'user': not a valid user name");
        return -1;
    }
    if (!req->admin && strcmp(u, req->user) != 0) {
        *status = 403;
        snprintf(err, errlen, "parameter 'user': only admins may look at other users' jobs");
        return -1;
    }
    *owner = u;
    return 0;
}

json_t *jsw_h_me(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                 size_t errlen)
{
    (void)db, (void)status, (void)err, (void)errlen;
    json_t *me = json_pack("{s:s,s:b,s:i}", "user", req->user, "admin", req->admin, "api_version", JSW_API_VERSION);
    /* the site's CO2 per kWh, for the viewer's energy figures: only where the site set it */
    if (me && req->co2_g_per_kwh >= 0)
        json_object_set_new(me, "co2_g_per_kwh", json_integer(req->co2_g_per_kwh));
    return me;
}

static const char *const states[] = { "PENDING", "RUNNING", "COMPLETED", "FAILED", "CANCELLED",
                                      "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED",
                                      "BOOT_FAIL", "DEADLINE", NULL };

/* Shared by /workflows and /jobs: the filters of the list, as the query's parameters, and its
 * limit. 0, or -1 with *status and err set. */
static int list_args(const struct jsw_request *req, struct jsw_args *a, int64_t *limit, int *status,
                     char *err, size_t errlen)
{
    const char *owner = NULL, *state = NULL, *name = NULL, *workflow = NULL;
    int64_t from = 0, to = 0;
    bool has_from, has_to;
    *limit = 500;
    if (owner_param(req, &owner, status, err, errlen))
        return -1;
    if (jsw_param_time(req, "from", &from, &has_from, err, errlen) ||
        jsw_param_time(req, "to", &to, &has_to, err, errlen) ||
        jsw_param_enum(req, "state", states, &state, err, errlen) ||
        jsw_param_text(req, "name", &name, err, errlen) ||
        jsw_param_text(req, "workflow", &workflow, err, errlen) ||
        jsw_param_int(req, "limit", 1, 100000, limit, NULL, err, errlen)) {
        *status = 400;
        return -1;
    }
    if (req->max_rows > 0 && *limit > req->max_rows)
        *limit = req->max_rows;
    jsw_args_init(a, req);
    jsw_arg_str(a, owner);
    jsw_arg_int(a, from, has_from);
    jsw_arg_int(a, to, has_to);
    jsw_arg_str(a, state);
    jsw_arg_str(a, name);
    jsw_arg_str(a, workflow);
    jsw_arg_int(a, *limit + 1, true);
    return 0;
}

/* The text of t as the reply, or NULL with a 500 when an allocation failed. */
static char *take(struct jsw_text *t, size_t *n, int *status, char *err, size_t errlen)
{
    char *text = jsw_text_take(t, n);
    if (!text)
        FAIL(500, "out of memory");
    return text;
}

/* {"jobs": [...], "truncated": bool}, the rows written as text straight from the result (a
 * list of 500 jobs is 15,000 values: as Jansson objects, a third of the CGI process's time). */
static char *list(jsw_db *db, const struct jsw_request *req, const char *query, size_t *n, int *status,
                  char *err, size_t errlen)
{
    struct jsw_args a;
    int64_t limit;
    if (list_args(req, &a, &limit, status, err, errlen))
        return NULL;
    /* the list as the viewer opens it, no filter: the statement's generic plan (planning it
     * anew was a fifth of the job list's database time; with a filter the plan follows it) */
    static const char *const filters[] = { "from", "to", "state", "name", "workflow", NULL };
    bool filtered = false;
    for (size_t i = 0; filters[i]; i++)
        filtered = filtered || jsw_param(req, filters[i]);
    if (!filtered && !strcmp(query, "jobs"))
        jsw_db_generic_next();
    struct jsw_text t = { 0 };
    jsw_text_lit(&t, strcmp(query, "jobs") ? "{\"workflows\":" : "{\"jobs\":");
    int rows = jsw_db_rows_text(db, query, a.n, a.v, &t, (int)limit, err, errlen);
    if (rows < 0) {
        jsw_text_free(&t);
        DBFAIL();
    }
    jsw_text_lit(&t, rows > limit ? ",\"truncated\":true}" : ",\"truncated\":false}");
    return take(&t, n, status, err, errlen);
}

char *jsw_t_workflows(jsw_db *db, const struct jsw_request *req, size_t *n, int *status, char *err,
                      size_t errlen)
{
    return list(db, req, "workflows", n, status, err, errlen);
}

char *jsw_t_jobs(jsw_db *db, const struct jsw_request *req, size_t *n, int *status, char *err,
                 size_t errlen)
{
    return list(db, req, "jobs", n, status, err, errlen);
}

/* files=N: at most this many of a job's files listed (job_files); 0, or -1 with *status 400 */
static int job_files_max(const struct jsw_request *req, int64_t *max, int *status, char *err, size_t errlen)
{
    *max = JOB_FILES_DEFAULT;
    if (jsw_param_int(req, "files", 1, JOB_FILES_MAX, max, NULL, err, errlen)) {
        *status = 400;
        return -1;
    }
    return 0;
}

/* b: the args of the list query: the viewer's, the id, and list_max when it is one (>= 0) */
static void list_query_args(struct jsw_args *b, const struct jsw_request *req, int64_t id, int64_t list_max)
{
    jsw_args_init(b, req);
    jsw_arg_int(b, id, true);
    if (list_max >= 0)
        jsw_arg_int(b, list_max, true);
}

/* How many files the job's steps accessed (a: the job query's args), when job_files listed as
 * many as it may (rows == max), else rows: >= 0, or -1 with err set */
static int64_t job_files_total(jsw_db *db, const struct jsw_args *a, int64_t rows, int64_t max, char *err,
                               size_t errlen)
{
    if (rows < max)
        return rows;
    json_t *r = jsw_db_row(db, "job_files_count", a->n, a->v, err, errlen);
    int64_t total = r ? jsw_int_or(json_object_get(r, "files"), rows) : -1;
    json_decref(r);
    return total;
}

/* One object by its id (param "id"), written as text, left open for its lists: the job with
 * its files, the file with its accesses; {"job":{...,"files":[...] so far; list_max >= 0: the
 * list query's last parameter (how many rows it may return), and *listed how many it did. The
 * 404 message reads "no <row_query> <id><whose>". 0, or -1 with *status and err set (t freed). */
static int object_with_list_text(jsw_db *db, const struct jsw_request *req, const char *row_query,
                                 const char *list_query, const char *list_key, const char *whose,
                                 int64_t list_max, int64_t *listed, struct jsw_args *a, struct jsw_text *t,
                                 int *status, char *err, size_t errlen)
{
    int64_t id;
    if (jsw_job_param(req, "id", &id, status, err, errlen))
        return -1;
    jsw_args_init(a, req);
    jsw_arg_int(a, id, true);
    jsw_text_lit(t, "{");
    jsw_text_str(t, row_query);
    jsw_text_lit(t, ":");
    int got = jsw_db_row_open_text(db, row_query, a->n, a->v, t, err, errlen);
    if (got == 0) {
        *status = 404;
        snprintf(err, errlen, "no %s %lld%s", row_query, (long long)id, whose);
    }
    if (got > 0) {
        jsw_text_lit(t, ",");
        jsw_text_str(t, list_key);
        jsw_text_lit(t, ":");
        struct jsw_args b;
        list_query_args(&b, req, id, list_max);
        int rows = jsw_db_rows_text(db, list_query, b.n, b.v, t, -1, err, errlen);
        if (listed)
            *listed = rows;
        if (rows >= 0)
            return 0;
    }
    if (got != 0)
        *status = 500;
    jsw_text_free(t);
    return -1;
}

/* One object by its id (param "id") with a list of its children: the job with its files (at
 * most list_max, the list query's last parameter; list_max < 0: no such parameter). The 404
 * message reads "no <row_query> <id><whose>". */
static json_t *object_with_list(jsw_db *db, const struct jsw_request *req, const char *row_query,
                                const char *list_query, const char *list_key, const char *whose,
                                int64_t list_max, int *status, char *err, size_t errlen)
{
    int64_t id;
    if (jsw_job_param(req, "id", &id, status, err, errlen))
        return NULL;
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, id, true);
    json_t *obj = jsw_db_row(db, row_query, a.n, a.v, err, errlen);
    if (!obj)
        DBFAIL();
    if (json_is_null(obj))
        FAIL(404, "no %s %lld%s", row_query, (long long)id, whose);
    struct jsw_args b;
    list_query_args(&b, req, id, list_max);
    json_t *list = jsw_db_rows(db, list_query, b.n, b.v, err, errlen);
    if (!list) {
        json_decref(obj);
        DBFAIL();
    }
    json_object_set_new(obj, list_key, list);
    return json_pack("{s:o}", row_query, obj);
}

/* The insight of a job's steps (step NULL: all of them) from step_insights: each step object of
 * steps (those whose "step" matches a row) gets "insight" (null: not computed yet) and
 * "advice" ([] when none). 0, or -1 with err set. */
int jsw_add_insights(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, json_t *steps,
                     char *err, size_t errlen)
{
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, job, true);
    jsw_arg_str(&a, step);
    json_t *rows = jsw_db_rows(db, "step_insights", a.n, a.v, err, errlen);
    if (!rows)
        return -1;
    size_t i, k;
    json_t *s, *r;
    json_array_foreach(steps, i, s) {
        json_t *insight = json_null(), *advice = NULL;
        const char *id = json_string_value(json_object_get(s, "step"));
        json_array_foreach(rows, k, r) {
            const char *rid = json_string_value(json_object_get(r, "step"));
            if (id && rid && !strcmp(id, rid)) {
                insight = json_object_get(r, "insight");
                advice = json_object_get(r, "advice");
                break;
            }
        }
        json_object_set(s, "insight", insight ? insight : json_null());
        if (advice)
            json_object_set(s, "advice", advice);
        else
            json_object_set_new(s, "advice", json_array());
    }
    json_decref(rows);
    return 0;
}

/* With insight=yes, each step carries its whole insight and advice (what the terminal report
 * prints), not only its light and time lost: built as Jansson objects, the steps changed in
 * place. */
static json_t *job_with_insights(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                                 size_t errlen)
{
    int64_t max;
    if (job_files_max(req, &max, status, err, errlen))
        return NULL;
    json_t *body = object_with_list(db, req, "job", "job_files", "files", " of yours", max, status, err, errlen);
    if (!body)
        return NULL;
    json_t *job = json_object_get(body, "job");
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, jsw_int_or(json_object_get(job, "id"), -1), true);
    size_t listed = json_array_size(json_object_get(job, "files"));
    int64_t total = job_files_total(db, &a, (int64_t)listed, max, err, errlen);
    if (total < 0) {
        json_decref(body);
        DBFAIL();
    }
    json_object_set_new(job, "files_total", json_integer(total));
    static const char *const lists[][2] = { { "job_edges", "edges" }, { "job_warnings", "warnings" } };
    for (size_t i = 0; i < 2; i++) {
        json_t *rows = jsw_db_rows(db, lists[i][0], a.n, a.v, err, errlen);
        if (!rows) {
            json_decref(body);
            DBFAIL();
        }
        json_object_set_new(job, lists[i][1], rows);
    }
    if (jsw_add_insights(db, req, jsw_int_or(json_object_get(job, "id"), -1), NULL,
                         json_object_get(job, "steps"), err, errlen) < 0) {
        json_decref(body);
        DBFAIL();
    }
    return body;
}

/* The job with its files, edges and warnings, written as text (a job of 900 files); with
 * insight=yes as Jansson objects (job_with_insights). */
char *jsw_t_job(jsw_db *db, const struct jsw_request *req, size_t *n, int *status, char *err,
                size_t errlen)
{
    static const char *const yes[] = { "yes", NULL };
    const char *insight = NULL;
    if (jsw_param_enum(req, "insight", yes, &insight, err, errlen)) {
        *status = 400;
        return NULL;
    }
    if (insight) {
        json_t *body = job_with_insights(db, req, status, err, errlen);
        if (!body)
            return NULL;
        char *text = jsw_dump(body, n);
        if (!text)
            FAIL(500, "could not encode the reply");
        return text;
    }
    struct jsw_args a;
    struct jsw_text t = { 0 };
    int64_t max, listed = 0;
    if (job_files_max(req, &max, status, err, errlen) ||
        object_with_list_text(db, req, "job", "job_files", "files", " of yours", max, &listed, &a, &t, status, err,
                              errlen))
        return NULL;
    int64_t total = job_files_total(db, &a, listed, max, err, errlen);
    if (total < 0) {
        jsw_text_free(&t);
        DBFAIL();
    }
    jsw_text_lit(&t, ",\"files_total\":");
    jsw_text_int(&t, total);
    static const char *const lists[][2] = { { "job_edges", ",\"edges\":" },
                                            { "job_warnings", ",\"warnings\":" } };
    for (size_t i = 0; i < 2; i++) {
        jsw_text_lit(&t, lists[i][1]);
        if (jsw_db_rows_text(db, lists[i][0], a.n, a.v, &t, -1, err, errlen) < 0) {
            jsw_text_free(&t);
            DBFAIL();
        }
    }
    jsw_text_lit(&t, "}}");
    return take(&t, n, status, err, errlen);
}

/* The file with the steps that accessed it, written as text (a file 900 jobs read). */
char *jsw_t_file(jsw_db *db, const struct jsw_request *req, size_t *n, int *status, char *err,
                 size_t errlen)
{
    struct jsw_args a;
    struct jsw_text t = { 0 };
    if (object_with_list_text(db, req, "file", "file_accesses", "accesses", " that a job of yours accessed", -1,
                              NULL, &a, &t, status, err, errlen))
        return NULL;
    jsw_text_lit(&t, "}}");
    return take(&t, n, status, err, errlen);
}
