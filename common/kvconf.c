/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one reader of jobscreen's configuration (kvconf.h; docs/architecture.md, "Configuration
 * files"). */
#include "config.h"

#include "kvconf.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* A '#' first on the line or after a blank starts a comment; one inside a word is kept, since
 * passwords in a libpq connection string and URLs may hold it. */
static void cut_comment(char *s)
{
    for (char *p = s; *p; p++)
        if (*p == '#' && (p == s || is_blank(p[-1]))) {
            *p = '\0';
            return;
        }
}

static void at_line(char *err, size_t errsize, const char *name, int line, const char *why)
{
    if (name)
        snprintf(err, errsize, "%s:%d: %s", name, line, why);
    else
        snprintf(err, errsize, "line %d: %s", line, why);
}

int js_kv_parse_text(const char *text, const char *name, js_kv_set_fn set, void *ctx, char *err, size_t errsize)
{
    char *copy = strdup(text);
    if (!copy) {
        snprintf(err, errsize, "%s%sout of memory", name ? name : "", name ? ": " : "");
        return -1;
    }
    int rc = 0, line = 0;
    for (char *l = copy, *next; l && rc == 0; l = next) {
        next = strchr(l, '\n');
        if (next)
            *next++ = '\0';
        line++;
        char *s = trim(l);
        cut_comment(s);
        s = trim(s);
        if (!*s)
            continue;
        /* only the first '=' splits: values (connection strings) hold more */
        char *eq = strchr(s, '=');
        if (!eq || eq == s) {
            at_line(err, errsize, name, line, "expected 'key = value'");
            rc = -1;
            break;
        }
        *eq = '\0';
        char why[1024] = "";
        if (set(ctx, trim(s), trim(eq + 1), why, sizeof why) < 0) {
            at_line(err, errsize, name, line, why[0] ? why : "bad line");
            rc = -1;
        }
    }
    free(copy);
    return rc;
}

int js_kv_parse_file(const char *path, js_kv_set_fn set, void *ctx, char *err, size_t errsize)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        int e = errno;
        snprintf(err, errsize, "%s: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    char *text = malloc(JS_KV_FILE_MAX + 1);
    if (!text) {
        fclose(f);
        snprintf(err, errsize, "%s: out of memory", path);
        errno = 0;
        return -1;
    }
    size_t n = fread(text, 1, JS_KV_FILE_MAX + 1, f);
    int read_errno = ferror(f) ? errno : 0;
    fclose(f);
    int rc = -1;
    if (read_errno)
        snprintf(err, errsize, "%s: %s", path, strerror(read_errno));
    else if (n > JS_KV_FILE_MAX)
        snprintf(err, errsize, "%s: larger than %d bytes", path, JS_KV_FILE_MAX);
    else if (memchr(text, '\0', n))
        snprintf(err, errsize, "%s: contains a NUL byte", path);
    else {
        text[n] = '\0';
        rc = js_kv_parse_text(text, path, set, ctx, err, errsize);
    }
    free(text);
    errno = read_errno;
    return rc;
}

int js_kv_bool(const char *value)
{
    static const char *const yes[] = { "yes", "true", "on", "1" };
    static const char *const no[] = { "no", "false", "off", "0" };
    if (!value)
        return -1;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (!strcasecmp(value, yes[i]))
            return 1;
        if (!strcasecmp(value, no[i]))
            return 0;
    }
    return -1;
}

int js_kv_int(const char *value, long long lo, long long hi, long long *out)
{
    const char *digits = value && (*value == '+' || *value == '-') ? value + 1 : value;
    if (!digits || !isdigit((unsigned char)*digits))
        return -1; /* strtoll alone would take leading blanks */
    char *end;
    int saved = errno;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    int bad = errno != 0 || *end != '\0' || v < lo || v > hi;
    errno = saved;
    if (bad)
        return -1;
    *out = v;
    return 0;
}

int js_kv_size(const char *value, long long lo, long long hi, long long *out)
{
    if (!value || !isdigit((unsigned char)*value))
        return -1;
    char *end;
    int saved = errno;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    int overflow = errno != 0;
    errno = saved;
    int shift = 0;
    if (*end) {
        const char *units = "KMGT", *u = strchr(units, toupper((unsigned char)*end));
        if (!u || end[1] != '\0')
            return -1;
        shift = 10 * (int)(u - units + 1);
    }
    if (overflow || v > (unsigned long long)(LLONG_MAX >> shift))
        return -1;
    long long bytes = (long long)(v << shift);
    if (bytes < lo || bytes > hi)
        return -1;
    *out = bytes;
    return 0;
}

#define LIST_SEPARATORS ", \t"

const char *js_kv_list_next(const char **cursor, size_t *len)
{
    const char *p = *cursor;
    if (!p)
        return NULL;
    p += strspn(p, LIST_SEPARATORS);
    if (!*p) {
        *cursor = p;
        return NULL;
    }
    *len = strcspn(p, LIST_SEPARATORS);
    *cursor = p + *len;
    return p;
}

int js_kv_list_has_empty(const char *value)
{
    int after_element = 0; /* a comma now ends an element rather than an empty one */
    for (const char *p = value; *p; p++) {
        if (*p == ',') {
            if (!after_element)
                return 1;
            after_element = 0;
        } else if (!is_blank(*p)) {
            after_element = 1;
        }
    }
    return *value && !after_element && strchr(value, ',') != NULL;
}
