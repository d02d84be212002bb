/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Profiles and bundles of version 1-2 (JSON), checked (validate.c), added to their step
 * (ingest_step.c): a profile's process, slices, files, software trees and renames; a bundle's
 * profiles, series and budget; bundles of version 3 go to cols_check.c. No I/O: unit-tested.
 */
#include "ingest_gpu.h"
#include "config.h"

#include "validate.h"
#include "cols_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define I64(o, k) ((int64_t)json_integer_value(json_object_get((o), (k))))
#define STR(o, k) json_string_value(json_object_get((o), (k)))

static const char *const kernel_io_fields[] = {
#define JS_X(id, name, unit, desc) name,
    JS_PROFILE_KERNEL_IO_FIELDS(JS_X)
#undef JS_X
};

/* The process row of a checked profile (version 1 had no exit_code, signal and missing; before
 * version 4 the runtime's idle, MPI setup and CPU wait times and the kernel's counts are
 * unknown: -1). */
static struct pi_proc *add_process(struct pi_step *st, const json_t *p, json_int_t version)
{
    st->procs = pi_grow(st->procs, &st->capprocs, st->nprocs + 1, sizeof *st->procs);
    struct pi_proc *pr = &st->procs[st->nprocs++];
    memset(pr, 0, sizeof *pr);
    pr->pid = I64(p, "pid");
    pr->ppid = I64(p, "ppid");
    pr->task_id = I64(p, "task_id");
    pr->mpi_rank = I64(p, "mpi_rank");
    pr->mpi_size = I64(p, "mpi_size");
    pr->start_ns = I64(p, "start_ns");
    pr->end_ns = I64(p, "end_ns");
    pr->wall_ns = I64(p, "wall_ns");
    pr->cpu_user_ns = I64(p, "cpu_user_ns");
    pr->cpu_sys_ns = I64(p, "cpu_sys_ns");
    pr->max_rss_kib = I64(p, "max_rss_kib");
    pr->threads_peak = I64(p, "threads_peak");
    pr->threads_seen = I64(p, "threads_seen");
    const json_t *rt = json_object_get(p, "runtime");
    pr->compute_ns = I64(rt, "compute_ns");
    pr->idle_ns = version >= 4 ? I64(rt, "idle_ns") : -1;
    pr->mpi_setup_ns = version >= 4 ? I64(rt, "mpi_setup_ns") : -1;
    pr->cpu_wait_ns = version >= 4 ? I64(rt, "cpu_wait_ns") : -1;
    const json_t *kio = json_object_get(p, "kernel_io");
    for (int k = 0; k < JS_KIO_COUNT; k++)
        pr->kio[k] = version >= 4 && json_object_size(kio) > 0 ? I64(kio, kernel_io_fields[k]) : -1;
    pr->files_dropped = I64(p, "files_dropped");
    pr->sync_calls = version >= 8 ? I64(p, "sync_calls") : -1;
    pr->sync_ns = version >= 8 ? I64(p, "sync_ns") : -1;
    pr->code_dropped = version >= 8 ? I64(p, "code_dropped") : 0;
    pr->slices_truncated = json_is_true(json_object_get(p, "slices_truncated"));
    if (version >= 2) {
        pr->exit_code = (int)I64(p, "exit_code");
        pr->signal = (int)I64(p, "signal");
        pr->missing = (char *)pi_step_intern(st, STR(p, "missing"));
    } else { /* version 1 had none of the three */
        pr->exit_code = -1;
        pr->signal = 0;
        pr->missing = (char *)pi_step_intern(st, "");
    }
    pr->origin = (char *)pi_step_intern(st, STR(p, "origin"));
    pr->end = (char *)pi_step_intern(st, STR(p, "end"));
    pr->exe = (char *)pi_step_intern(st, STR(p, "exe"));
    pr->args = (char *)pi_step_intern(st, STR(p, "args"));
    char *coll = json_dumps(json_object_get(p, "mpi_collectives"), JSON_COMPACT | JSON_SORT_KEYS);
    pr->collectives = (char *)pi_step_intern(st, coll);
    free(coll);
    const json_t *tot = json_object_get(p, "totals");
    for (int i = 0; i < JS_M_COUNT; i++)
        pr->m[i] = I64(tot, js_profile_metrics[i].name);
    return pr;
}

/* Its slices, profile versions 1 to 6 (merged over processes in pi_step_finish): ncols values
 * of each row, the process alone its spread. */
static void add_slices(struct pi_step *st, const json_t *p, int ncols)
{
    const json_t *row;
    size_t i;
    int64_t pid = I64(p, "pid");
    json_array_foreach(json_object_get(p, "slices"), i, row) {
        st->slices = pi_grow(st->slices, &st->capslices, st->nslices + 1, sizeof *st->slices);
        struct pi_slice *s = &st->slices[st->nslices++];
        memset(s, 0, sizeof *s);
        s->slice = json_integer_value(json_array_get(row, 0));
        s->processes = 1;
        for (int k = 0; k < ncols; k++)
            s->m[k] = json_integer_value(json_array_get(row, (size_t)k + 1));
        for (int k = 0; k < JS_SPREAD_COUNT; k++) {
            s->lo[k] = s->hi[k] = js_spread_value(s->m, k);
            s->hi_pid[k] = pid;
        }
    }
}

/* Its files (merged by path in pi_step_finish), as read or written by its last process. */
static void add_files(struct pi_step *st, const struct pi_conf *conf, const json_t *p)
{
    const json_t *fe;
    size_t i;
    json_array_foreach(json_object_get(p, "files"), i, fe) {
        struct pi_file *f = pi_step_file_new(st);
        f->path = strdup(STR(fe, "path"));
        pi_file_set(st, conf, f, STR(fe, "fstype"), STR(fe, "open_mode"), STR(fe, "used_mode"), STR(fe, "layer"));
        f->opens = I64(fe, "opens");
        f->reads = I64(fe, "read_calls");
        f->writes = I64(fe, "write_calls");
        f->bytes_read = I64(fe, "read_bytes");
        f->bytes_written = I64(fe, "write_bytes");
        f->first_access = I64(fe, "first_open_ns");
        f->last_access = I64(fe, "last_close_ns");
        f->dev = (uint64_t)I64(fe, "dev");
        f->ino = (uint64_t)I64(fe, "ino");
        f->btime = (uint64_t)json_integer_value(json_object_get(fe, "btime")); /* 0 before version 9 */
        f->mapped_bytes = json_integer_value(json_object_get(fe, "mapped_bytes")); /* 0 before version 4 */
        pi_file_times(f);
    }
}

/* Its software trees (merged by path in pi_step_finish) and renames (applied there). */
static void add_trees_and_renames(struct pi_step *st, const json_t *p)
{
    const json_t *te, *re;
    size_t i;
    json_array_foreach(json_object_get(p, "trees"), i, te) {
        st->trees = pi_grow(st->trees, &st->captrees, st->ntrees + 1, sizeof *st->trees);
        struct pi_tree *t = &st->trees[st->ntrees++];
        t->path = strdup(STR(te, "path"));
        t->processes = 1;
        t->last_proc = (int)st->nprocs - 1;
        t->opens = I64(te, "opens");
        t->read_bytes = I64(te, "read_bytes");
        t->write_bytes = I64(te, "write_bytes");
    }
    json_array_foreach(json_object_get(p, "renames"), i, re) {
        st->renames = pi_grow(st->renames, &st->caprenames, st->nrenames + 1, sizeof *st->renames);
        struct pi_rename *r = &st->renames[st->nrenames++];
        r->from = strdup(STR(re, "from"));
        r->to = strdup(STR(re, "to"));
        r->fstype = (char *)pi_step_intern(st, STR(re, "fstype"));
        r->ns = I64(re, "ns");
    }
}

int pi_profile_add(struct pi_step *st, const struct pi_conf *conf, const json_t *p, char *reason, size_t size)
{
    int rc = pi_profile_check(st, conf, p, reason, size);
    if (rc != PI_OK)
        return rc;
    st->conf = conf;
    json_int_t version = json_integer_value(json_object_get(p, "version"));
    /* the kernel's counts per slice, where known (zeros otherwise, as the profiler writes them) */
    int kio_known = version >= 4 && json_object_size(json_object_get(p, "kernel_io")) > 0;
    int ncols = kio_known ? pi_slice_cols_of(version) : JS_M_COUNT;
    if ((rc = pi_budget_take(st, conf, p, ncols, reason, size)) != PI_OK)
        return rc;
    add_process(st, p, version);
    add_slices(st, p, ncols);
    add_files(st, conf, p);
    add_trees_and_renames(st, p);
    pi_segments_add(st, p);
    pi_step_merge_some(st);
    return PI_OK;
}

int pi_bundle_add(struct pi_step *st, const struct pi_conf *conf, const json_t *b, int *count, char *reason, size_t size)
{
    /* the bundle's own members are checked before any profile is added, so that a malformed
     * "unrecorded" refuses the bundle whole */
    int64_t unrec;
    const char *ureason;
    if (pi_bundle_check(st, b, &unrec, &ureason, reason, size) != PI_OK)
        return PI_INVALID;
    const json_t *list = json_object_get(b, "profiles");
    int version = (int)json_integer_value(json_object_get(b, "version"));
    struct pi_cols cols;
    memset(&cols, 0, sizeof cols);
    if ((version >= 3 && pi_cols_read(&cols, b, reason, size) != PI_OK) ||
        (version >= 2 && pi_series_take(st, conf, json_object_get(b, "series"), reason, size) != PI_OK)) {
        pi_cols_free(&cols);
        return PI_INVALID; /* malformed columns, or the processes' slices: the bundle is refused whole */
    }
    st->unrecorded += unrec;
    if (ureason && ureason[0] && !st->unrecorded_reason[0])
        snprintf(st->unrecorded_reason, sizeof st->unrecorded_reason, "%s", ureason);
    int rc = PI_OK;
    char why[PI_REASON_MAX];
    st->bundle_version = version;
    if (version >= 3) { /* the processes as columns */
        rc = pi_cols_add(st, conf, &cols, count, reason, size);
        pi_cols_free(&cols);
        st->bundle_version = 0;
        return rc;
    }
    for (size_t i = 0; i < json_array_size(list); i++) {
        if (++*count > conf->max_profiles) {
            if (rc == PI_OK) {
                snprintf(reason, size, "more than %d profiles for one step on one node", conf->max_profiles);
                rc = PI_INVALID;
            }
            break;
        }
        int r = pi_profile_add(st, conf, json_array_get(list, i), why, sizeof why);
        if (r != PI_OK && rc == PI_OK) {
            snprintf(reason, size, "profile %zu of the bundle: %s", i + 1, why);
            rc = r;
        }
    }
    st->bundle_version = 0;
    return rc;
}
