/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Compact storage of per-slice vectors (JS_SLICE_COLS: the metrics, then the kernel's counts)
 * in a fixed budget: per active slice, a varint of the slice's distance to the previous one, a
 * varint bit mask of the nonzero values, then a varint per nonzero value. Typical I/O slices
 * take 10-40 bytes, so a day of 4 s slices
 * (21600) fits in well under JS_PROFILE_SLICE_BUDGET. No allocation: the caller owns the buffer.
 */
#ifndef JS_SLICES_H
#define JS_SLICES_H

#include <stddef.h>
#include <stdint.h>

#include "profile_format.h"

struct js_slices {
    unsigned char *buf;
    size_t cap, len;
    int64_t last;       /* slice index of the last entry */
    int64_t last_prev;  /* slice index of the entry before it */
    size_t last_pos;    /* offset of the last entry */
    uint64_t count;     /* entries stored */
    int truncated;      /* an entry did not fit: it and all later ones are missing */
};

void js_slices_init(struct js_slices *s, unsigned char *buf, size_t cap);
/* Appends one slice; a slice not after the last one is added into the last entry. Returns 0,
 * or -1 when the budget is exhausted (then truncated is set and nothing more is stored). */
int js_slices_append(struct js_slices *s, int64_t slice, const uint64_t vec[JS_SLICE_COLS]);

struct js_slices_iter {
    const struct js_slices *s;
    size_t pos;
    int64_t slice;
    uint64_t n;
};
void js_slices_iter_init(struct js_slices_iter *it, const struct js_slices *s);
/* Next entry into *slice and vec; 1 when one was read, 0 at the end. */
int js_slices_next(struct js_slices_iter *it, int64_t *slice, uint64_t vec[JS_SLICE_COLS]);

#endif
