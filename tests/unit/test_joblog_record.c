/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of joblog's records: dependency parsing, and that the JSON written for a job and a
 * step has exactly the fields, types and nullability that common/record_format.h defines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "joblog.h"
#include "record_format.h"

/* every field of the table present with its type (or null where allowed; an optional one may
 * be absent), no other key */
static void assert_matches_table(json_t *o, const struct js_record_field *table)
{
    size_t n = 0;
    for (const struct js_record_field *f = table; f->name; f++, n++) {
        json_t *v = json_object_get(o, f->name);
        if (v == NULL && f->nullable == JS_FIELD_OPTIONAL) {
            n--;
            continue;
        }
        if (v == NULL)
            fail_msg("field %s missing", f->name);
        if (json_is_null(v)) {
            if (!f->nullable)
                fail_msg("field %s is null but may not be", f->name);
            continue;
        }
        int ok = 0;
        switch (f->type) {
        case JS_FIELD_STRING: ok = json_is_string(v); break;
        case JS_FIELD_INTEGER: ok = json_is_integer(v); break;
        case JS_FIELD_BOOLEAN: ok = json_is_boolean(v); break;
        case JS_FIELD_ARRAY: ok = json_is_array(v); break;
        case JS_FIELD_OBJECT: ok = json_is_object(v); break;
        }
        if (!ok)
            fail_msg("field %s has the wrong JSON type", f->name);
    }
    assert_int_equal(json_object_size(o), n);
}

static void dependency_and_list_gives_one_element_per_job(void **state)
{
    (void)state;
    struct joblog_deps d;
    assert_int_equal(joblog_parse_dependency("afterok:12:13,afterany:14_2,after:5+10", &d), 0);
    assert_int_equal(d.n, 4);
    assert_int_equal(d.any, 0);
    assert_int_equal(d.parse_error, 0);
    assert_string_equal(d.v[0].type, "afterok");
    assert_int_equal(d.v[0].job_id, 12);
    assert_true(d.v[0].array_task_id == JOBLOG_NULL);
    assert_string_equal(d.v[1].type, "afterok");
    assert_int_equal(d.v[1].job_id, 13);
    assert_string_equal(d.v[2].type, "afterany");
    assert_int_equal(d.v[2].job_id, 14);
    assert_int_equal(d.v[2].array_task_id, 2);
    assert_string_equal(d.v[3].type, "after");
    assert_int_equal(d.v[3].job_id, 5);
    assert_int_equal(d.v[3].delay_minutes, 10);
    joblog_deps_free(&d);
}

static void dependency_question_mark_means_any_and_scontrol_suffixes_are_dropped(void **state)
{
    (void)state;
    struct joblog_deps d;
    assert_int_equal(joblog_parse_dependency("afterok:7(unfulfilled)?afternotok:8_*?singleton", &d), 0);
    assert_int_equal(d.n, 3);
    assert_int_equal(d.any, 1);
    assert_int_equal(d.parse_error, 0);
    assert_int_equal(d.v[0].job_id, 7);
    assert_string_equal(d.v[1].type, "afternotok");
    assert_int_equal(d.v[1].job_id, 8);
    assert_true(d.v[1].array_task_id == JOBLOG_NULL);
    assert_string_equal(d.v[2].type, "singleton");
    assert_true(d.v[2].job_id == JOBLOG_NULL);
    joblog_deps_free(&d);
}

static void dependency_junk_is_flagged_and_left_out(void **state)
{
    (void)state;
    struct joblog_deps d;
    assert_int_equal(joblog_parse_dependency("afterok:12,bogus:3,afterok:x,afterany:", &d), 0);
    assert_int_equal(d.n, 1);
    assert_int_equal(d.v[0].job_id, 12);
    assert_int_equal(d.parse_error, 1);
    joblog_deps_free(&d);
    assert_int_equal(joblog_parse_dependency("afterok:1,afterok:2?afterok:3", &d), 0);
    assert_int_equal(d.parse_error, 1); /* Slurm never mixes , and ? */
    joblog_deps_free(&d);
    assert_int_equal(joblog_parse_dependency(NULL, &d), 0);
    assert_int_equal(d.n, 0);
    assert_int_equal(joblog_parse_dependency("(null)", &d), 0);
    assert_int_equal(d.n, 0);
    assert_int_equal(d.parse_error, 0);
}

static void job_record_has_exactly_the_documented_fields(void **state)
{
    (void)state;
    struct joblog_job job;
    joblog_job_init(&job);
    job.job_id = 42;
    job.uid = 1001;
    job.gid = 1001;
    joblog_set_string(&job.name, "analyze", NULL);
    joblog_set_string(&job.dependency, "afterok:40:41", NULL);
    joblog_set_string(&job.workflow, "wf", NULL);
    job.submit_ns = 1795219200LL * 1000000000LL;
    json_t *o = joblog_job_to_json(&job, 1795219201LL * 1000000000LL);
    assert_non_null(o);
    assert_matches_table(o, js_job_record_fields);
    assert_string_equal(json_string_value(json_object_get(o, "format")), "jobscreen-job");
    assert_int_equal(json_integer_value(json_object_get(o, "version")), 1);
    assert_int_equal(json_integer_value(json_object_get(o, "submit_ns")), 1795219200000000000LL);
    assert_string_equal(json_string_value(json_object_get(o, "state")), "RUNNING");
    json_t *deps = json_object_get(o, "dependencies");
    assert_int_equal(json_array_size(deps), 2);
    for (size_t i = 0; i < 2; i++)
        assert_matches_table(json_array_get(deps, i), js_dependency_fields);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(deps, 1), "job_id")), 41);
    assert_true(json_is_null(json_object_get(o, "array_job_id")));
    json_decref(o);
    joblog_job_free(&job);
}

/* "reason" is optional: only when Slurm gave one, and then a string */
static void job_record_reason_only_when_slurm_gave_one(void **state)
{
    (void)state;
    struct joblog_job job;
    joblog_job_init(&job);
    job.job_id = 7;
    job.uid = job.gid = 1001;
    json_t *o = joblog_job_to_json(&job, 1);
    assert_non_null(o);
    assert_null(json_object_get(o, "reason"));
    json_decref(o);
    joblog_set_string(&job.reason, "DependencyNeverSatisfied", NULL);
    o = joblog_job_to_json(&job, 1);
    assert_string_equal(json_string_value(json_object_get(o, "reason")), "DependencyNeverSatisfied");
    json_decref(o);
    joblog_job_free(&job);
}

static void step_record_has_exactly_the_documented_fields_and_worst_status(void **state)
{
    (void)state;
    struct joblog_step s;
    joblog_step_init(&s);
    char *argv[] = { strdup("./sim"), strdup("--n"), strdup("4"), NULL };
    s.argv = calloc(4, sizeof *s.argv);
    memcpy(s.argv, argv, sizeof argv);
    struct joblog_task tasks[3] = {
        { 0, 100, 0 },
        { 1, 101, 3 << 8 },   /* exit 3 */
        { 2, 102, 1 << 8 },   /* exit 1 */
    };
    s.job_id = 7;
    s.step_id = 0;
    s.uid = s.gid = 1001;
    s.start_ns = 1000;
    s.end_ns = 3500;
    s.task_list = tasks;
    s.ntasks = 3;
    s.profiled = 1;
    joblog_set_string(&s.node, "localhost", NULL);
    joblog_set_string(&s.profiler, "/usr/lib/p.so", NULL);
    json_t *o = joblog_step_to_json(&s, 4000);
    assert_non_null(o);
    assert_matches_table(o, js_step_record_fields);
    json_t *tl = json_object_get(o, "task_list");
    assert_int_equal(json_array_size(tl), 3);
    for (size_t i = 0; i < 3; i++)
        assert_matches_table(json_array_get(tl, i), js_task_fields);
    assert_int_equal(json_integer_value(json_object_get(o, "exit_code")), 3);
    assert_string_equal(json_string_value(json_object_get(o, "state")), "FAILED");
    assert_int_equal(json_integer_value(json_object_get(o, "elapsed_ns")), 2500);
    assert_string_equal(json_string_value(json_object_get(o, "executable")), "./sim");
    assert_string_equal(json_string_value(json_object_get(o, "step")), "0");
    assert_string_equal(json_string_value(json_object_get(o, "profiler")), "/usr/lib/p.so");
    json_decref(o);

    tasks[1].status = 9; /* killed by SIGKILL */
    tasks[2].status = 0;
    o = joblog_step_to_json(&s, 4000);
    assert_string_equal(json_string_value(json_object_get(o, "state")), "CANCELLED");
    assert_int_equal(json_integer_value(json_object_get(o, "signal")), 9);
    assert_int_equal(json_integer_value(json_object_get(o, "exit_code")), 0);
    json_decref(o);

    s.ntasks = 1;
    tasks[0].status = JOBLOG_NULL; /* never ran */
    o = joblog_step_to_json(&s, 4000);
    assert_string_equal(json_string_value(json_object_get(o, "state")), "FAILED");
    assert_true(json_is_null(json_object_get(o, "exit_code")));
    json_decref(o);
    s.task_list = NULL;
    joblog_step_free(&s);
}

static void long_strings_are_cut_and_marked(void **state)
{
    (void)state;
    char *big = malloc(JS_RECORD_MAX_STRING + 100);
    memset(big, 'x', JS_RECORD_MAX_STRING + 99);
    big[JS_RECORD_MAX_STRING + 99] = '\0';
    char *field = NULL;
    int truncated = 0;
    assert_int_equal(joblog_set_string(&field, big, &truncated), 0);
    assert_int_equal(strlen(field), JS_RECORD_MAX_STRING);
    assert_int_equal(truncated, 1);
    free(field);
    free(big);
}

static void step_names_and_file_names(void **state)
{
    (void)state;
    char buf[64];
    uint32_t id;
    assert_string_equal(js_step_name(JS_STEP_ID_BATCH, buf, sizeof buf), "batch");
    assert_string_equal(js_step_name(JS_STEP_ID_EXTERN, buf, sizeof buf), "extern");
    assert_string_equal(js_step_name(JS_STEP_ID_INTERACTIVE, buf, sizeof buf), "interactive");
    assert_string_equal(js_step_name(12, buf, sizeof buf), "12");
    assert_int_equal(js_step_parse("batch", &id), 0);
    assert_int_equal(id, JS_STEP_ID_BATCH);
    assert_int_equal(js_step_parse("12", &id), 0);
    assert_int_equal(id, 12);
    assert_int_equal(js_step_parse("012", &id), -1);
    assert_int_equal(js_step_parse("4294967291", &id), -1);
    assert_int_equal(js_step_parse("x", &id), -1);
    assert_int_equal(js_step_record_name(buf, sizeof buf, 3, "node7"), 17);
    assert_string_equal(buf, "step.3.node7.json");
    assert_int_equal(js_step_record_name(buf, sizeof buf, 3, "../x"), -1);
    assert_int_equal(js_step_record_name(buf, sizeof buf, 3, ".hidden"), -1);
    assert_int_equal(js_job_dir_name(buf, sizeof buf, 99), 6);
    assert_string_equal(buf, "job.99");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dependency_and_list_gives_one_element_per_job),
        cmocka_unit_test(dependency_question_mark_means_any_and_scontrol_suffixes_are_dropped),
        cmocka_unit_test(dependency_junk_is_flagged_and_left_out),
        cmocka_unit_test(job_record_has_exactly_the_documented_fields),
        cmocka_unit_test(job_record_reason_only_when_slurm_gave_one),
        cmocka_unit_test(step_record_has_exactly_the_documented_fields_and_worst_status),
        cmocka_unit_test(long_strings_are_cut_and_marked),
        cmocka_unit_test(step_names_and_file_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
