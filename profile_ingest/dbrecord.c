/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A validated job or step record as the typed values of js_data.job_record_values /
 * step_record_values (sql/types/): the record is parsed here, once, driven by
 * common/record_format.c's field tables, and SQL receives values, not JSON to read again.
 */
#include "config.h"

#include "dbutil.h"
#include "record_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The array fields handed over as one SQL array per field of their elements; other arrays
 * (argv, task_list) stay in the stored record. */
static const struct js_record_field *element_fields(const struct js_record_field *table, const char *name)
{
    if (table == js_job_record_fields && strcmp(name, "dependencies") == 0)
        return js_dependency_fields;
    return NULL;
}

static void add(struct dbu_params *p, char *owned)
{
    if (p->n < DBU_MAX_PARAMS) {
        p->owned[p->n] = owned;
        p->v[p->n++] = owned;
    }
}

/* A scalar as text (NULL: null or absent). */
static char *scalar_text(const json_t *v)
{
    char buf[32];
    if (json_is_string(v))
        return strdup(json_string_value(v));
    if (json_is_integer(v)) {
        snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return strdup(buf);
    }
    if (json_is_boolean(v))
        return strdup(json_is_true(v) ? "t" : "f");
    return NULL;
}

/* One array literal of field f of every element of arr. */
static char *element_array(const json_t *arr, const char *f)
{
    struct sbuf b = { 0 };
    sb_raw(&b, "{", 1);
    size_t i;
    const json_t *e;
    json_array_foreach(arr, i, e) {
        char *t = scalar_text(json_object_get(e, f));
        if (i)
            sb_raw(&b, ",", 1);
        sb_array_elem(&b, t);
        free(t);
    }
    sb_raw(&b, "}", 1);
    return b.p;
}

static void add_fields(struct dbu_params *p, const json_t *rec, const struct js_record_field *table,
                       const struct js_record_field *fields)
{
    for (const struct js_record_field *f = fields; f->name; f++) {
        const json_t *v = rec ? json_object_get(rec, f->name) : NULL;
        const struct js_record_field *el = f->type == JS_FIELD_ARRAY ? element_fields(table, f->name) : NULL;
        if (el) {
            for (; el->name; el++)
                add(p, json_is_array(v) ? element_array(v, el->name) : NULL);
        } else if (f->type != JS_FIELD_ARRAY && f->type != JS_FIELD_OBJECT) {
            add(p, scalar_text(v));
        }
    }
}

int dbu_params_record(struct dbu_params *p, const json_t *rec, const struct js_record_field *table,
                      const char *type, struct sbuf *sql)
{
    int first = p->n + 1;
    add_fields(p, rec, table, table);
    add(p, rec ? json_dumps(rec, JSON_COMPACT) : NULL);
    if (p->n >= DBU_MAX_PARAMS)
        return -1;
    sb_raw(sql, "ROW(", 4);
    for (int i = first; i <= p->n; i++)
        sb_printf(sql, "%s$%d", i > first ? ", " : "", i);
    sb_printf(sql, ")::%s", type);
    return 0;
}

void dbu_params_add(struct dbu_params *p, const char *v)
{
    add(p, v ? strdup(v) : NULL);
}

void dbu_params_free(struct dbu_params *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->owned[i]);
    p->n = 0;
}
