/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ingest's step type: one step on one node, the rows of its profiles (processes, slices,
 * files, software trees, renames, MPI segments) and its budget, owned by ingest_step.c, which
 * makes and merges them; the readers of each format fill it through these functions. */
#ifndef PI_INGEST_STEP_H
#define PI_INGEST_STEP_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "bundle_series.h"
#include "ingest_conf.h"
#include "profile_format.h"
#include "record_format.h"

#define PI_REASON_MAX 512
#define PI_MISSING_MAX 1024  /* bytes of a profile's "missing" (the writer keeps it under 128) */
#define PI_SIGNAL_MAX 127    /* highest signal number a profile may name (Linux: 64) */
#define PI_UNRECORDED_REASON_MAX 512 /* bytes of a bundle's "unrecorded": "reason" */

struct pi_slice {
    int64_t slice;
    int32_t processes;
    int64_t m[JS_SLICE_COLS]; /* the metrics, then the kernel's counts (0 before format 5, or unknown) */
    /* the spread over the processes active in the slice (common/bundle_series.h): the least
     * and the most one of them had, and the pid of the one with the most */
    int64_t lo[JS_SPREAD_COUNT], hi[JS_SPREAD_COUNT], hi_pid[JS_SPREAD_COUNT];
};

struct pi_proc {
    int64_t pid, ppid, task_id, mpi_rank, mpi_size, start_ns, end_ns, wall_ns;
    int64_t cpu_user_ns, cpu_sys_ns, max_rss_kib, threads_peak, threads_seen, compute_ns, files_dropped;
    int64_t idle_ns, mpi_setup_ns, cpu_wait_ns; /* -1: unknown (profile format 1-3) */
    int64_t sync_calls, sync_ns; /* -1: unknown (profile format 1-7: its syncs are metadata calls) */
    int64_t code_dropped;
    int64_t kio[JS_KIO_COUNT];       /* kernel_io; kio[0] -1: unknown */
    int image, slices_truncated;
    int exit_code, signal;    /* -1 when the exit status is unknown; 0 when no signal killed it */
    char *origin, *end, *exe, *args, *collectives;
    char *missing;            /* "" when the profile is complete, else what is missing, in words */
    int64_t m[JS_M_COUNT];
};

/* PI_LAYER_RENAME: the step renamed it (to or from this name), profile-format.md "renames" */
enum { PI_LAYER_MPIIO = 1, PI_LAYER_POSIX = 2, PI_LAYER_STDIO = 4, PI_LAYER_RENAME = 8 };

struct pi_file {
    char *path;
    char *fstype;
    int shared;
    int read, written, opened_r, opened_w;
    int processes;
    int last_proc;            /* index of the last profile that added to it */
    int64_t opens, reads, writes, bytes_read, bytes_written;
    int64_t first_access, last_access, first_read, last_write; /* -1: none */
    uint64_t dev, ino;        /* at the first open; 0: unknown */
    uint64_t btime;           /* birth time at the first open (ns); 0: unknown (before format 9) */
    int64_t mapped_bytes;     /* mmap of it */
    int layers;               /* PI_LAYER_* bits */
};

/* A software tree of the step on the node: its files counted together (profile-format.md "trees") */
struct pi_tree {
    char *path;
    int processes, last_proc;
    int64_t opens, read_bytes, write_bytes;
};

/* A rename one of the step's processes made on the node */
struct pi_rename {
    char *from, *to, *fstype;
    int64_t ns;
};

/* MPI segments of the step on the node (profile format 6 "mpi_segments"), summed over its
 * processes by signature: at most PI_SEG_GROUPS_MAX signatures (the segments of others count as
 * ungrouped), and the node's PI_SEG_SLOW_MAX slowest segments. */
#define PI_SEG_GROUPS_MAX 1024
#define PI_SEG_SLOW_MAX 64
struct pi_seg_group {
    char sig[17];
    const char *boundary;     /* interned */
    int processes;
    int64_t count, sum_ns, min_ns, max_ns;
    int64_t *bins;            /* JS_SEG_BINS counts */
};
struct pi_seg_slow {
    int64_t rank, end_ns, ns;
    char sig[17];             /* "" when ungrouped */
};

struct pi_bad {
    char *name;               /* file name in profiles/ */
    const char *reason;       /* at most PI_REASON_MAX - 1 bytes; held once per distinct reason (st->strs) */
};

struct pi_strtab;             /* the distinct strings of a step (validate.c) */

/* What a step-node's accepted processes add up to, per slice (an open-addressing table keyed by
 * slice) and in total (budget.c). */
struct pi_budget {
    int64_t *keys;
    int64_t (*sums)[JS_SLICE_COLS];
    size_t n, cap;
    int64_t totals[JS_M_COUNT];
};

struct pi_step {
    json_t *job, *rec;
    int64_t job_id, start_ns, end_ns, slice_seconds;
    uint32_t uid;
    char step[JS_STEP_NAME_MAX];
    char node[256];
    char cluster[256];
    struct pi_slice *slices;
    size_t nslices, capslices;
    struct pi_proc *procs;
    size_t nprocs, capprocs;
    struct pi_file *files;
    size_t nfiles, capfiles;
    struct pi_tree *trees;
    size_t ntrees, captrees;
    struct pi_rename *renames;
    size_t nrenames, caprenames;
    const struct pi_conf *conf; /* of the profiles added (which file systems are shared) */
    struct pi_bad *bad;
    size_t nbad, capbad;
    /* processes the profiler refused to record (a bundle's "unrecorded", summed over the
     * bundles; at most INT32_MAX) and the first bundle's reason ("" when none said one) */
    int64_t unrecorded;
    char unrecorded_reason[PI_UNRECORDED_REASON_MAX + 1];
    /* a live snapshot (no step record yet): a process may end "running"; the step's span is
     * the job's start until the time of the pass */
    int live;
    /* the version of the bundle whose profiles are being added; 0 for a file of one profile */
    int bundle_version;
    /* Bounded memory (docs/ingest.md, "Fairness and bounded cost"): the slices, files and trees
     * of the profiles added are merged as they come (once the unmerged ones are as many as the
     * merged ones, and at least PI_MERGE_MIN), not only in pi_step_finish; the processes' and
     * the refusals' strings are held once per distinct value. */
    size_t slices_merged, files_merged, trees_merged;
    struct pi_strtab *strs;
    /* MPI segments: seg_processes counts the processes with a non-empty "mpi_segments" */
    int seg_processes;
    int64_t seg_boundaries, seg_ungrouped, seg_ungrouped_ns;
    struct pi_seg_group *seg_groups;
    size_t nseg_groups, capseg_groups;
    struct pi_seg_slow seg_slow[PI_SEG_SLOW_MAX];
    size_t nseg_slow;
    struct pi_budget budget;
    struct pi_gpu *gpu; /* the step record's GPU and CPU-energy readings (ingest_gpu.c); NULL: none */
};

/* realloc of p to hold need elements of elem bytes (capacity doubling in *cap); aborts the
 * ingest when memory is out, as every allocation of a step's rows does */
void *pi_grow(void *p, size_t *cap, size_t need, size_t elem);

/* The parts of pi_profile_add that bundles of version 3 share (aggregate.c): a new process,
 * file, tree or rename of the step (zeroed; a file's times -1, a tree of the last process), a
 * file's type, modes and layer (pi_file_set) and its first read and last write from its times
 * (pi_file_times), and the merge of what was added once enough was. */
struct pi_proc *pi_step_proc_new(struct pi_step *st);

struct pi_file *pi_step_file_new(struct pi_step *st);

struct pi_tree *pi_step_tree_new(struct pi_step *st);

struct pi_rename *pi_step_rename_new(struct pi_step *st);

void pi_file_set(struct pi_step *st, const struct pi_conf *conf, struct pi_file *f, const char *fstype, const char *om,
                 const char *um, const char *layer);

void pi_file_times(struct pi_file *f);

void pi_step_merge_some(struct pi_step *st);

/* Start a step from its validated job and step records (references are taken). */
void pi_step_init(struct pi_step *st, json_t *job, json_t *rec, const char *default_cluster);

void pi_step_free(struct pi_step *st);

/* Append n checked slices (merged with the others in pi_step_finish). */
void pi_step_add_slices(struct pi_step *st, const struct pi_slice *s, size_t n);

/* 1 when some accepted profile of the step says that something of it is missing. */
int pi_step_has_missing(const struct pi_step *st);

/* Record a refused profile (its name and reason) in st->bad. */
void pi_step_add_bad(struct pi_step *st, const char *name, const char *reason);

/* After the last profile: sort and merge the slices, number the images of each pid. */
void pi_step_finish(struct pi_step *st);

/* The step's copy of s, one per distinct value (freed with the step): for strings that many
 * profiles repeat (a process's origin, end, exe, a refusal's reason). */
const char *pi_step_intern(struct pi_step *st, const char *s);

#endif
