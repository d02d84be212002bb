/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The terminal report's GPUs and energy (report.h; docs/gpu.md): a line per step that had GPUs
 * ("4 GPUs, utilization 23 % (max 61 %), memory peak 12.3 GiB of 80.0 GiB"), its energy and the
 * job's ("1.2 kWh; 0.4 kg CO2", the CO2 only where cli.conf sets co2_g_per_kwh), a line per
 * GPU with processes of the step ("n1 GPU 0: 2 processes, rank 0 (pid 123) 11.2 GiB peak": the
 * one with the highest peak memory), and what the readings lack.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "report_parts.h"

static double co2_g_per_kwh = NAN;

void jsr_set_co2(double g_per_kwh)
{
    co2_g_per_kwh = g_per_kwh;
}

/* J, Wh or kWh, without CO2 */
static void energy_only(char *buf, size_t n, double joules)
{
    if (joules < 3600)
        snprintf(buf, n, "%.1f J", joules);
    else if (joules < 3.6e6)
        snprintf(buf, n, "%.1f Wh", joules / 3600);
    else
        snprintf(buf, n, "%.1f kWh", joules / 3.6e6);
}

void jsr_energy(char *buf, size_t n, double joules)
{
    energy_only(buf, n, joules);
    size_t l = strlen(buf);
    if (isfinite(co2_g_per_kwh) && l < n) {
        double g = joules / 3.6e6 * co2_g_per_kwh;
        if (g < 1000)
            snprintf(buf + l, n - l, "; %.1f g CO2", g);
        else
            snprintf(buf + l, n - l, "; %.1f kg CO2", g / 1000);
    }
}

/* "2 GPUs, utilization 11 % (max 12 %), memory peak 1.0 GiB of 80.0 GiB" */
static void gpu_text(char *buf, size_t n, const json_t *g)
{
    double count = jsr_num(g, "count"), mean = jsr_num(g, "util_sm_mean"), max = jsr_num(g, "util_sm_max");
    char peak[24], total[24];
    int k = snprintf(buf, n, "%.0f GPU%s", count, count == 1 ? "" : "s");
    if (isfinite(mean) && k >= 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, ", utilization %.0f %% (max %.0f %%)", mean, max);
    if (isfinite(jsr_num(g, "mem_used_max")) && k >= 0 && (size_t)k < n) {
        jsr_bytes(peak, sizeof peak, jsr_num(g, "mem_used_max"));
        jsr_bytes(total, sizeof total, jsr_num(g, "mem_total"));
        k += snprintf(buf + k, n - (size_t)k, ", memory peak %s of %s", peak, total);
    }
    if (jsr_num(g, "gone") > 0 && k >= 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, "; %.0f gone during the step", jsr_num(g, "gone"));
}

#define GPU_PROC_LINES 4 /* GPUs with processes shown per step; the rest counted */

/* "n1 GPU 0: 2 processes, rank 0 (pid 123) 11.2 GiB peak" per GPU of the step */
static void gpu_procs(FILE *out, const json_t *g)
{
    const json_t *procs = json_object_get(g, "processes"), *p;
    size_t i;
    char line[256], peak[48], rank[40], clean[JSR_WIDTH * 4];
    json_array_foreach(procs, i, p) {
        if (i == GPU_PROC_LINES) {
            fprintf(out, "         and %zu more GPUs with processes\n", json_array_size(procs) - i);
            break;
        }
        double n = jsr_num(p, "count"), r = jsr_num(p, "rank"), mem = jsr_num(p, "mem_used_max");
        const char *node = json_string_value(json_object_get(p, "node"));
        rank[0] = peak[0] = '\0';
        if (isfinite(r))
            snprintf(rank, sizeof rank, "rank %.0f ", r);
        if (isfinite(mem)) {
            peak[0] = ' ';
            jsr_bytes(peak + 1, sizeof peak - 8, mem);
            strcat(peak, " peak");
        }
        snprintf(line, sizeof line, "%s GPU %.0f: %.0f process%s, %s(pid %.0f)%s", node ? node : "?", jsr_num(p, "index"), n,
                 n == 1 ? "" : "es", rank, jsr_num(p, "pid"), peak);
        jsr_clean(clean, sizeof clean, line, JSR_WIDTH * 2, 0);
        fputs("         ", out);
        jsr_wrap(out, 9, 11, clean);
    }
}

void jsr_gpus(FILE *out, const json_t *job)
{
    const json_t *steps = json_object_get(job, "steps"), *s;
    size_t i;
    bool header = false;
    char line[512], sid[16], e[64], gp[32], cp[32], clean[JSR_WIDTH * 12];
    json_array_foreach(steps, i, s) {
        const json_t *g = json_object_get(s, "gpu");
        double energy = jsr_num(s, "energy_j");
        const char *note = json_string_value(json_object_get(s, "gpu_note"));
        if (!json_is_object(g) && !isfinite(energy) && !note)
            continue;
        if (!header) {
            fprintf(out, "\nGPUs and energy\n");
            header = true;
        }
        jsr_clean(sid, sizeof sid, json_string_value(json_object_get(s, "step")), 6, 1);
        line[0] = '\0';
        if (json_is_object(g))
            gpu_text(line, sizeof line, g);
        if (isfinite(energy)) {
            size_t l = strlen(line);
            jsr_energy(e, sizeof e, energy);
            snprintf(line + l, sizeof line - l, "%senergy %s", l ? "; " : "", e);
        }
        if (line[0]) {
            jsr_clean(clean, sizeof clean, line, JSR_WIDTH * 3, 0);
            fprintf(out, "  %-6s ", sid);
            jsr_wrap(out, 9, 9, clean);
        }
        if (json_is_object(g))
            gpu_procs(out, g);
        if (note) {
            jsr_clean(clean, sizeof clean, note, JSR_WIDTH * 3, 0);
            fprintf(out, "  %-6s missing: ", sid);
            jsr_wrap(out, 18, 9, clean);
        }
    }
    double total = jsr_num(job, "energy_j");
    if (isfinite(total)) {
        jsr_energy(e, sizeof e, total);
        energy_only(gp, sizeof gp, isfinite(jsr_num(job, "gpu_energy_j")) ? jsr_num(job, "gpu_energy_j") : 0);
        if (isfinite(jsr_num(job, "cpu_energy_j")))
            energy_only(cp, sizeof cp, jsr_num(job, "cpu_energy_j"));
        else
            snprintf(cp, sizeof cp, "not known");
        fprintf(out, "%s  job    energy %s (GPUs %s, CPUs %s)\n", header ? "" : "\nGPUs and energy\n", e, gp, cp);
    }
}
