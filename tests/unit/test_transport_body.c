/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the receiver's body reading (transport/body.c, docs/transport.md, "Storing"):
 * a small body in memory, a large one through an unnamed temporary file and mapped (when the
 * file system has O_TMPFILE), each hashed as it came; a body that ends early says so. */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_small_body_is_read_into_memory),
        cmocka_unit_test(a_large_body_goes_through_a_temporary_file),
        cmocka_unit_test(a_body_that_ends_early_is_told),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
