/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parameters every query of the endpoints (endpoints*.c) starts with, and the parameter
 * checks more than one endpoint makes; below the endpoint files, calling none of them. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "endpoints.h"

/* The viewer ($1 name, $2 admin) and the cluster filter ($3: the optional parameter
 * cluster=NAME, validated by endpoints.c before any handler runs a query). Where the users
 * who log in are those of one cluster (users_cluster), a name is that cluster's user: a
 * non-admin sees that cluster only, and asking for another finds nothing ("" names no
 * cluster). */
void jsw_args_init(struct jsw_args *a, const struct jsw_request *req)
{
    const char *c = jsw_param(req, "cluster");
    if (!req->admin && req->users_cluster && req->users_cluster[0])
        c = !c || !strcmp(c, req->users_cluster) ? req->users_cluster : "";
    a->n = 0;
    a->v[a->n++] = req->user;
    a->v[a->n++] = req->admin ? "t" : "f";
    a->v[a->n++] = c;
}

void jsw_arg_str(struct jsw_args *a, const char *s) { a->v[a->n++] = s; }
void jsw_arg_int(struct jsw_args *a, int64_t n, bool present)
{
    if (!present) {
        a->v[a->n++] = NULL;
        return;
    }
    snprintf(a->buf[a->n], sizeof a->buf[a->n], "%lld", (long long)n);
    a->v[a->n] = a->buf[a->n];
    a->n++;
}

/* job=ID: a Slurm job id. */
int jsw_job_param(const struct jsw_request *req, const char *name, int64_t *job, int *status,
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

int jsw_step_param(const struct jsw_request *req, const char **step, int *status, char *err,
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

json_int_t jsw_int_or(json_t *v, json_int_t dflt)
{
    return json_is_integer(v) ? json_integer_value(v) : dflt;
}
