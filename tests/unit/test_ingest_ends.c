/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of profile_ingest's validation (profile_ingest/validate.c) of how processes
 * ended and of bundles: versions 1 and 2 of a profile's end, refused ends, a live snapshot's
 * running processes, a bundle's processes not recorded, broken JSON, and many profiles merged
 * as they come; fed with the files of the data-driven suite tests/ingest-suites. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ingest_suite.h"

static void version_1_and_2_profiles_say_how_the_process_ended(void **state)
{
    (void)state;
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    char reason[PI_REASON_MAX];
    ends_step(&st);
    /* version 1: no exit_code, signal, missing: unknown, none, nothing missing */
    assert_int_equal(add_profile(&st, &conf, ENDS "profiles/0.node1.1000.json", reason), PI_OK);
    assert_int_equal(st.procs[0].exit_code, -1);
    assert_int_equal(st.procs[0].signal, 0);
    assert_string_equal(st.procs[0].missing, "");
    assert_string_equal(st.procs[0].end, "exit");
    assert_false(pi_step_has_missing(&st));
    /* version 2: killed by SIGKILL, its CPU time after the kill missing */
    assert_int_equal(add_profile(&st, &conf, ENDS "profiles/0.node1.1001.json", reason), PI_OK);
    assert_string_equal(st.procs[1].end, "signal");
    assert_int_equal(st.procs[1].signal, 9);
    assert_int_equal(st.procs[1].exit_code, -1);
    assert_string_equal(st.procs[1].missing, "CPU time after the kill");
    assert_true(pi_step_has_missing(&st));
    /* version 2: exit status 3; and one whose end nobody saw */
    assert_int_equal(add_profile(&st, &conf, ENDS "profiles/0.node1.1003.json", reason), PI_OK);
    assert_string_equal(st.procs[2].end, "exit");
    assert_int_equal(st.procs[2].exit_code, 3);
    assert_int_equal(st.procs[2].signal, 0);
    assert_string_equal(st.procs[2].missing, "");
    assert_int_equal(add_profile(&st, &conf, ENDS "profiles/0.node1.1004.json", reason), PI_OK);
    assert_string_equal(st.procs[3].end, "unknown");
    assert_int_equal(st.procs[3].exit_code, -1);
    pi_step_finish(&st);
    assert_int_equal(st.nprocs, 4);
    pi_step_free(&st);
    pi_conf_free(&conf);
}

/* Set one member of a version 2 profile (NULL: remove it) and expect the refusal. */
static void refused(const char *member, json_t *value, const char *base, const char *want)
{
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    char reason[PI_REASON_MAX] = "";
    ends_step(&st);
    json_t *p = suite_json(base);
    if (value)
        json_object_set_new(p, member, value);
    else
        json_object_del(p, member);
    int rc = pi_profile_add(&st, &conf, p, reason, sizeof reason);
    if (rc != PI_INVALID || strcmp(reason, want) != 0)
        fail_msg("%s: got %d \"%s\", want \"%s\"", member, rc, reason, want);
    assert_int_equal(st.nprocs, 0);
    json_decref(p);
    pi_step_free(&st);
    pi_conf_free(&conf);
}

static void bad_ends_signals_exit_codes_and_missing_are_refused(void **state)
{
    (void)state;
    const char *killed = ENDS "profiles/0.node1.1001.json", *exited = ENDS "profiles/0.node1.1003.json";
    const char *v1 = ENDS "profiles/0.node1.1000.json";
    refused("end", json_string("crashed"), exited, "end \"crashed\" is not exit, _exit, exec, signal or unknown");
    refused("end", json_string("signal"), v1, "end \"signal\" is not exit, _exit or exec");
    refused("end", json_string("unknown"), v1, "end \"unknown\" is not exit, _exit or exec");
    refused("signal", json_integer(128), killed, "signal 128 is not a signal number (0 to 127)");
    refused("signal", json_integer(-9), killed, "signal -9 is not a signal number (0 to 127)");
    refused("signal", json_integer(0), killed,
            "signal 0 does not agree with end \"signal\" (a signal number if and only if end is signal)");
    refused("signal", json_integer(15), exited,
            "signal 15 does not agree with end \"exit\" (a signal number if and only if end is signal)");
    refused("signal", json_string("9"), killed, "field \"signal\" is not an integer");
    refused("exit_code", json_integer(256), exited, "exit_code 256 is not an exit status (0 to 255, or -1)");
    refused("exit_code", json_integer(-2), exited, "exit_code -2 is not an exit status (0 to 255, or -1)");
    refused("exit_code", NULL, exited, "field \"exit_code\" is missing");
    refused("missing", NULL, killed, "field \"missing\" is missing");
    refused("missing", json_false(), killed, "field \"missing\" is not a string");
    char long_text[PI_MISSING_MAX + 2];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    refused("missing", json_string(long_text), killed, "field \"missing\" is longer than 1024 bytes");
    refused("missing", json_stringn("a\0b", 3), killed, "field \"missing\" holds a NUL character");
    /* the longest allowed is fine */
    long_text[PI_MISSING_MAX] = '\0';
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    char reason[PI_REASON_MAX];
    ends_step(&st);
    json_t *p = suite_json(killed);
    json_object_set_new(p, "missing", json_string(long_text));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    assert_int_equal(strlen(st.procs[0].missing), PI_MISSING_MAX);
    json_decref(p);
    pi_step_free(&st);
    pi_conf_free(&conf);
}

/* A bundle of two profiles of the ENDS case, with "unrecorded" set to u (NULL: absent). */
/* "running" is an end only in a live snapshot (a step without its step record yet). */
static void running_is_an_end_of_live_snapshots_only(void **state)
{
    (void)state;
    const char *exited = ENDS "profiles/0.node1.1003.json";
    refused("end", json_string("running"), exited, "end \"running\" is not exit, _exit, exec, signal or unknown");
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    char reason[PI_REASON_MAX] = "";
    ends_step(&st);
    st.live = 1;
    json_t *p = suite_json(exited);
    json_object_set_new(p, "end", json_string("running"));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    assert_string_equal(st.procs[0].end, "running");
    json_object_set_new(p, "end", json_string("crashed"));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "end \"crashed\" is not exit, _exit, exec, signal or unknown");
    json_decref(p);
    pi_step_free(&st);
    pi_conf_free(&conf);
}

static json_t *ends_bundle(json_t *u)
{
    /* a bundle of version 1: its profiles carry their slices */
    json_t *b = json_pack("{s:s, s:i, s:[oo]}", "format", JS_PROFILE_BUNDLE_FORMAT_NAME, "version", 1, "profiles", suite_json(ENDS "profiles/0.node1.1001.json"),
                          suite_json(ENDS "profiles/0.node1.1003.json"));
    assert_non_null(b);
    if (u)
        json_object_set_new(b, "unrecorded", u);
    return b;
}

static int add_bundle(struct pi_step *st, const struct pi_conf *conf, json_t *b, char *reason)
{
    int count = 0;
    int rc = pi_bundle_add(st, conf, b, &count, reason, PI_REASON_MAX);
    json_decref(b);
    return rc;
}

static void bundles_count_the_processes_not_recorded(void **state)
{
    (void)state;
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    char reason[PI_REASON_MAX];
    ends_step(&st);
    /* absent: nothing was refused */
    assert_int_equal(add_bundle(&st, &conf, ends_bundle(NULL), reason), PI_OK);
    assert_int_equal(st.nprocs, 2);
    assert_int_equal(st.unrecorded, 0);
    assert_string_equal(st.unrecorded_reason, "");
    /* present in a later bundle, then in another: the counts add up, the first reason stays */
    assert_int_equal(add_bundle(&st, &conf, ends_bundle(json_pack("{s:i, s:s}", "processes", 12, "reason",
                                                        "the job's spool quota on this node (1073741824 B, 10000 files) was reached")),
                                reason), PI_OK);
    assert_int_equal(st.nprocs, 4);
    assert_int_equal(st.unrecorded, 12);
    assert_string_equal(st.unrecorded_reason, "the job's spool quota on this node (1073741824 B, 10000 files) was reached");
    assert_int_equal(add_bundle(&st, &conf, ends_bundle(json_pack("{s:i, s:s}", "processes", 3, "reason", "another")), reason), PI_OK);
    assert_int_equal(st.unrecorded, 15);
    assert_string_equal(st.unrecorded_reason, "the job's spool quota on this node (1073741824 B, 10000 files) was reached");
    /* the longest reason allowed is kept whole */
    struct pi_step st2;
    ends_step(&st2);
    char text[PI_UNRECORDED_REASON_MAX + 1];
    memset(text, 'q', PI_UNRECORDED_REASON_MAX);
    text[PI_UNRECORDED_REASON_MAX] = '\0';
    assert_int_equal(add_bundle(&st2, &conf, ends_bundle(json_pack("{s:i, s:s}", "processes", 1, "reason", text)), reason), PI_OK);
    assert_int_equal(st2.unrecorded, 1);
    assert_string_equal(st2.unrecorded_reason, text);
    /* an empty reason counts and leaves the reason to a later bundle */
    struct pi_step st3;
    ends_step(&st3);
    assert_int_equal(add_bundle(&st3, &conf, ends_bundle(json_pack("{s:i, s:s}", "processes", 2, "reason", "")), reason), PI_OK);
    assert_int_equal(add_bundle(&st3, &conf, ends_bundle(json_pack("{s:i, s:s}", "processes", 1, "reason", "quota")), reason), PI_OK);
    assert_int_equal(st3.unrecorded, 3);
    assert_string_equal(st3.unrecorded_reason, "quota");
    pi_step_free(&st3);
    pi_step_free(&st2);
    pi_step_free(&st);
    pi_conf_free(&conf);
}

/* A bundle whose "unrecorded" is u is refused whole with the reason want. */
static void bundle_refused(json_t *u, int64_t before, const char *want)
{
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    char reason[PI_REASON_MAX] = "";
    ends_step(&st);
    st.unrecorded = before;
    int rc = add_bundle(&st, &conf, ends_bundle(u), reason);
    if (rc != PI_INVALID || strcmp(reason, want) != 0)
        fail_msg("got %d \"%s\", want \"%s\"", rc, reason, want);
    assert_int_equal(st.nprocs, 0);
    assert_int_equal(st.unrecorded, before);
    assert_string_equal(st.unrecorded_reason, "");
    pi_step_free(&st);
    pi_conf_free(&conf);
}

static void malformed_unrecorded_refuses_the_bundle(void **state)
{
    (void)state;
    const char *procs = "bundle: \"unrecorded\": \"processes\" is missing or not an integer from 1 to 2147483647";
    const char *why = "bundle: \"unrecorded\": \"reason\" is missing or not a string of at most 512 bytes";
    bundle_refused(json_integer(12), 0, "bundle: \"unrecorded\" is not an object");
    bundle_refused(json_null(), 0, "bundle: \"unrecorded\" is not an object");
    bundle_refused(json_pack("{s:s}", "reason", "quota"), 0, procs);
    bundle_refused(json_pack("{s:i, s:s}", "processes", 0, "reason", "quota"), 0, procs);
    bundle_refused(json_pack("{s:i, s:s}", "processes", -3, "reason", "quota"), 0, procs);
    bundle_refused(json_pack("{s:I, s:s}", "processes", (json_int_t)INT32_MAX + 1, "reason", "quota"), 0, procs);
    bundle_refused(json_pack("{s:s, s:s}", "processes", "12", "reason", "quota"), 0, procs);
    bundle_refused(json_pack("{s:f, s:s}", "processes", 12.0, "reason", "quota"), 0, procs);
    bundle_refused(json_pack("{s:i}", "processes", 12), 0, why);
    bundle_refused(json_pack("{s:i, s:i}", "processes", 12, "reason", 7), 0, why);
    char text[PI_UNRECORDED_REASON_MAX + 2];
    memset(text, 'q', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    bundle_refused(json_pack("{s:i, s:s}", "processes", 12, "reason", text), 0, why);
    bundle_refused(json_pack("{s:i, s:o}", "processes", 12, "reason", json_stringn("a\0b", 3)), 0,
                   "bundle: \"unrecorded\": \"reason\" holds a NUL character");
    /* the count of a step-node stays an integer of the database */
    bundle_refused(json_pack("{s:i, s:s}", "processes", 2, "reason", "quota"), INT32_MAX - 1,
                   "bundle: \"unrecorded\": more than 2147483647 processes for one step on one node");
}

static void broken_json_names_line_and_column(void **state)
{
    (void)state;
    char reason[PI_REASON_MAX];
    assert_null(pi_json_parse("{\"a\": 1,\n \"a\": 2}", 18, reason, sizeof reason));
    assert_string_equal(reason, "not valid JSON: duplicate object key near '\"a\"' (line 2, column 4)");
    assert_null(pi_json_parse("[1]", 3, reason, sizeof reason));
    assert_string_equal(reason, "not a JSON object");
}

/* Issue 13 (junk is cheap): 3 * PI_MERGE_MIN + 5 profiles are merged as they are added (the
 * slices, files and trees held stay about twice the distinct ones) and sum up exactly as one
 * merge at the end would; their repeated strings, and refusals' reasons, are held once. */
static void many_profiles_merge_as_they_come(void **state)
{
    (void)state;
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    char reason[PI_REASON_MAX];
    const char *dir = "valid/processes-merge-per-slice/spool/job.101";
    struct pi_step one, st;
    json_t *p = suite_json("valid/processes-merge-per-slice/spool/job.101/profiles/0.node1.1001.json");
    char rel[256];
    snprintf(rel, sizeof rel, "%s/job.json", dir);
    json_t *job = suite_json(rel);
    snprintf(rel, sizeof rel, "%s/step.0.node1.json", dir);
    json_t *rec = suite_json(rel);
    json_incref(job);
    json_incref(rec);
    pi_step_init(&one, job, rec, "default");
    pi_step_init(&st, job, rec, "default");
    assert_int_equal(pi_profile_add(&one, &conf, p, reason, sizeof reason), PI_OK);
    pi_step_finish(&one);
    const int64_t n = 3 * PI_MERGE_MIN + 5;
    size_t most = 0;
    for (int64_t i = 0; i < n; i++) {
        json_object_set_new(p, "pid", json_integer(2000 + i));
        assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
        if (st.nslices + st.nfiles > most)
            most = st.nslices + st.nfiles;
    }
    assert_true(most <= 2 * PI_MERGE_MIN + one.nslices + one.nfiles); /* not n * (slices + files) */
    pi_step_finish(&st);
    assert_int_equal(st.nprocs, n);
    assert_int_equal(st.nslices, one.nslices);
    for (size_t k = 0; k < st.nslices; k++) {
        assert_int_equal(st.slices[k].slice, one.slices[k].slice);
        assert_int_equal(st.slices[k].processes, n * one.slices[k].processes);
        for (int m = 0; m < JS_M_COUNT; m++)
            assert_int_equal(st.slices[k].m[m], n * one.slices[k].m[m]);
    }
    assert_int_equal(st.nfiles, one.nfiles);
    for (size_t k = 0; k < st.nfiles; k++) {
        assert_string_equal(st.files[k].path, one.files[k].path);
        assert_int_equal(st.files[k].processes, n * one.files[k].processes);
        assert_int_equal(st.files[k].bytes_written, n * one.files[k].bytes_written);
        assert_int_equal(st.files[k].opens, n * one.files[k].opens);
        assert_int_equal(st.files[k].layers, one.files[k].layers);
    }
    /* one copy of each repeated string */
    assert_ptr_equal(st.procs[0].exe, st.procs[n - 1].exe);
    assert_ptr_equal(st.procs[0].missing, st.procs[n - 1].missing);
    assert_string_equal(st.procs[0].exe, one.procs[0].exe);
    char longer[2 * PI_REASON_MAX];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    pi_step_add_bad(&st, "0.node1.j1.json", "not valid JSON");
    pi_step_add_bad(&st, "0.node1.j2.json", "not valid JSON");
    pi_step_add_bad(&st, "0.node1.j3.json", longer);
    assert_int_equal(st.nbad, 3);
    assert_ptr_equal(st.bad[0].reason, st.bad[1].reason);
    assert_string_equal(st.bad[1].name, "0.node1.j2.json");
    assert_int_equal(strlen(st.bad[2].reason), PI_REASON_MAX - 1);
    json_decref(p);
    pi_step_free(&one);
    pi_step_free(&st);
    pi_conf_free(&conf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(version_1_and_2_profiles_say_how_the_process_ended),
        cmocka_unit_test(bad_ends_signals_exit_codes_and_missing_are_refused),
        cmocka_unit_test(running_is_an_end_of_live_snapshots_only),
        cmocka_unit_test(bundles_count_the_processes_not_recorded),
        cmocka_unit_test(malformed_unrecorded_refuses_the_bundle),
        cmocka_unit_test(broken_json_names_line_and_column),
        cmocka_unit_test(many_profiles_merge_as_they_come),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
