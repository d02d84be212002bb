/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Query rows written as JSON text straight from the PostgreSQL result, for the lists (500 jobs
 * are 15,000 cells: as Jansson objects, each allocated, dumped and freed per request). Each
 * cell reads exactly as web_db.c's cell() makes it and jsw_dump writes it: the same types, the
 * columns in the query's order, strings escaped alike, and a string that is not UTF-8 null. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "jsweb.h"

/* A float cell: a whole number of up to 15 digits (most times: epoch seconds) is written as
 * jsw_text_real writes the double it reads as, digits and ".0", without strtod and printf;
 * anything else is read and written as a double. */
static void real_text(struct jsw_text *t, const char *v)
{
    const char *d = v + (*v == '-');
    size_t n = strspn(d, "0123456789");
    if (n > 0 && n <= 15 && d[n] == '\0' && !(d != v && n == 1 && *d == '0')) {
        jsw_text_raw(t, v, (size_t)(d - v) + n);
        jsw_text_raw(t, ".0", 2);
        return;
    }
    jsw_text_real(t, strtod(v, NULL));
}

static void cell_text(struct jsw_text *t, const PGresult *r, int row, int col, Oid type)
{
    if (PQgetisnull(r, row, col)) {
        jsw_text_raw(t, "null", 4);
        return;
    }
    const char *v = PQgetvalue(r, row, col);
    switch (type) {
    case OID_BOOL:
        jsw_text_lit(t, v[0] == 't' ? "true" : "false");
        return;
    case OID_INT2: case OID_INT4: case OID_INT8: case OID_OID:
        jsw_text_int(t, strtoll(v, NULL, 10));
        return;
    case OID_FLOAT4: case OID_FLOAT8: case OID_NUMERIC:
        real_text(t, v);
        return;
    case OID_JSON: case OID_JSONB: {
        if (type == OID_JSONB && jsw_text_jsonb(t, v))
            return; /* else Jansson's way */
        json_error_t e;
        json_t *j = json_loads(v, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
        if (j)
            jsw_text_json(t, j);
        else
            jsw_text_raw(t, "null", 4);
        json_decref(j);
        return;
    }
    default:
        if (jsw_utf8_valid((const unsigned char *)v))
            jsw_text_str(t, v);
        else
            jsw_text_raw(t, "null", 4);
    }
}

/* The members of one row, "name":value,..., without the braces. */
static void members_text(struct jsw_text *t, const PGresult *r, int row, char *const *keys,
                         const Oid *types, int cols)
{
    for (int c = 0; c < cols; c++) {
        if (c)
            jsw_text_raw(t, ",", 1);
        jsw_text_lit(t, keys[c]);
        cell_text(t, r, row, c, types[c]);
    }
}

/* The column names as "name": once per result; NULL when out of memory. */
static char **keys_of(const PGresult *r, Oid **types)
{
    int cols = PQnfields(r);
    char **keys = calloc((size_t)cols + 1, sizeof *keys);
    *types = calloc((size_t)cols + 1, sizeof **types);
    bool ok = keys && *types;
    for (int c = 0; ok && c < cols; c++) {
        struct jsw_text k = { 0 };
        size_t n;
        jsw_text_str(&k, PQfname(r, c));
        jsw_text_raw(&k, ":", 1);
        keys[c] = jsw_text_take(&k, &n);
        (*types)[c] = PQftype(r, c);
        ok = keys[c] != NULL;
    }
    if (!ok) {
        for (int c = 0; keys && c < cols; c++)
            free(keys[c]);
        free(keys);
        free(*types);
        return NULL;
    }
    return keys;
}

static void keys_free(char **keys, Oid *types, int cols)
{
    for (int c = 0; c < cols; c++)
        free(keys[c]);
    free(keys);
    free(types);
}

/* Run the query; NULL (err set) on error, else its result with its keys and types. */
static PGresult *run_keyed(jsw_db *db, const char *query_name, int nparams, const char *const *params,
                           char ***keys, Oid **types, char *err, size_t errlen)
{
    PGresult *r = jsw_db_result(db, query_name, nparams, params, err, errlen);
    if (!r)
        return NULL;
    *keys = keys_of(r, types);
    if (!*keys) {
        PQclear(r);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return r;
}

/* The rows as an array of at most limit (limit < 0: all), or with open the first row's object
 * left open (nothing when there is none); the number of rows, or -1 with err set. */
static int write_rows(jsw_db *db, const char *query_name, int nparams, const char *const *params,
                      struct jsw_text *t, int limit, bool open, char *err, size_t errlen)
{
    char **keys;
    Oid *types;
    PGresult *r = run_keyed(db, query_name, nparams, params, &keys, &types, err, errlen);
    if (!r)
        return -1;
    int rows = PQntuples(r), cols = PQnfields(r);
    int n = limit >= 0 && rows > limit ? limit : rows;
    if (open && rows > 0) {
        jsw_text_raw(t, "{", 1);
        members_text(t, r, 0, keys, types, cols);
    } else if (!open) {
        jsw_text_raw(t, "[", 1);
        for (int i = 0; i < n; i++) {
            jsw_text_raw(t, i ? ",{" : "{", i ? 2 : 1);
            members_text(t, r, i, keys, types, cols);
            jsw_text_raw(t, "}", 1);
        }
        jsw_text_raw(t, "]", 1);
    }
    keys_free(keys, types, cols);
    PQclear(r);
    return rows;
}

int jsw_db_rows_text(jsw_db *db, const char *query_name, int nparams, const char *const *params,
                     struct jsw_text *t, int limit, char *err, size_t errlen)
{
    return write_rows(db, query_name, nparams, params, t, limit, false, err, errlen);
}

int jsw_db_row_open_text(jsw_db *db, const char *query_name, int nparams, const char *const *params,
                         struct jsw_text *t, char *err, size_t errlen)
{
    int rows = write_rows(db, query_name, nparams, params, t, 0, true, err, errlen);
    return rows > 0 ? 1 : rows;
}
