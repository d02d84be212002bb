/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The step type of the ingest (struct pi_step, ingest_step.h): one step on one node, its
 * processes, slices, files, software trees and renames, made and merged here only, so that the
 * readers of each format (aggregate.c for profiles and bundles of version 1-2, cols_check.c
 * for version 3, node_series.c for the node's series) call down into it and it calls none of
 * them. Merged as rows come so that memory stays bounded (docs/ingest.md, "Fairness and
 * bounded cost"), then finished (merged, renames applied, images numbered) for ingest_db.c to
 * write. No I/O: unit-tested.
 */
#include "config.h"

#include "ingest_gpu.h"
#include "validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define I64(o, k) ((int64_t)json_integer_value(json_object_get((o), (k))))
#define STR(o, k) json_string_value(json_object_get((o), (k)))

static int mode_has(const char *m, char c) { return strchr(m, c) != NULL && strcmp(m, "none") != 0; }

void pi_step_init(struct pi_step *st, json_t *job, json_t *rec, const char *default_cluster)
{
    memset(st, 0, sizeof *st);
    st->job = job;
    st->rec = rec;
    st->job_id = json_integer_value(json_object_get(rec, "job_id"));
    st->uid = (uint32_t)json_integer_value(json_object_get(rec, "uid"));
    st->start_ns = json_integer_value(json_object_get(rec, "start_ns"));
    st->end_ns = json_integer_value(json_object_get(rec, "end_ns"));
    st->slice_seconds = json_integer_value(json_object_get(rec, "slice_seconds"));
    snprintf(st->step, sizeof st->step, "%s", json_string_value(json_object_get(rec, "step")));
    snprintf(st->node, sizeof st->node, "%s", json_string_value(json_object_get(rec, "node")));
    const char *cl = json_string_value(json_object_get(rec, "cluster"));
    snprintf(st->cluster, sizeof st->cluster, "%s", cl && *cl ? cl : default_cluster);
    /* what the plugin's relay could not keep (checked by pi_record_check); the bundles add theirs */
    const json_t *u = json_object_get(rec, "unrecorded");
    if (u) {
        st->unrecorded = json_integer_value(json_object_get(u, "processes"));
        snprintf(st->unrecorded_reason, sizeof st->unrecorded_reason, "%s", json_string_value(json_object_get(u, "reason")));
    }
}

/* The distinct strings of a step: an open-addressing hash set of malloc'd strings. 10^5
 * profiles of one program have one origin, end, exe, args, collectives and missing between
 * them, and 10^5 refused files mostly one reason: held once, not 10^5 times. */
struct pi_strtab {
    char **slot;
    size_t cap, n;
};

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

const char *pi_step_intern(struct pi_step *st, const char *s)
{
    if (!s)
        return NULL;
    struct pi_strtab *t = st->strs;
    if (!t) {
        t = st->strs = calloc(1, sizeof *t);
        if (!t)
            abort();
    }
    if (2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char **slot = calloc(cap, sizeof *slot);
        if (!slot)
            abort();
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i]) {
                size_t k = (size_t)str_hash(t->slot[i]) & (cap - 1);
                while (slot[k])
                    k = (k + 1) & (cap - 1);
                slot[k] = t->slot[i];
            }
        free(t->slot);
        t->slot = slot;
        t->cap = cap;
    }
    size_t k = (size_t)str_hash(s) & (t->cap - 1);
    for (; t->slot[k]; k = (k + 1) & (t->cap - 1))
        if (strcmp(t->slot[k], s) == 0)
            return t->slot[k];
    t->slot[k] = strdup(s);
    if (!t->slot[k])
        abort();
    t->n++;
    return t->slot[k];
}

void pi_step_free(struct pi_step *st)
{
    /* the processes' strings, the files' and renames' fstype and the refusals' reasons are the
     * step's interned strings (st->strs) */
    for (size_t i = 0; i < st->nfiles; i++)
        free(st->files[i].path);
    for (size_t i = 0; i < st->ntrees; i++)
        free(st->trees[i].path);
    for (size_t i = 0; i < st->nrenames; i++) {
        free(st->renames[i].from);
        free(st->renames[i].to);
    }
    for (size_t i = 0; i < st->nbad; i++)
        free(st->bad[i].name);
    if (st->strs) {
        for (size_t i = 0; i < st->strs->cap; i++)
            free(st->strs->slot[i]);
        free(st->strs->slot);
        free(st->strs);
    }
    for (size_t i = 0; i < st->nseg_groups; i++)
        free(st->seg_groups[i].bins);
    free(st->seg_groups);
    free(st->slices);
    free(st->procs);
    free(st->files);
    free(st->trees);
    free(st->renames);
    free(st->bad);
    pi_gpu_free(st->gpu);
    st->gpu = NULL;
    pi_budget_free(&st->budget);
    json_decref(st->job);
    json_decref(st->rec);
    memset(st, 0, sizeof *st);
}

void *pi_grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * elem);
    if (!q) {
        fprintf(stderr, "profile_ingest: out of memory\n");
        abort();
    }
    *cap = n;
    return q;
}

int pi_step_has_missing(const struct pi_step *st)
{
    for (size_t i = 0; i < st->nprocs; i++)
        if (st->procs[i].missing && st->procs[i].missing[0])
            return 1;
    return 0;
}

void pi_step_add_bad(struct pi_step *st, const char *name, const char *reason)
{
    st->bad = pi_grow(st->bad, &st->capbad, st->nbad + 1, sizeof *st->bad);
    char r[PI_REASON_MAX];
    snprintf(r, sizeof r, "%s", reason);
    st->bad[st->nbad].name = strdup(name);
    st->bad[st->nbad].reason = pi_step_intern(st, r);
    st->nbad++;
}

void pi_file_set(struct pi_step *st, const struct pi_conf *conf, struct pi_file *f, const char *fstype, const char *om,
                 const char *um, const char *layer)
{
    f->fstype = (char *)pi_step_intern(st, fstype);
    f->shared = pi_conf_is_shared_fs(conf, f->fstype);
    f->opened_r = strchr(om, 'r') != NULL;
    f->opened_w = strchr(om, 'w') != NULL;
    /* Opening for writing counts as writing (it may truncate or create the file, and a
     * shell's "> file" opens it for a child that writes through the inherited descriptor);
     * a read-only open that was not used counts as reading for the same reason. */
    f->read = mode_has(um, 'r') || (!strcmp(um, "none") && !f->opened_w);
    f->written = mode_has(um, 'w') || f->opened_w;
    f->processes = 1;
    f->last_proc = (int)st->nprocs - 1;
    f->layers = !strcmp(layer, "mpiio") ? PI_LAYER_MPIIO : !strcmp(layer, "posix") ? PI_LAYER_POSIX : PI_LAYER_STDIO;
}

void pi_file_times(struct pi_file *f)
{
    if (f->read)
        f->first_read = f->first_access;
    if (f->written)
        f->last_write = f->last_access;
}

static struct pi_file *file_find(struct pi_step *st, const char *path)
{
    /* linear per profile would be quadratic; files are merged by sort in pi_step_finish,
     * here each profile appends and pi_step_finish merges equal paths. */
    (void)path;
    st->files = pi_grow(st->files, &st->capfiles, st->nfiles + 1, sizeof *st->files);
    struct pi_file *f = &st->files[st->nfiles++];
    memset(f, 0, sizeof *f);
    f->first_access = f->last_access = f->first_read = f->last_write = -1;
    return f;
}

static void merge_some(struct pi_step *st);

struct pi_file *pi_step_file_new(struct pi_step *st) { return file_find(st, NULL); }

struct pi_proc *pi_step_proc_new(struct pi_step *st)
{
    st->procs = pi_grow(st->procs, &st->capprocs, st->nprocs + 1, sizeof *st->procs);
    struct pi_proc *pr = &st->procs[st->nprocs++];
    memset(pr, 0, sizeof *pr);
    return pr;
}

struct pi_tree *pi_step_tree_new(struct pi_step *st)
{
    st->trees = pi_grow(st->trees, &st->captrees, st->ntrees + 1, sizeof *st->trees);
    struct pi_tree *t = &st->trees[st->ntrees++];
    memset(t, 0, sizeof *t);
    t->processes = 1;
    t->last_proc = (int)st->nprocs - 1;
    return t;
}

struct pi_rename *pi_step_rename_new(struct pi_step *st)
{
    st->renames = pi_grow(st->renames, &st->caprenames, st->nrenames + 1, sizeof *st->renames);
    struct pi_rename *r = &st->renames[st->nrenames++];
    memset(r, 0, sizeof *r);
    return r;
}

void pi_step_merge_some(struct pi_step *st) { merge_some(st); }

void pi_step_add_slices(struct pi_step *st, const struct pi_slice *s, size_t n)
{
    st->slices = pi_grow(st->slices, &st->capslices, st->nslices + n, sizeof *st->slices);
    memcpy(st->slices + st->nslices, s, n * sizeof *s);
    st->nslices += n;
    merge_some(st);
}


static int cmp_slice(const void *a, const void *b)
{
    const struct pi_slice *x = a, *y = b;
    return (x->slice > y->slice) - (x->slice < y->slice);
}

static int cmp_file(const void *a, const void *b)
{
    const struct pi_file *x = a, *y = b;
    return strcmp(x->path, y->path);
}

static int cmp_proc(const void *a, const void *b)
{
    const struct pi_proc *x = a, *y = b;
    if (x->pid != y->pid)
        return (x->pid > y->pid) - (x->pid < y->pid);
    return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

static int64_t min_set(int64_t a, int64_t b) { return a < 0 ? b : b < 0 ? a : a < b ? a : b; }
static int64_t max_set(int64_t a, int64_t b) { return a > b ? a : b; }

/* By path, then by the last profile that added to it: an entry merged before (whose
 * profiles all came before the ones appended since) first, and one profile's entries (a path
 * in two layers) side by side, so that counting changes of last_proc counts processes. */
static int cmp_tree(const void *a, const void *b)
{
    const struct pi_tree *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : (x->last_proc > y->last_proc) - (x->last_proc < y->last_proc);
}

/* processes of d after s is merged into it: they share at most s's last profile */
static int merged_processes(int dp, int dlast, int sp, int slast) { return dp + sp - (dlast == slast); }

/* software trees: sum equal paths over processes */
static void merge_trees(struct pi_step *st)
{
    if (st->ntrees > 1)
        qsort(st->trees, st->ntrees, sizeof *st->trees, cmp_tree);
    size_t n = 0;
    for (size_t i = 0; i < st->ntrees; i++) {
        struct pi_tree *s = &st->trees[i];
        if (n > 0 && strcmp(st->trees[n - 1].path, s->path) == 0) {
            struct pi_tree *d = &st->trees[n - 1];
            d->processes = merged_processes(d->processes, d->last_proc, s->processes, s->last_proc);
            d->last_proc = s->last_proc;
            d->opens = pi_sat_add(d->opens, s->opens);
            d->read_bytes = pi_sat_add(d->read_bytes, s->read_bytes);
            d->write_bytes = pi_sat_add(d->write_bytes, s->write_bytes);
            free(s->path);
        } else {
            st->trees[n++] = *s;
        }
    }
    st->ntrees = st->trees_merged = n;
}

static int cmp_rename(const void *a, const void *b)
{
    const struct pi_rename *x = a, *y = b;
    return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* Index of path's merged entry, or -1: a binary search in the sorted first `sorted` entries,
 * then the ones appended since. */
static long file_index(const struct pi_step *st, size_t sorted, const char *path)
{
    size_t lo = 0, hi = sorted;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(st->files[mid].path, path);
        if (c == 0)
            return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = sorted; i < st->nfiles; i++)
        if (!strcmp(st->files[i].path, path))
            return (long)i;
    return -1;
}

/* Index of path's entry, made (used by no process yet) when the step has none. */
static size_t file_index_made(struct pi_step *st, size_t sorted, const char *path, const char *fstype)
{
    long i = file_index(st, sorted, path);
    if (i >= 0)
        return (size_t)i;
    struct pi_file *f = file_find(st, path);
    f->path = strdup(path);
    f->fstype = (char *)pi_step_intern(st, fstype);
    f->shared = st->conf && pi_conf_is_shared_fs(st->conf, fstype);
    f->last_proc = -1;
    return st->nfiles - 1;
}

/* The renamer takes what was under the old name (a read of it at the rename) and puts it under
 * the new one (a write at the rename, with the bytes the step wrote under the old name), so
 * that the edges follow a file to its new name: a step that writes out.tmp and renames it to
 * out is out's writer; another job's step that renames it reads out.tmp and writes out. */
static void rename_one(struct pi_step *st, size_t sorted, const char *from, const char *to, const char *fstype, int64_t ns)
{
    size_t fi = file_index_made(st, sorted, from, fstype);
    int64_t carried = st->files[fi].written ? st->files[fi].bytes_written : 0;
    struct pi_file *f = &st->files[fi];
    f->read = 1;
    f->first_read = min_set(f->first_read, ns);
    f->first_access = min_set(f->first_access, ns);
    f->last_access = max_set(f->last_access, ns);
    f->layers |= PI_LAYER_RENAME;
    struct pi_file *t = &st->files[file_index_made(st, sorted, to, fstype)];
    t->written = 1;
    t->bytes_written = pi_sat_add(t->bytes_written, carried);
    t->last_write = max_set(t->last_write, ns);
    t->first_access = min_set(t->first_access, ns);
    t->last_access = max_set(t->last_access, ns);
    t->layers |= PI_LAYER_RENAME;
}

/* Renames in time order; a directory's rename carries the files the step wrote under it (and
 * makes no entry of the directory itself). */
static void apply_renames(struct pi_step *st)
{
    if (st->nrenames == 0)
        return;
    qsort(st->renames, st->nrenames, sizeof *st->renames, cmp_rename);
    size_t sorted = st->nfiles;
    for (size_t r = 0; r < st->nrenames; r++) {
        const struct pi_rename *rn = &st->renames[r];
        size_t fl = strlen(rn->from), lo = 0, hi = sorted;
        while (lo < hi) { /* the first path after "from/" (the sorted part: one range) */
            size_t mid = (lo + hi) / 2;
            if (strncmp(st->files[mid].path, rn->from, fl) < 0 ||
                (strncmp(st->files[mid].path, rn->from, fl) == 0 && st->files[mid].path[fl] < '/'))
                lo = mid + 1;
            else
                hi = mid;
        }
        int moved = 0;
        for (size_t k = lo; k < sorted && strncmp(st->files[k].path, rn->from, fl) == 0 && st->files[k].path[fl] == '/'; k++) {
            if (!st->files[k].written)
                continue;
            moved = 1;
            const char *rest = st->files[k].path + fl;
            size_t tl = strlen(rn->to), rl = strlen(rest);
            char *from = strdup(st->files[k].path), *to = malloc(tl + rl + 1);
            memcpy(to, rn->to, tl);
            memcpy(to + tl, rest, rl + 1);
            rename_one(st, sorted, from, to, rn->fstype, rn->ns);
            free(from);
            free(to);
        }
        if (!moved) /* a file (or a directory the step wrote nothing in) */
            rename_one(st, sorted, rn->from, rn->to, rn->fstype, rn->ns);
    }
    if (st->nfiles > sorted)
        qsort(st->files, st->nfiles, sizeof *st->files, cmp_file);
}

static int cmp_file_proc(const void *a, const void *b)
{
    const struct pi_file *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : (x->last_proc > y->last_proc) - (x->last_proc < y->last_proc);
}

/* slices: sum equal slice indexes over processes */
static void merge_slices(struct pi_step *st)
{
    qsort(st->slices, st->nslices, sizeof *st->slices, cmp_slice);
    size_t n = 0;
    for (size_t i = 0; i < st->nslices; i++) {
        if (n > 0 && st->slices[n - 1].slice == st->slices[i].slice) {
            struct pi_slice *d = &st->slices[n - 1];
            const struct pi_slice *x = &st->slices[i];
            js_spread_merge(d->lo, d->hi, d->hi_pid, x->lo, x->hi, x->hi_pid);
            d->processes += x->processes;
            for (int k = 0; k < JS_SLICE_COLS; k++) /* within the budget: saturating only to be sure */
                d->m[k] = pi_sat_add(d->m[k], x->m[k]);
        } else {
            st->slices[n++] = st->slices[i];
        }
    }
    st->nslices = st->slices_merged = n;
}

/* files: merge equal paths (over processes and layers) */
static void merge_files(struct pi_step *st)
{
    if (st->nfiles > 1)
        qsort(st->files, st->nfiles, sizeof *st->files, cmp_file_proc);
    size_t n = 0;
    for (size_t i = 0; i < st->nfiles; i++) {
        struct pi_file *s = &st->files[i];
        if (n > 0 && strcmp(st->files[n - 1].path, s->path) == 0) {
            struct pi_file *d = &st->files[n - 1];
            d->processes = merged_processes(d->processes, d->last_proc, s->processes, s->last_proc);
            d->last_proc = s->last_proc;
            d->shared = d->shared || s->shared;
            d->read |= s->read;
            d->written |= s->written;
            d->opened_r |= s->opened_r;
            d->opened_w |= s->opened_w;
            d->opens = pi_sat_add(d->opens, s->opens);
            d->reads = pi_sat_add(d->reads, s->reads);
            d->writes = pi_sat_add(d->writes, s->writes);
            d->bytes_read = pi_sat_add(d->bytes_read, s->bytes_read);
            d->bytes_written = pi_sat_add(d->bytes_written, s->bytes_written);
            d->mapped_bytes = pi_sat_add(d->mapped_bytes, s->mapped_bytes);
            d->first_access = min_set(d->first_access, s->first_access);
            d->last_access = max_set(d->last_access, s->last_access);
            d->first_read = min_set(d->first_read, s->first_read);
            d->last_write = max_set(d->last_write, s->last_write);
            d->layers |= s->layers;
            if (d->ino == 0) { /* of a profile that knew them */
                d->dev = s->dev;
                d->ino = s->ino;
                d->btime = s->btime;
            }
            free(s->path);
        } else {
            st->files[n++] = *s;
        }
    }
    st->nfiles = st->files_merged = n;
}

/* After a profile is added: merge what it appended once the unmerged entries are as many as
 * the merged ones (and at least PI_MERGE_MIN), so that a step-node of 10^5 profiles holds
 * about twice its distinct slices, paths and trees rather than every profile's. */
static void merge_some(struct pi_step *st)
{
    if (st->nslices - st->slices_merged >= (st->slices_merged > PI_MERGE_MIN ? st->slices_merged : PI_MERGE_MIN))
        merge_slices(st);
    if (st->nfiles - st->files_merged >= (st->files_merged > PI_MERGE_MIN ? st->files_merged : PI_MERGE_MIN))
        merge_files(st);
    if (st->ntrees - st->trees_merged >= (st->trees_merged > PI_MERGE_MIN ? st->trees_merged : PI_MERGE_MIN))
        merge_trees(st);
}

void pi_step_finish(struct pi_step *st)
{
    merge_slices(st);
    merge_files(st);
    merge_trees(st);
    apply_renames(st);
    /* images: several profiles of one pid (exec) are numbered in start order */
    qsort(st->procs, st->nprocs, sizeof *st->procs, cmp_proc);
    for (size_t i = 0; i < st->nprocs; i++)
        st->procs[i].image = (i > 0 && st->procs[i - 1].pid == st->procs[i].pid) ? st->procs[i - 1].image + 1 : 0;
}

