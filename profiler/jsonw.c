/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "jsonw.h"

#include <errno.h>
#include <string.h>

void js_out_init(struct js_out *o, int fd, ssize_t (*write_fn)(int, const void *, size_t), uint64_t limit)
{
    o->fd = fd;
    o->write_fn = write_fn;
    o->err = 0;
    o->total = 0;
    o->limit = limit;
    o->n = 0;
}

int js_out_flush(struct js_out *o)
{
    size_t off = 0;
    while (!o->err && off < o->n) {
        ssize_t w = o->write_fn(o->fd, o->buf + off, o->n - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            o->err = errno ? errno : EIO;
        } else if (w == 0) {
            o->err = ENOSPC;
        } else {
            off += (size_t)w;
            o->total += (uint64_t)w;
        }
    }
    o->n = 0;
    return o->err ? -1 : 0;
}

void js_out_raw(struct js_out *o, const char *s, size_t len)
{
    while (len > 0 && !o->err) {
        if (o->limit && o->total + o->n + len > o->limit) {
            o->err = EFBIG;
            return;
        }
        if (o->n == sizeof o->buf)
            js_out_flush(o);
        size_t k = sizeof o->buf - o->n;
        if (k > len)
            k = len;
        memcpy(o->buf + o->n, s, k);
        o->n += k;
        s += k;
        len -= k;
    }
}

void js_out_lit(struct js_out *o, const char *s)
{
    js_out_raw(o, s, strlen(s));
}

/* Length of the valid UTF-8 sequence at s (at most left bytes), 0 when not valid. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
    unsigned c = s[0];
    size_t n;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n > left)
        return 0;
    unsigned cp = c & (0xff >> (n + 1));
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

void js_out_str(struct js_out *o, const char *str, size_t max)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)str;
    size_t len = strnlen(str, max);
    js_out_raw(o, "\"", 1);
    for (size_t i = 0; i < len;) {
        unsigned char c = s[i];
        char esc[6];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            js_out_raw(o, esc, 2);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            const char *short_esc = NULL;
            switch (c) {
            case '\n': short_esc = "\\n"; break;
            case '\r': short_esc = "\\r"; break;
            case '\t': short_esc = "\\t"; break;
            case '\b': short_esc = "\\b"; break;
            case '\f': short_esc = "\\f"; break;
            default: break;
            }
            if (short_esc) {
                js_out_raw(o, short_esc, 2);
            } else {
                memcpy(esc, "\\u00", 4);
                esc[4] = hex[c >> 4];
                esc[5] = hex[c & 15];
                js_out_raw(o, esc, 6);
            }
            i++;
        } else {
            size_t k = utf8_len(s + i, len - i);
            if (k == 0) { /* a byte that is not UTF-8: keep it visible as U+00XX */
                memcpy(esc, "\\u00", 4);
                esc[4] = hex[c >> 4];
                esc[5] = hex[c & 15];
                js_out_raw(o, esc, 6);
                i++;
            } else {
                js_out_raw(o, (const char *)s + i, k);
                i += k;
            }
        }
    }
    js_out_raw(o, "\"", 1);
}

void js_out_u64(struct js_out *o, uint64_t v)
{
    char b[24];
    int i = (int)sizeof b;
    do {
        b[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    js_out_raw(o, b + i, sizeof b - (size_t)i);
}

void js_out_i64(struct js_out *o, int64_t v)
{
    if (v < 0) {
        js_out_raw(o, "-", 1);
        js_out_u64(o, (uint64_t)0 - (uint64_t)v);
    } else {
        js_out_u64(o, (uint64_t)v);
    }
}

void js_out_key(struct js_out *o, const char *name)
{
    js_out_raw(o, "\"", 1);
    js_out_lit(o, name);
    js_out_raw(o, "\":", 2);
}
