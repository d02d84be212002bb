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
    if (strcmp(req->endpoint, "step") != 0)
        return false;
    static const char *const names[] = { "q", "cluster", "job", "step", "points", "gpu_series" };
    for (int i = 0; i < req->n_params; i++) {
        size_t k = 0;
        while (k < sizeof names / sizeof names[0] && strcmp(req->params[i].name, names[k]) != 0)
            k++;
        if (k == sizeof names / sizeof names[0])
            return false; /* node= or anything else: computed */
    }
    const char *c = jsw_param(req, "cluster"), *g = jsw_param(req, "gpu_series");
    int64_t points = 0;
    int status;
    char err[128];
    if ((c && !jsw_user_name_valid(c)) || (g && strcmp(g, "0") != 0 && strcmp(g, "1") != 0) ||
        jsw_job_param(req, "job", job, &status, err, sizeof err) ||
        jsw_step_param(req, step, &status, err, sizeof err) ||
        jsw_param_int(req, "points", 10, 100000, &points, NULL, err, sizeof err))
        return false; /* the handler says why (400) */
    int w = snprintf(params, n, "step=%s&points=%lld&gpu_series=%s&rows=%lld", *step, (long long)points,
                     g ? g : "0", (long long)jsw_step_process_limit(req));
    return w > 0 && (size_t)w < n;
}

char *jsw_stored_compute_step(jsw_db *db, const struct jsw_stored_step *k, char params[JSW_STORED_PARAMS_MAX],
                              size_t *n, char etag[JSW_ETAG_LEN], int *status, char *err, size_t errlen)
{
    static struct jsw_request req; /* large-ish: off the stack, as serve.c keeps it */
    memset(&req, 0, sizeof req);
    snprintf(req.user, sizeof req.user, "%s", k->viewer);
    snprintf(req.endpoint, sizeof req.endpoint, "step");
    req.users_cluster = "";
    req.max_rows = k->max_rows;
    const char *values[] = { k->cluster, NULL, k->step, NULL, k->gpu_series ? "1" : "0" };
    static const char *const names[] = { "cluster", "job", "step", "points", "gpu_series" };
    for (int i = 0; i < 5; i++) {
        snprintf(req.params[i].name, sizeof req.params[i].name, "%s", names[i]);
        if (values[i])
            snprintf(req.params[i].value, sizeof req.params[i].value, "%s", values[i]);
    }
    snprintf(req.params[1].value, sizeof req.params[1].value, "%lld", (long long)k->job);
    snprintf(req.params[3].value, sizeof req.params[3].value, "%d", k->points);
    req.n_params = 5;
    int64_t job;
    const char *step;
    if (!jsw_stored_step_key(&req, &job, &step, params, JSW_STORED_PARAMS_MAX)) {
        *status = 400;
        snprintf(err, errlen, "not a stored form of the step reply");
        return NULL;
    }
    *status = 200;
    char *text = jsw_dispatch(jsw_route_find("step"), db, &req, n, status, err, errlen);
    if (text)
        jsw_etag(text, *n, etag);
    else if (*status == 200)
        *status = 500;
    return text;
}
