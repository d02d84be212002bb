/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A bundle of version 3 read and its form checked: see cols_read.h. What is untrusted here is
 * every count, column, string and index: each is checked before any value is used. */
#include "config.h"

#include "cols_read.h"
#include "series.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pi_col(const char *name) { return js_cols_index(name, strlen(name)); }

const char *pi_col_str(const struct pi_cols *c, int k, size_t row, size_t *n)
{
    const json_t *s = json_array_get(c->strings, (size_t)pi_col_at(c, k, row));
    *n = json_string_length(s);
    return json_string_value(s);
}

void pi_cols_free(struct pi_cols *c)
{
    free(c->col);
    for (int t = 0; t < PI_REL_COUNT; t++)
        free(c->first[t]);
    free(c->bytes);
    memset(c, 0, sizeof *c);
}

/* The relations: the count column, the counting table, the counted one, the most a row counts. */
static const struct {
    const char *col;
    enum js_cols_table from, to;
    int64_t most;
} rels[PI_REL_COUNT] = {
    { "files", JS_CT_PROC, JS_CT_FILES, JS_PROFILE_MAX_FILES },
    { "trees", JS_CT_PROC, JS_CT_TREES, JS_PROFILE_MAX_FILES },
    { "renames", JS_CT_PROC, JS_CT_RENAMES, JS_PROFILE_MAX_RENAMES },
    { "mpi_segments.groups", JS_CT_PROC, JS_CT_SEG_GROUPS, JS_SEG_MAX_GROUPS },
    { "mpi_segments.slowest", JS_CT_PROC, JS_CT_SEG_SLOWEST, JS_SEG_SLOWEST },
    { "mpi_segments.groups.bins", JS_CT_SEG_GROUPS, JS_CT_SEG_BINS, JS_SEG_BINS },
};

/* The rows of each table: within what the bundle may hold (the tables in order: a counted one
 * after the one that counts it). */
static int read_counts(struct pi_cols *c, const json_t *b, char *reason, size_t size)
{
    for (int t = 0; t < JS_CT_COUNT; t++) {
        const json_t *v = json_object_get(b, js_cols_table_names[t]);
        json_int_t most = JS_PROFILE_BUNDLE_MAX;
        for (int r = 0; r < PI_REL_COUNT; r++)
            if (rels[r].to == (enum js_cols_table)t)
                most = (json_int_t)c->rows[rels[r].from] * rels[r].most;
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > most)
            return pi_invalid(reason, size, "bundle: \"%s\" is not a count from 0 to %" JSON_INTEGER_FORMAT, js_cols_table_names[t], most);
        c->rows[t] = (size_t)json_integer_value(v);
    }
    return PI_OK;
}

/* "strings": the dictionary, each a string of at most a path's bytes, without NUL */
static int read_strings(struct pi_cols *c, const json_t *b, char *reason, size_t size)
{
    const json_t *a = json_object_get(b, "strings"), *s;
    size_t i;
    if (!json_is_array(a))
        return pi_invalid(reason, size, "bundle: \"strings\" is not an array");
    json_array_foreach(a, i, s)
        if (!json_is_string(s) || json_string_length(s) > JS_PROFILE_MAX_PATH ||
            strlen(json_string_value(s)) != json_string_length(s))
            return pi_invalid(reason, size, "bundle: strings[%zu] is not a string of at most %d bytes without NUL", i,
                              JS_PROFILE_MAX_PATH);
    c->strings = a;
    c->nstr = json_array_size(a);
    return PI_OK;
}

/* A column's text into its place in c->bytes (at *off); a string column's indexes within the
 * dictionary. */
static int read_column(struct pi_cols *c, const char *name, const json_t *v, size_t *off, char *reason, size_t size)
{
    int k = pi_col(name);
    if (k < 0)
        return pi_invalid(reason, size, "columns: unknown column \"%.64s\"", name);
    const struct js_col_def *d = js_cols_def(k);
    size_t rows = c->rows[d->table];
    unsigned char *buf = c->bytes + *off;
    long len = json_is_string(v) ? js_b64_decode(json_string_value(v), json_string_length(v), buf, JS_SERIES_MAX_BYTES(rows)) : -1;
    if (len < 0 || (len > 0 && (len < JS_SERIES_HEADER || buf[0] > 8 || (size_t)len != JS_SERIES_HEADER + rows * buf[0])))
        return pi_invalid(reason, size, "columns: \"%s\" is not a series of %zu values in base64", name, rows);
    struct pi_col *x = &c->col[k];
    x->present = 1;
    if (len > 0) {
        x->w = buf[0];
        for (int i = 0; i < 8; i++)
            x->base = x->base << 8 | buf[1 + i];
        x->p = buf + JS_SERIES_HEADER;
    }
    *off += (size_t)len;
    for (size_t r = 0; d->is_str && r < rows; r++) {
        int64_t s = pi_col_at(c, k, r);
        if (s < 0 || (size_t)s >= c->nstr)
            return pi_invalid(reason, size, "columns: \"%s\"[%zu]: string %" PRId64 " is not in the dictionary (%zu strings)", name, r, s,
                              c->nstr);
    }
    return PI_OK;
}

/* The rows each row counts (a process its files, ...; a segment group its bins): within what a
 * profile may hold, adding up to the counted table's. */
static int read_tables(struct pi_cols *c, char *reason, size_t size)
{
    for (int t = 0; t < PI_REL_COUNT; t++) {
        int k = pi_col(rels[t].col);
        size_t n = c->rows[rels[t].from], sum = 0;
        if (!(c->first[t] = malloc((n + 1) * sizeof *c->first[t])))
            return pi_invalid(reason, size, "out of memory");
        for (size_t i = 0; i < n; i++) {
            int64_t v = pi_col_at(c, k, i);
            if (v < 0 || v > rels[t].most)
                return pi_invalid(reason, size, "columns: \"%s\"[%zu]: %" PRId64 " rows is not 0 to %" PRId64, rels[t].col, i, v,
                                  rels[t].most);
            c->first[t][i] = sum;
            sum += (size_t)v;
        }
        c->first[t][n] = sum;
        if (sum != c->rows[rels[t].to])
            return pi_invalid(reason, size, "columns: \"%s\" adds up to %zu rows, the bundle says %zu", rels[t].col, sum,
                              c->rows[rels[t].to]);
    }
    return PI_OK;
}

int pi_cols_read(struct pi_cols *c, const json_t *b, char *reason, size_t size)
{
    memset(c, 0, sizeof *c);
    const json_t *cols = json_object_get(b, "columns"), *v;
    const char *name;
    if (read_counts(c, b, reason, size) != PI_OK || read_strings(c, b, reason, size) != PI_OK)
        return PI_INVALID;
    if (!json_is_object(cols))
        return pi_invalid(reason, size, "bundle: \"columns\" is not an object");
    size_t total = 0, off = 0;
    json_object_foreach((json_t *)cols, name, v)
        total += json_string_length(v); /* base64: more than the bytes it holds */
    c->col = calloc((size_t)js_cols_count(), sizeof *c->col);
    c->bytes = malloc(total + JS_SERIES_HEADER + 8);
    if (!c->col || !c->bytes)
        return pi_invalid(reason, size, "out of memory");
    json_object_foreach((json_t *)cols, name, v)
        if (read_column(c, name, v, &off, reason, size) != PI_OK)
            return PI_INVALID;
    return read_tables(c, reason, size);
}

/* the value of column k at row r, as JSON (NULL when the column is absent) */
json_t *pi_cols_value(const struct pi_cols *c, int k, size_t r)
{
    if (k < 0 || !c->col[k].present)
        return NULL;
    const struct js_col_def *d = js_cols_def(k);
    if (d->is_str)
        return json_deep_copy(json_array_get(c->strings, (size_t)pi_col_at(c, k, r)));
    int64_t v = pi_col_at(c, k, r);
    return d->type == 'b' ? json_boolean(v) : json_integer(v);
}

json_t *pi_cols_object_of(const struct pi_cols *c, const char *prefix, enum js_cols_table t, size_t r)
{
    json_t *o = json_object();
    size_t pl = strlen(prefix);
    for (int k = 0; k < js_cols_count(); k++) {
        const struct js_col_def *d = js_cols_def(k);
        json_t *v;
        if (d->table != t || !d->field || strncmp(d->name, prefix, pl) || d->name[pl] != '.' || strchr(d->name + pl + 1, '.'))
            continue;
        if ((v = pi_cols_value(c, k, r)))
            json_object_set_new(o, d->field, v);
    }
    return o;
}
