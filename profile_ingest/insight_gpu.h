/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Insight on a step's GPUs (docs/insight.md, "5. Advice"; docs/gpu.md): its GPUs' figures read
 * in the insight's batch, and the advice they call for, a pure function unit-tested on its own
 * (tests/unit/test_insight_gpu.c): GPU_IDLE (GPUs allocated but idle), GPU_MEMORY_UNUSED (their
 * memory mostly unused), ONE_GPU_USED (one GPU of N used).
 */
#ifndef PI_INSIGHT_GPU_H
#define PI_INSIGHT_GPU_H

#include "insight.h"

#define PI_IN_GPU_MAX 64
#define PI_IN_GPU_IDLE_PCT 5.0    /* a slice whose mean SM utilization is below this is idle */
#define PI_IN_GPU_IDLE_SHARE 0.5  /* GPU_IDLE: idle in more than this share of the slices read */
#define PI_IN_GPU_MEM_SHARE 0.25  /* GPU_MEMORY_UNUSED: every GPU's peak below this share of its memory */
#define PI_IN_GPU_ONE_SHARE 0.9   /* ONE_GPU_USED: one GPU has this share of the utilization or more */
#define PI_IN_GPU_MIN_SLICES 2    /* fewer slices read: too little to tell */

struct pi_in_gpu {
    char node[64], uuid[100];
    long long slices, idle_slices; /* slices with a utilization reading; of them, idle */
    double util_mean, util_max;    /* %, -1: none (a MIG instance) */
    double mem_peak, mem_total;    /* bytes, -1: not read */
};

struct pi_in_gpus {
    int n;
    struct pi_in_gpu g[PI_IN_GPU_MAX];
};

/* The query of the step's GPUs ($1 cluster id, $2 job, $3 step), and its result read. */
extern const char *const pi_in_gpu_query;
struct pg_result;
void pi_in_gpu_read(const struct pg_result *r, struct pi_in_gpus *out);

/* The GPU advice that applies, at most max of it into out; returns how many. */
int pi_in_gpu_advise(const struct pi_in_gpus *g, struct pi_in_advice *out, int max);

#endif
