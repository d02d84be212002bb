/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-slice series codec: see series.h. */
#include "series.h"

#include <string.h>

int64_t js_series_chunk_of(int64_t slice)
{
    int64_t r = slice % JS_SERIES_CHUNK;
    return slice - (r < 0 ? r + JS_SERIES_CHUNK : r);
}

static unsigned width_of(uint64_t span)
{
    unsigned w = 0;
    while (span) {
        w++;
        span >>= 8;
    }
    return w;
}

size_t js_series_encode(const int64_t *v, size_t n, size_t stride, unsigned char *out)
{
    if (n == 0)
        return 0;
    int64_t lo = v[0], hi = v[0];
    for (size_t i = 1; i < n; i++) {
        int64_t x = v[i * stride];
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    if (lo == 0 && hi == 0)
        return 0;
    unsigned w = width_of((uint64_t)hi - (uint64_t)lo);
    out[0] = (unsigned char)w;
    for (int k = 0; k < 8; k++)
        out[1 + k] = (unsigned char)((uint64_t)lo >> (56 - 8 * k));
    unsigned char *p = out + JS_SERIES_HEADER;
    for (size_t i = 0; i < n && w; i++) {
        uint64_t d = (uint64_t)v[i * stride] - (uint64_t)lo;
        for (unsigned k = 0; k < w; k++)
            *p++ = (unsigned char)(d >> (8 * (w - 1 - k)));
    }
    return (size_t)(p - out);
}

static int64_t add_sat(int64_t a, int64_t b, long *saturated)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        (*saturated)++;
        return b > 0 ? INT64_MAX : INT64_MIN;
    }
    return r;
}

int js_series_add(const unsigned char *b, size_t len, size_t n, int64_t *out, size_t stride, long *saturated)
{
    if (len == 0)
        return 0;
    if (len < JS_SERIES_HEADER || b[0] > 8 || len != JS_SERIES_HEADER + (size_t)b[0] * n)
        return -1;
    unsigned w = b[0];
    uint64_t base = 0;
    for (int k = 0; k < 8; k++)
        base = base << 8 | b[1 + k];
    const unsigned char *p = b + JS_SERIES_HEADER;
    for (size_t i = 0; i < n; i++) {
        uint64_t d = 0;
        for (unsigned k = 0; k < w; k++)
            d = d << 8 | *p++;
        out[i * stride] = add_sat(out[i * stride], (int64_t)(base + d), saturated);
    }
    return 0;
}

int js_series_add_window(const unsigned char *b, size_t len, int64_t first, size_t n, int64_t win_first,
                         size_t win_n, int64_t *out, size_t stride, int64_t *tmp, long *saturated)
{
    /* the series' part inside the window: its values [lo, hi) */
    int64_t lo = win_first > first ? win_first - first : 0;
    int64_t end = win_first + (int64_t)win_n - first;
    int64_t hi = end < (int64_t)n ? end : (int64_t)n;
    if (len == 0 || lo >= hi)
        return 0;
    if (lo == 0 && hi == (int64_t)n) /* all of it: decoded and added in place */
        return js_series_add(b, len, n, out + (size_t)(first - win_first) * stride, stride, saturated);
    memset(tmp, 0, n * sizeof *tmp);
    if (js_series_add(b, len, n, tmp, 1, saturated) < 0)
        return -1;
    for (int64_t i = lo; i < hi; i++) {
        int64_t *d = out + (size_t)(first + i - win_first) * stride;
        *d = add_sat(*d, tmp[i], saturated);
    }
    return 0;
}

long js_series_unhex(const char *t, unsigned char *out, size_t cap)
{
    if (t[0] != '\\' || t[1] != 'x')
        return -1;
    size_t n = strlen(t + 2);
    if (n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int v = 0;
        for (int k = 0; k < 2; k++) {
            char c = t[2 + 2 * i + k];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0)
                return -1;
            v = v * 16 + d;
        }
        out[i] = (unsigned char)v;
    }
    return (long)(n / 2);
}
