/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the profile format tables (common/profile_format.c), which writer and reader share. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "profile_format.h"

static void metric_table_follows_the_enum(void **state)
{
    (void)state;
    assert_int_equal(JS_M_COUNT, 32);
    assert_string_equal(js_profile_metrics[JS_M_POSIX_READ_CALLS].name, "posix_read_calls");
    assert_string_equal(js_profile_metrics[JS_M_POSIX_WRITE_BYTES].unit, "bytes");
    assert_string_equal(js_profile_metrics[JS_M_MPI_COLL_NS].unit, "ns");
    assert_string_equal(js_profile_metrics[JS_M_CPU_NS].name, "cpu_ns");
    assert_int_equal(js_profile_metric_index("mpiio_coll_calls"), JS_M_MPIIO_COLL_CALLS);
    assert_int_equal(js_profile_metric_index("no_such_metric"), -1);
}

static void names_are_unique_and_units_known(void **state)
{
    (void)state;
    for (int i = 0; i < JS_M_COUNT; i++) {
        const char *u = js_profile_metrics[i].unit;
        assert_true(strcmp(u, "calls") == 0 || strcmp(u, "bytes") == 0 || strcmp(u, "ns") == 0);
        assert_int_equal(js_profile_metric_index(js_profile_metrics[i].name), i);
    }
    for (int k = 0; k < JS_COLL_COUNT; k++)
        assert_int_equal(js_profile_coll_kind_index(js_profile_coll_kinds[k]), k);
    assert_int_equal(js_profile_coll_kind_index("allreduce"), JS_COLL_ALLREDUCE);
}

static void field_list_starts_with_format_and_version(void **state)
{
    (void)state;
    static const char *names[] = {
#define JS_X(id, name, type, unit, desc) name,
        JS_PROFILE_FIELDS(JS_X)
#undef JS_X
    };
    assert_string_equal(names[0], "format");
    assert_string_equal(names[1], "version");
    assert_int_equal(sizeof names / sizeof names[0], 45);
    assert_string_equal(JS_PROFILE_FORMAT_NAME, "jobscreen-profile");
    assert_int_equal(JS_PROFILE_VERSION, 9);
}

/* a slice row: the metrics, then the kernel's counts as kernel_<field> (format 5) */
static void slice_columns_are_metrics_then_kernel(void **state)
{
    (void)state;
    assert_int_equal(JS_SLICE_COLS, JS_M_COUNT + JS_KIO_COUNT);
    for (int m = 0; m < JS_M_COUNT; m++) {
        assert_string_equal(js_profile_slice_cols[m].name, js_profile_metrics[m].name);
        assert_string_equal(js_profile_slice_cols[m].unit, js_profile_metrics[m].unit);
    }
    assert_string_equal(js_profile_slice_cols[JS_M_COUNT + JS_KIO_RCHAR].name, "kernel_rchar");
    assert_string_equal(js_profile_slice_cols[JS_M_COUNT + JS_KIO_SYSCW].unit, "calls");
    assert_string_equal(js_profile_slice_cols[JS_SLICE_COLS - 1].name, "kernel_write_bytes");
    assert_string_equal(js_profile_slice_cols[JS_SLICE_COLS - 1].unit, "bytes");
}

/* The segments' histogram (common/profile_format.c): 1 us .. 1000 s in 1024 bins, edges whole
 * ns strictly increasing, every edge in its own bin, anything outside in the end bins. */
static void segment_bins_edges_monotone_round_trip(void **state)
{
    (void)state;
    assert_int_equal(js_seg_bin_lo_ns(0), JS_SEG_BIN_MIN_NS);
    assert_int_equal(js_seg_bin_lo_ns(JS_SEG_BINS), 1000000000000ULL);
    assert_int_equal(js_seg_bin_lo_ns(512), 31622777);            /* 10^4.5 us */
    assert_int_equal(js_seg_bin_of(0), 0);
    assert_int_equal(js_seg_bin_of(999), 0);
    assert_int_equal(js_seg_bin_of(1000), 0);
    assert_int_equal(js_seg_bin_of(UINT64_MAX), JS_SEG_BINS - 1);
    assert_int_equal(js_seg_bin_of(1000000000000ULL), JS_SEG_BINS - 1);
    for (int b = 0; b < JS_SEG_BINS; b++) {
        uint64_t lo = js_seg_bin_lo_ns(b), hi = js_seg_bin_lo_ns(b + 1);
        assert_true(lo < hi);
        /* about 2 % wide: 10^(9/1024) = 1.0204 */
        assert_true((double)hi / (double)lo > 1.019 && (double)hi / (double)lo < 1.022);
        assert_int_equal(js_seg_bin_of(lo), b);
        assert_int_equal(js_seg_bin_of(hi - 1), b);
    }
    int last = 0;
    for (uint64_t ns = 1; ns < 2000000000000ULL; ns = ns * 1.01 + 1) {
        int b = js_seg_bin_of(ns);
        assert_true(b >= last);
        last = b;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(metric_table_follows_the_enum),
        cmocka_unit_test(names_are_unique_and_units_known),
        cmocka_unit_test(field_list_starts_with_format_and_version),
        cmocka_unit_test(slice_columns_are_metrics_then_kernel),
        cmocka_unit_test(segment_bins_edges_monotone_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
