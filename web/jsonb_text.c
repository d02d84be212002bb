/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A json or jsonb cell of a query's result, written as the reply's JSON text without building
 * it as Jansson objects first: the text PostgreSQL sends is rewritten token by token into
 * what json_loads followed by jsw_text_json would give (compact; "/" escaped; reals as
 * jsw_text_real writes them). A job of 900 files and 1,644 edges has 2,500 such cells; loaded
 * and dumped through Jansson they were a sixth of the CGI's time. Anything this does not copy
 * exactly (a \u escape, an integer beyond 64 bits, a real that does not fit a double, deep
 * nesting, text that is not UTF-8) makes it give up, and the caller takes Jansson's way. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsweb.h"

/* Whether s is UTF-8 as Jansson accepts it (json_string): no overlong forms, no surrogates,
 * nothing above U+10FFFF. The database is UTF-8, so this holds but for a bug: the cost is a
 * pass over bytes that are mostly ASCII. */
bool jsw_utf8_valid(const unsigned char *s)
{
    while (*s) {
        if (*s < 0x80) {
            s++;
            continue;
        }
        int n;
        uint32_t cp;
        if (*s >= 0xc2 && *s <= 0xdf)
            n = 1, cp = *s & 0x1f;
        else if (*s >= 0xe0 && *s <= 0xef)
            n = 2, cp = *s & 0x0f;
        else if (*s >= 0xf0 && *s <= 0xf4)
            n = 3, cp = *s & 0x07;
        else
            return false;
        for (int i = 1; i <= n; i++) {
            if ((s[i] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (s[i] & 0x3f);
        }
        if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
            return false;
        s += n + 1;
    }
    return true;
}

#define MAX_DEPTH 512 /* well within Jansson's JSON_PARSER_MAX_DEPTH (2048): deeper, Jansson's way */

/* A string token at *p (its opening quote): copied with "/" escaped as Jansson's dump with
 * JSON_ESCAPE_SLASH does; PostgreSQL's own escapes (\" \\ \b \f \n \r \t) read the same in both.
 * false on a \u escape or an unterminated string. */
static bool copy_string(struct jsw_text *t, const char **p)
{
    const char *s = *p + 1, *run = *p;
    for (;; s++) {
        if (*s == '\0')
            return false;
        if (*s == '"')
            break;
        if (*s == '/') {
            jsw_text_raw(t, run, (size_t)(s - run));
            jsw_text_raw(t, "\\/", 2);
            run = s + 1;
        } else if (*s == '\\') {
            if (!strchr("\"\\/bfnrt", s[1]) || s[1] == '\0')
                return false;
            if (s[1] == '/') { /* PostgreSQL never writes it; Jansson would keep it escaped */
                jsw_text_raw(t, run, (size_t)(s - run));
                jsw_text_raw(t, "\\/", 2);
                run = s + 2;
            }
            s++;
        } else if ((unsigned char)*s < 0x20) {
            return false; /* not valid JSON: Jansson refuses it */
        }
    }
    jsw_text_raw(t, run, (size_t)(s + 1 - run));
    *p = s + 1;
    return true;
}

/* A number token: an integer as it is (Jansson reads it as a 64-bit integer), a real read and
 * written as jsw_text_real writes it. false where Jansson would refuse it (out of range). */
static bool copy_number(struct jsw_text *t, const char **p)
{
    const char *s = *p;
    bool real = false;
    size_t n = 0;
    while (strchr("+-0123456789.eE", s[n]) && s[n] != '\0') {
        if (s[n] == '.' || s[n] == 'e' || s[n] == 'E')
            real = true;
        n++;
    }
    char *end;
    errno = 0;
    if (real) {
        double v = strtod(s, &end);
        if (end != s + n || errno == ERANGE || !isfinite(v))
            return false;
        jsw_text_real(t, v);
    } else {
        long long v = strtoll(s, &end, 10);
        if (end != s + n || errno == ERANGE)
            return false;
        jsw_text_int(t, v);
    }
    *p = s + n;
    return true;
}

/* true, false or null at *p, copied */
static bool copy_word(struct jsw_text *t, const char **p, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(*p, word, n))
        return false;
    jsw_text_raw(t, word, n);
    *p += n;
    return true;
}

bool jsw_text_jsonb(struct jsw_text *t, const char *v)
{
    if (!jsw_utf8_valid((const unsigned char *)v))
        return false;
    size_t start = t->n;
    int depth = 0;
    const char *p = v;
    bool ok = true;
    while (ok && *p) {
        switch (*p) {
        case ' ': case '\t': case '\n': case '\r':
            p++;
            break;
        case '{': case '[':
            ok = ++depth <= MAX_DEPTH;
            jsw_text_raw(t, p++, 1);
            break;
        case '}': case ']':
            depth--;
            jsw_text_raw(t, p++, 1);
            break;
        case ',': case ':':
            jsw_text_raw(t, p++, 1);
            break;
        case '"':
            ok = copy_string(t, &p);
            break;
        case 't':
            ok = copy_word(t, &p, "true");
            break;
        case 'f':
            ok = copy_word(t, &p, "false");
            break;
        case 'n':
            ok = copy_word(t, &p, "null");
            break;
        default:
            ok = (*p == '-' || (*p >= '0' && *p <= '9')) && copy_number(t, &p);
        }
    }
    if (!ok || depth != 0 || t->n == start || t->oom) {
        if (!t->oom)
            t->n = start; /* what was written of it is dropped: the caller writes it anew */
        if (t->buf)
            t->buf[t->n] = '\0';
        return false;
    }
    return true;
}
