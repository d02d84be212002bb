/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tiny JSON text writer for the profiler: no allocation, no stdio, no locale; buffered
 * output through a caller-given write function (the real write(2), never the wrapped one).
 */
#ifndef JS_JSONW_H
#define JS_JSONW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct js_out {
    int fd;
    ssize_t (*write_fn)(int, const void *, size_t);
    int err;            /* errno of the first failed write, 0 when all went well */
    uint64_t total;     /* bytes handed to write_fn */
    uint64_t limit;     /* stop (err = EFBIG) past this many bytes */
    size_t n;
    char buf[65536];
};

void js_out_init(struct js_out *o, int fd, ssize_t (*write_fn)(int, const void *, size_t), uint64_t limit);
void js_out_raw(struct js_out *o, const char *s, size_t len);
void js_out_lit(struct js_out *o, const char *s);          /* NUL-terminated, unescaped */
void js_out_str(struct js_out *o, const char *s, size_t max); /* quoted, escaped, at most max bytes */
void js_out_u64(struct js_out *o, uint64_t v);
void js_out_i64(struct js_out *o, int64_t v);
int js_out_flush(struct js_out *o);                        /* 0, or -1 with err set */

/* "name": prefix with the comma handling left to the caller */
void js_out_key(struct js_out *o, const char *name);

#endif
