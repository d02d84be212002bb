/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * expand-metrics: write a template with its metric lists expanded from the one definition of
 * the metrics (JS_PROFILE_METRICS and JS_PROFILE_KERNEL_IO_FIELDS in common/profile_format.h).
 * The SQL files of sql/objects.am's SQL_TEMPLATES (views, functions, migrate/after.sql), the
 * CGI's queries and the viewer's metric table are such templates (FILE.in), so that no file
 * spells the list by hand (tests/unit/metric-lists.sh checks it).
 *
 *   expand-metrics < TEMPLATE > FILE
 *
 * A directive  @LIST{ITEM}{SEP}@  becomes ITEM once per entry of LIST, joined by SEP:
 *   LIST   metrics     the profile's metrics (posix_read_calls ... cpu_ns)
 *          kernel      the kernel's counts per slice (kernel_rchar ... kernel_write_bytes)
 *          slice_cols  the values of a slice row: the metrics, then the kernel's counts
 *   in ITEM and SEP:  {m} the name ({m:N}: padded with blanks to N columns), {u} its unit,
 *                     {d} its meaning as an SQL string's content ('' for '), {i} its 1-based
 *                     position; \n a newline, \\ a backslash.
 * ITEM and SEP may hold balanced braces. Anything else is copied as it is. An unknown list or
 * an unterminated directive is an error naming the line.
 */
#include "config.h"

#include "profile_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The values of a slice row, each with the meaning the header gives it. */
static const struct js_metric_def slice_cols[JS_SLICE_COLS] = {
#define JS_X(id, name, unit, desc) { name, unit, desc },
    JS_PROFILE_METRICS(JS_X)
#undef JS_X
#define JS_X(id, name, unit, desc) { "kernel_" name, unit, desc },
    JS_PROFILE_KERNEL_IO_FIELDS(JS_X)
#undef JS_X
};

struct list {
    const char *name;
    int first, count;
};

static const struct list lists[] = {
    { "metrics", 0, JS_M_COUNT },
    { "kernel", JS_M_COUNT, JS_KIO_COUNT },
    { "slice_cols", 0, JS_SLICE_COLS },
};

static int line_of(const char *text, const char *at)
{
    int n = 1;
    for (const char *p = text; p < at; p++)
        n += *p == '\n';
    return n;
}

/* The balanced {...} at *p: its content's bounds; *p moves past the closing brace. */
static int braced(const char **p, const char **start, size_t *len)
{
    if (**p != '{')
        return -1;
    int depth = 0;
    for (const char *q = *p; *q; q++) {
        if (*q == '{')
            depth++;
        else if (*q == '}' && --depth == 0) {
            *start = *p + 1;
            *len = (size_t)(q - *p - 1);
            *p = q + 1;
            return 0;
        }
    }
    return -1;
}

/* One entry of a list through ITEM or SEP. */
static void emit(const char *s, size_t len, const struct js_metric_def *d, int pos)
{
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\\' && i + 1 < len && (s[i + 1] == 'n' || s[i + 1] == '\\')) {
            putchar(s[i + 1] == 'n' ? '\n' : '\\');
            i++;
        } else if (s[i] == '{' && i + 3 < len && s[i + 1] == 'm' && s[i + 2] == ':' && s[i + 3] >= '1' && s[i + 3] <= '9') {
            char *end;
            long width = strtol(s + i + 3, &end, 10);
            if (end < s + len && *end == '}') {
                printf("%-*s", (int)width, d->name);
                i = (size_t)(end - s);
            } else
                putchar(s[i]);
        } else if (s[i] == '{' && i + 2 < len && s[i + 2] == '}' && strchr("mudi", s[i + 1])) {
            switch (s[i + 1]) {
            case 'm': fputs(d->name, stdout); break;
            case 'u': fputs(d->unit, stdout); break;
            case 'i': printf("%d", pos); break;
            case 'd':
                for (const char *c = d->desc; *c; c++) {
                    if (*c == '\'')
                        putchar('\'');
                    putchar(*c);
                }
                break;
            }
            i += 2;
        } else
            putchar(s[i]);
    }
}

int main(void)
{
    size_t cap = 1 << 16, len = 0, n;
    char *text = malloc(cap);
    while (text && (n = fread(text + len, 1, cap - len - 1, stdin)) > 0) {
        len += n;
        if (len + 1 == cap && !(text = realloc(text, cap *= 2)))
            break;
    }
    if (!text) {
        fputs("expand-metrics: out of memory\n", stderr);
        return 1;
    }
    text[len] = '\0';
    const char *p = text;
    for (;;) {
        const char *at = strchr(p, '@');
        if (!at) {
            fputs(p, stdout);
            break;
        }
        fwrite(p, 1, (size_t)(at - p), stdout);
        const struct list *l = NULL;
        for (size_t i = 0; i < sizeof lists / sizeof lists[0] && !l; i++) {
            size_t nl = strlen(lists[i].name);
            if (!strncmp(at + 1, lists[i].name, nl) && at[1 + nl] == '{')
                l = &lists[i];
        }
        if (!l) { /* an @ of the text itself */
            putchar('@');
            p = at + 1;
            continue;
        }
        const char *q = at + 1 + strlen(l->name), *item, *sep;
        size_t item_len, sep_len;
        if (braced(&q, &item, &item_len) < 0 || braced(&q, &sep, &sep_len) < 0 || *q != '@') {
            fprintf(stderr, "expand-metrics: line %d: @%s{ITEM}{SEP}@ unterminated\n", line_of(text, at), l->name);
            return 1;
        }
        for (int i = 0; i < l->count; i++) {
            if (i > 0)
                emit(sep, sep_len, &slice_cols[l->first + i], i + 1);
            emit(item, item_len, &slice_cols[l->first + i], i + 1);
        }
        p = q + 1;
    }
    free(text);
    return ferror(stdout) ? 1 : 0;
}
