/* The endpoints of docs/api.md. Every query gets the viewer as $1 (user name) and $2 (admin:
 * 't' or 'f') and filters by them itself, so that no endpoint can forget access control:
 * a user sees rows of their own jobs, an admin sees all. Another user's object is a 404,
 * exactly as if it did not exist. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsweb.h"

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

/* Time edges: a job that started within this many seconds after another job of the workflow
 * ended is drawn as depending on it (dotted), unless a scheduler or file edge already links
 * the two. */
#define TIME_EDGE_MAX_GAP 300

struct args {
    const char *v[12];
    char buf[12][32];
    int n;
};

static void args_init(struct args *a, const struct jsw_request *req)
{
    a->n = 0;
    a->v[a->n++] = req->user;
    a->v[a->n++] = req->admin ? "t" : "f";
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

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : -1;
}

/* Dotted edges: for each job, the jobs of the workflow that ended at most TIME_EDGE_MAX_GAP
 * seconds before it started (the latest such end, and any within 1 s of it), unless a
 * scheduler or file edge already joins the pair. */
static void add_time_edges(json_t *jobs, json_t *edges)
{
    size_t n = json_array_size(jobs);
    for (size_t b = 0; b < n; b++) {
        json_t *jb = json_array_get(jobs, b);
        double start = num(jb, "start");
        if (start < 0)
            continue;
        double best = -1;
        for (size_t a = 0; a < n; a++) {
            double end = num(json_array_get(jobs, a), "end");
            if (a != b && end >= 0 && end <= start && start - end <= TIME_EDGE_MAX_GAP &&
                end > best)
                best = end;
        }
        if (best < 0)
            continue;
        json_int_t to = json_integer_value(json_object_get(jb, "id"));
        for (size_t a = 0; a < n; a++) {
            json_t *ja = json_array_get(jobs, a);
            double end = num(ja, "end");
            if (a == b || end < 0 || end > start || best - end > 1)
                continue;
            json_int_t from = json_integer_value(json_object_get(ja, "id"));
            bool linked = false;
            size_t i;
            json_t *e;
            json_array_foreach(edges, i, e) {
                json_int_t f = json_integer_value(json_object_get(e, "from_job"));
                json_int_t t = json_integer_value(json_object_get(e, "to_job"));
                if (f == from && t == to)
                    linked = true;
            }
            if (!linked)
                json_array_append_new(edges, json_pack("{s:s,s:I,s:I,s:{s:f}}", "kind", "time",
                                                       "from_job", from, "to_job", to, "evidence",
                                                       "gap_seconds", start - end));
        }
    }
}

static json_t *h_workflow(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                          size_t errlen)
{
    const char *name = NULL, *owner = NULL;
    int64_t job = 0;
    bool has_job;
    if (jsw_param_text(req, "name", &name, err, errlen) ||
        jsw_param_int(req, "job", 1, 4294967295LL, &job, &has_job, err, errlen)) {
        *status = 400;
        return NULL;
    }
    if (!name == !has_job)
        FAIL(400, "give either 'name' (a workflow tag) or 'job' (a job id)");
    struct args a;
    args_init(&a, req);
    if (has_job) {
        /* the job's workflow; a job without a tag is a workflow of its own */
        arg_int(&a, job, true);
        json_t *w = jsw_db_row(db, "job_workflow", a.n, a.v, err, errlen);
        if (!w)
            DBFAIL();
        if (json_is_null(w))
            FAIL(404, "no job %lld of yours", (long long)job);
        json_t *info = w;
        args_init(&a, req);
        arg_str(&a, json_string_value(json_object_get(info, "user")));
        arg_str(&a, json_string_value(json_object_get(info, "workflow")));
        arg_int(&a, job, true);
        json_t *g = NULL;
        json_t *jobs = jsw_db_rows(db, "workflow_jobs", a.n, a.v, err, errlen);
        json_t *edges = jobs ? jsw_db_rows(db, "workflow_edges", a.n, a.v, err, errlen) : NULL;
        if (jobs && edges) {
            add_time_edges(jobs, edges);
            g = json_pack("{s:O,s:o,s:o}", "workflow", info, "jobs", jobs, "edges", edges);
        } else {
            json_decref(jobs);
            *status = 500;
        }
        json_decref(info);
        return g;
    }
    if (owner_param(req, &owner, status, err, errlen))
        return NULL;
    if (!owner)
        FAIL(400, "parameter 'user' is required for an admin: workflow tags are per user");
    arg_str(&a, owner);
    arg_str(&a, name);
    json_t *info = jsw_db_row(db, "workflow", a.n, a.v, err, errlen);
    if (!info)
        DBFAIL();
    if (json_is_null(info))
        FAIL(404, "no workflow '%s' of %s", name, owner);
    arg_int(&a, 0, false);
    json_t *jobs = jsw_db_rows(db, "workflow_jobs", a.n, a.v, err, errlen);
    json_t *edges = jobs ? jsw_db_rows(db, "workflow_edges", a.n, a.v, err, errlen) : NULL;
    if (!jobs || !edges) {
        json_decref(jobs);
        json_decref(info);
        DBFAIL();
    }
    add_time_edges(jobs, edges);
    return json_pack("{s:o,s:o,s:o}", "workflow", info, "jobs", jobs, "edges", edges);
}

static json_t *h_job(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                     size_t errlen)
{
    int64_t job;
    if (job_param(req, "id", &job, status, err, errlen))
        return NULL;
    struct args a;
    args_init(&a, req);
    arg_int(&a, job, true);
    json_t *j = jsw_db_row(db, "job", a.n, a.v, err, errlen);
    if (!j)
        DBFAIL();
    if (json_is_null(j))
        FAIL(404, "no job %lld of yours", (long long)job);
    json_t *files = jsw_db_rows(db, "job_files", a.n, a.v, err, errlen);
    if (!files) {
        json_decref(j);
        DBFAIL();
    }
    json_object_set_new(j, "files", files);
    return json_pack("{s:o}", "job", j);
}

static json_t *h_step(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                      size_t errlen)
{
    int64_t job;
    const char *step;
    if (job_param(req, "job", &job, status, err, errlen) ||
        step_param(req, &step, status, err, errlen))
        return NULL;
    struct args a;
    args_init(&a, req);
    arg_int(&a, job, true);
    arg_str(&a, step);
    json_t *s = jsw_db_row(db, "step", a.n, a.v, err, errlen);
    if (!s)
        DBFAIL();
    if (json_is_null(s))
        FAIL(404, "no step %s of a job %lld of yours", step, (long long)job);
    static const char *const parts[][2] = { { "slices", "step_slices" },
                                            { "node_slices", "step_node_slices" },
                                            { "digest", "step_digest" },
                                            { "files", "step_files" } };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        json_t *rows = jsw_db_rows(db, parts[i][1], a.n, a.v, err, errlen);
        if (!rows) {
            json_decref(s);
            DBFAIL();
        }
        json_object_set_new(s, parts[i][0], rows);
    }
    return json_pack("{s:o}", "step", s);
}

static json_t *h_background(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                            size_t errlen)
{
    static const char *const scopes[] = { "cluster", "nodes", NULL };
    int64_t job, top = 0;
    bool has_top;
    const char *step, *scope = "cluster";
    if (job_param(req, "job", &job, status, err, errlen) ||
        step_param(req, &step, status, err, errlen))
        return NULL;
    if (jsw_param_enum(req, "scope", scopes, &scope, err, errlen) ||
        jsw_param_int(req, "top", 1, 50, &top, &has_top, err, errlen)) {
        *status = 400;
        return NULL;
    }
    if (has_top && !req->admin)
        FAIL(403, "parameter 'top': only admins see which jobs contributed to the background");
    struct args a;
    args_init(&a, req);
    arg_int(&a, job, true);
    arg_str(&a, step);
    json_t *s = jsw_db_row(db, "step_brief", a.n, a.v, err, errlen);
    if (!s)
        DBFAIL();
    if (json_is_null(s))
        FAIL(404, "no step %s of a job %lld of yours", step, (long long)job);
    json_t *slices = jsw_db_rows(db, strcmp(scope, "nodes") ? "background_cluster"
                                                              : "background_nodes",
                                 a.n, a.v, err, errlen);
    if (!slices) {
        json_decref(s);
        DBFAIL();
    }
    json_t *body = json_pack("{s:o,s:s,s:o}", "step", s, "scope", scope, "slices", slices);
    if (has_top) {
        arg_str(&a, scope);
        arg_int(&a, top, true);
        json_t *rows = jsw_db_rows(db, "background_top", a.n, a.v, err, errlen);
        if (!rows) {
            json_decref(body);
            DBFAIL();
        }
        json_object_set_new(body, "top", rows);
    }
    return body;
}

static json_t *h_file(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                      size_t errlen)
{
    int64_t id;
    if (job_param(req, "id", &id, status, err, errlen))
        return NULL;
    struct args a;
    args_init(&a, req);
    arg_int(&a, id, true);
    json_t *f = jsw_db_row(db, "file", a.n, a.v, err, errlen);
    if (!f)
        DBFAIL();
    if (json_is_null(f))
        FAIL(404, "no file %lld that a job of yours accessed", (long long)id);
    json_t *acc = jsw_db_rows(db, "file_accesses", a.n, a.v, err, errlen);
    if (!acc) {
        json_decref(f);
        DBFAIL();
    }
    json_object_set_new(f, "accesses", acc);
    return json_pack("{s:o}", "file", f);
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
    { NULL, NULL, false },
};

const struct jsw_route *jsw_route_find(const char *endpoint)
{
    for (const struct jsw_route *r = jsw_routes; r->name; r++)
        if (!strcmp(r->name, endpoint))
            return r;
    return NULL;
}
