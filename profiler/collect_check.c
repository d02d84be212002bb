/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen-collect: a record mapped privately and checked against the layout this program was
 * built with (every offset and count before it is used), its rest folded, and how its image
 * ended decided from its own word and what its parent or slurmstepd saw.
 */
#include "config.h"

#include "collect.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The program's name and options (set by main, collect.c): defined here, in the file at the
 * bottom of the three that read them, so that none calls one above it. */
const char *prog = "jobscreen-collect";
struct collect_conf C;

static void add_missing(struct rec *r, const char *what)
{
    size_t n = strlen(r->missing);
    snprintf(r->missing + n, sizeof r->missing - n, "%s%s", n ? "; " : "", what);
}

int collect_bad(const char *name, const char *why)
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
        return collect_bad(r->name, "not a record of this version (magic)");
    if (g->header_bytes != sizeof *g)
        return collect_bad(r->name, "record header of another size");
    uint64_t threads_end = g->off_threads + sizeof(struct js_thread) * JS_MAX_THREADS;
    uint64_t files_end = g->off_files + sizeof(struct js_file) * JS_PROFILE_MAX_FILES;
    if (g->off_threads != JS_REC_HEADER_BYTES || g->off_files < threads_end || g->off_paths < files_end ||
        g->off_slices < g->off_paths + JS_REC_PATH_BYTES || g->off_segs < g->off_slices + JS_PROFILE_SLICE_BUDGET ||
        g->off_segs + JS_REC_SEG_BYTES > r->size)
        return collect_bad(r->name, "regions outside the file");
    if (g->threads_used > JS_MAX_THREADS)
        g->threads_used = JS_MAX_THREADS; /* blocks handed out past the pool were never used */
    if (g->nfiles > JS_PROFILE_MAX_FILES || g->paths_used > JS_REC_PATH_BYTES)
        return collect_bad(r->name, "file list larger than its region");
    if (g->slices.cap != JS_PROFILE_SLICE_BUDGET || g->slices.len > g->slices.cap)
        return collect_bad(r->name, "slice storage larger than its region");
    if (g->slice_seconds <= 0 || g->slice_seconds > 86400)
        return collect_bad(r->name, "slice length out of range");
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

/* Map and check a record; decide how it ended. 1: ready (ended, or reaped, or --final, or
 * live wanted), 0: still running, -1: bad (kept, message given). */
int rec_load(const char *name, struct rec *r, int live)
{
    memset(r, 0, sizeof *r);
    r->name = name;
    int fd = openat(C.dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        if (fd >= 0)
            close(fd);
        return errno == ENOENT ? 0 : collect_bad(name, "not a regular file");
    }
    if (geteuid() != 0 && sb.st_uid != geteuid()) {
        close(fd);
        return collect_bad(name, "not owned by the user collecting");
    }
    if (sb.st_size < (off_t)JS_REC_HEADER_BYTES || sb.st_size > (off_t)JS_REC_MAX_BYTES) {
        close(fd);
        return collect_bad(name, "size out of range");
    }
    r->size = (size_t)sb.st_size;
    r->m = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    if (r->m == MAP_FAILED) {
        r->m = NULL;
        return collect_bad(name, "cannot map it");
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

void rec_unload(struct rec *r)
{
    if (r->m)
        munmap(r->m, r->size);
    r->m = NULL;
}

