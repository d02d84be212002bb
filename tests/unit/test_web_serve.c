/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of jobscreen.cgi's serving (web/serve.c, web/reply.c): the request's variables
 * come from its own parameters only (a FastCGI request never sees the process environment
 * nor an earlier request), replies go to the request's output, gzip when Accept-Encoding
 * allows it and the body is 1 KB or more, and decode to the same bytes; a stored reply is sent
 * as the computed one, its gzip bytes as stored. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "web/jsweb.h"

struct sink {
    char *buf;
    size_t n;
};
static int sink_write(void *ctx, const char *b, size_t n)
{
    struct sink *s = ctx;
    s->buf = realloc(s->buf, s->n + n + 1);
    memcpy(s->buf + s->n, b, n);
    s->n += n;
    s->buf[s->n] = '\0';
    return 0;
}
/* the body after the header block */
static const char *body_of(const struct sink *s, size_t *len)
{
    const char *e = strstr(s->buf, "\r\n\r\n");
    assert_non_null(e);
    *len = s->n - (size_t)(e + 4 - s->buf);
    return e + 4;
}

static void accept_encoding_is_parsed(void **state)
{
    (void)state;
    assert_true(jsw_accepts_gzip("gzip"));
    assert_true(jsw_accepts_gzip("gzip, deflate, br"));
    assert_true(jsw_accepts_gzip("br;q=1.0, GZIP;q=0.5"));
    assert_true(jsw_accepts_gzip("x-gzip"));
    assert_true(jsw_accepts_gzip("*"));
    assert_false(jsw_accepts_gzip(NULL));
    assert_false(jsw_accepts_gzip(""));
    assert_false(jsw_accepts_gzip("deflate, br"));
    assert_false(jsw_accepts_gzip("gzip;q=0"));
    assert_false(jsw_accepts_gzip("gzip; q=0.000, *"));
    assert_false(jsw_accepts_gzip("*;q=0"));
    assert_false(jsw_accepts_gzip("gzipx, xgzip"));
    assert_false(jsw_accepts_gzip("identity"));
}

static void request_variables_come_from_the_request_only(void **state)
{
    (void)state;
    setenv("REMOTE_USER", "fromprocess", 1);
    char *env1[] = { "QUERY_STRING=q=me", "REMOTE_USER=jsalice", NULL };
    char *env2[] = { "QUERY_STRING=q=me", "REMOTE_USERX=jsbob", NULL };
    struct jsw_io a = { .envp = env1 }, b = { .envp = env2 };
    assert_string_equal(jsw_io_getenv(&a, "REMOTE_USER"), "jsalice");
    assert_null(jsw_io_getenv(&b, "REMOTE_USER"));
    assert_null(jsw_io_getenv(&b, "REMOTE_USE"));
    assert_string_equal(jsw_io_getenv(NULL, "REMOTE_USER"), "fromprocess");
    unsetenv("REMOTE_USER");
}

/* one server, three requests: jsalice, nobody, jsbob (no database: the me endpoint) */
static void one_server_answers_each_request_as_its_own(void **state)
{
    (void)state;
    char conf[] = "/tmp/jsw-test-serve.XXXXXX";
    int fd = mkstemp(conf);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("conninfo = host=/nonexistent dbname=none\nadmins = jsadmin\n", f);
    fclose(f);
    char cv[300];
    snprintf(cv, sizeof cv, "JOBSCREEN_CONF=%s", conf);
    struct jsw_server *s = jsw_server_new(true);
    const char *who[] = { "REMOTE_USER=jsadmin", NULL, "REMOTE_USER=jsbob" };
    const char *want[] = { "{\"user\":\"jsadmin\",\"admin\":true,\"api_version\":2}\n", "\"status\":401",
                           "{\"user\":\"jsbob\",\"admin\":false,\"api_version\":2}\n" };
    int status[] = { 200, 401, 200 };
    for (int i = 0; i < 3; i++) {
        char *env[] = { cv, "QUERY_STRING=q=me", "REQUEST_METHOD=GET", (char *)who[i], NULL };
        struct sink out = { 0 };
        struct jsw_io io = { .envp = env, .write = sink_write, .ctx = &out };
        assert_int_equal(jsw_serve_request(s, &io), status[i]);
        size_t n;
        const char *body = body_of(&out, &n);
        assert_non_null(strstr(body, want[i]));
        assert_non_null(strstr(out.buf, "Vary: Accept-Encoding\r\n"));
        char cl[64];
        snprintf(cl, sizeof cl, "Content-Length: %zu\r\n", n);
        assert_non_null(strstr(out.buf, cl));
        free(out.buf);
    }
    jsw_server_free(s);
    unlink(conf);
}

static void big_replies_are_gzipped_when_accepted(void **state)
{
    (void)state;
    json_t *arr = json_array();
    for (int i = 0; i < 500; i++)
        json_array_append_new(arr, json_pack("{s:i,s:s}", "id", i, "name", "simulate"));
    char *plain = json_dumps(arr, JSON_COMPACT | JSON_ESCAPE_SLASH | JSON_ENCODE_ANY);
    for (int accept = 0; accept < 2; accept++) {
        struct sink out = { 0 };
        struct jsw_io io = { .write = sink_write, .ctx = &out };
        jsw_reply_to(&io, accept ? "gzip, deflate" : "deflate", NULL);
        jsw_reply(200, json_incref(arr));
        jsw_reply_to(NULL, NULL, NULL);
        size_t n;
        const char *body = body_of(&out, &n);
        if (!accept) {
            assert_null(strstr(out.buf, "Content-Encoding"));
            assert_int_equal(n, strlen(plain) + 1);
            assert_memory_equal(body, plain, strlen(plain));
        } else {
            assert_non_null(strstr(out.buf, "Content-Encoding: gzip\r\n"));
            assert_true(n < strlen(plain) / 4);
            /* inflate and compare */
            size_t cap = strlen(plain) + 16;
            unsigned char *dec = malloc(cap);
            z_stream z = { 0 };
            assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
            z.next_in = (Bytef *)(uintptr_t)body;
            z.avail_in = (uInt)n;
            z.next_out = dec;
            z.avail_out = (uInt)cap;
            assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
            assert_int_equal(z.total_out, strlen(plain) + 1);
            assert_memory_equal(dec, plain, strlen(plain));
            inflateEnd(&z);
            free(dec);
        }
        free(out.buf);
    }
    /* a small reply stays plain even when gzip is accepted */
    struct sink out = { 0 };
    struct jsw_io io = { .write = sink_write, .ctx = &out };
    jsw_reply_to(&io, "gzip", NULL);
    jsw_reply(200, json_pack("{s:s}", "user", "jsalice"));
    jsw_reply_to(NULL, NULL, NULL);
    assert_null(strstr(out.buf, "Content-Encoding"));
    free(out.buf);
    free(plain);
    json_decref(arr);
}

/* one reply to a sink: the whole output (headers and body), malloc'd */
static char *reply_with(int status, json_t *body, const char *accept, const char *inm)
{
    struct sink out = { 0 };
    struct jsw_io io = { .write = sink_write, .ctx = &out };
    jsw_reply_to(&io, accept, inm);
    jsw_reply(status, body);
    jsw_reply_to(NULL, NULL, NULL);
    return out.buf;
}

static void a_reply_the_client_holds_is_not_sent_again(void **state)
{
    (void)state;
    json_t *arr = json_array();
    for (int i = 0; i < 200; i++)
        json_array_append_new(arr, json_pack("{s:i,s:s}", "id", i, "name", "simulate"));
    char *first = reply_with(200, json_incref(arr), "gzip", NULL);
    const char *t = strstr(first, "ETag: W/\"");
    assert_non_null(t);
    char etag[JSW_ETAG_LEN + 1] = "";
    sscanf(t + 6, "%24[^\r]", etag);
    assert_int_equal(strlen(etag), 20); /* W/"16 hex" */
    assert_non_null(strstr(first, "Cache-Control: private, no-cache\r\n"));
    /* the same tag for the plain form: it names the JSON, not the bytes sent */
    char *plain = reply_with(200, json_incref(arr), NULL, NULL);
    assert_non_null(strstr(plain, etag));
    /* the client that holds it: 304, no body, no Content-Length; gzip or not */
    for (int gz = 0; gz < 2; gz++) {
        char inm[80];
        snprintf(inm, sizeof inm, "\"0000000000000000\", %s", etag);
        char *again = reply_with(200, json_incref(arr), gz ? "gzip" : NULL, inm);
        assert_non_null(strstr(again, "Status: 304 Not Modified\r\n"));
        assert_non_null(strstr(again, etag));
        assert_null(strstr(again, "Content-Length"));
        assert_string_equal(strstr(again, "\r\n\r\n"), "\r\n\r\n");
        free(again);
    }
    /* another reply, or another tag: the body */
    char *other = reply_with(200, json_pack("[i]", 1), NULL, etag);
    assert_non_null(strstr(other, "Status: 200 OK\r\n"));
    free(other);
    char *stale = reply_with(200, json_incref(arr), NULL, "W/\"0123456789abcdef\"");
    assert_non_null(strstr(stale, "Status: 200 OK\r\n"));
    free(stale);
    /* an error never has a tag and is never 304, whatever the client says */
    char *err = reply_with(404, jsw_error_body(404, "no such job"), NULL, "*");
    assert_non_null(strstr(err, "Status: 404 Not Found\r\n"));
    assert_null(strstr(err, "ETag"));
    assert_non_null(strstr(err, "Cache-Control: no-store\r\n"));
    free(err);
    free(first);
    free(plain);
    json_decref(arr);
}

/* A stored reply (web/stored.c) goes out as the computed one would: the same headers and tag,
 * its gzip bytes as given (not compressed again), 304 for the client that holds its tag. */
static void a_stored_reply_is_sent_as_stored(void **state)
{
    (void)state;
    json_t *arr = json_array();
    for (int i = 0; i < 200; i++)
        json_array_append_new(arr, json_pack("{s:i,s:s}", "id", i, "name", "simulate"));
    size_t n = 0;
    char *text = jsw_dump(arr, &n), etag[JSW_ETAG_LEN];
    jsw_etag(text, n, etag);
    char *computed = reply_with(200, json_loads(text, JSON_DECODE_ANY, NULL), NULL, NULL);
    struct sink out = { 0 };
    struct jsw_io io = { .write = sink_write, .ctx = &out };
    jsw_reply_to(&io, NULL, NULL);
    assert_false(jsw_reply_gzip());
    jsw_reply_stored(etag, text, n, false);
    jsw_reply_to(NULL, NULL, NULL);
    assert_string_equal(out.buf, computed); /* headers, tag and body: byte for byte */
    free(out.buf);
    /* gzip: the bytes given, with Content-Encoding and their length */
    size_t gzn = 0;
    unsigned char *gz = jsw_gzip(text, n, 9, &gzn);
    assert_non_null(gz);
    memset(&out, 0, sizeof out);
    jsw_reply_to(&io, "gzip", NULL);
    assert_true(jsw_reply_gzip());
    jsw_reply_stored(etag, (const char *)gz, gzn, true);
    jsw_reply_to(NULL, NULL, NULL);
    assert_non_null(strstr(out.buf, "Content-Encoding: gzip\r\n"));
    assert_non_null(strstr(out.buf, etag));
    size_t bn;
    const char *body = body_of(&out, &bn);
    assert_int_equal(bn, gzn);
    assert_memory_equal(body, gz, gzn);
    free(out.buf);
    /* the client that holds the tag: 304, no body */
    memset(&out, 0, sizeof out);
    jsw_reply_to(&io, "gzip", etag);
    jsw_reply_stored(etag, (const char *)gz, gzn, true);
    jsw_reply_to(NULL, NULL, NULL);
    assert_non_null(strstr(out.buf, "Status: 304 Not Modified\r\n"));
    assert_string_equal(strstr(out.buf, "\r\n\r\n"), "\r\n\r\n");
    free(out.buf);
    free(gz);
    free(text);
    free(computed);
}

static void if_none_match_is_parsed(void **state)
{
    (void)state;
    const char *tag = "W/\"00000000000000ab\"";
    assert_true(jsw_etag_matches("*", tag));
    assert_true(jsw_etag_matches(tag, tag));
    assert_true(jsw_etag_matches("\"00000000000000ab\"", tag)); /* weak comparison */
    assert_true(jsw_etag_matches("\"x\", W/\"00000000000000ab\"", tag));
    assert_true(jsw_etag_matches(" ,\t\"x\" ,W/\"00000000000000ab\"", tag));
    assert_false(jsw_etag_matches(NULL, tag));
    assert_false(jsw_etag_matches("", tag));
    assert_false(jsw_etag_matches("W/\"00000000000000ac\"", tag));
    assert_false(jsw_etag_matches("W/\"00000000000000ab", tag));  /* unterminated */
    assert_false(jsw_etag_matches("00000000000000ab", tag));       /* not a tag */
    assert_false(jsw_etag_matches("\"00000000000000a\"", tag));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accept_encoding_is_parsed),
        cmocka_unit_test(request_variables_come_from_the_request_only),
        cmocka_unit_test(one_server_answers_each_request_as_its_own),
        cmocka_unit_test(big_replies_are_gzipped_when_accepted),
        cmocka_unit_test(a_reply_the_client_holds_is_not_sent_again),
        cmocka_unit_test(a_stored_reply_is_sent_as_stored),
        cmocka_unit_test(if_none_match_is_parsed),
    };
    return cmocka_run_group_tests_name("web serving", tests, NULL, NULL);
}
