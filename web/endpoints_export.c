/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The export endpoint (docs/api.md, export): jobs in the shapes of the JobLog and its per-step
 * profile. */
#include "config.h"

#include <string.h>

#include "endpoints.h"

#define EXPORT_JOBS_MAX 5000 /* jobs per export (and max_rows) */

/* o[to] = row[from] (a new reference), JSON null when the row has none */
static void copy_field(json_t *o, const char *to, json_t *row, const char *from)
{
    json_t *v = json_object_get(row, from);
    json_object_set(o, to, v ? v : json_null());
}

static json_t *export_job(json_t *r)
{
    json_t *o = json_object();
    static const char *const table41[][2] = { { "JobId", "id" },        { "JobName", "name" },     { "StartTime", "start" },
                                              { "EndTime", "end" },     { "SubmitTime", "submit" }, { "NumNodes", "nodes" },
                                              { "NumCPUs", "cpus" },    { "NumTasks", "tasks" },   { "Dependency", "dependency" },
                                              { "ExitCode", "exit_code" } };
    for (size_t i = 0; i < sizeof table41 / sizeof table41[0]; i++)
        copy_field(o, table41[i][0], r, table41[i][1]);
    /* what jobscreen knows beyond the table, under names of its own */
    json_t *more = json_object();
    static const char *const extra[] = { "cluster", "user", "workflow_id", "workflow", "state", "reason", "eligible",
                                         "node_list", "partition", "account", "qos", "work_dir", "batch_script",
                                         "array_job_id", "array_task_id", "gpu_energy_j", "cpu_energy_j" };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        copy_field(more, extra[i], r, extra[i]);
    json_object_set_new(o, "jobscreen", more);
    json_object_set_new(o, "steps", json_array());
    return o;
}

static json_t *export_step(json_t *r)
{
    json_t *o = json_object();
    char id[160];
    snprintf(id, sizeof id, "%lld.%s", (long long)jsw_int_or(json_object_get(r, "job_id"), 0),
             json_string_value(json_object_get(r, "step")) ? json_string_value(json_object_get(r, "step")) : "");
    json_object_set_new(o, "JobID", json_string(id));
    static const char *const table42[][2] = { { "NNodes", "nodes" },     { "NCPUS", "cpus" },         { "Start", "start" },
                                              { "End", "end" },          { "Elapsed", "elapsed" },    { "JobName", "name" },
                                              { "NodeList", "node_list" }, { "ExitCode", "exit_code" }, { "State", "state" } };
    for (size_t i = 0; i < sizeof table42 / sizeof table42[0]; i++)
        copy_field(o, table42[i][0], r, table42[i][1]);
    jsw_export_step_gpus(o, r);
    if (!json_is_true(json_object_get(r, "profiled"))) {
        json_object_set_new(o, "profile", json_null());
        return o;
    }
    /* the per-step profile of the reference (metadata, runtime share, a summary of the calls,
     * the I/O handles), from what the profiler recorded */
    json_t *meta = json_object();
    copy_field(meta, "job_id", r, "job_id");
    copy_field(meta, "step", r, "step");
    copy_field(meta, "nodes", r, "nodes");
    copy_field(meta, "processes", r, "processes");
    copy_field(meta, "incomplete_reason", r, "incomplete_reason");
    json_object_set_new(meta, "clock_resolution_ns", json_integer(1));
    json_t *comm = json_object(), *io = json_object(), *share = json_object();
    copy_field(comm, "mpi_p2p_ns", r, "mpi_p2p_ns");
    copy_field(comm, "mpi_coll_ns", r, "mpi_coll_ns");
    copy_field(comm, "mpi_setup_ns", r, "mpi_setup_ns");
    copy_field(io, "posix_ns", r, "io_posix_ns");
    copy_field(io, "stdio_ns", r, "io_stdio_ns");
    copy_field(io, "mpiio_ns", r, "io_mpiio_ns");
    copy_field(share, "computation_ns", r, "compute_ns");
    json_object_set_new(share, "communication", comm);
    json_object_set_new(share, "io", io);
    copy_field(share, "cpu_wait_ns", r, "cpu_wait_ns");
    copy_field(share, "idle_ns", r, "idle_ns");
    json_t *prof = json_pack("{s:o,s:o}", "metadata", meta, "runtime_share", share);
    static const char *const sums[] = { "cpu_ns", "max_rss_kib", "read_bytes", "write_bytes" };
    for (size_t i = 0; i < sizeof sums / sizeof sums[0]; i++)
        copy_field(prof, sums[i], r, sums[i]);
    json_object_set_new(prof, "summary", json_object());
    json_object_set_new(prof, "io_handles", json_array());
    json_object_set_new(o, "profile", prof);
    return o;
}

/* An I/O handle of the per-step profile from an export_files row r */
static json_t *export_handle(json_t *r)
{
    json_t *h = json_object(), *layers = json_array();
    copy_field(h, "file", r, "path");
    copy_field(h, "scope", r, "scope");
    copy_field(h, "mode", r, "mode");
    const char *ls = json_string_value(json_object_get(r, "layers"));
    char buf[256];
    snprintf(buf, sizeof buf, "%s", ls ? ls : "");
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        json_array_append_new(layers, json_string(t));
    json_object_set_new(h, "paradigms", layers);
    static const char *const counts[] = { "processes", "opens", "reads", "writes", "read_bytes", "write_bytes" };
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
        copy_field(h, counts[k], r, counts[k]);
    return h;
}

static void step_key(char *k, size_t n, json_t *row)
{
    const char *st = json_string_value(json_object_get(row, "step"));
    snprintf(k, n, "%lld.%s", (long long)jsw_int_or(json_object_get(row, "job_id"), 0), st ? st : "");
}

/* job=J or workflow=W: {"format": "jobscreen-export", "version": 1, "jobs": [...], "truncated"}
 * (docs/api.md, export) */
json_t *jsw_h_export(jsw_db *db, const struct jsw_request *req, int *status, char *err, size_t errlen)
{
    int64_t job = 0, wf = 0;
    bool has_job, has_wf;
    if (jsw_param_int(req, "job", 1, 4294967295LL, &job, &has_job, err, errlen) ||
        jsw_param_int(req, "workflow", 1, INT64_MAX, &wf, &has_wf, err, errlen)) {
        *status = 400;
        return NULL;
    }
    if (has_job == has_wf)
        FAIL(400, "give either 'job' (a job id) or 'workflow' (a workflow id)");
    int64_t limit = EXPORT_JOBS_MAX;
    if (req->max_rows > 0 && limit > req->max_rows)
        limit = req->max_rows;
    struct jsw_args a;
    jsw_args_init(&a, req);
    jsw_arg_int(&a, wf, has_wf);
    jsw_arg_int(&a, job, has_job);
    jsw_arg_int(&a, limit + 1, true);
    json_t *jobs = jsw_db_rows(db, "export_jobs", a.n, a.v, err, errlen);
    if (!jobs)
        DBFAIL();
    if (json_array_size(jobs) == 0) {
        json_decref(jobs);
        if (has_job)
            FAIL(404, "no job %lld of yours", (long long)job);
        FAIL(404, "no workflow %lld of yours", (long long)wf);
    }
    bool truncated = json_array_size(jobs) > (size_t)limit;
    if (truncated)
        json_array_remove(jobs, json_array_size(jobs) - 1);
    json_t *parts[3] = { NULL, NULL, NULL };
    static const char *const queries[3] = { "export_steps", "export_files", "export_summary" };
    for (int i = 0; i < 3; i++)
        if (!(parts[i] = jsw_db_rows(db, queries[i], a.n, a.v, err, errlen))) {
            for (int k = 0; k < i; k++)
                json_decref(parts[k]);
            json_decref(jobs);
            DBFAIL();
        }
    json_t *out = json_array(), *by_job = json_object(), *by_step = json_object(), *r;
    size_t i;
    char key[192];
    json_array_foreach(jobs, i, r) {
        json_t *o = export_job(r);
        snprintf(key, sizeof key, "%lld", (long long)jsw_int_or(json_object_get(r, "id"), 0));
        json_object_set(by_job, key, o);
        json_array_append_new(out, o);
    }
    json_array_foreach(parts[0], i, r) {
        snprintf(key, sizeof key, "%lld", (long long)jsw_int_or(json_object_get(r, "job_id"), 0));
        json_t *o = json_object_get(by_job, key);
        if (!o)
            continue; /* a job beyond the limit */
        json_t *st = export_step(r);
        step_key(key, sizeof key, r);
        json_object_set(by_step, key, st);
        json_array_append_new(json_object_get(o, "steps"), st);
    }
    json_array_foreach(parts[1], i, r) {
        step_key(key, sizeof key, r);
        json_t *prof = json_object_get(json_object_get(by_step, key), "profile");
        if (!json_is_object(prof))
            continue;
        json_array_append_new(json_object_get(prof, "io_handles"), export_handle(r));
    }
    json_array_foreach(parts[2], i, r) {
        step_key(key, sizeof key, r);
        json_t *prof = json_object_get(json_object_get(by_step, key), "profile");
        const char *m = json_string_value(json_object_get(r, "metric"));
        if (json_is_object(prof) && m)
            copy_field(json_object_get(prof, "summary"), m, r, "sum");
    }
    json_decref(by_job);
    json_decref(by_step);
    json_decref(jobs);
    for (int k = 0; k < 3; k++)
        json_decref(parts[k]);
    json_t *body = json_pack("{s:s,s:i,s:o,s:b}", "format", "jobscreen-export", "version", 1, "jobs", out, "truncated",
                             truncated);
    if (has_wf)
        json_object_set_new(body, "workflow", json_integer((json_int_t)wf));
    return body;
}
