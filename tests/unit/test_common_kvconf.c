/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the one configuration reader (common/kvconf.c): comments, blank lines,
 * trimming, values holding '=' and blanks, errors with their line, each boolean spelling,
 * whole numbers and sizes with their ranges, lists. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kvconf.h"

/* What the parser handed over: "key=[value]" per line, joined by '|'. */
struct seen {
    char text[1024];
    int calls;
};

static int record(void *ctx, const char *key, const char *value, char *why, size_t whysize)
{
    struct seen *s = ctx;
    size_t n = strlen(s->text);
    snprintf(s->text + n, sizeof s->text - n, "%s%s=[%s]", s->calls ? "|" : "", key, value);
    s->calls++;
    if (!strcmp(key, "bad")) {
        snprintf(why, whysize, "bad: \"%s\" is not good", value);
        return -1;
    }
    return 0;
}

static const char *parse(const char *text, int want_rc, char *err, size_t errsize)
{
    static struct seen s;
    memset(&s, 0, sizeof s);
    err[0] = '\0';
    assert_int_equal(js_kv_parse_text(text, NULL, record, &s, err, errsize), want_rc);
    return s.text;
}

static void comments_blank_lines_and_trimming(void **state)
{
    (void)state;
    char err[256];
    assert_string_equal(parse("# a comment\n\n   \n\t# an indented comment\n  key   =   value  \n", 0, err, sizeof err),
                        "key=[value]");
    /* CR LF line ends, a last line without newline, an empty value */
    assert_string_equal(parse("a = 1\r\nb =\r\nc=3", 0, err, sizeof err), "a=[1]|b=[]|c=[3]");
    assert_string_equal(parse("", 0, err, sizeof err), "");
    assert_string_equal(parse("#only = a comment\n", 0, err, sizeof err), "");
}

static void a_hash_after_a_blank_starts_a_comment_one_inside_a_word_does_not(void **state)
{
    (void)state;
    char err[256];
    assert_string_equal(parse("timeout = 5000   # five seconds\n", 0, err, sizeof err), "timeout=[5000]");
    assert_string_equal(parse("timeout = 5000\t# tab before\n", 0, err, sizeof err), "timeout=[5000]");
    assert_string_equal(parse("db = host=h password=a#b\n", 0, err, sizeof err), "db=[host=h password=a#b]");
    assert_string_equal(parse("url = https://h/x.cgi#top\n", 0, err, sizeof err), "url=[https://h/x.cgi#top]");
    assert_string_equal(parse("key = #all comment\n", 0, err, sizeof err), "key=[]");
}

static void only_the_first_equals_splits(void **state)
{
    (void)state;
    char err[256];
    assert_string_equal(parse("db = host=db1 port=5432 dbname=js user=x\n", 0, err, sizeof err),
                        "db=[host=db1 port=5432 dbname=js user=x]");
    assert_string_equal(parse("db=dbname=js\n", 0, err, sizeof err), "db=[dbname=js]");
    assert_string_equal(parse("k = a = b\n", 0, err, sizeof err), "k=[a = b]");
}

static void errors_name_the_line_and_the_reason(void **state)
{
    (void)state;
    char err[256];
    parse("a = 1\n\n# c\njust words\nb = 2\n", -1, err, sizeof err);
    assert_string_equal(err, "line 4: expected 'key = value'");
    parse("= value\n", -1, err, sizeof err);
    assert_string_equal(err, "line 1: expected 'key = value'");
    /* the caller's reason, the first error stops the parse */
    assert_string_equal(parse("a = 1\nbad = x y\nc = 3\n", -1, err, sizeof err), "a=[1]|bad=[x y]");
    assert_string_equal(err, "line 2: bad: \"x y\" is not good");
}

static void files_are_named_in_errors(void **state)
{
    (void)state;
    char path[] = "/tmp/test_common_kvconf.XXXXXX", err[512], want[600];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "# comment\n spool = /var/spool/x \n\ndb=host=db1 dbname=js\nbad = 1\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    struct seen s = { "", 0 };
    assert_int_equal(js_kv_parse_file(path, record, &s, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:5: bad: \"1\" is not good", path);
    assert_string_equal(err, want);
    assert_int_equal(errno, 0);
    assert_string_equal(s.text, "spool=[/var/spool/x]|db=[host=db1 dbname=js]|bad=[1]");

    /* a NUL byte is refused; so is a file beyond the bound */
    assert_int_equal(write(fd, "x\0y\n", 4), 4);
    assert_int_equal(js_kv_parse_file(path, record, &s, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: contains a NUL byte", path);
    assert_string_equal(err, want);
    assert_int_equal(ftruncate(fd, JS_KV_FILE_MAX + 1), 0);
    assert_int_equal(js_kv_parse_file(path, record, &s, err, sizeof err), -1);
    assert_non_null(strstr(err, ": larger than 1048576 bytes"));
    close(fd);
    unlink(path);

    /* a missing file: errno tells, so that an optional file may be skipped */
    assert_int_equal(js_kv_parse_file("/nonexistent/x.conf", record, &s, err, sizeof err), -1);
    assert_int_equal(errno, ENOENT);
    assert_string_equal(err, "/nonexistent/x.conf: No such file or directory");
}

static void every_boolean_spelling_in_any_case(void **state)
{
    (void)state;
    const char *yes[] = { "yes", "YES", "Yes", "true", "TRUE", "True", "on", "ON", "On", "1" };
    const char *no[] = { "no", "NO", "No", "false", "FALSE", "False", "off", "OFF", "Off", "0" };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        assert_int_equal(js_kv_bool(yes[i]), 1);
        assert_int_equal(js_kv_bool(no[i]), 0);
    }
    const char *neither[] = { "", "2", "y", "n", "yess", "enable", " yes", "-1", "01" };
    for (size_t i = 0; i < sizeof neither / sizeof neither[0]; i++)
        assert_int_equal(js_kv_bool(neither[i]), -1);
    assert_int_equal(js_kv_bool(NULL), -1);
}

static void whole_numbers_within_their_range(void **state)
{
    (void)state;
    long long v = 7;
    assert_int_equal(js_kv_int("30", 1, 86400, &v), 0);
    assert_int_equal(v, 30);
    assert_int_equal(js_kv_int("1", 1, 86400, &v), 0);
    assert_int_equal(js_kv_int("86400", 1, 86400, &v), 0);
    assert_int_equal(v, 86400);
    assert_int_equal(js_kv_int("+5", 0, 10, &v), 0);
    assert_int_equal(v, 5);
    assert_int_equal(js_kv_int("-3", -5, 5, &v), 0);
    assert_int_equal(v, -3);
    v = 7;
    const char *bad[] = { "0", "86401", "", "5s", "1.5", " 5", "0x10", "-", "+", "1e3", "99999999999999999999" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(js_kv_int(bad[i], 1, 86400, &v), -1);
    assert_int_equal(v, 7); /* untouched on error */
    assert_int_equal(js_kv_int("9223372036854775807", 0, LLONG_MAX, &v), 0);
    assert_int_equal(v, LLONG_MAX);
}

static void sizes_take_a_binary_suffix(void **state)
{
    (void)state;
    long long v = 0;
    assert_int_equal(js_kv_size("1024", 0, LLONG_MAX, &v), 0);
    assert_int_equal(v, 1024);
    assert_int_equal(js_kv_size("3k", 0, LLONG_MAX, &v), 0);
    assert_int_equal(v, 3072);
    assert_int_equal(js_kv_size("3K", 0, LLONG_MAX, &v), 0);
    assert_int_equal(v, 3072);
    assert_int_equal(js_kv_size("64M", 0, LLONG_MAX, &v), 0);
    assert_int_equal(v, 64LL << 20);
    assert_int_equal(js_kv_size("1g", 0, LLONG_MAX, &v), 0);
    assert_int_equal(v, 1LL << 30);
    assert_int_equal(js_kv_size("2T", 0, LLONG_MAX, &v), 0);
    assert_int_equal(v, 2LL << 40);
    assert_int_equal(js_kv_size("0", 0, LLONG_MAX, &v), 0);
    assert_int_equal(v, 0);
    const char *bad[] = { "", "M", "-1", "+1", "1MB", "1P", "1.5G", " 1G", "1 G", "99999999999999999999", "8388608T" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(js_kv_size(bad[i], 0, LLONG_MAX, &v), -1);
    /* the range is of the bytes, after the suffix */
    assert_int_equal(js_kv_size("64M", 1024, 64LL << 20, &v), 0);
    assert_int_equal(js_kv_size("65M", 1024, 64LL << 20, &v), -1);
    assert_int_equal(js_kv_size("1023", 1024, 64LL << 20, &v), -1);
    assert_int_equal(js_kv_size("1k", 1024, 64LL << 20, &v), 0);
}

static void lists_split_at_commas_and_blanks(void **state)
{
    (void)state;
    const char *cursor = " nfs4, lustre gpfs,\tbeegfs ,, x ", *e;
    size_t len;
    const char *want[] = { "nfs4", "lustre", "gpfs", "beegfs", "x" };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        e = js_kv_list_next(&cursor, &len);
        assert_non_null(e);
        assert_int_equal(len, strlen(want[i]));
        assert_memory_equal(e, want[i], len);
    }
    assert_null(js_kv_list_next(&cursor, &len));
    assert_null(js_kv_list_next(&cursor, &len));
    cursor = "";
    assert_null(js_kv_list_next(&cursor, &len));

    assert_int_equal(js_kv_list_has_empty("a,b"), 0);
    assert_int_equal(js_kv_list_has_empty("a, b c"), 0);
    assert_int_equal(js_kv_list_has_empty(""), 0);
    assert_int_equal(js_kv_list_has_empty("a,,b"), 1);
    assert_int_equal(js_kv_list_has_empty("a, ,b"), 1);
    assert_int_equal(js_kv_list_has_empty(",a"), 1);
    assert_int_equal(js_kv_list_has_empty("a,"), 1);
    assert_int_equal(js_kv_list_has_empty("a , "), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(comments_blank_lines_and_trimming),
        cmocka_unit_test(a_hash_after_a_blank_starts_a_comment_one_inside_a_word_does_not),
        cmocka_unit_test(only_the_first_equals_splits),
        cmocka_unit_test(errors_name_the_line_and_the_reason),
        cmocka_unit_test(files_are_named_in_errors),
        cmocka_unit_test(every_boolean_spelling_in_any_case),
        cmocka_unit_test(whole_numbers_within_their_range),
        cmocka_unit_test(sizes_take_a_binary_suffix),
        cmocka_unit_test(lists_split_at_commas_and_blanks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
