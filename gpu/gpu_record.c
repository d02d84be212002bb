/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The step record's "gpu" member (gpu_record.h): the relay hands every closed slice here;
 * the selected devices' slices become dense per-slice columns and totals, the powercap zones'
 * energy the node's CPU energy per slice, and the step's share of it (its CPU time over the
 * node's busy CPU time in the slice, docs/gpu.md "Attribution"). Written once, at the step's
 * end, as one JSON object.
 */
#include "config.h"

#include "gpu_json.h"
#include "gpu_procs.h"
#include "gpu_record.h"

#include "bundle_series.h"
#include "series.h"
#include "slice.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *const jsg_record_column_names[JSG_NCOLS] = {
#define JSG_COL_NAME(name) #name,
    JSG_RECORD_COLUMNS(JSG_COL_NAME)
#undef JSG_COL_NAME
};

struct rec_dev {
    int dev; /* position in the sampler's device table */
    uint64_t mem_total, mem_used_max;
    uint64_t samples, util_n, util_sm_sum, util_mem_sum, mem_n, power_n, power_mw_sum;
    uint32_t util_sm_max, util_mem_max, power_mw_max, failed;
    int64_t energy_uj;
    uint8_t energy, gone;
    int64_t *col; /* JSG_NCOLS a slice, slices first .. first + n - 1 */
};

#define CPU_RING 16 /* slices whose CPU times wait for their slice to close */
#define CPU_COLS 3  /* the node's energy, the step's share, the node's busy CPU time */

struct jsg_record {
    int32_t seconds;
    char source[64];
    int unknown;
    int ndev;
    struct rec_dev dev[JSG_MAX_DEVICES];
    int nzone;
    char powercap[160];
    struct jsg_procs *procs; /* the step's processes per device */
    int64_t first;
    size_t n, cap;
    uint64_t dropped;
    int64_t *cpu; /* node_uj, step_uj (0 where unknown), busy_ns a slice */
    int64_t node_uj, step_uj;
    int step_known;
    char cpu_note[160];
    struct { int64_t slice, step_ns, busy_ns; int used, known; } ring[CPU_RING];
};

struct jsg_record *jsg_record_new(const struct jsg_gpus *g, const struct jsg_powercap *pc, int32_t seconds,
                                  const char *source, int unknown)
{
    struct jsg_record *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->seconds = seconds;
    snprintf(r->source, sizeof r->source, "%s", source ? source : "none");
    r->unknown = unknown;
    for (int i = 0; g != NULL && i < jsg_ndevices(g) && r->ndev < JSG_MAX_DEVICES; i++)
        if (jsg_device(g, i)->selected)
            r->dev[r->ndev++].dev = i;
    r->nzone = pc->nzone;
    snprintf(r->powercap, sizeof r->powercap, "%s", pc->status);
    r->first = INT64_MIN;
    if ((r->procs = jsg_procs_new()) == NULL) {
        free(r);
        return NULL;
    }
    return r;
}

void jsg_record_filter_procs(struct jsg_record *r, struct jsg_tick *t, int (*is_step)(uint32_t pid, void *arg),
                             void *arg)
{
    jsg_procs_filter(r->procs, t, is_step, arg);
}

void jsg_record_cpu_note(struct jsg_record *r, const char *why)
{
    snprintf(r->cpu_note, sizeof r->cpu_note, "%s", why ? why : "");
}

void jsg_record_cpu(struct jsg_record *r, int64_t t0_ns, int64_t t_ns, int64_t step_ns, int64_t busy_ns)
{
    const int64_t len = (int64_t)r->seconds * 1000000000LL;
    if (t0_ns >= t_ns) /* no interval (the clock stepped back): all of it in the instant before t_ns */
        t0_ns = t_ns - 1;
    int64_t s1 = js_slice_of_ns(t_ns, r->seconds), s0 = js_slice_of_ns(t0_ns, r->seconds);
    if (s1 - s0 >= CPU_RING) /* a long silence: its earliest slices get no CPU time, not a wrong one */
        s0 = s1 - CPU_RING + 1;
    for (int64_t slice = s0; slice <= s1; slice++) {
        typeof(&r->ring[0]) e = &r->ring[(uint64_t)slice % CPU_RING];
        if (!e->used || e->slice != slice)
            *e = (typeof(*e)){ .slice = slice, .used = 1, .known = 1 };
        if (step_ns < 0)
            e->known = 0;
        else
            e->step_ns += jsg_time_share(step_ns, t0_ns, t_ns, slice * len, (slice + 1) * len);
        e->busy_ns += busy_ns > 0 ? jsg_time_share(busy_ns, t0_ns, t_ns, slice * len, (slice + 1) * len) : 0;
    }
}

/* room for slice offset off in every column; -1 when out of memory */
static int grow(struct jsg_record *r, size_t off)
{
    if (off < r->cap)
        return 0;
    size_t cap = r->cap ? r->cap : 256;
    while (cap <= off)
        cap *= 2;
    if (cap > JSG_RECORD_MAX_SLICES)
        cap = JSG_RECORD_MAX_SLICES;
    for (int i = 0; i < r->ndev; i++) {
        int64_t *c = realloc(r->dev[i].col, cap * JSG_NCOLS * sizeof *c);
        if (c == NULL)
            return -1;
        memset(c + r->cap * JSG_NCOLS, 0, (cap - r->cap) * JSG_NCOLS * sizeof *c);
        r->dev[i].col = c;
    }
    int64_t *c = realloc(r->cpu, cap * CPU_COLS * sizeof *c);
    if (c == NULL)
        return -1;
    memset(c + r->cap * CPU_COLS, 0, (cap - r->cap) * CPU_COLS * sizeof *c);
    r->cpu = c;
    r->cap = cap;
    return 0;
}

static void add_dev(struct rec_dev *d, const struct jsg_slice_dev *s, int64_t *col)
{
    d->samples += s->samples;
    d->util_n += s->util_n;
    d->util_sm_sum += s->util_sm_sum;
    d->util_mem_sum += s->util_mem_sum;
    d->util_sm_max = s->util_sm_max > d->util_sm_max ? s->util_sm_max : d->util_sm_max;
    d->util_mem_max = s->util_mem_max > d->util_mem_max ? s->util_mem_max : d->util_mem_max;
    d->mem_n += s->mem_n;
    d->mem_used_max = s->mem_used_max > d->mem_used_max ? s->mem_used_max : d->mem_used_max;
    if (s->mem_total)
        d->mem_total = s->mem_total;
    d->power_n += s->power_n;
    d->power_mw_sum += s->power_mw_sum;
    d->power_mw_max = s->power_mw_max > d->power_mw_max ? s->power_mw_max : d->power_mw_max;
    d->energy_uj += s->energy_uj;
    if (s->energy > d->energy) /* estimated anywhere: estimated */
        d->energy = s->energy;
    d->gone |= s->gone;
    d->failed += s->failed;
    if (col == NULL)
        return;
    col[JSG_COL_samples] = s->samples;
    col[JSG_COL_util_n] = s->util_n;
    col[JSG_COL_util_sm_sum] = (int64_t)s->util_sm_sum;
    col[JSG_COL_util_mem_sum] = (int64_t)s->util_mem_sum;
    col[JSG_COL_util_sm_max] = s->util_sm_max;
    col[JSG_COL_util_mem_max] = s->util_mem_max;
    col[JSG_COL_mem_used_max] = (int64_t)s->mem_used_max;
    col[JSG_COL_power_n] = s->power_n;
    col[JSG_COL_power_mw_sum] = (int64_t)s->power_mw_sum;
    col[JSG_COL_energy_uj] = s->energy_uj > 0 ? s->energy_uj : 0;
}

void jsg_record_slice(const struct jsg_slice *s, void *arg)
{
    struct jsg_record *r = arg;
    if (r->first == INT64_MIN)
        r->first = s->index;
    int64_t off = s->index - r->first;
    int held = off >= 0 && off < JSG_RECORD_MAX_SLICES && grow(r, (size_t)off) == 0;
    if (!held)
        r->dropped++;
    else if ((size_t)off + 1 > r->n)
        r->n = (size_t)off + 1;
    for (int i = 0; i < r->ndev; i++) {
        struct rec_dev *d = &r->dev[i];
        if (d->dev < s->ndev)
            add_dev(d, &s->dev[d->dev], held ? d->col + (size_t)off * JSG_NCOLS : NULL);
    }
    jsg_procs_slice(r->procs, s);
    if (r->nzone == 0)
        return;
    int64_t e = 0;
    for (int z = 0; z < s->nzone; z++)
        if (s->zone_have[z] && s->zone_uj[z] > 0)
            e += s->zone_uj[z];
    typeof(&r->ring[0]) c = &r->ring[(uint64_t)s->index % CPU_RING];
    int known = c->used && c->slice == s->index && c->known && !r->cpu_note[0];
    int64_t share = known ? jsg_cpu_share(e, c->step_ns, c->busy_ns) : -1;
    r->node_uj += e;
    if (known) {
        r->step_uj += share;
        r->step_known = 1;
    }
    if (held) {
        r->cpu[off * CPU_COLS] = e;
        r->cpu[off * CPU_COLS + 1] = known ? share : 0;
        r->cpu[off * CPU_COLS + 2] = c->used && c->slice == s->index ? c->busy_ns : 0;
    }
}

/* one encoded series in base64 (or null) as "name":...; returns the base64 length */
static size_t series(FILE *f, const char *name, const int64_t *v, size_t n, size_t stride, unsigned char *tmp,
                     char *b64, int first)
{
    size_t len = js_series_encode(v, n, stride, tmp);
    size_t bl = len ? js_b64_encode(tmp, len, b64) : 0;
    if (f != NULL) {
        fprintf(f, "%s\"%s\":", first ? "" : ",", name);
        if (len)
            fprintf(f, "\"%s\"", b64);
        else
            fputs("null", f);
    }
    return bl;
}

/* every series once, to f (NULL: only measured); the base64 bytes they take */
static size_t all_series(const struct jsg_record *r, FILE *f, int dev, unsigned char *tmp, char *b64)
{
    size_t total = 0;
    if (dev >= 0) {
        for (int k = 0; k < JSG_NCOLS; k++)
            total += series(f, jsg_record_column_names[k], r->dev[dev].col + k, r->n, JSG_NCOLS, tmp, b64, k == 0);
        return total;
    }
    total += series(f, "node_energy_uj", r->cpu, r->n, CPU_COLS, tmp, b64, 1);
    if (r->step_known)
        total += series(f, "step_energy_uj", r->cpu + 1, r->n, CPU_COLS, tmp, b64, 0);
    else /* the ingest shares E by the CPU time the step's processes reported */
        total += series(f, "node_busy_ns", r->cpu + 2, r->n, CPU_COLS, tmp, b64, 0);
    return total;
}

static void write_dev(const struct jsg_record *r, int i, const struct jsg_gpus *g, FILE *f, int with_series,
                      unsigned char *tmp, char *b64)
{
    static const char *const kind[] = { "none", "counter", "estimated" };
    const struct rec_dev *d = &r->dev[i];
    const struct jsg_device *dv = jsg_device(g, d->dev);
    fprintf(f, "%s{\"uuid\":", i ? "," : "");
    jsg_json_str(f, dv->uuid);
    fprintf(f, ",\"name\":");
    jsg_json_str(f, dv->name);
    fprintf(f, ",\"index\":%d,\"minor\":%d,\"parent\":", dv->index, dv->minor);
    if (dv->parent >= 0)
        jsg_json_str(f, jsg_device(g, dv->parent)->uuid);
    else
        fputs("null", f);
    fprintf(f,
            ",\"mem_total\":%" PRIu64 ",\"energy\":\"%s\",\"gone\":%s,\"failed\":%u,\"samples\":%" PRIu64
            ",\"util_n\":%" PRIu64 ",\"util_sm_sum\":%" PRIu64 ",\"util_mem_sum\":%" PRIu64 ",\"util_sm_max\":%u"
            ",\"util_mem_max\":%u,\"mem_n\":%" PRIu64 ",\"mem_used_max\":%" PRIu64 ",\"power_n\":%" PRIu64
            ",\"power_mw_sum\":%" PRIu64 ",\"power_mw_max\":%u,\"energy_uj\":%" PRId64,
            d->mem_total, kind[d->energy < 3 ? d->energy : 0], d->gone || dv->gone ? "true" : "false", d->failed,
            d->samples, d->util_n, d->util_sm_sum, d->util_mem_sum, d->util_sm_max, d->util_mem_max, d->mem_n,
            d->mem_used_max, d->power_n, d->power_mw_sum, d->power_mw_max, d->energy_uj);
    jsg_procs_write_dev(r->procs, d->dev, f);
    if (with_series) {
        fputs(",\"series\":{", f);
        all_series(r, f, i, tmp, b64);
        fputc('}', f);
    }
    fputc('}', f);
}

static void write_cpu(const struct jsg_record *r, FILE *f, int with_series, unsigned char *tmp, char *b64)
{
    fputs(",\"cpu\":{\"powercap\":", f);
    jsg_json_str(f, r->powercap);
    fprintf(f, ",\"zones\":%d,\"share\":", r->nzone);
    jsg_json_str(f, r->cpu_note[0] ? r->cpu_note : "ok");
    fprintf(f, ",\"node_energy_uj\":%" PRId64 ",\"step_energy_uj\":", r->node_uj);
    if (r->step_known)
        fprintf(f, "%" PRId64, r->step_uj);
    else
        fputs("null", f);
    if (with_series) {
        fputs(",\"series\":{", f);
        all_series(r, f, -1, tmp, b64);
        fputc('}', f);
    }
    fputc('}', f);
}

int jsg_record_write(struct jsg_record *r, const struct jsg_gpus *g, FILE *f)
{
    unsigned char *tmp = malloc(JS_SERIES_MAX_BYTES(r->n ? r->n : 1));
    char *b64 = malloc(JS_B64_LEN(JS_SERIES_MAX_BYTES(r->n ? r->n : 1)) + 1);
    if (tmp == NULL || b64 == NULL) {
        free(tmp);
        free(b64);
        return -1;
    }
    size_t bytes = r->nzone ? all_series(r, NULL, -1, tmp, b64) : 0;
    for (int i = 0; i < r->ndev; i++)
        bytes += all_series(r, NULL, i, tmp, b64);
    int with_series = r->n > 0 && bytes <= JSG_RECORD_SERIES_MAX_BYTES;
    uint64_t dropped = r->dropped + (with_series ? 0 : r->n);
    fprintf(f, "{\"version\":%d,\"slice_seconds\":%d,\"nvml\":", JSG_RECORD_VERSION, r->seconds);
    jsg_json_str(f, g ? jsg_status(g) : "no GPUs: nvml=none");
    fprintf(f, ",\"selection\":");
    jsg_json_str(f, r->source);
    fprintf(f, ",\"unknown\":%d,\"stuck\":%s,\"first_slice\":%" PRId64 ",\"slices\":%zu,\"series_dropped\":%" PRIu64,
            r->unknown, g && jsg_stuck(g) ? "true" : "false", r->first == INT64_MIN ? 0 : r->first,
            r->n, dropped);
    fputs(",\"process_api\":", f);
    jsg_json_str(f, g ? jsg_proc_api(g) : "none");
    fprintf(f, ",\"proc_readings_dropped\":%" PRIu64 ",\"proc_readings_ended\":%" PRIu64, jsg_procs_dropped(r->procs),
            jsg_procs_ended(r->procs));
    if (!with_series && r->n > 0)
        fprintf(f, ",\"series_note\":\"the series (%zu bytes in base64) exceed what a step record holds (%u)\"", bytes,
                JSG_RECORD_SERIES_MAX_BYTES);
    else if (r->dropped)
        fprintf(f, ",\"series_note\":\"the series hold the first %d slices of the step\"", JSG_RECORD_MAX_SLICES);
    fputs(",\"gpus\":[", f);
    for (int i = 0; i < r->ndev; i++)
        write_dev(r, i, g, f, with_series, tmp, b64);
    fputc(']', f);
    if (r->nzone)
        write_cpu(r, f, with_series, tmp, b64);
    fputs("}\n", f);
    free(tmp);
    free(b64);
    return ferror(f) ? -1 : 0;
}

void jsg_record_free(struct jsg_record *r)
{
    if (r == NULL)
        return;
    for (int i = 0; i < r->ndev; i++)
        free(r->dev[i].col);
    free(r->cpu);
    jsg_procs_free(r->procs);
    free(r);
}
