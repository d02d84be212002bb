/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The endpoints of docs/api.md. Every query gets the viewer as $1 (user name) and $2 (admin:
 * 't' or 'f') and filters by them itself, so that no endpoint can forget access control:
 * a user sees rows of their own jobs, an admin sees all. Another user's object is a 404,
 * exactly as if it did not exist. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "jsweb.h"
#include "profile_format.h"

#define FAIL(st, ...)                                                                            \
    do {                                                                                         \
        *status = (st);                                                                          \
        snprintf(err, errlen, __VA_ARGS__);                                                      \
        return NULL;                                                                             \
    } while (0)

/* the database layer has already put its message into err */
#define DBFAIL()                                                                                 \
    do {                                                                                         \
        *status = 500;                                                                           \
        return NULL;                                                                             \
    } while (0)

struct args {
    const char *v[12];
    char buf[12][32];
    int n;
};

/* $1 user, $2 admin, $3 cluster (the optional parameter cluster=NAME, validated by
 * check_cluster before any handler runs a query) */
/* The viewer ($1 name, $2 admin) and the cluster filter ($3). Where the users who log in are
 * those of one cluster (users_cluster), a name is that cluster's user: a non-admin sees that
 * cluster only, and asking for another finds nothing ("" names no cluster). */
static void args_init(struct args *a, const struct jsw_request *req)
{
    const char *c = jsw_param(req, "cluster");
    if (!req->admin && req->users_cluster && req->users_cluster[0])
        c = !c || !strcmp(c, req->users_cluster) ? req->users_cluster : "";
    a->n = 0;
    a->v[a->n++] = req->user;
    a->v[a->n++] = req->admin ? "t" : "f";
    a->v[a->n++] = c;
}

static int check_cluster(const struct jsw_request *req, int *status, char *err, size_t errlen)
{
    const char *c = jsw_param(req, "cluster");
    if (c && !jsw_user_name_valid(c)) {
        *status = 400;
        snprintf(err, errlen, "parameter 'cluster': not a valid cluster name");
        return -1;
    }
    return 0;
}
static void arg_str(struct args *a, const char *s) { a->v[a->n++] = s; }
static void arg_int(struct args *a, int64_t n, bool present)
{
    if (!present) {
        a->v[a->n++] = NULL;
        return;
    }
    snprintf(a->buf[a->n], sizeof a->buf[a->n], "%lld", (long long)n);
    a->v[a->n] = a->buf[a->n];
    a->n++;
}

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

static json_t *h_me(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                    size_t errlen)
{
    (void)db, (void)status, (void)err, (void)errlen;
    return json_pack("{s:s,s:b}", "user", req->user, "admin", req->admin);
}

static const char *const states[] = { "PENDING", "RUNNING", "COMPLETED", "FAILED", "CANCELLED",
                                      "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED",
                                      "BOOT_FAIL", "DEADLINE", NULL };

/* Shared by /workflows and /jobs: the filters of the list. */
static json_t *list(jsw_db *db, const struct jsw_request *req, const char *query, int *status,
                    char *err, size_t errlen)
{
    const char *owner = NULL, *state = NULL, *name = NULL, *workflow = NULL;
    int64_t from = 0, to = 0, limit = 500;
    bool has_from, has_to;
    if (owner_param(req, &owner, status, err, errlen))
        return NULL;
    if (jsw_param_time(req, "from", &from, &has_from, err, errlen) ||
        jsw_param_time(req, "to", &to, &has_to, err, errlen) ||
        jsw_param_enum(req, "state", states, &state, err, errlen) ||
        jsw_param_text(req, "name", &name, err, errlen) ||
        jsw_param_text(req, "workflow", &workflow, err, errlen) ||
        jsw_param_int(req, "limit", 1, 100000, &limit, NULL, err, errlen)) {
        *status = 400;
        return NULL;
    }
    if (req->max_rows > 0 && limit > req->max_rows)
        limit = req->max_rows;
    struct args a;
    args_init(&a, req);
    arg_str(&a, owner);
    arg_int(&a, from, has_from);
    arg_int(&a, to, has_to);
    arg_str(&a, state);
    arg_str(&a, name);
    arg_str(&a, workflow);
    arg_int(&a, limit + 1, true);
    json_t *rows = jsw_db_rows(db, query, a.n, a.v, err, errlen);
    if (!rows) {
        *status = 500;
        return NULL;
    }
    bool truncated = json_array_size(rows) > (size_t)limit;
    if (truncated)
        json_array_remove(rows, json_array_size(rows) - 1);
    return json_pack("{s:o,s:b}", strcmp(query, "jobs") ? "workflows" : "jobs", rows, "truncated",
                     truncated);
}

static json_t *h_workflows(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                           size_t errlen)
{
    return list(db, req, "workflows", status, err, errlen);
}

static json_t *h_jobs(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                      size_t errlen)
{
    return list(db, req, "jobs", status, err, errlen);
}

/* job=ID: a Slurm job id. */
static int job_param(const struct jsw_request *req, const char *name, int64_t *job, int *status,
                     char *err, size_t errlen)
{
    bool present;
    if (jsw_param_int(req, name, 1, 4294967295LL, job, &present, err, errlen)) {
        *status = 400;
        return -1;
    }
    if (!present) {
        *status = 400;
        snprintf(err, errlen, "parameter '%s' is required", name);
        return -1;
    }
    return 0;
}

static int step_param(const struct jsw_request *req, const char **step, int *status, char *err,
                      size_t errlen)
{
    const char *s = jsw_param(req, "step");
    if (!s) {
        *status = 400;
        snprintf(err, errlen, "parameter 'step' is required");
        return -1;
    }
    if (!jsw_step_valid(s)) {
        *status = 400;
        snprintf(err, errlen, "parameter 'step': expected a step number, batch, extern or "
                              "interactive");
        return -1;
    }
    *step = s;
    return 0;
}

/* --- the workflow graph (docs/api.md, workflow): arrays instead of objects with repeated keys,
 * only what the graph draws, times in integer milliseconds after t0 ------------------------- */

static const char *const wf_job_fields[] = { "id", "name", "state", "submit", "start", "end",
                                             "steps", "array_job_id", "array_task_id", NULL };
static const char *const wf_step_fields[] = { "step", "start", "end", "runtime_ms", "files", NULL };
/* the columns of workflow_steps from compute_ns on, in this order */
static const char *const wf_runtime_fields[] = { "compute", "mpi_p2p", "mpi_coll", "io_posix",
                                                 "io_stdio", "io_mpiio", "mpi_setup", "cpu_wait",
                                                 "idle", NULL };
static const char *const wf_file_modes[] = { "r", "rw", "w", NULL };

static json_t *wf_names(const char *const *names)
{
    json_t *a = json_array();
    for (; *names; names++)
        json_array_append_new(a, json_string(*names));
    return a;
}

static int wf_col(PGresult *r, const char *name)
{
    return PQfnumber(r, name);
}

static bool wf_null(PGresult *r, int row, int col) { return col < 0 || PQgetisnull(r, row, col); }

static long long wf_round(double v) { return (long long)(v < 0 ? v - 0.5 : v + 0.5); }

/* a time (epoch seconds, as extract(epoch) gives it) as integer ms after t0, or null */
static json_t *wf_time(PGresult *r, int row, int col, long long t0)
{
    if (wf_null(r, row, col))
        return json_null();
    return json_integer(wf_round((strtod(PQgetvalue(r, row, col), NULL) - (double)t0) * 1000.0));
}

static json_t *wf_int(PGresult *r, int row, int col)
{
    if (wf_null(r, row, col))
        return json_null();
    return json_integer(strtoll(PQgetvalue(r, row, col), NULL, 10));
}

static json_t *wf_str(PGresult *r, int row, int col)
{
    if (wf_null(r, row, col))
        return json_null();
    return json_string(PQgetvalue(r, row, col));
}

/* drop trailing nulls of a record (docs/api.md: left out, read as null) */
static void wf_trim_nulls(json_t *a)
{
    size_t n = json_array_size(a);
    while (n > 0 && json_is_null(json_array_get(a, n - 1)))
        json_array_remove(a, --n);
}

struct wf_job {
    long long id;
    json_t *steps; /* borrowed from the job's array */
};

static int wf_job_cmp(const void *a, const void *b)
{
    long long x = ((const struct wf_job *)a)->id, y = ((const struct wf_job *)b)->id;
    return (x > y) - (x < y);
}

/* the jobs of workflow_jobs, each [id, name, state, submit, start, end, steps, array_job_id,
 * array_task_id]; *index (sorted by id) finds a job's steps array */
static json_t *wf_jobs(PGresult *r, long long t0, struct wf_job **index, size_t *n_index)
{
    int rows = PQntuples(r);
    int c_id = wf_col(r, "id"), c_name = wf_col(r, "name"), c_state = wf_col(r, "state"),
        c_submit = wf_col(r, "submit"), c_start = wf_col(r, "start"), c_end = wf_col(r, "end"),
        c_aj = wf_col(r, "array_job_id"), c_at = wf_col(r, "array_task_id");
    json_t *jobs = json_array();
    struct wf_job *ix = calloc(rows ? (size_t)rows : 1, sizeof *ix);
    if (!ix) {
        json_decref(jobs);
        return NULL;
    }
    for (int i = 0; i < rows; i++) {
        json_t *steps = json_array();
        json_t *j = json_pack("[o,o,o,o,o,o,o,o,o]", wf_int(r, i, c_id), wf_str(r, i, c_name),
                              wf_str(r, i, c_state), wf_time(r, i, c_submit, t0),
                              wf_time(r, i, c_start, t0), wf_time(r, i, c_end, t0), steps,
                              wf_int(r, i, c_aj), wf_int(r, i, c_at));
        wf_trim_nulls(j);
        ix[i].id = strtoll(PQgetvalue(r, i, c_id), NULL, 10);
        ix[i].steps = steps;
        json_array_append_new(jobs, j);
    }
    qsort(ix, (size_t)rows, sizeof *ix, wf_job_cmp);
    *index = ix;
    *n_index = (size_t)rows;
    return jobs;
}

/* the rows of workflow_steps into their jobs: [step, start, end, runtime_ms, files?];
 * runtime_ms without its trailing zeros ([] = no profile), files [r, rw, w] only when some */
static void wf_steps(PGresult *r, long long t0, struct wf_job *ix, size_t n_ix)
{
    int rows = PQntuples(r);
    int c_job = wf_col(r, "job_id"), c_step = wf_col(r, "step"), c_start = wf_col(r, "start"),
        c_end = wf_col(r, "end"), c_rt = wf_col(r, "compute_ns"), c_files = wf_col(r, "r");
    for (int i = 0; i < rows; i++) {
        struct wf_job key = { .id = strtoll(PQgetvalue(r, i, c_job), NULL, 10) };
        struct wf_job *j = bsearch(&key, ix, n_ix, sizeof *ix, wf_job_cmp);
        if (!j)
            continue;
        long long rt[16];
        int n_rt = 0;
        for (int k = 0; wf_runtime_fields[k]; k++) {
            long long ns = wf_null(r, i, c_rt + k) ? 0 : strtoll(PQgetvalue(r, i, c_rt + k), NULL, 10);
            rt[k] = (ns + 500000) / 1000000;
            if (rt[k])
                n_rt = k + 1;
        }
        json_t *runtime = json_array();
        for (int k = 0; k < n_rt; k++)
            json_array_append_new(runtime, json_integer(rt[k]));
        json_t *s = json_pack("[o,o,o,o]", wf_str(r, i, c_step), wf_time(r, i, c_start, t0),
                              wf_time(r, i, c_end, t0), runtime);
        long long f[3], any = 0;
        for (int k = 0; k < 3; k++)
            any |= f[k] = wf_null(r, i, c_files + k) ? 0 : strtoll(PQgetvalue(r, i, c_files + k), NULL, 10);
        if (any)
            json_array_append_new(s, json_pack("[I,I,I]", (json_int_t)f[0], (json_int_t)f[1], (json_int_t)f[2]));
        json_array_append_new(j->steps, s);
    }
}

/* the rows of workflow_edges by kind: [from_job, to_job] or, with steps (file edges),
 * [from_job, to_job, from_step, to_step, files] */
static json_t *wf_edges(PGresult *r)
{
    int rows = PQntuples(r);
    int c_kind = wf_col(r, "kind"), c_from = wf_col(r, "from_job"), c_to = wf_col(r, "to_job"),
        c_fs = wf_col(r, "from_step"), c_ts = wf_col(r, "to_step"), c_n = wf_col(r, "files");
    json_t *edges = json_pack("{s:[],s:[],s:[]}", "scheduler", "time", "file");
    for (int i = 0; i < rows; i++) {
        const char *kind = PQgetvalue(r, i, c_kind);
        json_t *list = json_object_get(edges, kind);
        if (!list) {
            list = json_array();
            json_object_set_new(edges, kind, list);
        }
        json_t *e = json_pack("[o,o]", wf_int(r, i, c_from), wf_int(r, i, c_to));
        if (!wf_null(r, i, c_fs) || !wf_null(r, i, c_ts)) {
            json_array_append_new(e, wf_str(r, i, c_fs));
            json_array_append_new(e, wf_str(r, i, c_ts));
            json_array_append_new(e, wf_int(r, i, c_n));
        }
        json_array_append_new(list, e);
    }
    return edges;
}

/* A workflow graph: its jobs with the steps the graph draws, and its edges (scheduler, time,
 * file) as the view js.dependencies gives them. By workflow id, or by the id of one of its
 * jobs. With from=J&to=K: the edges from job J to job K of the workflow with their evidence
 * (what the viewer shows when an edge is clicked). */
static json_t *h_workflow(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                          size_t errlen)
{
    int64_t id = 0, job = 0, from = 0, to = 0;
    bool has_id, has_job, has_from, has_to;
    if (jsw_param_int(req, "id", 1, INT64_MAX, &id, &has_id, err, errlen) ||
        jsw_param_int(req, "job", 1, 4294967295LL, &job, &has_job, err, errlen) ||
        jsw_param_int(req, "from", 1, 4294967295LL, &from, &has_from, err, errlen) ||
        jsw_param_int(req, "to", 1, 4294967295LL, &to, &has_to, err, errlen)) {
        *status = 400;
        return NULL;
    }
    if (has_id == has_job)
        FAIL(400, "give either 'id' (a workflow id) or 'job' (a job id)");
    if (has_from != has_to)
        FAIL(400, "give both 'from' and 'to' (job ids) or neither");
    static const char *const bys[] = { "name", NULL };
    const char *by = NULL;
    if (jsw_param_enum(req, "by", bys, &by, err, errlen)) {
        *status = 400;
        return NULL;
    }
    if (by && has_from)
        FAIL(400, "give 'by' or 'from'/'to', not both");
    struct args a;
    if (has_job) {
        args_init(&a, req);
        arg_int(&a, job, true);
        json_t *w = jsw_db_row(db, "job_workflow", a.n, a.v, err, errlen);
        if (!w)
            DBFAIL();
        json_t *wid = json_object_get(w, "workflow_id");
        if (!json_is_integer(wid)) {
            json_decref(w);
            FAIL(404, "no job %lld of yours", (long long)job);
        }
        id = json_integer_value(wid);
        json_decref(w);
    }
    args_init(&a, req);
    arg_int(&a, id, true);
    json_t *info = jsw_db_row(db, "workflow", a.n, a.v, err, errlen);
    if (!info)
        DBFAIL();
    if (json_is_null(info))
        FAIL(404, "no workflow %lld of yours", (long long)id);
    if (by) {
        json_t *names = jsw_db_rows(db, "workflow_step_names", a.n, a.v, err, errlen);
        if (!names) {
            json_decref(info);
            DBFAIL();
        }
        json_t *body = json_pack("{s:O,s:o}", "workflow", json_object_get(info, "id"), "step_names", names);
        json_decref(info);
        return body;
    }
    if (has_from) {
        arg_int(&a, from, true);
        arg_int(&a, to, true);
        json_t *edges = jsw_db_rows(db, "workflow_edge_detail", a.n, a.v, err, errlen);
        if (!edges) {
            json_decref(info);
            DBFAIL();
        }
        json_t *wid = json_object_get(info, "id");
        json_t *body = json_pack("{s:O,s:I,s:I,s:o}", "workflow", wid, "from", (json_int_t)from,
                                 "to", (json_int_t)to, "edges", edges);
        json_decref(info);
        return body;
    }
    /* t0: the first submit (else start), whole seconds */
    json_t *t = json_object_get(info, "submit");
    if (!json_is_number(t))
        t = json_object_get(info, "start");
    long long t0 = json_is_number(t) ? (long long)json_number_value(t) : 0;
    PGresult *rj = jsw_db_result(db, "workflow_jobs", a.n, a.v, err, errlen);
    if (!rj) {
        json_decref(info);
        DBFAIL();
    }
    struct wf_job *ix = NULL;
    size_t n_ix = 0;
    json_t *jobs = wf_jobs(rj, t0, &ix, &n_ix);
    PQclear(rj);
    PGresult *rs = jobs ? jsw_db_result(db, "workflow_steps", a.n, a.v, err, errlen) : NULL;
    if (!rs) {
        free(ix);
        json_decref(jobs);
        json_decref(info);
        if (!jobs)
            FAIL(500, "out of memory");
        DBFAIL();
    }
    wf_steps(rs, t0, ix, n_ix);
    PQclear(rs);
    free(ix);
    PGresult *re = jsw_db_result(db, "workflow_edges", a.n, a.v, err, errlen);
    if (!re) {
        json_decref(jobs);
        json_decref(info);
        DBFAIL();
    }
    json_t *edges = wf_edges(re);
    PQclear(re);
    return json_pack("{s:o,s:I,s:o,s:o,s:o,s:o,s:o,s:o}", "workflow", info, "t0", (json_int_t)t0,
                     "job_fields", wf_names(wf_job_fields), "step_fields", wf_names(wf_step_fields),
                     "runtime_fields", wf_names(wf_runtime_fields), "file_modes",
                     wf_names(wf_file_modes), "jobs", jobs, "edges", edges);
}

static json_int_t int_or(json_t *v, json_int_t dflt)
{
    return json_is_integer(v) ? json_integer_value(v) : dflt;
}

/* One object by its id (param "id") with a list of its children: the job with its files, the
 * file with its accesses. The 404 message reads "no <row_query> <id><whose>". */
static json_t *object_with_list(jsw_db *db, const struct jsw_request *req, const char *row_query,
                                const char *list_query, const char *list_key, const char *whose,
                                int *status, char *err, size_t errlen)
{
    int64_t id;
    if (job_param(req, "id", &id, status, err, errlen))
        return NULL;
    struct args a;
    args_init(&a, req);
    arg_int(&a, id, true);
    json_t *obj = jsw_db_row(db, row_query, a.n, a.v, err, errlen);
    if (!obj)
        DBFAIL();
    if (json_is_null(obj))
        FAIL(404, "no %s %lld%s", row_query, (long long)id, whose);
    json_t *list = jsw_db_rows(db, list_query, a.n, a.v, err, errlen);
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
static int add_insights(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, json_t *steps,
                        char *err, size_t errlen)
{
    struct args a;
    args_init(&a, req);
    arg_int(&a, job, true);
    arg_str(&a, step);
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
 * prints), not only its light and time lost. */
static json_t *h_job(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                     size_t errlen)
{
    static const char *const yes[] = { "yes", NULL };
    const char *insight = NULL;
    if (jsw_param_enum(req, "insight", yes, &insight, err, errlen)) {
        *status = 400;
        return NULL;
    }
    json_t *body = object_with_list(db, req, "job", "job_files", "files", " of yours", status, err, errlen);
    if (!body)
        return NULL;
    json_t *job = json_object_get(body, "job");
    struct args a;
    args_init(&a, req);
    arg_int(&a, int_or(json_object_get(job, "id"), -1), true);
    json_t *edges = jsw_db_rows(db, "job_edges", a.n, a.v, err, errlen);
    if (!edges) {
        json_decref(body);
        DBFAIL();
    }
    json_object_set_new(job, "edges", edges);
    json_t *warnings = jsw_db_rows(db, "job_warnings", a.n, a.v, err, errlen);
    if (!warnings) {
        json_decref(body);
        DBFAIL();
    }
    json_object_set_new(job, "warnings", warnings);
    if (insight && add_insights(db, req, int_or(json_object_get(job, "id"), -1), NULL, json_object_get(job, "steps"),
                                err, errlen) < 0) {
        json_decref(body);
        DBFAIL();
    }
    return body;
}

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

/* The metric names of JS_PROFILE_METRICS (docs/profile-format.md), NULL-terminated, for
 * parameter checks. */
static const char *const *metric_names(void)
{
    static const char *names[JS_M_COUNT + 1];
    if (!names[0])
        for (int m = 0; m < JS_M_COUNT; m++)
            names[m] = js_profile_metrics[m].name;
    return names;
}

/* The index of a metric in JS_PROFILE_METRICS, -1 for NULL (every metric). */
static int metric_index(const char *name)
{
    for (int m = 0; name && m < JS_M_COUNT; m++)
        if (!strcmp(js_profile_metrics[m].name, name))
            return m;
    return -1;
}

/* The slices of a chart: at most `points` groups of `width` consecutive slices (1 when the
 * step has no more slices than points, or points is 0). */
static size_t group_width(size_t n, int64_t points)
{
    return points > 0 && n > (size_t)points ? (n + (size_t)points - 1) / (size_t)points : 1;
}

/* Decode a step's own slices (its folded series and its step-nodes queued for the fold; with
 * live, its running step-nodes' provisional vectors too; with kernel, the kernel's counts per
 * slice besides the metrics): 0, or -1 with err set. */
static int own_slices(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step,
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
    struct args a;
    args_init(&a, req);
    arg_int(&a, job, true);
    arg_str(&a, step);
    arg_str(&a, metric);
    if (jsw_slices_add(own, db, "series_own", a.n, a.v, err, errlen) < 0 ||
        (kernel && jsw_slices_add_kernel(own, db, a.n - 1, a.v, err, errlen) < 0) ||
        (live && jsw_slices_add_live(own, db, a.n - 1, a.v, err, errlen) < 0)) {
        jsw_slices_free(own);
        return -1;
    }
    return 0;
}

/* The step's slices with activity as the step page charts them: {slice, t, nodes, processes,
 * m: {metric: value, only those above 0}}, runs of slices summed when points asks for fewer
 * (then "slices" says how many; nodes and processes are the largest of the run). With the
 * kernel's counts, m has them too (kernel_rchar, ...) and unattributed_read_bytes /
 * unattributed_write_bytes: per slice the kernel's bytes beyond the wrappers' (posix, stdio,
 * lower), at least 0, as js.step_kernel_slices. */
static json_t *step_slices_json(const struct jsw_slices *own, double len, int64_t points)
{
    json_t *out = json_array();
    size_t w = group_width(own->n, points);
    for (size_t i = 0; i < own->n; i += w) {
        int64_t nodes = 0, procs = 0, sum[JS_M_COUNT] = { 0 }, kio[JS_KIO_COUNT] = { 0 }, unseen[2] = { 0 };
        size_t end = i + w < own->n ? i + w : own->n;
        for (size_t k = i; k < end; k++) {
            const int64_t *v = own->v + k * JS_M_COUNT;
            nodes = own->count[k] > nodes ? own->count[k] : nodes;
            procs = own->procs[k] > procs ? own->procs[k] : procs;
            for (int m = 0; m < JS_M_COUNT; m++)
                sum[m] += v[m];
            if (!own->kio)
                continue;
            const int64_t *kv = own->kio + k * JS_KIO_COUNT;
            for (int m = 0; m < JS_KIO_COUNT; m++)
                kio[m] += kv[m];
            int64_t r = kv[JS_KIO_RCHAR] - v[JS_M_POSIX_READ_BYTES] - v[JS_M_STDIO_READ_BYTES] - v[JS_M_LOWER_READ_BYTES];
            int64_t wr = kv[JS_KIO_WCHAR] - v[JS_M_POSIX_WRITE_BYTES] - v[JS_M_STDIO_WRITE_BYTES] - v[JS_M_LOWER_WRITE_BYTES];
            unseen[0] += r > 0 ? r : 0;
            unseen[1] += wr > 0 ? wr : 0;
        }
        if (nodes == 0)
            continue; /* no activity */
        json_t *mo = json_object();
        for (int m = 0; m < JS_M_COUNT; m++)
            if (sum[m])
                json_object_set_new(mo, js_profile_metrics[m].name, json_integer(sum[m]));
        for (int m = 0; m < JS_KIO_COUNT; m++)
            if (kio[m])
                json_object_set_new(mo, js_profile_slice_cols[JS_M_COUNT + m].name, json_integer(kio[m]));
        if (unseen[0])
            json_object_set_new(mo, "unattributed_read_bytes", json_integer(unseen[0]));
        if (unseen[1])
            json_object_set_new(mo, "unattributed_write_bytes", json_integer(unseen[1]));
        int64_t slice = own->first + (int64_t)i;
        json_t *row = json_pack("{s:I,s:f,s:I,s:I,s:o}", "slice", (json_int_t)slice, "t", (double)slice * len,
                                "nodes", (json_int_t)nodes, "processes", (json_int_t)procs, "m", mo);
        if (w > 1)
            json_object_set_new(row, "slices", json_integer((json_int_t)(end - i)));
        json_array_append_new(out, row);
    }
    return out;
}

/* Per slice of the step (idle ones included): {slice, t, own: {metric...}, others:
 * {metric...}, other_step_nodes}: others is the total of the scope less the step's own, never
 * below 0 (a total may lag a step-node ingested a moment ago); runs of slices summed as in
 * step_slices_json (other_step_nodes the largest of the run). */
static json_t *background_json(const struct jsw_slices *own, const struct jsw_slices *tot, int only,
                               double len, int64_t points)
{
    json_t *out = json_array();
    size_t w = group_width(own->n, points);
    for (size_t i = 0; i < own->n; i += w) {
        int64_t others_nodes = 0, o[JS_M_COUNT] = { 0 }, b[JS_M_COUNT] = { 0 };
        size_t end = i + w < own->n ? i + w : own->n;
        for (size_t k = i; k < end; k++) {
            int64_t bn = tot->count[k] - own->count[k];
            others_nodes = bn > others_nodes ? bn : others_nodes;
            for (int m = 0; m < JS_M_COUNT; m++) {
                int64_t x = own->v[k * JS_M_COUNT + (size_t)m], t = tot->v[k * JS_M_COUNT + (size_t)m];
                o[m] += x;
                b[m] += t > x ? t - x : 0;
            }
        }
        json_t *oo = json_object(), *bo = json_object();
        for (int m = 0; m < JS_M_COUNT; m++) {
            if (only >= 0 && m != only)
                continue;
            json_object_set_new(oo, js_profile_metrics[m].name, json_integer(o[m]));
            json_object_set_new(bo, js_profile_metrics[m].name, json_integer(b[m]));
        }
        int64_t slice = own->first + (int64_t)i;
        json_t *row = json_pack("{s:I,s:f,s:I,s:o,s:o}", "slice", (json_int_t)slice, "t", (double)slice * len,
                                "other_step_nodes", (json_int_t)others_nodes, "own", oo, "others", bo);
        if (w > 1)
            json_object_set_new(row, "slices", json_integer((json_int_t)(end - i)));
        json_array_append_new(out, row);
    }
    return out;
}

#define STEP_PROCESSES_MAX 1000 /* processes listed by the step endpoint */

static json_t *h_step(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                      size_t errlen)
{
    int64_t job;
    const char *step, *node = jsw_param(req, "node");
    if (job_param(req, "job", &job, status, err, errlen) ||
        step_param(req, &step, status, err, errlen))
        return NULL;
    if (node && !node_name_valid(node))
        FAIL(400, "parameter 'node': not a valid node name");
    struct args a;
    args_init(&a, req);
    arg_int(&a, job, true);
    arg_str(&a, step);
    json_t *s = jsw_db_row(db, "step", a.n, a.v, err, errlen);
    if (!s)
        DBFAIL();
    if (json_is_null(s))
        FAIL(404, "no step %s of a job %lld of yours", step, (long long)job);
    int64_t points = 0;
    if (jsw_param_int(req, "points", 10, 100000, &points, NULL, err, errlen)) {
        json_decref(s);
        *status = 400;
        return NULL;
    }
    struct jsw_slices own;
    if (own_slices(db, req, job, step, NULL, json_is_true(json_object_get(s, "live")), true, s, &own, err, errlen) < 0) {
        json_decref(s);
        DBFAIL();
    }
    double len = (double)int_or(json_object_get(s, "slice_seconds"), 4);
    json_object_set_new(s, "slices", own.n ? step_slices_json(&own, len, points) : json_array());
    /* the spread of its processes, in the same runs of slices */
    json_t *spread = own.n ? jsw_step_spread(db, a.n, a.v, own.first, own.first + (int64_t)own.n - 1, len,
                                             group_width(own.n, points), err, errlen)
                           : json_array();
    jsw_slices_free(&own);
    if (!spread) {
        json_decref(s);
        DBFAIL();
    }
    json_object_set_new(s, "spread", spread);
    static const char *const parts[][2] = { { "digest", "step_digest" },
                                            { "files", "step_files" } };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        json_t *rows = jsw_db_rows(db, parts[i][1], a.n, a.v, err, errlen);
        if (!rows) {
            json_decref(s);
            DBFAIL();
        }
        json_object_set_new(s, parts[i][0], rows);
    }
    /* its processes, how each ended: those that did not end well first, at most
     * STEP_PROCESSES_MAX (and max_rows) of them */
    int64_t limit = STEP_PROCESSES_MAX;
    if (req->max_rows > 0 && limit > req->max_rows)
        limit = req->max_rows;
    struct args pa = a;
    arg_int(&pa, limit + 1, true);
    json_t *procs = jsw_db_rows(db, "step_processes", pa.n, pa.v, err, errlen);
    if (!procs) {
        json_decref(s);
        DBFAIL();
    }
    bool truncated = json_array_size(procs) > (size_t)limit;
    if (truncated)
        json_array_remove(procs, json_array_size(procs) - 1);
    json_object_set_new(s, "process_list", procs);
    json_object_set_new(s, "process_list_truncated", json_boolean(truncated));
    int grc = jsw_step_gpus(db, req, s, a.n, a.v, err, errlen);
    if (grc < 0) {
        json_decref(s);
        *status = grc == -2 ? 400 : 500; /* err says why */
        return NULL;
    }
    /* its insight (null until the ingest computed it) and advice */
    json_t *one = json_pack("[O]", s);
    int rc = add_insights(db, req, job, step, one, err, errlen);
    json_decref(one);
    if (rc < 0) {
        json_decref(s);
        DBFAIL();
    }
    if (node) {
        arg_str(&a, node);
        json_t *rows = jsw_db_rows(db, "step_node_slices", a.n, a.v, err, errlen);
        if (!rows) {
            json_decref(s);
            DBFAIL();
        }
        json_object_set_new(s, "node", json_string(node));
        json_object_set_new(s, "node_slices", rows);
    }
    return json_pack("{s:o}", "step", s);
}

/* The k jobs that contributed most to the metric in the step's background (admins): the CGI
 * ranks them from their series (background_rank), then reads their names and sums
 * (background_top). [{job, user, name, slices, steps, io_bytes, mpi_bytes, cpu_ns, value}] */
static json_t *top_contributors(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step,
                                const char *scope, const char *metric, int64_t first, int64_t last, int64_t k,
                                char *err, size_t errlen)
{
    struct args a;
    args_init(&a, req);
    arg_int(&a, job, true);
    arg_str(&a, step);
    arg_str(&a, scope);
    arg_str(&a, metric);
    arg_int(&a, first, true);
    arg_int(&a, last, true);
    struct jsw_rank *rank;
    int n = jsw_series_rank(db, a.n, a.v, first, last, &rank, err, errlen);
    if (n < 0)
        return NULL;
    if (n > k)
        n = (int)k;
    char *ids = malloc(24 * (size_t)n + 3), *p = ids;
    if (!ids) {
        free(rank);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    *p++ = '{';
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%s%lld", i ? "," : "", (long long)rank[i].job);
    strcpy(p, "}");
    args_init(&a, req);
    arg_int(&a, job, true);
    arg_str(&a, step);
    arg_str(&a, scope);
    arg_int(&a, first, true);
    arg_int(&a, last, true);
    arg_str(&a, ids);
    json_t *rows = n ? jsw_db_rows(db, "background_top", a.n, a.v, err, errlen) : json_array();
    free(ids);
    json_t *out = rows ? json_array() : NULL;
    for (int i = 0; rows && i < n; i++) {
        size_t r;
        json_t *row;
        json_array_foreach(rows, r, row) {
            if (int_or(json_object_get(row, "job"), -1) != rank[i].job)
                continue;
            json_object_set_new(row, "value", json_integer(rank[i].value));
            json_array_append(out, row);
            break;
        }
    }
    json_decref(rows);
    free(rank);
    return out;
}

/* A background drawn from fewer than background_min_jobs other jobs is theirs: per slice it
 * would show a neighbour's profile to a viewer who may not see that job. For non-admins the
 * slices keep the step's own values only, and "withheld" says why (issue 35); the count alone
 * is said. 0, or -1 (database). */
static int withhold_background(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, const char *scope,
                               int64_t first, int64_t last, json_t *body, char *err, size_t errlen)
{
    struct args a;
    args_init(&a, req);
    arg_int(&a, job, true);
    arg_str(&a, step);
    arg_str(&a, scope);
    arg_int(&a, first, true);
    arg_int(&a, last, true);
    json_t *r = jsw_db_row(db, "background_jobs", a.n, a.v, err, errlen);
    if (!r)
        return -1;
    int64_t jobs = int_or(json_object_get(r, "jobs"), 0);
    json_decref(r);
    json_object_set_new(body, "other_jobs", json_integer(jobs));
    if (jobs == 0 || jobs >= req->background_min_jobs) /* none: the background is zeros */
        return 0;
    char why[256];
    snprintf(why, sizeof why, "only %lld other job%s ran beside this step%s (fewer than %d): per slice, the background would be %s "
             "profile, which is not shown", (long long)jobs, jobs == 1 ? "" : "s", !strcmp(scope, "nodes") ? " on its nodes" : "",
             req->background_min_jobs, jobs == 1 ? "that job's" : "their");
    json_t *row;
    size_t i;
    json_array_foreach(json_object_get(body, "slices"), i, row) {
        json_object_del(row, "others");
        json_object_del(row, "other_step_nodes");
    }
    json_object_set_new(body, "withheld", json_string(why));
    return 0;
}

static json_t *h_background(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                            size_t errlen)
{
    static const char *const scopes[] = { "cluster", "nodes", NULL };
    int64_t job, top = 0, points = 0;
    bool has_top;
    const char *step, *scope = "cluster", *metric = NULL;
    if (job_param(req, "job", &job, status, err, errlen) ||
        step_param(req, &step, status, err, errlen))
        return NULL;
    if (jsw_param_enum(req, "scope", scopes, &scope, err, errlen) ||
        jsw_param_enum(req, "metric", metric_names(), &metric, err, errlen) ||
        jsw_param_int(req, "top", 1, 50, &top, &has_top, err, errlen) ||
        jsw_param_int(req, "points", 10, 100000, &points, NULL, err, errlen)) {
        *status = 400;
        return NULL;
    }
    if (has_top && !req->admin)
        FAIL(403, "parameter 'top': only admins see which jobs contributed to the background");
    struct args a;
    args_init(&a, req);
    arg_int(&a, job, true);
    arg_str(&a, step);
    json_t *s = jsw_db_row(db, "step", a.n, a.v, err, errlen);
    if (!s)
        DBFAIL();
    if (json_is_null(s))
        FAIL(404, "no step %s of a job %lld of yours", step, (long long)job);
    json_t *brief = json_pack("{s:O,s:O,s:O,s:O,s:O,s:O,s:O}", "job", json_object_get(s, "job"),
                              "step", json_object_get(s, "step"), "start",
                              json_object_get(s, "start"), "end", json_object_get(s, "end"),
                              "slice_seconds", json_object_get(s, "slice_seconds"), "nodes",
                              json_object_get(s, "node_names"), "cluster",
                              json_object_get(s, "cluster"));
    double len = (double)int_or(json_object_get(s, "slice_seconds"), 4);
    /* own: folded and queued, not the provisional rows of running step-nodes (the totals never
     * hold those) */
    struct jsw_slices own, tot;
    int rc = own_slices(db, req, job, step, metric, false, false, s, &own, err, errlen);
    json_decref(s);
    if (rc < 0) {
        json_decref(brief);
        DBFAIL();
    }
    json_t *slices;
    int64_t first = own.first, last = own.first + (int64_t)own.n - 1;
    if (own.n == 0) {
        slices = json_array();
    } else {
        if (jsw_slices_init(&tot, first, last) < 0) {
            jsw_slices_free(&own);
            json_decref(brief);
            FAIL(500, "out of memory");
        }
        /* series_cluster: $4 job $5 metric $6 .. $7 slices; series_nodes: the step too */
        bool nodes = !strcmp(scope, "nodes");
        args_init(&a, req);
        arg_int(&a, job, true);
        if (nodes)
            arg_str(&a, step);
        arg_str(&a, metric);
        arg_int(&a, first, true);
        arg_int(&a, last, true);
        if (jsw_slices_add(&tot, db, nodes ? "series_nodes" : "series_cluster", a.n, a.v, err, errlen) < 0) {
            jsw_slices_free(&own);
            jsw_slices_free(&tot);
            json_decref(brief);
            DBFAIL();
        }
        slices = background_json(&own, &tot, metric_index(metric), len, points);
        jsw_slices_free(&tot);
    }
    jsw_slices_free(&own);
    json_t *body = json_pack("{s:o,s:s,s:o}", "step", brief, "scope", scope, "slices", slices);
    if (!req->admin && first <= last && withhold_background(db, req, job, step, scope, first, last, body, err, errlen) < 0) {
        json_decref(body);
        DBFAIL();
    }
    if (has_top) {
        json_t *t = first <= last ? top_contributors(db, req, job, step, scope, metric ? metric : "cpu_ns",
                                                               first, last, top, err, errlen)
                                  : json_array();
        if (!t) {
            json_decref(body);
            DBFAIL();
        }
        json_object_set_new(body, "top_metric", json_string(metric ? metric : "cpu_ns"));
        json_object_set_new(body, "top", t);
    }
    return body;
}

static json_t *h_file(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                      size_t errlen)
{
    return object_with_list(db, req, "file", "file_accesses", "accesses",
                            " that a job of yours accessed", status, err, errlen);
}

/* ---- export: jobs in the shapes of the JobLog and its per-step profile ------------------------ */

#define EXPORT_JOBS_MAX 5000 /* jobs per export (and max_rows) */

/* o[to] = row[from] (a new reference), JSON null when the row has none */
static void copy_field(json_t *o, const char *to, json_t *row, const char *from)
{
    json_t *v = json_object_get(row, from);
    json_object_set(o, to, v ? v : json_null());
}

static json_t *export_job(json_t *r)
{
    json_t *o = json_object();
    static const char *const table41[][2] = { { "JobId", "id" },        { "JobName", "name" },     { "StartTime", "start" },
                                              { "EndTime", "end" },     { "SubmitTime", "submit" }, { "NumNodes", "nodes" },
                                              { "NumCPUs", "cpus" },    { "NumTasks", "tasks" },   { "Dependency", "dependency" },
                                              { "ExitCode", "exit_code" } };
    for (size_t i = 0; i < sizeof table41 / sizeof table41[0]; i++)
        copy_field(o, table41[i][0], r, table41[i][1]);
    /* what jobscreen knows beyond the table, under names of its own */
    json_t *more = json_object();
    static const char *const extra[] = { "cluster", "user", "workflow_id", "workflow", "state", "reason", "eligible",
                                         "node_list", "partition", "account", "qos", "work_dir", "batch_script",
                                         "array_job_id", "array_task_id", "gpu_energy_j", "cpu_energy_j" };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        copy_field(more, extra[i], r, extra[i]);
    json_object_set_new(o, "jobscreen", more);
    json_object_set_new(o, "steps", json_array());
    return o;
}

static json_t *export_step(json_t *r)
{
    json_t *o = json_object();
    char id[160];
    snprintf(id, sizeof id, "%lld.%s", (long long)int_or(json_object_get(r, "job_id"), 0),
             json_string_value(json_object_get(r, "step")) ? json_string_value(json_object_get(r, "step")) : "");
    json_object_set_new(o, "JobID", json_string(id));
    static const char *const table42[][2] = { { "NNodes", "nodes" },     { "NCPUS", "cpus" },         { "Start", "start" },
                                              { "End", "end" },          { "Elapsed", "elapsed" },    { "JobName", "name" },
                                              { "NodeList", "node_list" }, { "ExitCode", "exit_code" }, { "State", "state" } };
    for (size_t i = 0; i < sizeof table42 / sizeof table42[0]; i++)
        copy_field(o, table42[i][0], r, table42[i][1]);
    jsw_export_step_gpus(o, r);
    if (!json_is_true(json_object_get(r, "profiled"))) {
        json_object_set_new(o, "profile", json_null());
        return o;
    }
    /* the per-step profile of the reference (metadata, runtime share, a summary of the calls,
     * the I/O handles), from what the profiler recorded */
    json_t *meta = json_object();
    copy_field(meta, "job_id", r, "job_id");
    copy_field(meta, "step", r, "step");
    copy_field(meta, "nodes", r, "nodes");
    copy_field(meta, "processes", r, "processes");
    copy_field(meta, "incomplete_reason", r, "incomplete_reason");
    json_object_set_new(meta, "clock_resolution_ns", json_integer(1));
    json_t *comm = json_object(), *io = json_object(), *share = json_object();
    copy_field(comm, "mpi_p2p_ns", r, "mpi_p2p_ns");
    copy_field(comm, "mpi_coll_ns", r, "mpi_coll_ns");
    copy_field(comm, "mpi_setup_ns", r, "mpi_setup_ns");
    copy_field(io, "posix_ns", r, "io_posix_ns");
    copy_field(io, "stdio_ns", r, "io_stdio_ns");
    copy_field(io, "mpiio_ns", r, "io_mpiio_ns");
    copy_field(share, "computation_ns", r, "compute_ns");
    json_object_set_new(share, "communication", comm);
    json_object_set_new(share, "io", io);
    copy_field(share, "cpu_wait_ns", r, "cpu_wait_ns");
    copy_field(share, "idle_ns", r, "idle_ns");
    json_t *prof = json_pack("{s:o,s:o}", "metadata", meta, "runtime_share", share);
    static const char *const sums[] = { "cpu_ns", "max_rss_kib", "read_bytes", "write_bytes" };
    for (size_t i = 0; i < sizeof sums / sizeof sums[0]; i++)
        copy_field(prof, sums[i], r, sums[i]);
    json_object_set_new(prof, "summary", json_object());
    json_object_set_new(prof, "io_handles", json_array());
    json_object_set_new(o, "profile", prof);
    return o;
}

static void step_key(char *k, size_t n, json_t *row)
{
    const char *st = json_string_value(json_object_get(row, "step"));
    snprintf(k, n, "%lld.%s", (long long)int_or(json_object_get(row, "job_id"), 0), st ? st : "");
}

/* job=J or workflow=W: {"format": "jobscreen-export", "version": 1, "jobs": [...], "truncated"}
 * (docs/api.md, export) */
static json_t *h_export(jsw_db *db, const struct jsw_request *req, int *status, char *err, size_t errlen)
{
    int64_t job = 0, wf = 0;
    bool has_job, has_wf;
    if (jsw_param_int(req, "job", 1, 4294967295LL, &job, &has_job, err, errlen) ||
        jsw_param_int(req, "workflow", 1, INT64_MAX, &wf, &has_wf, err, errlen)) {
        *status = 400;
        return NULL;
    }
    if (has_job == has_wf)
        FAIL(400, "give either 'job' (a job id) or 'workflow' (a workflow id)");
    int64_t limit = EXPORT_JOBS_MAX;
    if (req->max_rows > 0 && limit > req->max_rows)
        limit = req->max_rows;
    struct args a;
    args_init(&a, req);
    arg_int(&a, wf, has_wf);
    arg_int(&a, job, has_job);
    arg_int(&a, limit + 1, true);
    json_t *jobs = jsw_db_rows(db, "export_jobs", a.n, a.v, err, errlen);
    if (!jobs)
        DBFAIL();
    if (json_array_size(jobs) == 0) {
        json_decref(jobs);
        if (has_job)
            FAIL(404, "no job %lld of yours", (long long)job);
        FAIL(404, "no workflow %lld of yours", (long long)wf);
    }
    bool truncated = json_array_size(jobs) > (size_t)limit;
    if (truncated)
        json_array_remove(jobs, json_array_size(jobs) - 1);
    json_t *parts[3] = { NULL, NULL, NULL };
    static const char *const queries[3] = { "export_steps", "export_files", "export_summary" };
    for (int i = 0; i < 3; i++)
        if (!(parts[i] = jsw_db_rows(db, queries[i], a.n, a.v, err, errlen))) {
            for (int k = 0; k < i; k++)
                json_decref(parts[k]);
            json_decref(jobs);
            DBFAIL();
        }
    json_t *out = json_array(), *by_job = json_object(), *by_step = json_object(), *r;
    size_t i;
    char key[192];
    json_array_foreach(jobs, i, r) {
        json_t *o = export_job(r);
        snprintf(key, sizeof key, "%lld", (long long)int_or(json_object_get(r, "id"), 0));
        json_object_set(by_job, key, o);
        json_array_append_new(out, o);
    }
    json_array_foreach(parts[0], i, r) {
        snprintf(key, sizeof key, "%lld", (long long)int_or(json_object_get(r, "job_id"), 0));
        json_t *o = json_object_get(by_job, key);
        if (!o)
            continue; /* a job beyond the limit */
        json_t *st = export_step(r);
        step_key(key, sizeof key, r);
        json_object_set(by_step, key, st);
        json_array_append_new(json_object_get(o, "steps"), st);
    }
    json_array_foreach(parts[1], i, r) {
        step_key(key, sizeof key, r);
        json_t *prof = json_object_get(json_object_get(by_step, key), "profile");
        if (!json_is_object(prof))
            continue;
        json_t *h = json_object(), *layers = json_array();
        copy_field(h, "file", r, "path");
        copy_field(h, "scope", r, "scope");
        copy_field(h, "mode", r, "mode");
        const char *ls = json_string_value(json_object_get(r, "layers"));
        char buf[256];
        snprintf(buf, sizeof buf, "%s", ls ? ls : "");
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
            json_array_append_new(layers, json_string(t));
        json_object_set_new(h, "paradigms", layers);
        static const char *const counts[] = { "processes", "opens", "reads", "writes", "read_bytes", "write_bytes" };
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
            copy_field(h, counts[k], r, counts[k]);
        json_array_append_new(json_object_get(prof, "io_handles"), h);
    }
    json_array_foreach(parts[2], i, r) {
        step_key(key, sizeof key, r);
        json_t *prof = json_object_get(json_object_get(by_step, key), "profile");
        const char *m = json_string_value(json_object_get(r, "metric"));
        if (json_is_object(prof) && m)
            copy_field(json_object_get(prof, "summary"), m, r, "sum");
    }
    json_decref(by_job);
    json_decref(by_step);
    json_decref(jobs);
    for (int k = 0; k < 3; k++)
        json_decref(parts[k]);
    json_t *body = json_pack("{s:s,s:i,s:o,s:b}", "format", "jobscreen-export", "version", 1, "jobs", out, "truncated",
                             truncated);
    if (has_wf)
        json_object_set_new(body, "workflow", json_integer((json_int_t)wf));
    return body;
}

const struct jsw_route jsw_routes[] = {
    { "me", h_me, false },
    { "workflows", h_workflows, true },
    { "jobs", h_jobs, true },
    { "workflow", h_workflow, true },
    { "job", h_job, true },
    { "step", h_step, true },
    { "background", h_background, true },
    { "file", h_file, true },
    { "export", h_export, true },
    { NULL, NULL, false },
};

/* Checks common to every endpoint that queries, run before its handler. */
json_t *jsw_dispatch(const struct jsw_route *r, jsw_db *db, const struct jsw_request *req,
                     int *status, char *err, size_t errlen)
{
    if (r->needs_db && check_cluster(req, status, err, errlen))
        return NULL;
    return r->handler(db, req, status, err, errlen);
}

const struct jsw_route *jsw_route_find(const char *endpoint)
{
    for (const struct jsw_route *r = jsw_routes; r->name; r++)
        if (!strcmp(r->name, endpoint))
            return r;
    return NULL;
}
