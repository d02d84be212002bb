/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the parcel format (transport/parcel.c, docs/transport.md): what the writer
 * makes the reader takes back byte for byte; every malformed parcel is refused with its
 * reason; only the spool's names pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "parcel.h"
#include "store.h"

/* The controller's final record (no dependency, workflow or node list) after the node's: the
 * received job record keeps what the node's had captured, the newer's own values win. */
static void a_newer_job_record_keeps_what_the_held_one_captured(void **state)
{
    (void)state;
    json_t *held = json_pack("{s:s, s:s, s:[{s:s, s:i}], s:b, s:b, s:s, s:i, s:b, s:s}", "dependency", "afterany:14",
                             "workflow", "sample", "dependencies", "type", "afterany", "job_id", 14, "dependency_any", 0,
                             "dependency_parse_error", 0, "node_list", "n[1-2]", "nodes", 2, "batch", 1, "state", "RUNNING");
    const char *ctld = "{\"dependency\":null,\"dependencies\":[],\"workflow\":null,\"node_list\":null,\"nodes\":null,"
                       "\"batch\":false,\"state\":\"COMPLETED\",\"final\":true}";
    size_t n = 0;
    char *m = jt_job_record_merged(held, ctld, strlen(ctld), &n);
    assert_non_null(m);
    assert_int_equal(n, strlen(m));
    json_t *j = json_loads(m, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(j, "dependency")), "afterany:14");
    assert_int_equal(json_array_size(json_object_get(j, "dependencies")), 1);
    assert_string_equal(json_string_value(json_object_get(j, "workflow")), "sample");
    assert_string_equal(json_string_value(json_object_get(j, "node_list")), "n[1-2]");
    assert_int_equal(json_integer_value(json_object_get(j, "nodes")), 2);
    assert_true(json_is_true(json_object_get(j, "batch")));
    assert_string_equal(json_string_value(json_object_get(j, "state")), "COMPLETED"); /* the newer's own */
    json_decref(j);
    free(m);
    /* nothing to add, or not a record: stored as it came */
    const char *same = "{\"dependency\":\"afterok:1\",\"workflow\":\"w\",\"node_list\":\"n1\",\"nodes\":1,\"batch\":true}";
    json_t *bare = json_pack("{s:s}", "dependency", "afterany:14");
    assert_null(jt_job_record_merged(bare, same, strlen(same), &n));
    assert_null(jt_job_record_merged(held, "not json", 8, &n));
    json_decref(bare);
    json_decref(held);
}

static void round_trip_gives_back_every_file_byte_for_byte(void **state)
{
    (void)state;
    struct jt_buf b = { 0 };
    const char bin[] = { 'a', '\n', '\0', 'e', 'n', 'd', '\n' }; /* newlines, NUL, "end" inside */
    assert_int_equal(jt_parcel_begin(&b, 4294967295U), 0);
    assert_int_equal(jt_parcel_add(&b, "job.json", "{\"final\":true}", 14), 0);
    assert_int_equal(jt_parcel_add(&b, "profiles/0.n1.b1.json", bin, sizeof bin), 0);
    assert_int_equal(jt_parcel_add(&b, "profiles/0.n1.b12.json", "", 0), 0);
    assert_int_equal(jt_parcel_add(&b, "profiles/.live.0.n1.json", "x", 1), 0);
    assert_int_equal(jt_parcel_add(&b, "step.0.n1.json", "{}", 2), 0);
    assert_int_equal(jt_parcel_end(&b), 0);
    struct jt_parcel p;
    char reason[JT_REASON_MAX] = "";
    assert_int_equal(jt_parcel_parse(b.data, b.len, &p, reason, sizeof reason), 0);
    assert_int_equal(p.job_id, 4294967295U);
    assert_int_equal(p.nfiles, 5);
    assert_string_equal(p.files[1].name, "profiles/0.n1.b1.json");
    assert_int_equal(p.files[1].n.kind, JT_BUNDLE);
    assert_int_equal(p.files[1].n.bundle, 1);
    assert_int_equal(p.files[1].len, sizeof bin);
    assert_memory_equal(p.files[1].data, bin, sizeof bin);
    assert_int_equal(p.files[2].len, 0);
    assert_int_equal(p.files[3].n.kind, JT_LIVE);
    assert_int_equal(p.files[4].n.kind, JT_STEP_RECORD);
    assert_string_equal(p.files[4].n.step, "0");
    assert_string_equal(p.files[4].n.node, "n1");
    jt_parcel_free(&p);
    jt_buf_free(&b);
}

static void entry_size_is_what_add_adds(void **state)
{
    (void)state;
    struct jt_buf b = { 0 };
    jt_parcel_begin(&b, 7);
    size_t before = b.len;
    jt_parcel_add(&b, "profiles/batch.n2.b3.json", "0123456789", 10);
    assert_int_equal(b.len - before, jt_parcel_entry_size("profiles/batch.n2.b3.json", 10));
    jt_buf_free(&b);
}

static void names_of_the_spool_pass(void **state)
{
    (void)state;
    const char *good[] = { "job.json", "step.0.n1.json", "step.batch.node-7.json", "step.extern.a_b.json",
                           "step.7.x.y.json", "profiles/12.n1.b0.json", "profiles/interactive.n1.b99.json",
                           "profiles/.live.3.n4.json", NULL };
    struct jt_name n;
    char reason[JT_REASON_MAX];
    for (const char **g = good; *g; g++) {
        if (jt_name_parse(*g, &n, reason, sizeof reason) != 0)
            fail_msg("%s refused: %s", *g, reason);
    }
}

static void other_names_are_refused_with_the_rule_they_break(void **state)
{
    (void)state;
    static const struct {
        const char *name, *reason;
    } bad[] = {
        { "", "empty name" },
        { "../job.json", "holds \"..\"" },
        { "profiles/../step.0.n1.json", "holds \"..\"" },
        { "step.0.n1..json", "holds \"..\"" },
        { "/etc/passwd", "has a '/' other than that of profiles/" },
        { "profiles/sub/0.n1.b1.json", "has a '/' other than that of profiles/" },
        { "x/job.json", "has a '/' other than that of profiles/" },
        { ".job.json", "starts with '.'" },
        { "profiles/.0.n1.b1.json.sent", "starts with '.' but not with .live." },
        { ".relay.0.n1", "starts with '.'" },
        { "step.x.n1.json", "is not job.json, step.<step>.<node>.json" },
        { "step.0..json", "holds \"..\"" },
        { "step.0.n1.txt", "is not job.json" },
        { "step.0.n 1.json", "is not job.json" },
        { "job.json.tmp", "is not job.json" },
        { "profiles/0.n1.json", "is neither profiles/<step>.<node>.b<N>.json" },
        { "profiles/0.n1.b01.json", "is neither" },
        { "profiles/0.n1.bx.json", "is neither" },
        { "profiles/0.n1.b1.json.tmp", "is neither" },
        { "profiles/.live.0.json", "is neither" },
        { "profiles/", "is neither" },
        { NULL, NULL },
    };
    struct jt_name n;
    char reason[JT_REASON_MAX];
    for (int i = 0; bad[i].name; i++) {
        reason[0] = '\0';
        if (jt_name_parse(bad[i].name, &n, reason, sizeof reason) != -1)
            fail_msg("\"%s\" accepted", bad[i].name);
        if (!strstr(reason, bad[i].reason))
            fail_msg("\"%s\": reason \"%s\" lacks \"%s\"", bad[i].name, reason, bad[i].reason);
    }
    char longname[JT_NAME_MAX + 10];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(jt_name_parse(longname, &n, reason, sizeof reason), -1);
    assert_non_null(strstr(reason, "name longer than"));
}

static void writer_refuses_what_the_reader_would(void **state)
{
    (void)state;
    struct jt_buf b = { 0 };
    assert_int_equal(jt_parcel_begin(&b, 0), -1);
    jt_parcel_begin(&b, 5);
    assert_int_equal(jt_parcel_add(&b, "../x", "", 0), -1);
    assert_int_equal(jt_parcel_add(&b, "job.json", "", 5 * 1024 * 1024), -1); /* records are at most 4 MiB */
    jt_buf_free(&b);
}

/* Each case: a body and the reason it must be refused with. */
static void malformed_parcels_are_refused_with_their_reason(void **state)
{
    (void)state;
    static const struct {
        const char *what, *body, *reason;
    } cases[] = {
        { "empty body", "", "no header line" },
        { "foreign magic", "jobscreen-parcel-x 1 job.5\nend\n", "header is not" },
        { "unknown version", "jobscreen-parcel 2 job.5\nend\n", "parcel version 2 (this reader knows version 1)" },
        { "job id 0", "jobscreen-parcel 1 job.0\nend\n", "is not job.<id>" },
        { "job id too large", "jobscreen-parcel 1 job.4294967296\nend\n", "is not job.<id>" },
        { "job id with leading zero", "jobscreen-parcel 1 job.05\nend\n", "is not job.<id>" },
        { "header with extra words", "jobscreen-parcel 1 job.5 x\nend\n", "header is not" },
        { "header with two blanks", "jobscreen-parcel  1 job.5\nend\n", "is not job.<id>" },
        { "no file", "jobscreen-parcel 1 job.5\nend\n", "no file in the parcel" },
        { "no end", "jobscreen-parcel 1 job.5\njob.json 2\n{}", "entry 2 (byte 38): no complete header line" },
        { "bytes after end", "jobscreen-parcel 1 job.5\njob.json 2\n{}end\nx", "1 bytes after \"end\"" },
        { "truncated file", "jobscreen-parcel 1 job.5\njob.json 20\n{}end\n", "20 bytes announced, 6 left (truncated)" },
        { "size not a number", "jobscreen-parcel 1 job.5\njob.json 2x\n{}end\n", "size \"2x\" is not a number" },
        { "negative size", "jobscreen-parcel 1 job.5\njob.json -2\n{}end\n", "size \"-2\" is not a number" },
        { "size with leading zero", "jobscreen-parcel 1 job.5\njob.json 02\n{}end\n", "size \"02\"" },
        { "record over 4 MiB", "jobscreen-parcel 1 job.5\njob.json 4194305\n", "up to 4194304" },
        { "no size", "jobscreen-parcel 1 job.5\njob.json\n{}end\n", "is not \"<name> <size>\"" },
        { "bad name", "jobscreen-parcel 1 job.5\n../job.json 2\n{}end\n", "entry 1: name \"../job.json\" holds \"..\"" },
        { "a ledger", "jobscreen-parcel 1 job.5\n.spool.n1 0\nend\n", "starts with '.'" },
        { "twice the same", "jobscreen-parcel 1 job.5\njob.json 2\n{}job.json 2\n{}end\n", "job.json appears twice" },
        { "two step-nodes", "jobscreen-parcel 1 job.5\nstep.0.n1.json 2\n{}profiles/0.n2.b1.json 0\nend\n",
          "is of step 0 on node n2, the parcel's earlier files of step 0 on node n1" },
        { "two steps", "jobscreen-parcel 1 job.5\nprofiles/1.n1.b1.json 0\nstep.0.n1.json 2\n{}end\n",
          "is of step 0 on node n1, the parcel's earlier files of step 1 on node n1" },
        { "NUL in a header", "jobscreen-parcel 1 job.5\njob.js\0n 2\n{}end\n", "no complete header line" },
        { NULL, NULL, NULL },
    };
    for (int i = 0; cases[i].what; i++) {
        /* bodies with a NUL: measure to the last "\n" written */
        size_t len = strlen(cases[i].body);
        if (!strcmp(cases[i].what, "NUL in a header"))
            len = sizeof "jobscreen-parcel 1 job.5\njob.js\0n 2\n{}end\n" - 1;
        struct jt_parcel p;
        char reason[JT_REASON_MAX] = "";
        if (jt_parcel_parse(cases[i].body, len, &p, reason, sizeof reason) != -1)
            fail_msg("%s: accepted", cases[i].what);
        if (!strstr(reason, cases[i].reason))
            fail_msg("%s: reason \"%s\" lacks \"%s\"", cases[i].what, reason, cases[i].reason);
        assert_null(p.files);
    }
}

static void too_many_files_are_refused(void **state)
{
    (void)state;
    struct jt_buf b = { 0 };
    char name[64];
    jt_parcel_begin(&b, 9);
    for (int i = 0; i <= JT_PARCEL_MAX_FILES; i++) {
        snprintf(name, sizeof name, "profiles/0.n1.b%d.json", i);
        jt_parcel_add(&b, name, "", 0);
    }
    jt_parcel_end(&b);
    struct jt_parcel p;
    char reason[JT_REASON_MAX] = "";
    assert_int_equal(jt_parcel_parse(b.data, b.len, &p, reason, sizeof reason), -1);
    assert_string_equal(reason, "more than 4096 files");
    jt_buf_free(&b);
}

/* A post of several parcels back to back: each parsed; a bad one named by its number. */
static void posts_of_several_parcels_are_parsed_parcel_by_parcel(void **state)
{
    (void)state;
    struct jt_buf a = { 0 }, b = { 0 };
    char reason[JT_REASON_MAX], *post;
    assert_int_equal(jt_parcel_begin(&a, 7), 0);
    assert_int_equal(jt_parcel_add(&a, "step.0.n1.json", "{}", 2), 0);
    assert_int_equal(jt_parcel_add(&a, "job.json", "{\"j\":1}", 7), 0);
    assert_int_equal(jt_parcel_end(&a), 0);
    assert_int_equal(jt_parcel_begin(&b, 8), 0);
    assert_int_equal(jt_parcel_add(&b, "profiles/1.n2.b3.json", "xyz", 3), 0);
    assert_int_equal(jt_parcel_end(&b), 0);
    size_t len = a.len + b.len;
    post = malloc(len + 8);
    memcpy(post, a.data, a.len);
    memcpy(post + a.len, b.data, b.len);
    struct jt_post pp;
    assert_int_equal(jt_post_parse(post, len, &pp, reason, sizeof reason), 0);
    assert_int_equal(pp.n, 2);
    assert_int_equal(pp.nfiles, 3);
    assert_int_equal(pp.parcels[0].job_id, 7);
    assert_int_equal(pp.parcels[1].job_id, 8);
    assert_string_equal(pp.parcels[1].files[0].name, "profiles/1.n2.b3.json");
    jt_post_free(&pp);
    /* one parcel alone: the reasons of before */
    assert_int_equal(jt_post_parse(a.data, a.len - 1, &pp, reason, sizeof reason), -1);
    assert_null(strstr(reason, "parcel 1"));
    /* the second one cut: named */
    assert_int_equal(jt_post_parse(post, len - 1, &pp, reason, sizeof reason), -1);
    assert_non_null(strstr(reason, "parcel 2 (byte "));
    /* garbage after the last */
    memcpy(post + len, "x\n", 2);
    assert_int_equal(jt_post_parse(post, len + 2, &pp, reason, sizeof reason), -1);
    assert_non_null(strstr(reason, "parcel 3"));
    /* nothing at all */
    assert_int_equal(jt_post_parse(post, 0, &pp, reason, sizeof reason), -1);
    free(post);
    jt_buf_free(&a);
    jt_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_newer_job_record_keeps_what_the_held_one_captured),
        cmocka_unit_test(round_trip_gives_back_every_file_byte_for_byte),
        cmocka_unit_test(entry_size_is_what_add_adds),
        cmocka_unit_test(names_of_the_spool_pass),
        cmocka_unit_test(other_names_are_refused_with_the_rule_they_break),
        cmocka_unit_test(writer_refuses_what_the_reader_would),
        cmocka_unit_test(malformed_parcels_are_refused_with_their_reason),
        cmocka_unit_test(too_many_files_are_refused),
        cmocka_unit_test(posts_of_several_parcels_are_parsed_parcel_by_parcel),
    };
    return cmocka_run_group_tests_name("transport parcel", tests, NULL, NULL);
}
