/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen-collect: bundles (many profiles in one file, published once whole), the recovery of
 * a run that stopped, the passes over the records and the live snapshot.
 */
#include "config.h"

#include "collect.h"
#include "bundle_cols.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void emit_out(void *ctx, const char *p, size_t n) { js_out_raw(ctx, p, n); }

static ssize_t plain_write(int fd, const void *p, size_t n) { return write(fd, p, n); }

/* --- bundles: <step>.<node>.b<seq>.json, many profiles in one file ---
 * A record goes into bundle N under a hidden marker name, .<record>.in-b<N>; once the bundle is
 * published the markers go. A run that finds markers of a bundle that exists removes them,
 * and puts back those of a bundle that never appeared: a crash at any point neither loses nor
 * doubles a profile. */
#define JS_MARK ".in-b"

struct bundle {
    int fd;
    unsigned seq;
    size_t n;
    char tmp[600];
    char **marks;
    size_t nmarks;
    int64_t bytes;             /* allocated bytes of the records marked: discharged once published */
    struct js_out out;
    struct js_fold fold;       /* the profiles' slice rows, summed: the bundle's "series" */
    int fold_failed;           /* out of memory while folding: the bundle is not published */
    int live;                  /* the live snapshot: bundle version 1, each profile with its slices */
    struct js_cols *cols;      /* the processes as columns (version 3) */
};

/* A bundle's columns hold its rows in memory: it is closed past this many (files, trees,
 * renames and processes), so that a step of file-heavy processes never costs the node much */
#define JS_BUNDLE_ROWS_MAX (1u << 16)

/* One profile's text, gathered for the columns (the collector is single-threaded). */
static struct {
    char *p;
    size_t n, cap;
} prof_text;

static ssize_t text_write(int fd, const void *p, size_t n)
{
    (void)fd;
    if (prof_text.n + n > prof_text.cap) {
        size_t cap = 2 * (prof_text.n + n);
        char *x = realloc(prof_text.p, cap);
        if (!x) {
            errno = ENOMEM;
            return -1;
        }
        prof_text.p = x;
        prof_text.cap = cap;
    }
    memcpy(prof_text.p + prof_text.n, p, n);
    prof_text.n += n;
    return (ssize_t)n;
}

static int bundle_name(char *out, size_t size, unsigned seq)
{
    return snprintf(out, size, "%sb%u.json", C.prefix, seq) < (int)size ? 0 : -1;
}

static int bundle_open(struct bundle *b, unsigned seq, const char *tmpname)
{
    b->seq = seq;
    b->n = 0;
    js_fold_reset(&b->fold);
    b->fold_failed = 0;
    snprintf(b->tmp, sizeof b->tmp, "%s", tmpname);
    b->fd = openat(C.dirfd, b->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (b->fd < 0)
        return collect_bad(b->tmp, "cannot create a bundle");
    js_out_init(&b->out, b->fd, plain_write, JS_PROFILE_MAX_BYTES);
    js_out_raw(&b->out, "{", 1);
    js_out_key(&b->out, "format");
    js_out_str(&b->out, JS_PROFILE_BUNDLE_FORMAT_NAME, 64);
    kv_u(&b->out, "version", b->live ? 1 : JS_PROFILE_BUNDLE_VERSION);
    if (!b->live) { /* the processes as columns, written at its close */
        if (!b->cols && !(b->cols = js_cols_new()))
            b->fold_failed = 1;
        else
            js_cols_reset(b->cols);
        return 0;
    }
    comma(&b->out);
    js_out_key(&b->out, "profiles");
    js_out_raw(&b->out, "[", 1);
    return 0;
}

static void bundle_add(struct bundle *b, struct rec *r)
{
    if (b->live) {
        if (b->n++)
            js_out_raw(&b->out, ",", 1);
        write_profile(&b->out, r, C.mounts, C.nm, 0);
        return;
    }
    static struct js_out po; /* 64 KiB: the collector is single-threaded */
    b->n++;
    prof_text.n = 0;
    js_out_init(&po, -1, text_write, JS_PROFILE_MAX_BYTES);
    write_profile(&po, r, C.mounts, C.nm, 1);
    if (b->fold_failed || js_out_flush(&po) != 0 || js_cols_add(b->cols, prof_text.p, prof_text.n) != 0 ||
        fold_rows(&b->fold, r) != 0)
        b->fold_failed = 1;
}

/* Close the bundle and give it its name (final: never over another; live: replace). A bundle
 * may say how many processes of the step the job's spool quota kept from being recorded. */
static int bundle_close(struct bundle *b, const char *name, int replace, int64_t unrecorded)
{
    if (b->live)
        js_out_raw(&b->out, "]", 1);
    else {
        comma(&b->out);
        if (b->fold_failed || js_cols_write(b->cols, emit_out, &b->out) != 0)
            b->fold_failed = 1;
        comma(&b->out);
        js_out_key(&b->out, "series");
        if (b->fold_failed || js_fold_write(&b->fold, emit_out, &b->out) != 0)
            b->fold_failed = 1;
    }
    if (unrecorded > 0) {
        char why[256];
        snprintf(why, sizeof why, "the job's record quota on this node (%lld B, %lld records) was reached",
                 (long long)C.quota->cap_bytes, (long long)C.quota->cap_files);
        comma(&b->out);
        js_out_key(&b->out, "unrecorded");
        js_out_raw(&b->out, "{", 1);
        js_out_key(&b->out, "processes");
        js_out_u64(&b->out, (uint64_t)unrecorded);
        kv_s(&b->out, "reason", why, sizeof why);
        js_out_raw(&b->out, "}", 1);
    }
    js_out_raw(&b->out, "}\n", 2);
    js_out_flush(&b->out);
    int werr = b->fold_failed ? ENOMEM : b->out.err;
    if (fsync(b->fd) != 0 && werr == 0)
        werr = errno;
    if (close(b->fd) != 0 && werr == 0)
        werr = errno;
    b->fd = -1;
    int rc = werr ? -1 : replace ? renameat(C.dirfd, b->tmp, C.dirfd, name) : linkat(C.dirfd, b->tmp, C.dirfd, name, 0);
    if (rc != 0 && werr == 0)
        werr = errno;
    unlinkat(C.dirfd, b->tmp, 0);
    if (werr) {
        errno = werr;
        return collect_bad(name, "cannot write the bundle");
    }
    return 0;
}

/* The markers of bundle N are removed once it exists, and their records leave the quota. */
static void drop_marks(struct bundle *b)
{
    for (size_t i = 0; i < b->nmarks; i++) {
        unlinkat(C.dirfd, b->marks[i], 0);
        free(b->marks[i]);
    }
    js_quota_charge(C.quota, -(int64_t)b->nmarks, -b->bytes);
    b->nmarks = 0;
    b->bytes = 0;
}

/* Allocated bytes of a record file, from its header (a marker left by a stopped run). */
static int64_t record_bytes(const char *name)
{
    struct js_global g;
    int fd = openat(C.dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    int64_t n = 0;
    if (fd >= 0 && pread(fd, &g, sizeof g, 0) == (ssize_t)sizeof g && memcmp(g.magic, JS_REC_MAGIC, 8) == 0)
        n = js_rec_allocated(&g);
    if (fd >= 0)
        close(fd);
    return n;
}

/* Does name (in the directory) start with the prefix and end with suffix? */
static int ours(const char *name, const char *suffix)
{
    size_t l = strlen(name), sl = strlen(suffix), pl = strlen(C.prefix);
    return l > pl + sl && strncmp(name, C.prefix, pl) == 0 && strcmp(name + l - sl, suffix) == 0;
}

/* A fresh listing of the directory (a dup shares the offset of the last one: rewind it). */
DIR *open_dir(void)
{
    DIR *d = fdopendir(dup(C.dirfd));
    if (d)
        rewinddir(d);
    return d;
}

/* Does bundle seq exist: published here, or already taken into the spool by the plugin's relay
 * (which leaves an empty tombstone, .<bundle>.sent, until this run has seen it)? */
static int bundle_exists(unsigned seq)
{
    char name[600], tomb[620];
    struct stat sb;
    if (bundle_name(name, sizeof name, seq) != 0)
        return 0;
    snprintf(tomb, sizeof tomb, ".%s.sent", name);
    return fstatat(C.dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 || fstatat(C.dirfd, tomb, &sb, AT_SYMLINK_NOFOLLOW) == 0;
}

/* Markers left by a run that stopped: removed, or put back; then the tombstones go. Returns
 * the next free sequence. */
static unsigned recover(void)
{
    unsigned next = 1;
    DIR *d = open_dir();
    struct dirent *e;
    char name[600];
    size_t pl = strlen(C.prefix);
    while (d && (e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        unsigned seq;
        const char *mk = n[0] == '.' ? strstr(n, JS_REC_SUFFIX JS_MARK) : NULL;
        if (mk && strncmp(n + 1, C.prefix, pl) == 0 && sscanf(mk + strlen(JS_REC_SUFFIX JS_MARK), "%u", &seq) == 1) {
            if (bundle_exists(seq)) {
                int64_t bytes = record_bytes(n);
                if (unlinkat(C.dirfd, n, 0) == 0) /* its profile is in the bundle */
                    js_quota_charge(C.quota, -1, -bytes);
            } else {
                snprintf(name, sizeof name, "%.*s", (int)(mk - n - 1 + strlen(JS_REC_SUFFIX)), n + 1);
                renameat(C.dirfd, n, C.dirfd, name);
            }
            if (seq >= next)
                next = seq + 1;
        } else if (ours(n, ".json") && n[pl] == 'b' && sscanf(n + pl + 1, "%u", &seq) == 1 && seq >= next) {
            next = seq + 1;
        }
    }
    /* every marker is settled: the tombstones have told what they had to */
    if (d) {
        rewinddir(d);
        while ((e = readdir(d)) != NULL) {
            size_t l = strlen(e->d_name);
            if (e->d_name[0] == '.' && strncmp(e->d_name + 1, C.prefix, pl) == 0 && e->d_name[1 + pl] == 'b' &&
                l > 5 && strcmp(e->d_name + l - 5, ".sent") == 0)
                unlinkat(C.dirfd, e->d_name, 0);
        }
        closedir(d);
    }
    return next;
}

/* The names of the records in scope, sorted (a pid's images in order). */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
char **list_records(size_t *n)
{
    size_t cap = 64;
    char **v = malloc(cap * sizeof *v);
    *n = 0;
    DIR *d = open_dir();
    struct dirent *e;
    while (v && d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !ours(e->d_name, JS_REC_SUFFIX))
            continue;
        if (*n == cap) {
            char **nv = realloc(v, (cap *= 2) * sizeof *v);
            if (nv == NULL)
                break;
            v = nv;
        }
        v[(*n)++] = strdup(e->d_name);
    }
    if (d)
        closedir(d);
    if (v)
        qsort(v, *n, sizeof *v, cmp_str);
    return v;
}

/* One pass: every ready record into bundles; returns how many it turned, -1 on errors. The
 * final pass also says how many processes of the step the quota kept from being recorded. */
long bundle_pass(void)
{
    int64_t unrecorded = C.final ? js_quota_take_refused(C.quota, C.step) : 0;
    unsigned seq = recover();
    size_t n;
    char **names = list_records(&n);
    struct bundle b = {.fd = -1};
    b.marks = calloc(JS_PROFILE_BUNDLE_MAX, sizeof *b.marks);
    long turned = 0;
    int errors = 0;
    char tmp[600], fin[600], mark[700];
    for (size_t i = 0; names && b.marks && i < n; i++) {
        struct rec r;
        int ready = rec_load(names[i], &r, 0);
        if (ready < 0)
            errors++;
        if (ready == 1) {
            if (b.fd < 0) {
                snprintf(tmp, sizeof tmp, ".%sb%u.json.tmp", C.prefix, seq);
                if (bundle_open(&b, seq, tmp) != 0) {
                    rec_unload(&r);
                    errors++;
                    break;
                }
            }
            snprintf(mark, sizeof mark, ".%s" JS_MARK "%u", names[i], seq);
            if (renameat(C.dirfd, names[i], C.dirfd, mark) == 0) {
                bundle_add(&b, &r);
                b.marks[b.nmarks++] = strdup(mark);
                b.bytes += js_rec_allocated(r.g);
                turned++;
            }
        }
        rec_unload(&r);
        if (b.fd >= 0 && (b.nmarks == JS_PROFILE_BUNDLE_MAX || (b.cols && js_cols_rows(b.cols) > JS_BUNDLE_ROWS_MAX))) {
            bundle_name(fin, sizeof fin, seq++);
            if (bundle_close(&b, fin, 0, 0) == 0)
                drop_marks(&b);
            else
                errors++; /* the markers stay: the next run puts them back */
        }
    }
    /* the last bundle, or one only to say what the quota kept from being recorded */
    if (b.fd < 0 && unrecorded > 0 && b.marks) {
        snprintf(tmp, sizeof tmp, ".%sb%u.json.tmp", C.prefix, seq);
        if (bundle_open(&b, seq, tmp) != 0)
            errors++;
    }
    if (b.fd >= 0) {
        bundle_name(fin, sizeof fin, seq);
        if (bundle_close(&b, fin, 0, unrecorded) == 0) {
            drop_marks(&b);
            unrecorded = 0;
        } else {
            errors++;
        }
    }
    for (; unrecorded > 0; unrecorded--) /* not said: left for the next run */
        js_quota_refused(C.quota, C.step);
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    free(b.marks);
    js_fold_free(&b.fold);
    js_cols_free(b.cols);
    return errors ? -1 : turned;
}

/* --each: a profile file per record, <step>.<node>.<pid>[-n].json (tests, by hand), its slices
 * in it. */
static int publish(struct rec *r)
{
    static struct js_out out;
    char base[512], tmp[600], fin[600];
    snprintf(base, sizeof base, "%s.%s.%d", r->g->step, r->g->node, (int)r->g->pid);
    /* the record's own name first (<pid>-<n> keeps the order of a pid's images), then the next free */
    size_t nl = strlen(r->name) - strlen(JS_REC_SUFFIX);
    snprintf(tmp, sizeof tmp, ".%s.json.tmp", base);
    int fd = openat(C.dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return collect_bad(r->name, "cannot create its profile");
    js_out_init(&out, fd, plain_write, JS_PROFILE_MAX_BYTES);
    write_profile(&out, r, C.mounts, C.nm, 0);
    js_out_flush(&out);
    int werr = out.err;
    if (close(fd) != 0 && werr == 0)
        werr = errno;
    if (werr) {
        unlinkat(C.dirfd, tmp, 0);
        errno = werr;
        return collect_bad(r->name, "cannot write its profile");
    }
    for (unsigned k = 0; k < 1000; k++) {
        if (k == 0)
            snprintf(fin, sizeof fin, "%.*s.json", (int)nl, r->name);
        else
            snprintf(fin, sizeof fin, "%s-%u.json", base, k);
        if (linkat(C.dirfd, tmp, C.dirfd, fin, 0) == 0) {
            unlinkat(C.dirfd, tmp, 0);
            return 0;
        }
        if (errno != EEXIST)
            break;
    }
    unlinkat(C.dirfd, tmp, 0);
    return collect_bad(r->name, "cannot publish its profile");
}

long each_pass(void)
{
    size_t n;
    char **names = list_records(&n);
    long turned = 0;
    int errors = 0;
    for (size_t i = 0; names && i < n; i++) {
        struct rec r;
        int ready = rec_load(names[i], &r, 0);
        if (ready < 0 || (ready == 1 && publish(&r) != 0))
            errors++;
        else if (ready == 1 && unlinkat(C.dirfd, names[i], 0) == 0) {
            js_quota_charge(C.quota, -1, -js_rec_allocated(r.g));
            turned++;
        }
        rec_unload(&r);
        free(names[i]);
    }
    free(names);
    return errors ? -1 : turned;
}

/* The running processes as they are now: .live.<step>.<node>.json, replaced each time. */
void live_snapshot(void)
{
    char tmp[600], fin[600];
    size_t n;
    char **names = list_records(&n);
    /* each profile with its slices: the ingest drops from a snapshot the processes bundled
     * since it was taken (docs/ingest.md, "Running steps"), which a sum could not tell apart */
    struct bundle b = {.fd = -1, .live = 1};
    snprintf(tmp, sizeof tmp, ".live.%sjson.tmp", C.prefix);
    snprintf(fin, sizeof fin, ".live.%sjson", C.prefix);
    if (names && bundle_open(&b, 0, tmp) == 0) {
        for (size_t i = 0; i < n; i++) {
            struct rec r;
            if (rec_load(names[i], &r, 1) == 1)
                bundle_add(&b, &r);
            rec_unload(&r);
        }
        bundle_close(&b, fin, 1, 0);
    }
    js_fold_free(&b.fold);
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

