/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen-collect: turns the records that profiled processes left in a profile directory
 * (profile.h) into profiles (docs/profile-format.md), in bundles per step and node, and
 * removes each record it turned. Run as the job's user: by the plugin while a step runs and at
 * its end (spank/slurmstepd.c), by hand, or by the tests after a step. Nothing here trusts a
 * record more than its owner would: every offset and count is checked against the layout
 * before it is used. Design: docs/profiler.md, "Collection".
 *
 *   jobscreen-collect --watch DIR STEP NODE      while the step runs (bundles, live snapshot, pool)
 *   jobscreen-collect --final [--seen-ns NS] [--status PID=WAITSTATUS]... DIR STEP NODE
 *   jobscreen-collect [--final] --each DIR [STEP NODE]   one profile file per record
 *
 * Without --final only the records of images that ended (or were reaped) are turned; with it
 * (step end: every process of the step is gone) all of them, those nobody saw end as "unknown".
 * --status gives the wait status of a process seen from outside (slurmstepd, for its tasks),
 * --seen-ns when (wall clock, ns) they had ended.
 */
#include "config.h"

#include "js.h"
#include "bundle_cols.h"
#include "bundle_series.h"
#include "jsonw.h"
#include "profile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define JS_MOUNTINFO_BYTES (1u << 20)
#define JS_MAX_MOUNTS 8192

static const char *prog = "jobscreen-collect";

struct mount {
    const char *dir, *fstype;
    size_t len;
};

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

static size_t parse_mounts(char *buf, struct mount *m, size_t max)
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

static void comma(struct js_out *o) { js_out_raw(o, ",", 1); }

static void kv_u(struct js_out *o, const char *k, uint64_t v)
{
    comma(o);
    js_out_key(o, k);
    js_out_u64(o, v);
}

static void kv_s(struct js_out *o, const char *k, const char *v, size_t max)
{
    comma(o);
    js_out_key(o, k);
    js_out_str(o, v, max);
}

static const char *mode_str(int r, int w)
{
    return r && w ? "rw" : r ? "r" : w ? "w" : "none";
}

static const char *const js_layer_names[] = {"posix", "stdio", "mpiio"};

/* One record, mapped privately (we fold into our copy) and checked. */
struct rec {
    const char *name;
    unsigned char *m;
    size_t size;
    struct js_global *g;
    struct js_thread *threads;
    struct js_file *files;
    uint64_t totals[JS_M_COUNT]; /* ticks for the time metrics until converted */
    char end[16];
    int exit_code, signal;
    uint64_t end_ns, cpu_user_ns, cpu_sys_ns, max_rss_kib; /* of this image */
    uint64_t kc[JS_KC_COUNT];                            /* the kernel's counts of this image (kernel_io, run delay) */
    int kc_known;                                        /* kc is set */
    char missing[512];
};

static const char *const kernel_io_names[JS_KIO_COUNT] = {
#define JS_X(id, name, unit, desc) name,
    JS_PROFILE_KERNEL_IO_FIELDS(JS_X)
#undef JS_X
};

static void add_missing(struct rec *r, const char *what)
{
    size_t n = strlen(r->missing);
    snprintf(r->missing + n, sizeof r->missing - n, "%s%s", n ? "; " : "", what);
}

static int bad(const char *name, const char *why)
{
    fprintf(stderr, "%s: %s: %s; the record is kept\n", prog, name, why);
    return -1;
}

/* A string the writer put in the path arena, as a pointer into our mapping; NULL when it
 * points anywhere else or runs past what was used. */
static const char *in_paths(const struct rec *r, const char *writer_ptr)
{
    const struct js_global *g = r->g;
    uint64_t p = (uint64_t)(uintptr_t)writer_ptr - g->base;
    if ((uint64_t)(uintptr_t)writer_ptr < g->base || p < g->off_paths || p >= g->off_paths + g->paths_used ||
        memchr(r->m + p, '\0', g->off_paths + g->paths_used - p) == NULL)
        return NULL;
    return (const char *)(r->m + p);
}

/* Check a mapped record against the layout this program was built with. */
static int check(struct rec *r)
{
    struct js_global *g = r->g;
    if (r->size < JS_REC_HEADER_BYTES || memcmp(g->magic, JS_REC_MAGIC, sizeof g->magic) != 0)
        return bad(r->name, "not a record of this version (magic)");
    if (g->header_bytes != sizeof *g)
        return bad(r->name, "record header of another size");
    uint64_t threads_end = g->off_threads + sizeof(struct js_thread) * JS_MAX_THREADS;
    uint64_t files_end = g->off_files + sizeof(struct js_file) * JS_PROFILE_MAX_FILES;
    if (g->off_threads != JS_REC_HEADER_BYTES || g->off_files < threads_end || g->off_paths < files_end ||
        g->off_slices < g->off_paths + JS_REC_PATH_BYTES || g->off_segs < g->off_slices + JS_PROFILE_SLICE_BUDGET ||
        g->off_segs + JS_REC_SEG_BYTES > r->size)
        return bad(r->name, "regions outside the file");
    if (g->threads_used > JS_MAX_THREADS)
        g->threads_used = JS_MAX_THREADS; /* blocks handed out past the pool were never used */
    if (g->nfiles > JS_PROFILE_MAX_FILES || g->paths_used > JS_REC_PATH_BYTES)
        return bad(r->name, "file list larger than its region");
    if (g->slices.cap != JS_PROFILE_SLICE_BUDGET || g->slices.len > g->slices.cap)
        return bad(r->name, "slice storage larger than its region");
    if (g->slice_seconds <= 0 || g->slice_seconds > 86400)
        return bad(r->name, "slice length out of range");
    if (!(g->ns_per_tick > 0 && g->ns_per_tick < 1e6))
        g->ns_per_tick = 1.0;
    g->cluster[sizeof g->cluster - 1] = g->step[sizeof g->step - 1] = g->node[sizeof g->node - 1] = '\0';
    g->hostname[sizeof g->hostname - 1] = g->exe[sizeof g->exe - 1] = g->args[sizeof g->args - 1] = '\0';
    g->origin[sizeof g->origin - 1] = g->end[sizeof g->end - 1] = '\0';
    r->threads = (struct js_thread *)(void *)(r->m + g->off_threads);
    r->files = (struct js_file *)(void *)(r->m + g->off_files);
    /* pointers are the writer's: into our mapping, or the entry is dropped */
    g->slices.buf = r->m + g->off_slices;
    for (unsigned i = 0; i < g->nfiles; i++) {
        struct js_file *f = &r->files[i];
        f->path = f->layer <= JS_LAYER_TREE ? in_paths(r, f->path) : NULL;
        f->resolved = f->resolved ? in_paths(r, f->resolved) : NULL;
    }
    if (g->nrenames > JS_PROFILE_MAX_RENAMES)
        g->nrenames = JS_PROFILE_MAX_RENAMES;
    for (unsigned i = 0; i < g->nrenames; i++) {
        g->renames[i].from = in_paths(r, g->renames[i].from);
        g->renames[i].to = in_paths(r, g->renames[i].to);
    }
    return 0;
}

static uint64_t tick_ns(const struct rec *r, uint64_t ticks)
{
    return (uint64_t)((double)ticks * r->g->ns_per_tick + 0.5);
}

static int is_time(int m) { return strcmp(js_profile_metrics[m].unit, "ns") == 0 && m != JS_M_CPU_NS; }

/* Totals are the blocks' counters; what no fold has put in a slice goes to the slice the
 * process was in (its calls there close no slice before they count: docs/profiler.md). */
static void fold_rest(struct rec *r, uint64_t cpu_total)
{
    struct js_global *g = r->g;
    uint64_t rest[JS_SLICE_COLS] = {0};
    int any = 0;
    for (uint32_t b = 0; b < g->threads_used; b++)
        for (int m = 0; m < JS_M_COUNT; m++) {
            uint64_t v = r->threads[b].v[m], s = r->threads[b].snap[m];
            r->totals[m] += v;
            if (v > s) {
                rest[m] += v - s;
                any = 1;
            }
        }
    if (cpu_total > g->cpu_folded_ns) {
        rest[JS_M_CPU_NS] = cpu_total - g->cpu_folded_ns;
        any = 1;
    }
    r->totals[JS_M_CPU_NS] = cpu_total > g->cpu_folded_ns ? cpu_total : g->cpu_folded_ns;
    /* the kernel's counts its end read after the last fold */
    for (int k = 0; k < JS_KIO_COUNT && g->kc_known == 2; k++)
        if (g->kc_end[k] > g->kc_sliced[k]) {
            rest[JS_M_COUNT + k] = g->kc_end[k] - g->kc_sliced[k];
            any = 1;
        }
    if (any && !g->slices.truncated)
        js_slices_append(&g->slices, g->cur_slice, rest);
}

/* The kernel's counts of the image (kernel_io, the run delay), as its last fold or its end read
 * them: 1, or 0 when unknown. */
static int kernel_io_of(struct rec *r)
{
    const struct js_global *g = r->g;
    if (g->kc_known != 2)
        return r->kc_known = 0;
    r->kc_known = 1;
    for (int k = 0; k < JS_KC_COUNT; k++)
        r->kc[k] = g->kc_end[k] > g->kc_start[k] ? g->kc_end[k] - g->kc_start[k] : 0;
    return 1;
}

/* How the image ended, from its own word and what its parent or slurmstepd saw. */
static void decide_end(struct rec *r, int final)
{
    struct js_global *g = r->g;
    struct js_reaped *x = &g->reaped;
    int ended = g->state == JS_REC_ENDED;
    int from_rusage = 1; /* CPU times of the whole process's life (getrusage, wait4) */
    snprintf(r->end, sizeof r->end, "%s", ended ? g->end : "unknown");
    r->exit_code = ended ? g->exit_code : -1;
    r->signal = 0;
    r->end_ns = ended ? g->end_ns : 0;
    r->cpu_user_ns = g->cpu_user_ns;
    r->cpu_sys_ns = g->cpu_sys_ns;
    r->max_rss_kib = g->max_rss_kib;
    if (x->seen && WIFSIGNALED(x->status)) {
        snprintf(r->end, sizeof r->end, "signal");
        r->signal = WTERMSIG(x->status);
        r->exit_code = -1;
    } else if (x->seen && WIFEXITED(x->status) && strcmp(r->end, "exec") != 0) {
        if (!ended)
            snprintf(r->end, sizeof r->end, "exit");
        r->exit_code = WEXITSTATUS(x->status);
    }
    if (!ended) {
        r->end_ns = x->seen ? x->ns : (g->last_fold_ns > g->start_ns ? g->last_fold_ns : g->start_ns);
        if (x->seen && (x->utime_ns || x->stime_ns)) {
            r->cpu_user_ns = x->utime_ns;
            r->cpu_sys_ns = x->stime_ns;
            r->max_rss_kib = x->maxrss_kib;
        } else {
            char what[160];
            time_t t = (time_t)(g->last_fold_ns / 1000000000ULL);
            struct tm tm;
            gmtime_r(&t, &tm);
            strftime(what, sizeof what, "CPU time after %Y-%m-%dT%H:%M:%SZ and peak memory (nobody saw its resource use)", &tm);
            add_missing(r, what);
            r->cpu_user_ns = g->cpu_folded_ns;
            r->cpu_sys_ns = 0;
            r->max_rss_kib = 0;
            from_rusage = 0;
        }
        if (!x->seen)
            add_missing(r, final ? "how it ended (nobody reaped it in the step)" : "how it ended");
    }
    /* getrusage and wait4 count the process's whole life: an exec'd image's predecessors are not its own */
    if (from_rusage) {
        r->cpu_user_ns = r->cpu_user_ns > g->cpu_user_start_ns ? r->cpu_user_ns - g->cpu_user_start_ns : 0;
        r->cpu_sys_ns = r->cpu_sys_ns > g->cpu_sys_start_ns ? r->cpu_sys_ns - g->cpu_sys_start_ns : 0;
    }
    /* unknown when it was killed before its first fold: "kernel_io" is empty then (the wrappers'
     * counts, the record, are whole; the kernel's are a cross-check) */
    kernel_io_of(r);
}

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

/* The value of one top-level member. */
static void write_member(const struct profile_values *v, enum profile_member id)
{
    struct js_out *o = v->o;
    const struct rec *r = v->r;
    const struct js_global *g = r->g;
    int first = 1;
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
    case PM_KERNEL_IO: /* empty when unknown */
        js_out_raw(o, "{", 1);
        for (int k = 0; k < JS_KIO_COUNT && r->kc_known; k++) {
            member_key(o, kernel_io_names[k], k);
            js_out_u64(o, r->kc[k]);
        }
        js_out_raw(o, "}", 1);
        break;
    case PM_RUNTIME: write_runtime(v); break;
    case PM_TOTALS:
        js_out_raw(o, "{", 1);
        for (int m = 0; m < JS_M_COUNT; m++) {
            member_key(o, js_profile_metrics[m].name, m);
            js_out_u64(o, v->t[m]);
        }
        js_out_raw(o, "}", 1);
        break;
    case PM_MPI_COLLECTIVES: /* only the kinds used */
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
        break;
    case PM_MPI_SEGMENTS: write_segments(o, r); break;
    case PM_SLICE_METRICS:
        js_out_raw(o, "[", 1);
        for (int m = 0; m < JS_SLICE_COLS; m++) {
            if (m)
                comma(o);
            js_out_str(o, js_profile_slice_cols[m].name, 64);
        }
        js_out_raw(o, "]", 1);
        break;
    case PM_SLICES: {
        struct js_slices_iter it;
        int64_t s;
        uint64_t vec[JS_SLICE_COLS];
        js_out_raw(o, "[", 1);
        js_slices_iter_init(&it, &g->slices);
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
        break;
    }
    case PM_SLICES_TRUNCATED: js_out_lit(o, g->slices.truncated ? "true" : "false"); break;
    case PM_FILES:
    case PM_TREES: /* one list of the process's files: the software trees apart */
        js_out_raw(o, "[", 1);
        for (unsigned i = 0; i < g->nfiles; i++) {
            const struct js_file *f = &r->files[i];
            if (f->path == NULL || (f->layer == JS_LAYER_TREE) != (id == PM_TREES) || untouched(f))
                continue;
            if (!first)
                comma(o);
            first = 0;
            if (id == PM_TREES)
                write_tree(o, f);
            else
                write_file(v, f);
        }
        js_out_raw(o, "]", 1);
        break;
    case PM_FILES_DROPPED: js_out_u64(o, g->files_dropped); break;
    case PM_CODE_DROPPED: js_out_u64(o, g->code_dropped); break;
    case PM_SYNC_CALLS: js_out_u64(o, g->sync_calls); break;
    case PM_SYNC_NS: js_out_u64(o, tick_ns(r, g->sync_ticks)); break;
    case PM_RENAMES:
        js_out_raw(o, "[", 1);
        for (unsigned i = 0; i < g->nrenames; i++) {
            const struct js_rename *rn = &g->renames[i];
            if (rn->from == NULL || rn->to == NULL)
                continue;
            if (!first)
                comma(o);
            first = 0;
            write_rename(v, rn);
        }
        js_out_raw(o, "]", 1);
        break;
    case PM_RENAMES_DROPPED: js_out_u64(o, g->renames_dropped); break;
    case PM_MISSING: js_out_str(o, r->missing, sizeof r->missing); break;
    }
}

/* A profile; in a bundle (bundled) without its slices, which the bundle's series sums. */
static void write_profile(struct js_out *o, struct rec *r, const struct mount *mounts, size_t nm, int bundled)
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
static int fold_rows(struct js_fold *f, const struct rec *r)
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

static void emit_out(void *ctx, const char *p, size_t n) { js_out_raw(ctx, p, n); }

static ssize_t plain_write(int fd, const void *p, size_t n) { return write(fd, p, n); }

struct status {
    pid_t pid;
    int status;
};

static struct {
    int dirfd;
    int final, each;
    uint64_t seen_ns;          /* --seen-ns: when the --status processes had ended */
    struct status *st;
    size_t nst;
    char prefix[400];          /* "<step>.<node>." ("" with --each and no scope: every record) */
    struct mount *mounts;
    size_t nm;
    struct js_quota *quota;    /* the job's share of the spool on the node, when there is one */
    char step[64];             /* the scope's step (for the quota's refusals) */
} C;

static volatile sig_atomic_t stop;
static void on_term(int sig) { (void)sig; stop = 1; }

/* Map and check a record; decide how it ended. 1: ready (ended, or reaped, or --final, or
 * live wanted), 0: still running, -1: bad (kept, message given). */
static int load(const char *name, struct rec *r, int live)
{
    memset(r, 0, sizeof *r);
    r->name = name;
    int fd = openat(C.dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        if (fd >= 0)
            close(fd);
        return errno == ENOENT ? 0 : bad(name, "not a regular file");
    }
    if (geteuid() != 0 && sb.st_uid != geteuid()) {
        close(fd);
        return bad(name, "not owned by the user collecting");
    }
    if (sb.st_size < (off_t)JS_REC_HEADER_BYTES || sb.st_size > (off_t)JS_REC_MAX_BYTES) {
        close(fd);
        return bad(name, "size out of range");
    }
    r->size = (size_t)sb.st_size;
    r->m = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    if (r->m == MAP_FAILED) {
        r->m = NULL;
        return bad(name, "cannot map it");
    }
    r->g = (struct js_global *)(void *)r->m;
    if (check(r) != 0)
        return -1;
    struct js_global *g = r->g;
    /* what slurmstepd saw of its task, for the image that did not exec away */
    for (size_t i = 0; i < C.nst && !g->reaped.seen; i++)
        if (C.st[i].pid == g->pid && strcmp(g->end, "exec") != 0) {
            g->reaped.seen = 1;
            g->reaped.status = C.st[i].status;
            g->reaped.ns = C.seen_ns ? C.seen_ns : (uint64_t)time(NULL) * 1000000000ULL;
        }
    int ended = g->state == JS_REC_ENDED || g->reaped.seen;
    if (!ended && !C.final && !live)
        return 0;
    if (!ended && live) { /* a snapshot of a running process */
        snprintf(r->end, sizeof r->end, "running");
        r->exit_code = -1;
        r->end_ns = (uint64_t)time(NULL) * 1000000000ULL;
        r->cpu_user_ns = g->cpu_folded_ns;
        kernel_io_of(r);
        fold_rest(r, g->cpu_folded_ns);
    } else {
        decide_end(r, C.final);
        fold_rest(r, r->cpu_user_ns + r->cpu_sys_ns); /* the image's own, predecessors' taken out */
    }
    /* a record that could not grow stops its slices too: say which bound it was */
    if (g->slices.truncated)
        add_missing(r, g->chunks_refused ? "slices after the record could not grow" : "slices after the 1 MiB slice budget");
    if (g->chunks_refused) {
        char what[160];
        snprintf(what, sizeof what,
                 "files and slices the record had no room for (refused room %llu times: a full record area or the job's record quota)",
                 (unsigned long long)g->chunks_refused);
        add_missing(r, what);
    }
    /* a fixed text, so that a step's processes add up under one reason; the counts are in
     * files_dropped and renames_dropped (a record that could not grow said it above) */
    if (g->files_dropped && !g->chunks_refused)
        add_missing(r, "files not listed (its file list was full)");
    if (g->renames_dropped)
        add_missing(r, "renames not listed (its list of renames was full)");
    if (g->code_dropped && !g->chunks_refused)
        add_missing(r, "code files not counted (its list of software trees was full)");
    return 1;
}

static void unload(struct rec *r)
{
    if (r->m)
        munmap(r->m, r->size);
    r->m = NULL;
}

/* The job's share of the spool on the node (common/record_quota.h), when the plugin made one. */
static void quota_attach(const char *node)
{
    char name[400];
    struct stat sb;
    snprintf(name, sizeof name, JS_QUOTA_PREFIX "%s", node);
    int fd = openat(C.dirfd, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= (off_t)sizeof(struct js_quota)) {
        void *m = mmap(NULL, sizeof(struct js_quota), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (m != MAP_FAILED && memcmp(((struct js_quota *)m)->magic, JS_QUOTA_MAGIC, 8) == 0)
            C.quota = m;
        else if (m != MAP_FAILED)
            munmap(m, sizeof(struct js_quota));
    }
    close(fd);
}

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
        return bad(b->tmp, "cannot create a bundle");
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
        return bad(name, "cannot write the bundle");
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
static DIR *open_dir(void)
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
static char **list_records(size_t *n)
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
static long bundle_pass(void)
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
        int ready = load(names[i], &r, 0);
        if (ready < 0)
            errors++;
        if (ready == 1) {
            if (b.fd < 0) {
                snprintf(tmp, sizeof tmp, ".%sb%u.json.tmp", C.prefix, seq);
                if (bundle_open(&b, seq, tmp) != 0) {
                    unload(&r);
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
        unload(&r);
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
        return bad(r->name, "cannot create its profile");
    js_out_init(&out, fd, plain_write, JS_PROFILE_MAX_BYTES);
    write_profile(&out, r, C.mounts, C.nm, 0);
    js_out_flush(&out);
    int werr = out.err;
    if (close(fd) != 0 && werr == 0)
        werr = errno;
    if (werr) {
        unlinkat(C.dirfd, tmp, 0);
        errno = werr;
        return bad(r->name, "cannot write its profile");
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
    return bad(r->name, "cannot publish its profile");
}

static long each_pass(void)
{
    size_t n;
    char **names = list_records(&n);
    long turned = 0;
    int errors = 0;
    for (size_t i = 0; names && i < n; i++) {
        struct rec r;
        int ready = load(names[i], &r, 0);
        if (ready < 0 || (ready == 1 && publish(&r) != 0))
            errors++;
        else if (ready == 1 && unlinkat(C.dirfd, names[i], 0) == 0) {
            js_quota_charge(C.quota, -1, -js_rec_allocated(r.g));
            turned++;
        }
        unload(&r);
        free(names[i]);
    }
    free(names);
    return errors ? -1 : turned;
}

/* The running processes as they are now: .live.<step>.<node>.json, replaced each time. */
static void live_snapshot(void)
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
            if (load(names[i], &r, 1) == 1)
                bundle_add(&b, &r);
            unload(&r);
        }
        bundle_close(&b, fin, 1, 0);
    }
    js_fold_free(&b.fold);
    for (size_t i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

/* How many records are ready to be turned (their own end, or a parent's word): cheap reads. */
static size_t ready_count(void)
{
    size_t n, ready = 0;
    char **names = list_records(&n);
    for (size_t i = 0; names && i < n; i++) {
        int fd = openat(C.dirfd, names[i], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        int32_t state = 0, seen = 0;
        if (fd >= 0 && pread(fd, &state, sizeof state, offsetof(struct js_global, state)) == (ssize_t)sizeof state &&
            pread(fd, &seen, sizeof seen, offsetof(struct js_global, reaped.seen)) == (ssize_t)sizeof seen &&
            (state == JS_REC_ENDED || seen))
            ready++;
        if (fd >= 0)
            close(fd);
        free(names[i]);
    }
    free(names);
    return ready;
}

/* Records made ahead for the step's processes to claim (profiler/image_record.c):
 * .pool.<step>.<node>.<k>, sized and their first chunks written, charged to the quota like the
 * records they become. The pool starts small (a step that starts few processes pays little for
 * it) and doubles, up to JS_REC_POOL, each time it is found more than half taken. Returns how
 * many it made. */
static unsigned pool_target = 4;

static unsigned pool_fill(void)
{
    static char zero[JS_REC_CHUNK];
    struct js_global lay;
    char name[600], tmp[600];
    struct stat sb;
    uint64_t size = js_rec_layout(&lay);
    int64_t first = (int64_t)JS_REC_FIRST_CHUNKS * JS_REC_CHUNK;
    unsigned made = 0, size_k = pool_target;
    /* the pool takes at most a sixteenth of the job's share: steps beside this one need theirs */
    if (C.quota && C.quota->cap_files > 0 && (int64_t)size_k > C.quota->cap_files / 16)
        size_k = (unsigned)(C.quota->cap_files / 16);
    if (C.quota && C.quota->cap_bytes > 0 && (int64_t)size_k * first > C.quota->cap_bytes / 16)
        size_k = (unsigned)(C.quota->cap_bytes / 16 / first);
    for (unsigned k = 0; k < size_k && !stop; k++) {
        snprintf(name, sizeof name, JS_REC_POOL_PREFIX "%s%u", C.prefix, k);
        if (fstatat(C.dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0)
            continue;
        if (js_quota_charge(C.quota, 1, first) != 0)
            break; /* the job's share is used up: processes will find out themselves */
        snprintf(tmp, sizeof tmp, ".pool-new.%s%u", C.prefix, k);
        int fd = openat(C.dirfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        int ok = fd >= 0 && ftruncate(fd, (off_t)size) == 0;
        for (uint64_t c = 0; ok && c < JS_REC_FIRST_CHUNKS; c++)
            ok = pwrite(fd, zero, sizeof zero, (off_t)(c * JS_REC_CHUNK)) == (ssize_t)sizeof zero;
        if (fd >= 0)
            close(fd);
        if (ok && renameat2(C.dirfd, tmp, C.dirfd, name, RENAME_NOREPLACE) == 0) {
            made++;
        } else {
            unlinkat(C.dirfd, tmp, 0);
            js_quota_charge(C.quota, -1, -first);
        }
    }
    static int filled;
    if (!filled) { /* the first fill is no demand */
        filled = 1;
        return 0;
    }
    if (made > pool_target / 2 && pool_target < JS_REC_POOL)
        pool_target *= 2;
    return made;
}

/* The step is over: the records nobody claimed go, and leave the quota; so do the temporaries
 * a watcher stopped in the middle left (slurmstepd kills what is left of a step). */
static void pool_drain(void)
{
    char tmp[600];
    DIR *d = open_dir();
    struct dirent *e;
    size_t pl = strlen(C.prefix);
    while (d && (e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (strncmp(n, ".pool-new.", 10) == 0 && strncmp(n + 10, C.prefix, pl) == 0) {
            if (unlinkat(C.dirfd, n, 0) == 0)
                js_quota_charge(C.quota, -1, -(int64_t)JS_REC_FIRST_CHUNKS * JS_REC_CHUNK);
        } else {
            size_t l = strlen(n);
            snprintf(tmp, sizeof tmp, ".live.%sjson.tmp", C.prefix);
            int live_tmp = strcmp(n, tmp) == 0;
            int bundle_tmp = n[0] == '.' && strncmp(n + 1, C.prefix, pl) == 0 && n[1 + pl] == 'b' && l > 9 &&
                             strcmp(n + l - 9, ".json.tmp") == 0;
            if (live_tmp || bundle_tmp)
                unlinkat(C.dirfd, n, 0);
        }
    }
    if (d)
        closedir(d);
    char name[600];
    for (unsigned k = 0; k < JS_REC_POOL; k++) {
        snprintf(name, sizeof name, JS_REC_POOL_PREFIX "%s%u", C.prefix, k);
        if (unlinkat(C.dirfd, name, 0) == 0)
            js_quota_charge(C.quota, -1, -(int64_t)JS_REC_FIRST_CHUNKS * JS_REC_CHUNK);
    }
}

#define JS_WATCH_TICK_MS 250  /* a look at the directory: a readdir and two preads a record */
#define JS_WATCH_BATCH 128     /* ended records that trigger a pass at once */
#define JS_WATCH_PASS_S 20     /* else a pass at least this often when one has ended */
#define JS_WATCH_LIVE_S 15     /* the live snapshot: four times a minute */

/* --watch: while the step runs, ended records go into bundles (the spool holds the running
 * processes and a bounded number of ended ones, however many commands the step runs) and the
 * running ones into the live snapshot. Ends on SIGTERM or when its parent (slurmstepd) goes. */
static int watch(void)
{
    struct sigaction sa = {.sa_handler = on_term};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    pid_t parent = getppid();
    time_t last_pass = time(NULL), last_live = 0;
    while (!stop && getppid() == parent) {
        time_t now = time(NULL);
        size_t ready = ready_count();
        int busy = ready >= JS_WATCH_BATCH;
        if (busy || (ready > 0 && now - last_pass >= JS_WATCH_PASS_S)) {
            bundle_pass();
            last_pass = now;
        }
        if (now - last_live >= JS_WATCH_LIVE_S) {
            live_snapshot();
            last_live = now;
        }
        /* bundling comes first: while processes end in numbers, look again soon and leave the
         * pool; a pool that was drained is looked at again five times as soon */
        long ms = JS_WATCH_TICK_MS / 5;
        if (!busy) {
            unsigned target = pool_target;
            ms = pool_fill() > target / 2 ? JS_WATCH_TICK_MS / 5 : JS_WATCH_TICK_MS;
        }
        struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: %s [--final | --watch] [--each] [--seen-ns NS] [--status PID=WAITSTATUS]... DIR [STEP NODE]\n",
            prog);
    return 2;
}

int main(int argc, char **argv)
{
    int watching = 0;
    C.st = calloc((size_t)argc, sizeof *C.st);
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--final") == 0)
            C.final = 1;
        else if (strcmp(argv[i], "--watch") == 0)
            watching = 1;
        else if (strcmp(argv[i], "--each") == 0)
            C.each = 1;
        else if (strcmp(argv[i], "--seen-ns") == 0 && i + 1 < argc)
            C.seen_ns = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--status") == 0 && i + 1 < argc) {
            long pid, status;
            char *e1, *e2;
            pid = strtol(argv[++i], &e1, 10);
            if (*e1 != '=' || pid <= 0 || (status = strtol(e1 + 1, &e2, 10), *e2 != '\0'))
                return usage();
            C.st[C.nst].pid = (pid_t)pid;
            C.st[C.nst++].status = (int)status;
        } else
            return usage();
    }
    if ((argc - i != 1 && argc - i != 3) || (argc - i == 1 && !C.each) || (watching && (C.final || C.each)))
        return usage(); /* bundles are per step and node: they need the scope */
    const char *dir = argv[i];
    if (argc - i == 3) {
        if (strchr(argv[i + 1], '/') || strchr(argv[i + 2], '/'))
            return usage();
        snprintf(C.prefix, sizeof C.prefix, "%s.%s.", argv[i + 1], argv[i + 2]);
        snprintf(C.step, sizeof C.step, "%s", argv[i + 1]);
    }
    C.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (C.dirfd < 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, dir, strerror(errno));
        return 1;
    }
    if (argc - i == 3)
        quota_attach(argv[i + 2]);
    static char mountinfo[JS_MOUNTINFO_BYTES];
    static struct mount mounts[JS_MAX_MOUNTS];
    FILE *mi = fopen("/proc/self/mountinfo", "r");
    if (mi) {
        size_t n = fread(mountinfo, 1, sizeof mountinfo - 1, mi);
        mountinfo[n] = '\0';
        fclose(mi);
        C.nm = parse_mounts(mountinfo, mounts, JS_MAX_MOUNTS);
    }
    C.mounts = mounts;
    if (watching)
        return watch();
    long turned = C.each ? each_pass() : bundle_pass();
    if (C.final && !C.each) {
        pool_drain();
        char live[600];
        snprintf(live, sizeof live, ".live.%sjson", C.prefix);
        unlinkat(C.dirfd, live, 0); /* the step is over: its profiles say it all */
    }
    free(C.st);
    if (turned < 0) {
        fprintf(stderr, "%s: %s: some records could not be turned into profiles; they are kept\n", prog, dir);
        return 1;
    }
    return 0;
}
