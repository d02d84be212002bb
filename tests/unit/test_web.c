/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of jobscreen.cgi's request handling (web/): configuration, user names, query
 * strings, typed parameters, routing, error bodies. What reaches the database is decided here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "profile_format.h"
#include "web/jsweb.h"

static char err[512];

static void config_parses_keys_comments_and_admin_lists(void **state)
{
    (void)state;
    struct jsw_config c;
    jsw_config_defaults(&c);
    assert_int_equal(jsw_config_parse(&c,
                                      "# comment\n\nconninfo = host=db port=5432 dbname=js  # trailing\n"
                                      "admins = ann, bob carl\nadmin_group = hpcadm\n"
                                      "statement_timeout = 2500\nmax_rows=10\n"
                                      "background_min_jobs = 5\nusers_cluster = c1\nco2_g_per_kwh = 380\n",
                                      err, sizeof err),
                     0);
    assert_string_equal(c.conninfo, "host=db port=5432 dbname=js");
    assert_int_equal(c.n_admins, 3);
    assert_string_equal(c.admins[2], "carl");
    assert_string_equal(c.admin_group, "hpcadm");
    assert_int_equal(c.statement_timeout_ms, 2500);
    assert_int_equal(c.max_rows, 10);
    assert_int_equal(c.background_min_jobs, 5);
    assert_string_equal(c.users_cluster, "c1");
    assert_int_equal(c.co2_g_per_kwh, 380);
    assert_true(jsw_is_admin(&c, "bob"));
    assert_false(jsw_is_admin(&c, "bo"));
    assert_false(jsw_is_admin(&c, "bobby"));
}

static void config_rejects_unknown_keys_and_bad_values_with_line_numbers(void **state)
{
    (void)state;
    struct jsw_config c;
    jsw_config_defaults(&c);
    assert_int_equal(jsw_config_parse(&c, "conninfo = x\n\nconifo = y\n", err, sizeof err), -1);
    assert_string_equal(err, "line 3: unknown key 'conifo'");
    assert_int_equal(jsw_config_parse(&c, "admins = ok, b;ad\n", err, sizeof err), -1);
    assert_string_equal(err, "line 1: admins: 'b;ad' is not a valid user name");
    assert_int_equal(jsw_config_parse(&c, "statement_timeout = 5s\n", err, sizeof err), -1);
    assert_int_equal(jsw_config_parse(&c, "just words\n", err, sizeof err), -1);
    assert_string_equal(err, "line 1: expected 'key = value'");
    assert_int_equal(jsw_config_load(&c, "/nonexistent/web.conf", err, sizeof err), -1);
    assert_non_null(strstr(err, "No such file"));
    assert_int_equal(jsw_config_parse(&c, "munge_auth = maybe\n", err, sizeof err), -1);
    assert_string_equal(err, "line 1: munge_auth: 'maybe' is not yes or no");
    assert_int_equal(jsw_config_parse(&c, "munge_socket = run/munge\n", err, sizeof err), -1);
    assert_non_null(strstr(err, "line 1: munge_socket: 'run/munge' is not an absolute path"));
    assert_int_equal(jsw_config_parse(&c, "background_min_jobs = 0\n", err, sizeof err), -1);
    assert_string_equal(err, "line 1: background_min_jobs: '0' is not 1-1000");
    assert_int_equal(jsw_config_parse(&c, "users_cluster = a;b\n", err, sizeof err), -1);
    assert_string_equal(err, "line 1: users_cluster: 'a;b' is not a valid cluster name");
    assert_int_equal(jsw_config_parse(&c, "co2_g_per_kwh = -1\n", err, sizeof err), -1);
    assert_string_equal(err, "line 1: co2_g_per_kwh: '-1' is not a whole number of grams from 0 to 100000");
}

static void config_munge_auth_is_off_unless_asked_for(void **state)
{
    (void)state;
    struct jsw_config c;
    jsw_config_defaults(&c);
    assert_false(c.munge_auth);
    assert_string_equal(c.munge_socket, "");
    assert_int_equal(c.background_min_jobs, 3);
    assert_int_equal(c.co2_g_per_kwh, -1); /* not set: the viewer shows no CO2 */
    assert_string_equal(c.users_cluster, "");
    assert_int_equal(jsw_config_parse(&c, "munge_auth = yes\nmunge_socket = /run/m/s.2\n", err, sizeof err), 0);
    assert_true(c.munge_auth);
    assert_string_equal(c.munge_socket, "/run/m/s.2");
    assert_int_equal(jsw_config_parse(&c, "munge_auth = off\n", err, sizeof err), 0);
    assert_false(c.munge_auth);
}

static void admin_group_membership_counts_primary_group(void **state)
{
    (void)state;
    struct jsw_config c;
    jsw_config_defaults(&c);
    /* root's primary group is root on every Linux system */
    assert_int_equal(jsw_config_parse(&c, "admin_group = root\n", err, sizeof err), 0);
    assert_true(jsw_is_admin(&c, "root"));
    assert_false(jsw_is_admin(&c, "nosuchuser-jobscreen"));
}

static void user_names_are_strict(void **state)
{
    (void)state;
    assert_true(jsw_user_name_valid("jsalice"));
    assert_true(jsw_user_name_valid("a.b-c_d@EXAMPLE.ORG"));
    assert_false(jsw_user_name_valid(""));
    assert_false(jsw_user_name_valid(NULL));
    assert_false(jsw_user_name_valid("-x"));
    assert_false(jsw_user_name_valid(".."));
    assert_false(jsw_user_name_valid("a b"));
    assert_false(jsw_user_name_valid("a'--"));
    assert_false(jsw_user_name_valid("<script>"));
    assert_false(jsw_user_name_valid("x\n"));
    char longname[80];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_false(jsw_user_name_valid(longname));
}

static void query_strings_decode_and_refuse_junk(void **state)
{
    (void)state;
    struct jsw_request r;
    memset(&r, 0, sizeof r);
    assert_int_equal(jsw_parse_query(&r, "q=jobs&name=a%20b+c&flag&x=%3Cb%3E", err, sizeof err), 0);
    assert_int_equal(r.n_params, 4);
    assert_string_equal(jsw_param(&r, "name"), "a b c");
    assert_string_equal(jsw_param(&r, "flag"), "");
    assert_string_equal(jsw_param(&r, "x"), "<b>");
    assert_null(jsw_param(&r, "nope"));
    assert_int_equal(jsw_parse_query(&r, "a=%00", err, sizeof err), -1);
    assert_int_equal(jsw_parse_query(&r, "a=%0a", err, sizeof err), -1);
    assert_int_equal(jsw_parse_query(&r, "a=%4", err, sizeof err), -1);
    assert_int_equal(jsw_parse_query(&r, "a=%zz", err, sizeof err), -1);
    assert_int_equal(jsw_parse_query(&r, "a=1&a=2", err, sizeof err), -1);
    assert_string_equal(err, "parameter 'a' given twice");
    assert_int_equal(jsw_parse_query(&r, "a%27=1", err, sizeof err), -1);
    char big[600];
    memset(big, 'x', sizeof big - 1);
    big[0] = 'v', big[1] = '=';
    big[sizeof big - 1] = '\0';
    assert_int_equal(jsw_parse_query(&r, big, err, sizeof err), -1);
}

static void endpoint_comes_from_path_info_or_q(void **state)
{
    (void)state;
    struct jsw_request r;
    memset(&r, 0, sizeof r);
    assert_int_equal(jsw_parse_query(&r, "q=jobs", err, sizeof err), 0);
    assert_int_equal(jsw_parse_endpoint(&r, "/workflow", err, sizeof err), 0);
    assert_string_equal(r.endpoint, "workflow");
    assert_int_equal(jsw_parse_endpoint(&r, NULL, err, sizeof err), 0);
    assert_string_equal(r.endpoint, "jobs");
    assert_int_equal(jsw_parse_endpoint(&r, "/../etc", err, sizeof err), -1);
    assert_non_null(jsw_route_find("background"));
    assert_null(jsw_route_find("Background"));
    assert_null(jsw_route_find(""));
}

static void typed_parameters_are_bounded(void **state)
{
    (void)state;
    struct jsw_request r;
    memset(&r, 0, sizeof r);
    assert_int_equal(jsw_parse_query(&r, "id=42&neg=-1&sql=1%20OR%201%3D1&big=99999999999999999999"
                                         "&t=2026-11-21T10:00:00Z&d=2026-11-21&e=1795219200&bad=yesterday"
                                         "&scope=nodes&s2=all",
                                     err, sizeof err),
                     0);
    int64_t v = 0;
    bool present;
    assert_int_equal(jsw_param_int(&r, "id", 1, 100, &v, &present, err, sizeof err), 0);
    assert_true(present);
    assert_int_equal(v, 42);
    assert_int_equal(jsw_param_int(&r, "missing", 1, 100, &v, &present, err, sizeof err), 0);
    assert_false(present);
    assert_int_equal(jsw_param_int(&r, "neg", 1, 100, &v, NULL, err, sizeof err), -1);
    assert_string_equal(err, "parameter 'neg': expected an integer from 1 to 100");
    assert_int_equal(jsw_param_int(&r, "sql", 1, 100, &v, NULL, err, sizeof err), -1);
    assert_int_equal(jsw_param_int(&r, "big", 1, INT64_MAX, &v, NULL, err, sizeof err), -1);
    assert_int_equal(jsw_param_time(&r, "t", &v, NULL, err, sizeof err), 0);
    assert_int_equal(v, 1795255200);
    assert_int_equal(jsw_param_time(&r, "d", &v, NULL, err, sizeof err), 0);
    assert_int_equal(v, 1795219200);
    assert_int_equal(jsw_param_time(&r, "e", &v, NULL, err, sizeof err), 0);
    assert_int_equal(v, 1795219200);
    assert_int_equal(jsw_param_time(&r, "bad", &v, NULL, err, sizeof err), -1);
    static const char *const scopes[] = { "cluster", "nodes", NULL };
    const char *s = NULL;
    assert_int_equal(jsw_param_enum(&r, "scope", scopes, &s, err, sizeof err), 0);
    assert_string_equal(s, "nodes");
    assert_int_equal(jsw_param_enum(&r, "s2", scopes, &s, err, sizeof err), -1);
    assert_string_equal(err, "parameter 's2': expected one of cluster nodes");
}

static void text_parameters_must_be_utf8(void **state)
{
    (void)state;
    struct jsw_request r;
    memset(&r, 0, sizeof r);
    assert_int_equal(jsw_parse_query(&r, "ok=%C3%A9t%C3%A9&bad=%C3%28", err, sizeof err), 0);
    const char *v = NULL;
    assert_int_equal(jsw_param_text(&r, "ok", &v, err, sizeof err), 0);
    assert_string_equal(v, "\xc3\xa9t\xc3\xa9");
    assert_int_equal(jsw_param_text(&r, "bad", &v, err, sizeof err), -1);
}

static void steps_are_numbers_or_slurm_words(void **state)
{
    (void)state;
    assert_true(jsw_step_valid("0"));
    assert_true(jsw_step_valid("17"));
    assert_true(jsw_step_valid("batch"));
    assert_true(jsw_step_valid("extern"));
    assert_false(jsw_step_valid("007"));
    assert_false(jsw_step_valid("-1"));
    assert_false(jsw_step_valid("1;"));
    assert_false(jsw_step_valid("4294967291"));
    assert_false(jsw_step_valid(""));
}

static void error_bodies_carry_status_and_message(void **state)
{
    (void)state;
    json_t *b = jsw_error_body(404, "no job 7 of yours");
    char *s = json_dumps(b, JSON_COMPACT | JSON_SORT_KEYS);
    assert_string_equal(s, "{\"error\":{\"message\":\"no job 7 of yours\",\"status\":404}}");
    free(s);
    json_decref(b);
    assert_string_equal(jsw_status_text(403), "Forbidden");
}

static void every_endpoint_query_is_compiled_in(void **state)
{
    (void)state;
    static const char *const names[] = { "workflows", "jobs", "job_workflow", "workflow",
                                         "workflow_jobs", "workflow_edges", "job", "job_files",
                                         "step", "step_node_slices", "step_digest",
                                         "step_processes", "step_files", "series_own", "series_cluster",
                                         "series_nodes", "series_live", "background_rank",
                                         "background_top", "file", "file_accesses", NULL };
    for (const char *const *n = names; *n; n++) {
        const char *q = jsw_query_text(*n);
        if (!q)
            fail_msg("query '%s' missing from queries.sql", *n);
        /* every query filters by the viewer: it must use $1 and $2 */
        if (!strstr(q, "$1") || !strstr(q, "$2"))
            fail_msg("query '%s' does not use the viewer ($1, $2)", *n);
    }
}

/* text written by jsw_text reads as Jansson would have written it */
/* t's text is j as jsw_dump writes it; frees both */
static void text_is_jansson(struct jsw_text *t, json_t *j)
{
    size_t n;
    char *got = jsw_text_take(t, &n);
    char *want = json_dumps(j, JSON_COMPACT | JSON_ESCAPE_SLASH | JSON_ENCODE_ANY);
    assert_non_null(got);
    assert_string_equal(got, want);
    assert_int_equal(n, strlen(want));
    free(got);
    free(want);
    json_decref(j);
}

static void json_text_matches_jansson(void **state)
{
    (void)state;
    static const char *const strs[] = { "plain", "q\"uo\\te", "</script>", "tab\tnl\nbell\a\x01", "Zürich", "" };
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
        struct jsw_text t = { 0 };
        jsw_text_str(&t, strs[i]);
        text_is_jansson(&t, json_string(strs[i]));
    }
    /* reals: as Jansson writes them, exponents included (1e20, not 1e+20) */
    static const double reals[] = { 1e20, 1e-5, -2.5e-300, 1.7976931348623157e308, 1767571200.25, 0.1, -0.0, 123456789012345678.0 };
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++) {
        struct jsw_text t = { 0 };
        jsw_text_real(&t, reals[i]);
        text_is_jansson(&t, json_real(reals[i]));
    }
    /* integers: written without snprintf, the extremes included */
    static const int64_t ints[] = { 0,       7,       -7,        9,          10,           -10,      11,       99,
                                    -99,     100,     101,       12345,      -12345,       999999,   1000000,
                                    1234567890123, INT64_MAX, INT64_MIN, INT64_MIN + 1 };
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        struct jsw_text t = { 0 };
        jsw_text_int(&t, ints[i]);
        text_is_jansson(&t, json_integer(ints[i]));
    }
    struct jsw_text t = { 0 };
    int64_t v[] = { 1, -2, 3, INT64_MAX, 5, INT64_MIN };
    jsw_text_lit(&t, "{\"a\":");
    jsw_text_int_array(&t, v, 3, 2); /* every second value */
    jsw_text_lit(&t, ",\"r\":[");
    jsw_text_real(&t, 2.0);
    jsw_text_lit(&t, ",");
    jsw_text_real(&t, 0.25);
    jsw_text_lit(&t, ",");
    jsw_text_real(&t, NAN);
    jsw_text_lit(&t, "],\"o\":");
    json_t *o = json_pack("{s:s}", "k", "a/b");
    jsw_text_json(&t, o);
    json_decref(o);
    jsw_text_lit(&t, "}");
    size_t n;
    char *got = jsw_text_take(&t, &n);
    assert_string_equal(got, "{\"a\":[1,3,5],\"r\":[2.0,0.25,null],\"o\":{\"k\":\"a\\/b\"}}");
    assert_int_equal(n, strlen(got));
    free(got);
}

/* a jsonb cell's text (as PostgreSQL writes it) rewritten without Jansson reads exactly as
 * json_loads + jsw_text_json write it; what it cannot copy exactly it leaves to Jansson */
static void jsonb_text_matches_jansson(void **state)
{
    (void)state;
    static const char *const copied[] = {
        "{\"a\": 1, \"b\": [1.5, -2, 0.1, 1e20, 2.0, -0, 1767572326.666667], \"c\": null}",
        "[\"/scratch/a b/out.1\", \"q\\\"uo\\\\te\", \"tab\\tnl\\n\\b\\f\\r\", \"Z\xc3\xbcrich\"]",
        "{\"x\": {\"y\": [true, false, {}], \"z\": []}, \"n\": 9223372036854775807}",
        "\"just a string\"", "42", "-1.25e-5", "true", "null", "[]",
    };
    for (size_t i = 0; i < sizeof copied / sizeof *copied; i++) {
        struct jsw_text t = { 0 };
        jsw_text_lit(&t, "[");
        assert_true(jsw_text_jsonb(&t, copied[i]));
        jsw_text_lit(&t, "]");
        json_t *j = json_loads(copied[i], JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
        assert_non_null(j);
        text_is_jansson(&t, json_pack("[o]", j));
    }
    /* a \u escape, an integer beyond 64 bits, a real beyond a double, text that is not UTF-8,
     * nothing: Jansson's way, and nothing written here */
    static const char *const left[] = { "[\"\\u0001\"]", "[99999999999999999999]", "[1e400]", "[\"\xff\"]", "",
                                        "[1, ", "tru" };
    for (size_t i = 0; i < sizeof left / sizeof *left; i++) {
        struct jsw_text t = { 0 };
        jsw_text_lit(&t, "[");
        assert_false(jsw_text_jsonb(&t, left[i]));
        size_t n;
        char *got = jsw_text_take(&t, &n);
        assert_string_equal(got, "[");
        free(got);
    }
}

/* the stack below the caller filled with 'e' (what jsw_text_real once read as an exponent) */
static __attribute__((noinline)) void stack_of_e(void)
{
    volatile char junk[512];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = 'e';
}

/* a real that reads as an integer gets ".0", and nothing the stack held after it */
static void json_text_real_integral_ends_there(void **state)
{
    (void)state;
    static const double reals[] = { 0.0, 2.0, -7.0, 1767571200.0 };
    static const char *const want[] = { "0.0", "2.0", "-7.0", "1767571200.0" };
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++) {
        struct jsw_text t = { 0 };
        stack_of_e();
        jsw_text_real(&t, reals[i]);
        size_t n;
        char *got = jsw_text_take(&t, &n);
        assert_string_equal(got, want[i]);
        free(got);
    }
}

/* got equals want (which it frees) */
static bool equal_to(const json_t *got, json_t *want)
{
    bool eq = json_equal(got, want);
    json_decref(want);
    return eq;
}

/* a series is columns (docs/api.md, "Series"): runs of slices summed per point, the last run
 * shorter, every array one entry per point, a metric that is 0 throughout left out */
static void series_text_sums_runs_of_slices(void **state)
{
    (void)state;
    struct jsw_slices own, tot;
    assert_int_equal(jsw_slices_init(&own, 100, 104), 0);
    assert_int_equal(jsw_slices_init(&tot, 100, 104), 0);
    for (size_t k = 0; k < 5; k++) {
        own.count[k] = k == 4 ? 0 : 2;
        own.procs[k] = (int64_t)k + 1;
        jsw_slices_column(&own, JS_M_CPU_NS)[k] = 10 * ((int64_t)k + 1);
        tot.count[k] = 5;
        jsw_slices_column(&tot, JS_M_CPU_NS)[k] = 100; /* others: 100 less the step's own */
    }
    /* a metric no row had keeps no column (a one-metric reply zeroes one column, not all) */
    assert_null(own.v[JS_M_POSIX_NS]);
    assert_null(tot.v[JS_M_POSIX_NS]);
    struct jsw_text t = { 0 };
    assert_int_equal(jsw_step_series_text(&t, &own, 4, 2), 0);
    jsw_text_lit(&t, "}");
    size_t n;
    char *text = jsw_text_take(&t, &n);
    json_t *o = json_loads(text, 0, NULL);
    free(text);
    json_t *want = json_pack("{s:I,s:i,s:i,s:i,s:i,s:[iii],s:[iii],s:{s:[iii]}}", "first_slice", (json_int_t)100, "slice_seconds", 4,
                             "slices", 5, "slices_per_point", 2, "points", 3, "nodes", 2, 2, 0, "processes", 2, 4, 5,
                             "metrics", "cpu_ns", 30, 70, 50);
    assert_true(equal_to(o, want));
    json_decref(o);
    /* the background of one metric, withheld: the step's own only */
    assert_int_equal(jsw_background_series_text(&t, &own, &tot, JS_M_CPU_NS, true, 4, 2), 0);
    text = jsw_text_take(&t, &n);
    o = json_loads(text, 0, NULL);
    free(text);
    assert_non_null(o);
    assert_true(equal_to(json_object_get(o, "metrics"), json_pack("{s:[iii]}", "cpu_ns", 30, 70, 50)));
    assert_null(json_object_get(o, "others"));
    assert_null(json_object_get(o, "other_step_nodes"));
    json_decref(o);
    assert_int_equal(jsw_background_series_text(&t, &own, &tot, -1, false, 4, 2), 0);
    text = jsw_text_take(&t, &n);
    o = json_loads(text, 0, NULL);
    free(text);
    assert_int_equal(json_object_size(json_object_get(o, "others")), JS_M_COUNT);
    assert_true(equal_to(json_object_get(json_object_get(o, "others"), "cpu_ns"), json_pack("[iii]", 170, 130, 50)));
    assert_true(equal_to(json_object_get(o, "other_step_nodes"), json_pack("[iii]", 3, 3, 5)));
    json_decref(o);
    jsw_slices_free(&own);
    jsw_slices_free(&tot);
}

/* The step reply's stored forms (web/stored_step.c): one key per form, whatever the order and
 * cluster=; anything else (node=, a bad value: the handler's 400) is not a stored form. */
static void stored_step_keys_are_canonical(void **state)
{
    (void)state;
    static const struct {
        const char *qs, *want;
    } cases[] = {
        { "q=step&job=7&step=0&points=1500&gpu_series=1", "step=0&points=1500&gpu_series=1&rows=1000" },
        { "gpu_series=1&points=1500&step=0&cluster=c1&job=7", "step=0&points=1500&gpu_series=1&rows=1000" },
        { "job=7&step=batch", "step=batch&points=0&gpu_series=0&rows=1000" },
        { "job=7&step=0&points=300&gpu_series=0", "step=0&points=300&gpu_series=0&rows=1000" },
        { "job=7&step=0&points=1500&gpu_series=1&node=n1", NULL },
        { "job=7&step=0&points=5", NULL },
        { "job=7&step=0&gpu_series=yes", NULL },
        { "job=x&step=0", NULL },
        { "job=7&step=0%3Bx", NULL },
        { "job=7", NULL },
        { "job=7&step=0&cluster=a%20b", NULL },
    };
    static struct jsw_request r;
    int64_t job;
    const char *step;
    char p[JSW_STORED_PARAMS_MAX];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&r, 0, sizeof r);
        snprintf(r.endpoint, sizeof r.endpoint, "step");
        r.max_rows = 5000;
        assert_int_equal(jsw_parse_query(&r, cases[i].qs, err, sizeof err), 0);
        bool got = jsw_stored_step_key(&r, &job, &step, p, sizeof p);
        assert_int_equal(got, cases[i].want != NULL);
        if (got) {
            assert_string_equal(p, cases[i].want);
            assert_int_equal(job, 7);
        }
    }
    /* a lower max_rows is part of the key: the keeper's replies (1000) do not match it */
    memset(&r, 0, sizeof r);
    snprintf(r.endpoint, sizeof r.endpoint, "step");
    r.max_rows = 200;
    assert_int_equal(jsw_parse_query(&r, "job=7&step=0&points=1500&gpu_series=1", err, sizeof err), 0);
    assert_true(jsw_stored_step_key(&r, &job, &step, p, sizeof p));
    assert_string_equal(p, "step=0&points=1500&gpu_series=1&rows=200");
    snprintf(r.endpoint, sizeof r.endpoint, "background");
    assert_false(jsw_stored_step_key(&r, &job, &step, p, sizeof p));
}

/* What the stored forms share (web/stored.c): only the names given, and a valid cluster= */
static void stored_forms_take_only_their_parameters(void **state)
{
    (void)state;
    static const char *const names[] = { "q", "cluster", "id" };
    static const struct {
        const char *qs;
        bool want;
    } cases[] = {
        { "q=job&id=7", true },          { "id=7&cluster=c1", true }, { "q=job&id=7&insight=yes", false },
        { "id=7&cluster=a%20b", false }, { "id=7&ID=8", false },
    };
    static struct jsw_request r;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&r, 0, sizeof r);
        assert_int_equal(jsw_parse_query(&r, cases[i].qs, err, sizeof err), 0);
        assert_int_equal(jsw_stored_only(&r, names, 3), cases[i].want);
    }
}

/* The spread the keeper stores (width 1) read back at a width as web_spread.c computes it: per
 * point the least min, the first greatest max with its node and pid, the most processes. */
static void stored_spread_reads_back_per_width(void **state)
{
    (void)state;
    static const char body[] = "{\"processes\":[2,3,1,0],\"node_names\":[\"a\",\"b\"],"
                               "\"cpu_ns\":{\"min\":[5,1,7,null],\"max\":[9,9,8,null],\"node\":[0,1,0,null],"
                               "\"pid\":[11,null,13,null]}}";
    static const struct {
        const char *body;
        size_t width;
        int rc;
        const char *want;
    } cases[] = {
        { body, 2, 0,
          "{\"processes\":[3,1],\"node_names\":[\"a\",\"b\"],\"cpu_ns\":{\"min\":[1,7],\"max\":[9,8],"
          "\"node\":[0,0],\"pid\":[11,13]}}" },
        { body, 4, 0, "{\"processes\":[3],\"node_names\":[\"a\",\"b\"],\"cpu_ns\":{\"min\":[1],\"max\":[9],"
                     "\"node\":[0],\"pid\":[11]}}" },
        { body, 1, 0, body }, /* as it was written */
        { "{\"processes\":[2,3,1],\"node_names\":[]}", 2, -1, "" },                    /* a slice short */
        { "{\"processes\":[2,3,1,0],\"node_names\":[\"a\"],\"cpu\":{}}", 2, -1, "" },    /* no such value */
        { "{\"processes\":[2,3,1,0],\"node_names\":[\"a\"],\"cpu_ns\":{\"min\":[1,1,1,1],\"max\":[1,1,1,1],"
          "\"node\":[0,1,0,0],\"pid\":[1,1,1,1]}}", 2, -1, "" },                          /* no node 1 */
        { "{\"processes\":[2,3,1,0],\"node_names\":[\"a\\\"b\"]}", 2, -1, "" },             /* an escape */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct jsw_text t = { 0 };
        jsw_text_lit(&t, "<"); /* what came before: nothing added to it when it does not read */
        assert_int_equal(jsw_spread_stored_text(&t, cases[i].body, 100, 4, cases[i].width), cases[i].rc);
        size_t n;
        char *got = jsw_text_take(&t, &n);
        assert_non_null(got);
        assert_string_equal(got + 1, cases[i].want);
        free(got);
    }
    char key[JSW_STORED_PARAMS_MAX];
    assert_true(jsw_spread_key(key, sizeof key, "batch", 441892800, 21600));
    assert_string_equal(key, "spread&step=batch&first=441892800&slices=21600");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(config_parses_keys_comments_and_admin_lists),
        cmocka_unit_test(config_rejects_unknown_keys_and_bad_values_with_line_numbers),
        cmocka_unit_test(config_munge_auth_is_off_unless_asked_for),
        cmocka_unit_test(admin_group_membership_counts_primary_group),
        cmocka_unit_test(user_names_are_strict),
        cmocka_unit_test(query_strings_decode_and_refuse_junk),
        cmocka_unit_test(endpoint_comes_from_path_info_or_q),
        cmocka_unit_test(typed_parameters_are_bounded),
        cmocka_unit_test(text_parameters_must_be_utf8),
        cmocka_unit_test(steps_are_numbers_or_slurm_words),
        cmocka_unit_test(error_bodies_carry_status_and_message),
        cmocka_unit_test(every_endpoint_query_is_compiled_in),
        cmocka_unit_test(json_text_matches_jansson),
        cmocka_unit_test(jsonb_text_matches_jansson),
        cmocka_unit_test(json_text_real_integral_ends_there),
        cmocka_unit_test(series_text_sums_runs_of_slices),
        cmocka_unit_test(stored_step_keys_are_canonical),
        cmocka_unit_test(stored_forms_take_only_their_parameters),
        cmocka_unit_test(stored_spread_reads_back_per_width),
    };
    return cmocka_run_group_tests_name("web", tests, NULL, NULL);
}
