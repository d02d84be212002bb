/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The background endpoint (docs/api.md, background): what other jobs did beside a step, per
 * slice, withheld from non-admins when too few jobs make it; for admins the top contributors. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "endpoints.h"
#include "profile_format.h"

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

/* The parameters of the queries over the step's span of slices in its scope: the viewer, job,
 * step, scope, first and last slice. */
static void span_args(struct jsw_args *a, const struct jsw_request *req, int64_t job, const char *step,
                      const char *scope, int64_t first, int64_t last)
{
    jsw_args_init(a, req);
    jsw_arg_int(a, job, true);
    jsw_arg_str(a, step);
    jsw_arg_str(a, scope);
    jsw_arg_int(a, first, true);
    jsw_arg_int(a, last, true);
}

/* The k jobs that contributed most to the metric in the step's background (admins): the CGI
 * ranks them from their series (background_rank), then reads their names and sums
 * (background_top). [{job, user, name, slices, steps, io_bytes, mpi_bytes, cpu_ns, value}] */
static json_t *top_contributors(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step,
                                const char *scope, const char *metric, int64_t first, int64_t last, int64_t k,
                                char *err, size_t errlen)
{
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, job, true);
    jsw_arg_str(&a, step);
    jsw_arg_str(&a, scope);
    jsw_arg_str(&a, metric);
    jsw_arg_int(&a, first, true);
    jsw_arg_int(&a, last, true);
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
    span_args(&a, req, job, step, scope, first, last);
    jsw_arg_str(&a, ids);
    json_t *rows = n ? jsw_db_rows(db, "background_top", a.n, a.v, err, errlen) : json_array();
    free(ids);
    json_t *out = rows ? json_array() : NULL;
    for (int i = 0; rows && i < n; i++) {
        size_t r;
        json_t *row;
        json_array_foreach(rows, r, row) {
            if (jsw_int_or(json_object_get(row, "job"), -1) != rank[i].job)
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

/* Other jobs a reply counts up to, from the first steps that began in the step's span: at
 * 10^6 jobs 30,000 other jobs ran beside a day-long step, and counting every one was most of
 * the background's CPU (35 ms). Past it, other_jobs says "at least" this many. */
#define BG_SOME_JOBS 50

/* The other jobs of the span (background_jobs; some: a lower bound, background_jobs_some over
 * the first `steps` steps): 0, or -1 (database). */
static int count_jobs(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, const char *scope,
                      int64_t first, int64_t last, int64_t steps, int64_t *jobs, char *err, size_t errlen)
{
    struct jsw_args a;
    span_args(&a, req, job, step, scope, first, last);
    if (steps) {
        jsw_arg_int(&a, steps, true);
        /* its generic plan, planned once a process: a custom one was planned each time (1.3 ms
         * of the 3 ms of database time a request, through js.steps' branches), PostgreSQL
         * costing the generic plan higher for its LIMIT $9 though both read the same index */
        jsw_db_generic_next();
    }
    json_t *r = jsw_db_row(db, steps ? "background_jobs_some" : "background_jobs", a.n, a.v, err, errlen);
    if (!r)
        return -1;
    *jobs = jsw_int_or(json_object_get(r, "jobs"), 0);
    json_decref(r);
    return 0;
}

/* A background drawn from fewer than background_min_jobs other jobs is theirs: per slice it
 * would show a neighbour's profile to a viewer who may not see that job. For non-admins the
 * series keeps the step's own values only, and "withheld" says why (issue 35); the count alone
 * is said (*jobs; *more: at least that many, when the first steps held enough of them).
 * 1 withheld (why set), 0 not, -1 (database). */
static int background_withheld(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step,
                               const char *scope, int64_t first, int64_t last, int64_t *jobs, bool *more, char *why,
                               size_t whylen, char *err, size_t errlen)
{
    int64_t some = req->background_min_jobs > BG_SOME_JOBS ? req->background_min_jobs : BG_SOME_JOBS;
    /* 4 steps a job: enough where most jobs have a step or two (the first steps may be one job's) */
    if (count_jobs(db, req, job, step, scope, first, last, 4 * some, jobs, err, errlen) < 0)
        return -1;
    *more = *jobs >= some;
    if (*more) {
        *jobs = some; /* the same number whichever steps came first */
        return 0;
    }
    if (count_jobs(db, req, job, step, scope, first, last, 0, jobs, err, errlen) < 0)
        return -1;
    if (*jobs == 0 || *jobs >= req->background_min_jobs) /* none: the background is zeros */
        return 0;
    snprintf(why, whylen, "only %lld other job%s ran beside this step%s (fewer than %d): per slice, the background would be %s "
             "profile, which is not shown", (long long)*jobs, *jobs == 1 ? "" : "s", !strcmp(scope, "nodes") ? " on its nodes" : "",
             req->background_min_jobs, *jobs == 1 ? "that job's" : "their");
    return 1;
}

/* The totals of the scope over the step's slices (series_cluster: $4 job $5 metric $6 .. $7
 * slices; series_nodes: the step too): 0, or -1 with err set. */
static int scope_slices(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, const char *scope,
                        const char *metric, const struct jsw_slices *own, struct jsw_slices *tot, char *err, size_t errlen)
{
    int64_t first = own->first, last = own->first + (int64_t)own->n - 1;
    if (jsw_slices_init(tot, first, last) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    bool nodes = !strcmp(scope, "nodes");
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, job, true);
    if (nodes)
        jsw_arg_str(&a, step);
    jsw_arg_str(&a, metric);
    jsw_arg_int(&a, first, true);
    jsw_arg_int(&a, last, true);
    if (jsw_slices_add(tot, db, nodes ? "series_nodes" : "series_cluster", a.n, a.v, err, errlen) < 0) {
        jsw_slices_free(tot);
        return -1;
    }
    return 0;
}

/* The reply's parameters, checked (400/403 with err set: -1). */
struct bg_query {
    int64_t job, top, points;
    bool has_top;
    const char *step, *scope, *metric;
};

static int bg_params(const struct jsw_request *req, struct bg_query *q, int *status, char *err, size_t errlen)
{
    static const char *const scopes[] = { "cluster", "nodes", NULL };
    *q = (struct bg_query){ .scope = "cluster" };
    if (jsw_job_param(req, "job", &q->job, status, err, errlen) || jsw_step_param(req, &q->step, status, err, errlen))
        return -1;
    *status = 400;
    if (jsw_param_enum(req, "scope", scopes, &q->scope, err, errlen) ||
        jsw_param_enum(req, "metric", metric_names(), &q->metric, err, errlen) ||
        jsw_param_int(req, "top", 1, 50, &q->top, &q->has_top, err, errlen) ||
        jsw_param_int(req, "points", 10, 100000, &q->points, NULL, err, errlen))
        return -1;
    if (q->has_top && !req->admin) {
        *status = 403;
        snprintf(err, errlen, "parameter 'top': only admins see which jobs contributed to the background");
        return -1;
    }
    return 0;
}

/* What follows the series: other_jobs and withheld (non-admins), top_metric and top (admins
 * with top=); 0, or -1 (database). */
static int bg_tail(struct jsw_text *t, jsw_db *db, const struct jsw_request *req, const struct bg_query *q,
                   const struct jsw_slices *own, int64_t jobs, bool more, const char *why, char *err, size_t errlen)
{
    if (!req->admin && own->n) {
        jsw_text_lit(t, ",\"other_jobs\":");
        jsw_text_int(t, jobs);
        if (more)
            jsw_text_lit(t, ",\"other_jobs_at_least\":true");
        if (why) {
            jsw_text_lit(t, ",\"withheld\":");
            jsw_text_str(t, why);
        }
    }
    if (!q->has_top)
        return 0;
    const char *m = q->metric ? q->metric : "cpu_ns";
    json_t *top = own->n ? top_contributors(db, req, q->job, q->step, q->scope, m, own->first,
                                            own->first + (int64_t)own->n - 1, q->top, err, errlen)
                         : json_array();
    if (!top)
        return -1;
    jsw_text_lit(t, ",\"top_metric\":");
    jsw_text_str(t, m);
    jsw_text_lit(t, ",\"top\":");
    jsw_text_json(t, top);
    json_decref(top);
    return 0;
}

char *jsw_t_background(jsw_db *db, const struct jsw_request *req, size_t *n, int *status, char *err, size_t errlen)
{
    struct bg_query q;
    if (bg_params(req, &q, status, err, errlen) < 0)
        return NULL;
    struct jsw_args a;
    json_t *s = jsw_step_row(db, req, q.job, q.step, &a, status, err, errlen);
    if (!s)
        return NULL;
    json_t *brief = json_pack("{s:O,s:O,s:O,s:O,s:O,s:O,s:O}", "job", json_object_get(s, "job"),
                              "step", json_object_get(s, "step"), "start",
                              json_object_get(s, "start"), "end", json_object_get(s, "end"),
                              "slice_seconds", json_object_get(s, "slice_seconds"), "nodes",
                              json_object_get(s, "node_names"), "cluster",
                              json_object_get(s, "cluster"));
    int64_t len = jsw_int_or(json_object_get(s, "slice_seconds"), 4);
    /* own: folded and queued, not the provisional rows of running step-nodes (the totals never
     * hold those) */
    struct jsw_slices own, tot = { 0 };
    int rc = jsw_own_slices(db, req, q.job, q.step, q.metric, false, false, s, &own, err, errlen);
    json_decref(s);
    int64_t jobs = 0;
    bool more = false;
    char why[256];
    int withheld = 0;
    if (rc == 0 && own.n)
        rc = scope_slices(db, req, q.job, q.step, q.scope, q.metric, &own, &tot, err, errlen);
    if (rc == 0 && own.n && !req->admin)
        rc = withheld = background_withheld(db, req, q.job, q.step, q.scope, own.first, own.first + (int64_t)own.n - 1,
                                            &jobs, &more, why, sizeof why, err, errlen);
    struct jsw_text t = { 0 };
    if (rc >= 0) {
        jsw_text_lit(&t, "{\"step\":");
        jsw_text_json(&t, brief);
        jsw_text_lit(&t, ",\"scope\":");
        jsw_text_str(&t, q.scope);
        jsw_text_lit(&t, ",\"series\":");
        /* a step without slices: the series and its arrays are empty */
        rc = jsw_background_series_text(&t, &own, &tot, metric_index(q.metric), withheld > 0, len,
                                        jsw_group_width(own.n, q.points));
    }
    if (rc >= 0)
        rc = bg_tail(&t, db, req, &q, &own, jobs, more, withheld > 0 ? why : NULL, err, errlen);
    jsw_text_lit(&t, "}");
    jsw_slices_free(&own);
    jsw_slices_free(&tot);
    json_decref(brief);
    char *text = rc >= 0 ? jsw_text_take(&t, n) : NULL;
    jsw_text_free(&t);
    if (!text) {
        *status = 500; /* err says why: the database's message, else memory */
        if (rc >= 0)
            snprintf(err, errlen, "out of memory");
    }
    return text;
}
