/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two runs side by side (report.h, jsr_compare): a job's steps as rows of the shape a
 * workflow&by=name reply has, matched by name, with their totals. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "report_parts.h"

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
        numbered |= numbered_id(jsr_str(s, "step"));
    }
    json_array_foreach(steps, i, s) {
        const char *id = jsr_str(s, "step");
        if (!drawn_step(id, numbered))
            continue;
        /* a name that repeats: its second and later steps as NAME#2, NAME#3 */
        const char *name = jsr_str(s, "name") ? jsr_str(s, "name") : "";
        int seen = 1;
        json_array_foreach(steps, k, o) {
            if (k >= i)
                break;
            seen += drawn_step(jsr_str(o, "step"), numbered) && !strcmp(jsr_str(o, "name") ? jsr_str(o, "name") : "", name);
        }
        char key[512];
        if (seen > 1)
            snprintf(key, sizeof key, "%s#%d", name, seen);
        else
            snprintf(key, sizeof key, "%s", name);
        double el = jsr_elapsed_of(s, now), cpus = jsr_num(s, "cpus");
        bool prof = json_is_true(json_object_get(s, "profiled"));
        json_array_append_new(rows, json_pack("{s:s,s:s,s:o,s:o,s:o,s:o,s:o}", "job_name", id, "step_name", key,
                                              "elapsed_s", isfinite(el) ? json_real(el) : json_null(),
                                              "cpu_ns", prof ? json_real(jsr_num(s, "cpu_ns")) : json_null(),
                                              "cpu_alloc_s", prof && isfinite(el * cpus) ? json_real(el * cpus) : json_null(),
                                              "read_bytes", json_real(isfinite(jsr_num(s, "read_bytes")) ? jsr_num(s, "read_bytes") : 0),
                                              "write_bytes", json_real(isfinite(jsr_num(s, "write_bytes")) ? jsr_num(s, "write_bytes") : 0)));
    }
    return rows;
}

static bool same_row(const json_t *a, const json_t *b, int by_step)
{
    const char *as = jsr_str(a, "step_name"), *bs = jsr_str(b, "step_name");
    if (!as || !bs || strcmp(as, bs))
        return false;
    if (by_step)
        return true;
    const char *aj = jsr_str(a, "job_name"), *bj = jsr_str(b, "job_name");
    return aj && bj && !strcmp(aj, bj);
}

static void compare_line(FILE *out, const char *k1, const char *k2, const json_t *a, const json_t *b)
{
    char c1[40], c2[40], ta[24] = "-", tb[24] = "-", ch[24] = "", ea[16] = "-", eb[16] = "-", ia[16] = "-", ib[16] = "-";
    jsr_clean(c1, sizeof c1, k1, 8, 1);
    jsr_clean(c2, sizeof c2, k2, 7, 1);
    double xa = jsr_num(a, "elapsed_s"), xb = jsr_num(b, "elapsed_s");
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
        jsr_percent(ea, sizeof ea, jsr_num(a, "cpu_ns") / 1e9, jsr_num(a, "cpu_alloc_s"));
    if (b)
        jsr_percent(eb, sizeof eb, jsr_num(b, "cpu_ns") / 1e9, jsr_num(b, "cpu_alloc_s"));
    if (a)
        jsr_bytes(ia, sizeof ia, (isfinite(jsr_num(a, "read_bytes")) ? jsr_num(a, "read_bytes") : 0) +
                                     (isfinite(jsr_num(a, "write_bytes")) ? jsr_num(a, "write_bytes") : 0));
    if (b)
        jsr_bytes(ib, sizeof ib, (isfinite(jsr_num(b, "read_bytes")) ? jsr_num(b, "read_bytes") : 0) +
                                     (isfinite(jsr_num(b, "write_bytes")) ? jsr_num(b, "write_bytes") : 0));
    fprintf(out, "  %-8s %-7s %8s %8s %7s %6s %6s %9s %9s\n", c1, c2, ta, tb, ch, ea, eb, ia, ib);
}

/* sums of rows for the totals line */
static json_t *total_of(const json_t *rows)
{
    double el = 0, cpu = 0, alloc = 0, rd = 0, wr = 0;
    const json_t *r;
    size_t i;
    json_array_foreach(rows, i, r) {
        el += isfinite(jsr_num(r, "elapsed_s")) ? jsr_num(r, "elapsed_s") : 0;
        cpu += isfinite(jsr_num(r, "cpu_ns")) ? jsr_num(r, "cpu_ns") : 0;
        alloc += isfinite(jsr_num(r, "cpu_alloc_s")) ? jsr_num(r, "cpu_alloc_s") : 0;
        rd += isfinite(jsr_num(r, "read_bytes")) ? jsr_num(r, "read_bytes") : 0;
        wr += isfinite(jsr_num(r, "write_bytes")) ? jsr_num(r, "write_bytes") : 0;
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
        compare_line(out, jsr_str(a, "job_name"), jsr_str(a, "step_name"), a, match);
    }
    json_array_foreach(rows_b, k, b) {
        bool found = false;
        json_array_foreach(rows_a, i, a) {
            found |= same_row(a, b, by_step);
        }
        if (!found)
            compare_line(out, jsr_str(b, "job_name"), jsr_str(b, "step_name"), NULL, b);
    }
    json_t *sa = total_of(rows_a), *sb = total_of(rows_b);
    compare_line(out, "total", "", sa, sb);
    json_decref(sa);
    json_decref(sb);
}
