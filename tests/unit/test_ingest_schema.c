/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The schema's definitions follow the one metric list and the record format: js_data.rollup_totals
 * writes every metric into the three totals and the decoding views read every metric
 * (sql/functions/, sql/views/); js.processes spells out every metric in order; the types that
 * carry a job and a step record's values (sql/types/) list the record format's fields in order.
 * The tables' metric columns are checked on a migrated database (tests/integration/ingest/schema.sh). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dbutil.h"
#include "profile_format.h"
#include "record_format.h"

static char *slurp(const char *rel)
{
    char path[1024];
    /* the definitions as built (some are made from templates by sql/tools/expand-metrics),
     * else as written */
    snprintf(path, sizeof path, "%s/%s", JS_TOP_BUILDDIR, rel);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(path, sizeof path, "%s/%s", JS_TOP_SRCDIR, rel);
        f = fopen(path, "r");
    }
    assert_non_null(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* js_data.rollup_totals writes every metric into the three totals (three upserts); the four
 * views that decode the series read every metric. */
static void series_definitions_hold_every_metric(void **state)
{
    (void)state;
    static const char *const decoders[] = { "sql/views/js_data.slice_metrics.sql", "sql/views/js_data.slice_totals_node.sql",
                                            "sql/views/js_data.slice_totals_cluster.sql", "sql/views/js_data.step_series_slices.sql" };
    char x[160];
    for (int i = 0; i < JS_M_COUNT; i++) {
        const char *m = js_profile_metrics[i].name;
        const char *sql = slurp("sql/functions/js_data.rollup_totals.sql");
        snprintf(x, sizeof x, "%s = excluded.%s", m, m);
        const char *a = strstr(sql, x), *b = a ? strstr(a + 1, x) : NULL, *c = b ? strstr(b + 1, x) : NULL;
        if (!c)
            fail_msg("js_data.rollup_totals does not write %s into the three totals", m);
        snprintf(x, sizeof x, "js_data.series_decode(r.%s, r.slices)", m);
        for (size_t v = 0; v < sizeof decoders / sizeof decoders[0]; v++)
            if (!strstr(slurp(decoders[v]), x))
                fail_msg("%s lacks %s", decoders[v], m);
    }
}

/* js.processes spells its columns out (not p.*): every metric, in order */
static void process_view_keeps_every_metric(void **state)
{
    (void)state;
    const char *sql = slurp("sql/views/js.processes.sql");
    const char *v = strstr(sql, "CREATE VIEW js.processes AS");
    assert_non_null(v);
    const char *end = strstr(v, "FROM js_data.processes p");
    assert_non_null(end);
    char col[64];
    for (int i = 0; i < JS_M_COUNT; i++) {
        snprintf(col, sizeof col, "p.%s,", js_profile_metrics[i].name);
        const char *q = strstr(v, col);
        if (!q || q > end)
            fail_msg("js.processes lacks %s (or it is out of order)", js_profile_metrics[i].name);
        v = q + strlen(col);
    }
}

/* The attributes "name type" of a type of sql/types/, in order, one per line into out. */
static void type_attributes(const char *type, char *out, size_t size)
{
    char head[128], rel[128];
    snprintf(head, sizeof head, "CREATE TYPE js_data.%s AS (", type);
    snprintf(rel, sizeof rel, "sql/types/js_data.%s.sql", type);
    const char *p = strstr(slurp(rel), head);
    assert_non_null(p);
    p += strlen(head);
    size_t n = 0;
    int word = 0;
    for (; *p && !(*p == ')' && p[-1] == '\n') && n + 2 < size; p++) {
        if (*p == ',') {
            out[n++] = '\n';
            word = 0;
        } else if (*p == '"' || ((*p == ' ' || *p == '\n') && !word)) {
            continue;
        } else if (*p == '\n') {
            continue;
        } else {
            out[n++] = *p;
            word = 1;
        }
    }
    while (n && (out[n - 1] == ' ' || out[n - 1] == '\n'))
        n--;
    out[n] = '\0';
}

static const char *sql_type(enum js_field_type t)
{
    return t == JS_FIELD_STRING ? "text" : t == JS_FIELD_INTEGER ? "bigint" : "boolean";
}

/* What dbrecord.c hands over for a table, as "name type" lines: its scalars, an array with a
 * table of its own as one array per field of it, the record. */
static void expected_attributes(const struct js_record_field *t, const char *array, const struct js_record_field *el,
                                char *out, size_t size)
{
    size_t n = 0;
    for (; t->name; t++) {
        if (array && strcmp(t->name, array) == 0) {
            for (const struct js_record_field *e = el; e->name; e++)
                n += (size_t)snprintf(out + n, size - n, "%s_%s %s[]\n", array, e->name, sql_type(e->type));
        } else if (t->type != JS_FIELD_ARRAY && t->type != JS_FIELD_OBJECT) {
            n += (size_t)snprintf(out + n, size - n, "%s %s\n", t->name, sql_type(t->type));
        }
    }
    snprintf(out + n, size - n, "record jsonb");
}

/* The types profile_ingest fills as ROW($n, ...) in the order of the field tables (dbrecord.c)
 * list the tables' fields in that order, and as many as it hands over. */
static void record_value_types_follow_the_field_tables(void **state)
{
    (void)state;
    static char got[8192], want[8192];
    type_attributes("job_record_values", got, sizeof got);
    expected_attributes(js_job_record_fields, "dependencies", js_dependency_fields, want, sizeof want);
    assert_string_equal(got, want);
    type_attributes("step_record_values", got, sizeof got);
    expected_attributes(js_step_record_fields, NULL, NULL, want, sizeof want);
    assert_string_equal(got, want);

    const struct { const struct js_record_field *table; const char *type; } t[] = {
        { js_job_record_fields, "job_record_values" }, { js_step_record_fields, "step_record_values" } };
    for (int i = 0; i < 2; i++) {
        struct dbu_params p = { .n = 0 };
        struct sbuf sql = { 0 };
        type_attributes(t[i].type, got, sizeof got);
        int lines = 1;
        for (const char *c = got; *c; c++)
            lines += *c == '\n';
        assert_int_equal(dbu_params_record(&p, NULL, t[i].table, "x", &sql), 0);
        assert_int_equal(p.n, lines);
        dbu_params_free(&p);
        free(sql.p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(series_definitions_hold_every_metric),
        cmocka_unit_test(process_view_keeps_every_metric),
        cmocka_unit_test(record_value_types_follow_the_field_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
