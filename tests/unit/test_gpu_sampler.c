/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the GPU sampler (gpu/) against the scripted NVML stand-in
 * (tests/gpu/nvml_standin.c): the values per slice are the scripted ones, the energy is the
 * scripted counter's difference, MIG instances are devices, the step's GPUs come from each
 * form of its environment, and no library, a failing init, a GPU that disappears and a call
 * that hangs do no harm and leave a clear state.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "jsgpu.h"

#define T0 (1795219200LL * 1000000000LL) /* a slice boundary for 1, 2 and 4 s */
#define SEC 1000000000LL

static char script[256];

/* the stand-in's script for the next jsg_open */
static void write_script(const char *text)
{
    if (script[0] == '\0') {
        snprintf(script, sizeof(script), "/tmp/js-nvml-standin.%d", (int)getpid());
        setenv("JS_NVML_STANDIN", script, 1);
    }
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static struct jsg_gpus *open_script(const char *text, int timeout_ms)
{
    write_script(text);
    struct jsg_gpus *g = jsg_open(JS_NVML_STANDIN_SO, timeout_ms);
    assert_non_null(g);
    return g;
}

/* the slices a run hands out, kept for the asserts */
struct seen {
    int n;
    struct jsg_slice s[8];
};

static void keep(const struct jsg_slice *s, void *arg)
{
    struct seen *v = arg;
    if (v->n < 8)
        v->s[v->n++] = *s;
}

static struct jsg_tick tick;
static struct jsg_slicer slicer;
static struct seen seen;

/* reads at T0, T0 + 1 s, ... (n of them) into 4 s slices, then closes the last one */
static void run(struct jsg_gpus *g, int n)
{
    memset(&seen, 0, sizeof(seen));
    jsg_slicer_init(&slicer, 4);
    for (int k = 0; k < n; k++) {
        assert_int_equal(jsg_read(g, T0 + k * SEC, &tick), 0);
        tick.nzone = 0;
        jsg_slicer_add(&slicer, &tick, keep, &seen);
    }
    jsg_slicer_flush(&slicer, keep, &seen);
}

static void no_library_is_no_gpus(void **state)
{
    (void)state;
    for (int timeout = 0; timeout <= 500; timeout += 500) {
        struct jsg_gpus *g = jsg_open("/nonexistent/libnvidia-ml.so.1", timeout);
        assert_non_null(g);
        assert_int_equal(jsg_ndevices(g), 0);
        assert_non_null(strstr(jsg_status(g), "no GPUs: /nonexistent/libnvidia-ml.so.1"));
        assert_int_equal(jsg_select_all(g), 0);
        assert_int_equal(jsg_read(g, T0, &tick), -1);
        assert_int_equal(tick.ndev, 0);
        assert_int_equal(jsg_stuck(g), 0);
        jsg_close(g);
    }
}

static void failed_init_is_no_gpus(void **state)
{
    (void)state;
    struct jsg_gpus *g = open_script("init fail=9\ngpu uuid=GPU-a\n", 500);
    assert_int_equal(jsg_ndevices(g), 0);
    assert_string_equal(jsg_status(g), "no GPUs: nvmlInit_v2: Driver Not Loaded");
    assert_int_equal(jsg_read(g, T0, &tick), -1);
    jsg_close(g);
    g = open_script("# a node whose driver has no GPU\n", 0);
    assert_string_equal(jsg_status(g), "no GPUs: NVML reports 0 devices");
    jsg_close(g);
}

static void slices_hold_the_scripted_values(void **state)
{
    (void)state;
    struct jsg_gpus *g = open_script(
        "gpu uuid=GPU-a name=H200 mem_total=1000 mem_used=10,20,30,40,50,60,70,80,5"
        " util_sm=10,20,30,40,50,60,70,80,0 util_mem=1,2,3,4,5,6,7,8 power=100,200"
        " energy=5000+400\n"
        "gpu uuid=GPU-b name=H200 mem_total=1000 mem_used=7 util_sm=0 util_mem=0 power=50"
        " energy=none\n",
        0);
    assert_string_equal(jsg_status(g), "ok");
    assert_int_equal(jsg_ndevices(g), 2);
    assert_int_equal(jsg_select_all(g), 2);
    run(g, 9); /* ticks at 0..8 s: slices [0, 4) and [4, 8) closed, [8, 12) open */
    assert_int_equal(seen.n, 3);
    const struct jsg_slice_dev *a = &seen.s[0].dev[0], *b = &seen.s[1].dev[0];
    assert_int_equal(seen.s[0].ticks, 4);
    assert_int_equal(a->util_n, 4);
    assert_int_equal(a->util_sm_sum, 10 + 20 + 30 + 40);
    assert_int_equal(a->util_sm_max, 40);
    assert_int_equal(a->util_mem_sum, 1 + 2 + 3 + 4);
    assert_int_equal(a->mem_used_max, 40);
    assert_int_equal(a->mem_total, 1000);
    assert_int_equal(a->power_mw_sum, 100 + 200 + 200 + 200);
    assert_int_equal(b->util_sm_sum, 50 + 60 + 70 + 80);
    assert_int_equal(b->mem_used_max, 80);
    /* the counter rises 400 mJ a second: 1600 mJ a slice, counted, not estimated */
    assert_int_equal(a->energy, JSG_ENERGY_COUNTER);
    assert_int_equal(a->energy_uj, 1600000);
    assert_int_equal(b->energy_uj, 1600000);
    assert_int_equal(seen.s[2].dev[0].energy_uj, 0);
    /* no counter: 50 mW for 4 s is 200 mJ, said to be estimated */
    assert_int_equal(seen.s[0].dev[1].energy, JSG_ENERGY_ESTIMATED);
    assert_int_equal(seen.s[0].dev[1].energy_uj, 200000);
    assert_int_equal(seen.s[0].dev[1].mem_used_max, 7);
    jsg_close(g);
}

static void processes_are_listed_per_gpu(void **state)
{
    (void)state;
    struct jsg_gpus *g = open_script("gpu uuid=GPU-a mem_used=1 util_sm=1 power=1 energy=1\n"
                                     "proc pid=42 mem=640 sm=30 memutil=5\n"
                                     "gpu uuid=GPU-b mem_used=1 util_sm=1 power=1 energy=1\n"
                                     "proc pid=43 mem=128 sm=70 memutil=9\n"
                                     "proc pid=44 mem=256 sm=0 memutil=0\n",
                                     0);
    jsg_select_all(g);
    assert_string_equal(jsg_proc_api(g), "nvmlDeviceGetComputeRunningProcesses_v3");
    assert_int_equal(jsg_read(g, T0, &tick), 0);
    assert_int_equal(tick.nproc, 3);
    assert_int_equal(tick.proc[0].pid, 42);
    assert_int_equal(tick.proc[0].dev, 0);
    assert_int_equal(tick.proc[0].mem_used, 640);
    assert_int_equal(tick.proc[0].util_sm, 30);
    assert_int_equal(tick.proc[0].have, JSG_HAVE_MEM | JSG_HAVE_UTIL);
    assert_int_equal(tick.proc[1].pid, 43);
    assert_int_equal(tick.proc[1].dev, 1);
    assert_int_equal(tick.proc[2].pid, 44);
    assert_int_equal(tick.proc[2].mem_used, 256);
    run(g, 4);
    assert_int_equal(seen.n, 1);
    assert_int_equal(seen.s[0].nproc, 3);
    assert_int_equal(seen.s[0].proc[1].util_n, 4);
    assert_int_equal(seen.s[0].proc[1].util_sm_sum, 4 * 70);
    assert_int_equal(seen.s[0].proc[1].mem_used_max, 128);
    jsg_close(g);
}

static void mig_instances_are_devices(void **state)
{
    (void)state;
    struct jsg_gpus *g = open_script("gpu uuid=GPU-a name=H200 mig=1 power=300 energy=0+300\n"
                                     "mig uuid=MIG-a1 name=3g.71gb mem_total=70 mem_used=7\n"
                                     "proc pid=50 mem=6\n"
                                     "mig uuid=MIG-a2 name=3g.71gb mem_total=70 mem_used=9\n"
                                     "gpu uuid=GPU-b\n",
                                     0);
    assert_int_equal(jsg_ndevices(g), 4);
    const struct jsg_device *p = jsg_device(g, 0), *m1 = jsg_device(g, 1), *b = jsg_device(g, 3);
    assert_true(p->mig_enabled);
    assert_int_equal(m1->parent, 0);
    assert_int_equal(m1->mig_slot, 0);
    assert_string_equal(m1->uuid, "MIG-a1");
    assert_string_equal(m1->name, "3g.71gb");
    assert_int_equal(jsg_device(g, 2)->parent, 0);
    assert_int_equal(b->parent, -1);
    assert_int_equal(b->index, 1);
    /* a step given one instance reads that instance alone: its memory and processes */
    assert_int_equal(jsg_select_list(g, "MIG-a1", NULL), 1);
    assert_int_equal(jsg_read(g, T0, &tick), 0);
    assert_int_equal(tick.dev[1].have, JSG_HAVE_MEM);
    assert_int_equal(tick.dev[1].mem_used, 7);
    assert_int_equal(tick.dev[0].have, 0);
    assert_int_equal(tick.nproc, 1);
    assert_int_equal(tick.proc[0].dev, 1);
    assert_int_equal(tick.proc[0].have, JSG_HAVE_MEM);
    /* the GPU by index: it and its instances; its power and energy are the whole GPU's */
    assert_int_equal(jsg_select_list(g, "0", NULL), 3);
    assert_int_equal(jsg_read(g, T0 + SEC, &tick), 0);
    assert_int_equal(tick.dev[0].have, JSG_HAVE_POWER | JSG_HAVE_ENERGY);
    assert_int_equal(tick.dev[2].mem_used, 9);
    assert_int_equal(tick.dev[3].have, 0);
    jsg_close(g);
}

static const char *vars[8][2];

static const char *lookup(const char *name, void *arg)
{
    (void)arg;
    for (int i = 0; i < 8 && vars[i][0] != NULL; i++)
        if (strcmp(vars[i][0], name) == 0)
            return vars[i][1];
    return NULL;
}

static void env(const char *k1, const char *v1, const char *k2, const char *v2)
{
    memset(vars, 0, sizeof(vars));
    vars[0][0] = k1, vars[0][1] = v1;
    vars[1][0] = k2, vars[1][1] = v2;
}

static int selected(const struct jsg_gpus *g)
{
    int mask = 0;
    for (int i = 0; i < jsg_ndevices(g); i++)
        mask |= jsg_device(g, i)->selected << i;
    return mask;
}

static void step_gpus_come_from_its_environment(void **state)
{
    (void)state;
    /* minor numbers in reverse of NVML's (PCI) order: Slurm's indexes are the minors */
    struct jsg_gpus *g = open_script("gpu uuid=GPU-aaaa1111 minor=3\ngpu uuid=GPU-bbbb2222 minor=2\n"
                                     "gpu uuid=GPU-cccc3333 minor=1\ngpu uuid=GPU-dddd4444 minor=0\n",
                                     0);
    const char *src;
    env("SLURM_STEP_GPUS", "0,1", "SLURM_JOB_GPUS", "0,1,2,3");
    assert_int_equal(jsg_select_env(g, lookup, NULL, &src), 2);
    assert_string_equal(src, "SLURM_STEP_GPUS");
    assert_int_equal(selected(g), 0xc);
    env("SLURM_JOB_GPUS", "3", "CUDA_VISIBLE_DEVICES", "0");
    assert_int_equal(jsg_select_env(g, lookup, NULL, &src), 1);
    assert_string_equal(src, "SLURM_JOB_GPUS");
    assert_int_equal(selected(g), 0x1);
    /* UUIDs cannot be misread: they win over Slurm's indexes; a unique prefix will do */
    env("SLURM_STEP_GPUS", "0", "CUDA_VISIBLE_DEVICES", "GPU-bbbb2222,GPU-cccc");
    assert_int_equal(jsg_select_env(g, lookup, NULL, &src), 2);
    assert_string_equal(src, "CUDA_VISIBLE_DEVICES");
    assert_int_equal(selected(g), 0x6);
    env("CUDA_VISIBLE_DEVICES", "2", NULL, NULL);
    assert_int_equal(jsg_select_env(g, lookup, NULL, &src), 1);
    assert_int_equal(selected(g), 0x2);
    /* none of them: the step has no GPU */
    env("HOME", "/root", NULL, NULL);
    assert_int_equal(jsg_select_env(g, lookup, NULL, &src), 0);
    assert_string_equal(src, "none");
    int unknown = 0;
    assert_int_equal(jsg_select_list(g, "GPU-, 9,GPU-dddd4444,NoDevFiles", &unknown), 1);
    assert_int_equal(unknown, 3);
    assert_int_equal(selected(g), 0x8);
    /* only the selected are read: the others' scripted values are not consumed */
    assert_int_equal(jsg_read(g, T0, &tick), 0);
    assert_int_equal(tick.dev[3].have & JSG_HAVE_MEM, JSG_HAVE_MEM);
    assert_int_equal(tick.dev[0].have, 0);
    jsg_close(g);
    /* without minor numbers, Slurm's index is NVML's */
    g = open_script("gpu uuid=GPU-a minor=-1\ngpu uuid=GPU-b minor=-1\n", 0);
    env("SLURM_STEP_GPUS", "1", NULL, NULL);
    assert_int_equal(jsg_select_env(g, lookup, NULL, NULL), 1);
    assert_int_equal(selected(g), 0x2);
    jsg_close(g);
}

static void a_gpu_that_disappears_is_gone_and_the_others_go_on(void **state)
{
    (void)state;
    /* the open makes 4 calls a GPU, a read 6: GPU-a is lost from its third read on, GPU-b
     * fails (an unknown error) from its second and is gone after 3 such reads */
    struct jsg_gpus *g = open_script("gpu uuid=GPU-a util_sm=10 fail_after=16\n"
                                     "gpu uuid=GPU-b util_sm=20 fail_after=10 fail_code=999\n"
                                     "gpu uuid=GPU-c util_sm=30\n",
                                     500);
    jsg_select_all(g);
    run(g, 8);
    assert_int_equal(seen.n, 2);
    const struct jsg_slice_dev *a = &seen.s[0].dev[0], *b = &seen.s[0].dev[1];
    assert_int_equal(a->util_n, 2);
    assert_int_equal(a->util_sm_sum, 20);
    assert_true(a->gone);
    assert_int_equal(a->failed, 1); /* lost at once */
    assert_int_equal(b->util_n, 1);
    assert_int_equal(b->failed, 3);
    assert_true(b->gone);
    assert_true(seen.s[1].dev[0].gone);
    assert_int_equal(seen.s[1].dev[0].samples, 0);
    /* GPU-c never missed a read */
    assert_int_equal(seen.s[0].dev[2].util_n, 4);
    assert_int_equal(seen.s[1].dev[2].util_sm_sum, 4 * 30);
    assert_false(seen.s[1].dev[2].gone);
    assert_true(jsg_device(g, 0)->gone);
    assert_true(jsg_device(g, 1)->gone);
    assert_false(jsg_stuck(g));
    jsg_close(g);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* last: the hung call goes on in the stand-in after this test, which the others share */
static void a_call_that_hangs_costs_one_timeout_then_nothing(void **state)
{
    (void)state;
    /* the open makes 4 calls, a read 6: the second read hangs in its first call for 30 s */
    struct jsg_gpus *g =
        open_script("gpu uuid=GPU-a util_sm=10 hang_after=10 hang_ms=30000\n", 300);
    jsg_select_all(g);
    assert_int_equal(jsg_read(g, T0, &tick), 0);
    double t = now_s();
    assert_int_equal(jsg_read(g, T0 + SEC, &tick), -1);
    double took = now_s() - t;
    assert_true(took >= 0.25 && took < 2.0);
    assert_true(jsg_stuck(g));
    assert_int_equal(tick.ndev, 0);
    t = now_s();
    assert_int_equal(jsg_read(g, T0 + 2 * SEC, &tick), -1);
    jsg_close(g); /* neither waits for the hung thread */
    assert_true(now_s() - t < 0.1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_library_is_no_gpus),
        cmocka_unit_test(failed_init_is_no_gpus),
        cmocka_unit_test(slices_hold_the_scripted_values),
        cmocka_unit_test(processes_are_listed_per_gpu),
        cmocka_unit_test(mig_instances_are_devices),
        cmocka_unit_test(step_gpus_come_from_its_environment),
        cmocka_unit_test(a_gpu_that_disappears_is_gone_and_the_others_go_on),
        cmocka_unit_test(a_call_that_hangs_costs_one_timeout_then_nothing),
    };
    int rc = cmocka_run_group_tests_name("gpu_sampler", tests, NULL, NULL);
    if (script[0] != '\0')
        unlink(script);
    return rc;
}
