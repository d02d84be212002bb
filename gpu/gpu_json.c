/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sampler's readings and slices as JSON lines (jobscreen-gpu-sample; docs/gpu.md, "The
 * standalone sampler"): one object a line, "type" first.
 */
#include "config.h"

#include "gpu_json.h"

#include <inttypes.h>

/* a JSON string from text NVML or sysfs gave: quotes, backslashes and controls escaped */
void jsg_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void mean(FILE *f, const char *key, uint64_t sum, uint32_t n)
{
    if (n == 0)
        fprintf(f, ",\"%s\":null", key);
    else
        fprintf(f, ",\"%s\":%.2f", key, (double)sum / n);
}

/* microjoules as millijoules with three decimals: exact, no float */
static void mj(FILE *f, const char *key, int64_t uj)
{
    fprintf(f, ",\"%s\":%" PRId64 ".%03" PRId64, key, uj / 1000, uj % 1000);
}

void jsg_json_node(FILE *f, const struct jsg_gpus *g, const struct jsg_powercap *pc,
                   int32_t seconds, const char *selection)
{
    fprintf(f, "{\"type\":\"node\",\"slice_seconds\":%d,\"nvml\":", seconds);
    jsg_json_str(f, jsg_status(g));
    fprintf(f, ",\"process_api\":");
    jsg_json_str(f, jsg_proc_api(g));
    fprintf(f, ",\"selection\":");
    jsg_json_str(f, selection);
    fprintf(f, ",\"gpus\":[");
    for (int i = 0; i < jsg_ndevices(g); i++) {
        const struct jsg_device *d = jsg_device(g, i);
        fprintf(f, "%s{\"dev\":%d,\"index\":%d,\"minor\":%d,\"uuid\":", i ? "," : "", i,
                d->index, d->minor);
        jsg_json_str(f, d->uuid);
        fprintf(f, ",\"name\":");
        jsg_json_str(f, d->name);
        fprintf(f, ",\"mig_enabled\":%s,\"parent\":%d,\"selected\":%s}",
                d->mig_enabled ? "true" : "false", d->parent,
                d->selected ? "true" : "false");
    }
    fprintf(f, "],\"powercap\":");
    jsg_json_str(f, pc->status);
    fprintf(f, ",\"zones\":[");
    for (int i = 0; i < pc->nzone; i++) {
        fprintf(f, "%s{\"zone\":", i ? "," : "");
        jsg_json_str(f, pc->zone[i].dir);
        fprintf(f, ",\"name\":");
        jsg_json_str(f, pc->zone[i].name);
        fprintf(f, ",\"max_uj\":%" PRIu64 "}", pc->zone[i].max_uj);
    }
    fprintf(f, "]}\n");
}

static void reading(FILE *f, int i, const struct jsg_reading *r)
{
    fprintf(f, "{\"dev\":%d", i);
    if (r->have & JSG_HAVE_UTIL)
        fprintf(f, ",\"util_sm\":%u,\"util_mem\":%u", r->util_sm, r->util_mem);
    if (r->have & JSG_HAVE_MEM)
        fprintf(f, ",\"mem_used\":%" PRIu64 ",\"mem_total\":%" PRIu64, r->mem_used,
                r->mem_total);
    if (r->have & JSG_HAVE_POWER)
        fprintf(f, ",\"power_mw\":%u", r->power_mw);
    if (r->have & JSG_HAVE_ENERGY)
        fprintf(f, ",\"energy_counter_mj\":%" PRIu64, r->energy_mj);
    if (r->failed)
        fprintf(f, ",\"failed\":true");
    if (r->gone)
        fprintf(f, ",\"gone\":true");
    fputc('}', f);
}

void jsg_json_tick(FILE *f, const struct jsg_gpus *g, const struct jsg_tick *t)
{
    fprintf(f, "{\"type\":\"sample\",\"t\":%" PRId64 ".%03" PRId64 ",\"gpus\":[",
            t->t_ns / 1000000000, t->t_ns % 1000000000 / 1000000);
    int n = 0;
    for (int i = 0; i < t->ndev; i++) {
        const struct jsg_device *d = jsg_device(g, i);
        if (d == NULL || !d->selected)
            continue;
        fputs(n++ ? "," : "", f);
        reading(f, i, &t->dev[i]);
    }
    fprintf(f, "],\"procs\":[");
    for (int i = 0; i < t->nproc; i++) {
        const struct jsg_proc *p = &t->proc[i];
        fprintf(f, "%s{\"pid\":%u,\"dev\":%u", i ? "," : "", p->pid, p->dev);
        if (p->have & JSG_HAVE_MEM)
            fprintf(f, ",\"mem_used\":%" PRIu64, p->mem_used);
        if (p->have & JSG_HAVE_UTIL)
            fprintf(f, ",\"util_sm\":%u,\"util_mem\":%u", p->util_sm, p->util_mem);
        fputc('}', f);
    }
    fprintf(f, "],\"procs_dropped\":%u,\"cpu_energy_uj\":[", t->proc_dropped);
    for (int i = 0; i < t->nzone; i++) {
        if (t->zone[i].have)
            fprintf(f, "%s%" PRIu64, i ? "," : "", t->zone[i].energy_uj);
        else
            fprintf(f, "%snull", i ? "," : "");
    }
    fprintf(f, "]}\n");
}

static void slice_dev(FILE *f, int i, const struct jsg_slice_dev *d)
{
    static const char *const kind[] = {"none", "counter", "estimated"};
    fprintf(f, "{\"dev\":%d,\"samples\":%u", i, d->samples);
    mean(f, "util_sm_mean", d->util_sm_sum, d->util_n);
    fprintf(f, ",\"util_sm_max\":%u", d->util_sm_max);
    mean(f, "util_mem_mean", d->util_mem_sum, d->util_n);
    fprintf(f, ",\"util_mem_max\":%u", d->util_mem_max);
    if (d->mem_n > 0)
        fprintf(f, ",\"mem_used_max\":%" PRIu64 ",\"mem_total\":%" PRIu64, d->mem_used_max,
                d->mem_total);
    mean(f, "power_mw_mean", d->power_mw_sum, d->power_n);
    mj(f, "energy_mj", d->energy_uj);
    fprintf(f, ",\"energy\":\"%s\"", kind[d->energy < 3 ? d->energy : 0]);
    if (d->failed)
        fprintf(f, ",\"failed\":%u", d->failed);
    if (d->gone)
        fprintf(f, ",\"gone\":true");
    fputc('}', f);
}

void jsg_json_slice(FILE *f, const struct jsg_gpus *g, const struct jsg_slice *s, int partial)
{
    fprintf(f, "{\"type\":\"slice\",\"slice\":%" PRId64 ",\"start\":%" PRId64
               ",\"seconds\":%d,\"ticks\":%u%s,\"gpus\":[",
            s->index, s->index * s->seconds, s->seconds, s->ticks,
            partial ? ",\"partial\":true" : "");
    int n = 0;
    for (int i = 0; i < s->ndev; i++) {
        const struct jsg_device *d = jsg_device(g, i);
        if (d == NULL || !d->selected)
            continue;
        fputs(n++ ? "," : "", f);
        slice_dev(f, i, &s->dev[i]);
    }
    fprintf(f, "],\"procs\":[");
    for (int i = 0; i < s->nproc; i++) {
        const struct jsg_slice_proc *p = &s->proc[i];
        fprintf(f, "%s{\"pid\":%u,\"dev\":%u,\"samples\":%u", i ? "," : "", p->pid, p->dev,
                p->samples);
        mean(f, "util_sm_mean", p->util_sm_sum, p->util_n);
        fprintf(f, ",\"util_sm_max\":%u,\"mem_used_max\":%" PRIu64 "}", p->util_sm_max,
                p->mem_used_max);
    }
    fprintf(f, "],\"procs_dropped\":%u,\"cpu\":[", s->proc_dropped);
    for (int i = 0; i < s->nzone; i++) {
        fprintf(f, "%s{\"zone\":%d", i ? "," : "", i);
        if (s->zone_have[i])
            mj(f, "energy_mj", s->zone_uj[i]);
        else
            fprintf(f, ",\"energy_mj\":null");
        fputc('}', f);
    }
    fprintf(f, "]}\n");
}
