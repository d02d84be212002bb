/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the per-slice series codec (common/series.c): round trips, widths, the
 * all-zero case, malformed input, saturation, chunk arithmetic and bytea text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "series.h"

static unsigned char buf[JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK)];

static void round_trip(const int64_t *v, size_t n, size_t want_len)
{
    size_t len = js_series_encode(v, n, 1, buf);
    assert_int_equal(len, want_len);
    int64_t out[JS_SERIES_CHUNK] = { 0 };
    long sat = 0;
    assert_int_equal(js_series_add(buf, len, n, out, 1, &sat), 0);
    assert_int_equal(sat, 0);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(out[i], v[i]);
}

static void zeros_encode_to_nothing(void **state)
{
    (void)state;
    int64_t v[5] = { 0 };
    assert_int_equal(js_series_encode(v, 5, 1, buf), 0);
    int64_t out[5] = { 1, 2, 3, 4, 5 };
    long sat = 0;
    assert_int_equal(js_series_add(buf, 0, 5, out, 1, &sat), 0); /* adds nothing */
    assert_int_equal(out[4], 5);
}

static void width_follows_the_span_not_the_size(void **state)
{
    (void)state;
    int64_t same[4] = { 7, 7, 7, 7 };
    round_trip(same, 4, 9); /* header only: every value is the base */
    int64_t cpu[3] = { 4000000000LL, 4000000255LL, 4000000001LL };
    round_trip(cpu, 3, 9 + 3 * 1); /* 4e9 apart from 255: one byte each */
    int64_t burst[4] = { 0, 0, 20000000000LL, 0 };
    round_trip(burst, 4, 9 + 4 * 5);
    int64_t big[2] = { 0, INT64_MAX };
    round_trip(big, 2, 9 + 2 * 8);
    assert_int_equal(buf[0], 8);
}

static void strided_input_and_output(void **state)
{
    (void)state;
    int64_t rows[3][2] = { { 1, 100 }, { 2, 200 }, { 3, 300 } };
    size_t len = js_series_encode(&rows[0][1], 3, 2, buf);
    int64_t out[3][2] = { { 0, 1 }, { 0, 1 }, { 0, 1 } };
    long sat = 0;
    assert_int_equal(js_series_add(buf, len, 3, &out[0][1], 2, &sat), 0);
    assert_int_equal(out[0][1], 101);
    assert_int_equal(out[2][1], 301);
    assert_int_equal(out[1][0], 0);
}

static void malformed_series_are_refused(void **state)
{
    (void)state;
    int64_t v[3] = { 1, 2, 3 };
    size_t len = js_series_encode(v, 3, 1, buf);
    int64_t out[4] = { 0 };
    long sat = 0;
    assert_int_equal(js_series_add(buf, len, 4, out, 1, &sat), -1); /* wrong count */
    assert_int_equal(js_series_add(buf, 5, 3, out, 1, &sat), -1);   /* short header */
    buf[0] = 9;
    assert_int_equal(js_series_add(buf, len, 3, out, 1, &sat), -1); /* no such width */
}

static void sums_saturate_and_are_counted(void **state)
{
    (void)state;
    int64_t v[2] = { INT64_MAX - 1, 5 };
    size_t len = js_series_encode(v, 2, 1, buf);
    int64_t out[2] = { 10, 10 };
    long sat = 0;
    assert_int_equal(js_series_add(buf, len, 2, out, 1, &sat), 0);
    assert_int_equal(out[0], INT64_MAX);
    assert_int_equal(out[1], 15);
    assert_int_equal(sat, 1);
}

static void chunks_are_aligned_also_before_the_epoch(void **state)
{
    (void)state;
    assert_int_equal(js_series_chunk_of(0), 0);
    assert_int_equal(js_series_chunk_of(899), 0);
    assert_int_equal(js_series_chunk_of(900), 900);
    assert_int_equal(js_series_chunk_of(448804800 + 17), 448804800);
    assert_int_equal(js_series_chunk_of(-1), -900);
}

/* a chunk's series added into a window of slices: only the overlap, wherever the window lies */
static void a_window_takes_only_the_overlap(void **state)
{
    (void)state;
    int64_t v[10], tmp[10];
    for (int i = 0; i < 10; i++)
        v[i] = 100 + i; /* the slices 20 .. 29 */
    size_t len = js_series_encode(v, 10, 1, buf);
    long sat = 0;
    int64_t out[8] = { 0 };
    /* the window 16 .. 23 takes the slices 20 .. 23 into out[4 .. 7] */
    assert_int_equal(js_series_add_window(buf, len, 20, 10, 16, 8, out, 1, tmp, &sat), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(out[i], 0);
    for (int i = 4; i < 8; i++)
        assert_int_equal(out[i], 100 + i - 4);
    /* the window 26 .. 33, strided: slices 26 .. 29 into out[0], out[2], ... */
    memset(out, 0, sizeof out);
    assert_int_equal(js_series_add_window(buf, len, 20, 10, 26, 4, out, 2, tmp, &sat), 0);
    assert_int_equal(out[0], 106);
    assert_int_equal(out[6], 109);
    assert_int_equal(out[1], 0);
    /* a window around the whole series adds it all, in place */
    int64_t wide[14] = { 0 };
    assert_int_equal(js_series_add_window(buf, len, 20, 10, 18, 14, wide, 1, tmp, &sat), 0);
    assert_int_equal(wide[1], 0);
    assert_int_equal(wide[2], 100);
    assert_int_equal(wide[11], 109);
    assert_int_equal(wide[12], 0);
    /* no overlap: nothing; a malformed series that overlaps: refused */
    assert_int_equal(js_series_add_window(buf, len, 20, 10, 30, 4, out, 1, tmp, &sat), 0);
    assert_int_equal(js_series_add_window(buf, len - 1, 20, 10, 24, 4, out, 1, tmp, &sat), -1);
    assert_int_equal(sat, 0);
}

static void text_bytea_round_trips_and_junk_is_refused(void **state)
{
    (void)state;
    unsigned char b[8];
    assert_int_equal(js_series_unhex("\\x00ff10", b, sizeof b), 3);
    assert_int_equal(b[1], 0xff);
    assert_int_equal(b[2], 0x10);
    assert_int_equal(js_series_unhex("\\x", b, sizeof b), 0);
    assert_int_equal(js_series_unhex("00ff", b, sizeof b), -1);           /* no \x */
    assert_int_equal(js_series_unhex("\\x0", b, sizeof b), -1);         /* odd */
    assert_int_equal(js_series_unhex("\\x0g", b, sizeof b), -1);        /* not hex */
    assert_int_equal(js_series_unhex("\\x000102030405060708", b, sizeof b), -1); /* too long */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zeros_encode_to_nothing),
        cmocka_unit_test(width_follows_the_span_not_the_size),
        cmocka_unit_test(strided_input_and_output),
        cmocka_unit_test(malformed_series_are_refused),
        cmocka_unit_test(sums_saturate_and_are_counted),
        cmocka_unit_test(chunks_are_aligned_also_before_the_epoch),
        cmocka_unit_test(a_window_takes_only_the_overlap),
        cmocka_unit_test(text_bytea_round_trips_and_junk_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
