/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal report of jobscreen(1) (report.h). */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* ---- units and cleaning -------------------------------------------------------------------- */

void jsr_bytes(char *buf, size_t n, double bytes)
{
    static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    int u = 0;
    while (fabs(bytes) >= 1024 && u < 6) {
        bytes /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, n, "%.0f B", bytes);
    else
        snprintf(buf, n, "%.1f %s", bytes, unit[u]);
}

void jsr_duration(char *buf, size_t n, double seconds)
{
    /* below a second in ms, below 10 s to a tenth unless whole (Slurm's times are whole
     * seconds): 0.18 s of CPU is not "0 s" */
    int tenth = seconds >= 0.9995 && seconds < 9.95 && fabs(seconds - round(seconds)) >= 0.05;
    if (seconds > 0 && seconds < 0.0005)
        snprintf(buf, n, "< 1 ms");
    else if (seconds > 0 && seconds < 0.9995)
        snprintf(buf, n, "%.0f ms", seconds * 1000);
    else if (tenth)
        snprintf(buf, n, "%.1f s", seconds);
    if ((seconds > 0 && seconds < 0.9995) || tenth)
        return;
    long long s = (long long)llround(seconds < 0 ? 0 : seconds);
    if (s < 60)
        snprintf(buf, n, "%lld s", s);
    else if (s < 3600)
        snprintf(buf, n, "%lld min %02lld s", s / 60, s % 60);
    else if (s < 86400)
        snprintf(buf, n, "%lld h %02lld min", s / 3600, s % 3600 / 60);
    else
        snprintf(buf, n, "%lld d %02lld h", s / 86400, s % 86400 / 3600);
}

void jsr_clock(char *buf, size_t n, double seconds)
{
    long long s = (long long)llround(seconds < 0 ? 0 : seconds);
    if (s >= 86400)
        snprintf(buf, n, "%lld-%02lld:%02lld:%02lld", s / 86400, s % 86400 / 3600, s % 3600 / 60, s % 60);
    else
        snprintf(buf, n, "%02lld:%02lld:%02lld", s / 3600, s % 3600 / 60, s % 60);
}

void jsr_time(char *buf, size_t n, double epoch)
{
    time_t t = (time_t)floor(epoch);
    struct tm tm;
    if (!isfinite(epoch) || !localtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm))
        snprintf(buf, n, "-");
}

void jsr_percent(char *buf, size_t n, double part, double whole)
{
    if (!(whole > 0) || !isfinite(part))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.1f%%", 100.0 * part / whole);
}

/* the length of the UTF-8 character at s (1 for a byte that starts none) */
static size_t char_len(const unsigned char *s)
{
    size_t k = *s < 0x80 ? 1 : (*s & 0xE0) == 0xC0 ? 2 : (*s & 0xF0) == 0xE0 ? 3 : (*s & 0xF8) == 0xF0 ? 4 : 1;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 1;
    return k;
}

/* one character of s cleaned into out (at most 4 bytes): '?' for a control character */
static size_t clean_char(const unsigned char *s, size_t k, char *out)
{
    bool control = (k == 1 && (s[0] < 0x20 || s[0] == 0x7F || s[0] >= 0x80)) ||
                   (k == 2 && s[0] == 0xC2 && s[1] >= 0x80 && s[1] <= 0x9F);
    if (control) {
        out[0] = '?';
        return 1;
    }
    memcpy(out, s, k);
    return k;
}

void jsr_clean(char *buf, size_t n, const char *str, int width, int keep_end)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    if (n == 0)
        return;
    /* the characters of s, counted */
    int chars = 0;
    for (const unsigned char *p = s; *p; p += char_len(p))
        chars++;
    int skip = 0, take = chars;
    if (width > 0 && chars > width) {
        take = width - 1; /* and the '~' */
        skip = keep_end ? 0 : chars - take;
    }
    size_t o = 0;
    if (width > 0 && chars > width && !keep_end && o + 1 < n)
        buf[o++] = '~';
    int i = 0;
    for (const unsigned char *p = s; *p && i < skip + take; i++) {
        size_t k = char_len(p);
        char c[4];
        size_t m = clean_char(p, k, c);
        p += k;
        if (i < skip)
            continue;
        if (o + m >= n)
            break;
        memcpy(buf + o, c, m);
        o += m;
    }
    if (width > 0 && chars > width && keep_end && o + 1 < n)
        buf[o++] = '~';
    buf[o] = '\0';
}

/* ---- reading the reply ----------------------------------------------------------------------- */

/* a number of o (integer or real), NAN when absent or null */
static double num(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

/* The runtime share's categories as a user reads them; ns of a runtime object summed. */
enum { RT_COMPUTE, RT_MPI, RT_IO, RT_WAIT, RT_IDLE, RT_N };
static const char *const rt_label[RT_N] = { "compute", "MPI", "I/O", "CPU wait", "idle" };

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
        double v = num(rt, keys[i].key);
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
        int w = snprintf(buf + o, n - o, "%s%s %.1f%%", o ? ", " : "", rt_label[c], 100.0 * part[c] / total);
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
    double aj = num(job, "array_job_id"), at = num(job, "array_task_id");
    if (isfinite(aj) && isfinite(at))
        snprintf(buf, n, "%.0f_%.0f", aj, at);
    else
        snprintf(buf, n, "%.0f", id);
}

/* elapsed seconds from start to end, or to now while it runs; NAN when it never started */
static double elapsed_of(const json_t *o, time_t now)
{
    double start = num(o, "start"), end = num(o, "end"), e = num(o, "elapsed");
    if (!isfinite(start))
        return NAN;
    if (isfinite(end))
        return isfinite(e) && e > 0 ? e : end - start;
    return (double)now - start;
}

/* ---- the job ------------------------------------------------------------------------------- */

#define LABEL "  %-11s"

static void job_header(FILE *out, const json_t *job, time_t now)
{
    char id[48], name[48], user[40], cluster[40], state[32], reason[48], b1[64], b2[64];
    job_name_id(id, sizeof id, job, num(job, "id"));
    jsr_clean(name, sizeof name, str(job, "name"), 30, 1);
    jsr_clean(user, sizeof user, str(job, "user"), 24, 1);
    jsr_clean(cluster, sizeof cluster, str(job, "cluster"), 24, 1);
    jsr_clean(state, sizeof state, str(job, "state") ? str(job, "state") : "UNKNOWN", 20, 1);
    fprintf(out, "Job %s \"%s\" of %s on %s: %s", id, name, user, cluster, state);
    double ec = num(job, "exit_code");
    if (isfinite(ec) && isfinite(num(job, "end")))
        fprintf(out, ", exit code %.0f", ec);
    fputc('\n', out);
    if (str(job, "reason") && strcmp(str(job, "reason"), "None")) {
        jsr_clean(reason, sizeof reason, str(job, "reason"), 40, 1);
        fprintf(out, LABEL "%s\n", "reason", reason);
    }
    if (isfinite(num(job, "workflow_id"))) {
        jsr_clean(b1, sizeof b1, str(job, "workflow"), 40, 1);
        fprintf(out, LABEL "%s (jobscreen -w %.0f)\n", "workflow", b1, num(job, "workflow_id"));
    }
    double submit = num(job, "submit"), start = num(job, "start"), end = num(job, "end");
    jsr_time(b1, sizeof b1, submit);
    fprintf(out, LABEL "%s\n", "submitted", b1);
    if (isfinite(start)) {
        double eligible = num(job, "eligible");
        jsr_time(b1, sizeof b1, start);
        jsr_duration(b2, sizeof b2, isfinite(submit) ? start - submit : 0);
        fprintf(out, LABEL "%s, after %s waiting", "started", b1, b2);
        /* a job held back (a dependency, a hold, a begin time): its wait in the queue proper */
        if (isfinite(eligible) && isfinite(submit) && eligible - submit >= 1 && start >= eligible) {
            jsr_duration(b2, sizeof b2, start - eligible);
            fprintf(out, " (%s once eligible)", b2);
        }
        fputc('\n', out);
    } else {
        fprintf(out, LABEL "not yet (never, if it was cancelled first)\n", "started");
    }
    if (isfinite(start) && isfinite(end)) {
        jsr_time(b1, sizeof b1, end);
        jsr_duration(b2, sizeof b2, elapsed_of(job, now));
        /* Slurm's whole seconds: a job of 0.4 s starts and ends in one */
        fprintf(out, LABEL "%s, after %s\n", "ended", b1, elapsed_of(job, now) > 0 ? b2 : "less than a second");
    } else if (isfinite(start)) {
        jsr_duration(b2, sizeof b2, (double)now - start);
        fprintf(out, LABEL "for %s (the figures below are so far)\n", "running", b2);
    }
}

/* Where the kernel counted more written than the wrappers saw (stdio inlined into the program
 * such as putchar_unlocked, raw system calls, sockets), a file's figures may be short: say so */
static void unattributed_line(FILE *out, const json_t *u)
{
    double w = num(u, "unattributed_write_bytes");
    if (!(w > 0))
        return;
    char b[32], text[384];
    jsr_bytes(b, sizeof b, w);
    snprintf(text, sizeof text,
             "%s written that the kernel counted beyond what the profiler's wrappers saw (stdio inlined into the "
             "program such as putchar_unlocked, raw system calls, sockets): a file's figures may be short by as much",
             b);
    fprintf(out, LABEL, "unseen I/O");
    jsr_wrap(out, 13, 13, text);
}

static void job_resources(FILE *out, const json_t *job, time_t now)
{
    char nodes[48], part[32], acct[32], qos[32], b1[64], b2[64], b3[64];
    jsr_clean(nodes, sizeof nodes, str(job, "node_list"), 20, 1);
    jsr_clean(part, sizeof part, str(job, "partition"), 12, 1);
    jsr_clean(acct, sizeof acct, str(job, "account"), 12, 1);
    jsr_clean(qos, sizeof qos, str(job, "qos"), 10, 1);
    fprintf(out, LABEL "%.0f node%s%s%s%s, %.0f CPU%s\n", "resources", num(job, "nodes"), num(job, "nodes") == 1 ? "" : "s",
            nodes[0] ? " (" : "", nodes, nodes[0] ? ")" : "", num(job, "cpus"), num(job, "cpus") == 1 ? "" : "s");
    fprintf(out, LABEL "partition %s%s%s%s%s\n", "queue", part[0] ? part : "-", qos[0] ? ", QOS " : "", qos,
            acct[0] ? ", account " : "", acct);
    const json_t *u = json_object_get(job, "usage");
    double elapsed = elapsed_of(job, now), cpus = num(job, "cpus"), cpu_ns = num(u, "cpu_ns");
    if (!(num(u, "profiled_steps") > 0)) {
        if (isfinite(num(job, "end")))
            fprintf(out, LABEL "no profile: none of its steps was profiled (srun --no-profile?)\n", "CPU");
        else
            fprintf(out, LABEL "no profile yet: its steps report while they run and at their end\n", "CPU");
        return;
    }
    jsr_percent(b1, sizeof b1, cpu_ns / 1e9, elapsed * cpus);
    jsr_duration(b2, sizeof b2, cpu_ns / 1e9);
    jsr_duration(b3, sizeof b3, elapsed);
    if (elapsed > 0)
        fprintf(out, LABEL "efficiency %s: %s of CPU time in %.0f CPU%s x %s\n", "CPU", b1, b2, cpus, cpus == 1 ? "" : "s",
                b3);
    else /* Slurm's times are whole seconds: a job of 0.4 s starts and ends in one */
        fprintf(out, LABEL "%s of CPU time; no efficiency: under a second by Slurm's clock\n", "CPU", b2);
    double rss = num(u, "max_rss_kib");
    if (rss > 0) {
        jsr_bytes(b1, sizeof b1, rss * 1024);
        fprintf(out, LABEL "peak %s (its largest process)\n", "memory", b1);
    } else {
        fprintf(out, LABEL "not measured\n", "memory");
    }
    jsr_bytes(b1, sizeof b1, num(u, "read_bytes"));
    jsr_bytes(b2, sizeof b2, num(u, "write_bytes"));
    fprintf(out, LABEL "read %s, written %s\n", "I/O", b1, b2);
    unattributed_line(out, u);
    double parts[RT_N], total = runtime_parts(json_object_get(job, "runtime"), parts);
    char shares[160];
    shares_text(shares, sizeof shares, parts, total);
    fprintf(out, LABEL "%s\n", "runtime", shares);
}

static void job_steps(FILE *out, const json_t *job, time_t now)
{
    const json_t *steps = json_object_get(job, "steps"), *s;
    size_t i;
    if (json_array_size(steps) == 0) {
        fprintf(out, "\nSteps: none recorded%s\n", isfinite(num(job, "end")) ? "" : " yet");
        return;
    }
    fprintf(out, "\nSteps  %-11s %-10s %10s %6s %9s %9s %9s\n", "name", "state", "elapsed", "CPU", "peak mem",
            "read", "written");
    json_array_foreach(steps, i, s) {
        const char *id = str(s, "step");
        if (id && !strcmp(id, "extern"))
            continue; /* Slurm's own step: no work of the job */
        char sid[16], name[40], state[24], el[24], eff[16], mem[16], rd[16], wr[16];
        jsr_clean(sid, sizeof sid, id, 6, 1);
        jsr_clean(name, sizeof name, str(s, "name"), 11, 1);
        jsr_clean(state, sizeof state, str(s, "state") ? str(s, "state") : "RUNNING", 10, 1);
        double elapsed = elapsed_of(s, now);
        if (isfinite(elapsed) && elapsed < 10) /* a step's times are exact: "380 ms", not 00:00:00 */
            jsr_duration(el, sizeof el, elapsed);
        else if (isfinite(elapsed))
            jsr_clock(el, sizeof el, elapsed);
        else
            snprintf(el, sizeof el, "-");
        bool profiled = json_is_true(json_object_get(s, "profiled"));
        if (profiled) {
            jsr_percent(eff, sizeof eff, num(s, "cpu_ns") / 1e9, elapsed * num(s, "cpus"));
            if (num(s, "max_rss_kib") > 0)
                jsr_bytes(mem, sizeof mem, num(s, "max_rss_kib") * 1024);
            else
                snprintf(mem, sizeof mem, "-");
            jsr_bytes(rd, sizeof rd, num(s, "read_bytes"));
            jsr_bytes(wr, sizeof wr, num(s, "write_bytes"));
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
        jsr_clean(sid, sizeof sid, str(s, "step"), 6, 1);
        shares_text(shares, sizeof shares, parts, total);
        fprintf(out, "  %-6s %s\n", sid, shares);
    }
    header = false;
    json_array_foreach(steps, i, s) {
        if (!str(s, "incomplete_reason"))
            continue;
        if (!header) {
            fprintf(out, "\nIncomplete\n");
            header = true;
        }
        char sid[16], why[JSR_WIDTH];
        jsr_clean(sid, sizeof sid, str(s, "step"), 6, 1);
        jsr_clean(why, sizeof why, str(s, "incomplete_reason"), JSR_WIDTH - 11, 1);
        fprintf(out, "  step %-3s %s\n", sid, why);
    }
}

static double file_bytes(const json_t *f)
{
    double r = num(f, "read_bytes"), w = num(f, "write_bytes");
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
    char title[80];
    if (shown < n)
        snprintf(title, sizeof title, "Files: %zu, the %zu with the most bytes", n, shown);
    else
        snprintf(title, sizeof title, "Files: %zu", n);
    fprintf(out, "\n%-58s %9s %9s\n", title, "read", "written");
    for (size_t i = 0; i < shown; i++) {
        char path[JSR_WIDTH * 4], mode[8], rd[16], wr[16];
        jsr_clean(path, sizeof path, str(sorted[i], "path"), JSR_WIDTH - 2 - 3 - 20 - 2, 0);
        jsr_clean(mode, sizeof mode, str(sorted[i], "mode"), 2, 1);
        jsr_bytes(rd, sizeof rd, num(sorted[i], "read_bytes"));
        jsr_bytes(wr, sizeof wr, num(sorted[i], "write_bytes"));
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
        const char *kind = str(e, "kind") ? str(e, "kind") : "?";
        jsr_clean(name, sizeof name, str(e, "name"), 12, 1);
        jsr_clean(state, sizeof state, str(e, "state"), 10, 1);
        if (!strcmp(kind, "scheduler")) {
            jsr_clean(cond, sizeof cond, str(e, "condition") ? str(e, "condition") : "dependency", 16, 1);
            snprintf(why, sizeof why, "scheduler: %s", cond);
        } else if (!strcmp(kind, "file")) {
            double files = num(e, "files");
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
        fprintf(out, "  %-6s %-10.0f %-12s %-10s %s\n", !strcmp(str(e, "direction") ? str(e, "direction") : "", "in") ? "after" : "before",
                num(e, "job"), name, state, why);
    }
}

/* ---- insight (docs/api.md, job&insight=yes: each step's insight and advice) ------------------- */

#define INSIGHT_INDENT 17 /* "  STEP   LIGHT   " */

/* text (already clean) from the current column col on, wrapped at spaces to JSR_WIDTH - 1
 * columns, continued at INSIGHT_INDENT; a word longer than a line is cut where it must be */
static void wrap(FILE *out, int col, const char *text)
{
    jsr_wrap(out, col, INSIGHT_INDENT, text);
}

void jsr_wrap(FILE *out, int col, int indent, const char *text)
{
    const int width = JSR_WIDTH - 1;
    const char *p = text;
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        /* the characters that fit, and the last space among them */
        const char *q = p, *space = NULL;
        int c = col;
        while (*q && c < width) {
            if (*q == ' ')
                space = q;
            q += char_len((const unsigned char *)q);
            c++;
        }
        const char *end = !*q || *q == ' ' || !space ? q : space;
        fwrite(p, 1, (size_t)(end - p), out);
        p = end;
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        fprintf(out, "\n%*s", indent, "");
        col = indent;
    }
    fputc('\n', out);
}

/* local "10:42:10" */
static void clock_of(char *buf, size_t n, double epoch)
{
    time_t t = (time_t)floor(epoch);
    struct tm tm;
    if (!isfinite(epoch) || !localtime_r(&t, &tm) || !strftime(buf, n, "%H:%M:%S", &tm))
        snprintf(buf, n, "-");
}

/* the background that peaked, in words (evidence.background, cause) */
static const char *background_words(const char *b)
{
    if (!b)
        return "other jobs";
    if (!strcmp(b, "io"))
        return "other jobs' I/O";
    if (!strcmp(b, "metadata"))
        return "other jobs' metadata operations";
    if (!strcmp(b, "mpi"))
        return "other jobs' MPI traffic";
    if (!strcmp(b, "cpu"))
        return "other jobs' CPU use";
    return "other jobs";
}

static void lost_text(char *buf, size_t n, double lost)
{
    char d[32];
    if (lost < 120) {
        snprintf(buf, n, "~%.0f s", lost);
    } else {
        jsr_duration(d, sizeof d, lost);
        snprintf(buf, n, "~%s", d);
    }
}

/* The verdict in one plain sentence, as the viewer says it. */
static void verdict(char *buf, size_t n, const json_t *ins, double slice_s)
{
    char lost[40], t0[16], t1[16], why[JSR_WIDTH * 4];
    const json_t *ev = json_object_get(ins, "evidence"), *e = json_array_get(ev, 0);
    const json_t *dist = json_object_get(ins, "disturbed");
    if (json_is_true(dist)) {
        size_t o = 0;
        double l = num(ins, "lost_s"), pct = num(ins, "lost_pct");
        if (isfinite(l))
            lost_text(lost, sizeof lost, l);
        else
            snprintf(lost, sizeof lost, "time");
        o += (size_t)snprintf(buf, n, "Disturbed: lost %s", lost);
        if (isfinite(pct) && o < n)
            o += (size_t)snprintf(buf + o, n - o, " (%.*f%%)", pct < 10 ? 1 : 0, pct);
        double first = num(e, "first_slice"), last = num(e, "last_slice");
        if (e && isfinite(first) && isfinite(last) && o < n) {
            const char *scope = str(e, "scope");
            clock_of(t0, sizeof t0, first * slice_s);
            clock_of(t1, sizeof t1, (last + 1) * slice_s);
            o += (size_t)snprintf(buf + o, n - o, " while %s peaked (%s) at %s-%s", background_words(str(e, "background")),
                                  scope && !strcmp(scope, "nodes") ? "on its nodes" : "whole cluster", t0, t1);
            size_t more = json_array_size(ev) - 1;
            if (more && o < n)
                o += (size_t)snprintf(buf + o, n - o, ", and in %zu more stretch%s", more, more == 1 ? "" : "es");
        } else if (str(ins, "cause") && o < n) {
            o += (size_t)snprintf(buf + o, n - o, ", most where %s peaked", background_words(str(ins, "cause")));
        } else if (isfinite(num(ins, "interference_pct")) && o < n) {
            o += (size_t)snprintf(buf + o, n - o, " by the MPI interference estimate");
        }
        if (o < n)
            snprintf(buf + o, n - o, ".");
        return;
    }
    const char *light = str(ins, "light");
    if (json_is_true(json_object_get(ins, "judged_by_sruns"))) {
        /* a batch step that waits for its sruns (web/static/app.js says the same) */
        snprintf(buf, n, "No verdict of its own: the batch script waits for its srun steps, which are judged.");
        return;
    }
    if ((light && !strcmp(light, "grey")) || !json_is_boolean(dist)) {
        jsr_clean(why, sizeof why, str(ins, "incomplete"), 0, 1);
        snprintf(buf, n, "Too little data to tell%s%s.", why[0] ? ": " : "", why);
        return;
    }
    double slices = num(ins, "slices");
    if (slices > 0)
        snprintf(buf, n, "No disturbance found in %.0f slice%s of %.0f s.", slices, slices == 1 ? "" : "s", slice_s);
    else
        snprintf(buf, n, "No disturbance found.");
}

static const char *write_pattern_words(const char *w)
{
    if (!w)
        return "writes little";
    if (!strcmp(w, "open-write-close"))
        return "opens, writes and closes its files again and again (open-write-close)";
    if (!strcmp(w, "write-seek"))
        return "writes with seeks in between (write-seek)";
    if (!strcmp(w, "aggregate-write"))
        return "writes in few large, aggregated blocks (aggregate-write)";
    if (!strcmp(w, "mixed"))
        return "writes in more than one way (mixed)";
    return "writes in another way";
}

/* The traffic light as a word, coloured on a terminal (colour: stdout is one). */
static void light_word(FILE *out, const char *light, int colour)
{
    static const struct {
        const char *light, *word, *sgr;
    } lights[] = { { "green", "GREEN", "32" }, { "yellow", "YELLOW", "33" }, { "red", "RED", "1;31" }, { "grey", "GREY", "90" } };
    for (size_t i = 0; light && i < sizeof lights / sizeof lights[0]; i++) {
        if (strcmp(light, lights[i].light))
            continue;
        if (colour)
            fprintf(out, "\033[%sm%-6s\033[0m  ", lights[i].sgr, lights[i].word);
        else
            fprintf(out, "%-6s  ", lights[i].word);
        return;
    }
    fprintf(out, "%-6s  ", "-");
}

/* Per step (extern aside) that the reply gave an insight member (job&insight=yes): its light,
 * the verdict, the MPI interference estimate, the I/O period and write pattern, its advice. */
static void job_insight(FILE *out, const json_t *job, int colour)
{
    const json_t *steps = json_object_get(job, "steps"), *s;
    size_t i;
    bool header = false;
    /* the cluster's slice length: the evidence's slices to times */
    double slice_s = num(job, "slice_seconds");
    if (!(slice_s > 0))
        slice_s = 4;
    json_array_foreach(steps, i, s) {
        const char *id = str(s, "step");
        const json_t *ins = json_object_get(s, "insight");
        if (!ins || (id && !strcmp(id, "extern")))
            continue;
        if (!header) {
            fprintf(out, "\nInsight (was it slowed by other jobs? what to change)\n");
            header = true;
        }
        char sid[16], text[JSR_WIDTH * 8], b1[64], b2[64];
        jsr_clean(sid, sizeof sid, id, 6, 1);
        fprintf(out, "  %-6s ", sid);
        if (!json_is_object(ins)) {
            light_word(out, NULL, colour);
            wrap(out, INSIGHT_INDENT, json_is_true(json_object_get(s, "profiled")) ? "not computed yet" : "no profile");
            continue;
        }
        light_word(out, str(ins, "light"), colour);
        verdict(text, sizeof text, ins, slice_s);
        wrap(out, INSIGHT_INDENT, text);
        if (isfinite(num(ins, "segments"))) {
            if (num(ins, "segment_groups") > 0) {
                char cls[24];
                jsr_clean(cls, sizeof cls, str(ins, "interference_class"), 10, 1);
                jsr_duration(b1, sizeof b1, isfinite(num(ins, "segment_excess_s")) ? num(ins, "segment_excess_s") : 0);
                snprintf(text, sizeof text, "MPI interference %.1f%%%s%s%s: %.0f of %.0f segments slower than their like ones, %s beyond",
                         num(ins, "interference_pct"), cls[0] ? " (" : "", cls, cls[0] ? ")" : "", num(ins, "segments_flagged"),
                         num(ins, "segments"), b1);
            } else {
                snprintf(text, sizeof text, "MPI interference: %.0f segments, too few alike to judge", num(ins, "segments"));
            }
            fprintf(out, "%*s", INSIGHT_INDENT, "");
            wrap(out, INSIGHT_INDENT, text);
        }
        size_t o = 0;
        double period = num(ins, "io_period_s"), share = num(ins, "io_time_share"), bw = num(ins, "io_phase_bandwidth");
        if (isfinite(period)) {
            lost_text(b1, sizeof b1, period);
            o += (size_t)snprintf(text, sizeof text, "I/O every %s", b1);
        } else {
            o += (size_t)snprintf(text, sizeof text, "No periodic I/O");
        }
        if (isfinite(share) && o < sizeof text) {
            b2[0] = '\0';
            if (isfinite(bw))
                jsr_bytes(b2, sizeof b2, bw);
            o += (size_t)snprintf(text + o, sizeof text - o, ", I/O in %.0f%% of its slices%s%s%s", 100 * share,
                                  b2[0] ? " at " : "", b2, b2[0] ? "/s" : "");
        }
        if (o < sizeof text)
            snprintf(text + o, sizeof text - o, "; %s", write_pattern_words(str(ins, "write_pattern")));
        fprintf(out, "%*s", INSIGHT_INDENT, "");
        wrap(out, INSIGHT_INDENT, text);
        const json_t *advice = json_object_get(s, "advice"), *a;
        size_t k;
        json_array_foreach(advice, k, a) {
            char sev[16], msg[JSR_WIDTH * 8];
            jsr_clean(sev, sizeof sev, str(a, "severity"), 7, 1);
            jsr_clean(msg, sizeof msg, str(a, "message"), JSR_WIDTH * 4, 1);
            fprintf(out, "%*s%-7s ", INSIGHT_INDENT, "", sev);
            wrap(out, INSIGHT_INDENT + 8, msg);
        }
    }
}

void jsr_job(FILE *out, const json_t *job, time_t now, int colour)
{
    job_header(out, job, now);
    if (isfinite(num(job, "start")))
        job_resources(out, job, now);
    job_steps(out, job, now);
    jsr_gpus(out, job);
    job_insight(out, job, colour);
    job_files(out, job);
    job_edges(out, job);
    jsr_warnings(out, json_object_get(job, "warnings"));
}

/* ---- the workflow -------------------------------------------------------------------------- */

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
    jsr_clean(name, sizeof name, str(w, "workflow"), 30, 1);
    jsr_clean(user, sizeof user, str(w, "user"), 24, 1);
    jsr_clean(cluster, sizeof cluster, str(w, "cluster"), 24, 1);
    fprintf(out, "Workflow %.0f \"%s\" of %s on %s: %.0f jobs, %.0f not completed\n", num(w, "id"), name, user,
            cluster, num(w, "jobs"), num(w, "jobs_not_ok"));
    double t0 = num(reply, "t0");
    jsr_time(b1, sizeof b1, num(w, "submit"));
    fprintf(out, LABEL "%s\n", "submitted", b1);
    if (isfinite(num(w, "start"))) {
        jsr_time(b1, sizeof b1, num(w, "start"));
        fprintf(out, LABEL "%s\n", "started", b1);
    }
    if (isfinite(num(w, "end")) && isfinite(num(w, "start"))) {
        jsr_time(b1, sizeof b1, num(w, "end"));
        jsr_duration(b2, sizeof b2, num(w, "end") - num(w, "start"));
        fprintf(out, LABEL "%s, %s after its first start\n", "ended", b1, b2);
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
            snprintf(most, sizeof most, "%s %.0f%%", rt_label[best], 100.0 * part[best] / total);
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
        jsr_clean(job, sizeof job, str(r, "job_name"), 9, 1);
        jsr_clean(step, sizeof step, str(r, "step_name"), 9, 1);
        if (isfinite(num(r, "elapsed_s")))
            jsr_clock(t, sizeof t, num(r, "elapsed_s"));
        else
            snprintf(t, sizeof t, "-");
        jsr_percent(eff, sizeof eff, num(r, "cpu_ns") / 1e9, num(r, "cpu_alloc_s"));
        if (num(r, "max_rss_kib") > 0)
            jsr_bytes(mem, sizeof mem, num(r, "max_rss_kib") * 1024);
        else
            snprintf(mem, sizeof mem, "-");
        jsr_bytes(rd, sizeof rd, isfinite(num(r, "read_bytes")) ? num(r, "read_bytes") : 0);
        jsr_bytes(wr, sizeof wr, isfinite(num(r, "write_bytes")) ? num(r, "write_bytes") : 0);
        fprintf(out, "  %-9s %-9s %4.0f %4.0f %10s %6s %9s %9s %9s\n", job, step, num(r, "jobs"), num(r, "not_completed"), t,
                eff, mem, rd, wr);
    }
}

/* the steps the graph draws: the numbered ones, or all but extern when a job has none */
static bool numbered_id(const char *id) { return id && *id && strspn(id, "0123456789") == strlen(id); }
static bool drawn_step(const char *id, bool numbered) { return id && (numbered ? numbered_id(id) : strcmp(id, "extern") != 0); }

json_t *jsr_job_rows(const json_t *job, time_t now)
{
    const json_t *steps = json_object_get(job, "steps"), *s, *o;
    json_t *rows = json_array();
    size_t i, k;
    bool numbered = false;
    json_array_foreach(steps, i, s) {
        numbered |= numbered_id(str(s, "step"));
    }
    json_array_foreach(steps, i, s) {
        const char *id = str(s, "step");
        if (!drawn_step(id, numbered))
            continue;
        /* a name that repeats: its second and later steps as NAME#2, NAME#3 */
        const char *name = str(s, "name") ? str(s, "name") : "";
        int seen = 1;
        json_array_foreach(steps, k, o) {
            if (k >= i)
                break;
            seen += drawn_step(str(o, "step"), numbered) && !strcmp(str(o, "name") ? str(o, "name") : "", name);
        }
        char key[512];
        if (seen > 1)
            snprintf(key, sizeof key, "%s#%d", name, seen);
        else
            snprintf(key, sizeof key, "%s", name);
        double el = elapsed_of(s, now), cpus = num(s, "cpus");
        bool prof = json_is_true(json_object_get(s, "profiled"));
        json_array_append_new(rows, json_pack("{s:s,s:s,s:o,s:o,s:o,s:o,s:o}", "job_name", id, "step_name", key,
                                              "elapsed_s", isfinite(el) ? json_real(el) : json_null(),
                                              "cpu_ns", prof ? json_real(num(s, "cpu_ns")) : json_null(),
                                              "cpu_alloc_s", prof && isfinite(el * cpus) ? json_real(el * cpus) : json_null(),
                                              "read_bytes", json_real(isfinite(num(s, "read_bytes")) ? num(s, "read_bytes") : 0),
                                              "write_bytes", json_real(isfinite(num(s, "write_bytes")) ? num(s, "write_bytes") : 0)));
    }
    return rows;
}

static bool same_row(const json_t *a, const json_t *b, int by_step)
{
    const char *as = str(a, "step_name"), *bs = str(b, "step_name");
    if (!as || !bs || strcmp(as, bs))
        return false;
    if (by_step)
        return true;
    const char *aj = str(a, "job_name"), *bj = str(b, "job_name");
    return aj && bj && !strcmp(aj, bj);
}

static void compare_line(FILE *out, const char *k1, const char *k2, const json_t *a, const json_t *b)
{
    char c1[40], c2[40], ta[24] = "-", tb[24] = "-", ch[24] = "", ea[16] = "-", eb[16] = "-", ia[16] = "-", ib[16] = "-";
    jsr_clean(c1, sizeof c1, k1, 8, 1);
    jsr_clean(c2, sizeof c2, k2, 7, 1);
    double xa = num(a, "elapsed_s"), xb = num(b, "elapsed_s");
    if (a && isfinite(xa))
        jsr_clock(ta, sizeof ta, xa);
    if (b && isfinite(xb))
        jsr_clock(tb, sizeof tb, xb);
    if (!a)
        snprintf(ch, sizeof ch, "only B");
    else if (!b)
        snprintf(ch, sizeof ch, "only A");
    else if (isfinite(xa) && isfinite(xb) && xa > 0)
        snprintf(ch, sizeof ch, "%+.1f%%", 100.0 * (xb - xa) / xa);
    if (a)
        jsr_percent(ea, sizeof ea, num(a, "cpu_ns") / 1e9, num(a, "cpu_alloc_s"));
    if (b)
        jsr_percent(eb, sizeof eb, num(b, "cpu_ns") / 1e9, num(b, "cpu_alloc_s"));
    if (a)
        jsr_bytes(ia, sizeof ia, (isfinite(num(a, "read_bytes")) ? num(a, "read_bytes") : 0) +
                                     (isfinite(num(a, "write_bytes")) ? num(a, "write_bytes") : 0));
    if (b)
        jsr_bytes(ib, sizeof ib, (isfinite(num(b, "read_bytes")) ? num(b, "read_bytes") : 0) +
                                     (isfinite(num(b, "write_bytes")) ? num(b, "write_bytes") : 0));
    fprintf(out, "  %-8s %-7s %8s %8s %7s %6s %6s %9s %9s\n", c1, c2, ta, tb, ch, ea, eb, ia, ib);
}

/* sums of rows for the totals line */
static json_t *total_of(const json_t *rows)
{
    double el = 0, cpu = 0, alloc = 0, rd = 0, wr = 0;
    const json_t *r;
    size_t i;
    json_array_foreach(rows, i, r) {
        el += isfinite(num(r, "elapsed_s")) ? num(r, "elapsed_s") : 0;
        cpu += isfinite(num(r, "cpu_ns")) ? num(r, "cpu_ns") : 0;
        alloc += isfinite(num(r, "cpu_alloc_s")) ? num(r, "cpu_alloc_s") : 0;
        rd += isfinite(num(r, "read_bytes")) ? num(r, "read_bytes") : 0;
        wr += isfinite(num(r, "write_bytes")) ? num(r, "write_bytes") : 0;
    }
    return json_pack("{s:f,s:f,s:f,s:f,s:f}", "elapsed_s", el, "cpu_ns", cpu, "cpu_alloc_s", alloc, "read_bytes", rd,
                     "write_bytes", wr);
}

void jsr_compare(FILE *out, const char *title_a, const json_t *rows_a, const char *title_b, const json_t *rows_b,
                 int by_step)
{
    char ta[JSR_WIDTH], tb[JSR_WIDTH];
    jsr_clean(ta, sizeof ta, title_a, JSR_WIDTH - 6, 1);
    jsr_clean(tb, sizeof tb, title_b, JSR_WIDTH - 6, 1);
    fprintf(out, "A: %s\nB: %s\n\n  %-8s %-7s %8s %8s %7s %6s %6s %9s %9s\n", ta, tb, by_step ? "step" : "job",
            by_step ? "name" : "step", "time A", "time B", "change", "CPU A", "CPU B", "I/O A", "I/O B");
    const json_t *a, *b;
    size_t i, k;
    json_array_foreach(rows_a, i, a) {
        const json_t *match = NULL;
        json_array_foreach(rows_b, k, b) {
            if (same_row(a, b, by_step)) {
                match = b;
                break;
            }
        }
        compare_line(out, str(a, "job_name"), str(a, "step_name"), a, match);
    }
    json_array_foreach(rows_b, k, b) {
        bool found = false;
        json_array_foreach(rows_a, i, a) {
            found |= same_row(a, b, by_step);
        }
        if (!found)
            compare_line(out, str(b, "job_name"), str(b, "step_name"), NULL, b);
    }
    json_t *sa = total_of(rows_a), *sb = total_of(rows_b);
    compare_line(out, "total", "", sa, sb);
    json_decref(sa);
    json_decref(sb);
}
