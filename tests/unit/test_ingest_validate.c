/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of profile_ingest's validation and aggregation (profile_ingest/validate.c), fed
 * with the files of the data-driven suite tests/ingest-suites (placeholders filled in). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "validate.h"
#include "ingest_suite.h"


static void step_record_names_parse_into_step_and_node(void **state)
{
    (void)state;
    char step[JS_STEP_NAME_MAX], node[256];
    assert_int_equal(pi_parse_step_record_name("step.0.node1.json", step, sizeof step, node, sizeof node), 0);
    assert_string_equal(step, "0");
    assert_string_equal(node, "node1");
    assert_int_equal(pi_parse_step_record_name("step.batch.n1.ib.json", step, sizeof step, node, sizeof node), 0);
    assert_string_equal(step, "batch");
    assert_string_equal(node, "n1.ib");
    assert_int_equal(pi_parse_step_record_name("step.x.node1.json", step, sizeof step, node, sizeof node), -1);
    assert_int_equal(pi_parse_step_record_name("step.0..json", step, sizeof step, node, sizeof node), -1);
    assert_int_equal(pi_parse_step_record_name("step.0.node1.json.tmp", step, sizeof step, node, sizeof node), -1);
    assert_int_equal(pi_parse_step_record_name("job.json", step, sizeof step, node, sizeof node), -1);
    assert_int_equal(pi_parse_step_record_name("step.01.node1.json", step, sizeof step, node, sizeof node), -1);
}

static void profile_names_match_only_their_step_and_node(void **state)
{
    (void)state;
    assert_true(pi_profile_name_matches("0.node1.1234.json", "0", "node1"));
    assert_true(pi_profile_name_matches("0.node1.1234-1.json", "0", "node1"));
    assert_true(pi_profile_name_matches("batch.node1.77.json", "batch", "node1"));
    assert_false(pi_profile_name_matches("0.node1.12.34.json", "0", "node1"));
    assert_false(pi_profile_name_matches(".0.node1.1234.json.tmp", "0", "node1"));
    assert_false(pi_profile_name_matches("0.node10.1234.json", "0", "node1"));
    assert_false(pi_profile_name_matches("10.node1.1234.json", "0", "node1"));
    assert_false(pi_profile_name_matches("0.node1..json", "0", "node1"));
}

static void records_are_checked_against_the_format_tables(void **state)
{
    (void)state;
    char reason[PI_REASON_MAX];
    json_t *job = suite_json("valid/one-step-one-profile/spool/job.100/job.json");
    json_t *rec = suite_json("valid/one-step-one-profile/spool/job.100/step.0.node1.json");
    assert_int_equal(pi_record_check(job, 0, reason, sizeof reason), PI_OK);
    assert_int_equal(pi_record_check(rec, 1, reason, sizeof reason), PI_OK);
    /* a job record is not a step record */
    assert_int_equal(pi_record_check(job, 1, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "not a jobscreen step record: \"format\" is not \"jobscreen-step\"");
    json_object_set_new(rec, "version", json_integer(7));
    assert_int_equal(pi_record_check(rec, 1, reason, sizeof reason), PI_UNKNOWN_VERSION);
    assert_string_equal(reason, "unknown step record format version 7 (this profile_ingest reads version 1)");
    json_object_set_new(rec, "version", json_integer(1));
    json_object_set_new(rec, "start_ns", json_null());
    assert_int_equal(pi_record_check(rec, 1, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "field \"start_ns\" is null");
    json_object_set_new(job, "dependencies", json_pack("[{s:s}]", "type", "afterok"));
    assert_int_equal(pi_record_check(job, 0, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "dependencies[0]: field \"job_id\" is missing");
    json_decref(job);
    json_decref(rec);
}

/* the suite's step 0 of job 101 on node1, no profile added yet */
static void step_101(struct pi_step *st)
{
    pi_step_init(st, suite_json("valid/processes-merge-per-slice/spool/job.101/job.json"),
                 suite_json("valid/processes-merge-per-slice/spool/job.101/step.0.node1.json"), "default");
}

static void profiles_merge_per_slice_file_and_image(void **state)
{
    (void)state;
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    char reason[PI_REASON_MAX];
    step_101(&st);
    assert_string_equal(st.cluster, "suite");
    const char *names[] = { "0.node1.1000.json", "0.node1.1000-1.json", "0.node1.1001.json" };
    for (int i = 0; i < 3; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "valid/processes-merge-per-slice/spool/job.101/profiles/%s", names[i]);
        json_t *p = suite_json(rel);
        assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
        json_decref(p);
    }
    pi_step_finish(&st);
    assert_int_equal(st.nprocs, 3);
    assert_int_equal(st.procs[0].pid, 1000);
    assert_int_equal(st.procs[0].image, 0);
    assert_int_equal(st.procs[1].pid, 1000);
    assert_int_equal(st.procs[1].image, 1);
    assert_int_equal(st.procs[2].image, 0);
    /* before format 8 the syncs were metadata calls: their own count unknown */
    assert_int_equal(st.procs[0].sync_calls, -1);
    assert_int_equal(st.procs[0].sync_ns, -1);
    assert_int_equal(st.procs[0].code_dropped, 0);
    assert_int_equal(st.nslices, 3);
    assert_int_equal(st.slices[0].slice, 448804800);
    assert_int_equal(st.slices[0].processes, 2);
    assert_int_equal(st.slices[0].m[JS_M_POSIX_WRITE_BYTES], 10);
    assert_int_equal(st.slices[0].m[JS_M_POSIX_READ_BYTES], 1);
    assert_int_equal(st.slices[1].m[JS_M_POSIX_WRITE_BYTES], 20);
    assert_int_equal(st.slices[2].processes, 1);
    assert_int_equal(st.nfiles, 1);
    assert_int_equal(st.files[0].processes, 3);
    assert_int_equal(st.files[0].bytes_written, 35);
    assert_int_equal(st.files[0].bytes_read, 10);
    assert_int_equal(st.files[0].layers, PI_LAYER_POSIX | PI_LAYER_STDIO);
    /* a profile of another node is refused and adds nothing */
    json_t *p = suite_json("valid/processes-merge-per-slice/spool/job.101/profiles/0.node1.1001.json");
    json_object_set_new(p, "node", json_string("node2"));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "profile is of job 101 step 0 node node2, not of this step record's job 101 step 0 node node1");
    json_object_set_new(p, "node", json_string("node1"));
    json_object_set_new(p, "version", json_integer(10));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_UNKNOWN_VERSION);
    assert_string_equal(reason, "unknown profile format version 10 (this profile_ingest reads versions 1 to 9)");
    json_object_set_new(p, "version", json_integer(0));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_UNKNOWN_VERSION);
    assert_string_equal(reason, "unknown profile format version 0 (this profile_ingest reads versions 1 to 9)");
    json_decref(p);
    assert_int_equal(st.nprocs, 3);
    /* the older profiles say nothing of idle time, MPI setup or the kernel's counts */
    assert_int_equal(st.procs[0].idle_ns, -1);
    assert_int_equal(st.procs[0].kio[JS_KIO_RCHAR], -1);
    pi_step_free(&st);
    pi_conf_free(&conf);
}

/* Format 4 brings kernel_io, runtime's mpi_setup_ns and idle_ns and the files' mapped_bytes:
 * required of a version-4 profile, read into the process and its files. */
static void version_4_profiles_carry_kernel_counts_and_idle_time(void **state)
{
    (void)state;
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    char reason[PI_REASON_MAX];
    step_101(&st);
    json_t *p = suite_json("valid/processes-merge-per-slice/spool/job.101/profiles/0.node1.1001.json");
    /* a version-1 profile with what versions 2 and 3 added */
    json_object_set_new(p, "version", json_integer(4));
    json_object_set_new(p, "exit_code", json_integer(0));
    json_object_set_new(p, "signal", json_integer(0));
    json_object_set_new(p, "missing", json_string(""));
    json_object_set_new(p, "trees", json_array());
    json_object_set_new(p, "renames", json_array());
    json_object_set_new(p, "renames_dropped", json_integer(0));
    json_t *files = json_object_get(p, "files");
    for (size_t i = 0; i < json_array_size(files); i++)
        json_object_set_new(json_array_get(files, i), "opened_as", json_string(""));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "field \"kernel_io\" is missing");
    json_object_set_new(p, "kernel_io", json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "rchar", 5000, "wchar", 40, "syscr", 3,
                                                  "syscw", 2, "read_bytes", 4096, "write_bytes", 0));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "runtime: field \"mpi_setup_ns\" is missing or not a non-negative integer");
    json_t *rt = json_object_get(p, "runtime");
    json_object_set_new(rt, "mpi_setup_ns", json_integer(7));
    json_object_set_new(rt, "cpu_wait_ns", json_integer(30));
    json_object_set_new(rt, "idle_ns", json_integer(900));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "files[0]: field \"mapped_bytes\" is missing or not a non-negative integer");
    for (size_t i = 0; i < json_array_size(files); i++)
        json_object_set_new(json_array_get(files, i), "mapped_bytes", json_integer(8192));
    json_object_set_new(json_object_get(p, "kernel_io"), "syscw", json_integer(-2));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "kernel_io: field \"syscw\" is missing or not a non-negative integer");
    json_object_set_new(json_object_get(p, "kernel_io"), "syscw", json_integer(2));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    /* killed before the profiler first read them: an empty kernel_io, unknown */
    json_object_set_new(p, "pid", json_integer(1002));
    json_object_set_new(p, "kernel_io", json_object());
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    json_decref(p);
    pi_step_finish(&st);
    assert_int_equal(st.nprocs, 2);
    assert_int_equal(st.procs[1].kio[JS_KIO_RCHAR], -1);
    assert_int_equal(st.procs[1].kio[JS_KIO_WRITE_BYTES], -1);
    assert_int_equal(st.procs[0].idle_ns, 900);
    assert_int_equal(st.procs[0].mpi_setup_ns, 7);
    assert_int_equal(st.procs[0].cpu_wait_ns, 30);
    assert_int_equal(st.procs[0].kio[JS_KIO_RCHAR], 5000);
    assert_int_equal(st.procs[0].kio[JS_KIO_READ_BYTES], 4096);
    assert_int_equal(st.files[0].mapped_bytes, 2 * 8192);
    pi_step_free(&st);
    pi_conf_free(&conf);
}

/* Format 5: a slice row ends with the kernel's counts; they are summed per slice over the
 * processes whose kernel_io is known, and bounded like the metrics. */
static void version_5_slices_carry_the_kernel_counts(void **state)
{
    (void)state;
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    char reason[PI_REASON_MAX];
    step_101(&st);
    json_t *p = suite_json("valid/processes-merge-per-slice/spool/job.101/profiles/0.node1.1001.json");
    /* a version-1 profile with what versions 2 to 4 added */
    json_object_set_new(p, "exit_code", json_integer(0));
    json_object_set_new(p, "signal", json_integer(0));
    json_object_set_new(p, "missing", json_string(""));
    json_object_set_new(p, "trees", json_array());
    json_object_set_new(p, "renames", json_array());
    json_object_set_new(p, "renames_dropped", json_integer(0));
    json_t *files = json_object_get(p, "files");
    for (size_t i = 0; i < json_array_size(files); i++) {
        json_object_set_new(json_array_get(files, i), "opened_as", json_string(""));
        json_object_set_new(json_array_get(files, i), "mapped_bytes", json_integer(0));
    }
    json_object_set_new(p, "kernel_io", json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "rchar", 5000, "wchar", 40, "syscr", 3,
                                                  "syscw", 2, "read_bytes", 4096, "write_bytes", 0));
    json_t *rt = json_object_get(p, "runtime");
    json_object_set_new(rt, "mpi_setup_ns", json_integer(0));
    json_object_set_new(rt, "cpu_wait_ns", json_integer(0));
    json_object_set_new(rt, "idle_ns", json_integer(0));
    json_object_set_new(p, "version", json_integer(5));
    /* rows of format 4 in a format-5 profile */
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "slice_metrics has 32 names, version 5 has 38");
    json_t *names = json_object_get(p, "slice_metrics");
    for (int k = JS_M_COUNT; k < JS_SLICE_COLS; k++)
        json_array_append_new(names, json_string(js_profile_slice_cols[k].name));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "slices[0] is not an array of 39 integers");
    json_t *rows = json_object_get(p, "slices");
    size_t nrows = json_array_size(rows);
    assert_true(nrows > 0);
    for (size_t i = 0; i < nrows; i++)
        for (int k = 0; k < JS_KIO_COUNT; k++) /* rchar 1000 + k in every slice, the others i */
            json_array_append_new(json_array_get(rows, i), json_integer(k == JS_KIO_RCHAR ? 1000 : (json_int_t)i));
    /* 2^50 bytes in a slice: no node moves that */
    json_array_set_new(json_array_get(rows, 0), 1 + JS_M_COUNT + JS_KIO_WCHAR, json_integer((json_int_t)1 << 50));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_true(strstr(reason, "slices[0]: kernel_wchar ") == reason);
    json_array_set_new(json_array_get(rows, 0), 1 + JS_M_COUNT + JS_KIO_WCHAR, json_integer(0));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    /* another process in the same slices, its kernel's counts unknown: it adds none */
    json_object_set_new(p, "pid", json_integer(1002));
    json_object_set_new(p, "kernel_io", json_object());
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    /* and one whose counts are known */
    json_object_set_new(p, "pid", json_integer(1003));
    json_object_set_new(p, "kernel_io", json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "rchar", 5000, "wchar", 40, "syscr", 3,
                                                  "syscw", 2, "read_bytes", 4096, "write_bytes", 0));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    json_decref(p);
    pi_step_finish(&st);
    assert_int_equal(st.nprocs, 3);
    assert_int_equal((size_t)st.nslices, nrows);
    assert_int_equal(st.slices[0].processes, 3);
    assert_int_equal(st.slices[0].m[JS_M_COUNT + JS_KIO_RCHAR], 2000);
    assert_int_equal(st.slices[nrows - 1].m[JS_M_COUNT + JS_KIO_SYSCW], 2 * (int64_t)(nrows - 1));
    assert_int_equal(st.slices[0].m[JS_M_COUNT + JS_KIO_WCHAR], 0);
    pi_step_free(&st);
    pi_conf_free(&conf);
}

/* Values no node could produce are refused, the bound named: a forged 4e18 would show in every
 * user's background and wrap the totals. */
static void implausible_values_are_refused_with_the_bound(void **state)
{
    (void)state;
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    char reason[PI_REASON_MAX], err[256];
    struct pi_step st;
    step_101(&st);
    json_t *p = suite_json("valid/processes-merge-per-slice/spool/job.101/profiles/0.node1.1001.json");
    json_t *tot = json_object_get(p, "totals");
    json_object_set_new(tot, "posix_write_bytes", json_integer(9000000000000000000LL));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "totals: posix_write_bytes 9000000000000000000 is more than 6.4e+13, the most a node moves "
                                "in 16 s (node_bytes_per_second_max): not plausible");
    json_object_set_new(tot, "posix_write_bytes", json_integer(30));
    /* 2 CPU-seconds in a process of 8 s (and its slices: 16 s) on a node of at most 1 CPU: fine; 30: not */
    assert_int_equal(pi_conf_set(&conf, "node_cpus_max", "1", err, sizeof err), 0);
    json_object_set_new(p, "cpu_user_ns", json_integer(2000000000LL));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    json_object_set_new(p, "pid", json_integer(1003));
    json_object_set_new(p, "cpu_user_ns", json_integer(30000000000LL));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "cpu_user_ns 30000000000 is more than 1.6e+10, the most 1 CPUs (node_cpus_max) "
                                "use in 16 s: not plausible");
    assert_int_equal(pi_conf_set(&conf, "node_bytes_per_second_max", "12", err, sizeof err), -1);
    assert_string_equal(err, "node_bytes_per_second_max: \"12\" is not a rate from 10^6 to 10^15 bytes per second");
    json_decref(p);
    pi_step_free(&st);
    pi_conf_free(&conf);
}

/* Issue 35: the bounds scale with the process's start_ns..end_ns, not its forged wall_ns; two
 * CPU times of 2^62 do not wrap into a plausible sum; and processes each plausible alone are
 * taken only while the step-node's sums stay within one node (the budget). */
static void forged_spans_wraps_and_node_sums_are_refused(void **state)
{
    (void)state;
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    char reason[PI_REASON_MAX], err[256];
    struct pi_step st;
    step_101(&st);
    json_t *p = suite_json("valid/processes-merge-per-slice/spool/job.101/profiles/0.node1.1001.json");
    int64_t own = json_integer_value(json_object_get(p, "end_ns")) - json_integer_value(json_object_get(p, "start_ns"));
    json_object_set_new(p, "wall_ns", json_integer(9000000000000000000LL));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    char want[256];
    snprintf(want, sizeof want, "wall_ns 9000000000000000000 is more than end_ns - start_ns (%lld): not plausible", (long long)own);
    assert_string_equal(reason, want);
    json_object_set_new(p, "wall_ns", json_integer(own));
    json_object_set_new(p, "cpu_user_ns", json_integer(4611686018427387904LL));
    json_object_set_new(p, "cpu_sys_ns", json_integer(4611686018427387904LL));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_non_null(strstr(reason, "cpu_user_ns 4611686018427387904 is more than"));
    json_object_set_new(p, "cpu_user_ns", json_integer(0));
    json_object_set_new(p, "cpu_sys_ns", json_integer(0));
    /* each slice of 4 s writes 30 % of what a node of 10^6 B/s moves in it: three fit, a fourth not */
    assert_int_equal(pi_conf_set(&conf, "node_bytes_per_second_max", "1000000", err, sizeof err), 0);
    json_t *row;
    size_t i;
    int col = 1 + JS_M_POSIX_WRITE_BYTES;
    json_array_foreach(json_object_get(p, "slices"), i, row)
        json_array_set_new(row, (size_t)col, json_integer(1200000));
    json_object_set_new(json_object_get(p, "totals"), "posix_write_bytes", json_integer(0));
    for (int k = 0; k < 3; k++) {
        json_object_set_new(p, "pid", json_integer(2000 + k));
        assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    }
    json_object_set_new(p, "pid", json_integer(2003));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "slices[0]: posix_write_bytes of the step-node with this process would be 4.8e+06, more than 4e+06, "
                                "the most a node moves in 4 s (node_bytes_per_second_max): not plausible");
    pi_step_finish(&st);
    for (size_t s = 0; s < st.nslices; s++)
        assert_true(st.slices[s].m[JS_M_POSIX_WRITE_BYTES] <= 4000000);
    json_decref(p);
    pi_step_free(&st);
    pi_conf_free(&conf);
}


/* A version 3 profile of the suite's step 101: the v1 profile with what v2 and v3 added. */
static json_t *v3_profile(const char *name)
{
    char rel[256];
    snprintf(rel, sizeof rel, "valid/processes-merge-per-slice/spool/job.101/profiles/%s", name);
    json_t *p = suite_json(rel);
    json_object_set_new(p, "version", json_integer(3));
    json_object_set_new(p, "exit_code", json_integer(0));
    json_object_set_new(p, "signal", json_integer(0));
    json_object_set_new(p, "missing", json_string(""));
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(p, "files"), i, f)
        json_object_set_new(f, "opened_as", json_string(""));
    json_object_set_new(p, "trees", json_pack("[{s:s, s:i, s:i, s:i}]", "path", "/usr/lib", "opens", 3, "read_bytes", 100, "write_bytes", 0));
    json_object_set_new(p, "renames", json_array());
    json_object_set_new(p, "renames_dropped", json_integer(0));
    return p;
}

static void renames_carry_the_writer_and_trees_add_up(void **state)
{
    (void)state;
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    char reason[PI_REASON_MAX];
    step_101(&st);
    /* 1000 wrote /scratch/shared.log (30 B, until ...208 s) and renamed it; it also wrote a
     * file in dir.tmp and renamed the directory */
    json_t *p = v3_profile("0.node1.1000.json");
    json_array_append_new(json_object_get(p, "files"),
        json_pack("{s:s, s:s, s:s, s:I, s:I, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
                  "path", "/scratch/dir.tmp/part", "opened_as", "/scratch/link/part", "layer", "posix", "dev", (json_int_t)1,
                  "ino", (json_int_t)2, "mount", "/", "fstype", "ext4", "open_mode", "w", "used_mode", "w", "opens", (json_int_t)1,
                  "read_calls", (json_int_t)0, "read_bytes", (json_int_t)0, "write_calls", (json_int_t)1, "write_bytes", (json_int_t)7,
                  "lower_read_bytes", (json_int_t)0, "lower_write_bytes", (json_int_t)0,
                  "first_open_ns", (json_int_t)1795219202000000000, "last_close_ns", (json_int_t)1795219203000000000));
    json_array_append_new(json_object_get(p, "renames"),
        json_pack("{s:s, s:s, s:s, s:I}", "from", "/scratch/shared.log", "to", "/scratch/final.log", "fstype", "ext4", "ns", (json_int_t)1795219208500000000));
    json_array_append_new(json_object_get(p, "renames"),
        json_pack("{s:s, s:s, s:s, s:I}", "from", "/scratch/dir.tmp", "to", "/scratch/dir", "fstype", "ext4", "ns", (json_int_t)1795219204000000000));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    json_decref(p);
    p = v3_profile("0.node1.1001.json");
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    /* refused: a rename outside the profile's time, a relative opened_as */
    json_array_append_new(json_object_get(p, "renames"),
        json_pack("{s:s, s:s, s:s, s:I}", "from", "/a", "to", "/b", "fstype", "ext4", "ns", (json_int_t)1));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "renames[0]: ns lies outside the profile's start_ns..end_ns");
    json_array_clear(json_object_get(p, "renames"));
    json_object_set_new(json_array_get(json_object_get(p, "files"), 0), "opened_as", json_string("rel/x"));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "files[0]: opened_as is neither empty nor an absolute path");
    json_decref(p);
    pi_step_finish(&st);

    assert_int_equal(st.ntrees, 1);
    assert_string_equal(st.trees[0].path, "/usr/lib");
    assert_int_equal(st.trees[0].processes, 2);
    assert_int_equal(st.trees[0].opens, 6);
    /* sorted ('.' before '/'): dir.tmp/part, dir/part (moved with its directory), final.log,
     * shared.log; no entry of the directories themselves */
    assert_int_equal(st.nfiles, 4);
    assert_string_equal(st.files[0].path, "/scratch/dir.tmp/part");
    assert_true(st.files[0].read);
    assert_string_equal(st.files[1].path, "/scratch/dir/part");
    assert_true(st.files[1].written);
    assert_int_equal(st.files[1].bytes_written, 7);
    assert_int_equal(st.files[1].last_write, 1795219204000000000);
    assert_int_equal(st.files[1].layers, PI_LAYER_RENAME);
    assert_string_equal(st.files[2].path, "/scratch/final.log");
    assert_true(st.files[2].written);
    assert_false(st.files[2].read);
    assert_int_equal(st.files[2].bytes_written, 30); /* what the step wrote under the old name */
    assert_int_equal(st.files[2].last_write, 1795219208500000000);
    assert_false(st.files[2].shared); /* ext4: node-local unless shared_fs names it */
    assert_string_equal(st.files[3].path, "/scratch/shared.log");
    assert_true(st.files[3].read);
    assert_true(st.files[3].first_read > 0 && st.files[3].first_read <= 1795219208500000000); /* 1001 read it before */
    assert_int_equal(st.files[3].layers, PI_LAYER_POSIX | PI_LAYER_RENAME);
    pi_step_free(&st);
}

/* A file's birth time (format 9) is a third of its identity with dev and ino: kept with them
 * when the step's processes merge, refused without an inode (docs/dependencies.md) */
static void a_files_birth_time_goes_with_its_inode(void **state)
{
    (void)state;
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    char reason[PI_REASON_MAX];
    step_101(&st);
    json_t *p = v3_profile("0.node1.1000.json"); /* wrote /scratch/shared.log, dev 2049, ino 1234 */
    json_t *f = json_array_get(json_object_get(p, "files"), 0);
    json_object_set_new(f, "btime", json_integer(1795219200123456789LL));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    json_object_set_new(p, "pid", json_integer(1004));
    json_object_set_new(f, "ino", json_integer(0));
    json_object_set_new(f, "btime", json_integer(5));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    assert_string_equal(reason, "files[0]: btime 5 without an inode: not plausible");
    json_object_set_new(f, "btime", json_integer(-5));
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_INVALID);
    json_decref(p);
    p = v3_profile("0.node1.1001.json"); /* no btime: before format 9, unknown */
    assert_int_equal(pi_profile_add(&st, &conf, p, reason, sizeof reason), PI_OK);
    json_decref(p);
    pi_step_finish(&st);
    assert_int_equal(st.nfiles, 1);
    assert_string_equal(st.files[0].path, "/scratch/shared.log");
    assert_true(st.files[0].dev == 2049 && st.files[0].ino == 1234);
    assert_true(st.files[0].btime == 1795219200123456789ULL);
    pi_step_free(&st);
    pi_conf_free(&conf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(step_record_names_parse_into_step_and_node),
        cmocka_unit_test(profile_names_match_only_their_step_and_node),
        cmocka_unit_test(records_are_checked_against_the_format_tables),
        cmocka_unit_test(profiles_merge_per_slice_file_and_image),
        cmocka_unit_test(version_4_profiles_carry_kernel_counts_and_idle_time),
        cmocka_unit_test(version_5_slices_carry_the_kernel_counts),
        cmocka_unit_test(implausible_values_are_refused_with_the_bound),
        cmocka_unit_test(forged_spans_wraps_and_node_sums_are_refused),
        cmocka_unit_test(renames_carry_the_writer_and_trees_add_up),
        cmocka_unit_test(a_files_birth_time_goes_with_its_inode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
