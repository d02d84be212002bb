/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal report of a job (report.h, jsr_job): its header, resources, steps, GPUs,
 * insight (report_insight.c), files, edges and warnings. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_parts.h"

/* the ns of a runtime object summed per category (report_parts.h); their total */
static double runtime_parts(const json_t *rt, double part[RT_N])
{
    static const struct {
        const char *key;
        int cat;
    } keys[] = { { "compute_ns", RT_COMPUTE }, { "mpi_p2p_ns", RT_MPI },   { "mpi_coll_ns", RT_MPI },
                 { "mpi_setup_ns", RT_MPI },   { "io_posix_ns", RT_IO },   { "io_stdio_ns", RT_IO },
                 { "io_mpiio_ns", RT_IO },     { "cpu_wait_ns", RT_WAIT }, { "idle_ns", RT_IDLE } };
    double total = 0;
    memset(part, 0, RT_N * sizeof *part);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        double v = jsr_num(rt, keys[i].key);
        if (isfinite(v) && v > 0) {
            part[keys[i].cat] += v;
            total += v;
        }
    }
    return total;
}

/* "compute 70.1%, MPI 20.0%, I/O 8.0%" (categories of at least 0.1%), or "-" without a profile */
static void shares_text(char *buf, size_t n, const double part[RT_N], double total)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int c = 0; c < RT_N && total > 0; c++) {
        if (part[c] / total < 0.0005)
            continue;
        int w = snprintf(buf + o, n - o, "%s%s %.1f%%", o ? ", " : "", jsr_rt_label[c], 100.0 * part[c] / total);
        if (w < 0 || (size_t)w >= n - o)
            break;
        o += (size_t)w;
    }
    if (!o)
        snprintf(buf, n, "-");
}

/* a job's id as users write it: ID, or ARRAYID_TASK for an array task */
static void job_name_id(char *buf, size_t n, const json_t *job, double id)
{
    double aj = jsr_num(job, "array_job_id"), at = jsr_num(job, "array_task_id");
    if (isfinite(aj) && isfinite(at))
        snprintf(buf, n, "%.0f_%.0f", aj, at);
    else
        snprintf(buf, n, "%.0f", id);
}

static void job_header(FILE *out, const json_t *job, time_t now)
{
    char id[48], name[48], user[40], cluster[40], state[32], reason[48], b1[64], b2[64];
    job_name_id(id, sizeof id, job, jsr_num(job, "id"));
    jsr_clean(name, sizeof name, jsr_str(job, "name"), 30, 1);
    jsr_clean(user, sizeof user, jsr_str(job, "user"), 24, 1);
    jsr_clean(cluster, sizeof cluster, jsr_str(job, "cluster"), 24, 1);
    jsr_clean(state, sizeof state, jsr_str(job, "state") ? jsr_str(job, "state") : "UNKNOWN", 20, 1);
    fprintf(out, "Job %s \"%s\" of %s on %s: %s", id, name, user, cluster, state);
    double ec = jsr_num(job, "exit_code");
    if (isfinite(ec) && isfinite(jsr_num(job, "end")))
        fprintf(out, ", exit code %.0f", ec);
    fputc('\n', out);
    if (jsr_str(job, "reason") && strcmp(jsr_str(job, "reason"), "None")) {
        jsr_clean(reason, sizeof reason, jsr_str(job, "reason"), 40, 1);
        fprintf(out, JSR_LABEL "%s\n", "reason", reason);
    }
    if (isfinite(jsr_num(job, "workflow_id"))) {
        jsr_clean(b1, sizeof b1, jsr_str(job, "workflow"), 40, 1);
        fprintf(out, JSR_LABEL "%s (jobscreen -w %.0f)\n", "workflow", b1, jsr_num(job, "workflow_id"));
    }
    double submit = jsr_num(job, "submit"), start = jsr_num(job, "start"), end = jsr_num(job, "end");
    jsr_time(b1, sizeof b1, submit);
    fprintf(out, JSR_LABEL "%s\n", "submitted", b1);
    if (isfinite(start)) {
        double eligible = jsr_num(job, "eligible");
        jsr_time(b1, sizeof b1, start);
        jsr_duration(b2, sizeof b2, isfinite(submit) ? start - submit : 0);
        fprintf(out, JSR_LABEL "%s, after %s waiting", "started", b1, b2);
        /* a job held back (a dependency, a hold, a begin time): its wait in the queue proper */
        if (isfinite(eligible) && isfinite(submit) && eligible - submit >= 1 && start >= eligible) {
            jsr_duration(b2, sizeof b2, start - eligible);
            fprintf(out, " (%s once eligible)", b2);
        }
        fputc('\n', out);
    } else {
        fprintf(out, JSR_LABEL "not yet (never, if it was cancelled first)\n", "started");
    }
    if (isfinite(start) && isfinite(end)) {
        jsr_time(b1, sizeof b1, end);
        jsr_duration(b2, sizeof b2, jsr_elapsed_of(job, now));
        /* Slurm's whole seconds: a job of 0.4 s starts and ends in one */
        fprintf(out, JSR_LABEL "%s, after %s\n", "ended", b1, jsr_elapsed_of(job, now) > 0 ? b2 : "less than a second");
    } else if (isfinite(start)) {
        jsr_duration(b2, sizeof b2, (double)now - start);
        fprintf(out, JSR_LABEL "for %s (the figures below are so far)\n", "running", b2);
    }
}

/* Where the kernel counted more written than the wrappers saw (stdio inlined into the program
 * such as putchar_unlocked, raw system calls, sockets), a file's figures may be short: say so */
static void unattributed_line(FILE *out, const json_t *u)
{
    double w = jsr_num(u, "unattributed_write_bytes");
    if (!(w > 0))
        return;
    char b[32], text[384];
    jsr_bytes(b, sizeof b, w);
    snprintf(text, sizeof text,
             "%s written that the kernel counted beyond what the profiler's wrappers saw (stdio inlined into the "
             "program such as putchar_unlocked, raw system calls, sockets): a file's figures may be short by as much",
             b);
    fprintf(out, JSR_LABEL, "unseen I/O");
    jsr_wrap(out, 13, 13, text);
}

static void job_resources(FILE *out, const json_t *job, time_t now)
{
    char nodes[48], part[32], acct[32], qos[32], b1[64], b2[64], b3[64];
    jsr_clean(nodes, sizeof nodes, jsr_str(job, "node_list"), 20, 1);
    jsr_clean(part, sizeof part, jsr_str(job, "partition"), 12, 1);
    jsr_clean(acct, sizeof acct, jsr_str(job, "account"), 12, 1);
    jsr_clean(qos, sizeof qos, jsr_str(job, "qos"), 10, 1);
    fprintf(out, JSR_LABEL "%.0f node%s%s%s%s, %.0f CPU%s\n", "resources", jsr_num(job, "nodes"), jsr_num(job, "nodes") == 1 ? "" : "s",
            nodes[0] ? " (" : "", nodes, nodes[0] ? ")" : "", jsr_num(job, "cpus"), jsr_num(job, "cpus") == 1 ? "" : "s");
    fprintf(out, JSR_LABEL "partition %s%s%s%s%s\n", "queue", part[0] ? part : "-", qos[0] ? ", QOS " : "", qos,
            acct[0] ? ", account " : "", acct);
    const json_t *u = json_object_get(job, "usage");
    double elapsed = jsr_elapsed_of(job, now), cpus = jsr_num(job, "cpus"), cpu_ns = jsr_num(u, "cpu_ns");
    if (!(jsr_num(u, "profiled_steps") > 0)) {
        if (isfinite(jsr_num(job, "end")))
            fprintf(out, JSR_LABEL "no profile: none of its steps was profiled (srun --no-profile?)\n", "CPU");
        else
            fprintf(out, JSR_LABEL "no profile yet: its steps report while they run and at their end\n", "CPU");
        return;
    }
    jsr_percent(b1, sizeof b1, cpu_ns / 1e9, elapsed * cpus);
    jsr_duration(b2, sizeof b2, cpu_ns / 1e9);
    jsr_duration(b3, sizeof b3, elapsed);
    if (elapsed > 0)
        fprintf(out, JSR_LABEL "efficiency %s: %s of CPU time in %.0f CPU%s x %s\n", "CPU", b1, b2, cpus, cpus == 1 ? "" : "s",
                b3);
    else /* Slurm's times are whole seconds: a job of 0.4 s starts and ends in one */
        fprintf(out, JSR_LABEL "%s of CPU time; no efficiency: under a second by Slurm's clock\n", "CPU", b2);
    double rss = jsr_num(u, "max_rss_kib");
    if (rss > 0) {
        jsr_bytes(b1, sizeof b1, rss * 1024);
        fprintf(out, JSR_LABEL "peak %s (its largest process)\n", "memory", b1);
    } else {
        fprintf(out, JSR_LABEL "not measured\n", "memory");
    }
    jsr_bytes(b1, sizeof b1, jsr_num(u, "read_bytes"));
    jsr_bytes(b2, sizeof b2, jsr_num(u, "write_bytes"));
    fprintf(out, JSR_LABEL "read %s, written %s\n", "I/O", b1, b2);
    unattributed_line(out, u);
    double parts[RT_N], total = runtime_parts(json_object_get(job, "runtime"), parts);
    char shares[160];
    shares_text(shares, sizeof shares, parts, total);
    fprintf(out, JSR_LABEL "%s\n", "runtime", shares);
}

static void job_steps(FILE *out, const json_t *job, time_t now)
{
    const json_t *steps = json_object_get(job, "steps"), *s;
    size_t i;
    if (json_array_size(steps) == 0) {
        fprintf(out, "\nSteps: none recorded%s\n", isfinite(jsr_num(job, "end")) ? "" : " yet");
        return;
    }
    fprintf(out, "\nSteps  %-11s %-10s %10s %6s %9s %9s %9s\n", "name", "state", "elapsed", "CPU", "peak mem",
            "read", "written");
    json_array_foreach(steps, i, s) {
        const char *id = jsr_str(s, "step");
        if (id && !strcmp(id, "extern"))
            continue; /* Slurm's own step: no work of the job */
        char sid[16], name[40], state[24], el[24], eff[16], mem[16], rd[16], wr[16];
        jsr_clean(sid, sizeof sid, id, 6, 1);
        jsr_clean(name, sizeof name, jsr_str(s, "name"), 11, 1);
        jsr_clean(state, sizeof state, jsr_str(s, "state") ? jsr_str(s, "state") : "RUNNING", 10, 1);
        double elapsed = jsr_elapsed_of(s, now);
        if (isfinite(elapsed) && elapsed < 10) /* a step's times are exact: "380 ms", not 00:00:00 */
            jsr_duration(el, sizeof el, elapsed);
        else if (isfinite(elapsed))
            jsr_clock(el, sizeof el, elapsed);
        else
            snprintf(el, sizeof el, "-");
        bool profiled = json_is_true(json_object_get(s, "profiled"));
        if (profiled) {
            jsr_percent(eff, sizeof eff, jsr_num(s, "cpu_ns") / 1e9, elapsed * jsr_num(s, "cpus"));
            if (jsr_num(s, "max_rss_kib") > 0)
                jsr_bytes(mem, sizeof mem, jsr_num(s, "max_rss_kib") * 1024);
            else
                snprintf(mem, sizeof mem, "-");
            jsr_bytes(rd, sizeof rd, jsr_num(s, "read_bytes"));
            jsr_bytes(wr, sizeof wr, jsr_num(s, "write_bytes"));
        } else {
            snprintf(eff, sizeof eff, "-");
            snprintf(mem, sizeof mem, "-");
            snprintf(rd, sizeof rd, "no");
            snprintf(wr, sizeof wr, "profile");
        }
        fprintf(out, "  %-6s %-11s %-10s %10s %6s %9s %9s %9s\n", sid, name, state, el, eff, mem, rd, wr);
    }
    /* the runtime share of each profiled step, and what is missing of it */
    bool header = false;
    json_array_foreach(steps, i, s) {
        double parts[RT_N], total = runtime_parts(json_object_get(s, "runtime"), parts);
        if (!(total > 0))
            continue;
        if (!header) {
            fprintf(out, "\nRuntime share (of its processes' time)\n");
            header = true;
        }
        char sid[16], shares[160];
        jsr_clean(sid, sizeof sid, jsr_str(s, "step"), 6, 1);
        shares_text(shares, sizeof shares, parts, total);
        fprintf(out, "  %-6s %s\n", sid, shares);
    }
    header = false;
    json_array_foreach(steps, i, s) {
        if (!jsr_str(s, "incomplete_reason"))
            continue;
        if (!header) {
            fprintf(out, "\nIncomplete\n");
            header = true;
        }
        char sid[16], why[JSR_WIDTH];
        jsr_clean(sid, sizeof sid, jsr_str(s, "step"), 6, 1);
        jsr_clean(why, sizeof why, jsr_str(s, "incomplete_reason"), JSR_WIDTH - 11, 1);
        fprintf(out, "  step %-3s %s\n", sid, why);
    }
}

static double file_bytes(const json_t *f)
{
    double r = jsr_num(f, "read_bytes"), w = jsr_num(f, "write_bytes");
    return (isfinite(r) ? r : 0) + (isfinite(w) ? w : 0);
}

static int by_bytes(const void *a, const void *b)
{
    double x = file_bytes(*(json_t *const *)a), y = file_bytes(*(json_t *const *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

#define TOP_FILES 5

static void job_files(FILE *out, const json_t *job)
{
    const json_t *files = json_object_get(job, "files");
    size_t n = json_array_size(files);
    if (n == 0) {
        fprintf(out, "\nFiles: none recorded\n");
        return;
    }
    json_t **sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return;
    for (size_t i = 0; i < n; i++)
        sorted[i] = json_array_get(files, i);
    qsort(sorted, n, sizeof *sorted, by_bytes);
    size_t shown = n < TOP_FILES ? n : TOP_FILES;
    /* the reply lists at most 1,000 (the most bytes first); files_total counts all */
    double total = jsr_num(job, "files_total");
    size_t all = total > (double)n ? (size_t)total : n;
    char title[80];
    if (shown < all)
        snprintf(title, sizeof title, "Files: %zu, the %zu with the most bytes", all, shown);
    else
        snprintf(title, sizeof title, "Files: %zu", n);
    fprintf(out, "\n%-58s %9s %9s\n", title, "read", "written");
    for (size_t i = 0; i < shown; i++) {
        char path[JSR_WIDTH * 4], mode[8], rd[16], wr[16];
        jsr_clean(path, sizeof path, jsr_str(sorted[i], "path"), JSR_WIDTH - 2 - 3 - 20 - 2, 0);
        jsr_clean(mode, sizeof mode, jsr_str(sorted[i], "mode"), 2, 1);
        jsr_bytes(rd, sizeof rd, jsr_num(sorted[i], "read_bytes"));
        jsr_bytes(wr, sizeof wr, jsr_num(sorted[i], "write_bytes"));
        fprintf(out, "  %-53s %-2s %9s %9s\n", path, mode, rd, wr);
    }
    free(sorted);
}

static void job_edges(FILE *out, const json_t *job)
{
    const json_t *edges = json_object_get(job, "edges"), *e;
    size_t i;
    if (json_array_size(edges) == 0) {
        fprintf(out, "\nRelated jobs: none of yours\n");
        return;
    }
    fprintf(out, "\nRelated jobs (runs after / before this one, and why)\n");
    json_array_foreach(edges, i, e) {
        char name[64], state[48], why[256], path[128], cond[72];
        const char *kind = jsr_str(e, "kind") ? jsr_str(e, "kind") : "?";
        jsr_clean(name, sizeof name, jsr_str(e, "name"), 12, 1);
        jsr_clean(state, sizeof state, jsr_str(e, "state"), 10, 1);
        if (!strcmp(kind, "scheduler")) {
            jsr_clean(cond, sizeof cond, jsr_str(e, "condition") ? jsr_str(e, "condition") : "dependency", 16, 1);
            snprintf(why, sizeof why, "scheduler: %s", cond);
        } else if (!strcmp(kind, "file")) {
            double files = jsr_num(e, "files");
            jsr_clean(path, sizeof path, json_string_value(json_array_get(json_object_get(e, "paths"), 0)), 24, 0);
            if (files > 1)
                snprintf(why, sizeof why, "file: %s +%.0f", path, files - 1);
            else
                snprintf(why, sizeof why, "file: %s", path);
        } else if (!strcmp(kind, "time")) {
            snprintf(why, sizeof why, "time: started right after");
        } else {
            jsr_clean(why, sizeof why, kind, 16, 1);
        }
        fprintf(out, "  %-6s %-10.0f %-12s %-10s %s\n", !strcmp(jsr_str(e, "direction") ? jsr_str(e, "direction") : "", "in") ? "after" : "before",
                jsr_num(e, "job"), name, state, why);
    }
}

void jsr_job(FILE *out, const json_t *job, time_t now, int colour)
{
    job_header(out, job, now);
    if (isfinite(jsr_num(job, "start")))
        job_resources(out, job, now);
    job_steps(out, job, now);
    jsr_gpus(out, job);
    jsr_job_insight(out, job, colour);
    job_files(out, job);
    job_edges(out, job);
    jsr_warnings(out, json_object_get(job, "warnings"));
}
