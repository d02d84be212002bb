/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the receiver's body reading (transport/body.c, docs/transport.md, "Storing"):
 * a small body in memory, a large one through an unnamed temporary file and mapped (when the
 * file system has O_TMPFILE), each hashed as it came; a body that ends early says so; a gzip
 * or zlib body inflated the same way, never past its bound (a decompression bomb), a corrupt
 * or trailing one refused. */
#include "config.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "body.h"

/* A file of len bytes of a pattern, opened for reading at its start (a request's stdin). */
static int source(size_t len, char **copy)
{
    char path[] = "/tmp/jt-body.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    *copy = malloc(len + 1);
    for (size_t i = 0; i < len; i++)
        (*copy)[i] = (char)(i * 7 + i / 4096);
    assert_int_equal(write(fd, *copy, len), (ssize_t)len);
    assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
    return fd;
}

static int has_tmpfile(int dirfd)
{
#ifdef O_TMPFILE
    int fd = openat(dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        close(fd);
    return fd >= 0;
#else
    (void)dirfd;
    return 0;
#endif
}

static void read_and_check(size_t len, int want_map)
{
    char *copy, reason[256] = "";
    int fd = source(len, &copy), dirfd = open("/tmp", O_RDONLY | O_DIRECTORY);
    struct jt_body b;
    unsigned char got[JS_DIGEST_BYTES], want[JS_DIGEST_BYTES];
    assert_int_equal(jt_body_read(fd, len, dirfd, &b, got, reason, sizeof reason), 0);
    assert_int_equal(b.len, len);
    assert_memory_equal(b.data, copy, len);
    assert_int_equal(js_sha256(copy, len, want), 0);
    assert_memory_equal(got, want, sizeof want);
    if (want_map && has_tmpfile(dirfd)) {
        assert_non_null(b.map);
        assert_null(b.mem);
    } else if (!want_map)
        assert_non_null(b.mem);
    jt_body_free(&b);
    close(fd);
    close(dirfd);
    free(copy);
}

static void a_small_body_is_read_into_memory(void **state)
{
    (void)state;
    read_and_check(100, 0);
    read_and_check(JT_BODY_MEMORY_MAX, 0);
}

static void a_large_body_goes_through_a_temporary_file(void **state)
{
    (void)state;
    read_and_check(JT_BODY_MEMORY_MAX + 1, 1);
    read_and_check(5 * JT_BODY_MEMORY_MAX + 12345, 1);
}

static void a_body_that_ends_early_is_told(void **state)
{
    (void)state;
    for (size_t len = 1000; len <= 3 * JT_BODY_MEMORY_MAX; len += 3 * JT_BODY_MEMORY_MAX - 1000) {
        char *copy, reason[256] = "";
        int fd = source(len, &copy), dirfd = open("/tmp", O_RDONLY | O_DIRECTORY);
        struct jt_body b;
        unsigned char got[JS_DIGEST_BYTES];
        assert_int_equal(jt_body_read(fd, len + 10, dirfd, &b, got, reason, sizeof reason), -1);
        assert_int_equal(b.len, len);
        assert_non_null(strstr(reason, "Content-Length said"));
        jt_body_free(&b);
        close(fd);
        close(dirfd);
        free(copy);
    }
}

/* data deflated (gzip framing when gz) into a body in memory */
static void deflated(const char *data, size_t len, int gz, struct jt_body *out)
{
    z_stream z = { 0 };
    assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, gz ? 31 : 15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&z, len) + 16;
    memset(out, 0, sizeof *out);
    out->mem = malloc(cap);
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)out->mem;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    out->len = cap - z.avail_out;
    out->data = out->mem;
    deflateEnd(&z);
}

static void compressed_bodies_are_inflated_within_their_bound(void **state)
{
    (void)state;
    int dirfd = open("/tmp", O_RDONLY | O_DIRECTORY);
    for (size_t len = 1000; len <= 3 * JT_BODY_MEMORY_MAX; len += 3 * JT_BODY_MEMORY_MAX - 1000)
        for (int gz = 0; gz <= 1; gz++) {
            char *data = malloc(len), reason[256] = "";
            for (size_t i = 0; i < len; i++)
                data[i] = (char)("{\"slice\": 12345}\n"[i % 16] + (i % 1000 == 0));
            struct jt_body c, out;
            deflated(data, len, gz, &c);
            assert_int_equal(jt_body_inflate(&c, len, dirfd, &out, reason, sizeof reason), 0);
            assert_int_equal(out.len, len);
            assert_memory_equal(out.data, data, len);
            jt_body_free(&out);
            /* one byte less allowed: refused, never held past the bound */
            assert_int_equal(jt_body_inflate(&c, len - 1, dirfd, &out, reason, sizeof reason), -3);
            assert_non_null(strstr(reason, "inflates to more than"));
            assert_true(out.len <= len - 1);
            jt_body_free(&out);
            jt_body_free(&c);
            free(data);
        }
    close(dirfd);
}

static void a_bomb_corrupt_or_trailing_body_is_refused(void **state)
{
    (void)state;
    int dirfd = open("/tmp", O_RDONLY | O_DIRECTORY);
    size_t big = 64u << 20; /* 64 MiB of zeros: a few dozen kB of gzip */
    char *zeros = calloc(1, big), reason[256] = "";
    struct jt_body c, out;
    deflated(zeros, big, 1, &c);
    free(zeros);
    assert_true(c.len < 200000);
    assert_int_equal(jt_body_inflate(&c, 1 << 20, dirfd, &out, reason, sizeof reason), -3);
    assert_true(out.len <= 1 << 20);
    jt_body_free(&out);
    /* truncated */
    c.len /= 2;
    assert_int_equal(jt_body_inflate(&c, big, dirfd, &out, reason, sizeof reason), -1);
    jt_body_free(&out);
    jt_body_free(&c);
    /* not compressed at all */
    struct jt_body plain = { .data = "jobscreen-parcel 1 job.1\nend\n", .len = 29 };
    assert_int_equal(jt_body_inflate(&plain, 1 << 20, dirfd, &out, reason, sizeof reason), -1);
    jt_body_free(&out);
    /* bytes after the compressed stream */
    deflated("abc", 3, 1, &c);
    char *t = malloc(c.len + 4);
    memcpy(t, c.data, c.len);
    memcpy(t + c.len, "more", 4);
    struct jt_body trail = { .data = t, .len = c.len + 4 };
    assert_int_equal(jt_body_inflate(&trail, 1 << 20, dirfd, &out, reason, sizeof reason), -1);
    assert_non_null(strstr(reason, "after the end"));
    jt_body_free(&out);
    jt_body_free(&c);
    free(t);
    close(dirfd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_small_body_is_read_into_memory),
        cmocka_unit_test(a_large_body_goes_through_a_temporary_file),
        cmocka_unit_test(a_body_that_ends_early_is_told),
        cmocka_unit_test(compressed_bodies_are_inflated_within_their_bound),
        cmocka_unit_test(a_bomb_corrupt_or_trailing_body_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
