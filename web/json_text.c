/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON written as text, for replies too large to build as Jansson objects first (a per-slice
 * array of 21,600 numbers is 21,600 json_t objects, allocated, dumped and freed per request).
 * Strings are escaped exactly as Jansson escapes them with JSON_ESCAPE_SLASH, so a reply reads
 * the same whichever way it was written; a failed allocation is remembered and reported once,
 * at the end, instead of checked at every append. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsweb.h"

static bool grow(struct jsw_text *t, size_t more)
{
    if (t->oom)
        return false;
    if (t->n + more + 1 <= t->cap)
        return true;
    size_t cap = t->cap ? t->cap : 4096;
    while (cap < t->n + more + 1)
        cap *= 2;
    char *b = realloc(t->buf, cap);
    if (!b) {
        t->oom = true;
        return false;
    }
    t->buf = b;
    t->cap = cap;
    return true;
}

void jsw_text_raw(struct jsw_text *t, const char *s, size_t n)
{
    if (!grow(t, n))
        return;
    memcpy(t->buf + t->n, s, n);
    t->n += n;
    t->buf[t->n] = '\0';
}

void jsw_text_lit(struct jsw_text *t, const char *s)
{
    jsw_text_raw(t, s, strlen(s));
}

/* "00" .. "99" */
static const char two_digits[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                    "8081828384858687888990919293949596979899";

/* v in decimal at o (at most 20 bytes), the end returned: no snprintf, whose format parsing was
 * half the CPU of a reply of millions of integers (3.9 MB background: 23 % vfprintf alone);
 * two digits a division, as the values (ns, bytes) run to 10-13 digits. */
static char *put_int(char *o, int64_t v)
{
    if (v >= 0 && v < 10) { /* most of a sparse metric's values */
        *o = (char)('0' + v);
        return o + 1;
    }
    char b[20], *e = b + sizeof b, *p = e;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    while (u >= 100) {
        p -= 2;
        memcpy(p, two_digits + 2 * (u % 100), 2);
        u /= 100;
    }
    if (u >= 10) {
        p -= 2;
        memcpy(p, two_digits + 2 * u, 2);
    } else {
        *--p = (char)('0' + u);
    }
    if (v < 0)
        *o++ = '-';
    memcpy(o, p, (size_t)(e - p));
    return o + (e - p);
}

void jsw_text_int(struct jsw_text *t, int64_t v)
{
    if (!grow(t, 20))
        return;
    t->n = (size_t)(put_int(t->buf + t->n, v) - t->buf);
    t->buf[t->n] = '\0';
}

/* As Jansson writes a real: %.17g, with ".0" added when it would read as an integer and the
 * exponent without its "+" and leading zeros (1e20, 1e-5); a value that is not finite is null
 * (JSON has no NaN). */
void jsw_text_real(struct jsw_text *t, double v)
{
    if (!isfinite(v)) {
        jsw_text_raw(t, "null", 4);
        return;
    }
    char b[40];
    int n = snprintf(b, sizeof b, "%.17g", v);
    if (!strpbrk(b, ".eE") && n < (int)sizeof b - 2) {
        b[n++] = '.';
        b[n++] = '0';
        b[n] = '\0'; /* else the search for an exponent below reads what the stack held after it */
    }
    char *e = strchr(b, 'e');
    if (e) {
        char *from = e + 1, *to = e + 1;
        if (*from == '+')
            from++;
        else if (*from == '-')
            from++, to++;
        while (*from == '0' && from[1])
            from++;
        memmove(to, from, strlen(from) + 1);
        n = (int)strlen(b);
    }
    jsw_text_raw(t, b, (size_t)n);
}

void jsw_text_str(struct jsw_text *t, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    jsw_text_raw(t, "\"", 1);
    const char *run = s;
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        const char *esc = NULL;
        char u[7];
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '/': esc = "\\/"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default:
            if (c < 0x20) {
                memcpy(u, "\\u00", 4);
                u[4] = hex[c >> 4];
                u[5] = hex[c & 15];
                u[6] = '\0';
                esc = u;
            }
        }
        if (!esc)
            continue;
        jsw_text_raw(t, run, (size_t)(p - run));
        jsw_text_lit(t, esc);
        run = p + 1;
    }
    jsw_text_lit(t, run);
    jsw_text_raw(t, "\"", 1);
}

/* a Jansson value, dumped with the flags jsw_reply uses */
void jsw_text_json(struct jsw_text *t, const json_t *v)
{
    size_t n = json_dumpb(v, NULL, 0, JSON_COMPACT | JSON_ESCAPE_SLASH | JSON_ENCODE_ANY);
    if (n == 0 || !grow(t, n)) {
        t->oom = t->oom || n == 0;
        return;
    }
    json_dumpb(v, t->buf + t->n, n, JSON_COMPACT | JSON_ESCAPE_SLASH | JSON_ENCODE_ANY);
    t->n += n;
    t->buf[t->n] = '\0';
}

void jsw_text_int_array(struct jsw_text *t, const int64_t *v, size_t n, size_t stride)
{
    /* room for all of it at once: a comma and 20 bytes a value, the brackets */
    if (!grow(t, 21 * n + 2))
        return;
    char *o = t->buf + t->n;
    *o++ = '[';
    for (size_t i = 0; i < n; i++) {
        if (i)
            *o++ = ',';
        o = put_int(o, v[i * stride]);
    }
    *o++ = ']';
    t->n = (size_t)(o - t->buf);
    t->buf[t->n] = '\0';
}

void jsw_text_int_array_known(struct jsw_text *t, const int64_t *v, const bool *known, size_t n)
{
    if (!grow(t, 21 * n + 2))
        return;
    char *o = t->buf + t->n;
    *o++ = '[';
    for (size_t i = 0; i < n; i++) {
        if (i)
            *o++ = ',';
        if (known[i]) {
            o = put_int(o, v[i]);
        } else {
            memcpy(o, "null", 4);
            o += 4;
        }
    }
    *o++ = ']';
    t->n = (size_t)(o - t->buf);
    t->buf[t->n] = '\0';
}

char *jsw_text_take(struct jsw_text *t, size_t *n)
{
    if (t->oom) {
        free(t->buf);
        memset(t, 0, sizeof *t);
        return NULL;
    }
    if (!t->buf && !grow(t, 0))
        return NULL;
    char *b = t->buf;
    *n = t->n;
    memset(t, 0, sizeof *t);
    return b;
}

void jsw_text_free(struct jsw_text *t)
{
    free(t->buf);
    memset(t, 0, sizeof *t);
}
