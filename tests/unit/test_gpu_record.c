/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the step record's "gpu" member (gpu/gpu_record.c) against the scripted NVML
 * stand-in: the selected devices' totals and per-slice series are the scripted values, the
 * energy series sums to the counter's difference, the node's CPU energy is shared by the step's
 * CPU time over the node's busy time, and a step whose CPU time is unknown says so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "bundle_series.h"
#include "gpu_record.h"
#include "jsgpu.h"
#include "series.h"

#define T0 (1795219200LL * 1000000000LL) /* a slice boundary */
#define SEC 1000000000LL

static struct jsg_gpus *open_script(const char *text)
{
    static char script[256];
    snprintf(script, sizeof script, "/tmp/js-nvml-record.%d", (int)getpid());
    setenv("JS_NVML_STANDIN", script, 1);
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    struct jsg_gpus *g = jsg_open(JS_NVML_STANDIN_SO, 0);
    assert_non_null(g);
    return g;
}

/* the record of n readings a second from T0 (4 s slices), with a powercap zone whose counter
 * goes up 1 J a second and the step having a quarter of the node's busy CPU time (or not known) */
static json_t *record(struct jsg_gpus *g, int n, int cpu_known)
{
    static struct jsg_tick tick;
    static struct jsg_slicer sl;
    struct jsg_powercap pc = { .dirfd = -1, .nzone = 1 };
    snprintf(pc.status, sizeof pc.status, "ok");
    struct jsg_record *r = jsg_record_new(g, &pc, 4, "SLURM_STEP_GPUS=1", 0);
    assert_non_null(r);
    if (!cpu_known)
        jsg_record_cpu_note(r, "no cgroup");
    jsg_slicer_init(&sl, 4);
    for (int k = 0; k < n; k++) {
        jsg_read(g, T0 + k * SEC, &tick);
        tick.nzone = 1;
        tick.zone[0] = (struct jsg_zone_reading){ .energy_uj = 1000000ULL * (uint64_t)k, .max_uj = 1ULL << 40, .have = 1 };
        if (k > 0)
            jsg_record_cpu(r, T0 + k * SEC, cpu_known ? SEC / 4 : -1, SEC);
        jsg_slicer_add(&sl, &tick, jsg_record_slice, r);
    }
    jsg_slicer_flush(&sl, jsg_record_slice, r);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(jsg_record_write(r, g, f), 0);
    fclose(f);
    jsg_record_free(r);
    json_error_t err;
    json_t *m = json_loads(buf, 0, &err);
    free(buf);
    assert_non_null(m);
    return m;
}

/* the values of one base64 series of n slices */
static void decode(const json_t *v, size_t n, int64_t *out)
{
    memset(out, 0, n * sizeof *out);
    if (json_is_null(v))
        return;
    unsigned char b[4096];
    long len = js_b64_decode(json_string_value(v), json_string_length(v), b, sizeof b);
    assert_true(len > 0);
    long sat = 0;
    assert_int_equal(js_series_add(b, (size_t)len, n, out, 1, &sat), 0);
}

static void the_selected_gpu_and_its_slices(void **state)
{
    (void)state;
    struct jsg_gpus *g = open_script("gpu uuid=GPU-A minor=0 mem_total=1000 mem_used=100 util_sm=30 util_mem=7 power=50000 energy=1000+400\n"
                                     "gpu uuid=GPU-B minor=1 mem_total=1000 mem_used=300 util_sm=60 util_mem=9 power=70000 energy=5000+100\n");
    assert_int_equal(jsg_select_list(g, "1", NULL), 1);
    json_t *m = record(g, 10, 1); /* readings at 0..9 s: slices 0, 1, 2 (the last partial) */
    assert_string_equal(json_string_value(json_object_get(m, "nvml")), "ok");
    assert_string_equal(json_string_value(json_object_get(m, "selection")), "SLURM_STEP_GPUS=1");
    assert_int_equal(json_integer_value(json_object_get(m, "slices")), 3);
    const json_t *gpus = json_object_get(m, "gpus");
    assert_int_equal(json_array_size(gpus), 1); /* GPU-A is another job's */
    const json_t *d = json_array_get(gpus, 0);
    assert_string_equal(json_string_value(json_object_get(d, "uuid")), "GPU-B");
    assert_int_equal(json_integer_value(json_object_get(d, "samples")), 10);
    assert_int_equal(json_integer_value(json_object_get(d, "util_sm_sum")), 600);
    assert_int_equal(json_integer_value(json_object_get(d, "mem_used_max")), 300);
    assert_int_equal(json_integer_value(json_object_get(d, "energy_uj")), 9 * 100000); /* 9 steps of 100 mJ */
    assert_string_equal(json_string_value(json_object_get(d, "energy")), "counter");
    int64_t v[3], e[3];
    const json_t *s = json_object_get(d, "series");
    decode(json_object_get(s, "util_sm_max"), 3, v);
    assert_true(v[0] == 60 && v[1] == 60 && v[2] == 60);
    decode(json_object_get(s, "samples"), 3, v);
    assert_true(v[0] == 4 && v[1] == 4 && v[2] == 2);
    decode(json_object_get(s, "energy_uj"), 3, e);
    assert_int_equal(e[0] + e[1] + e[2], 900000);
    /* the node's 9 J, a quarter of it the step's */
    const json_t *cpu = json_object_get(m, "cpu");
    assert_int_equal(json_integer_value(json_object_get(cpu, "node_energy_uj")), 9000000);
    assert_int_equal(json_integer_value(json_object_get(cpu, "step_energy_uj")), 2250000);
    json_decref(m);
    jsg_close(g);
}

static void unknown_cpu_time_is_said(void **state)
{
    (void)state;
    struct jsg_gpus *g = open_script("init fail=9\n");
    json_t *m = record(g, 6, 0);
    assert_non_null(strstr(json_string_value(json_object_get(m, "nvml")), "no GPUs"));
    assert_int_equal(json_array_size(json_object_get(m, "gpus")), 0);
    const json_t *cpu = json_object_get(m, "cpu");
    assert_true(json_is_null(json_object_get(cpu, "step_energy_uj")));
    assert_string_equal(json_string_value(json_object_get(cpu, "share")), "no cgroup");
    assert_int_equal(json_integer_value(json_object_get(cpu, "node_energy_uj")), 5000000);
    json_decref(m);
    jsg_close(g);
}

static void cpu_share(void **state)
{
    (void)state;
    assert_int_equal(jsg_cpu_share(1000, 1, 4), 250);
    assert_int_equal(jsg_cpu_share(1000, 8, 4), 1000); /* never more than the node's */
    assert_int_equal(jsg_cpu_share(1000, 1, 0), 0);
    assert_int_equal(jsg_cpu_share(4000000000000LL, 3000000000000LL, 4000000000000LL), 3000000000000LL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_selected_gpu_and_its_slices),
        cmocka_unit_test(unknown_cpu_time_is_said),
        cmocka_unit_test(cpu_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
