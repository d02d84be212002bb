/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The step record's "gpu" member (ingest_gpu.h; docs/gpu.md, "What travels"). Root wrote it,
 * as it wrote the record, so it is trusted as the record is; it is checked all the same
 * (types, bounds, series that decode to the slices they claim), and one that fails is left
 * out whole and said in the step-node's gpu_note.
 */
#include "config.h"

#include "ingest_gpu.h"

#include "bundle_series.h"
#include "dbutil.h"
#include "gpu_format.h"
#include "ingest_db.h"
#include "log.h"
#include "series.h"
#include "validate.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UUID_MAX 96
#define NOTE_MAX 1024

static const char *const column_names[JSG_NCOLS] = {
#define JSG_COL_NAME(name) #name,
    JSG_RECORD_COLUMNS(JSG_COL_NAME)
#undef JSG_COL_NAME
};

/* a process of the step on a device: its figures, in proc_keys[] order */
static const char *const proc_keys[] = { "pid", "samples", "util_n", "util_sm_sum", "util_mem_sum", "util_sm_max",
                                         "mem_n", "mem_used_max", "first_slice", "last_slice", "slices", NULL };
enum { P_PID, P_SAMPLES, P_UTIL_N, P_SM_SUM, P_MEM_SUM, P_SM_MAX, P_MEM_N, P_MEM_MAX, P_FIRST, P_LAST, P_SLICES, P_N };

struct pi_gpu_dev {
    char uuid[UUID_MAX + 1], name[UUID_MAX + 1], parent[UUID_MAX + 1], energy[16];
    int64_t index, minor, gone;
    int64_t v[16]; /* the totals, in totals[] order */
    int64_t *col;  /* slices x JSG_NCOLS, NULL: no series */
    int has_procs; /* the record listed its processes (older records do not) */
    int nproc;
    int64_t procs_dropped, procs_other;
    int64_t proc[JSG_RECORD_MAX_DEV_PROCS][P_N];
};

struct pi_gpu {
    int64_t lo, hi; /* the slices the step's span allows */
    int64_t first, slices;
    int ndev;
    struct pi_gpu_dev dev[JSG_RECORD_MAX_DEVICES];
    int has_cpu;
    int64_t node_uj, step_uj; /* step_uj < 0: not known */
    /* where the relay could not share the node's energy: E and the node's busy CPU time a
     * slice from first (NULL: not in the record), and why it could not */
    int64_t *cpu_e, *cpu_busy;
    int cpu_done; /* pi_gpu_cpu_energy_uj has run */
    char share[256];
    char note[NOTE_MAX];
};

/* a device's totals, all whole numbers >= 0 */
static const char *const totals[] = { "mem_total",  "failed",       "samples",      "util_n",     "util_sm_sum",
                                      "util_mem_sum", "util_sm_max", "util_mem_max", "mem_n",      "mem_used_max",
                                      "power_n",    "power_mw_sum", "power_mw_max", "energy_uj", NULL };
enum { T_MEM_TOTAL, T_FAILED, T_SAMPLES, T_UTIL_N, T_SM_SUM, T_MEM_SUM, T_SM_MAX, T_MEM_MAX, T_MEM_N, T_MEM_USED,
       T_POWER_N, T_POWER_SUM, T_POWER_MAX, T_ENERGY };

static void note(struct pi_gpu *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct pi_gpu *g, const char *fmt, ...)
{
    size_t n = strlen(g->note);
    if (n + 3 >= sizeof g->note)
        return;
    if (n)
        n += (size_t)snprintf(g->note + n, sizeof g->note - n, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->note + n, sizeof g->note - n, fmt, ap);
    va_end(ap);
}

/* a string member of at most UUID_MAX bytes (or null when nullable) into out */
static int text(const json_t *o, const char *key, char *out, int nullable)
{
    const json_t *v = json_object_get(o, key);
    out[0] = '\0';
    if (nullable && (v == NULL || json_is_null(v)))
        return 0;
    if (!json_is_string(v) || json_string_length(v) > UUID_MAX || strlen(json_string_value(v)) != json_string_length(v))
        return -1;
    memcpy(out, json_string_value(v), json_string_length(v) + 1);
    return 0;
}

static int whole(const json_t *o, const char *key, int64_t lo, int64_t *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo)
        return -1;
    *out = json_integer_value(v);
    return 0;
}

/* one base64 series of n values (null: zeros) added to out[0], out[stride], ... */
static int series(const json_t *v, size_t n, int64_t *out, size_t stride)
{
    if (v == NULL || json_is_null(v))
        return 0;
    if (!json_is_string(v))
        return -1;
    size_t cap = JS_SERIES_MAX_BYTES(n);
    unsigned char *b = malloc(cap);
    long len = b ? js_b64_decode(json_string_value(v), json_string_length(v), b, cap) : -1;
    long sat = 0;
    int rc = len < 0 || js_series_add(b, (size_t)len, n, out, stride, &sat) < 0 || sat ? -1 : 0;
    free(b);
    return rc;
}

/* The device's processes of the step (docs/gpu.md, "Per process"): each bounded as the
 * device's own figures are, and by them (no more readings than the device's, no more memory
 * than it has, slices within the step's span). */
static int take_procs(const struct pi_gpu *g, const json_t *d, struct pi_gpu_dev *x, char *why, size_t size)
{
    const json_t *procs = json_object_get(d, "procs"), *p;
    if (procs == NULL)
        return PI_OK;
    if (!json_is_array(procs) || json_array_size(procs) > JSG_RECORD_MAX_DEV_PROCS ||
        whole(d, "procs_dropped", 0, &x->procs_dropped) < 0 || whole(d, "procs_other", 0, &x->procs_other) < 0)
        return pi_invalid(why, size, "GPU %s: procs, procs_dropped or procs_other is not what it should be", x->uuid);
    x->has_procs = 1;
    size_t i;
    json_array_foreach(procs, i, p) {
        int64_t *v = x->proc[x->nproc];
        for (int k = 0; proc_keys[k]; k++)
            if (!json_is_object(p) || whole(p, proc_keys[k], k == P_FIRST || k == P_LAST ? INT64_MIN : 0, &v[k]) < 0)
                return pi_invalid(why, size, "GPU %s: a process's \"%s\" is not a whole number >= 0", x->uuid, proc_keys[k]);
        const char *bad = v[P_PID] < 1 || v[P_PID] > JSG_RECORD_MAX_PID ? "its pid is out of range"
                          : v[P_SAMPLES] < 1 || v[P_SAMPLES] > x->v[T_SAMPLES] || v[P_UTIL_N] > v[P_SAMPLES] ||
                                  v[P_MEM_N] > v[P_SAMPLES]
                              ? "more readings than the GPU's"
                          : v[P_SM_MAX] > 100 || v[P_SM_SUM] > 100 * v[P_UTIL_N] || v[P_MEM_SUM] > 100 * v[P_UTIL_N]
                              ? "utilization above 100 %"
                          : x->v[T_MEM_TOTAL] > 0 && v[P_MEM_MAX] > x->v[T_MEM_TOTAL] ? "more memory than the GPU has"
                                                                                      : NULL;
        if (bad)
            return pi_invalid(why, size, "GPU %s: process %" PRId64 ": %s", x->uuid, v[P_PID], bad);
        if (v[P_SLICES] < 1 || v[P_FIRST] > v[P_LAST] || v[P_SLICES] > v[P_LAST] - v[P_FIRST] + 1 || v[P_FIRST] < g->lo ||
            v[P_LAST] > g->hi)
            return pi_invalid(why, size, "GPU %s: process %" PRId64 ": its slices %" PRId64 "..%" PRId64
                              " are not within the step's span", x->uuid, v[P_PID], v[P_FIRST], v[P_LAST]);
        for (int k = 0; k < x->nproc; k++)
            if (x->proc[k][P_PID] == v[P_PID])
                return pi_invalid(why, size, "GPU %s: process %" PRId64 " is listed twice", x->uuid, v[P_PID]);
        x->nproc++;
    }
    return PI_OK;
}

static int take_dev(struct pi_gpu *g, const json_t *d, struct pi_gpu_dev *x, char *why, size_t size)
{
    const json_t *kind = json_object_get(d, "energy");
    if (!json_is_object(d) || text(d, "uuid", x->uuid, 0) < 0 || !x->uuid[0] || text(d, "name", x->name, 0) < 0 ||
        text(d, "parent", x->parent, 1) < 0 || whole(d, "index", -1, &x->index) < 0 ||
        whole(d, "minor", -1, &x->minor) < 0 || !json_is_boolean(json_object_get(d, "gone")) || !json_is_string(kind) ||
        (strcmp(json_string_value(kind), "counter") && strcmp(json_string_value(kind), "estimated") &&
         strcmp(json_string_value(kind), "none")))
        return pi_invalid(why, size, "a GPU's uuid, name, parent, index, minor, gone or energy is not what it should be");
    snprintf(x->energy, sizeof x->energy, "%s", json_string_value(kind));
    x->gone = json_is_true(json_object_get(d, "gone"));
    for (int k = 0; totals[k]; k++)
        if (whole(d, totals[k], 0, &x->v[k]) < 0)
            return pi_invalid(why, size, "GPU %s: \"%s\" is not a whole number >= 0", x->uuid, totals[k]);
    if (x->v[T_SM_MAX] > 100 || x->v[T_MEM_MAX] > 100 || x->v[T_SM_SUM] > 100 * x->v[T_UTIL_N] ||
        x->v[T_MEM_SUM] > 100 * x->v[T_UTIL_N] || x->v[T_UTIL_N] > x->v[T_SAMPLES])
        return pi_invalid(why, size, "GPU %s: utilization above 100 %% or more readings than samples", x->uuid);
    if (take_procs(g, d, x, why, size) != PI_OK)
        return PI_INVALID;
    const json_t *s = json_object_get(d, "series");
    if (s == NULL || g->slices == 0)
        return PI_OK;
    x->col = calloc((size_t)g->slices * JSG_NCOLS, sizeof *x->col);
    if (x->col == NULL)
        return pi_invalid(why, size, "out of memory for GPU %s's series", x->uuid);
    for (int k = 0; k < JSG_NCOLS; k++)
        if (series(json_object_get(s, column_names[k]), (size_t)g->slices, x->col + k, JSG_NCOLS) < 0)
            return pi_invalid(why, size, "GPU %s: series \"%s\" is not an encoded series of %" PRId64 " slices", x->uuid,
                              column_names[k], g->slices);
    return PI_OK;
}

static int take_cpu(struct pi_gpu *g, const json_t *c, char *why, size_t size)
{
    int64_t zones;
    const json_t *step = json_object_get(c, "step_energy_uj"), *share = json_object_get(c, "share");
    if (!json_is_object(c) || whole(c, "zones", 1, &zones) < 0 || whole(c, "node_energy_uj", 0, &g->node_uj) < 0 ||
        !json_is_string(share) || !(json_is_null(step) || (json_is_integer(step) && json_integer_value(step) >= 0)))
        return pi_invalid(why, size, "\"cpu\" is not {zones, node_energy_uj, step_energy_uj, share}");
    g->has_cpu = 1;
    g->step_uj = json_is_integer(step) ? json_integer_value(step) : -1;
    if (g->step_uj > g->node_uj)
        return pi_invalid(why, size, "the step's CPU energy exceeds the node's");
    snprintf(g->share, sizeof g->share, "%s", json_string_value(share));
    const json_t *s = json_object_get(c, "series"), *busy = json_object_get(s, "node_busy_ns");
    if (g->step_uj >= 0 || busy == NULL || g->slices == 0)
        return PI_OK; /* shared by the relay, or not to be shared here (pi_gpu_cpu_energy_uj) */
    g->cpu_e = calloc((size_t)g->slices, sizeof *g->cpu_e);
    g->cpu_busy = calloc((size_t)g->slices, sizeof *g->cpu_busy);
    if (g->cpu_e == NULL || g->cpu_busy == NULL)
        return pi_invalid(why, size, "out of memory for the node's CPU energy series");
    if (series(json_object_get(s, "node_energy_uj"), (size_t)g->slices, g->cpu_e, 1) < 0 ||
        series(busy, (size_t)g->slices, g->cpu_busy, 1) < 0)
        return pi_invalid(why, size, "\"cpu\": node_energy_uj or node_busy_ns is not an encoded series of %" PRId64 " slices",
                          g->slices);
    for (int64_t i = 0; i < g->slices; i++)
        if (g->cpu_e[i] < 0 || g->cpu_busy[i] < 0)
            return pi_invalid(why, size, "\"cpu\": a negative energy or busy time in slice %" PRId64, g->first + i);
    return PI_OK;
}

/* what the member says of the processes as a whole: none listed by NVML, readings left out */
static void take_proc_notes(struct pi_gpu *g, const json_t *m)
{
    const json_t *api = json_object_get(m, "process_api"), *dropped = json_object_get(m, "proc_readings_dropped");
    int64_t procs_dropped = 0;
    for (int i = 0; i < g->ndev; i++)
        procs_dropped += g->dev[i].procs_dropped;
    if (g->ndev > 0 && json_is_string(api) && strcmp(json_string_value(api), "none") == 0)
        note(g, "NVML on this node lists no processes: the GPUs' processes are not known");
    if (json_is_integer(dropped) && json_integer_value(dropped) > 0)
        note(g, "%" JSON_INTEGER_FORMAT " readings of GPU processes were left out (more processes than the sampler keeps)",
             json_integer_value(dropped));
    if (procs_dropped > 0)
        note(g, "%" PRId64 " processes on the GPUs are not listed (%d a GPU are)", procs_dropped, JSG_RECORD_MAX_DEV_PROCS);
}

/* A MIG instance has no power or energy of its own (NVML gives it none); where the step was
 * not given its whole GPU, whose energy would count, the step's GPU energy lacks it: said. */
static void note_mig_energy(struct pi_gpu *g)
{
    for (int i = 0; i < g->ndev; i++) {
        const struct pi_gpu_dev *x = &g->dev[i];
        int whole = 0;
        for (int k = 0; k < g->ndev && x->parent[0] && !whole; k++)
            whole = strcmp(g->dev[k].uuid, x->parent) == 0;
        if (x->parent[0] && !whole && strcmp(x->energy, "none") == 0)
            note(g, "%s is a MIG instance: NVML gives it no energy of its own, and its GPU's (%s) is not shared among "
                    "instances, so the step's GPU energy leaves it out", x->uuid, x->parent);
    }
}

static int take(struct pi_gpu *g, const struct pi_step *st, const json_t *m, char *why, size_t size)
{
    char nvml[320], sel[320]; /* words of the member, cut to this in the note */
    int64_t version, seconds, dropped, unknown;
    const json_t *gpus = json_object_get(m, "gpus"), *d;
    if (!json_is_object(m) || whole(m, "version", 0, &version) < 0 || version != JSG_RECORD_VERSION)
        return pi_invalid(why, size, "not version %d", JSG_RECORD_VERSION);
    if (whole(m, "slice_seconds", 1, &seconds) < 0 || seconds != st->slice_seconds || whole(m, "slices", 0, &g->slices) < 0 ||
        g->slices > JSG_RECORD_MAX_SLICES || whole(m, "series_dropped", 0, &dropped) < 0 ||
        whole(m, "unknown", 0, &unknown) < 0 || !json_is_integer(json_object_get(m, "first_slice")) ||
        !json_is_array(gpus) || json_array_size(gpus) > JSG_RECORD_MAX_DEVICES)
        return pi_invalid(why, size, "slice_seconds, slices, first_slice, series_dropped, unknown or gpus is not what it should be");
    g->first = json_integer_value(json_object_get(m, "first_slice"));
    /* the series lie within the step's span (a minute's slack, as for profiles) */
    int64_t lo = (st->start_ns - PI_PROFILE_SLACK_NS) / 1000000000 / seconds, hi = (st->end_ns + PI_PROFILE_SLACK_NS) / 1000000000 / seconds;
    g->lo = lo;
    g->hi = hi;
    if (g->slices > 0 && (g->first < lo || g->first + g->slices - 1 > hi))
        return pi_invalid(why, size, "its slices %" PRId64 "..%" PRId64 " lie outside the step's span", g->first,
                          g->first + g->slices - 1);
    const json_t *nv = json_object_get(m, "nvml"), *se = json_object_get(m, "selection");
    if (!json_is_string(nv) || !json_is_string(se))
        return pi_invalid(why, size, "nvml or selection is not a string");
    snprintf(nvml, sizeof nvml, "%s", json_string_value(nv));
    snprintf(sel, sizeof sel, "%s", json_string_value(se));
    size_t i;
    json_array_foreach(gpus, i, d) {
        if (take_dev(g, d, &g->dev[g->ndev++], why, size) != PI_OK)
            return PI_INVALID;
        if (g->dev[g->ndev - 1].gone)
            note(g, "%s disappeared during the step", g->dev[g->ndev - 1].uuid);
    }
    note_mig_energy(g);
    if (strcmp(sel, "none") != 0 && strcmp(nvml, "ok") != 0)
        note(g, "the step asked for GPUs (%s) but %s", sel, nvml);
    else if (strcmp(sel, "none") != 0 && g->ndev == 0)
        note(g, "none of the GPUs the step asked for (%s) is on the node", sel);
    if (unknown > 0)
        note(g, "%" PRId64 " of the GPUs asked for were not found", unknown);
    take_proc_notes(g, m);
    if (json_is_true(json_object_get(m, "stuck")))
        note(g, "NVML stopped answering during the step: its later readings are missing");
    if (dropped > 0)
        note(g, "%" PRId64 " slices are not in the GPU series (%s)", dropped,
             json_is_string(json_object_get(m, "series_note")) ? json_string_value(json_object_get(m, "series_note")) : "");
    const json_t *cpu = json_object_get(m, "cpu");
    return cpu ? take_cpu(g, cpu, why, size) : PI_OK;
}

void pi_gpu_take(struct pi_step *st, const char *path)
{
    char why[PI_REASON_MAX];
    json_t *m = st->rec ? json_object_get(st->rec, "gpu") : NULL;
    if (m == NULL)
        return;
    struct pi_gpu *g = calloc(1, sizeof *g);
    if (g == NULL) {
        pi_error("%s: out of memory for its GPU readings; left out", path);
        json_object_del(st->rec, "gpu");
        return;
    }
    g->step_uj = -1;
    if (take(g, st, m, why, sizeof why) != PI_OK) {
        pi_error("%s: its GPU readings (\"gpu\") are refused: %s", path, why);
        for (int i = 0; i < g->ndev; i++)
            free(g->dev[i].col);
        free(g->cpu_e);
        free(g->cpu_busy);
        memset(g, 0, sizeof *g);
        g->step_uj = -1;
        snprintf(g->note, sizeof g->note, "the step record's GPU readings were refused: %.900s", why);
    }
    st->gpu = g;
    json_object_del(st->rec, "gpu");
}

int pi_gpu_devices(const struct pi_gpu *g)
{
    return g ? g->ndev : 0;
}

int pi_gpu_processes(const struct pi_gpu *g)
{
    int n = 0;
    for (int i = 0; g && i < g->ndev; i++)
        n += g->dev[i].nproc;
    return n;
}

const char *pi_gpu_note(const struct pi_gpu *g)
{
    return g ? g->note : "";
}

void pi_gpu_free(struct pi_gpu *g)
{
    if (g == NULL)
        return;
    for (int i = 0; i < g->ndev; i++)
        free(g->dev[i].col);
    free(g->cpu_e);
    free(g->cpu_busy);
    free(g);
}

int64_t pi_gpu_cpu_energy_uj(struct pi_gpu *g, const struct pi_step *st)
{
    if (g == NULL || !g->has_cpu)
        return -1;
    if (g->step_uj >= 0 || g->cpu_done)
        return g->step_uj;
    g->cpu_done = 1;
    if (g->cpu_busy == NULL || st->nslices == 0) {
        note(g, "CPU energy not attributed: %.200s", g->share);
        return -1;
    }
    int64_t sum = 0;
    for (size_t i = 0; i < st->nslices; i++) {
        int64_t off = st->slices[i].slice - g->first;
        if (off >= 0 && off < g->slices)
            sum += jsg_cpu_share(g->cpu_e[off], st->slices[i].m[JS_M_CPU_NS], g->cpu_busy[off]);
    }
    g->step_uj = sum < g->node_uj ? sum : g->node_uj;
    note(g, "CPU energy shared by the CPU time the step's processes reported (%.200s)", g->share);
    return g->step_uj;
}

/* text of a number, or NULL */
static char *num(char *buf, size_t size, int64_t v, int null_when)
{
    if (null_when)
        return NULL;
    snprintf(buf, size, "%" PRId64, v);
    return buf;
}

static char *real(char *buf, size_t size, double v, int null_when)
{
    if (null_when)
        return NULL;
    snprintf(buf, size, "%.17g", v);
    return buf;
}

/* the device's first and last slice with a reading, from its series (-1: none held) */
static void span(const struct pi_gpu *g, const struct pi_gpu_dev *x, int64_t *first, int64_t *last)
{
    *first = *last = -1;
    for (int64_t i = 0; x->col && i < g->slices; i++)
        if (x->col[i * JSG_NCOLS + JSG_COL_samples] > 0) {
            if (*first < 0)
                *first = g->first + i;
            *last = g->first + i;
        }
}

static int insert_dev(struct pi_db *db, const struct pi_gpu *g, const struct pi_gpu_dev *x, const char *const key[4])
{
    char b[18][40];
    int64_t first, last;
    span(g, x, &first, &last);
    const int64_t *v = x->v;
    const char *p[27] = {
        key[0], key[1], key[2], key[3], x->uuid, x->name, num(b[0], 40, x->index, x->index < 0),
        num(b[1], 40, x->minor, x->minor < 0), x->parent[0] ? x->parent : NULL, num(b[2], 40, v[T_MEM_TOTAL], v[T_MEM_TOTAL] == 0),
        num(b[3], 40, first, first < 0), num(b[4], 40, last, last < 0), num(b[5], 40, v[T_SAMPLES], 0),
        real(b[6], 40, (double)v[T_SM_SUM] / (double)(v[T_UTIL_N] ? v[T_UTIL_N] : 1), v[T_UTIL_N] == 0),
        num(b[7], 40, v[T_SM_MAX], v[T_UTIL_N] == 0),
        real(b[8], 40, (double)v[T_MEM_SUM] / (double)(v[T_UTIL_N] ? v[T_UTIL_N] : 1), v[T_UTIL_N] == 0),
        num(b[9], 40, v[T_MEM_MAX], v[T_UTIL_N] == 0), num(b[10], 40, v[T_MEM_USED], v[T_MEM_N] == 0),
        real(b[11], 40, (double)v[T_POWER_SUM] / 1000.0 / (double)(v[T_POWER_N] ? v[T_POWER_N] : 1), v[T_POWER_N] == 0),
        real(b[12], 40, (double)v[T_POWER_MAX] / 1000.0, v[T_POWER_N] == 0),
        real(b[13], 40, (double)v[T_ENERGY] / 1e6, strcmp(x->energy, "none") == 0), x->energy, x->gone ? "t" : "f",
        num(b[14], 40, v[T_FAILED], 0), num(b[15], 40, x->procs_dropped, !x->has_procs),
        num(b[16], 40, x->procs_other, !x->has_procs), NULL };
    return dbu_check(db, dbu_q(db, "INSERT INTO js_data.step_node_gpus (cluster_id, job_id, step_id, node, uuid, name, "
                                   "gpu_index, minor, mig_parent, mem_total, first_slice, last_slice, samples, util_sm_mean, "
                                   "util_sm_max, util_mem_mean, util_mem_max, mem_used_max, power_w_mean, power_w_max, "
                                   "energy_j, energy_kind, gone, failed_reads, processes_dropped, processes_other) VALUES ($1, $2, "
                                   "$3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, "
                                   "$22, $23, $24, $25, $26)",
                               26, p),
                     PGRES_COMMAND_OK, "step_node_gpus");
}

/* the device's processes of the step, a row each (js_data.step_node_gpu_processes) */
static int insert_procs(struct pi_db *db, const struct pi_gpu_dev *x, const char *const key[4])
{
    int rc = PI_DB_OK;
    for (int i = 0; i < x->nproc && rc == PI_DB_OK; i++) {
        const int64_t *v = x->proc[i];
        char b[10][40];
        double n = (double)(v[P_UTIL_N] ? v[P_UTIL_N] : 1);
        const char *p[15] = { key[0], key[1], key[2], key[3], x->uuid, num(b[0], 40, v[P_PID], 0),
                              num(b[1], 40, v[P_SAMPLES], 0), num(b[2], 40, v[P_FIRST], 0), num(b[3], 40, v[P_LAST], 0),
                              num(b[4], 40, v[P_SLICES], 0), num(b[5], 40, v[P_MEM_MAX], v[P_MEM_N] == 0),
                              real(b[6], 40, (double)v[P_SM_SUM] / n, v[P_UTIL_N] == 0),
                              num(b[7], 40, v[P_SM_MAX], v[P_UTIL_N] == 0),
                              real(b[8], 40, (double)v[P_MEM_SUM] / n, v[P_UTIL_N] == 0), NULL };
        rc = dbu_check(db, dbu_q(db, "INSERT INTO js_data.step_node_gpu_processes (cluster_id, job_id, step_id, node, uuid, "
                                     "pid, samples, first_slice, last_slice, slices, mem_used_max, util_sm_mean, util_sm_max, "
                                     "util_mem_mean) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
                                 14, p),
                       PGRES_COMMAND_OK, "step_node_gpu_processes");
    }
    return rc;
}

/* the device's series, one row per chunk of JS_SERIES_CHUNK slices (as series_step_node) */
static int copy_dev_series(struct pi_db *db, const struct pi_gpu *g, const struct pi_gpu_dev *x, const char *const key[4])
{
    if (x->col == NULL || g->slices == 0)
        return PI_DB_OK;
    struct sbuf b = { 0 };
    unsigned char *tmp = malloc(JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK));
    if (tmp == NULL)
        return PI_DB_RETRY;
    for (int64_t i = 0; i < g->slices;) {
        int64_t s = g->first + i, chunk = js_series_chunk_of(s);
        int64_t n = chunk + JS_SERIES_CHUNK - s;
        if (n > g->slices - i)
            n = g->slices - i;
        sb_printf(&b, "%s\t%s\t", key[0], key[1]);
        sb_text(&b, key[2]);
        sb_raw(&b, "\t", 1);
        sb_text(&b, key[3]);
        sb_raw(&b, "\t", 1);
        sb_text(&b, x->uuid);
        sb_printf(&b, "\t%" PRId64 "\t%" PRId64 "\t%" PRId64, chunk, s, n);
        for (int k = 0; k < JSG_NCOLS; k++) {
            sb_raw(&b, "\t", 1);
            sb_series(&b, x->col + i * JSG_NCOLS + k, (size_t)n, JSG_NCOLS, tmp);
        }
        sb_raw(&b, "\n", 1);
        i += n;
    }
    free(tmp);
    char sql[512];
    int n = snprintf(sql, sizeof sql, "COPY js_data.series_step_node_gpu (cluster_id, job_id, step_id, node, uuid, chunk, "
                                      "first_slice, slices");
    for (int k = 0; k < JSG_NCOLS; k++)
        n += snprintf(sql + n, sizeof sql - (size_t)n, ", %s", column_names[k]);
    snprintf(sql + n, sizeof sql - (size_t)n, ") FROM STDIN");
    int rc = dbu_copy(db, sql, &b, "COPY series_step_node_gpu");
    free(b.p);
    return rc;
}

int pi_gpu_write(struct pi_db *db, const struct pi_step *st, const char *cid, const char *job)
{
    struct pi_gpu *g = st->gpu;
    if (g == NULL)
        return PI_DB_OK;
    pi_gpu_cpu_energy_uj(g, st);
    const char *key[4] = { cid, job, st->step, st->node };
    int rc = PI_DB_OK;
    int64_t energy = 0;
    int any_energy = 0;
    for (int i = 0; i < g->ndev && rc == PI_DB_OK; i++) {
        const struct pi_gpu_dev *x = &g->dev[i];
        if (strcmp(x->energy, "none") != 0) {
            energy += x->v[T_ENERGY];
            any_energy = 1;
        }
        if ((rc = insert_dev(db, g, x, key)) == PI_DB_OK && (rc = copy_dev_series(db, g, x, key)) == PI_DB_OK)
            rc = insert_procs(db, x, key);
    }
    if (rc != PI_DB_OK)
        return rc;
    char b[4][40];
    const char *p[9] = { cid, job, st->step, st->node, num(b[0], 40, g->ndev, 0),
                         real(b[1], 40, (double)energy / 1e6, !any_energy),
                         real(b[2], 40, (double)g->step_uj / 1e6, !g->has_cpu || g->step_uj < 0),
                         real(b[3], 40, (double)g->node_uj / 1e6, !g->has_cpu), g->note[0] ? g->note : NULL };
    return dbu_check(db, dbu_q(db, "INSERT INTO js_data.step_node_energy (cluster_id, job_id, step_id, node, gpus, "
                                   "gpu_energy_j, cpu_energy_j, node_cpu_energy_j, gpu_note) "
                                   "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                               9, p),
                     PGRES_COMMAND_OK, "step_node_energy");
}
