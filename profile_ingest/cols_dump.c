/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The processes of a bundle of version 3 as the profiles they were (profile_ingest --dump): each
 * an object with the members of common/profile_format.h in their order, built from the columns.
 * For reading by people and tests; the ingest itself never builds these objects (cols_check.c).
 */
#include "config.h"

#include "cols_read.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    char type;
} top[] = {
#define JS_X(id, name, type, unit, desc) { name, type },
    JS_PROFILE_FIELDS(JS_X)
#undef JS_X
};

static json_t *collectives(const struct pi_cols *c, size_t i)
{
    json_t *o = json_object();
    char name[96];
    for (int k = 0; k < JS_COLL_COUNT; k++) {
        snprintf(name, sizeof name, "mpi_collectives.%s", js_profile_coll_kinds[k]);
        if (pi_col_at(c, pi_col(name), i))
            json_object_set_new(o, js_profile_coll_kinds[k], pi_cols_object_of(c, name, JS_CT_PROC, i));
    }
    return o;
}

/* the rows of process i in table t (files, trees or renames) */
static json_t *rows_of(const struct pi_cols *c, const char *name, enum js_cols_table t, size_t i)
{
    json_t *a = json_array();
    enum pi_cols_rel rel = t == JS_CT_FILES ? PI_REL_FILES : t == JS_CT_TREES ? PI_REL_TREES : PI_REL_RENAMES;
    for (size_t r = c->first[rel][i]; r < c->first[rel][i + 1]; r++)
        json_array_append_new(a, pi_cols_object_of(c, name, t, r));
    return a;
}

static json_t *profile_of(const struct pi_cols *c, size_t i)
{
    json_t *p = json_object(), *v;
    for (size_t m = 0; m < sizeof top / sizeof top[0]; m++) {
        const char *n = top[m].name;
        if (!strcmp(n, "kernel_io"))
            v = pi_col_at(c, pi_col(n), i) ? pi_cols_object_of(c, n, JS_CT_PROC, i) : json_object();
        else if (!strcmp(n, "runtime") || !strcmp(n, "totals"))
            v = pi_cols_object_of(c, n, JS_CT_PROC, i);
        else if (!strcmp(n, "mpi_collectives"))
            v = collectives(c, i);
        else if (!strcmp(n, "mpi_segments"))
            v = pi_cols_segments_json(c, i);
        else if (!strcmp(n, "files"))
            v = rows_of(c, n, JS_CT_FILES, i);
        else if (!strcmp(n, "trees"))
            v = rows_of(c, n, JS_CT_TREES, i);
        else if (!strcmp(n, "renames"))
            v = rows_of(c, n, JS_CT_RENAMES, i);
        else if (top[m].type == 'o' || top[m].type == 'a')
            continue; /* slice_metrics and slices: in the bundle's series */
        else
            v = pi_cols_value(c, pi_col(n), i);
        if (v)
            json_object_set_new(p, n, v);
    }
    return p;
}

json_t *pi_cols_profiles(const json_t *b, char *reason, size_t size)
{
    struct pi_cols c;
    if (pi_cols_read(&c, b, reason, size) != PI_OK) {
        pi_cols_free(&c);
        return NULL;
    }
    json_t *a = json_array();
    for (size_t i = 0; i < c.rows[JS_CT_PROC]; i++)
        json_array_append_new(a, profile_of(&c, i));
    pi_cols_free(&c);
    return a;
}
