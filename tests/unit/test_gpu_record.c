/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the step record's "gpu" member (gpu/gpu_record.c) against the scripted NVML
 * stand-in: the selected devices' totals and per-slice series are the scripted values, the
 * energy series sums to the counter's difference, the node's CPU energy is shared by the step's
 * CPU time over the node's busy time, and a step whose CPU time is unknown says so; per device
 * the step's processes with their scripted figures, another's counted and not listed, MIG
 * instances' processes under the instance, and the cap on a device's list counted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "bundle_series.h"
#include "gpu_procs.h"
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

/* which pids are the step's (NULL: all) */
static int (*is_step)(uint32_t pid, void *arg);
/* the reading whose interval the relay is given without length (its clock stepped back); 0: none */
static int stepped_back;

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
        jsg_record_filter_procs(r, &tick, is_step, NULL);
        tick.nzone = 1;
        tick.zone[0] = (struct jsg_zone_reading){ .energy_uj = 1000000ULL * (uint64_t)k, .max_uj = 1ULL << 40, .have = 1 };
        if (k > 0)
            jsg_record_cpu(r, T0 + (k == stepped_back ? k : k - 1) * SEC, T0 + k * SEC, cpu_known ? SEC / 4 : -1, SEC);
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
    assert_null(json_object_get(json_object_get(cpu, "series"), "node_busy_ns")); /* the share is known */
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
    /* the node's busy CPU time a slice instead, for the ingest to share E by the profiler's
     * CPU time: a second between readings, shared among slices by time as the energy is (the
     * intervals from 0 to 4 s in slice 0, 4 to 5 s in slice 1) */
    assert_int_equal(json_integer_value(json_object_get(m, "slices")), 2);
    const json_t *series = json_object_get(cpu, "series");
    assert_null(json_object_get(series, "step_energy_uj"));
    int64_t busy[2], e[2];
    decode(json_object_get(series, "node_busy_ns"), 2, busy);
    decode(json_object_get(series, "node_energy_uj"), 2, e);
    assert_true(busy[0] == 4 * SEC && busy[1] == 1 * SEC);
    assert_true(e[0] == 4000000 && e[1] == 1000000);
    json_decref(m);
    jsg_close(g);
}

/* an interval of no length (the real-time clock stepped back) keeps its CPU times, in the
 * slice of its reading: without it slice 0 had 3 s of the 4 */
static void a_clock_stepped_back_loses_no_cpu_time(void **state)
{
    (void)state;
    struct jsg_gpus *g = open_script("init fail=9\n");
    stepped_back = 2;
    json_t *m = record(g, 6, 0);
    stepped_back = 0;
    int64_t busy[2];
    decode(json_object_get(json_object_get(json_object_get(m, "cpu"), "series"), "node_busy_ns"), 2, busy);
    assert_true(busy[0] == 4 * SEC && busy[1] == 1 * SEC);
    json_decref(m);
    jsg_close(g);
}

/* 999 is another job's, 888 ended before it could be told */
static int asked;
static int not_999(uint32_t pid, void *arg)
{
    (void)arg;
    asked++;
    return pid == 888 ? -1 : pid != 999;
}

static int64_t member(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v))
        fail_msg("no whole \"%s\"", key);
    return json_integer_value(v);
}

static void the_steps_processes_only(void **state)
{
    (void)state;
    struct jsg_gpus *g = open_script("gpu uuid=GPU-A minor=0 mem_total=1000 mem_used=900 util_sm=50\n"
                                     "proc pid=100 mem=300 sm=40 memutil=6\n"
                                     "proc pid=999 mem=700 sm=90\n"
                                     "proc pid=888 mem=1 sm=1\n"
                                     "proc pid=200 mem=500 sm=20 memutil=2\n"
                                     "gpu uuid=GPU-B minor=1 mem_total=1000 mem_used=60 mig=1\n"
                                     "mig uuid=MIG-B1 name=1g.10gb mem_total=100 mem_used=60\n"
                                     "proc pid=300 mem=50\n");
    assert_int_equal(jsg_select_list(g, "0,1", NULL), 3);
    is_step = not_999;
    asked = 0;
    json_t *m = record(g, 10, 1);
    is_step = NULL;
    /* each pid asked once while NVML keeps listing it; the ended one at every reading */
    assert_int_equal(asked, 4 + 10);
    assert_int_equal(member(m, "proc_readings_dropped"), 0);
    assert_int_equal(member(m, "proc_readings_ended"), 10);
    assert_string_equal(json_string_value(json_object_get(m, "process_api")), "nvmlDeviceGetComputeRunningProcesses_v3");
    const json_t *gpus = json_object_get(m, "gpus");
    assert_int_equal(json_array_size(gpus), 3);
    const json_t *a = json_array_get(gpus, 0), *procs = json_object_get(a, "procs");
    assert_string_equal(json_string_value(json_object_get(a, "uuid")), "GPU-A");
    assert_int_equal(json_array_size(procs), 2); /* 999 is not the step's */
    assert_int_equal(member(a, "procs_other"), 1);
    assert_int_equal(member(a, "procs_dropped"), 0);
    const json_t *p0 = json_array_get(procs, 0), *p1 = json_array_get(procs, 1);
    /* the higher peak first; every reading listed them, 3 slices from T0's */
    assert_int_equal(member(p0, "pid"), 200);
    assert_int_equal(member(p0, "mem_used_max"), 500);
    assert_int_equal(member(p0, "util_sm_sum"), 200);
    assert_int_equal(member(p0, "util_sm_max"), 20);
    assert_int_equal(member(p1, "pid"), 100);
    assert_int_equal(member(p1, "samples"), 10);
    assert_int_equal(member(p1, "util_n"), 10);
    assert_int_equal(member(p1, "util_sm_sum"), 400);
    assert_int_equal(member(p1, "util_mem_sum"), 60);
    assert_int_equal(member(p1, "mem_n"), 10);
    assert_int_equal(member(p1, "first_slice"), T0 / SEC / 4);
    assert_int_equal(member(p1, "last_slice"), T0 / SEC / 4 + 2);
    assert_int_equal(member(p1, "slices"), 3);
    /* the GPU in MIG mode lists none; its instance its own process, with no utilization */
    const json_t *b = json_array_get(gpus, 1), *mig = json_array_get(gpus, 2);
    assert_int_equal(json_array_size(json_object_get(b, "procs")), 0);
    assert_string_equal(json_string_value(json_object_get(mig, "uuid")), "MIG-B1");
    const json_t *pm = json_array_get(json_object_get(mig, "procs"), 0);
    assert_int_equal(member(pm, "pid"), 300);
    assert_int_equal(member(pm, "mem_used_max"), 50);
    assert_int_equal(member(pm, "util_n"), 0);
    json_decref(m);
    jsg_close(g);
}

static void a_devices_list_is_capped_and_counted(void **state)
{
    (void)state;
    char script[4096];
    int n = snprintf(script, sizeof script, "gpu uuid=GPU-A minor=0 mem_total=100000 mem_used=10\n");
    for (int i = 1; i <= 40; i++)
        n += snprintf(script + n, sizeof script - (size_t)n, "proc pid=%d mem=%d sm=1\n", 1000 + i, 10 * i);
    struct jsg_gpus *g = open_script(script);
    assert_int_equal(jsg_select_list(g, "0", NULL), 1);
    json_t *m = record(g, 3, 1);
    const json_t *a = json_array_get(json_object_get(m, "gpus"), 0), *procs = json_object_get(a, "procs");
    assert_int_equal(json_array_size(procs), JSG_RECORD_MAX_DEV_PROCS);
    assert_int_equal(member(a, "procs_dropped"), 40 - JSG_RECORD_MAX_DEV_PROCS);
    assert_int_equal(member(json_array_get(procs, 0), "pid"), 1040); /* the highest peak first */
    assert_int_equal(member(json_array_get(procs, JSG_RECORD_MAX_DEV_PROCS - 1), "pid"), 1040 - JSG_RECORD_MAX_DEV_PROCS + 1);
    json_decref(m);
    jsg_close(g);
}

/* the relay's test without a step cgroup: a child of ours descends from our parent (two
 * levels), not through us when we are the relay, not from a stranger; once gone, -1 */
static void descent_from_the_step(void **state)
{
    (void)state;
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    assert_true(child > 0);
    assert_int_equal(jsg_parent_of(child), getpid());
    assert_int_equal(jsg_descends(child, getppid(), -1), 1);
    assert_int_equal(jsg_descends(child, getppid(), getpid()), 0);
    assert_int_equal(jsg_descends(getpid(), child, -1), 0);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    assert_int_equal(jsg_descends(child, getppid(), -1), -1);
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
        cmocka_unit_test(a_clock_stepped_back_loses_no_cpu_time),
        cmocka_unit_test(cpu_share),
        cmocka_unit_test(the_steps_processes_only),
        cmocka_unit_test(a_devices_list_is_capped_and_counted),
        cmocka_unit_test(descent_from_the_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
