/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "slices.h"

#include <string.h>

_Static_assert(JS_SLICE_COLS <= 64, "the slice bit mask holds at most 64 values");

static size_t varint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

static unsigned char *varint_put(unsigned char *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    *p++ = (unsigned char)v;
    return p;
}

static int varint_get(const unsigned char *buf, size_t len, size_t *pos, uint64_t *out)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64 && *pos < len; shift += 7) {
        unsigned char b = buf[(*pos)++];
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return 1;
        }
    }
    return 0;
}

void js_slices_init(struct js_slices *s, unsigned char *buf, size_t cap)
{
    memset(s, 0, sizeof *s);
    s->buf = buf;
    s->cap = buf ? cap : 0;
}

int js_slices_append(struct js_slices *s, int64_t slice, const uint64_t vec[JS_SLICE_COLS])
{
    if (s->truncated)
        return -1;
    if (s->count > 0 && slice <= s->last) {
        /* the last slice again (a fold at exec, then at exit): add into it and re-encode */
        struct js_slices_iter it;
        uint64_t old[JS_SLICE_COLS], sum[JS_SLICE_COLS];
        int64_t sl;
        js_slices_iter_init(&it, s);
        it.pos = s->last_pos;
        it.n = s->count - 1;
        it.slice = s->last_prev;
        if (s->count == 1)
            it.n = 0;
        if (!js_slices_next(&it, &sl, old))
            return -1;
        for (int m = 0; m < JS_SLICE_COLS; m++)
            sum[m] = old[m] + vec[m];
        s->len = s->last_pos;
        s->count--;
        s->last = s->last_prev;
        return js_slices_append(s, sl, sum);
    }
    /* the first entry stores the slice itself (zigzag, it may be negative in tests) */
    uint64_t head = s->count == 0 ? ((uint64_t)slice << 1) ^ (uint64_t)(slice >> 63)
                                  : (uint64_t)(slice - s->last);
    uint64_t mask = 0;
    size_t need = varint_len(head);
    for (int m = 0; m < JS_SLICE_COLS; m++)
        if (vec[m]) {
            mask |= 1ULL << m;
            need += varint_len(vec[m]);
        }
    need += varint_len(mask);
    if (s->len + need > s->cap) {
        s->truncated = 1;
        return -1;
    }
    unsigned char *p = s->buf + s->len;
    s->last_pos = s->len;
    s->last_prev = s->last;
    p = varint_put(p, head);
    p = varint_put(p, mask);
    for (int m = 0; m < JS_SLICE_COLS; m++)
        if (vec[m])
            p = varint_put(p, vec[m]);
    s->len = (size_t)(p - s->buf);
    s->last = slice;
    s->count++;
    return 0;
}

void js_slices_iter_init(struct js_slices_iter *it, const struct js_slices *s)
{
    memset(it, 0, sizeof *it);
    it->s = s;
}

int js_slices_next(struct js_slices_iter *it, int64_t *slice, uint64_t vec[JS_SLICE_COLS])
{
    const struct js_slices *s = it->s;
    uint64_t head, mask;
    if (it->n >= s->count)
        return 0;
    if (!varint_get(s->buf, s->len, &it->pos, &head) || !varint_get(s->buf, s->len, &it->pos, &mask))
        return 0;
    if (it->n == 0)
        it->slice = (int64_t)(head >> 1) ^ -(int64_t)(head & 1);
    else
        it->slice += (int64_t)head;
    for (int m = 0; m < JS_SLICE_COLS; m++) {
        vec[m] = 0;
        if ((mask >> m) & 1)
            if (!varint_get(s->buf, s->len, &it->pos, &vec[m]))
                return 0;
    }
    it->n++;
    *slice = it->slice;
    return 1;
}
