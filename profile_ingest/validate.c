/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The checks of what the spool holds, against the one definition of each format
 * (common/record_format.h, common/profile_format.h): job and step records, profiles and
 * bundles, values no node could produce, and the names of spool entries. A check only reads
 * and says why it refuses; aggregate.c adds what passes to a step. No I/O: unit-tested.
 */
#include "config.h"

#include "validate.h"
#include "slice.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_t *pi_json_parse(const char *text, size_t len, char *reason, size_t size)
{
    json_error_t e;
    json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
    if (!j) {
        pi_invalid(reason, size, "not valid JSON: %s (line %d, column %d)", e.text, e.line, e.column);
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        pi_invalid(reason, size, "not a JSON object");
        return NULL;
    }
    return j;
}

static const char *type_name(enum js_field_type t)
{
    switch (t) {
    case JS_FIELD_STRING: return "a string";
    case JS_FIELD_INTEGER: return "an integer";
    case JS_FIELD_BOOLEAN: return "a boolean";
    case JS_FIELD_ARRAY: return "an array";
    case JS_FIELD_OBJECT: return "an object";
    }
    return "?";
}

static int type_ok(const json_t *v, enum js_field_type t)
{
    switch (t) {
    case JS_FIELD_STRING: return json_is_string(v) && json_string_length(v) <= JS_RECORD_MAX_STRING * 6;
    case JS_FIELD_INTEGER: return json_is_integer(v);
    case JS_FIELD_BOOLEAN: return json_is_boolean(v);
    case JS_FIELD_ARRAY: return json_is_array(v);
    case JS_FIELD_OBJECT: return json_is_object(v);
    }
    return 0;
}

static int check_fields(const json_t *o, const struct js_record_field *t, const char *where, char *reason, size_t size)
{
    for (; t->name; t++) {
        const json_t *v = json_object_get(o, t->name);
        if (!v && t->nullable == JS_FIELD_OPTIONAL)
            continue;
        if (!v)
            return pi_invalid(reason, size, "%sfield \"%s\" is missing", where, t->name);
        if (json_is_null(v)) {
            if (!t->nullable)
                return pi_invalid(reason, size, "%sfield \"%s\" is null", where, t->name);
            continue;
        }
        if (!type_ok(v, t->type))
            return pi_invalid(reason, size, "%sfield \"%s\" is not %s", where, t->name, type_name(t->type));
    }
    return PI_OK;
}

/* A record's "format" and "version" (what: "job record" or "step record"). */
static int check_record_header(const json_t *r, const char *want, const char *what, char *reason, size_t size)
{
    const json_t *f = json_object_get(r, "format");
    if (!json_is_string(f) || strcmp(json_string_value(f), want) != 0)
        return pi_invalid(reason, size, "not a jobscreen %s: \"format\" is not \"%s\"", what, want);
    const json_t *v = json_object_get(r, "version");
    if (!json_is_integer(v))
        return pi_invalid(reason, size, "%s has no integer \"version\"", what);
    if (json_integer_value(v) != JS_RECORD_VERSION) {
        snprintf(reason, size, "unknown %s format version %" JSON_INTEGER_FORMAT " (this profile_ingest reads version %d)",
                 what, json_integer_value(v), JS_RECORD_VERSION);
        return PI_UNKNOWN_VERSION;
    }
    return PI_OK;
}

/* What a job record's field table cannot say: its dependencies, and Slurm's state reason. */
static int check_job_record(const json_t *r, char *reason, size_t size)
{
    const json_t *deps = json_object_get(r, "dependencies"), *d;
    size_t i;
    char where[64];
    if (json_array_size(deps) > JS_RECORD_MAX_DEPS)
        return pi_invalid(reason, size, "more than %d dependencies", JS_RECORD_MAX_DEPS);
    json_array_foreach(deps, i, d) {
        snprintf(where, sizeof where, "dependencies[%zu]: ", i);
        if (!json_is_object(d))
            return pi_invalid(reason, size, "%snot an object", where);
        if (check_fields(d, js_dependency_fields, where, reason, size) != PI_OK)
            return PI_INVALID;
    }
    /* optional: Slurm's state reason (record-format.md) */
    const json_t *why = json_object_get(r, "reason");
    if (why && !json_is_null(why) && (!json_is_string(why) || json_string_length(why) > JS_RECORD_MAX_STRING ||
                                       memchr(json_string_value(why), '\0', json_string_length(why))))
        return pi_invalid(reason, size, "field \"reason\" is not a string of at most %d bytes", JS_RECORD_MAX_STRING);
    return PI_OK;
}

/* What a step record's field table cannot say: its step and node names, its time span and
 * slices, and the profiles the spool's share refused. */
static int check_step_record(const json_t *r, char *reason, size_t size)
{
    uint32_t sid;
    if (js_step_parse(json_string_value(json_object_get(r, "step")), &sid) < 0)
        return pi_invalid(reason, size, "field \"step\" is not a step name");
    const char *node = json_string_value(json_object_get(r, "node"));
    if (!*node || node[0] == '.' || strchr(node, '/') || strlen(node) >= 256)
        return pi_invalid(reason, size, "field \"node\" is not a node name");
    json_int_t st = json_integer_value(json_object_get(r, "start_ns"));
    json_int_t en = json_integer_value(json_object_get(r, "end_ns"));
    json_int_t len = json_integer_value(json_object_get(r, "slice_seconds"));
    if (st <= 0 || en < st)
        return pi_invalid(reason, size, "start_ns and end_ns do not make a time span");
    if (len < 1 || len > 3600)
        return pi_invalid(reason, size, "field \"slice_seconds\" is out of range");
    /* optional: the profiles the spool's share on the node refused (record-format.md) */
    const json_t *u = json_object_get(r, "unrecorded");
    if (u) {
        const json_t *n = json_object_get(u, "processes"), *text = json_object_get(u, "reason");
        if (!json_is_object(u) || !json_is_integer(n) || json_integer_value(n) < 1 || json_integer_value(n) > INT32_MAX ||
            !json_is_string(text) || json_string_length(text) > PI_UNRECORDED_REASON_MAX ||
            memchr(json_string_value(text), '\0', json_string_length(text)))
            return pi_invalid(reason, size, "field \"unrecorded\" is not {\"processes\": 1 to %d, \"reason\": a string of at most %d bytes}",
                        INT32_MAX, PI_UNRECORDED_REASON_MAX);
    }
    return PI_OK;
}

int pi_record_check(const json_t *r, int is_step, char *reason, size_t size)
{
    int rc = check_record_header(r, is_step ? JS_STEP_RECORD_FORMAT : JS_JOB_RECORD_FORMAT,
                                 is_step ? "step record" : "job record", reason, size);
    if (rc != PI_OK)
        return rc;
    if (check_fields(r, is_step ? js_step_record_fields : js_job_record_fields, "", reason, size) != PI_OK)
        return PI_INVALID;
    if (json_integer_value(json_object_get(r, "job_id")) <= 0)
        return pi_invalid(reason, size, "field \"job_id\" is not a positive integer");
    if (json_integer_value(json_object_get(r, "uid")) < 0)
        return pi_invalid(reason, size, "field \"uid\" is negative");
    return is_step ? check_step_record(r, reason, size) : check_job_record(r, reason, size);
}

/* Profile top-level field types, from JS_PROFILE_FIELDS. */
static const struct {
    const char *name;
    char type;
} profile_fields[] = {
#define JS_X(id, name, type, unit, desc) { name, type },
    JS_PROFILE_FIELDS(JS_X)
#undef JS_X
};
static const struct {
    const char *name;
    char type;
} file_fields[] = {
#define JS_X(id, name, type, unit, desc) { name, type },
    JS_PROFILE_FILE_FIELDS(JS_X)
#undef JS_X
};
static const char *const runtime_fields[] = {
#define JS_X(id, name, desc) name,
    JS_PROFILE_RUNTIME_FIELDS(JS_X)
#undef JS_X
};

/* since() of every field, looked up once rather than per profile and file */
#define PI_NELEM(a) (sizeof (a) / sizeof (a)[0])
static json_int_t profile_since[PI_NELEM(profile_fields)], file_since[PI_NELEM(file_fields)],
    runtime_since[PI_NELEM(runtime_fields)];
static pthread_once_t since_once = PTHREAD_ONCE_INIT;

static void since_init(void)
{
    for (size_t i = 0; i < PI_NELEM(profile_fields); i++)
        profile_since[i] = pi_field_since("", profile_fields[i].name);
    for (size_t i = 0; i < PI_NELEM(file_fields); i++)
        file_since[i] = pi_field_since("files", file_fields[i].name);
    for (size_t i = 0; i < PI_NELEM(runtime_fields); i++)
        runtime_since[i] = pi_field_since("runtime", runtime_fields[i]);
}

int pi_slice_cols_of(json_int_t version)
{
    return version >= 5 ? JS_SLICE_COLS : JS_M_COUNT;
}

static const char *const kernel_io_fields[] = {
#define JS_X(id, name, unit, desc) name,
    JS_PROFILE_KERNEL_IO_FIELDS(JS_X)
#undef JS_X
};

/* The fields of an entry of "trees" or "renames". */
struct entry_field {
    const char *name;
    char type;
};
static const struct entry_field tree_fields[] = {
#define JS_X(id, name, type, unit, desc) { name, type },
    JS_PROFILE_TREE_FIELDS(JS_X)
#undef JS_X
}, rename_fields[] = {
#define JS_X(id, name, type, unit, desc) { name, type },
    JS_PROFILE_RENAME_FIELDS(JS_X)
#undef JS_X
};

/* A path member of an object: absolute, bounded, without NUL. */
static int abs_path_ok(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    const char *s = json_string_value(v);
    return s && s[0] == '/' && json_string_length(v) <= JS_PROFILE_MAX_PATH && strlen(s) == json_string_length(v);
}

/* How a process image may end, per version: version 2 added signal and unknown. */
static int end_known(const char *end, json_int_t version)
{
    static const char *const ends[] = { "exit", "_exit", "exec", "signal", "unknown", NULL };
    for (int i = 0; ends[i]; i++)
        if (!strcmp(end, ends[i]))
            return i < 3 || version >= 2;
    return 0;
}

static int ptype_ok(const json_t *v, char t)
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

static const char *ptype_name(char t)
{
    switch (t) {
    case 's': return "a string";
    case 'u': return "a non-negative integer";
    case 'i': return "an integer";
    case 'b': return "a boolean";
    case 'o': return "an object";
    case 'a': return "an array";
    }
    return "?";
}

#define I64(o, k) ((int64_t)json_integer_value(json_object_get((o), (k))))
#define STR(o, k) json_string_value(json_object_get((o), (k)))


/* --- plausibility of a profile's figures (the rates: ingest_bounds.c) --- */

/* The slice rows: a slice holds the bytes and calls made in it, but a call's whole time (a read
 * that waited hours on a pipe) and, for a process killed long after its last fold, the CPU time
 * since: L seconds for the first, span for the second. */
static int plausible_slices(const struct pi_conf *conf, const json_t *p, json_int_t version, double L, double span,
                            char *reason, size_t size)
{
    char where[64];
    const json_t *row;
    size_t i;
    double most[JS_SLICE_COLS]; /* per value, as plausible() bounds it: compared per slice, the reason made on failure */
    int ncols = pi_slice_cols_of(version);
    for (int m = 0; m < ncols; m++) {
        const char *unit = js_profile_slice_cols[m].unit;
        most[m] = pi_node_rate(conf, unit, m == JS_M_CPU_NS) * (strcmp(unit, "ns") ? L : span);
    }
    json_array_foreach(json_object_get(p, "slices"), i, row)
        for (int m = 0; m < ncols; m++) {
            json_int_t v = json_integer_value(json_array_get(row, (size_t)m + 1));
            if ((double)v <= most[m])
                continue;
            const char *unit = js_profile_slice_cols[m].unit;
            snprintf(where, sizeof where, "slices[%zu]", i);
            if (pi_plausible(conf, where, js_profile_slice_cols[m].name, unit, m == JS_M_CPU_NS, v, strcmp(unit, "ns") ? L : span, reason, size))
                return -1;
        }
    return 0;
}

/* The process's totals, CPU time, runtime and the kernel's counts, over its span. */
static int plausible_process(const struct pi_conf *conf, const json_t *p, json_int_t version, double span, char *reason,
                             size_t size)
{
    const json_t *tot = json_object_get(p, "totals");
    for (int m = 0; m < JS_M_COUNT; m++)
        if (pi_plausible(conf, "totals", js_profile_metrics[m].name, js_profile_metrics[m].unit, m == JS_M_CPU_NS,
                      I64(tot, js_profile_metrics[m].name), span, reason, size))
            return -1;
    /* each alone first: two values near 2^62 would wrap their sum negative */
    int64_t cpu;
    if (pi_plausible(conf, "", "cpu_user_ns", "ns", 1, I64(p, "cpu_user_ns"), span, reason, size) ||
        pi_plausible(conf, "", "cpu_sys_ns", "ns", 1, I64(p, "cpu_sys_ns"), span, reason, size))
        return -1;
    if (__builtin_add_overflow(I64(p, "cpu_user_ns"), I64(p, "cpu_sys_ns"), &cpu))
        return pi_invalid(reason, size, "cpu_user_ns + cpu_sys_ns overflows: not plausible");
    if (pi_plausible(conf, "", "cpu_user_ns + cpu_sys_ns", "ns", 1, cpu, span, reason, size))
        return -1;
    if (version >= 8 && (pi_plausible(conf, "", "sync_calls", "calls", 0, I64(p, "sync_calls"), span, reason, size) ||
                         pi_plausible(conf, "", "sync_ns", "ns", 0, I64(p, "sync_ns"), span, reason, size) ||
                         pi_plausible(conf, "", "code_dropped", "calls", 0, I64(p, "code_dropped"), span, reason, size)))
        return -1;
    const json_t *rt = json_object_get(p, "runtime");
    for (size_t k = 0; k < sizeof runtime_fields / sizeof runtime_fields[0]; k++)
        if (pi_plausible(conf, "runtime", runtime_fields[k], "ns", !strcmp(runtime_fields[k], "compute_ns"),
                      I64(rt, runtime_fields[k]), span, reason, size))
            return -1;
    const json_t *kio = json_object_get(p, "kernel_io");
    for (int k = 0; version >= 4 && k < JS_KIO_COUNT && json_object_size(kio) > 0; k++)
        if (pi_plausible(conf, "kernel_io", kernel_io_fields[k], k == JS_KIO_SYSCR || k == JS_KIO_SYSCW ? "calls" : "bytes", 0,
                      I64(kio, kernel_io_fields[k]), span, reason, size))
            return -1;
    return 0;
}

/* Each kind of MPI collective's calls, bytes and time. */
static int plausible_collectives(const struct pi_conf *conf, const json_t *p, double span, char *reason, size_t size)
{
    char where[64];
    const char *kind;
    const json_t *c;
    json_object_foreach((json_t *)json_object_get(p, "mpi_collectives"), kind, c) {
        snprintf(where, sizeof where, "mpi_collectives.%.32s", kind);
        if (pi_plausible(conf, where, "calls", "calls", 0, I64(c, "calls"), span, reason, size) ||
            pi_plausible(conf, where, "bytes", "bytes", 0, I64(c, "bytes"), span, reason, size) ||
            pi_plausible(conf, where, "ns", "ns", 0, I64(c, "ns"), span, reason, size))
            return -1;
    }
    return 0;
}

/* Each file's bytes and calls, and its mapping. */
static int plausible_files(const struct pi_conf *conf, const json_t *p, double span, char *reason, size_t size)
{
    char where[64];
    const json_t *fe;
    size_t i;
    json_array_foreach(json_object_get(p, "files"), i, fe) {
        static const char *const bytes[] = { "read_bytes", "write_bytes", "lower_read_bytes", "lower_write_bytes" };
        static const char *const calls[] = { "opens", "read_calls", "write_calls" };
        snprintf(where, sizeof where, "files[%zu]", i);
        for (size_t k = 0; k < sizeof bytes / sizeof bytes[0]; k++)
            if (pi_plausible(conf, where, bytes[k], "bytes", 0, I64(fe, bytes[k]), span, reason, size))
                return -1;
        for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++)
            if (pi_plausible(conf, where, calls[k], "calls", 0, I64(fe, calls[k]), span, reason, size))
                return -1;
        /* a mapping is address space, not a rate: 2^57 bytes is more than any machine addresses */
        if (I64(fe, "mapped_bytes") > (1LL << 57))
            return pi_invalid(reason, size, "%s: mapped_bytes %" PRId64 " is more than any address space: not plausible", where,
                        I64(fe, "mapped_bytes"));
        /* a birth time is half of an identity: never without the inode it is of */
        if (I64(fe, "btime") != 0 && I64(fe, "ino") == 0)
            return pi_invalid(reason, size, "%s: btime %" PRId64 " without an inode: not plausible", where, I64(fe, "btime"));
    }
    return 0;
}

/* The bounds scale with the process's span: its start_ns..end_ns, which check_whose keeps within
 * the root-written step record's span, never its own wall_ns (a forged 9e18 lifted every bound),
 * which must be that span (docs/profile-format.md). */
static int check_plausible(const struct pi_conf *conf, const json_t *p, json_int_t version, char *reason, size_t size)
{
    double L = (double)I64(p, "slice_seconds");
    int64_t own = I64(p, "end_ns") - I64(p, "start_ns");
    if (I64(p, "wall_ns") > own + 1000000000LL)
        return pi_invalid(reason, size, "wall_ns %" PRId64 " is more than end_ns - start_ns (%" PRId64 "): not plausible",
                          I64(p, "wall_ns"), own);
    double span = (double)own / 1e9 + 2 * L; /* the slices its time touches */
    if (plausible_slices(conf, p, version, L, span, reason, size) || plausible_process(conf, p, version, span, reason, size) ||
        plausible_collectives(conf, p, span, reason, size) || plausible_files(conf, p, span, reason, size))
        return -1;
    return 0;
}

/* --- a profile's structure, member by member, in the order a reader meets them --- */


/* Its "format", and a version this profile_ingest reads (*version). */
static int check_profile_version(const json_t *p, json_int_t *version, char *reason, size_t size)
{
    const json_t *f = json_object_get(p, "format");
    if (!json_is_string(f) || strcmp(json_string_value(f), JS_PROFILE_FORMAT_NAME) != 0)
        return pi_invalid(reason, size, "not a jobscreen profile: \"format\" is not \"%s\"", JS_PROFILE_FORMAT_NAME);
    const json_t *v = json_object_get(p, "version");
    if (!json_is_integer(v))
        return pi_invalid(reason, size, "profile has no integer \"version\"");
    *version = json_integer_value(v);
    pthread_once(&since_once, since_init);
    if (*version < JS_PROFILE_VERSION_MIN || *version > JS_PROFILE_VERSION) {
        if (JS_PROFILE_VERSION_MIN == JS_PROFILE_VERSION)
            snprintf(reason, size, "unknown profile format version %" JSON_INTEGER_FORMAT " (this profile_ingest reads version %d)",
                     *version, JS_PROFILE_VERSION);
        else
            snprintf(reason, size, "unknown profile format version %" JSON_INTEGER_FORMAT " (this profile_ingest reads versions %d to %d)",
                     *version, JS_PROFILE_VERSION_MIN, JS_PROFILE_VERSION);
        return PI_UNKNOWN_VERSION;
    }
    return PI_OK;
}

/* The top-level members its version has, of their types; in a bundle of version 2 (bundled)
 * without its slices, which are in the bundle's series. */
static int check_profile_members(const json_t *p, json_int_t version, int bundled, char *reason, size_t size)
{
    for (size_t i = 0; i < sizeof profile_fields / sizeof profile_fields[0]; i++) {
        if (profile_since[i] > version)
            continue; /* not in this version's profiles: pi_profile_add supplies its default */
        const json_t *x = json_object_get(p, profile_fields[i].name);
        if (bundled && !js_profile_member_bundled(profile_fields[i].name)) {
            if (x) /* they are in the bundle's series: they would count twice */
                return pi_invalid(reason, size, "field \"%s\" is not in a profile of a version 2 bundle", profile_fields[i].name);
            continue;
        }
        if (!x)
            return pi_invalid(reason, size, "field \"%s\" is missing", profile_fields[i].name);
        if (!ptype_ok(x, profile_fields[i].type))
            return pi_invalid(reason, size, "field \"%s\" is not %s", profile_fields[i].name, ptype_name(profile_fields[i].type));
        if (json_is_string(x) && json_string_length(x) > JS_PROFILE_MAX_STRING)
            return pi_invalid(reason, size, "field \"%s\" is longer than %d bytes", profile_fields[i].name, JS_PROFILE_MAX_STRING);
    }
    return PI_OK;
}

/* How it ended: end, and from version 2 its signal, exit code and what is missing. */
static int check_ending(const struct pi_step *st, const json_t *p, json_int_t version, char *reason, size_t size)
{
    const char *end = STR(p, "end");
    if (!end_known(end, version) && !(st->live && version >= 2 && strcmp(end, "running") == 0))
        return pi_invalid(reason, size, "end \"%s\" is not %s", end,
                    version >= 2 ? "exit, _exit, exec, signal or unknown" : "exit, _exit or exec");
    if (version < 2)
        return PI_OK;
    const json_t *miss = json_object_get(p, "missing");
    if (pi_end_check(end, I64(p, "signal"), I64(p, "exit_code"), json_string_length(miss), reason, size) != PI_OK)
        return PI_INVALID;
    if (strlen(json_string_value(miss)) != json_string_length(miss))
        return pi_invalid(reason, size, "field \"missing\" holds a NUL character");
    return PI_OK;
}

/* Whose profile it is: this step on this node of this job, in its slices and time span. */
static int check_whose(const struct pi_step *st, const json_t *p, char *reason, size_t size)
{
    if (I64(p, "job_id") != st->job_id || strcmp(STR(p, "step"), st->step) != 0 || strcmp(STR(p, "node"), st->node) != 0)
        return pi_invalid(reason, size, "profile is of job %" PRId64 " step %s node %s, not of this step record's job %" PRId64 " step %s node %s",
                    I64(p, "job_id"), STR(p, "step"), STR(p, "node"), st->job_id, st->step, st->node);
    if (I64(p, "slice_seconds") != st->slice_seconds)
        return pi_invalid(reason, size, "slice_seconds %" PRId64 " differs from the step record's %" PRId64,
                    I64(p, "slice_seconds"), st->slice_seconds);
    int64_t ps = I64(p, "start_ns"), pe = I64(p, "end_ns");
    if (pe < ps || ps < st->start_ns - PI_PROFILE_SLACK_NS || pe > st->end_ns + PI_PROFILE_SLACK_NS)
        return pi_invalid(reason, size, "start_ns..end_ns lies outside the step's time span");
    return PI_OK;
}

/* runtime, kernel_io (from version 4; empty: unknown) and totals: non-negative integers. */
static int check_counts(const json_t *p, json_int_t version, char *reason, size_t size)
{
    const json_t *rt = json_object_get(p, "runtime");
    for (size_t i = 0; i < sizeof runtime_fields / sizeof runtime_fields[0]; i++) {
        if (runtime_since[i] > version)
            continue;
        const json_t *x = json_object_get(rt, runtime_fields[i]);
        if (!x || !ptype_ok(x, 'u'))
            return pi_invalid(reason, size, "runtime: field \"%s\" is missing or not a non-negative integer", runtime_fields[i]);
    }
    if (version >= 4) {
        const json_t *kio = json_object_get(p, "kernel_io");
        for (int i = 0; i < JS_KIO_COUNT && json_object_size(kio) > 0; i++) { /* empty: unknown */
            const json_t *x = json_object_get(kio, kernel_io_fields[i]);
            if (!x || !ptype_ok(x, 'u'))
                return pi_invalid(reason, size, "kernel_io: field \"%s\" is missing or not a non-negative integer", kernel_io_fields[i]);
        }
    }
    const json_t *tot = json_object_get(p, "totals");
    for (int i = 0; i < JS_M_COUNT; i++) {
        const json_t *x = json_object_get(tot, js_profile_metrics[i].name);
        if (!x || !ptype_ok(x, 'u'))
            return pi_invalid(reason, size, "totals: field \"%s\" is missing or not a non-negative integer", js_profile_metrics[i].name);
    }
    return PI_OK;
}

/* slice_metrics names its version's values; the slice rows ascend within the step's slices. */
static int check_slices(const struct pi_step *st, const json_t *p, json_int_t version, char *reason, size_t size)
{
    const json_t *names = json_object_get(p, "slice_metrics");
    const int ncols = pi_slice_cols_of(version);
    if (json_array_size(names) != (size_t)ncols)
        return pi_invalid(reason, size, "slice_metrics has %zu names, version %d has %d", json_array_size(names), (int)version, ncols);
    for (int i = 0; i < ncols; i++) {
        const json_t *x = json_array_get(names, (size_t)i);
        if (!json_is_string(x) || strcmp(json_string_value(x), js_profile_slice_cols[i].name) != 0)
            return pi_invalid(reason, size, "slice_metrics[%d] is not \"%s\"", i, js_profile_slice_cols[i].name);
    }
    int64_t lo = js_slice_of_ns(st->start_ns - PI_PROFILE_SLACK_NS, (int32_t)st->slice_seconds);
    int64_t hi = js_slice_of_ns(st->end_ns + PI_PROFILE_SLACK_NS, (int32_t)st->slice_seconds);
    const json_t *rows = json_object_get(p, "slices"), *row;
    size_t i;
    int64_t prev = INT64_MIN;
    json_array_foreach(rows, i, row) {
        if (!json_is_array(row) || json_array_size(row) != (size_t)ncols + 1)
            return pi_invalid(reason, size, "slices[%zu] is not an array of %d integers", i, ncols + 1);
        for (size_t k = 0; k <= (size_t)ncols; k++)
            if (!ptype_ok(json_array_get(row, k), 'u'))
                return pi_invalid(reason, size, "slices[%zu][%zu] is not a non-negative integer", i, k);
        int64_t s = json_integer_value(json_array_get(row, 0));
        if (s <= prev)
            return pi_invalid(reason, size, "slices[%zu]: slice %" PRId64 " does not ascend", i, s);
        if (s < lo || s > hi)
            return pi_invalid(reason, size, "slices[%zu]: slice %" PRId64 " lies outside the step's slices %" PRId64 "..%" PRId64, i, s, lo, hi);
        prev = s;
    }
    return PI_OK;
}

/* The files: members of the version, an absolute path, known layer and modes. */
static int check_files(const json_t *p, json_int_t version, char *reason, size_t size)
{
    const json_t *files = json_object_get(p, "files"), *fe;
    size_t i;
    if (json_array_size(files) > JS_PROFILE_MAX_FILES)
        return pi_invalid(reason, size, "files has more than %d entries", JS_PROFILE_MAX_FILES);
    json_array_foreach(files, i, fe) {
        if (!json_is_object(fe))
            return pi_invalid(reason, size, "files[%zu] is not an object", i);
        for (size_t k = 0; k < sizeof file_fields / sizeof file_fields[0]; k++) {
            const json_t *x = json_object_get(fe, file_fields[k].name);
            if (file_since[k] > version)
                continue;
            if (!x || !ptype_ok(x, file_fields[k].type))
                return pi_invalid(reason, size, "files[%zu]: field \"%s\" is missing or not %s", i, file_fields[k].name, ptype_name(file_fields[k].type));
        }
        const char *path = STR(fe, "path");
        if (path[0] != '/' || strlen(path) > JS_PROFILE_MAX_PATH || strlen(path) != json_string_length(json_object_get(fe, "path")))
            return pi_invalid(reason, size, "files[%zu]: path is not an absolute path", i);
        const char *layer = STR(fe, "layer");
        if (strcmp(layer, "posix") && strcmp(layer, "stdio") && strcmp(layer, "mpiio"))
            return pi_invalid(reason, size, "files[%zu]: layer \"%s\" is not posix, stdio or mpiio", i, layer);
        const char *om = STR(fe, "open_mode"), *um = STR(fe, "used_mode");
        if (strcmp(om, "r") && strcmp(om, "w") && strcmp(om, "rw"))
            return pi_invalid(reason, size, "files[%zu]: open_mode \"%s\" is not r, w or rw", i, om);
        if (strcmp(um, "r") && strcmp(um, "w") && strcmp(um, "rw") && strcmp(um, "none"))
            return pi_invalid(reason, size, "files[%zu]: used_mode \"%s\" is not r, w, rw or none", i, um);
        if (strlen(STR(fe, "fstype")) > 64)
            return pi_invalid(reason, size, "files[%zu]: fstype is longer than 64 bytes", i);
        if (version >= 3 && json_string_length(json_object_get(fe, "opened_as")) > 0 && !abs_path_ok(fe, "opened_as"))
            return pi_invalid(reason, size, "files[%zu]: opened_as is neither empty nor an absolute path", i);
    }
    return PI_OK;
}

/* Entry i of list: each field present with its type. */
static int entry_fields_ok(const json_t *e, const struct entry_field *fields, size_t n, const char *list, size_t i,
                           char *reason, size_t size)
{
    for (size_t k = 0; k < n; k++) {
        const json_t *x = json_object_get(e, fields[k].name);
        if (!x || !ptype_ok(x, fields[k].type))
            return pi_invalid(reason, size, "%s[%zu]: field \"%s\" is missing or not %s", list, i, fields[k].name,
                        ptype_name(fields[k].type));
    }
    return PI_OK;
}

/* The software trees (version 3). */
static int check_trees(const json_t *p, char *reason, size_t size)
{
    const json_t *trees = json_object_get(p, "trees"), *te;
    size_t i;
    if (json_array_size(trees) > JS_PROFILE_MAX_FILES)
        return pi_invalid(reason, size, "trees has more than %d entries", JS_PROFILE_MAX_FILES);
    json_array_foreach(trees, i, te) {
        int rc = entry_fields_ok(te, tree_fields, sizeof tree_fields / sizeof tree_fields[0], "trees", i, reason, size);
        if (rc != PI_OK)
            return rc;
        if (!abs_path_ok(te, "path"))
            return pi_invalid(reason, size, "trees[%zu]: path is not an absolute path", i);
    }
    return PI_OK;
}

/* The renames (version 3), each within the profile's start_ns..end_ns. */
static int check_renames(const json_t *p, char *reason, size_t size)
{
    const json_t *renames = json_object_get(p, "renames"), *re;
    int64_t ps = I64(p, "start_ns"), pe = I64(p, "end_ns");
    size_t i;
    if (json_array_size(renames) > JS_PROFILE_MAX_RENAMES)
        return pi_invalid(reason, size, "renames has more than %d entries", JS_PROFILE_MAX_RENAMES);
    json_array_foreach(renames, i, re) {
        int rc = entry_fields_ok(re, rename_fields, sizeof rename_fields / sizeof rename_fields[0], "renames", i, reason, size);
        if (rc != PI_OK)
            return rc;
        if (!abs_path_ok(re, "from") || !abs_path_ok(re, "to"))
            return pi_invalid(reason, size, "renames[%zu]: from or to is not an absolute path", i);
        if (json_string_length(json_object_get(re, "fstype")) > 64)
            return pi_invalid(reason, size, "renames[%zu]: fstype is longer than 64 bytes", i);
        if (I64(re, "ns") < ps || I64(re, "ns") > pe)
            return pi_invalid(reason, size, "renames[%zu]: ns lies outside the profile's start_ns..end_ns", i);
    }
    return PI_OK;
}

int pi_profile_check(const struct pi_step *st, const struct pi_conf *conf, const json_t *p, char *reason, size_t size)
{
    json_int_t version = 0;
    int rc = check_profile_version(p, &version, reason, size);
    if (rc != PI_OK)
        return rc;
    int bundled = st->bundle_version >= 2;
    if (bundled && version < 7)
        return pi_invalid(reason, size, "a version %d profile does not belong in a bundle of version 2", (int)version);
    if (check_profile_members(p, version, bundled, reason, size) != PI_OK || check_ending(st, p, version, reason, size) != PI_OK ||
        check_whose(st, p, reason, size) != PI_OK || check_counts(p, version, reason, size) != PI_OK ||
        (!bundled && check_slices(st, p, version, reason, size) != PI_OK) || check_files(p, version, reason, size) != PI_OK)
        return PI_INVALID;
    if (version >= 3 && (check_trees(p, reason, size) != PI_OK || check_renames(p, reason, size) != PI_OK))
        return PI_INVALID;
    if (version >= 6 && pi_segments_check(p, reason, size) != PI_OK)
        return PI_INVALID;
    return check_plausible(conf, p, version, reason, size);
}

int pi_is_bundle(const json_t *p)
{
    const char *f = json_string_value(json_object_get(p, "format"));
    return f && strcmp(f, JS_PROFILE_BUNDLE_FORMAT_NAME) == 0;
}

int pi_bundle_check(const struct pi_step *st, const json_t *b, int64_t *unrecorded, const char **unrecorded_reason,
                    char *reason, size_t size)
{
    const json_t *v = json_object_get(b, "version");
    const json_t *list = json_object_get(b, "profiles");
    *unrecorded = 0;
    *unrecorded_reason = NULL;
    if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > JS_PROFILE_BUNDLE_VERSION)
        return pi_invalid(reason, size, "bundle version %s is not one this profile_ingest reads (1 to %d)",
                    json_is_integer(v) ? "other" : "missing", JS_PROFILE_BUNDLE_VERSION);
    if (json_integer_value(v) < 3 && (!json_is_array(list) || json_array_size(list) > JS_PROFILE_BUNDLE_MAX))
        return pi_invalid(reason, size, "bundle without a \"profiles\" array of at most %d", JS_PROFILE_BUNDLE_MAX);
    /* the processes the profiler refused to record (the spool quota) */
    const json_t *u = json_object_get(b, "unrecorded");
    if (!u)
        return PI_OK;
    const json_t *n = json_object_get(u, "processes"), *text = json_object_get(u, "reason");
    if (!json_is_object(u))
        return pi_invalid(reason, size, "bundle: \"unrecorded\" is not an object");
    if (!json_is_integer(n) || json_integer_value(n) < 1 || json_integer_value(n) > INT32_MAX)
        return pi_invalid(reason, size, "bundle: \"unrecorded\": \"processes\" is missing or not an integer from 1 to %d", INT32_MAX);
    if (!json_is_string(text) || json_string_length(text) > PI_UNRECORDED_REASON_MAX)
        return pi_invalid(reason, size, "bundle: \"unrecorded\": \"reason\" is missing or not a string of at most %d bytes",
                    PI_UNRECORDED_REASON_MAX);
    if (memchr(json_string_value(text), '\0', json_string_length(text)))
        return pi_invalid(reason, size, "bundle: \"unrecorded\": \"reason\" holds a NUL character");
    if (json_integer_value(n) > INT32_MAX - st->unrecorded)
        return pi_invalid(reason, size, "bundle: \"unrecorded\": more than %d processes for one step on one node", INT32_MAX);
    *unrecorded = json_integer_value(n);
    *unrecorded_reason = json_string_value(text);
    return PI_OK;
}

int pi_parse_step_record_name(const char *name, char *step, size_t stepsize, char *node, size_t nodesize)
{
    size_t plen = strlen(JS_STEP_RECORD_PREFIX), slen = strlen(JS_RECORD_SUFFIX), len = strlen(name);
    if (len <= plen + slen || strncmp(name, JS_STEP_RECORD_PREFIX, plen) != 0 || strcmp(name + len - slen, JS_RECORD_SUFFIX) != 0)
        return -1;
    const char *s = name + plen;
    const char *dot = strchr(s, '.');
    if (!dot || dot == s || (size_t)(dot - s) >= stepsize)
        return -1;
    size_t nlen = (size_t)(name + len - slen - (dot + 1));
    if (nlen == 0 || nlen >= nodesize || dot[1] == '.')
        return -1;
    memcpy(step, s, (size_t)(dot - s));
    step[dot - s] = '\0';
    memcpy(node, dot + 1, nlen);
    node[nlen] = '\0';
    uint32_t id;
    if (js_step_parse(step, &id) < 0 || strchr(node, '/'))
        return -1;
    return 0;
}

int pi_profile_name_matches(const char *name, const char *step, const char *node)
{
    size_t ls = strlen(step), ln = strlen(node), len = strlen(name), lsuf = strlen(JS_RECORD_SUFFIX);
    if (name[0] == '.' || len <= ls + ln + 2 + lsuf)
        return 0;
    if (strncmp(name, step, ls) != 0 || name[ls] != '.' || strncmp(name + ls + 1, node, ln) != 0 || name[ls + 1 + ln] != '.')
        return 0;
    if (strcmp(name + len - lsuf, JS_RECORD_SUFFIX) != 0)
        return 0;
    for (const char *c = name + ls + ln + 2; c < name + len - lsuf; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_' || *c == '-'))
            return 0;
    return 1;
}
