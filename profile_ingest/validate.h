/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Validation of what the spool holds against the one definition of each format
 * (common/record_format.h, common/profile_format.h: validate.c), and the aggregation of one
 * step record's profiles into the rows the ingest writes (aggregate.c).  No I/O here:
 * unit-testable. */
#ifndef PI_VALIDATE_H
#define PI_VALIDATE_H

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

enum pi_check { PI_OK = 0, PI_INVALID = -1, PI_UNKNOWN_VERSION = 1 };

/* Write the reason a check failed into reason (size bytes); returns PI_INVALID. */
int pi_invalid(char *reason, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

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

#define PI_MERGE_MIN 4096

/* How far a profile's times may lie outside its step record's span. */
#define PI_PROFILE_SLACK_NS (60LL * 1000000000LL)
/* a system call takes > 50 ns: 4096 threads make < 10^11 a second */
#define PI_CALLS_PER_SECOND_MAX 1e11

/* The most a node does of unit ("bytes", "calls", "ns") in a second, CPU time when is_cpu
 * (node_cpus_max, node_bytes_per_second_max; validate.c), and that bound over seconds in words
 * ("the most a node moves in 4 s (node_bytes_per_second_max)"). */
double pi_node_rate(const struct pi_conf *conf, const char *unit, int is_cpu);
void pi_node_rate_words(const struct pi_conf *conf, const char *unit, int is_cpu, double seconds, char *out, size_t size);

/* a + b, at INT64_MAX (INT64_MIN) rather than wrapping */
static inline int64_t pi_sat_add(int64_t a, int64_t b)
{
    int64_t s;
    return __builtin_add_overflow(a, b, &s) ? (b > 0 ? INT64_MAX : INT64_MIN) : s;
}

/* Take a checked profile's slices (ncols values a row) and totals into the step-node's budget
 * when the sums with them stay within what one node can do (budget.c): PI_OK, or PI_INVALID with
 * the reason (nothing taken). */
int pi_budget_take(struct pi_step *st, const struct pi_conf *conf, const json_t *p, int ncols, char *reason, size_t size);
/* The same for the n slices of a bundle's series (their sums over its processes). */
int pi_budget_take_slices(struct pi_step *st, const struct pi_conf *conf, const struct pi_slice *s, size_t n, char *reason,
                          size_t size);

/* A version-2 bundle's "series" (common/bundle_series.h) into the step-node's slices when it is
 * well formed, within the step's slices and within the step-node's budget: PI_OK, or PI_INVALID
 * with the reason (nothing of it taken). node_series.c */
int pi_series_take(struct pi_step *st, const struct pi_conf *conf, const json_t *series, char *reason, size_t size);
/* Chunk c of a series decoded into dense (JS_SERIES_CHUNK rows of PI_SERIES_ROW values:
 * processes, the sums, then min, max and max_pid of each JS_SPREAD_METRICS), its first slice and
 * length into *first and *n; buf holds JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK). Checks the form
 * only (pi_series_take checks the values). PI_OK, or PI_INVALID with the reason. */
#define PI_SERIES_ROW (JS_FOLD_COLS + 3 * JS_SPREAD_COUNT)
int pi_series_chunk_decode(const json_t *chunk, size_t c, int64_t *first, int64_t *n, int64_t *dense, unsigned char *buf,
                           char *reason, size_t size);
/* profile_ingest --dump FILE: the file as readable JSON on stdout (bundle_dump.c); exit status. */
int pi_dump(const char *path);
/* Append n checked slices (merged with the others in pi_step_finish). */
void pi_step_add_slices(struct pi_step *st, const struct pi_slice *s, size_t n);
void pi_budget_free(struct pi_budget *b);

/* Parse JSON text (len bytes, no NUL needed); NULL with the reason set. */
json_t *pi_json_parse(const char *text, size_t len, char *reason, size_t size);

/* Check a job or step record against its field table.  PI_OK, PI_INVALID or
 * PI_UNKNOWN_VERSION, with the reason set for the last two. */
int pi_record_check(const json_t *r, int is_step, char *reason, size_t size);

/* Start a step from its validated job and step records (references are taken). */
void pi_step_init(struct pi_step *st, json_t *job, json_t *rec, const char *default_cluster);
void pi_step_free(struct pi_step *st);

/* Validate one profile and, when it is good, add it to the step: PI_OK, or PI_INVALID /
 * PI_UNKNOWN_VERSION with the reason set (nothing of it added).  Versions
 * JS_PROFILE_VERSION_MIN..JS_PROFILE_VERSION are read; a version 1 profile has no exit_code,
 * signal and missing: its process gets -1, 0 and "". */
int pi_profile_add(struct pi_step *st, const struct pi_conf *conf, const json_t *p, char *reason, size_t size);

/* The checks of pi_profile_add, adding nothing: PI_OK, or PI_INVALID / PI_UNKNOWN_VERSION
 * with the reason set. */
int pi_profile_check(const struct pi_step *st, const struct pi_conf *conf, const json_t *p, char *reason, size_t size);

/* Values in a slice row of a profile of this version (the kernel's counts from version 5). */
int pi_slice_cols_of(json_int_t version);

/* 1 when some accepted profile of the step says that something of it is missing. */
int pi_step_has_missing(const struct pi_step *st);

/* Is p a bundle of profiles (jobscreen-collect's output, JS_PROFILE_BUNDLE_FORMAT_NAME)? */
int pi_is_bundle(const json_t *p);

/* Validate and add every profile of a bundle; *count grows by the number of profiles and
 * must stay within conf->max_profiles. PI_OK, or the first failure with the reason naming
 * the profile (the good ones are added all the same).  A bundle's optional "unrecorded"
 * ({"processes": N >= 1, "reason": at most PI_UNRECORDED_REASON_MAX bytes}) adds N to
 * st->unrecorded and keeps the first reason; a malformed one (or a wrong version or
 * profiles list) refuses the whole bundle: nothing of it is added. */
int pi_bundle_add(struct pi_step *st, const struct pi_conf *conf, const json_t *b, int *count, char *reason, size_t size);

/* The checks of a bundle's own members (version, "profiles", "unrecorded", the last within
 * what st may still count), before pi_bundle_add adds any profile: PI_OK with *unrecorded and
 * *unrecorded_reason (0 and NULL when it has none), or PI_INVALID with the reason set. */
int pi_bundle_check(const struct pi_step *st, const json_t *b, int64_t *unrecorded, const char **unrecorded_reason,
                    char *reason, size_t size);

/* MPI segments (ingest_segments.c): check a version 6 profile's "mpi_segments" (PI_OK, or
 * PI_INVALID with the reason set), and add a checked one into the step-node's. */
int pi_segments_check(const json_t *p, char *reason, size_t size);
void pi_segments_add(struct pi_step *st, const json_t *p);
/* ingest_segments.c: one process's segment group and slowest segments merged into the
 * step-node's (both bundle readers use them) */
struct pi_seg_group *pi_seg_group_merge(struct pi_step *st, const char *sig, const char *boundary, int64_t count,
                                        int64_t sum_ns, int64_t min_ns, int64_t max_ns);
void pi_seg_slow_add(struct pi_step *st, const struct pi_seg_slow *e);

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

/* The check of validate.c for a value no node could produce: value of what (in where) over
 * seconds at the rate of unit (CPU time when is_cpu): 0, or -1 with the reason. */
int pi_plausible(const struct pi_conf *conf, const char *where, const char *what, const char *unit, int is_cpu,
                 int64_t value, double seconds, char *reason, size_t size);
/* The profile version that added a member (section "": the top level, else "files",
 * "runtime"); 1 for those of the first. */
json_int_t pi_field_since(const char *section, const char *name);
/* A profile's totals (JS_M_COUNT values) into the step-node's budget (pi_budget_take). */
int pi_budget_take_totals(struct pi_step *st, const struct pi_conf *conf, const int64_t *tot, char *reason, size_t size);

/* The processes of a bundle of version 3 as profiles (a JSON array, for --dump), or NULL with
 * the reason. */
json_t *pi_cols_profiles(const json_t *b, char *reason, size_t size);

/* Record a refused profile (its name and reason) in st->bad. */
void pi_step_add_bad(struct pi_step *st, const char *name, const char *reason);

/* After the last profile: sort and merge the slices, number the images of each pid. */
void pi_step_finish(struct pi_step *st);

/* The step's copy of s, one per distinct value (freed with the step): for strings that many
 * profiles repeat (a process's origin, end, exe, a refusal's reason). */
const char *pi_step_intern(struct pi_step *st, const char *s);

/* Name checks for spool entries.  pi_parse_step_record_name: "step.<step>.<node>.json" into
 * step and node (0), -1 when not such a name.  pi_profile_name_matches: 1 when name is
 * "<step>.<node>.<id>.json" with id made of [0-9A-Za-z_-]. */
int pi_parse_step_record_name(const char *name, char *step, size_t stepsize, char *node, size_t nodesize);
int pi_profile_name_matches(const char *name, const char *step, const char *node);

#endif
