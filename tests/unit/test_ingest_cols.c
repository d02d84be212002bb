/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bundle version 3 (common/bundle_cols.h: the processes of a bundle as columns) against the
 * ingest: one cluster of the generator written as bundles of version 2 and of version 3 ingests
 * to identical step-nodes (every process, file, tree, rename, MPI segment group and slice), and
 * forged columns are refused: a malformed column, count, dictionary or index refuses the bundle
 * whole (nothing of it kept), a process with a value no node could produce is refused alone,
 * with validate.c's reasons.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/gen/gen.h"
#include "bundle_cols.h"
#include "series.h"
#include "validate.h"

static json_t *load(const char *path)
{
    json_error_t err;
    json_t *j = json_load_file(path, 0, &err);
    if (!j)
        fail_msg("%s: %s", path, err.text);
    return j;
}

static void rm_rf(const char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* ---- one cluster as bundles of version 2 and 3 ------------------------------------------- */
struct text {
    char *p;
    size_t n, cap;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int l = vsnprintf(t->p ? t->p + t->n : NULL, t->p ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (t->p && t->n + (size_t)l < t->cap) {
            t->n += (size_t)l;
            return;
        }
        t->cap = 2 * (t->cap + (size_t)l + 64);
        t->p = realloc(t->p, t->cap);
        assert_non_null(t->p);
    }
}

/* Everything the database gets of a step-node, in words. */
static void describe(const struct pi_step *st, struct text *t)
{
    put(t, "%" PRId64 "/%s/%s procs %zu files %zu trees %zu renames %zu slices %zu\n", st->job_id, st->step, st->node,
        st->nprocs, st->nfiles, st->ntrees, st->nrenames, st->nslices);
    for (size_t i = 0; i < st->nprocs; i++) {
        const struct pi_proc *p = &st->procs[i];
        put(t, "p %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64
               " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64
               " %" PRId64 " %" PRId64 " %" PRId64 " %d %d %d %d [%s] [%s] [%s] [%s] [%s] [%s]",
            p->pid, p->ppid, p->task_id, p->mpi_rank, p->mpi_size, p->start_ns, p->end_ns, p->wall_ns, p->cpu_user_ns,
            p->cpu_sys_ns, p->max_rss_kib, p->threads_peak, p->threads_seen, p->compute_ns, p->files_dropped, p->idle_ns,
            p->mpi_setup_ns, p->cpu_wait_ns, p->sync_calls, p->sync_ns, p->code_dropped, p->image, p->slices_truncated,
            p->exit_code, p->signal, p->origin, p->end, p->exe, p->args, p->collectives, p->missing);
        for (int k = 0; k < JS_KIO_COUNT; k++)
            put(t, " %" PRId64, p->kio[k]);
        for (int m = 0; m < JS_M_COUNT; m++)
            put(t, " %" PRId64, p->m[m]);
        put(t, "\n");
    }
    for (size_t i = 0; i < st->nfiles; i++) {
        const struct pi_file *f = &st->files[i];
        put(t, "f %s %s %d %d %d %d %d %d %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64
               " %" PRId64 " %" PRId64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 " %d\n",
            f->path, f->fstype, f->shared, f->read, f->written, f->opened_r, f->opened_w, f->processes, f->opens, f->reads,
            f->writes, f->bytes_read, f->bytes_written, f->first_access, f->last_access, f->first_read, f->last_write, f->dev,
            f->ino, f->btime, f->mapped_bytes, f->layers);
    }
    for (size_t i = 0; i < st->ntrees; i++)
        put(t, "t %s %d %" PRId64 " %" PRId64 " %" PRId64 "\n", st->trees[i].path, st->trees[i].processes, st->trees[i].opens,
            st->trees[i].read_bytes, st->trees[i].write_bytes);
    for (size_t i = 0; i < st->nrenames; i++)
        put(t, "r %s %s %s %" PRId64 "\n", st->renames[i].from, st->renames[i].to, st->renames[i].fstype, st->renames[i].ns);
    put(t, "seg %d %" PRId64 " %" PRId64 " %" PRId64 " groups %zu slow %zu\n", st->seg_processes, st->seg_boundaries,
        st->seg_ungrouped, st->seg_ungrouped_ns, st->nseg_groups, st->nseg_slow);
    for (size_t i = 0; i < st->nseg_groups; i++) {
        const struct pi_seg_group *g = &st->seg_groups[i];
        put(t, "g %s %s %d %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64, g->sig, g->boundary, g->processes, g->count,
            g->sum_ns, g->min_ns, g->max_ns);
        for (int b = 0; b < JS_SEG_BINS; b++)
            if (g->bins[b])
                put(t, " %d:%" PRId64, b, g->bins[b]);
        put(t, "\n");
    }
    for (size_t i = 0; i < st->nslices; i++) {
        const struct pi_slice *s = &st->slices[i];
        put(t, "s %" PRId64 " %d", s->slice, s->processes);
        for (int m = 0; m < JS_SLICE_COLS; m++)
            put(t, " %" PRId64, s->m[m]);
        for (int k = 0; k < JS_SPREAD_COUNT; k++)
            put(t, " %" PRId64 "/%" PRId64 "/%" PRId64, s->lo[k], s->hi[k], s->hi_pid[k]);
        put(t, "\n");
    }
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every step-node of a spool, ingested as the daemon does (nothing refused), described; sorted. */
static size_t ingest_dir(const char *dir, char ***out, size_t *segs, size_t *colls)
{
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    char path[4200], reason[PI_REASON_MAX];
    size_t n = 0;
    *out = NULL;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "job.", 4))
            continue;
        snprintf(path, sizeof path, "%s/%s/job.json", dir, e->d_name);
        json_t *job = load(path);
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        DIR *jd = opendir(path);
        struct dirent *se;
        while ((se = readdir(jd))) {
            char step[JS_STEP_NAME_MAX], node[256];
            if (pi_parse_step_record_name(se->d_name, step, sizeof step, node, sizeof node) < 0)
                continue;
            snprintf(path, sizeof path, "%s/%s/%s", dir, e->d_name, se->d_name);
            struct pi_step st;
            json_incref(job);
            pi_step_init(&st, job, load(path), "default");
            snprintf(path, sizeof path, "%s/%s/profiles", dir, e->d_name);
            DIR *pd = opendir(path);
            struct dirent *pe;
            int count = 0;
            while ((pe = readdir(pd))) {
                if (!pi_profile_name_matches(pe->d_name, step, node))
                    continue;
                snprintf(path, sizeof path, "%s/%s/profiles/%s", dir, e->d_name, pe->d_name);
                json_t *b = load(path);
                assert_true(pi_is_bundle(b));
                if (pi_bundle_add(&st, &conf, b, &count, reason, sizeof reason) != PI_OK)
                    fail_msg("%s: %s", path, reason);
                json_decref(b);
            }
            closedir(pd);
            pi_step_finish(&st);
            *segs += st.nseg_groups;
            for (size_t i = 0; i < st.nprocs; i++)
                *colls += strcmp(st.procs[i].collectives, "{}") != 0;
            struct text t = { 0 };
            describe(&st, &t);
            *out = realloc(*out, (n + 1) * sizeof **out);
            (*out)[n++] = t.p;
            pi_step_free(&st);
        }
        closedir(jd);
        json_decref(job);
    }
    closedir(d);
    pi_conf_free(&conf);
    qsort(*out, n, sizeof **out, cmp_str);
    return n;
}

static void v3_bundles_ingest_as_v2_bundles(void **state)
{
    (void)state;
    char **by[2];
    size_t n[2], segs = 0, colls = 0, bytes[2] = { 0, 0 };
    for (int v = 2; v <= 3; v++) {
        char a[] = "/tmp/js-cols-test-XXXXXX";
        assert_non_null(mkdtemp(a));
        struct jsgen_params p;
        struct jsgen_summary s;
        jsgen_defaults(&p, JSGEN_CLUSTER);
        p.out = a;
        p.nodes = 16;
        p.hours = 3;
        p.ppn = 4;
        p.users = 3;
        p.seed = 5;
        p.duration_scale = 0.3;
        p.uid = (long)getuid();
        p.chown_profiles = 0;
        p.bundle = v;
        assert_int_equal(jsgen_run(&p, &s), 0);
        bytes[v - 2] = (size_t)s.bytes;
        n[v - 2] = ingest_dir(a, &by[v - 2], &segs, &colls);
        rm_rf(a);
    }
    assert_int_equal(n[0], n[1]);
    assert_true(n[0] > 20);
    assert_true(segs > 0 && colls > 0); /* MPI processes among them: segments and collectives compared */
    assert_true(bytes[1] < bytes[0]);    /* and the columns are smaller */
    size_t born = 0; /* files with the generator's birth times (1.7e18 + a hash): carried by both */
    for (size_t i = 0; i < n[0]; i++) {
        assert_string_equal(by[0][i], by[1][i]);
        born += strstr(by[1][i], " 170000000") != NULL;
        free(by[0][i]);
        free(by[1][i]);
    }
    free(by[0]);
    free(by[1]);
    assert_true(born > 0);
}

/* ---- a real bundle of version 3, forged -------------------------------------------------- */
static char dir[64];
static json_t *job, *rec, *bundle;

/* A uniform job of the generator (3 processes on a node, 2 files each, 5 slices). */
static int make_bundle(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/js-cols-test-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    struct jsgen_params p;
    struct jsgen_summary s;
    jsgen_defaults(&p, JSGEN_UNIFORM);
    p.out = dir;
    p.ppn = 3;
    p.slices = 5;
    p.files = 2;
    p.start_s = 1800000000;
    p.uid = (long)getuid();
    p.chown_profiles = 0;
    p.bundle = 3;
    if (jsgen_run(&p, &s) != 0)
        return -1;
    char path[256];
    snprintf(path, sizeof path, "%s/job.%u/job.json", dir, p.job_id_base);
    job = load(path);
    snprintf(path, sizeof path, "%s/job.%u/step.0.gen1.json", dir, p.job_id_base);
    rec = load(path);
    snprintf(path, sizeof path, "%s/job.%u/profiles/0.gen1.b1.json", dir, p.job_id_base);
    bundle = load(path);
    return 0;
}

static int remove_bundle(void **state)
{
    (void)state;
    json_decref(job);
    json_decref(rec);
    json_decref(bundle);
    rm_rf(dir);
    return 0;
}

/* The bundle changed by forge into a fresh step: its result, reason, processes and slices kept. */
static int take(void (*forge)(json_t *b), char *reason, size_t *nprocs, size_t *nslices)
{
    struct pi_conf conf;
    pi_conf_defaults(&conf);
    struct pi_step st;
    json_incref(job);
    json_incref(rec);
    pi_step_init(&st, job, rec, "default");
    json_t *b = json_deep_copy(bundle);
    if (forge)
        forge(b);
    int count = 0;
    int rc = pi_bundle_add(&st, &conf, b, &count, reason, PI_REASON_MAX);
    pi_step_finish(&st);
    *nprocs = st.nprocs;
    *nslices = st.nslices;
    json_decref(b);
    pi_step_free(&st);
    pi_conf_free(&conf);
    return rc;
}

/* column name as n values v, v + step, ... */
static void column(json_t *b, const char *name, int64_t v, size_t n, int64_t step)
{
    int64_t vals[64];
    unsigned char enc[JS_SERIES_MAX_BYTES(64)];
    char text[JS_B64_LEN(sizeof enc) + 1];
    for (size_t i = 0; i < n; i++)
        vals[i] = v + (int64_t)i * step;
    js_b64_encode(enc, js_series_encode(vals, n, 1, enc), text);
    json_object_set_new(json_object_get(b, "columns"), name, json_string(text));
}

/* column name as the n values v */
static void column_vals(json_t *b, const char *name, const int64_t *v, size_t n)
{
    unsigned char enc[JS_SERIES_MAX_BYTES(64)];
    char text[JS_B64_LEN(sizeof enc) + 1];
    js_b64_encode(enc, js_series_encode(v, n, 1, enc), text);
    json_object_set_new(json_object_get(b, "columns"), name, json_string(text));
}

static json_t *cols(json_t *b) { return json_object_get(b, "columns"); }
static void f_truncated(json_t *b) { json_object_set_new(cols(b), "pid", json_string("AQAAAAAAAA")); }
static void f_bad_letter(json_t *b) { json_object_set_new(cols(b), "pid", json_string("AQAA*AAAAAPoAAEC")); }
static void f_short(json_t *b) { column(b, "pid", 1000, 2, 1); }
static void f_long_files(json_t *b) { column(b, "files.opens", 1, 10, 1); }
static void f_unknown(json_t *b) { json_object_set_new(cols(b), "evil", json_string("")); }
static void f_dictionary(json_t *b) { column(b, "exe", 0, 3, 1000); }
static void f_negative_index(json_t *b) { column(b, "files.path", -1, 9, 0); }
static void f_huge_files(json_t *b) { json_object_set_new(b, "files", json_integer(1000000000)); }
static void f_huge_processes(json_t *b) { json_object_set_new(b, "processes", json_integer(JS_PROFILE_BUNDLE_MAX + 1)); }
static void f_counts_disagree(json_t *b) { column(b, "files", 1, 3, 0); }
static void f_too_many_rows(json_t *b) { column(b, "files", 6, 3, -6); } /* 6, 0, -6 */
static void f_nul_string(json_t *b) { json_array_set_new(json_object_get(b, "strings"), 0, json_stringn("a\0b", 3)); }
static void f_segment_groups(json_t *b) { json_object_set_new(b, "segment_groups", json_integer(1000000)); }
static void f_segment_rows(json_t *b) { column(b, "mpi_segments.groups", 1, 3, 0); }
static void f_no_strings(json_t *b) { json_object_del(b, "strings"); }

/* one process wrong: refused alone */
static void f_cpu(json_t *b) { column_vals(b, "totals.cpu_ns", (const int64_t[]){ INT64_MAX / 2, 1000, 1000 }, 3); }
static void f_negative_pid(json_t *b) { column_vals(b, "pid", (const int64_t[]){ -5, 1001, 1002 }, 3); }
static void f_exit_code(json_t *b) { column_vals(b, "exit_code", (const int64_t[]){ 300, 0, 0 }, 3); }
static void f_missing_column(json_t *b) { json_object_del(cols(b), "wall_ns"); }
static void f_relative_path(json_t *b)
{
    json_t *s = json_object_get(b, "strings");
    json_array_append_new(s, json_string("relative/path"));
    column(b, "files.path", (int64_t)json_array_size(s) - 1, 9, 0);
}
static void f_mode(json_t *b)
{
    json_t *s = json_object_get(b, "strings");
    json_array_append_new(s, json_string("x"));
    column(b, "files.open_mode", (int64_t)json_array_size(s) - 1, 9, 0);
}
static void f_bytes(json_t *b) { column(b, "files.read_bytes", 1LL << 60, 9, 0); }
static void f_btime(json_t *b) /* a birth time without the inode it is of */
{
    column(b, "files.ino", 0, 9, 0);
    column(b, "files.btime", 5, 9, 0);
}
static void f_segments(json_t *b) { column_vals(b, "mpi_segments", (const int64_t[]){ 0, 1, 0 }, 3); }

static void forged_columns_are_refused_with_the_reason(void **state)
{
    (void)state;
    char reason[PI_REASON_MAX];
    size_t np, ns;
    if (take(NULL, reason, &np, &ns) != PI_OK)
        fail_msg("the bundle as written: %s", reason);
    assert_int_equal(np, 3);
    assert_int_equal(ns, 5);
    static const struct {
        void (*forge)(json_t *);
        const char *reason;
    } whole[] = {
        { f_truncated, "columns: \"pid\" is not a series of 3 values in base64" },
        { f_bad_letter, "columns: \"pid\" is not a series of 3 values in base64" },
        { f_short, "columns: \"pid\" is not a series of 3 values in base64" },
        { f_long_files, "columns: \"files.opens\" is not a series of 9 values in base64" },
        { f_unknown, "columns: unknown column \"evil\"" },
        { f_dictionary, "columns: \"exe\"[1]: string 1000 is not in the dictionary" },
        { f_negative_index, "columns: \"files.path\"[0]: string -1 is not in the dictionary" },
        { f_huge_files, "bundle: \"files\" is not a count from 0 to 3072" },
        { f_huge_processes, "bundle: \"processes\" is not a count from 0 to 2048" },
        { f_counts_disagree, "columns: \"files\" adds up to 3 rows, the bundle says 9" },
        { f_too_many_rows, "columns: \"files\"[2]: -6 rows is not 0 to 1024" },
        { f_nul_string, "bundle: strings[0] is not a string of at most 4096 bytes without NUL" },
        { f_segment_groups, "bundle: \"segment_groups\" is not a count from 0 to 192" },
        { f_segment_rows, "columns: \"mpi_segments.groups\" adds up to 3 rows, the bundle says 0" },
        { f_no_strings, "bundle: \"strings\" is not an array" },
    };
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
        reason[0] = '\0';
        if (take(whole[i].forge, reason, &np, &ns) != PI_INVALID || strncmp(reason, whole[i].reason, strlen(whole[i].reason)))
            fail_msg("forgery %zu: \"%s\", wanted \"%s\"", i, reason, whole[i].reason);
        assert_int_equal(np, 0); /* nothing of the bundle: no process, no slice */
        assert_int_equal(ns, 0);
    }
    static const struct {
        void (*forge)(json_t *);
        const char *reason;
        size_t kept;
    } alone[] = {
        { f_cpu, "profile 1 of the bundle: totals: cpu_ns ", 2 },
        { f_negative_pid, "profile 1 of the bundle: field \"pid\" is not a non-negative integer", 2 },
        { f_exit_code, "profile 1 of the bundle: exit_code 300 is not an exit status (0 to 255, or -1)", 2 },
        { f_missing_column, "profile 1 of the bundle: field \"wall_ns\" is missing", 0 },
        { f_relative_path, "profile 1 of the bundle: files[0]: path is not an absolute path", 0 },
        { f_mode, "profile 1 of the bundle: files[0]: open_mode \"x\" is not r, w or rw", 0 },
        { f_bytes, "profile 1 of the bundle: files[0]: read_bytes 1152921504606846976 is more than", 0 },
        { f_btime, "profile 1 of the bundle: files[0]: btime 5 without an inode: not plausible", 0 },
        { f_segments, "profile 2 of the bundle: mpi_segments: field \"boundaries\" is missing or not a non-negative integer", 2 },
    };
    for (size_t i = 0; i < sizeof alone / sizeof alone[0]; i++) {
        reason[0] = '\0';
        if (take(alone[i].forge, reason, &np, &ns) != PI_INVALID || strncmp(reason, alone[i].reason, strlen(alone[i].reason)))
            fail_msg("forgery %zu: \"%s\", wanted \"%s\"", i, reason, alone[i].reason);
        assert_int_equal(np, alone[i].kept);
        assert_int_equal(ns, 5); /* the series (the node's sums) is the bundle's: kept */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(v3_bundles_ingest_as_v2_bundles),
        cmocka_unit_test_setup_teardown(forged_columns_are_refused_with_the_reason, make_bundle, remove_bundle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
