/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a request's body in bounded memory (body.h). */
#include "config.h"

#include "body.h"
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A read that retries on EINTR: bytes, 0 at the end, -1. */
static ssize_t read_some(int fd, void *buf, size_t len)
{
    ssize_t r;
    do
        r = read(fd, buf, len);
    while (r < 0 && errno == EINTR);
    return r;
}

/* Into memory: want bytes at most, all at once. */
static int read_to_memory(int fd, size_t want, struct jt_body *b, struct js_sha256_stream *h, char *reason, size_t rsize)
{
    b->mem = malloc(want + 1);
    if (!b->mem) {
        snprintf(reason, rsize, "out of memory for a body of %zu bytes", want);
        return -2;
    }
    b->data = b->mem;
    while (b->len < want) {
        size_t ask = want - b->len < JT_BODY_CHUNK ? want - b->len : JT_BODY_CHUNK;
        ssize_t r = read_some(fd, b->mem + b->len, ask);
        if (r <= 0)
            break;
        if (js_sha256_add(h, b->mem + b->len, (size_t)r) < 0) {
            snprintf(reason, rsize, "SHA-256 failed");
            return -2;
        }
        b->len += (size_t)r;
    }
    return 0;
}

/* Into the temporary file tfd through a buffer of JT_BODY_CHUNK bytes, then mapped. */
static int read_to_file(int fd, int tfd, size_t want, struct jt_body *b, struct js_sha256_stream *h, char *reason,
                        size_t rsize)
{
    char *buf = malloc(JT_BODY_CHUNK);
    int rc = 0;
    if (!buf) {
        snprintf(reason, rsize, "out of memory");
        return -2;
    }
    while (b->len < want) {
        size_t ask = want - b->len < JT_BODY_CHUNK ? want - b->len : JT_BODY_CHUNK;
        ssize_t r = read_some(fd, buf, ask);
        if (r <= 0)
            break;
        if (js_sha256_add(h, buf, (size_t)r) < 0 || jt_write_all(tfd, buf, (size_t)r) < 0) {
            snprintf(reason, rsize, "cannot hold the body in a temporary file: %s", errno ? strerror(errno) : "SHA-256 failed");
            rc = -2;
            break;
        }
        b->len += (size_t)r;
    }
    free(buf);
    if (rc == 0 && b->len == want) {
        void *m = mmap(NULL, want, PROT_READ, MAP_SHARED, tfd, 0);
        if (m == MAP_FAILED) {
            snprintf(reason, rsize, "cannot map the body's temporary file: %s", strerror(errno));
            return -2;
        }
        b->map = m;
        b->data = m;
    }
    return rc;
}

int jt_body_read(int fd, size_t want, int dirfd, struct jt_body *b, unsigned char digest[JS_DIGEST_BYTES], char *reason,
                 size_t rsize)
{
    memset(b, 0, sizeof *b);
    struct js_sha256_stream *h = js_sha256_open();
    if (!h) {
        snprintf(reason, rsize, "SHA-256: out of memory");
        return -2;
    }
    int tfd = -1, rc;
#ifdef O_TMPFILE
    if (want > JT_BODY_MEMORY_MAX)
        tfd = openat(dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#else
    (void)dirfd;
#endif
    /* no O_TMPFILE here (file system, kernel): in memory, as large as max_bytes allows */
    errno = 0;
    rc = tfd >= 0 ? read_to_file(fd, tfd, want, b, h, reason, rsize) : read_to_memory(fd, want, b, h, reason, rsize);
    if (tfd >= 0)
        close(tfd); /* the mapping keeps the file; it goes with the mapping */
    if (js_sha256_close(h, rc == 0 ? digest : NULL) < 0 && rc == 0) {
        snprintf(reason, rsize, "SHA-256 failed");
        rc = -2;
    }
    if (rc == 0 && b->len != want) {
        snprintf(reason, rsize, "body of %zu bytes, Content-Length said %zu", b->len, want);
        rc = -1;
    }
    return rc;
}

void jt_body_free(struct jt_body *b)
{
    if (b->map)
        munmap(b->map, b->len);
    free(b->mem);
    memset(b, 0, sizeof *b);
}
