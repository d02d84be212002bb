/* The endpoints of docs/api.md. Every query gets the viewer as $1 (user name) and $2 (admin:
 * 't' or 'f') and filters by them itself, so that no endpoint can forget access control:
 * a user sees rows of their own jobs, an admin sees all. Another user's object is a 404,
 * exactly as if it did not exist. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static void args_init(struct args *a, const struct jsw_request *req)
{
    a->n = 0;
    a->v[a->n++] = req->user;
    a->v[a->n++] = req->admin ? "t" : "f";
    a->v[a->n++] = jsw_param(req, "cluster");
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

/* A workflow graph: its jobs with their steps, and its edges (scheduler, time, file) as the
 * view js.dependencies gives them. By workflow id, or by the id of one of its jobs. */
static json_t *h_workflow(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                          size_t errlen)
{
    int64_t id = 0, job = 0;
    bool has_id, has_job;
    if (jsw_param_int(req, "id", 1, INT64_MAX, &id, &has_id, err, errlen) ||
        jsw_param_int(req, "job", 1, 4294967295LL, &job, &has_job, err, errlen)) {
        *status = 400;
        return NULL;
    }
    if (has_id == has_job)
        FAIL(400, "give either 'id' (a workflow id) or 'job' (a job id)");
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
    json_t *jobs = jsw_db_rows(db, "workflow_jobs", a.n, a.v, err, errlen);
    json_t *edges = jobs ? jsw_db_rows(db, "workflow_edges", a.n, a.v, err, errlen) : NULL;
    if (!jobs || !edges) {
        json_decref(jobs);
        json_decref(info);
        DBFAIL();
    }
    return json_pack("{s:o,s:o,s:o}", "workflow", info, "jobs", jobs, "edges", edges);
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

static json_t *h_job(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                     size_t errlen)
{
    return object_with_list(db, req, "job", "job_files", "files", " of yours", status, err,
                            errlen);
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

static json_int_t int_or(json_t *v, json_int_t dflt)
{
    return json_is_integer(v) ? json_integer_value(v) : dflt;
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
 * live, its running step-nodes' provisional vectors too): 0, or -1 with err set. */
static int own_slices(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step,
                      const char *metric, bool live, json_t *s, struct jsw_slices *own, char *err,
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
        (live && jsw_slices_add_live(own, db, a.n - 1, a.v, err, errlen) < 0)) {
        jsw_slices_free(own);
        return -1;
    }
    return 0;
}

/* The step's slices with activity as the step page charts them: {slice, t, nodes, processes,
 * m: {metric: value, only those above 0}}, runs of slices summed when points asks for fewer
 * (then "slices" says how many; nodes and processes are the largest of the run). */
static json_t *step_slices_json(const struct jsw_slices *own, double len, int64_t points)
{
    json_t *out = json_array();
    size_t w = group_width(own->n, points);
    for (size_t i = 0; i < own->n; i += w) {
        int64_t nodes = 0, procs = 0, sum[JS_M_COUNT] = { 0 };
        size_t end = i + w < own->n ? i + w : own->n;
        for (size_t k = i; k < end; k++) {
            nodes = own->count[k] > nodes ? own->count[k] : nodes;
            procs = own->procs[k] > procs ? own->procs[k] : procs;
            for (int m = 0; m < JS_M_COUNT; m++)
                sum[m] += own->v[k * JS_M_COUNT + (size_t)m];
        }
        if (nodes == 0)
            continue; /* no activity */
        json_t *mo = json_object();
        for (int m = 0; m < JS_M_COUNT; m++)
            if (sum[m])
                json_object_set_new(mo, js_profile_metrics[m].name, json_integer(sum[m]));
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
    if (own_slices(db, req, job, step, NULL, json_is_true(json_object_get(s, "live")), s, &own, err, errlen) < 0) {
        json_decref(s);
        DBFAIL();
    }
    json_object_set_new(s, "slices", own.n ? step_slices_json(&own, (double)int_or(json_object_get(s, "slice_seconds"), 4), points)
                                           : json_array());
    jsw_slices_free(&own);
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
    int rc = own_slices(db, req, job, step, metric, false, s, &own, err, errlen);
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
