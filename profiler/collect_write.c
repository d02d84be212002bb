/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen-collect: the profile JSON writer (docs/profile-format.md) and the mounts its files
 * are placed in.
 */
#include "config.h"

#include "collect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Undo the octal escapes (\040 etc.) of mountinfo in place. */
static void unescape(char *s)
{
    char *d = s;
    while (*s) {
        if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
            *d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
            s += 4;
        } else {
            *d++ = *s++;
        }
    }
    *d = '\0';
}

size_t parse_mounts(char *buf, struct mount *m, size_t max)
{
    size_t n = 0;
    char *line = buf;
    while (line && *line && n < max) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        /* id parent maj:min root mountpoint options [optional...] - fstype source superopts */
        char *f[6] = {0};
        char *p = line;
        int k = 0;
        while (k < 5 && p) {
            f[k++] = p;
            p = strchr(p, ' ');
            if (p)
                *p++ = '\0';
        }
        char *dash = p ? strstr(p, " - ") : NULL;
        if (p && strncmp(p, "- ", 2) == 0)
            dash = p - 1;
        if (k == 5 && dash) {
            char *fs = dash + 3;
            char *sp = strchr(fs, ' ');
            if (sp)
                *sp = '\0';
            unescape(f[4]);
            m[n].dir = f[4];
            m[n].len = strlen(f[4]);
            m[n].fstype = fs;
            n++;
        }
        line = nl ? nl + 1 : NULL;
    }
    return n;
}

static const struct mount *mount_of(const char *path, const struct mount *m, size_t n)
{
    const struct mount *best = NULL;
    for (size_t i = 0; i < n; i++) {
        size_t l = m[i].len;
        int match = (l == 1 && m[i].dir[0] == '/') ||
                    (strncmp(path, m[i].dir, l) == 0 && (path[l] == '/' || path[l] == '\0'));
        if (match && (best == NULL || l >= best->len)) /* later mounts hide earlier ones */
            best = &m[i];
    }
    return best;
}


static const char *mode_str(int r, int w)
{
    return r && w ? "rw" : r ? "r" : w ? "w" : "none";
}

static const char *const js_layer_names[] = {"posix", "stdio", "mpiio"};


static const char *const kernel_io_names[JS_KIO_COUNT] = {
#define JS_X(id, name, unit, desc) name,
    JS_PROFILE_KERNEL_IO_FIELDS(JS_X)
#undef JS_X
};

static uint64_t tick_ns(const struct rec *r, uint64_t ticks)
{
    return (uint64_t)((double)ticks * r->g->ns_per_tick + 0.5);
}

static int is_time(int m) { return strcmp(js_profile_metrics[m].unit, "ns") == 0 && m != JS_M_CPU_NS; }
/* The runtime share of profile format 4 (common/profile_format.h, JS_PROFILE_RUNTIME_FIELDS): CPU
 * time outside the calls is computation. I/O calls spend system time, up to their own time (the
 * rest they wait: for the disk, a pipe, the network); MPI libraries poll on the CPU. Of what is
 * left of the wall time, the scheduler's run delay is waiting for a CPU, the rest idle. */
struct runtime {
    uint64_t mpi_setup_ns, compute_ns, cpu_wait_ns, idle_ns;
};

static struct runtime runtime_share(const struct rec *r, const uint64_t *t, uint64_t wall)
{
    struct runtime rt;
    rt.mpi_setup_ns = tick_ns(r, r->g->mpi_setup_ticks);
    uint64_t io = t[JS_M_POSIX_NS] + t[JS_M_STDIO_NS] + t[JS_M_MPIIO_NS];
    uint64_t mpi = t[JS_M_MPI_P2P_NS] + t[JS_M_MPI_COLL_NS] + rt.mpi_setup_ns;
    uint64_t cpu = r->cpu_user_ns + r->cpu_sys_ns;
    uint64_t in_calls = (r->cpu_sys_ns < io ? r->cpu_sys_ns : io) + mpi;
    rt.compute_ns = cpu > in_calls ? cpu - in_calls : 0;
    uint64_t used = rt.compute_ns + io + mpi;
    uint64_t rest = wall > used ? wall - used : 0;
    /* of the rest, the time runnable but without a CPU (0 when the kernel's counts are unknown) */
    uint64_t delay = r->kc_known ? r->kc[JS_KC_RUN_DELAY] : 0;
    rt.cpu_wait_ns = delay < rest ? delay : rest;
    rt.idle_ns = rest - rt.cpu_wait_ns;
    return rt;
}

/* inherited over fork and untouched by this image */
static int untouched(const struct js_file *f)
{
    return f->opens == 0 && f->read_calls == 0 && f->write_calls == 0 && f->lower_read_bytes == 0 &&
           f->lower_write_bytes == 0 && f->mapped_bytes == 0;
}

/*
 * The writer follows the lists of common/profile_format.h: each object's members are emitted by
 * iterating its list, and a switch over the list's enum gives each member its value. A member
 * added to a list has no case in its switch: -Wswitch (an error with --enable-werror) names the
 * switch where its value must come from. No switch has a default, so that this holds.
 */
#define JS_NAME5(id, name, type, unit, desc) name,
#define JS_NAME3(id, name, desc) name,

enum profile_member {
#define JS_X(id, name, type, unit, desc) PM_##id,
    JS_PROFILE_FIELDS(JS_X)
#undef JS_X
};
static const char *const profile_member_names[] = { JS_PROFILE_FIELDS(JS_NAME5) };

enum runtime_member {
#define JS_X(id, name, desc) RM_##id,
    JS_PROFILE_RUNTIME_FIELDS(JS_X)
#undef JS_X
};
static const char *const runtime_member_names[] = { JS_PROFILE_RUNTIME_FIELDS(JS_NAME3) };

enum file_member {
#define JS_X(id, name, type, unit, desc) FM_##id,
    JS_PROFILE_FILE_FIELDS(JS_X)
#undef JS_X
};
static const char *const file_member_names[] = { JS_PROFILE_FILE_FIELDS(JS_NAME5) };

enum tree_member {
#define JS_X(id, name, type, unit, desc) TM_##id,
    JS_PROFILE_TREE_FIELDS(JS_X)
#undef JS_X
};
static const char *const tree_member_names[] = { JS_PROFILE_TREE_FIELDS(JS_NAME5) };

enum rename_member {
#define JS_X(id, name, type, unit, desc) NM_##id,
    JS_PROFILE_RENAME_FIELDS(JS_X)
#undef JS_X
};
static const char *const rename_member_names[] = { JS_PROFILE_RENAME_FIELDS(JS_NAME5) };

enum segment_member {
#define JS_X(id, name, type, unit, desc) SM_##id,
    JS_PROFILE_SEGMENT_FIELDS(JS_X)
#undef JS_X
};
static const char *const segment_member_names[] = { JS_PROFILE_SEGMENT_FIELDS(JS_NAME5) };

enum segment_group_member {
#define JS_X(id, name, type, unit, desc) SG_##id,
    JS_PROFILE_SEGMENT_GROUP_FIELDS(JS_X)
#undef JS_X
};
static const char *const segment_group_member_names[] = { JS_PROFILE_SEGMENT_GROUP_FIELDS(JS_NAME5) };

enum segment_slow_member {
#define JS_X(id, name, type, unit, desc) SS_##id,
    JS_PROFILE_SEGMENT_SLOW_FIELDS(JS_X)
#undef JS_X
};
static const char *const segment_slow_member_names[] = { JS_PROFILE_SEGMENT_SLOW_FIELDS(JS_NAME5) };

#define JS_COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* What the members of one profile are made of: its record, and what write_profile derived. */
struct profile_values {
    struct js_out *o;
    const struct rec *r;
    const uint64_t *t;         /* JS_M_COUNT totals, times converted to ns */
    uint64_t wall;
    struct runtime rt;
    const struct mount *mounts;
    size_t nm;
};

/* Opens an object or array member: "," between members. */
static void member_key(struct js_out *o, const char *name, int index)
{
    if (index)
        comma(o);
    js_out_key(o, name);
}

static void write_file(const struct profile_values *v, const struct js_file *f)
{
    struct js_out *o = v->o;
    const char *path = f->resolved ? f->resolved : f->path;
    const struct mount *m = mount_of(path, v->mounts, v->nm);
    js_out_raw(o, "{", 1);
    for (size_t i = 0; i < JS_COUNT_OF(file_member_names); i++) {
        member_key(o, file_member_names[i], (int)i);
        switch ((enum file_member)i) {
        case FM_PATH: js_out_str(o, path, JS_PROFILE_MAX_PATH); break;
        case FM_OPENED_AS: js_out_str(o, f->resolved ? f->path : "", JS_PROFILE_MAX_PATH); break;
        case FM_LAYER: js_out_str(o, js_layer_names[f->layer], 16); break;
        case FM_DEV: js_out_u64(o, f->dev); break;
        case FM_INO: js_out_u64(o, f->ino); break;
        case FM_BTIME: js_out_u64(o, f->btime); break;
        case FM_MOUNT: js_out_str(o, m ? m->dir : "", JS_PROFILE_MAX_PATH); break;
        case FM_FSTYPE: js_out_str(o, m ? m->fstype : "", 256); break;
        case FM_OPEN_MODE: js_out_str(o, mode_str(f->open_mode & JS_MODE_R, f->open_mode & JS_MODE_W), 4); break;
        case FM_USED_MODE:
            js_out_str(o, mode_str(f->read_calls || f->lower_read_bytes, f->write_calls || f->lower_write_bytes), 4);
            break;
        case FM_OPENS: js_out_u64(o, f->opens); break;
        case FM_READ_CALLS: js_out_u64(o, f->read_calls); break;
        case FM_READ_BYTES: js_out_u64(o, f->read_bytes); break;
        case FM_WRITE_CALLS: js_out_u64(o, f->write_calls); break;
        case FM_WRITE_BYTES: js_out_u64(o, f->write_bytes); break;
        case FM_LOWER_READ_BYTES: js_out_u64(o, f->lower_read_bytes); break;
        case FM_LOWER_WRITE_BYTES: js_out_u64(o, f->lower_write_bytes); break;
        case FM_MAPPED_BYTES: js_out_u64(o, f->mapped_bytes); break;
        case FM_FIRST_OPEN_NS: js_out_u64(o, f->first_open_ns); break;
        case FM_LAST_CLOSE_NS: /* still open at the end: the end */
            js_out_u64(o, (f->open_count > 0 || f->last_close_ns == 0) ? v->r->end_ns : f->last_close_ns);
            break;
        }
    }
    js_out_raw(o, "}", 1);
}

static void write_tree(struct js_out *o, const struct js_file *f)
{
    js_out_raw(o, "{", 1);
    for (size_t i = 0; i < JS_COUNT_OF(tree_member_names); i++) {
        member_key(o, tree_member_names[i], (int)i);
        switch ((enum tree_member)i) {
        case TM_PATH: js_out_str(o, f->path, JS_PROFILE_MAX_PATH); break;
        case TM_OPENS: js_out_u64(o, f->opens); break;
        case TM_READ_BYTES: js_out_u64(o, f->read_bytes); break;
        case TM_WRITE_BYTES: js_out_u64(o, f->write_bytes); break;
        }
    }
    js_out_raw(o, "}", 1);
}

static void write_rename(const struct profile_values *v, const struct js_rename *rn)
{
    struct js_out *o = v->o;
    const struct mount *m = mount_of(rn->to, v->mounts, v->nm);
    js_out_raw(o, "{", 1);
    for (size_t i = 0; i < JS_COUNT_OF(rename_member_names); i++) {
        member_key(o, rename_member_names[i], (int)i);
        switch ((enum rename_member)i) {
        case NM_FROM: js_out_str(o, rn->from, JS_PROFILE_MAX_PATH); break;
        case NM_TO: js_out_str(o, rn->to, JS_PROFILE_MAX_PATH); break;
        case NM_FSTYPE: js_out_str(o, m ? m->fstype : "", 256); break;
        case NM_NS: js_out_u64(o, rn->ns); break;
        }
    }
    js_out_raw(o, "}", 1);
}

static void write_runtime(const struct profile_values *v)
{
    struct js_out *o = v->o;
    js_out_raw(o, "{", 1);
    for (size_t i = 0; i < JS_COUNT_OF(runtime_member_names); i++) {
        member_key(o, runtime_member_names[i], (int)i);
        switch ((enum runtime_member)i) {
        case RM_IO_POSIX_NS: js_out_u64(o, v->t[JS_M_POSIX_NS]); break;
        case RM_IO_STDIO_NS: js_out_u64(o, v->t[JS_M_STDIO_NS]); break;
        case RM_IO_MPIIO_NS: js_out_u64(o, v->t[JS_M_MPIIO_NS]); break;
        case RM_MPI_P2P_NS: js_out_u64(o, v->t[JS_M_MPI_P2P_NS]); break;
        case RM_MPI_COLL_NS: js_out_u64(o, v->t[JS_M_MPI_COLL_NS]); break;
        case RM_MPI_SETUP_NS: js_out_u64(o, v->rt.mpi_setup_ns); break;
        case RM_COMPUTE_NS: js_out_u64(o, v->rt.compute_ns); break;
        case RM_CPU_WAIT_NS: js_out_u64(o, v->rt.cpu_wait_ns); break;
        case RM_IDLE_NS: js_out_u64(o, v->rt.idle_ns); break;
        }
    }
    js_out_raw(o, "}", 1);
}

/* The MPI segments of a record (profile.h, struct js_seg_store): the groups that are whole
 * (READY, a known kind), numbered in slot order, and the slowest segments, slowest first. A
 * process killed in the middle of an update may leave a group's count a segment ahead of or
 * behind its bins: the count written is the bins' sum, which the reader checks. */
struct seg_view {
    const struct js_seg_store *s;
    int index[JS_SEG_MAX_GROUPS];   /* slot -> index in "groups", -1 when not written */
    uint64_t count[JS_SEG_MAX_GROUPS];
    int ngroups;
    struct js_seg_slow slow[JS_SEG_SLOWEST];
    unsigned nslow;
};

static const uint32_t *seg_hist(const struct rec *r, int slot)
{
    return (const uint32_t *)(const void *)(r->m + r->g->off_segs + JS_REC_CHUNK * (size_t)(slot + 1));
}

static int cmp_slow(const void *a, const void *b)
{
    const struct js_seg_slow *x = a, *y = b;
    return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

/* 0 when the image recorded no segments (not an MPI process, or no room): "mpi_segments" is {} */
static int seg_view_of(const struct rec *r, struct seg_view *sv)
{
    const struct js_seg_store *s = (const struct js_seg_store *)(const void *)(r->m + r->g->off_segs);
    memset(sv, 0, sizeof *sv);
    if (r->g->mpi_rank < 0 || s->init_end_ns == 0)
        return 0;
    sv->s = s;
    for (int k = 0; k < JS_SEG_MAX_GROUPS; k++) {
        const struct js_seg_group *g = &s->groups[k];
        sv->index[k] = -1;
        if (g->state != JS_SEG_READY || g->kind < 0 || g->kind >= JS_COLL_COUNT)
            continue;
        const uint32_t *h = seg_hist(r, k);
        for (int b = 0; b < JS_SEG_BINS; b++)
            sv->count[k] += h[b];
        if (sv->count[k] == 0)
            continue;
        sv->index[k] = sv->ngroups++;
    }
    for (unsigned i = 0; i < s->nslow && i < JS_SEG_SLOWEST; i++) {
        struct js_seg_slow e = s->slow[i];
        if (e.group >= JS_SEG_MAX_GROUPS)
            continue;
        e.group = e.group >= 0 ? sv->index[e.group] : -1;
        sv->slow[sv->nslow++] = e;
    }
    qsort(sv->slow, sv->nslow, sizeof sv->slow[0], cmp_slow);
    return 1;
}

static void write_segment_group(struct js_out *o, const struct rec *r, const struct seg_view *sv, int k)
{
    const struct js_seg_group *g = &sv->s->groups[k];
    js_out_raw(o, "{", 1);
    for (size_t i = 0; i < JS_COUNT_OF(segment_group_member_names); i++) {
        member_key(o, segment_group_member_names[i], (int)i);
        switch ((enum segment_group_member)i) {
        case SG_SIGNATURE: {
            char hex[17];
            snprintf(hex, sizeof hex, "%016llx", (unsigned long long)g->sig);
            js_out_str(o, hex, sizeof hex);
            break;
        }
        case SG_BOUNDARY: js_out_str(o, js_profile_coll_kinds[g->kind], 64); break;
        case SG_COUNT: js_out_u64(o, sv->count[k]); break;
        case SG_SUM_NS: js_out_u64(o, g->sum_ns); break;
        case SG_MIN_NS: js_out_u64(o, g->min_ns == UINT64_MAX ? 0 : g->min_ns); break;
        case SG_MAX_NS: js_out_u64(o, g->max_ns); break;
        case SG_BINS: {
            const uint32_t *h = seg_hist(r, k);
            int first = 1;
            js_out_raw(o, "[", 1);
            for (int b = 0; b < JS_SEG_BINS; b++) {
                if (h[b] == 0)
                    continue;
                if (!first)
                    comma(o);
                first = 0;
                js_out_raw(o, "[", 1);
                js_out_u64(o, (uint64_t)b);
                comma(o);
                js_out_u64(o, h[b]);
                js_out_raw(o, "]", 1);
            }
            js_out_raw(o, "]", 1);
            break;
        }
        }
    }
    js_out_raw(o, "}", 1);
}

static void write_segment_slow(struct js_out *o, const struct js_seg_slow *e)
{
    js_out_raw(o, "{", 1);
    for (size_t i = 0; i < JS_COUNT_OF(segment_slow_member_names); i++) {
        member_key(o, segment_slow_member_names[i], (int)i);
        switch ((enum segment_slow_member)i) {
        case SS_END_NS: js_out_u64(o, e->end_ns); break;
        case SS_NS: js_out_u64(o, e->ns); break;
        case SS_GROUP: js_out_i64(o, e->group); break;
        }
    }
    js_out_raw(o, "}", 1);
}

static void write_segments(struct js_out *o, const struct rec *r)
{
    static struct seg_view sv; /* 1.6 KiB: the collector is single-threaded */
    int any = seg_view_of(r, &sv);
    js_out_raw(o, "{", 1);
    for (size_t i = 0; any && i < JS_COUNT_OF(segment_member_names); i++) {
        member_key(o, segment_member_names[i], (int)i);
        switch ((enum segment_member)i) {
        case SM_BOUNDARIES: js_out_u64(o, sv.s->boundaries); break;
        case SM_UNGROUPED: js_out_u64(o, sv.s->ungrouped); break;
        case SM_UNGROUPED_NS: js_out_u64(o, sv.s->ungrouped_ns); break;
        case SM_BIN_MIN_NS: js_out_u64(o, JS_SEG_BIN_MIN_NS); break;
        case SM_BIN_COUNT: js_out_u64(o, JS_SEG_BINS); break;
        case SM_DECADES: js_out_u64(o, JS_SEG_DECADES); break;
        case SM_GROUPS:
            js_out_raw(o, "[", 1);
            for (int k = 0, n = 0; k < JS_SEG_MAX_GROUPS; k++) {
                if (sv.index[k] < 0)
                    continue;
                if (n++)
                    comma(o);
                write_segment_group(o, r, &sv, k);
            }
            js_out_raw(o, "]", 1);
            break;
        case SM_SLOWEST:
            js_out_raw(o, "[", 1);
            for (unsigned k = 0; k < sv.nslow; k++) {
                if (k)
                    comma(o);
                write_segment_slow(o, &sv.slow[k]);
            }
            js_out_raw(o, "]", 1);
            break;
        }
    }
    js_out_raw(o, "}", 1);
}

/* "kernel_io": empty when unknown */
static void write_kernel_io(struct js_out *o, const struct rec *r)
{
    js_out_raw(o, "{", 1);
    for (int k = 0; k < JS_KIO_COUNT && r->kc_known; k++) {
        member_key(o, kernel_io_names[k], k);
        js_out_u64(o, r->kc[k]);
    }
    js_out_raw(o, "}", 1);
}

static void write_totals(struct js_out *o, const uint64_t *t)
{
    js_out_raw(o, "{", 1);
    for (int m = 0; m < JS_M_COUNT; m++) {
        member_key(o, js_profile_metrics[m].name, m);
        js_out_u64(o, t[m]);
    }
    js_out_raw(o, "}", 1);
}

/* "mpi_collectives": only the kinds used */
static void write_collectives(struct js_out *o, const struct rec *r)
{
    const struct js_global *g = r->g;
    int first = 1;
    js_out_raw(o, "{", 1);
    for (int k = 0; k < JS_COLL_COUNT; k++) {
        if (g->coll[k][0] == 0)
            continue;
        member_key(o, js_profile_coll_kinds[k], !first);
        first = 0;
        js_out_raw(o, "{", 1);
        js_out_key(o, "calls");
        js_out_u64(o, g->coll[k][0]);
        kv_u(o, "bytes", g->coll[k][1]);
        kv_u(o, "ns", tick_ns(r, g->coll[k][2]));
        js_out_raw(o, "}", 1);
    }
    js_out_raw(o, "}", 1);
}

static void write_slice_metrics(struct js_out *o)
{
    js_out_raw(o, "[", 1);
    for (int m = 0; m < JS_SLICE_COLS; m++) {
        if (m)
            comma(o);
        js_out_str(o, js_profile_slice_cols[m].name, 64);
    }
    js_out_raw(o, "]", 1);
}

static void write_slices(struct js_out *o, const struct rec *r)
{
    struct js_slices_iter it;
    int64_t s;
    uint64_t vec[JS_SLICE_COLS];
    int first = 1;
    js_out_raw(o, "[", 1);
    js_slices_iter_init(&it, &r->g->slices);
    while (js_slices_next(&it, &s, vec)) {
        if (!first)
            comma(o);
        first = 0;
        js_out_raw(o, "[", 1);
        js_out_i64(o, s);
        for (int m = 0; m < JS_SLICE_COLS; m++) {
            comma(o);
            js_out_u64(o, m < JS_M_COUNT && is_time(m) ? tick_ns(r, vec[m]) : vec[m]);
        }
        js_out_raw(o, "]", 1);
    }
    js_out_raw(o, "]", 1);
}

/* "files" or "trees" (trees): one list of the process's files, the software trees apart */
static void write_files(const struct profile_values *v, int trees)
{
    struct js_out *o = v->o;
    const struct rec *r = v->r;
    int first = 1;
    js_out_raw(o, "[", 1);
    for (unsigned i = 0; i < r->g->nfiles; i++) {
        const struct js_file *f = &r->files[i];
        if (f->path == NULL || (f->layer == JS_LAYER_TREE) != trees || untouched(f))
            continue;
        if (!first)
            comma(o);
        first = 0;
        if (trees)
            write_tree(o, f);
        else
            write_file(v, f);
    }
    js_out_raw(o, "]", 1);
}

static void write_renames(const struct profile_values *v)
{
    const struct js_global *g = v->r->g;
    int first = 1;
    js_out_raw(v->o, "[", 1);
    for (unsigned i = 0; i < g->nrenames; i++) {
        const struct js_rename *rn = &g->renames[i];
        if (rn->from == NULL || rn->to == NULL)
            continue;
        if (!first)
            comma(v->o);
        first = 0;
        write_rename(v, rn);
    }
    js_out_raw(v->o, "]", 1);
}

/* The value of one top-level member. */
static void write_member(const struct profile_values *v, enum profile_member id)
{
    struct js_out *o = v->o;
    const struct rec *r = v->r;
    const struct js_global *g = r->g;
    switch (id) {
    case PM_FORMAT: js_out_str(o, JS_PROFILE_FORMAT_NAME, 64); break;
    case PM_VERSION: js_out_u64(o, JS_PROFILE_VERSION); break;
    case PM_CLUSTER: js_out_str(o, g->cluster, sizeof g->cluster); break;
    case PM_JOB_ID: js_out_u64(o, g->job_id); break;
    case PM_STEP: js_out_str(o, g->step, sizeof g->step); break;
    case PM_NODE: js_out_str(o, g->node, sizeof g->node); break;
    case PM_TASK_ID: js_out_i64(o, g->task_id); break;
    case PM_HOSTNAME: js_out_str(o, g->hostname, sizeof g->hostname); break;
    case PM_PID: js_out_u64(o, (uint64_t)(uint32_t)g->pid); break;
    case PM_PPID: js_out_u64(o, (uint64_t)(uint32_t)g->ppid); break;
    case PM_UID: js_out_u64(o, g->uid); break;
    case PM_ORIGIN: js_out_str(o, g->origin, sizeof g->origin); break;
    case PM_END: js_out_str(o, r->end, sizeof r->end); break;
    case PM_EXIT_CODE: js_out_i64(o, r->exit_code); break;
    case PM_SIGNAL: js_out_i64(o, r->signal); break;
    case PM_EXE: js_out_str(o, g->exe, sizeof g->exe); break;
    case PM_ARGS: js_out_str(o, g->args, sizeof g->args); break;
    case PM_SLICE_SECONDS: js_out_u64(o, (uint64_t)g->slice_seconds); break;
    case PM_START_NS: js_out_u64(o, g->start_ns); break;
    case PM_END_NS: js_out_u64(o, r->end_ns); break;
    case PM_MPI_RANK: js_out_i64(o, g->mpi_rank); break;
    case PM_MPI_SIZE: js_out_i64(o, g->mpi_size); break;
    case PM_THREADS_PEAK: js_out_u64(o, g->threads_peak); break;
    case PM_THREADS_SEEN: js_out_u64(o, g->threads_seen); break;
    case PM_WALL_NS: js_out_u64(o, v->wall); break;
    case PM_CPU_USER_NS: js_out_u64(o, r->cpu_user_ns); break;
    case PM_CPU_SYS_NS: js_out_u64(o, r->cpu_sys_ns); break;
    case PM_MAX_RSS_KIB: js_out_u64(o, r->max_rss_kib); break;
    case PM_KERNEL_IO: write_kernel_io(o, r); break;
    case PM_RUNTIME: write_runtime(v); break;
    case PM_TOTALS: write_totals(o, v->t); break;
    case PM_MPI_COLLECTIVES: write_collectives(o, r); break;
    case PM_MPI_SEGMENTS: write_segments(o, r); break;
    case PM_SLICE_METRICS: write_slice_metrics(o); break;
    case PM_SLICES: write_slices(o, r); break;
    case PM_SLICES_TRUNCATED: js_out_lit(o, g->slices.truncated ? "true" : "false"); break;
    case PM_FILES: write_files(v, 0); break;
    case PM_TREES: write_files(v, 1); break;
    case PM_FILES_DROPPED: js_out_u64(o, g->files_dropped); break;
    case PM_CODE_DROPPED: js_out_u64(o, g->code_dropped); break;
    case PM_SYNC_CALLS: js_out_u64(o, g->sync_calls); break;
    case PM_SYNC_NS: js_out_u64(o, tick_ns(r, g->sync_ticks)); break;
    case PM_RENAMES: write_renames(v); break;
    case PM_RENAMES_DROPPED: js_out_u64(o, g->renames_dropped); break;
    case PM_MISSING: js_out_str(o, r->missing, sizeof r->missing); break;
    }
}

/* A profile; in a bundle (bundled) without its slices, which the bundle's series sums. */
void write_profile(struct js_out *o, struct rec *r, const struct mount *mounts, size_t nm, int bundled)
{
    const struct js_global *g = r->g;
    /* slices first (their time values converted), so that the totals of times are their sum */
    uint64_t slice_ticks[JS_M_COUNT] = {0}, slice_ns[JS_M_COUNT] = {0};
    struct js_slices_iter it;
    int64_t s;
    uint64_t vec[JS_SLICE_COLS];
    js_slices_iter_init(&it, &g->slices);
    while (js_slices_next(&it, &s, vec))
        for (int m = 0; m < JS_M_COUNT; m++)
            if (is_time(m)) {
                slice_ticks[m] += vec[m];
                slice_ns[m] += tick_ns(r, vec[m]);
            }
    uint64_t t[JS_M_COUNT];
    for (int m = 0; m < JS_M_COUNT; m++)
        t[m] = is_time(m) ? slice_ns[m] + tick_ns(r, r->totals[m] > slice_ticks[m] ? r->totals[m] - slice_ticks[m] : 0)
                          : r->totals[m];
    struct profile_values v = { o, r, t, r->end_ns > g->start_ns ? r->end_ns - g->start_ns : 0, {0, 0, 0, 0}, mounts, nm };
    v.rt = runtime_share(r, t, v.wall);

    js_out_raw(o, "{", 1);
    for (size_t i = 0, k = 0; i < JS_COUNT_OF(profile_member_names); i++) {
        if (bundled && !js_profile_member_bundled(profile_member_names[i]))
            continue; /* the slices: summed into the bundle's series (fold_rows) */
        member_key(o, profile_member_names[i], (int)k++);
        write_member(&v, (enum profile_member)i);
    }
    js_out_raw(o, "}\n", 2);
}

/* The image's slice rows into the bundle's fold (times converted as the totals are). The fold
 * only fails out of memory: the bundle then says so (fold_failed) and is not published. */
int fold_rows(struct js_fold *f, const struct rec *r)
{
    struct js_slices_iter it;
    int64_t s, row[JS_SLICE_COLS];
    uint64_t vec[JS_SLICE_COLS];
    js_slices_iter_init(&it, &r->g->slices);
    while (js_slices_next(&it, &s, vec)) {
        for (int m = 0; m < JS_SLICE_COLS; m++) {
            uint64_t x = m < JS_M_COUNT && is_time(m) ? tick_ns(r, vec[m]) : vec[m];
            row[m] = x > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)x;
        }
        if (js_fold_add_row(f, s, row, (int64_t)(uint32_t)r->g->pid) != 0)
            return -1;
    }
    return 0;
}

