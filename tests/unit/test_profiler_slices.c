/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the profiler's compact slice storage (profiler/slices.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "slices.h"

static unsigned char buf[1 << 20];

static void sparse_slices_round_trip_exactly(void **state)
{
    (void)state;
    struct js_slices s;
    js_slices_init(&s, buf, sizeof buf);
    uint64_t a[JS_SLICE_COLS] = {0}, b[JS_SLICE_COLS] = {0}, got[JS_SLICE_COLS];
    a[JS_M_POSIX_WRITE_CALLS] = 3;
    a[JS_M_POSIX_WRITE_BYTES] = 300;
    a[JS_M_CPU_NS] = 4000000000ULL;
    a[JS_M_COUNT + JS_KIO_WCHAR] = 300;   /* the kernel's counts after the metrics */
    b[JS_M_MPI_SEND_BYTES] = UINT64_MAX;
    b[JS_SLICE_COLS - 1] = (uint64_t)1 << 40;
    b[0] = 1;
    assert_int_equal(js_slices_append(&s, 448804800, a), 0);
    assert_int_equal(js_slices_append(&s, 448804807, b), 0);
    assert_int_equal(s.count, 2);

    struct js_slices_iter it;
    int64_t sl;
    js_slices_iter_init(&it, &s);
    assert_int_equal(js_slices_next(&it, &sl, got), 1);
    assert_int_equal(sl, 448804800);
    assert_memory_equal(got, a, sizeof a);
    assert_int_equal(js_slices_next(&it, &sl, got), 1);
    assert_int_equal(sl, 448804807);
    assert_memory_equal(got, b, sizeof b);
    assert_int_equal(js_slices_next(&it, &sl, got), 0);
}

static void a_typical_io_slice_takes_few_bytes(void **state)
{
    (void)state;
    struct js_slices s;
    js_slices_init(&s, buf, sizeof buf);
    uint64_t v[JS_SLICE_COLS] = {0};
    v[JS_M_POSIX_WRITE_CALLS] = 1000;     /* 2 bytes */
    v[JS_M_POSIX_WRITE_BYTES] = 1000000;  /* 3 bytes */
    v[JS_M_POSIX_NS] = 5000000;           /* 4 bytes */
    v[JS_M_CPU_NS] = 4000000000ULL;       /* 5 bytes */
    assert_int_equal(js_slices_append(&s, 448804800, v), 0);
    size_t first = s.len;
    assert_int_equal(js_slices_append(&s, 448804801, v), 0);
    /* head 1 + mask 5 (bit 31 set) + 14 of values */
    assert_int_equal(s.len - first, 1 + 5 + 14);
    /* a day of such 4 s slices stays under the 1 MiB budget */
    assert_true((s.len - first) * 21600 < (1u << 20));
}

static void the_same_slice_again_is_added_into_the_last(void **state)
{
    (void)state;
    struct js_slices s;
    js_slices_init(&s, buf, sizeof buf);
    uint64_t a[JS_SLICE_COLS] = {0}, b[JS_SLICE_COLS] = {0}, got[JS_SLICE_COLS];
    a[1] = 10;
    b[1] = 5;
    b[2] = 7;
    assert_int_equal(js_slices_append(&s, 100, a), 0);
    assert_int_equal(js_slices_append(&s, 102, a), 0);
    assert_int_equal(js_slices_append(&s, 102, b), 0);
    assert_int_equal(s.count, 2);
    struct js_slices_iter it;
    int64_t sl;
    js_slices_iter_init(&it, &s);
    assert_int_equal(js_slices_next(&it, &sl, got), 1);
    assert_int_equal(sl, 100);
    assert_int_equal(got[1], 10);
    assert_int_equal(js_slices_next(&it, &sl, got), 1);
    assert_int_equal(sl, 102);
    assert_int_equal(got[1], 15);
    assert_int_equal(got[2], 7);
    assert_int_equal(js_slices_next(&it, &sl, got), 0);
}

static void a_full_budget_truncates_and_keeps_what_fit(void **state)
{
    (void)state;
    struct js_slices s;
    js_slices_init(&s, buf, 64);
    uint64_t v[JS_SLICE_COLS] = {0};
    v[0] = 1;
    int stored = 0;
    for (int i = 0; i < 100; i++)
        if (js_slices_append(&s, 1000 + i, v) == 0)
            stored++;
    assert_true(s.truncated);
    /* first entry: zigzag(1000) = 2000 -> 2 bytes + mask 1 + value 1; later ones 3 bytes */
    assert_int_equal(stored, 1 + (64 - 4) / 3);
    assert_int_equal(s.count, (uint64_t)stored);
    /* after truncation nothing is stored, not even a small entry */
    assert_int_equal(js_slices_append(&s, 5000, v), -1);
    struct js_slices_iter it;
    int64_t sl;
    uint64_t got[JS_SLICE_COLS];
    int n = 0;
    js_slices_iter_init(&it, &s);
    while (js_slices_next(&it, &sl, got))
        assert_int_equal(sl, 1000 + n++);
    assert_int_equal(n, stored);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sparse_slices_round_trip_exactly),
        cmocka_unit_test(a_typical_io_slice_takes_few_bytes),
        cmocka_unit_test(the_same_slice_again_is_added_into_the_last),
        cmocka_unit_test(a_full_budget_truncates_and_keeps_what_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
