/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The GPU advice (profile_ingest/insight_gpu.c; docs/insight.md): each code fires on a scripted
 * idle or wasteful step with its figures, and stays silent on a busy one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "insight_gpu.h"

#define GIB 1073741824.0

static struct pi_in_gpu gpu(const char *uuid, long long slices, long long idle, double mean, double peak_gib)
{
    struct pi_in_gpu g = { .slices = slices, .idle_slices = idle, .util_mean = mean, .util_max = mean,
                           .mem_peak = peak_gib * GIB, .mem_total = 80 * GIB };
    snprintf(g.node, sizeof g.node, "n1");
    snprintf(g.uuid, sizeof g.uuid, "%s", uuid);
    return g;
}

static int codes(const struct pi_in_gpus *g, char *out, size_t n)
{
    struct pi_in_advice a[PI_ADVICE_MAX];
    int k = pi_in_gpu_advise(g, a, PI_ADVICE_MAX);
    out[0] = '\0';
    for (int i = 0; i < k; i++)
        snprintf(out + strlen(out), n - strlen(out), "%s%s", i ? " " : "", a[i].code);
    return k;
}

static void idle_gpus_are_told(void **state)
{
    (void)state;
    struct pi_in_gpus g = { .n = 2, .g = { gpu("GPU-0", 10, 9, 1.0, 1), gpu("GPU-1", 10, 10, 0.0, 1) } };
    struct pi_in_advice a[PI_ADVICE_MAX];
    assert_int_equal(pi_in_gpu_advise(&g, a, PI_ADVICE_MAX), 1);
    assert_string_equal(a[0].code, "GPU_IDLE");
    assert_string_equal(a[0].severity, "high"); /* 95 % of the slices idle */
    assert_non_null(strstr(a[0].message, "GPUs allocated but idle: the step's 2 GPUs"));
    assert_non_null(strstr(a[0].figures, "\"idle_slices\": 19"));
}

static void busy_gpus_are_not(void **state)
{
    (void)state;
    char c[256];
    /* two GPUs at 60 % and 70 %, 50 GiB of 80: nothing to say */
    struct pi_in_gpus g = { .n = 2, .g = { gpu("GPU-0", 10, 0, 60, 50), gpu("GPU-1", 10, 1, 70, 50) } };
    assert_int_equal(codes(&g, c, sizeof c), 0);
    /* too few slices to tell */
    struct pi_in_gpus s = { .n = 1, .g = { gpu("GPU-0", 1, 1, 0, 1) } };
    assert_int_equal(codes(&s, c, sizeof c), 0);
}

static void unused_memory_is_told(void **state)
{
    (void)state;
    char c[256];
    struct pi_in_gpus g = { .n = 2, .g = { gpu("GPU-0", 10, 0, 60, 10), gpu("GPU-1", 10, 0, 55, 12) } };
    assert_int_equal(codes(&g, c, sizeof c), 1);
    assert_string_equal(c, "GPU_MEMORY_UNUSED");
    /* one GPU above a quarter of its memory: silent */
    g.g[1].mem_peak = 30 * GIB;
    assert_int_equal(codes(&g, c, sizeof c), 0);
}

static void one_gpu_of_four(void **state)
{
    (void)state;
    char c[256];
    struct pi_in_gpus g = { .n = 4, .g = { gpu("GPU-0", 10, 0, 80, 40), gpu("GPU-1", 10, 10, 0.5, 40),
                                           gpu("GPU-2", 10, 10, 0, 40), gpu("GPU-3", 10, 10, 1, 40) } };
    struct pi_in_advice a[PI_ADVICE_MAX];
    /* 31 of 40 slices idle: GPU_IDLE says it first, and ONE_GPU_USED is left to it */
    assert_int_equal(codes(&g, c, sizeof c), 1);
    assert_string_equal(c, "GPU_IDLE");
    g.g[0].slices = 40; /* the busy one read more often: 30 of 70 slices idle */
    assert_int_equal(pi_in_gpu_advise(&g, a, PI_ADVICE_MAX), 1);
    assert_string_equal(a[0].code, "ONE_GPU_USED");
    assert_non_null(strstr(a[0].message, "One GPU of 4 used: GPU-0 on n1 ran at 80.0 %"));
    /* a second GPU at work: silent */
    g.g[1].util_mean = 40;
    assert_int_equal(codes(&g, c, sizeof c), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(idle_gpus_are_told),
        cmocka_unit_test(busy_gpus_are_not),
        cmocka_unit_test(unused_memory_is_told),
        cmocka_unit_test(one_gpu_of_four),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
