/* The schema's metric columns are exactly the profile format's metrics, in order: in every
 * per-slice and per-process table of sql/002_metrics.sql, each with a COMMENT; in every
 * series table of sql/025_series.sql, which its fold and views decode and add; and in the
 * view js.processes as 006 spells it out; and a view redefined by a later migration keeps the
 * columns it had, in order, and gains new ones at its end only; the types that carry a job
 * and a step record's values (sql/035) list the record format's fields in order. */
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
    /* the migrations as built (some are made from templates by sql/tools/expand-metrics),
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

static void check_table(const char *sql, const char *table)
{
    char head[128], line[256], comment[256];
    snprintf(head, sizeof head, "CREATE TABLE js_data.%s (", table);
    const char *p = strstr(sql, head);
    assert_non_null(p);
    const char *end = strstr(p, "\n)");
    assert_non_null(end);
    /* the metric columns, in order, right after each other */
    snprintf(line, sizeof line, "\n    %-20s bigint NOT NULL DEFAULT 0", js_profile_metrics[0].name);
    const char *q = strstr(p, line);
    assert_non_null(q);
    assert_true(q < end);
    for (int i = 0; i < JS_M_COUNT; i++) {
        snprintf(line, sizeof line, "\n    %-20s bigint NOT NULL DEFAULT 0%s", js_profile_metrics[i].name, i + 1 < JS_M_COUNT ? "," : ",");
        if (strncmp(q, line, strlen(line)) != 0)
            fail_msg("%s: column %d is not %s", table, i, js_profile_metrics[i].name);
        q += strlen(line);
        snprintf(comment, sizeof comment, "COMMENT ON COLUMN js_data.%s.%s IS '", table, js_profile_metrics[i].name);
        if (!strstr(sql, comment))
            fail_msg("%s.%s has no COMMENT", table, js_profile_metrics[i].name);
    }
    /* and no further metric-like column after them */
    assert_true(strncmp(q, "\n    PRIMARY KEY", 16) == 0);
}

static void metric_columns_follow_the_profile_format(void **state)
{
    (void)state;
    const char *sql = slurp("sql/002_metrics.sql");
    check_table(sql, "processes");
    check_table(sql, "slice_metrics");
    check_table(sql, "slice_totals_node");
    check_table(sql, "slice_totals_cluster");
}

static void ingest_functions_add_every_metric_into_the_totals(void **state)
{
    (void)state;
    const char *sql = slurp("sql/003_ingest.sql");
    char add[128];
    for (int i = 0; i < JS_M_COUNT; i++) {
        snprintf(add, sizeof add, "%s = t.%s + excluded.%s", js_profile_metrics[i].name, js_profile_metrics[i].name,
                 js_profile_metrics[i].name);
        const char *first = strstr(sql, add);
        if (!first || !strstr(first + 1, add))
            fail_msg("the totals do not add %s in both tables", js_profile_metrics[i].name);
    }
}

/* 025: each series table holds a bytea series per metric, in order, each with a COMMENT; the
 * SQL fold writes every metric into the three totals; the decoding views read every metric. */
static void series_tables_hold_every_metric(void **state)
{
    (void)state;
    const char *sql = slurp("sql/025_series.sql");
    static const char *const tables[] = { "series_step_node", "series_step", "series_node", "series_cluster" };
    char head[128], line[128], comment[160];
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        snprintf(head, sizeof head, "CREATE TABLE js_data.%s (", tables[t]);
        const char *p = strstr(sql, head);
        assert_non_null(p);
        for (int i = 0; i < JS_M_COUNT; i++) {
            snprintf(line, sizeof line, "\n    %-20s bytea,", js_profile_metrics[i].name);
            const char *q = strstr(p, line);
            if (!q || strstr(p, "\n    PRIMARY KEY") < q)
                fail_msg("%s: no series column %s (in order)", tables[t], js_profile_metrics[i].name);
            p = q + strlen(line);
            snprintf(comment, sizeof comment, "COMMENT ON COLUMN js_data.%s.%s IS '", tables[t], js_profile_metrics[i].name);
            if (!strstr(sql, comment))
                fail_msg("%s.%s has no COMMENT", tables[t], js_profile_metrics[i].name);
        }
    }
    char x[160];
    for (int i = 0; i < JS_M_COUNT; i++) {
        const char *m = js_profile_metrics[i].name;
        snprintf(x, sizeof x, "%s = excluded.%s", m, m); /* rollup_totals: three upserts */
        const char *a = strstr(sql, x), *b = a ? strstr(a + 1, x) : NULL, *c = b ? strstr(b + 1, x) : NULL;
        if (!c)
            fail_msg("js_data.rollup_totals does not write %s into the three totals", m);
        snprintf(x, sizeof x, "js_data.series_decode(r.%s, r.slices)", m); /* four decoding views */
        a = strstr(sql, x);
        b = a ? strstr(a + 1, x) : NULL;
        c = b ? strstr(b + 1, x) : NULL;
        if (!c || !strstr(c + 1, x))
            fail_msg("a decoding view lacks %s", m);
    }
}

/* 006 redefines js.processes with its columns spelt out (it was p.*): every metric, in order */
static void process_view_keeps_every_metric(void **state)
{
    (void)state;
    const char *sql = slurp("sql/006_process_end.sql");
    const char *v = strstr(sql, "CREATE OR REPLACE VIEW js.processes AS");
    assert_non_null(v);
    const char *end = strstr(v, "FROM js_data.processes p");
    assert_non_null(end);
    char col[64];
    for (int i = 0; i < JS_M_COUNT; i++) {
        snprintf(col, sizeof col, "p.%s,", js_profile_metrics[i].name);
        const char *q = strstr(v, col);
        if (!q || q > end)
            fail_msg("js.processes of 006 lacks %s (or it is out of order)", js_profile_metrics[i].name);
        v = q + strlen(col);
    }
}

/* The select list of view in migration rel (from its CREATE OR REPLACE VIEW to its FROM), in
 * a static buffer of its own (slot 0 or 1). */
static const char *view_columns(const char *rel, const char *view, int slot)
{
    static char out[2][8192];
    const char *sql = slurp(rel);
    char head[128];
    snprintf(head, sizeof head, "CREATE OR REPLACE VIEW %s AS", view);
    const char *v = strstr(sql, head);
    if (!v)
        fail_msg("%s does not redefine %s", rel, view);
    const char *end = strstr(v, "\n    FROM js_data.");
    assert_non_null(end);
    snprintf(out[slot], sizeof out[slot], "%.*s", (int)(end - v), v);
    return out[slot];
}

/* 007 redefines js.steps and js.step_nodes: 006's select list, then the new columns */
static void redefined_views_only_gain_columns_at_their_end(void **state)
{
    (void)state;
    const char *views[][2] = { { "js.steps", "unrecorded_processes" }, { "js.step_nodes", "unrecorded_reason" } };
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
        const char *old = view_columns("sql/006_process_end.sql", views[i][0], 0);
        const char *now = view_columns("sql/007_unrecorded.sql", views[i][0], 1);
        size_t n = strlen(old);
        if (strncmp(old, now, n) != 0 || now[n] != ',')
            fail_msg("%s of 007 does not begin with the columns of 006", views[i][0]);
        if (!strstr(now + n, views[i][1]))
            fail_msg("%s of 007 lacks %s after them", views[i][0], views[i][1]);
    }
}

/* The attributes "name type" of a CREATE TYPE of sql/035, in order, one per line into out. */
static void type_attributes(const char *type, char *out, size_t size)
{
    char head[128];
    snprintf(head, sizeof head, "CREATE TYPE js_data.%s AS (", type);
    const char *p = strstr(slurp("sql/035_record_fields.sql"), head);
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
        cmocka_unit_test(metric_columns_follow_the_profile_format),
        cmocka_unit_test(ingest_functions_add_every_metric_into_the_totals),
        cmocka_unit_test(series_tables_hold_every_metric),
        cmocka_unit_test(process_view_keeps_every_metric),
        cmocka_unit_test(redefined_views_only_gain_columns_at_their_end),
        cmocka_unit_test(record_value_types_follow_the_field_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
