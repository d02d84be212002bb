/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stored replies (docs/web.md, "Stored replies"): what the serve side (stored.c) and the
 * keeper's computations (profile_ingest/replies*.c through stored_step.c and below) share: a
 * request of the stored forms recognised, and a reply computed as the CGI computes it, with
 * its ETag. Below stored.c and stored_step.c, so that neither calls the other back. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "endpoints.h"

bool jsw_stored_only(const struct jsw_request *req, const char *const *names, size_t n)
{
    for (int i = 0; i < req->n_params; i++) {
        size_t k = 0;
        while (k < n && strcmp(req->params[i].name, names[k]) != 0)
            k++;
        if (k == n)
            return false;
    }
    const char *c = jsw_param(req, "cluster");
    return !c || jsw_user_name_valid(c);
}

struct jsw_request *jsw_stored_request(const char *viewer, const char *endpoint)
{
    static struct jsw_request req; /* large-ish: off the stack, as serve.c keeps it */
    memset(&req, 0, sizeof req);
    snprintf(req.user, sizeof req.user, "%s", viewer);
    snprintf(req.endpoint, sizeof req.endpoint, "%s", endpoint);
    req.users_cluster = "";
    return &req;
}

void jsw_stored_param(struct jsw_request *req, int i, const char *name, const char *value)
{
    snprintf(req->params[i].name, sizeof req->params[i].name, "%s", name);
    snprintf(req->params[i].value, sizeof req->params[i].value, "%s", value);
    if (req->n_params <= i)
        req->n_params = i + 1;
}

char *jsw_stored_compute(jsw_db *db, const struct jsw_request *req, size_t *n, char etag[JSW_ETAG_LEN], int *status,
                         char *err, size_t errlen)
{
    *status = 200;
    char *text = jsw_dispatch(jsw_route_find(req->endpoint), db, req, n, status, err, errlen);
    if (text)
        jsw_etag(text, *n, etag);
    else if (*status == 200)
        *status = 500;
    return text;
}

char *jsw_stored_compute_workflow(jsw_db *db, const char *viewer, int64_t workflow, size_t *n, char etag[JSW_ETAG_LEN],
                                  int *status, char *err, size_t errlen)
{
    struct jsw_request *req = jsw_stored_request(viewer, "workflow");
    char id[24];
    snprintf(id, sizeof id, "%lld", (long long)workflow);
    jsw_stored_param(req, 0, "id", id);
    return jsw_stored_compute(db, req, n, etag, status, err, errlen);
}

char *jsw_stored_compute_job(jsw_db *db, const char *viewer, const char *cluster, int64_t job, size_t *n,
                             char etag[JSW_ETAG_LEN], int *status, char *err, size_t errlen)
{
    struct jsw_request *req = jsw_stored_request(viewer, "job");
    char id[24];
    snprintf(id, sizeof id, "%lld", (long long)job);
    jsw_stored_param(req, 0, "cluster", cluster);
    jsw_stored_param(req, 1, "id", id);
    return jsw_stored_compute(db, req, n, etag, status, err, errlen);
}

char *jsw_stored_compute_file(jsw_db *db, const char *viewer, const char *cluster, int64_t file,
                              char *params, size_t *n, char etag[JSW_ETAG_LEN], int *status,
                              char *err, size_t errlen)
{
    struct jsw_request *req = jsw_stored_request(viewer, "file");
    char id[24];
    snprintf(id, sizeof id, "%lld", (long long)file);
    jsw_stored_param(req, 0, "cluster", cluster);
    jsw_stored_param(req, 1, "id", id);
    int w = snprintf(params, JSW_STORED_PARAMS_MAX, "user=%s", viewer);
    if (w < 0 || w >= JSW_STORED_PARAMS_MAX) {
        *status = 400;
        snprintf(err, errlen, "user name too long to store under");
        return NULL;
    }
    return jsw_stored_compute(db, req, n, etag, status, err, errlen);
}
