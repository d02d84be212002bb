/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of a version-2 bundle's series (common/bundle_series.c, profile_ingest/
 * node_series.c): base64, the fold's least, most and whose most, and a real bundle of the
 * generator (bench/gen) forged member by member: each forgery is refused with a reason that names
 * what is wrong, and nothing of the bundle is taken.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/gen/gen.h"
#include "bundle_series.h"
#include "series.h"
#include "validate.h"

static void base64_round_trips_and_refuses_what_is_not(void **state)
{
    (void)state;
    unsigned char in[64], out[64];
    char text[JS_B64_LEN(sizeof in) + 1];
    for (size_t n = 0; n <= sizeof in; n++) {
        for (size_t i = 0; i < n; i++)
            in[i] = (unsigned char)(i * 37 + n);
        size_t tl = js_b64_encode(in, n, text);
        assert_int_equal(tl, JS_B64_LEN(n));
        assert_int_equal(js_b64_decode(text, tl, out, sizeof out), (long)n);
        assert_memory_equal(in, out, n);
    }
    assert_string_equal((js_b64_encode((const unsigned char *)"jobs", 4, text), text), "am9icw==");
    assert_int_equal(js_b64_decode("am9icw=", 7, out, sizeof out), -1);   /* not a multiple of 4 */
    assert_int_equal(js_b64_decode("am9i*w==", 8, out, sizeof out), -1);  /* not an alphabet letter */
    assert_int_equal(js_b64_decode("am==am9i", 8, out, sizeof out), -1);  /* padding inside */
    assert_int_equal(js_b64_decode("am9icw==", 8, out, 3), -1);           /* more than the room */
}

static void the_fold_keeps_sums_least_most_and_whose_most(void **state)
{
    (void)state;
    struct js_fold f;
    js_fold_init(&f);
    int64_t row[JS_SLICE_COLS] = { 0 };
    row[JS_M_CPU_NS] = 5;
    row[JS_M_POSIX_WRITE_BYTES] = 10;
    assert_int_equal(js_fold_add_row(&f, 7, row, 300), 0);
    row[JS_M_CPU_NS] = 9;
    row[JS_M_STDIO_READ_BYTES] = 1;
    assert_int_equal(js_fold_add_row(&f, 7, row, 200), 0);
    row[JS_M_CPU_NS] = 9;
    assert_int_equal(js_fold_add_row(&f, 7, row, 100), 0); /* equal most: the lower pid */
    assert_int_equal(js_fold_add_row(&f, 3, row, 100), 0);
    js_fold_sort(&f);
    assert_int_equal(f.n, 2);
    assert_int_equal(f.s[0].slice, 3);
    const struct js_fold_slice *s = &f.s[1];
    assert_int_equal(s->v[0], 3);
    assert_int_equal(s->v[1 + JS_M_CPU_NS], 23);
    assert_int_equal(s->lo[JS_SPREAD_CPU_NS], 5);
    assert_int_equal(s->hi[JS_SPREAD_CPU_NS], 9);
    assert_int_equal(s->hi_pid[JS_SPREAD_CPU_NS], 100);
    assert_int_equal(s->lo[JS_SPREAD_IO_BYTES], 10);
    assert_int_equal(s->hi[JS_SPREAD_IO_BYTES], 11);
    js_fold_free(&f);
}

/* ---- a real bundle, forged ---------------------------------------------------------------- */
static json_t *load(const char *path)
{
    json_error_t err;
    json_t *j = json_load_file(path, 0, &err);
    if (!j)
        fail_msg("%s: %s", path, err.text);
    return j;
}

static char dir[64];
static json_t *job, *rec, *bundle;

/* A uniform job of the generator (3 processes on a node, 5 slices) in a bundle. */
static int make_bundle(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/js-series-test-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    struct jsgen_params p;
    struct jsgen_summary s;
    jsgen_defaults(&p, JSGEN_UNIFORM);
    p.out = dir;
    p.ppn = 3;
    p.slices = 5;
    p.start_s = 1800000000;
    p.uid = (long)getuid();
    p.chown_profiles = 0;
    p.bundle = 2; /* its series forged: version 2 (version 3 only adds the columns) */
    if (jsgen_run(&p, &s) != 0)
        return -1;
    char path[256];
    snprintf(path, sizeof path, "%s/job.%u/job.json", dir, p.job_id_base);
    job = load(path);
    snprintf(path, sizeof path, "%s/job.%u/step.0.gen1.json", dir, p.job_id_base);
    rec = load(path);
    snprintf(path, sizeof path, "%s/job.%u/profiles/0.gen1.b1.json", dir, p.job_id_base);
    bundle = load(path);
    return 0;
}

static int remove_bundle(void **state)
{
    (void)state;
    json_decref(job);
    json_decref(rec);
    json_decref(bundle);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The bundle (changed by forge, when not NULL) into a fresh step: its result and reason. */
static int take(void (*forge)(json_t *chunk, json_t *b), char *reason, size_t *nslices, size_t *nprocs)
{
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    json_incref(job);
    json_incref(rec);
    pi_step_init(&st, job, rec, "default");
    json_t *b = json_deep_copy(bundle);
    if (forge)
        forge(json_array_get(json_object_get(json_object_get(b, "series"), "chunks"), 0), b);
    int count = 0;
    int rc = pi_bundle_add(&st, &conf, b, &count, reason, PI_REASON_MAX);
    pi_step_finish(&st);
    *nslices = st.nslices;
    *nprocs = st.nprocs;
    json_decref(b);
    pi_step_free(&st);
    pi_conf_free(&conf);
    return rc;
}

/* a series of n values v, v + step, ... as base64 */
static json_t *series_of(int64_t v, size_t n, int64_t step)
{
    int64_t vals[16];
    unsigned char enc[JS_SERIES_MAX_BYTES(16)];
    char text[JS_B64_LEN(sizeof enc) + 1];
    for (size_t i = 0; i < n; i++)
        vals[i] = v + (int64_t)i * step;
    js_b64_encode(enc, js_series_encode(vals, n, 1, enc), text);
    return json_string(text);
}

static void set_list(json_t *chunk, const char *key, int k, json_t *v) { json_array_set_new(json_object_get(chunk, key), (size_t)k, v); }
static void f_bad_base64(json_t *c, json_t *b) { (void)b; set_list(c, "sums", 1, json_string("AAA*")); }
static void f_short_series(json_t *c, json_t *b) { (void)b; set_list(c, "sums", 1, series_of(1, 2, 1)); }
static void f_negative(json_t *c, json_t *b) { (void)b; set_list(c, "sums", 1 + JS_M_POSIX_READ_BYTES, series_of(-5, 5, 0)); }
static void f_huge(json_t *c, json_t *b) { (void)b; set_list(c, "sums", 1 + JS_M_POSIX_WRITE_BYTES, series_of(INT64_MAX / 2, 5, 0)); }
static void f_column(json_t *c, json_t *b) { (void)c; json_array_set_new(json_object_get(json_object_get(b, "series"), "columns"), 3, json_string("evil")); }
static void f_outside(json_t *c, json_t *b) { (void)b; json_object_set_new(c, "first_slice", json_integer(900 * 1000)); }
static void f_two_chunks(json_t *c, json_t *b) { (void)c; json_array_append(json_object_get(json_object_get(b, "series"), "chunks"), c); }
static void f_max_over_sum(json_t *c, json_t *b) { (void)b; set_list(c, "max", JS_SPREAD_CPU_NS, series_of(INT64_MAX / 4, 5, 0)); }
static void f_min_over_max(json_t *c, json_t *b) { (void)b; set_list(c, "min", JS_SPREAD_IO_BYTES, series_of(1LL << 40, 5, 0)); }
static void f_no_spread(json_t *c, json_t *b) { (void)b; json_object_set_new(c, "min", json_array()); json_object_set_new(c, "max", json_array()); }
static void f_no_processes(json_t *c, json_t *b) { (void)b; set_list(c, "sums", 0, json_string("")); }
static void f_slices_back(json_t *c, json_t *b)
{
    (void)c;
    json_t *p = json_array_get(json_object_get(b, "profiles"), 0);
    json_object_set_new(p, "slices", json_array());
}
static void f_old_profile(json_t *c, json_t *b)
{
    (void)c;
    json_object_set_new(json_array_get(json_object_get(b, "profiles"), 1), "version", json_integer(6));
}
static void f_no_series(json_t *c, json_t *b) { (void)c; json_object_del(b, "series"); }

static void forged_series_are_refused_whole_with_the_reason(void **state)
{
    (void)state;
    char reason[PI_REASON_MAX];
    size_t n, procs;
    assert_int_equal(take(NULL, reason, &n, &procs), PI_OK);
    assert_int_equal(n, 5);
    assert_int_equal(procs, 3);
    static const struct { void (*forge)(json_t *, json_t *); const char *why; } cases[] = {
        { f_bad_base64, "series: chunks[0]: sums[1] is not a base64 series of 5 values" },
        { f_short_series, "series: chunks[0]: sums[1] is not a base64 series of 5 values" },
        { f_negative, "series: chunks[0]: slice 450000000: a value is negative" },
        { f_huge, "series: slice 450000000: posix_write_bytes of the step-node with this process would be" },
        { f_column, "series: columns[3] is not \"posix_write_calls\"" },
        { f_outside, "series: chunks[0]: slices 900000..900004 do not ascend within one chunk and within the step's slices" },
        { f_two_chunks, "series: chunks[1]: slices 450000000..450000004 do not ascend" },
        { f_max_over_sum, "series: chunks[0]: slice 450000000: the spread of cpu_ns (min " },
        { f_min_over_max, "series: chunks[0]: slice 450000000: the spread of io_bytes (min 1099511627776" },
        { f_no_spread, "series: chunks[0]: slice 450000000 has 3 processes and no min and max" },
        { f_no_processes, "series: chunks[0]: slice 450000000: values without processes" },
        { f_slices_back, "profile 1 of the bundle: field \"slices\" is not in a profile of a version 2 bundle" },
        { f_old_profile, "profile 2 of the bundle: a version 6 profile does not belong in a bundle of version 2" },
        { f_no_series, "bundle: \"series\" is missing or not an object" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        reason[0] = '\0';
        int rc = take(cases[i].forge, reason, &n, &procs);
        if (rc != PI_INVALID || strncmp(reason, cases[i].why, strlen(cases[i].why)) != 0)
            fail_msg("case %zu: %d \"%s\", expected \"%s...\"", i, rc, reason, cases[i].why);
        /* a bad profile is refused alone: the series and the other profiles stay; a bad series
         * refuses the bundle whole */
        int alone = cases[i].forge == f_slices_back || cases[i].forge == f_old_profile;
        assert_int_equal(n, alone ? 5 : 0);
        assert_int_equal(procs, alone ? 2 : 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(base64_round_trips_and_refuses_what_is_not),
        cmocka_unit_test(the_fold_keeps_sums_least_most_and_whose_most),
        cmocka_unit_test_setup_teardown(forged_series_are_refused_whole_with_the_reason, make_bundle, remove_bundle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
