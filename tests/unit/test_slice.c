/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the cluster-wide slice arithmetic (common/slice.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "slice.h"

static void slice_is_floor_of_wall_clock_over_length(void **state)
{
    (void)state;
    assert_int_equal(js_slice_of_ns(0, 4), 0);
    assert_int_equal(js_slice_of_ns(3999999999LL, 4), 0);
    assert_int_equal(js_slice_of_ns(4000000000LL, 4), 1);
    /* 2026-11-21T00:00:00Z = 1795219200 s: divisible by 4 */
    assert_int_equal(js_slice_of_ns(1795219200LL * 1000000000LL, 4), 448804800);
    assert_int_equal(js_slice_of_ns(1795219203LL * 1000000000LL + 999999999LL, 4), 448804800);
}

static void slice_before_epoch_rounds_down(void **state)
{
    (void)state;
    assert_int_equal(js_slice_of_ns(-1, 4), -1);
    assert_int_equal(js_slice_of_ns(-4000000000LL, 4), -1);
    assert_int_equal(js_slice_of_ns(-4000000001LL, 4), -2);
}

static void slice_length_parsing_accepts_bounds_and_rejects_junk(void **state)
{
    (void)state;
    assert_int_equal(js_slice_parse_seconds(NULL), JS_SLICE_DEFAULT_SECONDS);
    assert_int_equal(js_slice_parse_seconds(""), JS_SLICE_DEFAULT_SECONDS);
    assert_int_equal(js_slice_parse_seconds("1"), 1);
    assert_int_equal(js_slice_parse_seconds("3600"), 3600);
    assert_int_equal(js_slice_parse_seconds("0"), -1);
    assert_int_equal(js_slice_parse_seconds("3601"), -1);
    assert_int_equal(js_slice_parse_seconds("4s"), -1);
    assert_int_equal(js_slice_parse_seconds("-4"), -1);
    assert_int_equal(js_slice_parse_seconds("99999999999999999999"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slice_is_floor_of_wall_clock_over_length),
        cmocka_unit_test(slice_before_epoch_rounds_down),
        cmocka_unit_test(slice_length_parsing_accepts_bounds_and_rejects_junk),
    };
    return cmocka_run_group_tests_name("slice", tests, NULL, NULL);
}
