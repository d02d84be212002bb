/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The step endpoint (docs/api.md, step): a step with its slices, spread, digest, files,
 * processes, GPUs, insight and, with node=NAME, one node's slices. */
#include "config.h"

#include <string.h>

#include "endpoints.h"
#include "profile_format.h"

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

/* The slices of a chart: at most `points` groups of `width` consecutive slices (1 when the
 * step has no more slices than points, or points is 0). */
size_t jsw_group_width(size_t n, int64_t points)
{
    return points > 0 && n > (size_t)points ? (n + (size_t)points - 1) / (size_t)points : 1;
}

/* Decode a step's own slices (its folded series and its step-nodes queued for the fold; with
 * live, its running step-nodes' provisional vectors too; with kernel, the kernel's counts per
 * slice besides the metrics): 0, or -1 with err set. */
int jsw_own_slices(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step,
                   const char *metric, bool live, bool kernel, json_t *s, struct jsw_slices *own, char *err,
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
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, job, true);
    jsw_arg_str(&a, step);
    jsw_arg_str(&a, metric);
    if (jsw_slices_add(own, db, "series_own", a.n, a.v, err, errlen) < 0 ||
        (kernel && jsw_slices_add_kernel(own, db, a.n - 1, a.v, err, errlen) < 0) ||
        (live && jsw_slices_add_live(own, db, a.n - 1, a.v, err, errlen) < 0)) {
        jsw_slices_free(own);
        return -1;
    }
    return 0;
}

/* The step's slices with activity as the step page charts them: {slice, t, nodes, processes,
 * m: {metric: value, only those above 0}}, runs of slices summed when points asks for fewer
 * (then "slices" says how many; nodes and processes are the largest of the run). With the
 * kernel's counts, m has them too (kernel_rchar, ...) and unattributed_read_bytes /
 * unattributed_write_bytes: per slice the kernel's bytes beyond the wrappers' (posix, stdio,
 * lower), at least 0, as js.step_kernel_slices. */
static json_t *step_slices_json(const struct jsw_slices *own, double len, int64_t points)
{
    json_t *out = json_array();
    size_t w = jsw_group_width(own->n, points);
    for (size_t i = 0; i < own->n; i += w) {
        int64_t nodes = 0, procs = 0, sum[JS_M_COUNT] = { 0 }, kio[JS_KIO_COUNT] = { 0 }, unseen[2] = { 0 };
        size_t end = i + w < own->n ? i + w : own->n;
        for (size_t k = i; k < end; k++) {
            const int64_t *v = own->v + k * JS_M_COUNT;
            nodes = own->count[k] > nodes ? own->count[k] : nodes;
            procs = own->procs[k] > procs ? own->procs[k] : procs;
            for (int m = 0; m < JS_M_COUNT; m++)
                sum[m] += v[m];
            if (!own->kio)
                continue;
            const int64_t *kv = own->kio + k * JS_KIO_COUNT;
            for (int m = 0; m < JS_KIO_COUNT; m++)
                kio[m] += kv[m];
            int64_t r = kv[JS_KIO_RCHAR] - v[JS_M_POSIX_READ_BYTES] - v[JS_M_STDIO_READ_BYTES] - v[JS_M_LOWER_READ_BYTES];
            int64_t wr = kv[JS_KIO_WCHAR] - v[JS_M_POSIX_WRITE_BYTES] - v[JS_M_STDIO_WRITE_BYTES] - v[JS_M_LOWER_WRITE_BYTES];
            unseen[0] += r > 0 ? r : 0;
            unseen[1] += wr > 0 ? wr : 0;
        }
        if (nodes == 0)
            continue; /* no activity */
        json_t *mo = json_object();
        for (int m = 0; m < JS_M_COUNT; m++)
            if (sum[m])
                json_object_set_new(mo, js_profile_metrics[m].name, json_integer(sum[m]));
        for (int m = 0; m < JS_KIO_COUNT; m++)
            if (kio[m])
                json_object_set_new(mo, js_profile_slice_cols[JS_M_COUNT + m].name, json_integer(kio[m]));
        if (unseen[0])
            json_object_set_new(mo, "unattributed_read_bytes", json_integer(unseen[0]));
        if (unseen[1])
            json_object_set_new(mo, "unattributed_write_bytes", json_integer(unseen[1]));
        int64_t slice = own->first + (int64_t)i;
        json_t *row = json_pack("{s:I,s:f,s:I,s:I,s:o}", "slice", (json_int_t)slice, "t", (double)slice * len,
                                "nodes", (json_int_t)nodes, "processes", (json_int_t)procs, "m", mo);
        if (w > 1)
            json_object_set_new(row, "slices", json_integer((json_int_t)(end - i)));
        json_array_append_new(out, row);
    }
    return out;
}

/* The row of query "step" for job and step, with a holding its parameters ($4 job, $5 step), or
 * NULL with *status 500 (err: the database's message) or 404 (not a step of the viewer's). */
json_t *jsw_step_row(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, struct jsw_args *a,
                     int *status, char *err, size_t errlen)
{
    jsw_args_init(a, req);
    jsw_arg_int(a, job, true);
    jsw_arg_str(a, step);
    json_t *s = jsw_db_row(db, "step", a->n, a->v, err, errlen);
    if (!s)
        DBFAIL();
    if (json_is_null(s))
        FAIL(404, "no step %s of a job %lld of yours", step, (long long)job);
    return s;
}

#define STEP_PROCESSES_MAX 1000 /* processes listed by the step endpoint */

json_t *jsw_h_step(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                   size_t errlen)
{
    int64_t job;
    const char *step, *node = jsw_param(req, "node");
    if (jsw_job_param(req, "job", &job, status, err, errlen) ||
        jsw_step_param(req, &step, status, err, errlen))
        return NULL;
    if (node && !node_name_valid(node))
        FAIL(400, "parameter 'node': not a valid node name");
    struct jsw_args a;
    json_t *s = jsw_step_row(db, req, job, step, &a, status, err, errlen);
    if (!s)
        return NULL;
    int64_t points = 0;
    if (jsw_param_int(req, "points", 10, 100000, &points, NULL, err, errlen)) {
        json_decref(s);
        *status = 400;
        return NULL;
    }
    struct jsw_slices own;
    if (jsw_own_slices(db, req, job, step, NULL, json_is_true(json_object_get(s, "live")), true, s, &own, err, errlen) < 0) {
        json_decref(s);
        DBFAIL();
    }
    double len = (double)jsw_int_or(json_object_get(s, "slice_seconds"), 4);
    json_object_set_new(s, "slices", own.n ? step_slices_json(&own, len, points) : json_array());
    /* the spread of its processes, in the same runs of slices */
    json_t *spread = own.n ? jsw_step_spread(db, a.n, a.v, own.first, own.first + (int64_t)own.n - 1, len,
                                             jsw_group_width(own.n, points), err, errlen)
                           : json_array();
    jsw_slices_free(&own);
    if (!spread) {
        json_decref(s);
        DBFAIL();
    }
    json_object_set_new(s, "spread", spread);
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
    struct jsw_args pa = a;
    jsw_arg_int(&pa, limit + 1, true);
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
    int grc = jsw_step_gpus(db, req, s, a.n, a.v, err, errlen);
    if (grc < 0) {
        json_decref(s);
        *status = grc == -2 ? 400 : 500; /* err says why */
        return NULL;
    }
    /* its insight (null until the ingest computed it) and advice */
    json_t *one = json_pack("[O]", s);
    int rc = jsw_add_insights(db, req, job, step, one, err, errlen);
    json_decref(one);
    if (rc < 0) {
        json_decref(s);
        DBFAIL();
    }
    if (node) {
        jsw_arg_str(&a, node);
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
