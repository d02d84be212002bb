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

/* Per slice of the step (idle ones included): {slice, t, own: {metric...}, others:
 * {metric...}, other_step_nodes}: others is the total of the scope less the step's own, never
 * below 0 (a total may lag a step-node ingested a moment ago); runs of slices summed as in
 * step_slices_json (other_step_nodes the largest of the run). */
static json_t *background_json(const struct jsw_slices *own, const struct jsw_slices *tot, int only,
                               double len, int64_t points)
{
    json_t *out = json_array();
    size_t w = jsw_group_width(own->n, points);
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

/* A background drawn from fewer than background_min_jobs other jobs is theirs: per slice it
 * would show a neighbour's profile to a viewer who may not see that job. For non-admins the
 * slices keep the step's own values only, and "withheld" says why (issue 35); the count alone
 * is said. 0, or -1 (database). */
static int withhold_background(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, const char *scope,
                               int64_t first, int64_t last, json_t *body, char *err, size_t errlen)
{
    struct jsw_args a;
    span_args(&a, req, job, step, scope, first, last);
    json_t *r = jsw_db_row(db, "background_jobs", a.n, a.v, err, errlen);
    if (!r)
        return -1;
    int64_t jobs = jsw_int_or(json_object_get(r, "jobs"), 0);
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

json_t *jsw_h_background(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                         size_t errlen)
{
    static const char *const scopes[] = { "cluster", "nodes", NULL };
    int64_t job, top = 0, points = 0;
    bool has_top;
    const char *step, *scope = "cluster", *metric = NULL;
    if (jsw_job_param(req, "job", &job, status, err, errlen) ||
        jsw_step_param(req, &step, status, err, errlen))
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
    struct jsw_args a;
    json_t *s = jsw_step_row(db, req, job, step, &a, status, err, errlen);
    if (!s)
        return NULL;
    json_t *brief = json_pack("{s:O,s:O,s:O,s:O,s:O,s:O,s:O}", "job", json_object_get(s, "job"),
                              "step", json_object_get(s, "step"), "start",
                              json_object_get(s, "start"), "end", json_object_get(s, "end"),
                              "slice_seconds", json_object_get(s, "slice_seconds"), "nodes",
                              json_object_get(s, "node_names"), "cluster",
                              json_object_get(s, "cluster"));
    double len = (double)jsw_int_or(json_object_get(s, "slice_seconds"), 4);
    /* own: folded and queued, not the provisional rows of running step-nodes (the totals never
     * hold those) */
    struct jsw_slices own, tot;
    int rc = jsw_own_slices(db, req, job, step, metric, false, false, s, &own, err, errlen);
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
        jsw_args_init(&a, req);
        jsw_arg_int(&a, job, true);
        if (nodes)
            jsw_arg_str(&a, step);
        jsw_arg_str(&a, metric);
        jsw_arg_int(&a, first, true);
        jsw_arg_int(&a, last, true);
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
