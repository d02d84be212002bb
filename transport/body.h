/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The body of a request, read in bounded memory (docs/transport.md, "Storing"): a small one
 * into memory, a larger one into an unnamed temporary file (O_TMPFILE) in the received spool,
 * mapped read-only once it is in, so that a parcel of 64 MiB costs the receiver a buffer of
 * JT_BODY_CHUNK bytes and page cache, not 64 MiB of its own memory. Hashed (SHA-256) as it is
 * read, for the credential. A compressed body (Content-Encoding gzip or deflate) is inflated
 * the same way, after its credential matched, and never beyond a bound. */
#ifndef JT_BODY_H
#define JT_BODY_H

#include <stddef.h>
#include <sys/types.h>

#include "credential.h"

/* Bodies up to this size are read into memory. */
#define JT_BODY_MEMORY_MAX (1024 * 1024)
#define JT_BODY_CHUNK (64 * 1024)

struct jt_body {
    const char *data;  /* the body, len bytes (NULL when len is 0) */
    size_t len;
    char *mem;         /* the memory it is in, or */
    void *map;         /* the mapping of the temporary file */
};

/* Where the body comes from: bytes read into buf (at most len), 0 at its end, -1 on error.
 * A CGI reads its standard input, a FastCGI responder the request's stream. */
typedef ssize_t (*jt_read_fn)(void *ctx, void *buf, size_t len);

/* Read want bytes through rd (dirfd: where a large body's temporary file goes) into b, their
 * SHA-256 into digest. 0; -1 when the input ended early (b->len: what came, reason says so);
 * -2 when it cannot be held (memory, the temporary file: reason). b is to be freed in every
 * case. */
int jt_body_read_from(jt_read_fn rd, void *ctx, size_t want, int dirfd, struct jt_body *b,
                      unsigned char digest[JS_DIGEST_BYTES], char *reason, size_t rsize);
/* The same from a file descriptor. */
int jt_body_read(int fd, size_t want, int dirfd, struct jt_body *b, unsigned char digest[JS_DIGEST_BYTES], char *reason,
                 size_t rsize);

/* Inflate in (gzip or zlib format, told apart by its header) into out, held like a body read
 * (dirfd: the temporary file's place). At most max bytes come out: a body that inflates to
 * more is refused as soon as it passes max, before it fills memory or disk. 0; -1 not a valid
 * compressed body; -3 it inflates to more than max bytes; -2 it cannot be held (reason says
 * which). out is to be freed in every case. */
int jt_body_inflate(const struct jt_body *in, size_t max, int dirfd, struct jt_body *out, char *reason, size_t rsize);

void jt_body_free(struct jt_body *b);

#endif
