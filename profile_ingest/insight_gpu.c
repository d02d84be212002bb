/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Insight on a step's GPUs (insight_gpu.h). */
#include "config.h"

#include "insight_gpu.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* per GPU of the step: its slices with a utilization reading and how many of them were idle
 * (decoded from its series), its mean and max SM utilization, its peak memory and total */
const char *const pi_in_gpu_query =
    "SELECT g.node, g.uuid, coalesce(x.slices, 0), coalesce(x.idle, 0), coalesce(g.util_sm_mean, -1), "
    "       coalesce(g.util_sm_max, -1), coalesce(g.mem_used_max, -1), coalesce(g.mem_total, -1) "
    "FROM js_data.step_node_gpus g "
    "LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE u.n > 0) AS slices, "
    "                          count(*) FILTER (WHERE u.n > 0 AND u.sm < 5 * u.n) AS idle "
    "    FROM js_data.series_step_node_gpu s, "
    "         unnest(js_data.series_decode(s.util_n, s.slices), js_data.series_decode(s.util_sm_sum, s.slices)) AS u(n, sm) "
    "    WHERE s.cluster_id = g.cluster_id AND s.job_id = g.job_id AND s.step_id = g.step_id "
    "      AND s.node = g.node AND s.uuid = g.uuid) x ON true "
    "WHERE g.cluster_id = $1 AND g.job_id = $2 AND g.step_id = $3 "
    "ORDER BY g.node, g.uuid";

void pi_in_gpu_read(const struct pg_result *res, struct pi_in_gpus *out)
{
    const PGresult *r = (const PGresult *)res;
    memset(out, 0, sizeof *out);
    for (int i = 0; r && i < PQntuples(r) && out->n < PI_IN_GPU_MAX; i++) {
        struct pi_in_gpu *g = &out->g[out->n++];
        snprintf(g->node, sizeof g->node, "%s", PQgetvalue(r, i, 0));
        snprintf(g->uuid, sizeof g->uuid, "%s", PQgetvalue(r, i, 1));
        g->slices = strtoll(PQgetvalue(r, i, 2), NULL, 10);
        g->idle_slices = strtoll(PQgetvalue(r, i, 3), NULL, 10);
        g->util_mean = strtod(PQgetvalue(r, i, 4), NULL);
        g->util_max = strtod(PQgetvalue(r, i, 5), NULL);
        g->mem_peak = strtod(PQgetvalue(r, i, 6), NULL);
        g->mem_total = strtod(PQgetvalue(r, i, 7), NULL);
    }
}

/* GPUs allocated but idle: SM utilization under 5 % in most of the slices read, all GPUs together */
static int idle(const struct pi_in_gpus *g, struct pi_in_advice *out)
{
    long long slices = 0, idle_slices = 0;
    int with = 0;
    double sum = 0;
    for (int i = 0; i < g->n; i++)
        if (g->g[i].slices > 0) {
            slices += g->g[i].slices;
            idle_slices += g->g[i].idle_slices;
            sum += g->g[i].util_mean;
            with++;
        }
    if (with == 0 || slices < PI_IN_GPU_MIN_SLICES || idle_slices <= PI_IN_GPU_IDLE_SHARE * (double)slices)
        return 0;
    double share = (double)idle_slices / (double)slices, mean = sum / with;
    out->code = "GPU_IDLE";
    out->severity = share >= 0.9 ? "high" : "warning";
    snprintf(out->figures, sizeof out->figures,
             "{\"gpus\": %d, \"slices\": %lld, \"idle_slices\": %lld, \"idle_share\": %.3f, \"util_sm_mean\": %.2f}", with,
             slices, idle_slices, share, mean);
    snprintf(out->message, sizeof out->message,
             "GPUs allocated but idle: the step's %d GPU%s ran kernels under %.0f %% of the time in %.0f %% of its slices "
             "(SM utilization %.1f %% on average): ask for %s, or check that the program uses %s.",
             with, with == 1 ? "" : "s", PI_IN_GPU_IDLE_PCT, 100 * share, mean, with == 1 ? "no GPU" : "fewer GPUs",
             with == 1 ? "it" : "them");
    return 1;
}

/* GPU memory mostly unused: every GPU's peak under a quarter of its memory (a busy step only:
 * an idle one is told GPU_IDLE) */
static int memory(const struct pi_in_gpus *g, struct pi_in_advice *out)
{
    double peak = 0, total = 0;
    int n = 0;
    for (int i = 0; i < g->n; i++) {
        const struct pi_in_gpu *x = &g->g[i];
        if (x->mem_peak < 0 || x->mem_total <= 0 || x->slices < PI_IN_GPU_MIN_SLICES)
            continue;
        if (x->mem_peak >= PI_IN_GPU_MEM_SHARE * x->mem_total)
            return 0;
        peak = x->mem_peak > peak ? x->mem_peak : peak;
        total = x->mem_total > total ? x->mem_total : total;
        n++;
    }
    if (n == 0)
        return 0;
    out->code = "GPU_MEMORY_UNUSED";
    out->severity = "info";
    snprintf(out->figures, sizeof out->figures, "{\"gpus\": %d, \"mem_used_max\": %.0f, \"mem_total\": %.0f, \"share\": %.3f}",
             n, peak, total, peak / total);
    snprintf(out->message, sizeof out->message,
             "GPU memory mostly unused: the largest peak of its %d GPU%s was %.1f GiB of %.1f GiB (%.0f %%): a GPU with less "
             "memory, or a MIG instance, would do.",
             n, n == 1 ? "" : "s", peak / 1073741824, total / 1073741824, 100 * peak / total);
    return 1;
}

/* one GPU of N used: one GPU has 90 % of the step's SM utilization, each other one under 5 % */
static int one(const struct pi_in_gpus *g, struct pi_in_advice *out)
{
    double sum = 0, top = -1;
    int n = 0, k = -1;
    for (int i = 0; i < g->n; i++) {
        const struct pi_in_gpu *x = &g->g[i];
        if (x->slices < PI_IN_GPU_MIN_SLICES || x->util_mean < 0)
            continue;
        n++;
        sum += x->util_mean;
        if (x->util_mean > top) {
            top = x->util_mean;
            k = i;
        }
    }
    if (n < 2 || top < PI_IN_GPU_IDLE_PCT || top < PI_IN_GPU_ONE_SHARE * sum)
        return 0;
    for (int i = 0; i < g->n; i++)
        if (i != k && g->g[i].slices >= PI_IN_GPU_MIN_SLICES && g->g[i].util_mean >= PI_IN_GPU_IDLE_PCT)
            return 0;
    out->code = "ONE_GPU_USED";
    out->severity = "warning";
    snprintf(out->figures, sizeof out->figures, "{\"gpus\": %d, \"node\": \"%s\", \"uuid\": \"%s\", \"util_sm_mean\": %.2f, \"others_util_sm_mean\": %.2f}",
             n, g->g[k].node, g->g[k].uuid, top, (sum - top) / (n - 1));
    snprintf(out->message, sizeof out->message,
             "One GPU of %d used: %s on %s ran at %.1f %% SM utilization, the other %d at %.1f %% on average: ask for one "
             "GPU, or spread the work over them (one process per GPU, or a data-parallel framework).",
             n, g->g[k].uuid, g->g[k].node, top, n - 1, (sum - top) / (n - 1));
    return 1;
}

int pi_in_gpu_advise(const struct pi_in_gpus *g, struct pi_in_advice *out, int max)
{
    int n = 0;
    if (n < max)
        n += idle(g, out + n);
    if (n < max && (n == 0 || strcmp(out[n - 1].code, "GPU_IDLE") != 0))
        n += memory(g, out + n);
    if (n < max && (n == 0 || strcmp(out[0].code, "GPU_IDLE") != 0))
        n += one(g, out + n);
    return n;
}
