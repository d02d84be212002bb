/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal report's Insight section (docs/api.md, job&insight=yes: each step's insight and
 * advice): its traffic light, the verdict in a sentence, MPI interference, the I/O period. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "report_parts.h"

#define INSIGHT_INDENT 17 /* "  STEP   LIGHT   " */

/* text (already clean) from the current column col on, wrapped at spaces to JSR_WIDTH - 1
 * columns, continued at INSIGHT_INDENT; a word longer than a line is cut where it must be */
static void wrap(FILE *out, int col, const char *text)
{
    jsr_wrap(out, col, INSIGHT_INDENT, text);
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
        double l = jsr_num(ins, "lost_s"), pct = jsr_num(ins, "lost_pct");
        if (isfinite(l))
            lost_text(lost, sizeof lost, l);
        else
            snprintf(lost, sizeof lost, "time");
        o += (size_t)snprintf(buf, n, "Disturbed: lost %s", lost);
        if (isfinite(pct) && o < n)
            o += (size_t)snprintf(buf + o, n - o, " (%.*f%%)", pct < 10 ? 1 : 0, pct);
        double first = jsr_num(e, "first_slice"), last = jsr_num(e, "last_slice");
        if (e && isfinite(first) && isfinite(last) && o < n) {
            const char *scope = jsr_str(e, "scope");
            clock_of(t0, sizeof t0, first * slice_s);
            clock_of(t1, sizeof t1, (last + 1) * slice_s);
            o += (size_t)snprintf(buf + o, n - o, " while %s peaked (%s) at %s-%s", background_words(jsr_str(e, "background")),
                                  scope && !strcmp(scope, "nodes") ? "on its nodes" : "whole cluster", t0, t1);
            size_t more = json_array_size(ev) - 1;
            if (more && o < n)
                o += (size_t)snprintf(buf + o, n - o, ", and in %zu more stretch%s", more, more == 1 ? "" : "es");
        } else if (jsr_str(ins, "cause") && o < n) {
            o += (size_t)snprintf(buf + o, n - o, ", most where %s peaked", background_words(jsr_str(ins, "cause")));
        } else if (isfinite(jsr_num(ins, "interference_pct")) && o < n) {
            o += (size_t)snprintf(buf + o, n - o, " by the MPI interference estimate");
        }
        if (o < n)
            snprintf(buf + o, n - o, ".");
        return;
    }
    const char *light = jsr_str(ins, "light");
    if (json_is_true(json_object_get(ins, "judged_by_sruns"))) {
        /* a batch step that waits for its sruns (web/static/app.js says the same) */
        snprintf(buf, n, "No verdict of its own: the batch script waits for its srun steps, which are judged.");
        return;
    }
    if ((light && !strcmp(light, "grey")) || !json_is_boolean(dist)) {
        jsr_clean(why, sizeof why, jsr_str(ins, "incomplete"), 0, 1);
        snprintf(buf, n, "Too little data to tell%s%s.", why[0] ? ": " : "", why);
        return;
    }
    double slices = jsr_num(ins, "slices");
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
void jsr_job_insight(FILE *out, const json_t *job, int colour)
{
    const json_t *steps = json_object_get(job, "steps"), *s;
    size_t i;
    bool header = false;
    /* the cluster's slice length: the evidence's slices to times */
    double slice_s = jsr_num(job, "slice_seconds");
    if (!(slice_s > 0))
        slice_s = 4;
    json_array_foreach(steps, i, s) {
        const char *id = jsr_str(s, "step");
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
        light_word(out, jsr_str(ins, "light"), colour);
        verdict(text, sizeof text, ins, slice_s);
        wrap(out, INSIGHT_INDENT, text);
        if (isfinite(jsr_num(ins, "segments"))) {
            if (jsr_num(ins, "segment_groups") > 0) {
                char cls[24];
                jsr_clean(cls, sizeof cls, jsr_str(ins, "interference_class"), 10, 1);
                jsr_duration(b1, sizeof b1, isfinite(jsr_num(ins, "segment_excess_s")) ? jsr_num(ins, "segment_excess_s") : 0);
                snprintf(text, sizeof text, "MPI interference %.1f%%%s%s%s: %.0f of %.0f segments slower than their like ones, %s beyond",
                         jsr_num(ins, "interference_pct"), cls[0] ? " (" : "", cls, cls[0] ? ")" : "", jsr_num(ins, "segments_flagged"),
                         jsr_num(ins, "segments"), b1);
            } else {
                snprintf(text, sizeof text, "MPI interference: %.0f segments, too few alike to judge", jsr_num(ins, "segments"));
            }
            fprintf(out, "%*s", INSIGHT_INDENT, "");
            wrap(out, INSIGHT_INDENT, text);
        }
        size_t o = 0;
        double period = jsr_num(ins, "io_period_s"), share = jsr_num(ins, "io_time_share"), bw = jsr_num(ins, "io_phase_bandwidth");
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
            snprintf(text + o, sizeof text - o, "; %s", write_pattern_words(jsr_str(ins, "write_pattern")));
        fprintf(out, "%*s", INSIGHT_INDENT, "");
        wrap(out, INSIGHT_INDENT, text);
        const json_t *advice = json_object_get(s, "advice"), *a;
        size_t k;
        json_array_foreach(advice, k, a) {
            char sev[16], msg[JSR_WIDTH * 8];
            jsr_clean(sev, sizeof sev, jsr_str(a, "severity"), 7, 1);
            jsr_clean(msg, sizeof msg, jsr_str(a, "message"), JSR_WIDTH * 4, 1);
            fprintf(out, "%*s%-7s ", INSIGHT_INDENT, "", sev);
            wrap(out, INSIGHT_INDENT + 8, msg);
        }
    }
}
