/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The step record's "gpu" member as the ingest takes it (profile_ingest/ingest_gpu.c): a
 * well-formed one is taken and removed from the record; one that is not (utilization above
 * 100 %, a series that does not decode, slices outside the step, a bad kind) is refused whole,
 * said in the note, and removed all the same. The GPU's processes likewise: a process with a
 * pid out of range, utilization above 100 %, more memory than the GPU, slices outside the step,
 * listed twice or one too many refuses the member.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "bundle_series.h"
#include "ingest_gpu.h"
#include "ingest_step.h"
#include "profile_format.h"
#include "series.h"
#include "validate.h"

#define T0 1795219200LL /* s; slice T0 / 4 */

static const char *procs_member = "";

/* a member of one GPU, 2 slices from T0 / 4; fmt's %s: the util_sm_sum, %s: the series; the
 * GPU's members procs_member (",\"procs\": [...]" or "") */
static struct pi_step *step_with(const char *util_sm_sum, const char *series, long long first)
{
    static struct pi_step st;
    static char text[16384];
    memset(&st, 0, sizeof st);
    st.slice_seconds = 4;
    st.start_ns = T0 * 1000000000LL;
    st.end_ns = (T0 + 8) * 1000000000LL;
    snprintf(text, sizeof text,
             "{\"step\": \"0\", \"gpu\": {\"version\": 1, \"slice_seconds\": 4, \"nvml\": \"ok\", \"selection\": \"SLURM_STEP_GPUS=0\","
             " \"unknown\": 0, \"stuck\": false, \"first_slice\": %lld, \"slices\": 2, \"series_dropped\": 0,"
             " \"gpus\": [{\"uuid\": \"GPU-A\", \"name\": \"H200\", \"index\": 0, \"minor\": 0, \"parent\": null,"
             " \"mem_total\": 1000, \"energy\": \"counter\", \"gone\": false, \"failed\": 0, \"samples\": 8, \"util_n\": 8,"
             " \"util_sm_sum\": %s, \"util_mem_sum\": 80, \"util_sm_max\": 50, \"util_mem_max\": 10, \"mem_n\": 8,"
             " \"mem_used_max\": 100, \"power_n\": 8, \"power_mw_sum\": 800000, \"power_mw_max\": 100000, \"energy_uj\": 2800000,"
             " \"series\": {\"samples\": %s}%s}]}}",
             first, util_sm_sum, series, procs_member);
    json_error_t err;
    st.rec = json_loads(text, 0, &err);
    assert_non_null(st.rec);
    return &st;
}

/* "AAAAAAAAAAAABAQ=": width 1, base 0, then 4 and 4 (js_series_encode of {4, 4}) */
static const char *two_fours(void)
{
    static char b64[64];
    int64_t v[2] = { 4, 4 };
    unsigned char raw[64];
    size_t len = js_series_encode(v, 2, 1, raw);
    b64[js_b64_encode(raw, len, b64)] = '\0';
    static char quoted[80];
    snprintf(quoted, sizeof quoted, "\"%s\"", b64);
    return quoted;
}

static void a_good_member_is_taken(void **state)
{
    (void)state;
    struct pi_step *st = step_with("400", two_fours(), T0 / 4);
    pi_gpu_take(st, "job.1/step.0.n1.json");
    assert_int_equal(pi_gpu_devices(st->gpu), 1);
    assert_string_equal(pi_gpu_note(st->gpu), "");
    assert_null(json_object_get(st->rec, "gpu")); /* not stored twice */
    pi_gpu_free(st->gpu);
    json_decref(st->rec);
}

static void a_bad_member_is_refused_whole(void **state)
{
    (void)state;
    static const struct { const char *sm, *series; long long first; const char *why; } bad[] = {
        { "900", NULL, T0 / 4, "utilization above 100 %" },
        { "400", "\"!!notbase64\"", T0 / 4, "series \"samples\" is not an encoded series of 2 slices" },
        { "400", NULL, T0 / 4 + 1000, "lie outside the step's span" },
        { "-1", NULL, T0 / 4, "\"util_sm_sum\" is not a whole number >= 0" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct pi_step *st = step_with(bad[i].sm, bad[i].series ? bad[i].series : two_fours(), bad[i].first);
        pi_gpu_take(st, "job.1/step.0.n1.json");
        assert_int_equal(pi_gpu_devices(st->gpu), 0);
        const char *note = pi_gpu_note(st->gpu);
        if (!strstr(note, "the step record's GPU readings were refused: ") || !strstr(note, bad[i].why))
            fail_msg("case %zu: note \"%s\" lacks \"%s\"", i, note, bad[i].why);
        assert_null(json_object_get(st->rec, "gpu"));
        pi_gpu_free(st->gpu);
        json_decref(st->rec);
    }
}

/* a process of the GPU above: pid, its util_sm_max, mem_used_max and first slice */
static void proc_text(char *buf, size_t n, long long pid, int sm_max, long long mem, long long first)
{
    snprintf(buf, n, "{\"pid\": %lld, \"samples\": 8, \"util_n\": 8, \"util_sm_sum\": 160, \"util_mem_sum\": 8,"
             " \"util_sm_max\": %d, \"mem_n\": 8, \"mem_used_max\": %lld, \"first_slice\": %lld, \"last_slice\": %lld,"
             " \"slices\": 2}", pid, sm_max, mem, first, first + 1);
}

static void processes_are_taken_and_bounded(void **state)
{
    (void)state;
    static char a[256], b[256], member[14000];
    proc_text(a, sizeof a, 4242, 20, 600, T0 / 4);
    proc_text(b, sizeof b, 4243, 30, 300, T0 / 4);
    snprintf(member, sizeof member, ", \"procs\": [%s, %s], \"procs_dropped\": 0, \"procs_other\": 1", a, b);
    procs_member = member;
    struct pi_step *st = step_with("400", two_fours(), T0 / 4);
    pi_gpu_take(st, "job.1/step.0.n1.json");
    assert_int_equal(pi_gpu_processes(st->gpu), 2);
    assert_string_equal(pi_gpu_note(st->gpu), "");
    pi_gpu_free(st->gpu);
    json_decref(st->rec);
    static const struct { long long pid; int sm; long long mem, first; int twice; const char *why; } bad[] = {
        { 0, 20, 600, T0 / 4, 0, "its pid is out of range" },
        { 4194305, 20, 600, T0 / 4, 0, "its pid is out of range" },
        { 4242, 101, 600, T0 / 4, 0, "process 4242: utilization above 100 %" },
        { 4242, 20, 1001, T0 / 4, 0, "process 4242: more memory than the GPU has" },
        { 4242, 20, 600, T0 / 4 + 1000, 0, "are not within the step's span" },
        { 4242, 20, 600, T0 / 4, 1, "process 4242 is listed twice" },
        { 4242, 20, 600, T0 / 4, 40, "procs, procs_dropped or procs_other is not what it should be" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        proc_text(a, sizeof a, bad[i].pid, bad[i].sm, bad[i].mem, bad[i].first);
        int n = snprintf(member, sizeof member, ", \"procs\": [%s", a);
        for (int k = 0; k < bad[i].twice && n < (int)sizeof member - 300; k++) {
            proc_text(b, sizeof b, bad[i].twice > 1 ? 5000 + k : bad[i].pid, 20, 600, T0 / 4);
            n += snprintf(member + n, sizeof member - (size_t)n, ", %s", b);
        }
        snprintf(member + n, sizeof member - (size_t)n, "], \"procs_dropped\": 0, \"procs_other\": 0");
        st = step_with("400", two_fours(), T0 / 4);
        pi_gpu_take(st, "job.1/step.0.n1.json");
        const char *note = pi_gpu_note(st->gpu);
        if (pi_gpu_processes(st->gpu) != 0 || !strstr(note, "the step record's GPU readings were refused: ") ||
            !strstr(note, bad[i].why))
            fail_msg("case %zu: note \"%s\" lacks \"%s\"", i, note, bad[i].why);
        pi_gpu_free(st->gpu);
        json_decref(st->rec);
    }
    procs_member = "";
}

/* n values as a quoted base64 series */
static const char *encoded(const int64_t *v, size_t n, char *out, size_t size)
{
    unsigned char raw[128];
    char b64[200];
    size_t len = js_series_encode(v, n, 1, raw);
    b64[js_b64_encode(raw, len, b64)] = '\0';
    snprintf(out, size, "\"%s\"", b64);
    return out;
}

/* st: a 24 s step from T0 whose record is text */
static void step_of(struct pi_step *st, const char *text)
{
    memset(st, 0, sizeof *st);
    st->slice_seconds = 4;
    st->start_ns = T0 * 1000000000LL;
    st->end_ns = (T0 + 24) * 1000000000LL;
    json_error_t err;
    st->rec = json_loads(text, 0, &err);
    assert_non_null(st->rec);
}

/* A step-node without a cgroup of its own (the relay could not share the node's CPU energy):
 * the ingest shares each slice's energy by the CPU time the step's processes reported in it
 * against the node's busy CPU time; at most the slice's energy, nothing where the node was not
 * busy, nothing for a slice outside the readings. Without the busy times (an older relay) or
 * with the relay's own share, as before. */
static void cpu_energy_is_shared_by_the_profile(void **state)
{
    (void)state;
    static struct pi_step st;
    static char text[4096], e[400], busy[400];
    const int64_t ev[3] = { 4000000, 2000000, 6000000 }, bv[3] = { 4000000000, 4000000000, 0 };
    struct pi_slice sl[4] = { { .slice = T0 / 4 }, { .slice = T0 / 4 + 1 }, { .slice = T0 / 4 + 2 }, { .slice = T0 / 4 + 5 } };
    sl[0].m[JS_M_CPU_NS] = 1000000000; /* a quarter of the busy time: 1 J of 4 */
    sl[1].m[JS_M_CPU_NS] = 8000000000; /* more than the node's busy time: all 2 J, no more */
    sl[2].m[JS_M_CPU_NS] = 4000000000; /* the node not busy: nothing */
    sl[3].m[JS_M_CPU_NS] = 4000000000; /* no reading of the node: nothing */
    static const struct { const char *step, *busy_key; long long want; const char *note; } cases[] = {
        { "null", "node_busy_ns", 3000000, "CPU energy shared by the CPU time the step's processes reported (no cgroup)" },
        { "null", "other", -1, "CPU energy not attributed: no cgroup" },
        { "5000000", "node_busy_ns", 5000000, "" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text,
                 "{\"gpu\": {\"version\": 1, \"slice_seconds\": 4, \"nvml\": \"no GPUs: nvml=none\", \"selection\": \"none\","
                 " \"unknown\": 0, \"stuck\": false, \"first_slice\": %lld, \"slices\": 3, \"series_dropped\": 0, \"gpus\": [],"
                 " \"cpu\": {\"powercap\": \"ok\", \"zones\": 1, \"share\": \"%s\", \"node_energy_uj\": 12000000,"
                 " \"step_energy_uj\": %s, \"series\": {\"node_energy_uj\": %s, \"%s\": %s}}}}",
                 T0 / 4, cases[i].step[0] == 'n' ? "no cgroup" : "ok", cases[i].step, encoded(ev, 3, e, sizeof e),
                 cases[i].busy_key, encoded(bv, 3, busy, sizeof busy));
        step_of(&st, text);
        st.slices = sl;
        st.nslices = 4;
        pi_gpu_take(&st, "job.1/step.0.n1.json");
        assert_non_null(st.gpu);
        assert_int_equal(pi_gpu_cpu_energy_uj(st.gpu, &st), cases[i].want);
        assert_int_equal(pi_gpu_cpu_energy_uj(st.gpu, &st), cases[i].want); /* once: said once */
        assert_string_equal(pi_gpu_note(st.gpu), cases[i].note);
        pi_gpu_free(st.gpu);
        json_decref(st.rec);
    }
    /* a busy time that does not decode refuses the member, as every series does */
    snprintf(text, sizeof text,
             "{\"gpu\": {\"version\": 1, \"slice_seconds\": 4, \"nvml\": \"ok\", \"selection\": \"none\", \"unknown\": 0,"
             " \"stuck\": false, \"first_slice\": %lld, \"slices\": 3, \"series_dropped\": 0, \"gpus\": [], \"cpu\": {\"powercap\":"
             " \"ok\", \"zones\": 1, \"share\": \"no cgroup\", \"node_energy_uj\": 1, \"step_energy_uj\": null,"
             " \"series\": {\"node_busy_ns\": \"!!\"}}}}", T0 / 4);
    step_of(&st, text);
    pi_gpu_take(&st, "job.1/step.0.n1.json");
    assert_non_null(strstr(pi_gpu_note(st.gpu), "node_energy_uj or node_busy_ns is not an encoded series of 3 slices"));
    assert_int_equal(pi_gpu_cpu_energy_uj(st.gpu, &st), -1);
    pi_gpu_free(st.gpu);
    json_decref(st.rec);
}

/* A MIG instance alone (its GPU not the step's): no energy of its own, said; given with its
 * GPU, nothing to say */
static void a_mig_instance_without_energy_is_said(void **state)
{
    (void)state;
    for (int with_gpu = 0; with_gpu < 2; with_gpu++) {
        struct pi_step *st = step_with("400", two_fours(), T0 / 4);
        json_t *gpus = json_object_get(json_object_get(st->rec, "gpu"), "gpus"), *mig = json_deep_copy(json_array_get(gpus, 0));
        json_object_set_new(mig, "uuid", json_string("MIG-1"));
        json_object_set_new(mig, "parent", json_string("GPU-A"));
        json_object_set_new(mig, "energy", json_string("none"));
        json_object_set_new(mig, "energy_uj", json_integer(0));
        if (!with_gpu)
            json_array_clear(gpus);
        json_array_append_new(gpus, mig);
        pi_gpu_take(st, "job.1/step.0.n1.json");
        assert_int_equal(pi_gpu_devices(st->gpu), with_gpu ? 2 : 1);
        if (with_gpu)
            assert_string_equal(pi_gpu_note(st->gpu), "");
        else
            assert_string_equal(pi_gpu_note(st->gpu), "MIG-1 is a MIG instance: NVML gives it no energy of its own, and its "
                                                      "GPU's (GPU-A) is not shared among instances, so the step's GPU energy "
                                                      "leaves it out");
        pi_gpu_free(st->gpu);
        json_decref(st->rec);
    }
}

static void no_member_is_nothing(void **state)
{
    (void)state;
    static struct pi_step st;
    memset(&st, 0, sizeof st);
    st.rec = json_pack("{s:s}", "step", "0");
    pi_gpu_take(&st, "job.1/step.0.n1.json");
    assert_null(st.gpu);
    json_decref(st.rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_good_member_is_taken),
        cmocka_unit_test(a_bad_member_is_refused_whole),
        cmocka_unit_test(no_member_is_nothing),
        cmocka_unit_test(processes_are_taken_and_bounded),
        cmocka_unit_test(cpu_energy_is_shared_by_the_profile),
        cmocka_unit_test(a_mig_instance_without_energy_is_said),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
