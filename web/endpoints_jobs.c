/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The lists and objects of docs/api.md: me, workflows, jobs, job (with its insights), file. */
#include "config.h"

#include <string.h>

#include "endpoints.h"

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

json_t *jsw_h_me(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                 size_t errlen)
{
    (void)db, (void)status, (void)err, (void)errlen;
    json_t *me = json_pack("{s:s,s:b,s:i}", "user", req->user, "admin", req->admin, "api_version", JSW_API_VERSION);
    /* the site's CO2 per kWh, for the viewer's energy figures: only where the site set it */
    if (me && req->co2_g_per_kwh >= 0)
        json_object_set_new(me, "co2_g_per_kwh", json_integer(req->co2_g_per_kwh));
    return me;
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
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_str(&a, owner);
    jsw_arg_int(&a, from, has_from);
    jsw_arg_int(&a, to, has_to);
    jsw_arg_str(&a, state);
    jsw_arg_str(&a, name);
    jsw_arg_str(&a, workflow);
    jsw_arg_int(&a, limit + 1, true);
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

json_t *jsw_h_workflows(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                        size_t errlen)
{
    return list(db, req, "workflows", status, err, errlen);
}

json_t *jsw_h_jobs(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                   size_t errlen)
{
    return list(db, req, "jobs", status, err, errlen);
}

/* One object by its id (param "id") with a list of its children: the job with its files, the
 * file with its accesses. The 404 message reads "no <row_query> <id><whose>". */
static json_t *object_with_list(jsw_db *db, const struct jsw_request *req, const char *row_query,
                                const char *list_query, const char *list_key, const char *whose,
                                int *status, char *err, size_t errlen)
{
    int64_t id;
    if (jsw_job_param(req, "id", &id, status, err, errlen))
        return NULL;
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, id, true);
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
int jsw_add_insights(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, json_t *steps,
                     char *err, size_t errlen)
{
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, job, true);
    jsw_arg_str(&a, step);
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
json_t *jsw_h_job(jsw_db *db, const struct jsw_request *req, int *status, char *err,
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
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, jsw_int_or(json_object_get(job, "id"), -1), true);
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
    if (insight && jsw_add_insights(db, req, jsw_int_or(json_object_get(job, "id"), -1), NULL,
                                    json_object_get(job, "steps"), err, errlen) < 0) {
        json_decref(body);
        DBFAIL();
    }
    return body;
}

json_t *jsw_h_file(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                   size_t errlen)
{
    return object_with_list(db, req, "file", "file_accesses", "accesses",
                            " that a job of yours accessed", status, err, errlen);
}
