/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsgen: profiles, member by member from common/profile_format.h, one file each or in bundles. */
#include "config.h"

#include "gen_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output buffer with a JSON writer -------------------------------------------------- */
static void b_need(struct buf *b, size_t add)
{
    if (b->n + add <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 65536;
    while (cap < b->n + add)
        cap *= 2;
    char *q = realloc(b->p, cap);
    if (!q)
        abort();
    b->p = q;
    b->cap = cap;
}
static void b_raw(struct buf *b, const char *s, size_t n) { b_need(b, n); memcpy(b->p + b->n, s, n); b->n += n; }
static void b_c(struct buf *b, char c) { b_need(b, 1); b->p[b->n++] = c; }
static void b_s(struct buf *b, const char *s) { b_raw(b, s, strlen(s)); }
static void b_u64(struct buf *b, uint64_t v)
{
    char t[24];
    int i = 24;
    do {
        t[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    b_raw(b, t + i, (size_t)(24 - i));
}
static void b_i64(struct buf *b, int64_t v)
{
    if (v < 0) {
        b_c(b, '-');
        b_u64(b, (uint64_t)0 - (uint64_t)v);
    } else {
        b_u64(b, (uint64_t)v);
    }
}
static void b_str(struct buf *b, const char *s)
{
    b_c(b, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            b_c(b, '\\');
            b_c(b, (char)c);
        } else if (c < 0x20) {
            char e[8];
            snprintf(e, sizeof e, "\\u%04x", c);
            b_s(b, e);
        } else {
            b_c(b, (char)c);
        }
    }
    b_c(b, '"');
}
static void b_key(struct buf *b, const char *k, int *n)
{
    if ((*n)++)
        b_c(b, ',');
    b_str(b, k);
    b_c(b, ':');
}

/* ---- profiles, member by member from common/profile_format.h ------------------------------
 * Each object is written by iterating its list, a switch over the list's enum giving each member
 * its value; none has a default, so that a member added to a list stops the build (-Wswitch)
 * at the switch where its value must come from. */
enum pfield {
#define JS_X(id, name, type, unit, desc) PF_##id,
    JS_PROFILE_FIELDS(JS_X)
#undef JS_X
};
static const char *const pfield_names[] = {
#define JS_X(id, name, type, unit, desc) name,
    JS_PROFILE_FIELDS(JS_X)
#undef JS_X
};
enum rfield {
#define JS_X(id, name, desc) RF_##id,
    JS_PROFILE_RUNTIME_FIELDS(JS_X)
#undef JS_X
};
static const char *const rfield_names[] = {
#define JS_X(id, name, desc) name,
    JS_PROFILE_RUNTIME_FIELDS(JS_X)
#undef JS_X
};
#define PF_COUNT ((int)(sizeof pfield_names / sizeof pfield_names[0]))
#define RF_COUNT ((int)(sizeof rfield_names / sizeof rfield_names[0]))
static const char *const kfield_names[JS_KIO_COUNT] = {
#define JS_X(id, name, unit, desc) name,
    JS_PROFILE_KERNEL_IO_FIELDS(JS_X)
#undef JS_X
};
enum ffield {
#define JS_X(id, name, type, unit, desc) FF_##id,
    JS_PROFILE_FILE_FIELDS(JS_X)
#undef JS_X
};
static const char *const ffield_names[] = {
#define JS_X(id, name, type, unit, desc) name,
    JS_PROFILE_FILE_FIELDS(JS_X)
#undef JS_X
};
#define FF_COUNT ((int)(sizeof ffield_names / sizeof ffield_names[0]))

static void put_file(struct buf *b, const struct pfile *f)
{
    int n = 0;
    b_c(b, '{');
    for (int i = 0; i < FF_COUNT; i++) {
        b_key(b, ffield_names[i], &n);
        switch ((enum ffield)i) {
        case FF_PATH: b_str(b, f->path); break;
        case FF_OPENED_AS: b_str(b, ""); break;
        case FF_LAYER: b_str(b, f->layer); break;
        case FF_DEV: b_u64(b, f->dev); break;
        case FF_INO: b_u64(b, f->ino); break;
        case FF_BTIME: b_u64(b, f->btime); break;
        case FF_MOUNT: b_str(b, f->mount); break;
        case FF_FSTYPE: b_str(b, f->fstype); break;
        case FF_OPEN_MODE: b_str(b, f->open_mode); break;
        case FF_USED_MODE: b_str(b, f->used_mode); break;
        case FF_OPENS: b_u64(b, f->opens); break;
        case FF_READ_CALLS: b_u64(b, f->read_calls); break;
        case FF_READ_BYTES: b_u64(b, f->read_bytes); break;
        case FF_WRITE_CALLS: b_u64(b, f->write_calls); break;
        case FF_WRITE_BYTES: b_u64(b, f->write_bytes); break;
        case FF_LOWER_READ_BYTES: b_u64(b, f->lower_read); break;
        case FF_LOWER_WRITE_BYTES: b_u64(b, f->lower_write); break;
        case FF_MAPPED_BYTES: b_u64(b, 0); break;
        case FF_FIRST_OPEN_NS: b_u64(b, (uint64_t)f->first_open_ns); break;
        case FF_LAST_CLOSE_NS: b_u64(b, (uint64_t)f->last_close_ns); break;
        }
    }
    b_c(b, '}');
}

/* The kernel's counts of a slice as "kernel_io" has them in sum: what the wrappers saw, and in
 * the first slice a little besides (stdio buffers, ld.so: startup_rchar in one read). */
static void kernel_of_slice(const uint64_t *v, int first, uint64_t startup_rchar, uint64_t kio[JS_KIO_COUNT])
{
    memset(kio, 0, JS_KIO_COUNT * sizeof *kio);
    kio[JS_KIO_RCHAR] = v[JS_M_POSIX_READ_BYTES] + v[JS_M_STDIO_READ_BYTES] + v[JS_M_LOWER_READ_BYTES] + (first ? startup_rchar : 0);
    kio[JS_KIO_WCHAR] = v[JS_M_POSIX_WRITE_BYTES] + v[JS_M_STDIO_WRITE_BYTES] + v[JS_M_LOWER_WRITE_BYTES];
    kio[JS_KIO_SYSCR] = v[JS_M_POSIX_READ_CALLS] + (first ? 1 : 0);
    kio[JS_KIO_SYSCW] = v[JS_M_POSIX_WRITE_CALLS];
    kio[JS_KIO_WRITE_BYTES] = kio[JS_KIO_WCHAR];
}

/* "mpi_segments": an MPI process's collectives as one group of allreduce segments of even
 * length (wall time / calls), the slowest list empty; {} for the others. By the lists of
 * common/profile_format.h, as the collector writes it. */
enum sfield {
#define JS_X(id, name, type, unit, desc) SF_##id,
    JS_PROFILE_SEGMENT_FIELDS(JS_X)
#undef JS_X
};
enum sgfield {
#define JS_X(id, name, type, unit, desc) SGF_##id,
    JS_PROFILE_SEGMENT_GROUP_FIELDS(JS_X)
#undef JS_X
};
static const char *const sfield_names[] = {
#define JS_X(id, name, type, unit, desc) name,
    JS_PROFILE_SEGMENT_FIELDS(JS_X)
#undef JS_X
};
static const char *const sgfield_names[] = {
#define JS_X(id, name, type, unit, desc) name,
    JS_PROFILE_SEGMENT_GROUP_FIELDS(JS_X)
#undef JS_X
};

static void put_segment_group(struct buf *b, uint64_t n, uint64_t each)
{
    int k = 0;
    b_c(b, '{');
    for (int i = 0; i < (int)(sizeof sgfield_names / sizeof sgfield_names[0]); i++) {
        b_key(b, sgfield_names[i], &k);
        switch ((enum sgfield)i) {
        case SGF_SIGNATURE: b_str(b, "00000000000000a1"); break;
        case SGF_BOUNDARY: b_str(b, js_profile_coll_kinds[JS_COLL_ALLREDUCE]); break;
        case SGF_COUNT: b_u64(b, n); break;
        case SGF_SUM_NS: b_u64(b, each * n); break;
        case SGF_MIN_NS:
        case SGF_MAX_NS: b_u64(b, each); break;
        case SGF_BINS:
            b_s(b, "[[");
            b_u64(b, (uint64_t)js_seg_bin_of(each));
            b_c(b, ',');
            b_u64(b, n);
            b_s(b, "]]");
            break;
        }
    }
    b_c(b, '}');
}

static void put_segments(struct buf *b, const struct proc *pr, const uint64_t *tot, uint64_t wall)
{
    uint64_t n = tot[JS_M_MPI_COLL_CALLS], each = n ? wall / n : 0;
    int k = 0;
    b_c(b, '{');
    for (int i = 0; pr->mpi_rank >= 0 && n > 0 && i < (int)(sizeof sfield_names / sizeof sfield_names[0]); i++) {
        b_key(b, sfield_names[i], &k);
        switch ((enum sfield)i) {
        case SF_BOUNDARIES: b_u64(b, n); break;
        case SF_UNGROUPED:
        case SF_UNGROUPED_NS: b_u64(b, 0); break;
        case SF_BIN_MIN_NS: b_u64(b, JS_SEG_BIN_MIN_NS); break;
        case SF_BIN_COUNT: b_u64(b, JS_SEG_BINS); break;
        case SF_DECADES: b_u64(b, JS_SEG_DECADES); break;
        case SF_GROUPS:
            b_c(b, '[');
            put_segment_group(b, n, each);
            b_c(b, ']');
            break;
        case SF_SLOWEST: b_s(b, "[]"); break;
        }
    }
    b_c(b, '}');
}

/* "kernel_io": the sum of the slices' (kernel_of_slice) */
static void put_kernel_io(struct buf *b, const uint64_t *tot, uint64_t startup_rchar)
{
    uint64_t kio[JS_KIO_COUNT];
    kernel_of_slice(tot, 1, startup_rchar, kio);
    b_c(b, '{');
    for (int k = 0, kn = 0; k < JS_KIO_COUNT; k++) {
        b_key(b, kfield_names[k], &kn);
        b_u64(b, kio[k]);
    }
    b_c(b, '}');
}

static void put_runtime(struct buf *b, const uint64_t *tot, uint64_t cpu, uint64_t wall)
{
    int rn = 0;
    uint64_t busy = tot[JS_M_POSIX_NS] + tot[JS_M_STDIO_NS] + tot[JS_M_MPIIO_NS] + tot[JS_M_MPI_P2P_NS] +
                    tot[JS_M_MPI_COLL_NS];
    uint64_t compute = cpu > busy ? cpu - busy : 0;
    b_c(b, '{');
    for (int k = 0; k < RF_COUNT; k++) {
        b_key(b, rfield_names[k], &rn);
        switch ((enum rfield)k) {
        case RF_IO_POSIX_NS: b_u64(b, tot[JS_M_POSIX_NS]); break;
        case RF_IO_STDIO_NS: b_u64(b, tot[JS_M_STDIO_NS]); break;
        case RF_IO_MPIIO_NS: b_u64(b, tot[JS_M_MPIIO_NS]); break;
        case RF_MPI_P2P_NS: b_u64(b, tot[JS_M_MPI_P2P_NS]); break;
        case RF_MPI_COLL_NS: b_u64(b, tot[JS_M_MPI_COLL_NS]); break;
        case RF_MPI_SETUP_NS: b_u64(b, 0); break;
        case RF_COMPUTE_NS: b_u64(b, compute); break;
        case RF_CPU_WAIT_NS: b_u64(b, 0); break;
        case RF_IDLE_NS: b_u64(b, wall > busy + compute ? wall - busy - compute : 0); break;
        }
    }
    b_c(b, '}');
}

static void put_totals(struct buf *b, const uint64_t *tot)
{
    int tn = 0;
    b_c(b, '{');
    for (int m = 0; m < JS_M_COUNT; m++) {
        b_key(b, js_profile_metrics[m].name, &tn);
        b_u64(b, tot[m]);
    }
    b_c(b, '}');
}

static void put_collectives(struct buf *b, const uint64_t *tot)
{
    b_c(b, '{');
    if (tot[JS_M_MPI_COLL_CALLS]) {
        b_str(b, js_profile_coll_kinds[JS_COLL_ALLREDUCE]);
        b_s(b, ":{\"calls\":");
        b_u64(b, tot[JS_M_MPI_COLL_CALLS]);
        b_s(b, ",\"bytes\":");
        b_u64(b, tot[JS_M_MPI_COLL_BYTES]);
        b_s(b, ",\"ns\":");
        b_u64(b, tot[JS_M_MPI_COLL_NS]);
        b_c(b, '}');
    }
    b_c(b, '}');
}

static void put_slice_metrics(struct buf *b)
{
    b_c(b, '[');
    for (int m = 0; m < JS_SLICE_COLS; m++) {
        if (m)
            b_c(b, ',');
        b_str(b, js_profile_slice_cols[m].name);
    }
    b_c(b, ']');
}

static void put_slices(struct buf *b, const struct proc *pr)
{
    b_c(b, '[');
    for (unsigned r = 0; r < pr->nrows; r++) {
        b_s(b, r ? ",[" : "[");
        b_i64(b, pr->slice_ids ? pr->slice_ids[r] : pr->first_slice + (int64_t)r);
        for (int m = 0; m < JS_M_COUNT; m++) {
            b_c(b, ',');
            b_u64(b, pr->rows[r][m]);
        }
        uint64_t kio[JS_KIO_COUNT];
        kernel_of_slice(pr->rows[r], r == 0, pr->startup_rchar, kio);
        for (int k = 0; k < JS_KIO_COUNT; k++) {
            b_c(b, ',');
            b_u64(b, kio[k]);
        }
        b_c(b, ']');
    }
    b_c(b, ']');
}

static void put_files(struct buf *b, const struct proc *pr)
{
    b_c(b, '[');
    for (unsigned f = 0; f < pr->nfiles; f++) {
        if (f)
            b_c(b, ',');
        put_file(b, &pr->files[f]);
    }
    b_c(b, ']');
}

/* A profile; in a bundle (bundled) without its slices, which the bundle's series sums. */
static void put_profile(struct ctx *c, struct buf *b, const struct gjob *j, const struct proc *pr, int bundled)
{
    const struct jsgen_params *p = c->p;
    uint64_t tot[JS_M_COUNT] = { 0 };
    for (unsigned r = 0; r < pr->nrows; r++)
        for (int m = 0; m < JS_M_COUNT; m++)
            tot[m] += pr->rows[r][m];
    uint64_t wall = (uint64_t)(pr->end_ns - pr->start_ns);
    uint64_t cpu = tot[JS_M_CPU_NS], sys = pr->sys_divisor ? cpu / pr->sys_divisor : 0;
    int n = 0;
    b_c(b, '{');
    for (int i = 0; i < PF_COUNT; i++) {
        if (bundled && !js_profile_member_bundled(pfield_names[i]))
            continue;
        b_key(b, pfield_names[i], &n);
        switch ((enum pfield)i) {
        case PF_FORMAT: b_str(b, JS_PROFILE_FORMAT_NAME); break;
        case PF_VERSION: b_u64(b, JS_PROFILE_VERSION); break;
        case PF_CLUSTER: b_str(b, p->cluster); break;
        case PF_JOB_ID: b_u64(b, j->id); break;
        case PF_STEP: b_str(b, pr->step); break;
        case PF_NODE: b_str(b, pr->node); break;
        case PF_TASK_ID: b_i64(b, pr->task_id); break;
        case PF_HOSTNAME: b_str(b, pr->node); break;
        case PF_PID: b_u64(b, pr->pid); break;
        case PF_PPID: b_u64(b, pr->ppid); break;
        case PF_UID: b_u64(b, (uint64_t)j->uid); break;
        case PF_ORIGIN: b_str(b, "start"); break;
        case PF_END: b_str(b, pr->end); break;
        case PF_EXIT_CODE: b_i64(b, pr->exit_code); break;
        case PF_SIGNAL: b_i64(b, pr->signal); break;
        case PF_EXE: b_str(b, pr->exe); break;
        case PF_ARGS: b_str(b, pr->args); break;
        case PF_SLICE_SECONDS: b_u64(b, p->slice_s); break;
        case PF_START_NS: b_u64(b, (uint64_t)pr->start_ns); break;
        case PF_END_NS: b_u64(b, (uint64_t)pr->end_ns); break;
        case PF_MPI_RANK: b_i64(b, pr->mpi_rank); break;
        case PF_MPI_SIZE: b_i64(b, pr->mpi_size); break;
        case PF_THREADS_PEAK: b_u64(b, pr->threads); break;
        case PF_THREADS_SEEN: b_u64(b, pr->threads); break;
        case PF_WALL_NS: b_u64(b, wall); break;
        case PF_CPU_USER_NS: b_u64(b, cpu - sys); break;
        case PF_CPU_SYS_NS: b_u64(b, sys); break;
        case PF_MAX_RSS_KIB: b_u64(b, pr->max_rss_kib); break;
        case PF_KERNEL_IO: put_kernel_io(b, tot, pr->startup_rchar); break;
        case PF_RUNTIME: put_runtime(b, tot, cpu, wall); break;
        case PF_TOTALS: put_totals(b, tot); break;
        case PF_MPI_COLLECTIVES: put_collectives(b, tot); break;
        case PF_MPI_SEGMENTS: put_segments(b, pr, tot, wall); break;
        case PF_SLICE_METRICS: put_slice_metrics(b); break;
        case PF_SLICES: put_slices(b, pr); break;
        case PF_SLICES_TRUNCATED: b_s(b, "false"); break;
        case PF_FILES: put_files(b, pr); break;
        case PF_FILES_DROPPED:
        case PF_CODE_DROPPED:
        case PF_SYNC_CALLS:
        case PF_SYNC_NS: b_u64(b, 0); break;
        case PF_TREES: b_s(b, "[]"); break;
        case PF_RENAMES: b_s(b, "[]"); break;
        case PF_RENAMES_DROPPED: b_u64(b, 0); break;
        case PF_MISSING: b_str(b, pr->missing); break;
        }
    }
    b_c(b, '}');
    c->s->profile_rows += pr->nrows;
    c->s->file_entries += pr->nfiles;
}

struct pfile *gen_add_file(struct proc *pr, const char *path, const char *layer, int local)
{
    if (pr->nfiles >= sizeof pr->files / sizeof pr->files[0])
        return NULL;
    struct pfile *f = &pr->files[pr->nfiles++];
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", path);
    f->layer = layer;
    f->mount = local ? "/tmp" : (!strncmp(path, "/project/", 9) ? "/project" : !strncmp(path, "/home/", 6) ? "/home" : "/scratch");
    f->fstype = local ? "tmpfs" : (!strncmp(path, "/home/", 6) ? "nfs4" : "lustre");
    f->dev = local ? 0x15 : 0x2f + (hash_str(f->mount) & 7);
    f->ino = hash_str(path) & 0xffffffffffULL;
    if (local)
        f->ino = hash64(f->ino, hash_str(pr->node)) & 0xffffffffULL;
    f->btime = 1700000000000000000ULL + (hash_str(path) & 0xffffffffULL); /* one per path: no false identity */
    f->opens = 1;
    return f;
}

void gen_file_read(struct pfile *f, uint64_t bytes, int64_t t0, int64_t t1)
{
    f->open_mode = "r";
    f->used_mode = "r";
    f->read_bytes = bytes;
    f->read_calls = bytes / (1 << 20) + 1;
    f->first_open_ns = t0;
    f->last_close_ns = t1;
}

void gen_file_write(struct pfile *f, uint64_t bytes, int64_t t0, int64_t t1)
{
    f->open_mode = "w";
    f->used_mode = "w";
    f->write_bytes = bytes;
    f->write_calls = bytes / (1 << 20) + 1;
    f->first_open_ns = t0;
    f->last_close_ns = t1;
}

void gen_pout_begin(struct pout *o, struct ctx *c, const struct gjob *j, int pfd, const char *step, const char *node)
{
    o->c = c;
    o->j = j;
    o->pfd = pfd;
    o->step = step;
    o->node = node;
    o->in_bundle = o->bundles = 0;
}

static int pout_write(struct pout *o, const char *name)
{
    long uid = o->c->p->chown_profiles ? o->j->uid : -1;
    return gen_write_at(o->c, o->pfd, name, o->c->b.p, o->c->b.n, 0600, uid, o->j->gid);
}

/* The process's slice rows (the kernel's counts as kernel_of_slice makes them) into the fold. */
static void fold_rows(struct ctx *c, const struct proc *pr)
{
    int64_t row[JS_SLICE_COLS];
    for (unsigned r = 0; r < pr->nrows; r++) {
        uint64_t kio[JS_KIO_COUNT];
        kernel_of_slice(pr->rows[r], r == 0, pr->startup_rchar, kio);
        for (int m = 0; m < JS_M_COUNT; m++)
            row[m] = (int64_t)pr->rows[r][m];
        for (int k = 0; k < JS_KIO_COUNT; k++)
            row[JS_M_COUNT + k] = (int64_t)kio[k];
        if (js_fold_add_row(&c->fold, pr->slice_ids ? pr->slice_ids[r] : pr->first_slice + (int64_t)r, row, (int64_t)pr->pid) != 0)
            abort();
    }
}

static void emit_buf(void *ctx, const char *p, size_t n) { b_raw(ctx, p, n); }

/* The bundle version jsgen writes (--bundle[=N]). */
static int bundle_version(const struct jsgen_params *p) { return p->bundle == 1 ? JS_PROFILE_BUNDLE_VERSION : p->bundle; }

/* A bundle's head, then its profiles (version 3: as columns, at its tail), then its tail: the
 * series of their slices. */
static void bundle_head(struct ctx *c)
{
    int n = 0, v = bundle_version(c->p);
    struct buf *b = &c->b;
    b->n = 0;
    c->in_text = 0;
    js_fold_reset(&c->fold);
    b_c(b, '{');
    b_key(b, "format", &n);
    b_str(b, JS_PROFILE_BUNDLE_FORMAT_NAME);
    b_key(b, "version", &n);
    b_u64(b, (uint64_t)v);
    if (v >= 3) {
        if (!c->cols && !(c->cols = js_cols_new()))
            abort();
        js_cols_reset(c->cols);
        return;
    }
    b_key(b, "profiles", &n);
    b_c(b, '[');
}

static void bundle_tail(struct ctx *c)
{
    if (bundle_version(c->p) >= 3) {
        b_c(&c->b, ',');
        if (js_cols_write(c->cols, emit_buf, &c->b) != 0)
            abort();
        b_s(&c->b, ",\"series\":");
    } else
        b_s(&c->b, "],\"series\":");
    if (js_fold_write(&c->fold, emit_buf, &c->b) != 0)
        abort();
    b_s(&c->b, "}\n");
}

int gen_pout_flush(struct pout *o)
{
    if (!o->in_bundle)
        return 0;
    char name[256];
    bundle_tail(o->c);
    snprintf(name, sizeof name, "%s.%s.b%u.json", o->step, o->node, ++o->bundles);
    o->in_bundle = 0;
    return pout_write(o, name);
}

/* One profile: a file of its own (<step>.<node>.<pid>.json, its slices in it), or the next in
 * the step-node's bundle. */
int gen_pout_add(struct pout *o, const struct proc *pr)
{
    struct buf *b = &o->c->b;
    o->c->s->profiles++;
    if (!o->c->p->bundle) {
        char name[256];
        b->n = 0;
        put_profile(o->c, b, o->j, pr, 0);
        b_c(b, '\n');
        snprintf(name, sizeof name, "%s.%s.%" PRIu64 ".json", o->step, o->node, pr->pid);
        return pout_write(o, name);
    }
    if (!o->in_bundle)
        bundle_head(o->c);
    else if (bundle_version(o->c->p) < 3)
        b_c(b, ',');
    if (bundle_version(o->c->p) >= 3) { /* the profile as the columns' next process */
        o->c->pb.n = 0;
        put_profile(o->c, &o->c->pb, o->j, pr, 1);
        if (js_cols_add(o->c->cols, o->c->pb.p, o->c->pb.n) != 0)
            abort();
        o->c->in_text += o->c->pb.n;
    } else {
        size_t before = b->n;
        put_profile(o->c, b, o->j, pr, 1);
        o->c->in_text += b->n - before;
    }
    fold_rows(o->c, pr);
    /* a bundle holds at most JS_PROFILE_BUNDLE_MAX profiles, and stays far below a profile's byte bound */
    if (++o->in_bundle == JS_PROFILE_BUNDLE_MAX || o->c->in_text > JS_PROFILE_MAX_BYTES / 2)
        return gen_pout_flush(o);
    return 0;
}
