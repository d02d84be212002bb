/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the spool generator (bench/gen, jsgen): the same seed gives the same files byte
 * for byte, and what it writes validates against the one definition of each format
 * (common/record_format.h, common/profile_format.h) and the spool layout (docs/spool.md), with
 * scheduler dependencies and file edges (a file written by one job, read later by another);
 * both shapes, in files or in bundles, pass the ingest's own validation (nothing would be
 * quarantined), and the uniform shape's values are the functions of their position that the
 * tests count on.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/gen/gen.h"
#include "profile_format.h"
#include "record_format.h"
#include "validate.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    if (fread(p, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(p);
        return NULL;
    }
    p[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return p;
}

static void rm_rf(const char *path)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    if (system(cmd) != 0)
        fprintf(stderr, "# could not remove %s\n", path);
}

static void small_params(struct jsgen_params *p, const char *out, uint64_t seed)
{
    jsgen_defaults(p, JSGEN_CLUSTER);
    p->out = out;
    p->nodes = 16;
    p->hours = 3;
    p->ppn = 2;
    p->users = 3;
    p->seed = seed;
    p->duration_scale = 0.3;
    p->uid = (long)getuid();
    p->chown_profiles = 0;
}

/* ---- determinism ------------------------------------------------------------------------ */
struct listing { char **names; size_t n, cap; };

static void list_tree(const char *root, const char *rel, struct listing *l)
{
    char path[4608];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    DIR *d = opendir(path);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char sub[2048];
        if (snprintf(sub, sizeof sub, "%s/%s", rel, e->d_name) >= (int)sizeof sub)
            fail_msg("path too long");
        if (!*rel)
            memmove(sub, sub + 1, strlen(sub));
        snprintf(path, sizeof path, "%s/%s", root, sub);
        struct stat sb;
        assert_int_equal(lstat(path, &sb), 0);
        if (S_ISDIR(sb.st_mode)) {
            list_tree(root, sub, l);
        } else {
            if (l->n == l->cap) {
                l->cap = l->cap ? l->cap * 2 : 256;
                l->names = realloc(l->names, l->cap * sizeof *l->names);
            }
            l->names[l->n++] = strdup(sub);
        }
    }
    closedir(d);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void same_seed_gives_the_same_files(void **state)
{
    (void)state;
    char a[] = "/tmp/jsgen-test-XXXXXX", b[] = "/tmp/jsgen-test-XXXXXX", c[] = "/tmp/jsgen-test-XXXXXX";
    assert_non_null(mkdtemp(a));
    assert_non_null(mkdtemp(b));
    assert_non_null(mkdtemp(c));
    struct jsgen_params p;
    struct jsgen_summary sa, sb, sc;
    small_params(&p, a, 42);
    assert_int_equal(jsgen_run(&p, &sa), 0);
    small_params(&p, b, 42);
    assert_int_equal(jsgen_run(&p, &sb), 0);
    small_params(&p, c, 43);
    assert_int_equal(jsgen_run(&p, &sc), 0);
    assert_memory_equal(&sa, &sb, sizeof sa);
    assert_true(sa.jobs > 10);

    struct listing la = { 0 }, lb = { 0 };
    list_tree(a, "", &la);
    list_tree(b, "", &lb);
    assert_int_equal(la.n, lb.n);
    qsort(la.names, la.n, sizeof *la.names, cmp_str);
    qsort(lb.names, lb.n, sizeof *lb.names, cmp_str);
    for (size_t i = 0; i < la.n; i++) {
        assert_string_equal(la.names[i], lb.names[i]);
        char pa[4200], pb[4200];
        snprintf(pa, sizeof pa, "%s/%s", a, la.names[i]);
        snprintf(pb, sizeof pb, "%s/%s", b, lb.names[i]);
        size_t na, nb;
        char *x = slurp(pa, &na), *y = slurp(pb, &nb);
        assert_non_null(x);
        assert_non_null(y);
        assert_int_equal(na, nb);
        assert_memory_equal(x, y, na);
        free(x);
        free(y);
        free(la.names[i]);
        free(lb.names[i]);
    }
    free(la.names);
    free(lb.names);
    /* another seed, another cluster */
    assert_true(sc.profile_rows != sa.profile_rows || sc.bytes != sa.bytes);
    rm_rf(a);
    rm_rf(b);
    rm_rf(c);
}

/* ---- validation against the formats -------------------------------------------------------- */
static void check_record(json_t *o, const struct js_record_field *t, const char *where)
{
    assert_true(json_is_object(o));
    size_t n = 0;
    for (; t->name; t++, n++) {
        json_t *v = json_object_get(o, t->name);
        if (!v)
            fail_msg("%s: field %s missing", where, t->name);
        int ok = json_is_null(v) ? t->nullable
               : t->type == JS_FIELD_STRING ? json_is_string(v)
               : t->type == JS_FIELD_INTEGER ? json_is_integer(v)
               : t->type == JS_FIELD_BOOLEAN ? json_is_boolean(v)
               : t->type == JS_FIELD_ARRAY ? json_is_array(v)
               : json_is_object(v);
        if (!ok)
            fail_msg("%s: field %s has the wrong type", where, t->name);
    }
    if (json_object_size(o) != n)
        fail_msg("%s: %zu fields, the format has %zu", where, json_object_size(o), n);
}

struct access { char path[256]; uint32_t job; int write; uint64_t t; };
struct accesses { struct access *a; size_t n, cap; };

static void add_access(struct accesses *x, const char *path, uint32_t job, int write, uint64_t t)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? x->cap * 2 : 1024;
        x->a = realloc(x->a, x->cap * sizeof *x->a);
    }
    snprintf(x->a[x->n].path, sizeof x->a[x->n].path, "%s", path);
    x->a[x->n].job = job;
    x->a[x->n].write = write;
    x->a[x->n].t = t;
    x->n++;
}

static const char pf_types[] = {
#define JS_X(id, name, type, unit, desc) type,
    JS_PROFILE_FIELDS(JS_X)
#undef JS_X
};
static const char *const pf_names[] = {
#define JS_X(id, name, type, unit, desc) name,
    JS_PROFILE_FIELDS(JS_X)
#undef JS_X
};
static const char ff_types[] = {
#define JS_X(id, name, type, unit, desc) type,
    JS_PROFILE_FILE_FIELDS(JS_X)
#undef JS_X
};
static const char *const ff_names[] = {
#define JS_X(id, name, type, unit, desc) name,
    JS_PROFILE_FILE_FIELDS(JS_X)
#undef JS_X
};
static const char *const rf_names[] = {
#define JS_X(id, name, desc) name,
    JS_PROFILE_RUNTIME_FIELDS(JS_X)
#undef JS_X
};

static int type_ok(json_t *v, char t)
{
    switch (t) {
    case 's': return json_is_string(v);
    case 'u': return json_is_integer(v) && json_integer_value(v) >= 0;
    case 'i': return json_is_integer(v);
    case 'b': return json_is_boolean(v);
    case 'o': return json_is_object(v);
    case 'a': return json_is_array(v);
    }
    return 0;
}

static void check_profile(const char *path, json_t *o, uint32_t job, const char *step, const char *node, json_int_t uid,
                          struct accesses *acc)
{
    size_t nf = sizeof pf_names / sizeof pf_names[0];
    assert_int_equal(json_object_size(o), nf);
    for (size_t i = 0; i < nf; i++) {
        json_t *v = json_object_get(o, pf_names[i]);
        if (!v || !type_ok(v, pf_types[i]))
            fail_msg("%s: member %s missing or of the wrong type", path, pf_names[i]);
    }
    assert_string_equal(json_string_value(json_object_get(o, "format")), JS_PROFILE_FORMAT_NAME);
    assert_int_equal(json_integer_value(json_object_get(o, "version")), JS_PROFILE_VERSION);
    assert_int_equal(json_integer_value(json_object_get(o, "job_id")), job);
    assert_string_equal(json_string_value(json_object_get(o, "step")), step);
    assert_string_equal(json_string_value(json_object_get(o, "node")), node);
    assert_int_equal(json_integer_value(json_object_get(o, "uid")), uid);
    json_int_t t0 = json_integer_value(json_object_get(o, "start_ns")), t1 = json_integer_value(json_object_get(o, "end_ns"));
    assert_true(t0 < t1);
    assert_int_equal(json_integer_value(json_object_get(o, "wall_ns")), t1 - t0);
    json_int_t L = json_integer_value(json_object_get(o, "slice_seconds"));
    json_t *rt = json_object_get(o, "runtime");
    assert_int_equal(json_object_size(rt), sizeof rf_names / sizeof rf_names[0]);
    for (size_t i = 0; i < sizeof rf_names / sizeof rf_names[0]; i++)
        assert_true(json_is_integer(json_object_get(rt, rf_names[i])));
    json_t *sm = json_object_get(o, "slice_metrics");
    assert_int_equal(json_array_size(sm), JS_SLICE_COLS);
    for (int m = 0; m < JS_SLICE_COLS; m++)
        assert_string_equal(json_string_value(json_array_get(sm, (size_t)m)), js_profile_slice_cols[m].name);
    /* rows: 1 + JS_SLICE_COLS integers, ascending, inside the process's life; totals and
     * kernel_io = their sums */
    uint64_t sum[JS_SLICE_COLS] = { 0 };
    json_t *rows = json_object_get(o, "slices");
    assert_true(json_array_size(rows) > 0);
    json_int_t prev = -1;
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        assert_int_equal(json_array_size(row), 1 + JS_SLICE_COLS);
        json_int_t s = json_integer_value(json_array_get(row, 0));
        assert_true(s > prev);
        assert_true(s >= t0 / 1000000000 / L && s <= t1 / 1000000000 / L);
        prev = s;
        for (int m = 0; m < JS_SLICE_COLS; m++) {
            json_t *v = json_array_get(row, (size_t)m + 1);
            assert_true(json_is_integer(v) && json_integer_value(v) >= 0);
            sum[m] += (uint64_t)json_integer_value(v);
        }
    }
    json_t *tot = json_object_get(o, "totals");
    assert_int_equal(json_object_size(tot), JS_M_COUNT);
    for (int m = 0; m < JS_M_COUNT; m++)
        assert_int_equal((uint64_t)json_integer_value(json_object_get(tot, js_profile_metrics[m].name)), sum[m]);
    json_t *kio = json_object_get(o, "kernel_io");
    assert_int_equal(json_object_size(kio), JS_KIO_COUNT);
    assert_int_equal((uint64_t)json_integer_value(json_object_get(kio, "rchar")), sum[JS_M_COUNT + JS_KIO_RCHAR]);
    assert_int_equal((uint64_t)json_integer_value(json_object_get(kio, "write_bytes")), sum[JS_M_COUNT + JS_KIO_WRITE_BYTES]);
    json_t *files = json_object_get(o, "files"), *f;
    assert_true(json_array_size(files) <= JS_PROFILE_MAX_FILES);
    json_array_foreach(files, i, f) {
        assert_int_equal(json_object_size(f), sizeof ff_names / sizeof ff_names[0]);
        for (size_t k = 0; k < sizeof ff_names / sizeof ff_names[0]; k++) {
            json_t *v = json_object_get(f, ff_names[k]);
            if (!v || !type_ok(v, ff_types[k]))
                fail_msg("%s: file member %s missing or of the wrong type", path, ff_names[k]);
        }
        const char *used = json_string_value(json_object_get(f, "used_mode"));
        const char *fpath = json_string_value(json_object_get(f, "path"));
        assert_true(fpath[0] == '/');
        if (!strncmp(fpath, "/tmp/", 5))
            continue; /* node-local */
        if (strchr(used, 'r'))
            add_access(acc, fpath, job, 0, (uint64_t)json_integer_value(json_object_get(f, "first_open_ns")));
        if (strchr(used, 'w'))
            add_access(acc, fpath, job, 1, (uint64_t)json_integer_value(json_object_get(f, "last_close_ns")));
    }
}

struct gen_counts { uint64_t step_nodes, profiles, rows; };

/* The step records of job id (directory jobdir of the spool dir), and the profiles of each. */
static void check_steps(const char *dir, const char *jobdir, uint32_t id, json_int_t uid, struct accesses *acc,
                        struct gen_counts *c)
{
    char path[4200], name[256];
    json_error_t err;
    size_t k;
    snprintf(path, sizeof path, "%s/%s", dir, jobdir);
    DIR *jd = opendir(path);
    struct dirent *se;
    while ((se = readdir(jd))) {
        if (strncmp(se->d_name, JS_STEP_RECORD_PREFIX, strlen(JS_STEP_RECORD_PREFIX)))
            continue;
        snprintf(path, sizeof path, "%s/%s/%s", dir, jobdir, se->d_name);
        json_t *st = json_load_file(path, 0, &err);
        assert_non_null(st);
        check_record(st, js_step_record_fields, path);
        json_t *task;
        json_array_foreach(json_object_get(st, "task_list"), k, task)
            check_record(task, js_task_fields, path);
        const char *step = json_string_value(json_object_get(st, "step"));
        const char *node = json_string_value(json_object_get(st, "node"));
        uint32_t step_id;
        assert_int_equal(js_step_parse(step, &step_id), 0);
        assert_int_equal(json_integer_value(json_object_get(st, "step_id")), step_id);
        js_step_record_name(name, sizeof name, step_id, node);
        assert_string_equal(name, se->d_name);
        assert_int_equal(json_integer_value(json_object_get(st, "uid")), uid);
        c->step_nodes++;
        /* one profile per local task, named <step>.<node>.<pid>.json */
        json_array_foreach(json_object_get(st, "task_list"), k, task) {
            snprintf(path, sizeof path, "%s/%s/%s/%s.%s.%" JSON_INTEGER_FORMAT ".json", dir, jobdir,
                     JS_PROFILES_DIR_NAME, step, node, json_integer_value(json_object_get(task, "pid")));
            json_t *pr = json_load_file(path, 0, &err);
            if (!pr)
                fail_msg("%s: %s", path, err.text);
            check_profile(path, pr, id, step, node, uid, acc);
            c->rows += json_array_size(json_object_get(pr, "slices"));
            c->profiles++;
            json_decref(pr);
        }
        json_decref(st);
    }
    closedir(jd);
}

/* File edges: distinct (writer job, reader job) pairs where the write ended before the read. */
static uint64_t count_file_links(const struct accesses *acc)
{
    uint64_t links = 0;
    uint64_t *pairs = NULL;
    size_t npairs = 0;
    for (size_t w = 0; w < acc->n; w++) {
        if (!acc->a[w].write)
            continue;
        for (size_t r = 0; r < acc->n; r++) {
            if (acc->a[r].write || acc->a[r].job == acc->a[w].job || strcmp(acc->a[r].path, acc->a[w].path) ||
                acc->a[w].t > acc->a[r].t)
                continue;
            uint64_t key = (uint64_t)acc->a[w].job << 32 | acc->a[r].job;
            int dup = 0;
            for (size_t q = 0; q < npairs && !dup; q++)
                dup = pairs[q] == key;
            if (!dup) {
                pairs = realloc(pairs, (npairs + 1) * sizeof *pairs);
                pairs[npairs++] = key;
                links++;
            }
        }
    }
    free(pairs);
    return links;
}

static void output_validates_against_the_formats(void **state)
{
    (void)state;
    char dir[] = "/tmp/jsgen-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct jsgen_params p;
    struct jsgen_summary s;
    small_params(&p, dir, 7);
    assert_int_equal(jsgen_run(&p, &s), 0);
    assert_true(s.sched_deps > 0);
    assert_true(s.file_links > 0);
    assert_true(s.arrays > 0);

    struct accesses acc = { 0 };
    uint64_t jobs = 0, deps = 0;
    struct gen_counts c = { 0 };
    DIR *d = opendir(dir);
    struct dirent *e;
    uint32_t *ids = NULL;
    size_t nids = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        uint32_t id;
        assert_int_equal(sscanf(e->d_name, "job.%" SCNu32, &id), 1);
        char path[4200];
        snprintf(path, sizeof path, "%s/%s/%s", dir, e->d_name, JS_JOB_RECORD_NAME);
        json_error_t err;
        json_t *job = json_load_file(path, 0, &err);
        assert_non_null(job);
        check_record(job, js_job_record_fields, path);
        assert_string_equal(json_string_value(json_object_get(job, "format")), JS_JOB_RECORD_FORMAT);
        assert_int_equal(json_integer_value(json_object_get(job, "job_id")), id);
        json_int_t uid = json_integer_value(json_object_get(job, "uid"));
        json_t *dep;
        size_t k;
        json_array_foreach(json_object_get(job, "dependencies"), k, dep) {
            check_record(dep, js_dependency_fields, path);
            assert_true(json_integer_value(json_object_get(dep, "job_id")) < id);
            deps++;
        }
        ids = realloc(ids, (nids + 1) * sizeof *ids);
        ids[nids++] = id;
        jobs++;
        check_steps(dir, e->d_name, id, uid, &acc, &c);
        json_decref(job);
    }
    closedir(d);
    assert_int_equal(jobs, s.jobs);
    assert_int_equal(c.step_nodes, s.step_nodes);
    assert_int_equal(c.profiles, s.profiles);
    assert_int_equal(deps, s.sched_deps);
    assert_int_equal(c.rows, s.profile_rows);
    /* every dependency names a job of the spool */
    assert_int_equal(count_file_links(&acc), s.file_links);
    free(acc.a);
    free(ids);
    rm_rf(dir);
}


/* ---- the ingest's validation (profile_ingest/validate.c) -------------------------------------- */
struct ingested { uint64_t jobs, step_nodes, profiles; };

static json_t *load_json(const char *path)
{
    size_t len;
    char *text = slurp(path, &len);
    if (!text)
        fail_msg("%s: cannot read it", path);
    char reason[PI_REASON_MAX];
    json_t *j = pi_json_parse(text, len, reason, sizeof reason);
    free(text);
    if (!j)
        fail_msg("%s: %s", path, reason);
    return j;
}

/* Every record and profile of the spool DIR as the ingest takes them: each step record with
 * the profiles (or bundles) of its step and node. Calls each(step) after pi_step_finish. */
static void ingest_spool(const char *dir, struct ingested *n, void (*each)(const struct pi_step *))
{
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    memset(n, 0, sizeof *n);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    char path[4200], reason[PI_REASON_MAX];
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "job.", 4))
            continue;
        snprintf(path, sizeof path, "%s/%s/%s", dir, e->d_name, JS_JOB_RECORD_NAME);
        json_t *job = load_json(path);
        if (pi_record_check(job, 0, reason, sizeof reason) != PI_OK)
            fail_msg("%s: %s", path, reason);
        n->jobs++;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        DIR *jd = opendir(path);
        assert_non_null(jd);
        struct dirent *se;
        while ((se = readdir(jd))) {
            char step[JS_STEP_NAME_MAX], node[256];
            if (pi_parse_step_record_name(se->d_name, step, sizeof step, node, sizeof node) < 0)
                continue;
            snprintf(path, sizeof path, "%s/%s/%s", dir, e->d_name, se->d_name);
            json_t *rec = load_json(path);
            if (pi_record_check(rec, 1, reason, sizeof reason) != PI_OK)
                fail_msg("%s: %s", path, reason);
            struct pi_step st;
            json_incref(job);
            pi_step_init(&st, job, rec, "default");
            snprintf(path, sizeof path, "%s/%s/%s", dir, e->d_name, JS_PROFILES_DIR_NAME);
            DIR *pd = opendir(path);
            assert_non_null(pd);
            struct dirent *pe;
            int count = 0;
            while ((pe = readdir(pd))) {
                if (!pi_profile_name_matches(pe->d_name, step, node))
                    continue;
                snprintf(path, sizeof path, "%s/%s/%s/%s", dir, e->d_name, JS_PROFILES_DIR_NAME, pe->d_name);
                json_t *pj = load_json(path);
                int rc = pi_is_bundle(pj) ? pi_bundle_add(&st, &conf, pj, &count, reason, sizeof reason)
                                          : (count++, pi_profile_add(&st, &conf, pj, reason, sizeof reason));
                if (rc != PI_OK)
                    fail_msg("%s: would be quarantined: %s", path, reason);
                json_decref(pj);
            }
            closedir(pd);
            pi_step_finish(&st);
            assert_int_equal(st.nbad, 0);
            assert_int_equal(st.nprocs, (size_t)json_integer_value(json_object_get(rec, "local_tasks")));
            n->profiles += st.nprocs;
            n->step_nodes++;
            if (each)
                each(&st);
            pi_step_free(&st);
        }
        closedir(jd);
        json_decref(job);
    }
    closedir(d);
    pi_conf_free(&conf);
}

static void uniform_params(struct jsgen_params *p, const char *out)
{
    jsgen_defaults(p, JSGEN_UNIFORM);
    p->out = out;
    p->jobs = 3;
    p->steps = 2;
    p->nodes = 2;
    p->ppn = 3;
    p->slices = 5;
    p->files = 2;
    p->killed = 1;
    p->start_s = 1800000000;
    p->uid = (long)getuid();
    p->chown_profiles = 0;
}

static void both_shapes_pass_the_ingests_validation(void **state)
{
    (void)state;
    for (int bundle = 0; bundle <= 1; bundle++) {
        char a[] = "/tmp/jsgen-test-XXXXXX", b[] = "/tmp/jsgen-test-XXXXXX";
        assert_non_null(mkdtemp(a));
        assert_non_null(mkdtemp(b));
        struct jsgen_params p;
        struct jsgen_summary s;
        struct ingested n;
        small_params(&p, a, 11);
        p.bundle = bundle;
        assert_int_equal(jsgen_run(&p, &s), 0);
        ingest_spool(a, &n, NULL);
        assert_int_equal(n.jobs, s.jobs);
        assert_int_equal(n.step_nodes, s.step_nodes);
        assert_int_equal(n.profiles, s.profiles);
        uniform_params(&p, b);
        p.bundle = bundle;
        p.spread = 1;
        p.slow[0].node = "gen2";
        p.slow[0].factor = 1.5;
        p.nslow = 1;
        assert_int_equal(jsgen_run(&p, &s), 0);
        ingest_spool(b, &n, NULL);
        assert_int_equal(n.jobs, 3);
        assert_int_equal(n.step_nodes, 3 * 2);
        assert_int_equal(n.profiles, 3 * 2 * 3);
        rm_rf(a);
        rm_rf(b);
    }
}

/* ---- the node's fold: a bundle's series against its processes' own slices -------------- */
/* The step-nodes of one ingest_spool run, their slices copied (each() has no context). */
struct seen_step_node {
    char key[300];
    struct pi_slice *slices;
    size_t n, procs;
};
static struct seen_step_node seen[4096];
static size_t nseen;

static void keep_step_node(const struct pi_step *st)
{
    assert_true(nseen < sizeof seen / sizeof seen[0]);
    struct seen_step_node *k = &seen[nseen++];
    snprintf(k->key, sizeof k->key, "%" PRId64 "/%s/%s", st->job_id, st->step, st->node);
    k->slices = malloc((st->nslices ? st->nslices : 1) * sizeof *k->slices);
    memcpy(k->slices, st->slices, st->nslices * sizeof *k->slices);
    k->n = st->nslices;
    k->procs = st->nprocs;
}

static int cmp_seen(const void *a, const void *b)
{
    return strcmp(((const struct seen_step_node *)a)->key, ((const struct seen_step_node *)b)->key);
}

/* The same cluster as files of one profile (their slices in them) and as bundles (their slices
 * summed on the "node" into the bundle's series): every step-node has the same slices, sums,
 * process counts and spread (least, most, whose most), slice by slice. */
static void bundles_series_equal_the_processes_slices(void **state)
{
    (void)state;
    struct seen_step_node *by[2];
    size_t n[2];
    for (int bundle = 0; bundle <= 1; bundle++) {
        char a[] = "/tmp/jsgen-test-XXXXXX";
        assert_non_null(mkdtemp(a));
        struct jsgen_params p;
        struct jsgen_summary s;
        struct ingested got;
        small_params(&p, a, 5);
        p.ppn = 4;
        p.bundle = bundle;
        assert_int_equal(jsgen_run(&p, &s), 0);
        nseen = 0;
        ingest_spool(a, &got, keep_step_node);
        rm_rf(a);
        by[bundle] = malloc(nseen * sizeof *by[bundle]);
        memcpy(by[bundle], seen, nseen * sizeof *seen);
        n[bundle] = nseen;
        qsort(by[bundle], nseen, sizeof *seen, cmp_seen);
    }
    assert_int_equal(n[0], n[1]);
    assert_true(n[0] > 20);
    size_t many = 0;
    for (size_t i = 0; i < n[0]; i++) {
        const struct seen_step_node *f = &by[0][i], *b = &by[1][i];
        assert_string_equal(f->key, b->key);
        assert_int_equal(f->procs, b->procs);
        assert_int_equal(f->n, b->n);
        for (size_t k = 0; k < f->n; k++) {
            const struct pi_slice *x = &f->slices[k], *y = &b->slices[k];
            assert_int_equal(x->slice, y->slice);
            assert_int_equal(x->processes, y->processes);
            assert_memory_equal(x->m, y->m, sizeof x->m);
            assert_memory_equal(x->lo, y->lo, sizeof x->lo);
            assert_memory_equal(x->hi, y->hi, sizeof x->hi);
            assert_memory_equal(x->hi_pid, y->hi_pid, sizeof x->hi_pid);
            many += x->processes > 1 && x->lo[JS_SPREAD_CPU_NS] < x->hi[JS_SPREAD_CPU_NS];
        }
        free(f->slices);
        free(b->slices);
    }
    assert_true(many > 0); /* slices where processes differ: the spread is not trivially the sum */
    free(by[0]);
    free(by[1]);
}

/* the uniform shape of gen.h, as the ingest sums a step-node */
static void check_uniform_step_node(const struct pi_step *st)
{
    assert_int_equal(st->nslices, 5);
    for (size_t k = 0; k < st->nslices; k++) {
        assert_int_equal(st->slices[k].slice, 1800000000 / 4 + (int64_t)k);
        assert_int_equal(st->slices[k].processes, 3);
        assert_int_equal(st->slices[k].m[JS_M_POSIX_WRITE_CALLS], 3);
        assert_int_equal(st->slices[k].m[JS_M_POSIX_WRITE_BYTES], 3 * (1000 + (int64_t)k));
        assert_int_equal(st->slices[k].m[JS_M_CPU_NS], 3 * (!strcmp(st->node, "gen2") ? 2000000 : 1000000));
        assert_int_equal(st->slices[k].m[JS_M_COUNT + JS_KIO_RCHAR], k ? 0 : 3 * 10);
    }
    assert_int_equal(st->nfiles, 3 * 2 + 1); /* each process's two, and /gen/input */
    int killed = 0;
    for (size_t i = 0; i < st->nprocs; i++) {
        const struct pi_proc *pr = &st->procs[i];
        assert_true(pr->pid >= 1000 && pr->pid < 1003);
        if (pr->signal) {
            assert_int_equal(pr->pid, 1002);
            assert_int_equal(pr->signal, 9);
            assert_int_equal(pr->exit_code, -1);
            assert_string_equal(pr->missing, "CPU time after the kill");
            killed++;
        } else {
            assert_int_equal(pr->exit_code, 0);
            assert_string_equal(pr->missing, "");
        }
        assert_int_equal(pr->m[JS_M_POSIX_WRITE_BYTES], 5 * 1000 + 10);
    }
    assert_int_equal(killed, 1);
}

static void uniform_values_are_functions_of_their_position(void **state)
{
    (void)state;
    char a[] = "/tmp/jsgen-test-XXXXXX";
    assert_non_null(mkdtemp(a));
    struct jsgen_params p;
    struct jsgen_summary s;
    struct ingested n;
    uniform_params(&p, a);
    p.slow[0].node = "gen2";
    p.slow[0].factor = 2;
    p.nslow = 1;
    assert_int_equal(jsgen_run(&p, &s), 0);
    ingest_spool(a, &n, check_uniform_step_node);
    assert_int_equal(n.step_nodes, 3 * 2 * 2);
    assert_int_equal(s.profile_rows, 3 * 2 * 2 * 3 * 5);
    /* the names the tests use: job.<id>/profiles/<step>.gen<n>.<1000 + p>.json, step.<step>.gen<n>.json */
    char path[4200];
    struct stat sb;
    snprintf(path, sizeof path, "%s/job.1002/%s/1.gen2.1002.json", a, JS_PROFILES_DIR_NAME);
    assert_int_equal(stat(path, &sb), 0);
    snprintf(path, sizeof path, "%s/job.1002/step.1.gen2.json", a);
    assert_int_equal(stat(path, &sb), 0);
    rm_rf(a);
}

/* ---- --shared-files: the same cluster, its processes sharing their files (N-1) ---------- */
/* In the spool at dir: the files naming a scratch file of a process (/tmp/js.JOB.PID) and a
 * checkpoint of a rank (/scratch/USER/jobJOB/ckpt.STEP.RANK, not .h5) */
static void count_own_files(const char *dir, size_t *scratch, size_t *rank_ckpt)
{
    struct listing l = { 0 };
    list_tree(dir, "", &l);
    *scratch = *rank_ckpt = 0;
    for (size_t i = 0; i < l.n; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, l.names[i]);
        size_t n;
        char *text = slurp(path, &n);
        assert_non_null(text);
        for (const char *q = text; (q = strstr(q, "\"/tmp/js.")); q++)
            (*scratch)++;
        for (const char *q = text; (q = strstr(q, "/ckpt.")); q++) {
            size_t k = strcspn(q, "\"");
            if (k < 3 || strncmp(q + k - 3, ".h5", 3))
                (*rank_ckpt)++;
        }
        free(text);
        free(l.names[i]);
    }
    free(l.names);
}

static void shared_files_leave_no_file_of_each_process(void **state)
{
    (void)state;
    char a[] = "/tmp/jsgen-test-XXXXXX", b[] = "/tmp/jsgen-test-XXXXXX";
    assert_non_null(mkdtemp(a));
    assert_non_null(mkdtemp(b));
    struct jsgen_params p;
    struct jsgen_summary sa, sb;
    small_params(&p, a, 5);
    assert_int_equal(jsgen_run(&p, &sa), 0);
    small_params(&p, b, 5);
    p.shared_files = 1;
    assert_int_equal(jsgen_run(&p, &sb), 0);
    size_t scratch, ckpt;
    count_own_files(a, &scratch, &ckpt);
    assert_true(scratch >= sa.profiles / 2); /* each parallel process its own scratch file */
    assert_true(ckpt > 0);
    count_own_files(b, &scratch, &ckpt);
    assert_int_equal(scratch, 0);
    assert_int_equal(ckpt, 0);
    /* the same jobs, steps, processes and edges, fewer file entries */
    assert_int_equal(sb.jobs, sa.jobs);
    assert_int_equal(sb.step_nodes, sa.step_nodes);
    assert_int_equal(sb.profiles, sa.profiles);
    assert_int_equal(sb.sched_deps, sa.sched_deps);
    assert_int_equal(sb.file_links, sa.file_links);
    assert_true(sb.file_entries < sa.file_entries);
    struct ingested n;
    ingest_spool(b, &n, NULL);
    assert_int_equal(n.step_nodes, sb.step_nodes);
    rm_rf(a);
    rm_rf(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_gives_the_same_files),
        cmocka_unit_test(output_validates_against_the_formats),
        cmocka_unit_test(both_shapes_pass_the_ingests_validation),
        cmocka_unit_test(bundles_series_equal_the_processes_slices),
        cmocka_unit_test(uniform_values_are_functions_of_their_position),
        cmocka_unit_test(shared_files_leave_no_file_of_each_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
