/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile_ingest --dump FILE: a bundle or profile of the spool as readable JSON, on standard
 * output. A version-3 bundle's columns (common/bundle_cols.h) are shown as the profiles they
 * hold, "profiles" as in a bundle of version 2. A version-2 or 3 bundle's series
 * (common/bundle_series.h) is decoded into one object per slice with activity: {"slice", "processes", the sums by name (those not zero), "spread": {name:
 * {"min", "max", "max_pid"}}}. Reads nothing else and needs no database; the file is checked for
 * form only (the ingest checks its values against the step record).
 */
#include "config.h"

#include "validate.h"

#include "series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *slice_object(int64_t slice, const int64_t *r)
{
    json_t *o = json_pack("{s:I, s:I}", "slice", (json_int_t)slice, "processes", (json_int_t)r[0]);
    for (int k = 0; k < JS_SLICE_COLS; k++)
        if (r[1 + k])
            json_object_set_new(o, js_profile_slice_cols[k].name, json_integer(r[1 + k]));
    json_t *sp = json_object();
    for (int k = 0; r[0] > 0 && k < JS_SPREAD_COUNT; k++)
        json_object_set_new(sp, js_spread_metrics[k].name,
                            json_pack("{s:I, s:I, s:I}", "min", (json_int_t)r[JS_FOLD_COLS + k],
                                      "max", (json_int_t)r[JS_FOLD_COLS + JS_SPREAD_COUNT + k],
                                      "max_pid", (json_int_t)r[JS_FOLD_COLS + 2 * JS_SPREAD_COUNT + k]));
    json_object_set_new(o, "spread", sp);
    return o;
}

/* The series decoded in place of its chunks: 0, or -1 with the reason. */
static int decode_series(json_t *series, char *reason, size_t size)
{
    const json_t *chunks = json_object_get(series, "chunks");
    if (!json_is_array(chunks))
        return pi_invalid(reason, size, "series: \"chunks\" is not an array");
    int64_t *dense = malloc((size_t)JS_SERIES_CHUNK * PI_SERIES_ROW * sizeof *dense);
    unsigned char *buf = malloc(JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK));
    json_t *slices = json_array();
    int rc = dense && buf ? PI_OK : pi_invalid(reason, size, "out of memory");
    for (size_t c = 0; c < json_array_size(chunks) && rc == PI_OK; c++) {
        int64_t first, n;
        rc = pi_series_chunk_decode(json_array_get(chunks, c), c, &first, &n, dense, buf, reason, size);
        for (int64_t i = 0; rc == PI_OK && i < n; i++) {
            const int64_t *r = dense + (size_t)i * PI_SERIES_ROW;
            int any = 0;
            for (int k = 0; k < PI_SERIES_ROW; k++)
                any |= r[k] != 0;
            if (any)
                json_array_append_new(slices, slice_object(first + i, r));
        }
    }
    free(dense);
    free(buf);
    if (rc == PI_OK) {
        json_object_del(series, "chunks");
        json_object_set(series, "slices", slices);
    }
    json_decref(slices);
    return rc;
}

/* A bundle of version 3: its columns replaced by the profiles they hold (cols_dump.c), as a
 * bundle of version 2 lists them. */
static int profiles_of_columns(json_t **doc, char *reason, size_t size)
{
    static const char *const cols[] = { "processes", "files", "trees", "renames", "strings", "columns", "mpi_segments", NULL };
    json_t *profiles = pi_cols_profiles(*doc, reason, size);
    if (!profiles)
        return PI_INVALID;
    json_t *out = json_object(), *v;
    const char *key;
    json_object_set(out, "format", json_object_get(*doc, "format"));
    json_object_set(out, "version", json_object_get(*doc, "version"));
    json_object_set_new(out, "profiles", profiles);
    json_object_foreach(*doc, key, v) {
        int skip = !strcmp(key, "format") || !strcmp(key, "version");
        for (int i = 0; cols[i]; i++)
            skip |= !strcmp(key, cols[i]);
        if (!skip)
            json_object_set(out, key, v);
    }
    json_decref(*doc);
    *doc = out;
    return PI_OK;
}

int pi_dump(const char *path)
{
    char reason[PI_REASON_MAX];
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "profile_ingest: --dump %s: %m\n", path);
        return 1;
    }
    json_error_t err;
    json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
    fclose(f);
    if (!doc) {
        fprintf(stderr, "profile_ingest: --dump %s: not JSON: %s (line %d)\n", path, err.text, err.line);
        return 1;
    }
    if (pi_is_bundle(doc) && json_integer_value(json_object_get(doc, "version")) >= 3 &&
        profiles_of_columns(&doc, reason, sizeof reason) != PI_OK) {
        fprintf(stderr, "profile_ingest: --dump %s: %s\n", path, reason);
        json_decref(doc);
        return 1;
    }
    json_t *series = json_object_get(doc, "series");
    if (pi_is_bundle(doc) && json_is_object(series) && decode_series(series, reason, sizeof reason) != PI_OK) {
        fprintf(stderr, "profile_ingest: --dump %s: %s\n", path, reason);
        json_decref(doc);
        return 1;
    }
    int rc = json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER) == 0 && fputc('\n', stdout) != EOF ? 0 : 1;
    json_decref(doc);
    return fflush(stdout) == 0 ? rc : 1;
}
