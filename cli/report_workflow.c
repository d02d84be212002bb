/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal report of a workflow (report.h): the graph's compact reply as a list of jobs and
 * a count of its edges, and a workflow&by=name reply per job and step name. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "report_parts.h"

/* the index of name in the reply's list of field names (key), or -1 */
static int field(const json_t *reply, const char *key, const char *name)
{
    const json_t *names = json_object_get(reply, key), *v;
    size_t i;
    json_array_foreach(names, i, v) {
        if (json_string_value(v) && !strcmp(json_string_value(v), name))
            return (int)i;
    }
    return -1;
}

static double at(const json_t *rec, int i)
{
    json_t *v = i >= 0 ? json_array_get(rec, (size_t)i) : NULL;
    return json_is_number(v) ? json_number_value(v) : NAN;
}

void jsr_workflow(FILE *out, const json_t *reply, time_t now)
{
    const json_t *w = json_object_get(reply, "workflow"), *jobs = json_object_get(reply, "jobs"), *j;
    char name[48], user[32], cluster[32], b1[64], b2[64], b3[64];
    jsr_clean(name, sizeof name, jsr_str(w, "workflow"), 30, 1);
    jsr_clean(user, sizeof user, jsr_str(w, "user"), 24, 1);
    jsr_clean(cluster, sizeof cluster, jsr_str(w, "cluster"), 24, 1);
    fprintf(out, "Workflow %.0f \"%s\" of %s on %s: %.0f jobs, %.0f not completed\n", jsr_num(w, "id"), name, user,
            cluster, jsr_num(w, "jobs"), jsr_num(w, "jobs_not_ok"));
    double t0 = jsr_num(reply, "t0");
    jsr_time(b1, sizeof b1, jsr_num(w, "submit"));
    fprintf(out, JSR_LABEL "%s\n", "submitted", b1);
    if (isfinite(jsr_num(w, "start"))) {
        jsr_time(b1, sizeof b1, jsr_num(w, "start"));
        fprintf(out, JSR_LABEL "%s\n", "started", b1);
    }
    if (isfinite(jsr_num(w, "end")) && isfinite(jsr_num(w, "start"))) {
        jsr_time(b1, sizeof b1, jsr_num(w, "end"));
        jsr_duration(b2, sizeof b2, jsr_num(w, "end") - jsr_num(w, "start"));
        fprintf(out, JSR_LABEL "%s, %s after its first start\n", "ended", b1, b2);
    }
    int fid = field(reply, "job_fields", "id"), fname = field(reply, "job_fields", "name"),
        fstate = field(reply, "job_fields", "state"), fstart = field(reply, "job_fields", "start"),
        fend = field(reply, "job_fields", "end"), fsteps = field(reply, "job_fields", "steps"),
        farr = field(reply, "job_fields", "array_job_id"), ftask = field(reply, "job_fields", "array_task_id"),
        fsrt = field(reply, "step_fields", "runtime_ms");
    fprintf(out, "\nJobs       %-12s %-10s %-19s %10s %s\n", "name", "state", "start", "elapsed", "mostly");
    size_t i;
    json_array_foreach(jobs, i, j) {
        char id[32], jname[40], state[24], start[32], el[24], most[48] = "-";
        double arr = at(j, farr), task = at(j, ftask), st = at(j, fstart), en = at(j, fend);
        if (isfinite(arr) && isfinite(task))
            snprintf(id, sizeof id, "%.0f_%.0f", arr, task);
        else
            snprintf(id, sizeof id, "%.0f", at(j, fid));
        jsr_clean(jname, sizeof jname, json_string_value(json_array_get(j, (size_t)fname)), 12, 1);
        jsr_clean(state, sizeof state, json_string_value(json_array_get(j, (size_t)fstate)), 10, 1);
        if (isfinite(st))
            jsr_time(start, sizeof start, t0 + st / 1000);
        else
            snprintf(start, sizeof start, "-");
        if (isfinite(st))
            jsr_clock(el, sizeof el, (isfinite(en) ? en : ((double)now - t0) * 1000) / 1000 - st / 1000);
        else
            snprintf(el, sizeof el, "-");
        /* the runtime share of its steps: the largest category */
        double part[RT_N] = { 0 }, total = 0;
        const json_t *steps = json_array_get(j, (size_t)fsteps), *s;
        size_t k;
        static const int cat_of_field[] = { RT_COMPUTE, RT_MPI, RT_MPI, RT_IO, RT_IO, RT_IO, RT_MPI, RT_WAIT, RT_IDLE };
        json_array_foreach(steps, k, s) {
            const json_t *rt = json_array_get(s, (size_t)fsrt), *v;
            size_t c;
            json_array_foreach(rt, c, v) {
                if (c >= sizeof cat_of_field / sizeof cat_of_field[0] || !json_is_number(v))
                    continue;
                part[cat_of_field[c]] += json_number_value(v);
                total += json_number_value(v);
            }
        }
        if (total > 0) {
            int best = 0;
            for (int c = 1; c < RT_N; c++)
                if (part[c] > part[best])
                    best = c;
            snprintf(most, sizeof most, "%s %.0f%%", jsr_rt_label[best], 100.0 * part[best] / total);
        }
        fprintf(out, "  %-8s %-12s %-10s %-19s %10s %s\n", id, jname, state, start, el, most);
    }
    const json_t *edges = json_object_get(reply, "edges");
    size_t ns = json_array_size(json_object_get(edges, "scheduler")), nt = json_array_size(json_object_get(edges, "time")),
           nf = json_array_size(json_object_get(edges, "file"));
    snprintf(b3, sizeof b3, "%zu scheduler, %zu file, %zu time", ns, nf, nt);
    fprintf(out, "\nEdges: %s%s\n", b3, ns + nf + nt ? " (jobscreen JOBID names each job's)" : "");
}

void jsr_step_names(FILE *out, const json_t *rows)
{
    const json_t *r;
    size_t i;
    if (json_array_size(rows) == 0)
        return;
    fprintf(out, "\nPer job and step name\n  %-9s %-9s %4s %4s %10s %6s %9s %9s %9s\n", "job", "step", "jobs", "!ok",
            "time", "CPU", "peak mem", "read", "written");
    json_array_foreach(rows, i, r) {
        char job[40], step[40], t[24], eff[16], mem[16], rd[16], wr[16];
        jsr_clean(job, sizeof job, jsr_str(r, "job_name"), 9, 1);
        jsr_clean(step, sizeof step, jsr_str(r, "step_name"), 9, 1);
        if (isfinite(jsr_num(r, "elapsed_s")))
            jsr_clock(t, sizeof t, jsr_num(r, "elapsed_s"));
        else
            snprintf(t, sizeof t, "-");
        jsr_percent(eff, sizeof eff, jsr_num(r, "cpu_ns") / 1e9, jsr_num(r, "cpu_alloc_s"));
        if (jsr_num(r, "max_rss_kib") > 0)
            jsr_bytes(mem, sizeof mem, jsr_num(r, "max_rss_kib") * 1024);
        else
            snprintf(mem, sizeof mem, "-");
        jsr_bytes(rd, sizeof rd, isfinite(jsr_num(r, "read_bytes")) ? jsr_num(r, "read_bytes") : 0);
        jsr_bytes(wr, sizeof wr, isfinite(jsr_num(r, "write_bytes")) ? jsr_num(r, "write_bytes") : 0);
        fprintf(out, "  %-9s %-9s %4.0f %4.0f %10s %6s %9s %9s %9s\n", job, step, jsr_num(r, "jobs"), jsr_num(r, "not_completed"), t,
                eff, mem, rd, wr);
    }
}
