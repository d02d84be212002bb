/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the profiler's hand-made JSON writer (profiler/jsonw.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "jsonw.h"

static char sink[1 << 16];
static size_t sink_len;
static int fail_with;

static ssize_t to_sink(int fd, const void *p, size_t n)
{
    (void)fd;
    if (fail_with) {
        errno = fail_with;
        return -1;
    }
    memcpy(sink + sink_len, p, n);
    sink_len += n;
    return (ssize_t)n;
}

static struct js_out o;

static const char *render_str(const char *s, size_t max)
{
    sink_len = 0;
    js_out_init(&o, 0, to_sink, 0);
    js_out_str(&o, s, max);
    js_out_flush(&o);
    sink[sink_len] = '\0';
    return sink;
}

static void strings_are_escaped_per_rfc8259(void **state)
{
    (void)state;
    assert_string_equal(render_str("plain/path.dat", 100), "\"plain/path.dat\"");
    assert_string_equal(render_str("a\"b\\c", 100), "\"a\\\"b\\\\c\"");
    assert_string_equal(render_str("t\tn\nr\r\x01\x1f\x7f", 100), "\"t\\tn\\nr\\r\\u0001\\u001f\\u007f\"");
}

static void valid_utf8_passes_and_invalid_bytes_become_u00xx(void **state)
{
    (void)state;
    assert_string_equal(render_str("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 100), "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    assert_string_equal(render_str("x\xff" "y", 100), "\"x\\u00ffy\"");
    assert_string_equal(render_str("\xc3", 100), "\"\\u00c3\"");          /* truncated sequence */
    assert_string_equal(render_str("\xc0\xaf", 100), "\"\\u00c0\\u00af\""); /* overlong */
    assert_string_equal(render_str("\xed\xa0\x80", 100), "\"\\u00ed\\u00a0\\u0080\""); /* surrogate */
}

static void strings_are_cut_at_max_bytes(void **state)
{
    (void)state;
    assert_string_equal(render_str("abcdef", 3), "\"abc\"");
}

static void numbers_cover_the_64_bit_range(void **state)
{
    (void)state;
    sink_len = 0;
    js_out_init(&o, 0, to_sink, 0);
    js_out_u64(&o, 0);
    js_out_lit(&o, " ");
    js_out_u64(&o, UINT64_MAX);
    js_out_lit(&o, " ");
    js_out_i64(&o, INT64_MIN);
    js_out_lit(&o, " ");
    js_out_i64(&o, -1);
    js_out_lit(&o, " ");
    js_out_key(&o, "k");
    js_out_flush(&o);
    sink[sink_len] = '\0';
    assert_string_equal(sink, "0 18446744073709551615 -9223372036854775808 -1 \"k\":");
}

static void a_failed_write_is_reported_once_and_stops_output(void **state)
{
    (void)state;
    sink_len = 0;
    fail_with = ENOSPC;
    js_out_init(&o, 0, to_sink, 0);
    js_out_lit(&o, "abc");
    assert_int_equal(js_out_flush(&o), -1);
    assert_int_equal(o.err, ENOSPC);
    fail_with = 0;
    js_out_lit(&o, "def");
    assert_int_equal(js_out_flush(&o), -1);
    assert_int_equal(sink_len, 0);
}

static void output_past_the_limit_is_refused(void **state)
{
    (void)state;
    sink_len = 0;
    js_out_init(&o, 0, to_sink, 5);
    js_out_lit(&o, "abcd");
    js_out_lit(&o, "ef");
    assert_int_equal(js_out_flush(&o), -1);
    assert_int_equal(o.err, EFBIG);
}

static void large_output_is_written_whole(void **state)
{
    (void)state;
    sink_len = 0;
    js_out_init(&o, 0, to_sink, 0);
    for (int i = 0; i < 6000; i++)
        js_out_lit(&o, "0123456789");
    assert_int_equal(js_out_flush(&o), 0);
    assert_int_equal(sink_len, 60000);
    assert_int_equal(o.total, 60000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strings_are_escaped_per_rfc8259),
        cmocka_unit_test(valid_utf8_passes_and_invalid_bytes_become_u00xx),
        cmocka_unit_test(strings_are_cut_at_max_bytes),
        cmocka_unit_test(numbers_cover_the_64_bit_range),
        cmocka_unit_test(a_failed_write_is_reported_once_and_stops_output),
        cmocka_unit_test(output_past_the_limit_is_refused),
        cmocka_unit_test(large_output_is_written_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
