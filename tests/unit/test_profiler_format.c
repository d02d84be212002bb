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
    assert_int_equal(sizeof names / sizeof names[0], 41);
    assert_string_equal(JS_PROFILE_FORMAT_NAME, "jobscreen-profile");
    assert_int_equal(JS_PROFILE_VERSION, 5);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(metric_table_follows_the_enum),
        cmocka_unit_test(names_are_unique_and_units_known),
        cmocka_unit_test(field_list_starts_with_format_and_version),
        cmocka_unit_test(slice_columns_are_metrics_then_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
