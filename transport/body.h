/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The body of a request, read in bounded memory (docs/transport.md, "Storing"): a small one
 * into memory, a larger one into an unnamed temporary file (O_TMPFILE) in the received spool,
 * mapped read-only once it is in, so that a parcel of 64 MiB costs the receiver a buffer of
 * JT_BODY_CHUNK bytes and page cache, not 64 MiB of its own memory. Hashed (SHA-256) as it is
 * read, for the credential. */
#ifndef JT_BODY_H
#define JT_BODY_H

#include <stddef.h>

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

/* Read want bytes from fd (dirfd: where a large body's temporary file goes) into b, their
 * SHA-256 into digest. 0; -1 when fd ended early (b->len: what came, reason says so); -2 when
 * it cannot be held (memory, the temporary file: reason). b is to be freed in every case. */
int jt_body_read(int fd, size_t want, int dirfd, struct jt_body *b, unsigned char digest[JS_DIGEST_BYTES], char *reason,
                 size_t rsize);
void jt_body_free(struct jt_body *b);

#endif
