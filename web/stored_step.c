/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A finished step's reply stored (docs/web.md, "Stored replies"; migration 052): the forms the
 * viewer asks (job, step, points, gpu_series; cluster= aside) are keyed by their parameters
 * written in one canonical way, with the process list's limit the CGI's configuration gives
 * (max_rows), so that a site whose limit differs from the keeper's computes instead. The
 * keeper computes them with the CGI's own handler (jsw_stored_compute_step). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "endpoints.h"

bool jsw_stored_step_key(const struct jsw_request *req, int64_t *job, const char **step, char *params, size_t n)
{
    static const char *const names[] = { "q", "cluster", "job", "step", "points", "gpu_series" };
    if (strcmp(req->endpoint, "step") != 0 || !jsw_stored_only(req, names, sizeof names / sizeof names[0]))
        return false; /* node= or anything else: computed */
    const char *g = jsw_param(req, "gpu_series");
    int64_t points = 0;
    int status;
    char err[128];
    if ((g && strcmp(g, "0") != 0 && strcmp(g, "1") != 0) || jsw_job_param(req, "job", job, &status, err, sizeof err) ||
        jsw_step_param(req, step, &status, err, sizeof err) ||
        jsw_param_int(req, "points", 10, 100000, &points, NULL, err, sizeof err))
        return false; /* the handler says why (400) */
    int w = snprintf(params, n, "step=%s&points=%lld&gpu_series=%s&rows=%lld", *step, (long long)points, g ? g : "0",
                     (long long)jsw_step_process_limit(req));
    return w > 0 && (size_t)w < n;
}

char *jsw_stored_compute_step(jsw_db *db, const struct jsw_stored_step *k, char params[JSW_STORED_PARAMS_MAX],
                              size_t *n, char etag[JSW_ETAG_LEN], int *status, char *err, size_t errlen)
{
    struct jsw_request *req = jsw_stored_request(k->viewer, "step");
    req->max_rows = k->max_rows;
    char job_id[24], points[16];
    snprintf(job_id, sizeof job_id, "%lld", (long long)k->job);
    snprintf(points, sizeof points, "%d", k->points);
    jsw_stored_param(req, 0, "cluster", k->cluster);
    jsw_stored_param(req, 1, "job", job_id);
    jsw_stored_param(req, 2, "step", k->step);
    jsw_stored_param(req, 3, "points", points);
    jsw_stored_param(req, 4, "gpu_series", k->gpu_series ? "1" : "0");
    int64_t job;
    const char *step;
    if (!jsw_stored_step_key(req, &job, &step, params, JSW_STORED_PARAMS_MAX)) {
        *status = 400;
        snprintf(err, errlen, "not a stored form of the step reply");
        return NULL;
    }
    return jsw_stored_compute(db, req, n, etag, status, err, errlen);
}

char *jsw_stored_compute_spread(jsw_db *db, const struct jsw_stored_step *k, char params[JSW_STORED_PARAMS_MAX],
                                size_t *n, int *status, char *err, size_t errlen)
{
    struct jsw_request *req = jsw_stored_request(k->viewer, "step");
    char job_id[24];
    snprintf(job_id, sizeof job_id, "%lld", (long long)k->job);
    jsw_stored_param(req, 0, "cluster", k->cluster);
    jsw_stored_param(req, 1, "job", job_id);
    jsw_stored_param(req, 2, "step", k->step);
    struct jsw_args a;
    *status = 200;
    json_t *s = jsw_step_row(db, req, k->job, k->step, &a, status, err, errlen);
    if (!s)
        return NULL;
    json_t *lo = json_object_get(s, "first_slice"), *hi = json_object_get(s, "last_slice");
    char *text = NULL;
    if (!json_is_integer(lo) || !json_is_integer(hi) || json_integer_value(hi) < json_integer_value(lo) ||
        !jsw_spread_key(params, JSW_STORED_PARAMS_MAX, k->step, json_integer_value(lo),
                        (size_t)(json_integer_value(hi) - json_integer_value(lo) + 1))) {
        *status = 404;
        snprintf(err, errlen, "no slices to spread");
    } else {
        struct jsw_text t = { 0 };
        size_t slices = (size_t)(json_integer_value(hi) - json_integer_value(lo) + 1);
        if (jsw_spread_text(&t, db, a.n, a.v, json_integer_value(lo), slices, 1, err, errlen) == 0)
            text = jsw_text_take(&t, n);
        jsw_text_free(&t);
        if (!text) {
            *status = 500;
            if (!*err)
                snprintf(err, errlen, "out of memory");
        }
    }
    json_decref(s);
    return text;
}
