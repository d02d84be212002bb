/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The endpoints of docs/api.md: their table and the checks run before every handler. Every
 * query gets the viewer as $1 (user name) and $2 (admin: 't' or 'f') and filters by them
 * itself (endpoint_args.c), so that no endpoint can forget access control: a user sees rows
 * of their own jobs, an admin sees all. Another user's object is a 404, exactly as if it did
 * not exist. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "endpoints.h"

/* The dispatch table: every endpoint, by its name in docs/api.md. */
const struct jsw_route jsw_routes[] = {
    { "me", jsw_h_me, false, NULL },
    { "workflows", NULL, true, jsw_t_workflows },
    { "jobs", NULL, true, jsw_t_jobs },
    { "workflow", jsw_h_workflow, true, NULL },
    { "job", NULL, true, jsw_t_job },
    { "step", NULL, true, jsw_t_step },
    { "background", NULL, true, jsw_t_background },
    { "file", NULL, true, jsw_t_file },
    { "export", jsw_h_export, true, NULL },
    { NULL, NULL, false, NULL },
};

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

/* Checks common to every endpoint that queries, run before its handler; the reply as text
 * ending with a newline, as replies always did. */
char *jsw_dispatch(const struct jsw_route *r, jsw_db *db, const struct jsw_request *req, size_t *n,
                   int *status, char *err, size_t errlen)
{
    if (r->needs_db && check_cluster(req, status, err, errlen))
        return NULL;
    if (!r->text_handler) {
        json_t *body = r->handler(db, req, status, err, errlen);
        if (!body)
            return NULL;
        char *text = jsw_dump(body, n);
        if (!text) {
            *status = 500;
            snprintf(err, errlen, "could not encode the reply");
        }
        return text;
    }
    char *text = r->text_handler(db, req, n, status, err, errlen);
    if (!text)
        return NULL;
    if (*n == 0 || text[*n - 1] != '\n') {
        char *t = realloc(text, *n + 2);
        if (!t) {
            free(text);
            *status = 500;
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        text = t;
        text[(*n)++] = '\n';
        text[*n] = '\0';
    }
    return text;
}

const struct jsw_route *jsw_route_find(const char *endpoint)
{
    for (const struct jsw_route *r = jsw_routes; r->name; r++)
        if (!strcmp(r->name, endpoint))
            return r;
    return NULL;
}
