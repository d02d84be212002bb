/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The workflow endpoint (docs/api.md, workflow): the graph, its step names, an edge's evidence. */
#include "config.h"

#include <stdlib.h>

#include <libpq-fe.h>

#include "endpoints.h"

/* --- the workflow graph (docs/api.md, workflow): arrays instead of objects with repeated keys,
 * only what the graph draws, times in integer milliseconds after t0 ------------------------- */

static const char *const wf_job_fields[] = { "id", "name", "state", "submit", "start", "end",
                                             "steps", "array_job_id", "array_task_id", NULL };
static const char *const wf_step_fields[] = { "step", "start", "end", "runtime_ms", "files", NULL };
/* the columns of workflow_steps from compute_ns on, in this order */
static const char *const wf_runtime_fields[] = { "compute", "mpi_p2p", "mpi_coll", "io_posix",
                                                 "io_stdio", "io_mpiio", "mpi_setup", "cpu_wait",
                                                 "idle", NULL };
static const char *const wf_file_modes[] = { "r", "rw", "w", NULL };

static json_t *wf_names(const char *const *names)
{
    json_t *a = json_array();
    for (; *names; names++)
        json_array_append_new(a, json_string(*names));
    return a;
}

static int wf_col(PGresult *r, const char *name)
{
    return PQfnumber(r, name);
}

static bool wf_null(PGresult *r, int row, int col) { return col < 0 || PQgetisnull(r, row, col); }

static long long wf_round(double v) { return (long long)(v < 0 ? v - 0.5 : v + 0.5); }

/* a time (epoch seconds, as extract(epoch) gives it) as integer ms after t0, or null */
static json_t *wf_time(PGresult *r, int row, int col, long long t0)
{
    if (wf_null(r, row, col))
        return json_null();
    return json_integer(wf_round((strtod(PQgetvalue(r, row, col), NULL) - (double)t0) * 1000.0));
}

static json_t *wf_int(PGresult *r, int row, int col)
{
    if (wf_null(r, row, col))
        return json_null();
    return json_integer(strtoll(PQgetvalue(r, row, col), NULL, 10));
}

static json_t *wf_str(PGresult *r, int row, int col)
{
    if (wf_null(r, row, col))
        return json_null();
    return json_string(PQgetvalue(r, row, col));
}

/* drop trailing nulls of a record (docs/api.md: left out, read as null) */
static void wf_trim_nulls(json_t *a)
{
    size_t n = json_array_size(a);
    while (n > 0 && json_is_null(json_array_get(a, n - 1)))
        json_array_remove(a, --n);
}

struct wf_job {
    long long id;
    json_t *steps; /* borrowed from the job's array */
};

static int wf_job_cmp(const void *a, const void *b)
{
    long long x = ((const struct wf_job *)a)->id, y = ((const struct wf_job *)b)->id;
    return (x > y) - (x < y);
}

/* the jobs of workflow_jobs, each [id, name, state, submit, start, end, steps, array_job_id,
 * array_task_id]; *index (sorted by id) finds a job's steps array */
static json_t *wf_jobs(PGresult *r, long long t0, struct wf_job **index, size_t *n_index)
{
    int rows = PQntuples(r);
    int c_id = wf_col(r, "id"), c_name = wf_col(r, "name"), c_state = wf_col(r, "state"),
        c_submit = wf_col(r, "submit"), c_start = wf_col(r, "start"), c_end = wf_col(r, "end"),
        c_aj = wf_col(r, "array_job_id"), c_at = wf_col(r, "array_task_id");
    json_t *jobs = json_array();
    struct wf_job *ix = calloc(rows ? (size_t)rows : 1, sizeof *ix);
    if (!ix) {
        json_decref(jobs);
        return NULL;
    }
    for (int i = 0; i < rows; i++) {
        json_t *steps = json_array();
        json_t *j = json_pack("[o,o,o,o,o,o,o,o,o]", wf_int(r, i, c_id), wf_str(r, i, c_name),
                              wf_str(r, i, c_state), wf_time(r, i, c_submit, t0),
                              wf_time(r, i, c_start, t0), wf_time(r, i, c_end, t0), steps,
                              wf_int(r, i, c_aj), wf_int(r, i, c_at));
        wf_trim_nulls(j);
        ix[i].id = strtoll(PQgetvalue(r, i, c_id), NULL, 10);
        ix[i].steps = steps;
        json_array_append_new(jobs, j);
    }
    qsort(ix, (size_t)rows, sizeof *ix, wf_job_cmp);
    *index = ix;
    *n_index = (size_t)rows;
    return jobs;
}

/* the rows of workflow_steps into their jobs: [step, start, end, runtime_ms, files?];
 * runtime_ms without its trailing zeros ([] = no profile), files [r, rw, w] only when some */
static void wf_steps(PGresult *r, long long t0, struct wf_job *ix, size_t n_ix)
{
    int rows = PQntuples(r);
    int c_job = wf_col(r, "job_id"), c_step = wf_col(r, "step"), c_start = wf_col(r, "start"),
        c_end = wf_col(r, "end"), c_rt = wf_col(r, "compute_ns"), c_files = wf_col(r, "r");
    for (int i = 0; i < rows; i++) {
        struct wf_job key = { .id = strtoll(PQgetvalue(r, i, c_job), NULL, 10) };
        struct wf_job *j = bsearch(&key, ix, n_ix, sizeof *ix, wf_job_cmp);
        if (!j)
            continue;
        long long rt[16];
        int n_rt = 0;
        for (int k = 0; wf_runtime_fields[k]; k++) {
            long long ns = wf_null(r, i, c_rt + k) ? 0 : strtoll(PQgetvalue(r, i, c_rt + k), NULL, 10);
            rt[k] = (ns + 500000) / 1000000;
            if (rt[k])
                n_rt = k + 1;
        }
        json_t *runtime = json_array();
        for (int k = 0; k < n_rt; k++)
            json_array_append_new(runtime, json_integer(rt[k]));
        json_t *s = json_pack("[o,o,o,o]", wf_str(r, i, c_step), wf_time(r, i, c_start, t0),
                              wf_time(r, i, c_end, t0), runtime);
        long long f[3], any = 0;
        for (int k = 0; k < 3; k++)
            any |= f[k] = wf_null(r, i, c_files + k) ? 0 : strtoll(PQgetvalue(r, i, c_files + k), NULL, 10);
        if (any)
            json_array_append_new(s, json_pack("[I,I,I]", (json_int_t)f[0], (json_int_t)f[1], (json_int_t)f[2]));
        json_array_append_new(j->steps, s);
    }
}

/* the rows of workflow_edges by kind: [from_job, to_job] or, with steps (file edges),
 * [from_job, to_job, from_step, to_step, files] */
static json_t *wf_edges(PGresult *r)
{
    int rows = PQntuples(r);
    int c_kind = wf_col(r, "kind"), c_from = wf_col(r, "from_job"), c_to = wf_col(r, "to_job"),
        c_fs = wf_col(r, "from_step"), c_ts = wf_col(r, "to_step"), c_n = wf_col(r, "files");
    json_t *edges = json_pack("{s:[],s:[],s:[]}", "scheduler", "time", "file");
    for (int i = 0; i < rows; i++) {
        const char *kind = PQgetvalue(r, i, c_kind);
        json_t *list = json_object_get(edges, kind);
        if (!list) {
            list = json_array();
            json_object_set_new(edges, kind, list);
        }
        json_t *e = json_pack("[o,o]", wf_int(r, i, c_from), wf_int(r, i, c_to));
        if (!wf_null(r, i, c_fs) || !wf_null(r, i, c_ts)) {
            json_array_append_new(e, wf_str(r, i, c_fs));
            json_array_append_new(e, wf_str(r, i, c_ts));
            json_array_append_new(e, wf_int(r, i, c_n));
        }
        json_array_append_new(list, e);
    }
    return edges;
}

/* The graph of workflow info (a: its query's parameters): t0, the field names, the jobs with
 * their steps, the edges. Takes info. */
static json_t *wf_graph(jsw_db *db, const struct jsw_args *a, json_t *info, int *status, char *err,
                        size_t errlen)
{
    /* t0: the first submit (else start), whole seconds */
    json_t *t = json_object_get(info, "submit");
    if (!json_is_number(t))
        t = json_object_get(info, "start");
    long long t0 = json_is_number(t) ? (long long)json_number_value(t) : 0;
    PGresult *rj = jsw_db_result(db, "workflow_jobs", a->n, a->v, err, errlen);
    if (!rj) {
        json_decref(info);
        DBFAIL();
    }
    struct wf_job *ix = NULL;
    size_t n_ix = 0;
    json_t *jobs = wf_jobs(rj, t0, &ix, &n_ix);
    PQclear(rj);
    PGresult *rs = jobs ? jsw_db_result(db, "workflow_steps", a->n, a->v, err, errlen) : NULL;
    if (!rs) {
        free(ix);
        json_decref(jobs);
        json_decref(info);
        if (!jobs)
            FAIL(500, "out of memory");
        DBFAIL();
    }
    wf_steps(rs, t0, ix, n_ix);
    PQclear(rs);
    free(ix);
    PGresult *re = jsw_db_result(db, "workflow_edges", a->n, a->v, err, errlen);
    if (!re) {
        json_decref(jobs);
        json_decref(info);
        DBFAIL();
    }
    json_t *edges = wf_edges(re);
    PQclear(re);
    return json_pack("{s:o,s:I,s:o,s:o,s:o,s:o,s:o,s:o}", "workflow", info, "t0", (json_int_t)t0,
                     "job_fields", wf_names(wf_job_fields), "step_fields", wf_names(wf_step_fields),
                     "runtime_fields", wf_names(wf_runtime_fields), "file_modes",
                     wf_names(wf_file_modes), "jobs", jobs, "edges", edges);
}

/* A workflow graph: its jobs with the steps the graph draws, and its edges (scheduler, time,
 * file) as the view js.dependencies gives them. By workflow id, or by the id of one of its
 * jobs. With from=J&to=K: the edges from job J to job K of the workflow with their evidence
 * (what the viewer shows when an edge is clicked). */
json_t *jsw_h_workflow(jsw_db *db, const struct jsw_request *req, int *status, char *err,
                       size_t errlen)
{
    int64_t id = 0, job = 0, from = 0, to = 0;
    bool has_id, has_job, has_from, has_to;
    if (jsw_param_int(req, "id", 1, INT64_MAX, &id, &has_id, err, errlen) ||
        jsw_param_int(req, "job", 1, 4294967295LL, &job, &has_job, err, errlen) ||
        jsw_param_int(req, "from", 1, 4294967295LL, &from, &has_from, err, errlen) ||
        jsw_param_int(req, "to", 1, 4294967295LL, &to, &has_to, err, errlen)) {
        *status = 400;
        return NULL;
    }
    if (has_id == has_job)
        FAIL(400, "give either 'id' (a workflow id) or 'job' (a job id)");
    if (has_from != has_to)
        FAIL(400, "give both 'from' and 'to' (job ids) or neither");
    static const char *const bys[] = { "name", NULL };
    const char *by = NULL;
    if (jsw_param_enum(req, "by", bys, &by, err, errlen)) {
        *status = 400;
        return NULL;
    }
    if (by && has_from)
        FAIL(400, "give 'by' or 'from'/'to', not both");
    struct jsw_args a;
    if (has_job) {
        jsw_args_init(&a, req);
        jsw_arg_int(&a, job, true);
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
    jsw_args_init(&a, req);
    jsw_arg_int(&a, id, true);
    json_t *info = jsw_db_row(db, "workflow", a.n, a.v, err, errlen);
    if (!info)
        DBFAIL();
    if (json_is_null(info))
        FAIL(404, "no workflow %lld of yours", (long long)id);
    if (by) {
        json_t *names = jsw_db_rows(db, "workflow_step_names", a.n, a.v, err, errlen);
        if (!names) {
            json_decref(info);
            DBFAIL();
        }
        json_t *body = json_pack("{s:O,s:o}", "workflow", json_object_get(info, "id"), "step_names", names);
        json_decref(info);
        return body;
    }
    if (has_from) {
        jsw_arg_int(&a, from, true);
        jsw_arg_int(&a, to, true);
        json_t *edges = jsw_db_rows(db, "workflow_edge_detail", a.n, a.v, err, errlen);
        if (!edges) {
            json_decref(info);
            DBFAIL();
        }
        json_t *wid = json_object_get(info, "id");
        json_t *body = json_pack("{s:O,s:I,s:I,s:o}", "workflow", wid, "from", (json_int_t)from,
                                 "to", (json_int_t)to, "edges", edges);
        json_decref(info);
        return body;
    }
    return wf_graph(db, &a, info, status, err, errlen);
}
