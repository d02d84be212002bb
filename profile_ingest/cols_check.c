/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The processes of a bundle of version 3, checked as validate.c checks a profile (the same
 * bounds, in the same words) and added straight into the step's rows: no JSON object is built
 * for a process (that building was most of the ingest's time at 128 processes a node).
 */
#include "config.h"

#include "cols_read.h"

#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One process of the bundle. */
struct p3 {
    const struct pi_cols *c;
    size_t i;
    int64_t version;
};

/* The columns read by name, looked up once. */
#define NAMED(X) \
    X(FORMAT, "format") X(VERSION, "version") X(END, "end") X(SIGNAL, "signal") X(EXIT_CODE, "exit_code") \
    X(MISSING, "missing") X(JOB_ID, "job_id") X(STEP, "step") X(NODE, "node") X(SLICE_SECONDS, "slice_seconds") \
    X(START_NS, "start_ns") X(END_NS, "end_ns") X(WALL_NS, "wall_ns") X(CPU_USER_NS, "cpu_user_ns") \
    X(CPU_SYS_NS, "cpu_sys_ns") X(SYNC_CALLS, "sync_calls") X(SYNC_NS, "sync_ns") X(CODE_DROPPED, "code_dropped") \
    X(KERNEL_IO, "kernel_io") X(SLICES_TRUNCATED, "slices_truncated") X(ORIGIN, "origin") X(EXE, "exe") X(ARGS, "args") \
    X(PID, "pid") X(PPID, "ppid") X(TASK_ID, "task_id") X(MPI_RANK, "mpi_rank") X(MPI_SIZE, "mpi_size") \
    X(MAX_RSS_KIB, "max_rss_kib") X(THREADS_PEAK, "threads_peak") X(THREADS_SEEN, "threads_seen") \
    X(FILES_DROPPED, "files_dropped") X(RT_COMPUTE, "runtime.compute_ns") X(RT_IDLE, "runtime.idle_ns") \
    X(RT_SETUP, "runtime.mpi_setup_ns") X(RT_WAIT, "runtime.cpu_wait_ns") X(F_PATH, "files.path") \
    X(F_LAYER, "files.layer") X(F_OPEN_MODE, "files.open_mode") X(F_USED_MODE, "files.used_mode") \
    X(F_FSTYPE, "files.fstype") X(F_OPENED_AS, "files.opened_as") X(F_OPENS, "files.opens") \
    X(F_READ_CALLS, "files.read_calls") X(F_WRITE_CALLS, "files.write_calls") X(F_READ_BYTES, "files.read_bytes") \
    X(F_WRITE_BYTES, "files.write_bytes") X(F_LOWER_READ_BYTES, "files.lower_read_bytes") \
    X(F_LOWER_WRITE_BYTES, "files.lower_write_bytes") X(F_FIRST_OPEN, "files.first_open_ns") \
    X(F_LAST_CLOSE, "files.last_close_ns") X(F_DEV, "files.dev") X(F_INO, "files.ino") X(F_BTIME, "files.btime") X(F_MAPPED, "files.mapped_bytes") \
    X(T_PATH, "trees.path") X(T_OPENS, "trees.opens") X(T_READ_BYTES, "trees.read_bytes") \
    X(T_WRITE_BYTES, "trees.write_bytes") X(R_FROM, "renames.from") X(R_TO, "renames.to") X(R_FSTYPE, "renames.fstype") \
    X(R_NS, "renames.ns")
enum {
#define X(id, name) C_##id,
    NAMED(X)
#undef X
    C_COUNT
};
static const char *const named[C_COUNT] = {
#define X(id, name) name,
    NAMED(X)
#undef X
};

/* What a column is to the checks of a process (check_members). */
enum { K_OTHER, K_SCALAR, K_MEMBER, K_KIO };
static struct {
    int ix[C_COUNT];
    int tot[JS_M_COUNT], kio[JS_KIO_COUNT], coll[JS_COLL_COUNT][4]; /* used; calls, bytes, ns */
    int rt[16], nrt;
    int *kind, *since;          /* per column */
    int *table[JS_CT_COUNT];    /* the columns of each table, -1 ended */
} X;
static pthread_once_t x_once = PTHREAD_ONCE_INIT;

static void x_init(void)
{
    int n = js_cols_count();
    for (int k = 0; k < C_COUNT; k++)
        X.ix[k] = pi_col(named[k]);
    char name[96];
    for (int m = 0; m < JS_M_COUNT; m++) {
        snprintf(name, sizeof name, "totals.%s", js_profile_metrics[m].name);
        X.tot[m] = pi_col(name);
    }
    for (int k = 0; k < JS_KIO_COUNT; k++)
        X.kio[k] = X.ix[C_KERNEL_IO] + 1 + k; /* bundle_cols.c: kernel_io, then its members in order */
    static const char *const f[] = { NULL, "calls", "bytes", "ns" };
    for (int k = 0; k < JS_COLL_COUNT; k++)
        for (int j = 0; j < 4; j++) {
            snprintf(name, sizeof name, "mpi_collectives.%s%s%s", js_profile_coll_kinds[k], f[j] ? "." : "", f[j] ? f[j] : "");
            X.coll[k][j] = pi_col(name);
        }
    X.kind = calloc((size_t)n, sizeof *X.kind);
    X.since = calloc((size_t)n, sizeof *X.since);
    for (int t = 0; t < JS_CT_COUNT; t++)
        X.table[t] = malloc(((size_t)n + 1) * sizeof *X.table[t]);
    if (!X.kind || !X.since || !X.table[0] || !X.table[1] || !X.table[2] || !X.table[3])
        abort();
    int nt[JS_CT_COUNT] = { 0 };
    for (int k = 0; k < n; k++) {
        const struct js_col_def *d = js_cols_def(k);
        X.table[d->table][nt[d->table]++] = k;
        if (d->table != JS_CT_PROC) {
            X.since[k] = (int)pi_field_since(d->member, d->field);
            continue;
        }
        X.since[k] = (int)pi_field_since("", d->member);
        if (!strcmp(d->member, "runtime")) {
            X.since[k] = (int)pi_field_since("runtime", d->field);
            X.rt[X.nrt++] = k;
        }
        if (!strcmp(d->member, "files") || !strcmp(d->member, "trees") || !strcmp(d->member, "renames") ||
            !strncmp(d->member, "mpi_collectives", 15) || !strncmp(d->member, "mpi_segments", 12))
            X.kind[k] = K_OTHER; /* the tables' counts are checked whole, the collectives by check_plausible,
                                  * the segments by cols_segments.c */
        else if (!strcmp(d->member, "kernel_io"))
            X.kind[k] = d->field ? K_KIO : K_SCALAR;
        else
            X.kind[k] = d->field ? K_MEMBER : K_SCALAR;
    }
    for (int t = 0; t < JS_CT_COUNT; t++)
        X.table[t][nt[t]] = -1;
}

static int64_t V(const struct p3 *p, int c) { return pi_col_at(p->c, X.ix[c], p->i); }

static const char *S(const struct p3 *p, int c)
{
    size_t n;
    return pi_col_str(p->c, X.ix[c], p->i, &n);
}

static int present(const struct p3 *p, int c) { return p->c->col[X.ix[c]].present; }

static const char *type_name(char t)
{
    return t == 's' ? "a string" : t == 'u' ? "a non-negative integer" : t == 'i' ? "an integer" : "a boolean";
}

static int value_ok(const struct pi_cols *c, int k, size_t row)
{
    const struct js_col_def *d = js_cols_def(k);
    int64_t v = pi_col_at(c, k, row);
    return c->col[k].present && (d->type == 'u' ? v >= 0 : d->type == 'b' ? v == 0 || v == 1 : 1);
}

/* Its format and version (a version 7 or later: a bundle's processes have no slices). */
static int check_version(struct p3 *p, char *reason, size_t size)
{
    if (!present(p, C_FORMAT) || strcmp(S(p, C_FORMAT), JS_PROFILE_FORMAT_NAME))
        return pi_invalid(reason, size, "not a jobscreen profile: \"format\" is not \"%s\"", JS_PROFILE_FORMAT_NAME);
    if (!present(p, C_VERSION))
        return pi_invalid(reason, size, "profile has no integer \"version\"");
    p->version = V(p, C_VERSION);
    if (p->version < JS_PROFILE_VERSION_MIN || p->version > JS_PROFILE_VERSION) {
        snprintf(reason, size, "unknown profile format version %" PRId64 " (this profile_ingest reads versions %d to %d)", p->version,
                 JS_PROFILE_VERSION_MIN, JS_PROFILE_VERSION);
        return PI_UNKNOWN_VERSION;
    }
    if (p->version < 7)
        return pi_invalid(reason, size, "a version %d profile does not belong in a bundle of version 3", (int)p->version);
    return PI_OK;
}

/* Every column of its version's members (the process table's), present and of its type. */
static int check_members(const struct p3 *p, char *reason, size_t size)
{
    int kio = V(p, C_KERNEL_IO) != 0;
    for (const int *q = X.table[JS_CT_PROC]; *q >= 0; q++) {
        int k = *q;
        if (X.kind[k] == K_OTHER || X.since[k] > p->version || (X.kind[k] == K_KIO && !kio))
            continue;
        const struct js_col_def *d = js_cols_def(k);
        if (X.kind[k] != K_SCALAR) {
            if (!value_ok(p->c, k, p->i))
                return pi_invalid(reason, size, "%s: field \"%s\" is missing or not a non-negative integer", d->member, d->field);
            continue;
        }
        if (!p->c->col[k].present)
            return pi_invalid(reason, size, "field \"%s\" is missing", d->name);
        if (!value_ok(p->c, k, p->i) || (k == X.ix[C_KERNEL_IO] && V(p, C_KERNEL_IO) > 1))
            return pi_invalid(reason, size, "field \"%s\" is not %s", d->name, k == X.ix[C_KERNEL_IO] ? "an object" : type_name(d->type));
        size_t n;
        if (d->is_str && (pi_col_str(p->c, k, p->i, &n), n > JS_PROFILE_MAX_STRING))
            return pi_invalid(reason, size, "field \"%s\" is longer than %d bytes", d->name, JS_PROFILE_MAX_STRING);
    }
    return PI_OK;
}

/* How it ended, whose it is (validate.c's check_ending and check_whose). */
static int check_ending_whose(const struct pi_step *st, const struct p3 *p, char *reason, size_t size)
{
    static const char *const ends[] = { "exit", "_exit", "exec", "signal", "unknown", NULL };
    const char *end = S(p, C_END);
    int known = 0;
    for (int i = 0; ends[i]; i++)
        known |= !strcmp(end, ends[i]);
    if (!known && !(st->live && !strcmp(end, "running")))
        return pi_invalid(reason, size, "end \"%s\" is not exit, _exit, exec, signal or unknown", end);
    if (pi_end_check(end, V(p, C_SIGNAL), V(p, C_EXIT_CODE), strlen(S(p, C_MISSING)), reason, size) != PI_OK)
        return PI_INVALID;
    if (V(p, C_JOB_ID) != st->job_id || strcmp(S(p, C_STEP), st->step) || strcmp(S(p, C_NODE), st->node))
        return pi_invalid(reason, size, "profile is of job %" PRId64 " step %s node %s, not of this step record's job %" PRId64 " step %s node %s",
                          V(p, C_JOB_ID), S(p, C_STEP), S(p, C_NODE), st->job_id, st->step, st->node);
    if (V(p, C_SLICE_SECONDS) != st->slice_seconds)
        return pi_invalid(reason, size, "slice_seconds %" PRId64 " differs from the step record's %" PRId64, V(p, C_SLICE_SECONDS),
                          st->slice_seconds);
    int64_t ps = V(p, C_START_NS), pe = V(p, C_END_NS);
    if (pe < ps || ps < st->start_ns - PI_PROFILE_SLACK_NS || pe > st->end_ns + PI_PROFILE_SLACK_NS)
        return pi_invalid(reason, size, "start_ns..end_ns lies outside the step's time span");
    return PI_OK;
}

/* Row r of table t (name: "files", ...; i: its index in the process's): every field of the
 * version, of its type. */
static int row_fields(const struct p3 *p, enum js_cols_table t, const char *name, size_t r, size_t i, char *reason, size_t size)
{
    for (const int *q = X.table[t]; *q >= 0; q++)
        if (X.since[*q] <= p->version && !value_ok(p->c, *q, r)) {
            const struct js_col_def *d = js_cols_def(*q);
            return pi_invalid(reason, size, "%s[%zu]: field \"%s\" is missing or not %s", name, i, d->field, type_name(d->type));
        }
    return PI_OK;
}

static const char *RS(const struct p3 *p, int c, size_t r)
{
    size_t n;
    return pi_col_str(p->c, X.ix[c], r, &n);
}

static int64_t RV(const struct p3 *p, int c, size_t r) { return pi_col_at(p->c, X.ix[c], r); }

static int abs_path(const struct p3 *p, int c, size_t r)
{
    size_t n;
    const char *s = pi_col_str(p->c, X.ix[c], r, &n);
    return s[0] == '/' && n <= JS_PROFILE_MAX_PATH;
}

/* The files (validate.c's check_files). */
static int check_files(const struct p3 *p, char *reason, size_t size)
{
    const struct pi_cols *c = p->c;
    for (size_t r = c->first[PI_REL_FILES][p->i], i = 0; r < c->first[PI_REL_FILES][p->i + 1]; r++, i++) {
        if (row_fields(p, JS_CT_FILES, "files", r, i, reason, size) != PI_OK)
            return PI_INVALID;
        const char *layer = RS(p, C_F_LAYER, r), *om = RS(p, C_F_OPEN_MODE, r), *um = RS(p, C_F_USED_MODE, r);
        if (!abs_path(p, C_F_PATH, r))
            return pi_invalid(reason, size, "files[%zu]: path is not an absolute path", i);
        if (strcmp(layer, "posix") && strcmp(layer, "stdio") && strcmp(layer, "mpiio"))
            return pi_invalid(reason, size, "files[%zu]: layer \"%s\" is not posix, stdio or mpiio", i, layer);
        if (strcmp(om, "r") && strcmp(om, "w") && strcmp(om, "rw"))
            return pi_invalid(reason, size, "files[%zu]: open_mode \"%s\" is not r, w or rw", i, om);
        if (strcmp(um, "r") && strcmp(um, "w") && strcmp(um, "rw") && strcmp(um, "none"))
            return pi_invalid(reason, size, "files[%zu]: used_mode \"%s\" is not r, w, rw or none", i, um);
        if (strlen(RS(p, C_F_FSTYPE, r)) > 64)
            return pi_invalid(reason, size, "files[%zu]: fstype is longer than 64 bytes", i);
        if (RS(p, C_F_OPENED_AS, r)[0] && !abs_path(p, C_F_OPENED_AS, r))
            return pi_invalid(reason, size, "files[%zu]: opened_as is neither empty nor an absolute path", i);
    }
    return PI_OK;
}

/* The trees and renames (validate.c's check_trees, check_renames). */
static int check_trees_renames(const struct p3 *p, char *reason, size_t size)
{
    const struct pi_cols *c = p->c;
    for (size_t r = c->first[PI_REL_TREES][p->i], i = 0; r < c->first[PI_REL_TREES][p->i + 1]; r++, i++)
        if (row_fields(p, JS_CT_TREES, "trees", r, i, reason, size) != PI_OK)
            return PI_INVALID;
        else if (!abs_path(p, C_T_PATH, r))
            return pi_invalid(reason, size, "trees[%zu]: path is not an absolute path", i);
    int64_t ps = V(p, C_START_NS), pe = V(p, C_END_NS);
    for (size_t r = c->first[PI_REL_RENAMES][p->i], i = 0; r < c->first[PI_REL_RENAMES][p->i + 1]; r++, i++) {
        if (row_fields(p, JS_CT_RENAMES, "renames", r, i, reason, size) != PI_OK)
            return PI_INVALID;
        if (!abs_path(p, C_R_FROM, r) || !abs_path(p, C_R_TO, r))
            return pi_invalid(reason, size, "renames[%zu]: from or to is not an absolute path", i);
        if (strlen(RS(p, C_R_FSTYPE, r)) > 64)
            return pi_invalid(reason, size, "renames[%zu]: fstype is longer than 64 bytes", i);
        int64_t ns = RV(p, C_R_NS, r);
        if (ns < ps || ns > pe)
            return pi_invalid(reason, size, "renames[%zu]: ns lies outside the profile's start_ns..end_ns", i);
    }
    return PI_OK;
}

/* The process's own figures over its span (validate.c's plausible_process). */
static int plausible_process(const struct pi_conf *conf, const struct p3 *p, double span, char *reason, size_t size)
{
    int64_t cpu;
    for (int m = 0; m < JS_M_COUNT; m++)
        if (pi_plausible(conf, "totals", js_profile_metrics[m].name, js_profile_metrics[m].unit, m == JS_M_CPU_NS,
                         pi_col_at(p->c, X.tot[m], p->i), span, reason, size))
            return PI_INVALID;
    if (pi_plausible(conf, "", "cpu_user_ns", "ns", 1, V(p, C_CPU_USER_NS), span, reason, size) ||
        pi_plausible(conf, "", "cpu_sys_ns", "ns", 1, V(p, C_CPU_SYS_NS), span, reason, size))
        return PI_INVALID;
    if (__builtin_add_overflow(V(p, C_CPU_USER_NS), V(p, C_CPU_SYS_NS), &cpu))
        return pi_invalid(reason, size, "cpu_user_ns + cpu_sys_ns overflows: not plausible");
    if (pi_plausible(conf, "", "cpu_user_ns + cpu_sys_ns", "ns", 1, cpu, span, reason, size))
        return PI_INVALID;
    if (p->version >= 8 && (pi_plausible(conf, "", "sync_calls", "calls", 0, V(p, C_SYNC_CALLS), span, reason, size) ||
                            pi_plausible(conf, "", "sync_ns", "ns", 0, V(p, C_SYNC_NS), span, reason, size) ||
                            pi_plausible(conf, "", "code_dropped", "calls", 0, V(p, C_CODE_DROPPED), span, reason, size)))
        return PI_INVALID;
    for (int k = 0; k < X.nrt; k++) {
        const char *f = js_cols_def(X.rt[k])->field;
        if (pi_plausible(conf, "runtime", f, "ns", !strcmp(f, "compute_ns"), pi_col_at(p->c, X.rt[k], p->i), span, reason, size))
            return PI_INVALID;
    }
    for (int k = 0; V(p, C_KERNEL_IO) && k < JS_KIO_COUNT; k++)
        if (pi_plausible(conf, "kernel_io", js_cols_def(X.kio[k])->field, k == JS_KIO_SYSCR || k == JS_KIO_SYSCW ? "calls" : "bytes",
                         0, pi_col_at(p->c, X.kio[k], p->i), span, reason, size))
            return PI_INVALID;
    return PI_OK;
}

/* Values no node could produce (validate.c's check_plausible), over the process's span. */
static int check_plausible(const struct pi_conf *conf, const struct p3 *p, char *reason, size_t size)
{
    int64_t own = V(p, C_END_NS) - V(p, C_START_NS);
    if (V(p, C_WALL_NS) > own + 1000000000LL)
        return pi_invalid(reason, size, "wall_ns %" PRId64 " is more than end_ns - start_ns (%" PRId64 "): not plausible", V(p, C_WALL_NS), own);
    double span = (double)own / 1e9 + 2 * (double)V(p, C_SLICE_SECONDS);
    char where[64];
    if (plausible_process(conf, p, span, reason, size) != PI_OK)
        return PI_INVALID;
    static const char *const f[] = { "calls", "bytes", "ns" };
    for (int k = 0; k < JS_COLL_COUNT; k++) {
        if (!pi_col_at(p->c, X.coll[k][0], p->i))
            continue;
        snprintf(where, sizeof where, "mpi_collectives.%.32s", js_profile_coll_kinds[k]);
        for (int j = 0; j < 3; j++) {
            int64_t v = pi_col_at(p->c, X.coll[k][1 + j], p->i);
            if (v < 0)
                return pi_invalid(reason, size, "%s: field \"%s\" is not a non-negative integer", where, f[j]);
            if (pi_plausible(conf, where, f[j], f[j], 0, v, span, reason, size))
                return PI_INVALID;
        }
    }
    const struct pi_cols *c = p->c;
    static const struct { int col; const char *name, *unit; } fv[] = {
        { C_F_READ_BYTES, "read_bytes", "bytes" }, { C_F_WRITE_BYTES, "write_bytes", "bytes" },
        { C_F_LOWER_READ_BYTES, "lower_read_bytes", "bytes" }, { C_F_LOWER_WRITE_BYTES, "lower_write_bytes", "bytes" },
        { C_F_OPENS, "opens", "calls" }, { C_F_READ_CALLS, "read_calls", "calls" }, { C_F_WRITE_CALLS, "write_calls", "calls" },
    };
    /* the bounds once, the reason (and the row's name) only for a value past one */
    double most[2] = { pi_node_rate(conf, "bytes", 0) * span, pi_node_rate(conf, "calls", 0) * span };
    for (size_t r = c->first[PI_REL_FILES][p->i], i = 0; r < c->first[PI_REL_FILES][p->i + 1]; r++, i++) {
        for (size_t j = 0; j < sizeof fv / sizeof fv[0]; j++) {
            int64_t v = RV(p, fv[j].col, r);
            if ((double)v <= most[fv[j].unit[0] == 'c'])
                continue;
            snprintf(where, sizeof where, "files[%zu]", i);
            if (pi_plausible(conf, where, fv[j].name, fv[j].unit, 0, v, span, reason, size))
                return PI_INVALID;
        }
        int64_t mapped = RV(p, C_F_MAPPED, r);
        if (mapped > (1LL << 57))
            return pi_invalid(reason, size, "files[%zu]: mapped_bytes %" PRId64 " is more than any address space: not plausible", i, mapped);
        if (RV(p, C_F_BTIME, r) != 0 && RV(p, C_F_INO, r) == 0) /* half an identity */
            return pi_invalid(reason, size, "files[%zu]: btime %" PRId64 " without an inode: not plausible", i, RV(p, C_F_BTIME, r));
    }
    return PI_OK;
}

static int check_process(const struct pi_step *st, const struct pi_conf *conf, struct p3 *p, char *reason, size_t size)
{
    int rc = check_version(p, reason, size);
    if (rc != PI_OK)
        return rc;
    if (check_members(p, reason, size) != PI_OK || check_ending_whose(st, p, reason, size) != PI_OK ||
        check_files(p, reason, size) != PI_OK || check_trees_renames(p, reason, size) != PI_OK)
        return PI_INVALID;
    if (p->version >= 6 && pi_cols_segments_check(p->c, p->i, reason, size) != PI_OK)
        return PI_INVALID;
    return check_plausible(conf, p, reason, size);
}

/* "mpi_collectives" as the ingest stores it: compact, kinds sorted (as Jansson dumps a v2 one) */
static void collectives_text(const struct p3 *p, char *out, size_t size)
{
    int order[JS_COLL_COUNT], n = 0;
    for (int k = 0; k < JS_COLL_COUNT; k++) {
        if (!pi_col_at(p->c, X.coll[k][0], p->i))
            continue;
        int j = n++;
        for (; j > 0 && strcmp(js_profile_coll_kinds[order[j - 1]], js_profile_coll_kinds[k]) > 0; j--)
            order[j] = order[j - 1];
        order[j] = k;
    }
    size_t o = (size_t)snprintf(out, size, "{");
    for (int j = 0; j < n && o < size; j++) {
        const int *x = X.coll[order[j]];
        o += (size_t)snprintf(out + o, size - o, "%s\"%s\":{\"bytes\":%" PRId64 ",\"calls\":%" PRId64 ",\"ns\":%" PRId64 "}", j ? "," : "",
                              js_profile_coll_kinds[order[j]], pi_col_at(p->c, x[2], p->i), pi_col_at(p->c, x[1], p->i),
                              pi_col_at(p->c, x[3], p->i));
    }
    if (o < size)
        snprintf(out + o, size - o, "}");
}

/* The process row (aggregate.c's add_process, from the columns). */
static void add_process(struct pi_step *st, const struct p3 *p)
{
    struct pi_proc *pr = pi_step_proc_new(st);
    static const struct { int col; size_t off; } f[] = {
#define F(c, n) { C_##c, offsetof(struct pi_proc, n) }
        F(PID, pid), F(PPID, ppid), F(TASK_ID, task_id), F(MPI_RANK, mpi_rank), F(MPI_SIZE, mpi_size),
        F(START_NS, start_ns), F(END_NS, end_ns), F(WALL_NS, wall_ns), F(CPU_USER_NS, cpu_user_ns),
        F(CPU_SYS_NS, cpu_sys_ns), F(MAX_RSS_KIB, max_rss_kib), F(THREADS_PEAK, threads_peak),
        F(THREADS_SEEN, threads_seen), F(FILES_DROPPED, files_dropped), F(RT_COMPUTE, compute_ns),
        F(RT_IDLE, idle_ns), F(RT_SETUP, mpi_setup_ns), F(RT_WAIT, cpu_wait_ns),
#undef F
    };
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
        *(int64_t *)((char *)pr + f[k].off) = V(p, f[k].col);
    for (int k = 0; k < JS_KIO_COUNT; k++)
        pr->kio[k] = V(p, C_KERNEL_IO) ? pi_col_at(p->c, X.kio[k], p->i) : -1;
    pr->sync_calls = p->version >= 8 ? V(p, C_SYNC_CALLS) : -1;
    pr->sync_ns = p->version >= 8 ? V(p, C_SYNC_NS) : -1;
    pr->code_dropped = p->version >= 8 ? V(p, C_CODE_DROPPED) : 0;
    pr->slices_truncated = V(p, C_SLICES_TRUNCATED) != 0;
    pr->exit_code = (int)V(p, C_EXIT_CODE);
    pr->signal = (int)V(p, C_SIGNAL);
    pr->missing = (char *)pi_step_intern(st, S(p, C_MISSING));
    pr->origin = (char *)pi_step_intern(st, S(p, C_ORIGIN));
    pr->end = (char *)pi_step_intern(st, S(p, C_END));
    pr->exe = (char *)pi_step_intern(st, S(p, C_EXE));
    pr->args = (char *)pi_step_intern(st, S(p, C_ARGS));
    char coll[2048];
    collectives_text(p, coll, sizeof coll);
    pr->collectives = (char *)pi_step_intern(st, coll);
    for (int m = 0; m < JS_M_COUNT; m++)
        pr->m[m] = pi_col_at(p->c, X.tot[m], p->i);
}

/* Its files, trees and renames (aggregate.c's add_files, add_trees_and_renames). */
static void add_tables(struct pi_step *st, const struct pi_conf *conf, const struct p3 *p)
{
    const struct pi_cols *c = p->c;
    for (size_t r = c->first[PI_REL_FILES][p->i]; r < c->first[PI_REL_FILES][p->i + 1]; r++) {
        struct pi_file *f = pi_step_file_new(st);
        f->path = strdup(RS(p, C_F_PATH, r));
        pi_file_set(st, conf, f, RS(p, C_F_FSTYPE, r), RS(p, C_F_OPEN_MODE, r), RS(p, C_F_USED_MODE, r), RS(p, C_F_LAYER, r));
        f->opens = RV(p, C_F_OPENS, r);
        f->reads = RV(p, C_F_READ_CALLS, r);
        f->writes = RV(p, C_F_WRITE_CALLS, r);
        f->bytes_read = RV(p, C_F_READ_BYTES, r);
        f->bytes_written = RV(p, C_F_WRITE_BYTES, r);
        f->first_access = RV(p, C_F_FIRST_OPEN, r);
        f->last_access = RV(p, C_F_LAST_CLOSE, r);
        f->dev = (uint64_t)RV(p, C_F_DEV, r);
        f->ino = (uint64_t)RV(p, C_F_INO, r);
        f->btime = (uint64_t)RV(p, C_F_BTIME, r);
        f->mapped_bytes = RV(p, C_F_MAPPED, r);
        pi_file_times(f);
    }
    for (size_t r = c->first[PI_REL_TREES][p->i]; r < c->first[PI_REL_TREES][p->i + 1]; r++) {
        struct pi_tree *t = pi_step_tree_new(st);
        t->path = strdup(RS(p, C_T_PATH, r));
        t->opens = RV(p, C_T_OPENS, r);
        t->read_bytes = RV(p, C_T_READ_BYTES, r);
        t->write_bytes = RV(p, C_T_WRITE_BYTES, r);
    }
    for (size_t r = c->first[PI_REL_RENAMES][p->i]; r < c->first[PI_REL_RENAMES][p->i + 1]; r++) {
        struct pi_rename *x = pi_step_rename_new(st);
        x->from = strdup(RS(p, C_R_FROM, r));
        x->to = strdup(RS(p, C_R_TO, r));
        x->fstype = (char *)pi_step_intern(st, RS(p, C_R_FSTYPE, r));
        x->ns = RV(p, C_R_NS, r);
    }
}

/* One process: checked, within the budget, added. */
static int add_one(struct pi_step *st, const struct pi_conf *conf, struct p3 *p, char *reason, size_t size)
{
    int rc = check_process(st, conf, p, reason, size);
    if (rc != PI_OK)
        return rc;
    st->conf = conf;
    int64_t tot[JS_M_COUNT];
    for (int m = 0; m < JS_M_COUNT; m++)
        tot[m] = pi_col_at(p->c, X.tot[m], p->i);
    if ((rc = pi_budget_take_totals(st, conf, tot, reason, size)) != PI_OK)
        return rc;
    add_process(st, p);
    add_tables(st, conf, p);
    if (p->version >= 6)
        pi_cols_segments_add(st, p->c, p->i, V(p, C_MPI_RANK));
    pi_step_merge_some(st);
    return PI_OK;
}

int pi_cols_add(struct pi_step *st, const struct pi_conf *conf, const struct pi_cols *c, int *count, char *reason, size_t size)
{
    int rc = PI_OK;
    char why[PI_REASON_MAX];
    pthread_once(&x_once, x_init);
    for (size_t i = 0; i < c->rows[JS_CT_PROC]; i++) {
        if (++*count > conf->max_profiles) {
            if (rc == PI_OK) {
                snprintf(reason, size, "more than %d profiles for one step on one node", conf->max_profiles);
                rc = PI_INVALID;
            }
            break;
        }
        struct p3 p = { c, i, 0 };
        int r = add_one(st, conf, &p, why, sizeof why);
        if (r != PI_OK && rc == PI_OK) {
            snprintf(reason, size, "profile %zu of the bundle: %s", i + 1, why);
            rc = r;
        }
    }
    return rc;
}
