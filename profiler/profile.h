/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The record of one process image: a file in the profile directory, mapped shared from the
 * first counted call on, so that everything counted survives the process however it ends
 * (SIGKILL, the OOM killer, a crash). The profiler writes only this record; jobscreen-collect
 * (collect.c, run as the job's user at step end) turns records into profiles
 * (docs/profile-format.md). Layout and life: docs/profiler.md, "The record".
 *
 * The file: [header | thread blocks | file entries | paths | slices | MPI segments], each region at a fixed
 * offset, the whole sparse; 4 KiB chunks are allocated (fallocate on a tmpfs, zeros written
 * elsewhere) before first use, so a full record area refuses a chunk (counted as dropped data) instead
 * of killing the program with SIGBUS.
 */
#ifndef JS_PROFILE_H
#define JS_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "profile_format.h"
#include "slices.h"
#include "record_quota.h"

#define JS_REC_MAGIC "JSREC07"          /* 8 bytes with the NUL; changes with the layout */
#define JS_REC_SUFFIX ".rec"
/* a page: every page allocated is zeroed and every page touched faults once per image, which
 * is most of what a record costs a short process */
#define JS_REC_CHUNK (4u << 10)
#define JS_REC_HEADER_BYTES (20u << 10)
#define JS_REC_PATH_BYTES (1u << 20)
#define JS_REC_MAX_BYTES (8u << 20)     /* the whole mapping, sparse */
#define JS_REC_CHUNK_WORDS (JS_REC_MAX_BYTES / JS_REC_CHUNK / 64)
#define JS_REC_FIRST_CHUNKS ((JS_REC_HEADER_BYTES + JS_REC_CHUNK) / JS_REC_CHUNK) /* header, first threads */
#define JS_REC_POOL_PREFIX ".pool."       /* .pool.<step>.<node>.<k>: records made ahead by the watcher */
#define JS_REC_POOL 64

enum { JS_REC_LIVE = 0, JS_REC_ENDED = 1 };

/* The kernel's per-thread counts the profiler reads (/proc/self/task/<tid>/): the io fields of
 * "kernel_io", then the scheduler's run delay (schedstat: time runnable, waiting for a CPU). */
enum { JS_KC_RUN_DELAY = JS_KIO_COUNT, JS_KC_COUNT };

/* Written into a child's record by the parent that reaped it (wait wrappers), or known to
 * slurmstepd for a task: how the process ended, seen from outside. */
struct js_reaped {
    int32_t seen;          /* 1 when the fields below are set */
    int32_t status;        /* wait status */
    uint64_t ns;           /* wall clock when it was reaped */
    uint64_t utime_ns, stime_ns, maxrss_kib; /* wait4's rusage (0 when unknown) */
};

/* MPI segments (mpi_segments.c, docs/profiler.md "MPI segments"): the region at off_segs, its first
 * chunk this store, then one chunk per group: its histogram (JS_SEG_BINS uint32 = 4 KiB), allocated
 * when the group is made. Updated with atomics by any thread that ends a segment. */
enum { JS_SEG_FREE = 0, JS_SEG_CLAIMING = 1, JS_SEG_READY = 2, JS_SEG_NO_ROOM = 3 };
struct js_seg_group {
    uint64_t sig;
    int32_t state;             /* JS_SEG_*: READY once sig, kind and the histogram's chunk are there */
    int32_t kind;              /* JS_COLL_* of the boundary */
    uint64_t count, sum_ns, min_ns, max_ns;
};
struct js_seg_slow {
    uint64_t end_ns, ns;       /* wall clock at its end, duration */
    int32_t group;             /* index in groups[], -1 ungrouped */
    int32_t pad;
};
struct js_seg_store {
    uint64_t boundaries, ungrouped, ungrouped_ns;
    uint64_t init_end_ns;      /* CLOCK_MONOTONIC at the end of MPI_Init: where a thread's first segment starts */
    int32_t slow_lock;         /* a spin lock around slow[] (a boundary's last step, rarely taken) */
    uint32_t nslow;
    uint64_t slow_min;         /* the shortest of slow[] once it is full: shorter segments skip the lock */
    struct js_seg_slow slow[JS_SEG_SLOWEST];
    struct js_seg_group groups[JS_SEG_MAX_GROUPS];
};
#define JS_REC_SEG_BYTES (JS_REC_CHUNK + (uint64_t)JS_SEG_MAX_GROUPS * JS_REC_CHUNK)
_Static_assert(sizeof(struct js_seg_store) <= JS_REC_CHUNK, "the segment store fits its chunk");
_Static_assert(JS_SEG_BINS * sizeof(uint32_t) == JS_REC_CHUNK, "a histogram is one chunk");

struct js_global {
    char magic[8];
    uint32_t header_bytes;     /* sizeof(struct js_global): a reader checks it */
    volatile int32_t state;    /* JS_REC_LIVE until the image ended (exit, _exit, exec) */
    uint64_t base;             /* address of the mapping in the writer: pointers below are in it */
    uint64_t alloc[JS_REC_CHUNK_WORDS]; /* chunks allocated in the file (bit per chunk) */
    uint64_t off_threads, off_files, off_paths, off_slices, off_segs;

    /* identity */
    char cluster[256], step[64], node[256], hostname[256];
    char exe[JS_PROFILE_MAX_STRING], args[JS_PROFILE_MAX_STRING];
    uint64_t job_id;
    int64_t task_id;
    int32_t pid, ppid;
    uint32_t uid;
    int32_t slice_seconds;
    char origin[8];            /* "start" or "fork" */
    char end[8];               /* "" while live; "exit", "_exit", "exec" */
    int32_t exit_code;         /* -1 until known (exit(), _exit()) */
    int32_t mpi_rank, mpi_size;
    uint64_t start_ns, end_ns;
    uint64_t cpu_user_ns, cpu_sys_ns, max_rss_kib; /* getrusage at the end */
    uint64_t cpu_user_start_ns, cpu_sys_start_ns;   /* getrusage at the image's start (an exec'd image's predecessors) */
    struct js_reaped reaped;

    /* counting */
    unsigned threads_live, threads_peak, threads_seen;
    uint32_t threads_used;     /* thread blocks handed out, at off_threads */
    uint64_t cpu_folded_ns;    /* CPU time read at the folds so far */
    uint64_t coll[JS_COLL_COUNT][3];    /* calls, bytes, ticks: updated atomically */
    uint64_t mpi_setup_ticks;  /* in MPI_Init, MPI_Init_thread, MPI_Finalize: updated atomically */
    uint64_t sync_calls, sync_ticks; /* fsync & co., O_SYNC writes: updated atomically (a sync waits far longer) */
    int32_t kc_known;          /* 1 when kc_start was read, 2 when kc_end too */
    uint64_t kc_start[JS_KC_COUNT], kc_end[JS_KC_COUNT]; /* the kernel's counts at the image's start, end (or last fold) */
    uint64_t kc_sliced[JS_KIO_COUNT]; /* the kernel's I/O counts up to which the slices hold them (kc_start at first) */
    double ns_per_tick;        /* calibration at the last fold: times in blocks and slices are ticks */
    int64_t cur_slice;         /* the slice unfolded counts belong to */
    uint64_t last_fold_ns;     /* wall clock of the last fold */
    struct js_slices slices;   /* buf in the writer's mapping */
    unsigned nfiles;           /* file entries used, at off_files */
    uint64_t files_dropped;
    uint64_t code_dropped;     /* opens of code files that found no room for their tree */
    uint64_t paths_used;       /* bytes used at off_paths */
    uint64_t chunks_refused;   /* chunks the record area or its quota refused: what they would have held is missing */
    struct js_rename {         /* renames, in order; paths in the arena at off_paths */
        uint64_t ns;
        const char *from, *to;
    } renames[JS_PROFILE_MAX_RENAMES];
    unsigned nrenames;
    uint64_t renames_dropped;

    /* the writer's own (meaningless to a reader) */
    char dir[4096];
    size_t dir_len;
    char rec_path[4200];       /* this record's file */
    int unlinked;              /* the record was removed at exec (nothing to say) */
    const char *err_what;
    int err_errno, err_reported;
};

extern struct js_global *js_g;

uint64_t js_now_ns(void);
void js_note_error(const char *what, int err);
void js_report_error(void);
int js_hb_start(void);
void js_hb_halt(int join);
int js_hb_is_running(void);

/* image_record.c */
int js_rec_create(void);                 /* map a new record and move js_g into it; 0 or -1 */
void js_rec_publish(void);               /* its header is complete: valid for readers from now on */
int js_rec_rehome(void);                 /* a copy under this process's pid (fork child, failed exec) */
void js_rec_detach(void);                /* stop recording here without touching the record */
void js_rec_reinit_lock(void);           /* in a fork child */
int js_rec_remove(void);                 /* remove this image's record (nothing to say): 0 or -1 */
int64_t js_rec_allocated(const struct js_global *g); /* bytes of its chunks allocated */
uint64_t js_rec_layout(struct js_global *g);         /* set the region offsets; the file's size */
int js_rec_reserve(const void *p, size_t len); /* allocate the chunks under [p, p+len): 0 or -1 */
void *js_rec_region(uint64_t off);       /* address of a region of this process's record */
void js_rec_note_reaped(pid_t pid, int status, const void *rusage); /* a child was reaped */
int js_quota_charge(struct js_quota *q, int64_t files, int64_t bytes); /* 0, or -1 (over: nothing charged) */
void js_quota_refused(struct js_quota *q, const char *step);         /* a process of step not recorded */
int64_t js_quota_take_refused(struct js_quota *q, const char *step); /* how many, reset to 0 */

#endif
