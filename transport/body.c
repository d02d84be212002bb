/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a request's body in bounded memory, and inflating a compressed one (body.h). */
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
#include <zlib.h>

/* Where a body goes as it comes: memory up to JT_BODY_MEMORY_MAX, then (moved there) an
 * unnamed temporary file in dirfd; mapped at the end. */
struct sink {
    struct jt_body *b;
    int dirfd, tfd;
    size_t cap;
};

static int sink_put(struct sink *s, const char *data, size_t n, char *reason, size_t rsize)
{
    struct jt_body *b = s->b;
#ifdef O_TMPFILE
    if (s->tfd < 0 && b->len + n > JT_BODY_MEMORY_MAX) {
        s->tfd = openat(s->dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        /* no O_TMPFILE here (file system, kernel): in memory, as large as max_bytes allows */
        if (s->tfd >= 0 && jt_write_all(s->tfd, b->mem, b->len) < 0) {
            snprintf(reason, rsize, "cannot hold the body in a temporary file: %s", strerror(errno));
            return -2;
        }
        if (s->tfd >= 0) {
            free(b->mem);
            b->mem = NULL;
            s->cap = 0;
        }
    }
#endif
    if (s->tfd >= 0) {
        if (jt_write_all(s->tfd, data, n) < 0) {
            snprintf(reason, rsize, "cannot hold the body in a temporary file: %s", strerror(errno));
            return -2;
        }
    } else {
        if (b->len + n + 1 > s->cap) {
            size_t cap = s->cap ? s->cap : 16384;
            while (cap < b->len + n + 1)
                cap *= 2;
            char *m = realloc(b->mem, cap);
            if (!m) {
                snprintf(reason, rsize, "out of memory for a body of %zu bytes", b->len + n);
                return -2;
            }
            b->mem = m;
            s->cap = cap;
        }
        memcpy(b->mem + b->len, data, n);
    }
    b->len += n;
    return 0;
}

/* The body is in: the temporary file mapped (and closed: the mapping keeps it). */
static int sink_finish(struct sink *s, char *reason, size_t rsize)
{
    struct jt_body *b = s->b;
    int rc = 0;
    if (s->tfd >= 0 && b->len) {
        void *m = mmap(NULL, b->len, PROT_READ, MAP_SHARED, s->tfd, 0);
        if (m == MAP_FAILED) {
            snprintf(reason, rsize, "cannot map the body's temporary file: %s", strerror(errno));
            rc = -2;
        } else
            b->map = m;
    }
    if (s->tfd >= 0)
        close(s->tfd);
    s->tfd = -1;
    b->data = b->map ? b->map : b->mem;
    return rc;
}

/* A read that retries on EINTR: bytes, 0 at the end, -1. */
static ssize_t read_fd(void *ctx, void *buf, size_t len)
{
    ssize_t r;
    do
        r = read(*(int *)ctx, buf, len);
    while (r < 0 && errno == EINTR);
    return r;
}

int jt_body_read_from(jt_read_fn rd, void *ctx, size_t want, int dirfd, struct jt_body *b,
                      unsigned char digest[JS_DIGEST_BYTES], char *reason, size_t rsize)
{
    memset(b, 0, sizeof *b);
    struct js_sha256_stream *h = js_sha256_open();
    char *buf = malloc(JT_BODY_CHUNK);
    struct sink s = { .b = b, .dirfd = dirfd, .tfd = -1 };
    int rc = 0;
    if (!h || !buf) {
        snprintf(reason, rsize, "out of memory");
        rc = -2;
    }
    while (rc == 0 && b->len < want) {
        size_t ask = want - b->len < JT_BODY_CHUNK ? want - b->len : JT_BODY_CHUNK;
        ssize_t r = rd(ctx, buf, ask);
        if (r <= 0)
            break;
        if (js_sha256_add(h, buf, (size_t)r) < 0) {
            snprintf(reason, rsize, "SHA-256 failed");
            rc = -2;
        } else
            rc = sink_put(&s, buf, (size_t)r, reason, rsize);
    }
    free(buf);
    if (rc == 0 && b->len != want) {
        snprintf(reason, rsize, "body of %zu bytes, Content-Length said %zu", b->len, want);
        rc = -1;
    }
    if (sink_finish(&s, reason, rsize) < 0 && rc == 0)
        rc = -2;
    if (h && js_sha256_close(h, rc == 0 ? digest : NULL) < 0 && rc == 0) {
        snprintf(reason, rsize, "SHA-256 failed");
        rc = -2;
    }
    return rc;
}

int jt_body_read(int fd, size_t want, int dirfd, struct jt_body *b, unsigned char digest[JS_DIGEST_BYTES], char *reason,
                 size_t rsize)
{
    return jt_body_read_from(read_fd, &fd, want, dirfd, b, digest, reason, rsize);
}

int jt_body_inflate(const struct jt_body *in, size_t max, int dirfd, struct jt_body *out, char *reason, size_t rsize)
{
    memset(out, 0, sizeof *out);
    z_stream z = { 0 };
    /* 15 + 32: a zlib or a gzip header, whichever it is */
    if (inflateInit2(&z, 15 + 32) != Z_OK) {
        snprintf(reason, rsize, "zlib: out of memory");
        return -2;
    }
    char *buf = malloc(JT_BODY_CHUNK);
    struct sink s = { .b = out, .dirfd = dirfd, .tfd = -1 };
    int rc = buf ? 0 : -2, zr = Z_OK;
    if (!buf)
        snprintf(reason, rsize, "out of memory");
    z.next_in = (Bytef *)in->data;
    z.avail_in = 0;
    size_t fed = 0;
    while (rc == 0 && zr != Z_STREAM_END) {
        /* avail_in is 32 bits: feed a large body in slices */
        if (z.avail_in == 0 && fed < in->len) {
            size_t n = in->len - fed < (1u << 30) ? in->len - fed : (1u << 30);
            z.next_in = (Bytef *)in->data + fed;
            z.avail_in = (uInt)n;
            fed += n;
        }
        z.next_out = (Bytef *)buf;
        z.avail_out = JT_BODY_CHUNK;
        zr = inflate(&z, Z_NO_FLUSH);
        size_t got = JT_BODY_CHUNK - z.avail_out;
        if (zr != Z_OK && zr != Z_STREAM_END && !(zr == Z_BUF_ERROR && got)) {
            snprintf(reason, rsize, "the compressed body is not valid: %s",
                     zr == Z_BUF_ERROR ? "truncated" : z.msg ? z.msg : "zlib error");
            rc = -1;
            break;
        }
        /* the bound before a byte past it is held: a decompression bomb stops here */
        if (out->len + got > max) {
            snprintf(reason, rsize, "the compressed body of %zu bytes inflates to more than %zu bytes (max_bytes)", in->len,
                     max);
            rc = -3;
            break;
        }
        rc = sink_put(&s, buf, got, reason, rsize);
    }
    if (rc == 0 && (z.avail_in || fed < in->len)) {
        snprintf(reason, rsize, "%zu bytes after the end of the compressed body", (size_t)z.avail_in + in->len - fed);
        rc = -1;
    }
    inflateEnd(&z);
    free(buf);
    if (sink_finish(&s, reason, rsize) < 0 && rc == 0)
        rc = -2;
    return rc;
}

void jt_body_free(struct jt_body *b)
{
    if (b->map)
        munmap(b->map, b->len);
    free(b->mem);
    memset(b, 0, sizeof *b);
}
