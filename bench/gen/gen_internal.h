/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsgen's rooms (gen.h says what it writes): what they share. gen.c the job mix, the
 * scheduling and the driver; gen_job.c one job of the cluster shape; gen_uniform.c the uniform
 * shape; gen_records.c job and step records and the spool's files; gen_profile.c profiles and
 * bundles.
 */
#ifndef JSGEN_INTERNAL_H
#define JSGEN_INTERNAL_H

#include "gen.h"

#include "bundle_cols.h"
#include "bundle_series.h"
#include "profile_format.h"
#include "record_format.h"
#include "slice.h"

#include <math.h>
#include <stdint.h>
#include <sys/types.h>

#define NS 1000000000LL
#define MAX_NODES_PER_JOB 256
#define MAX_INPUTS 40
#define MAX_STEPS 4
#define CORES_PER_NODE 64
#define WRITER_VERSION "jsgen-" PACKAGE_VERSION

/* ---- deterministic random numbers: xoshiro256** seeded by splitmix64 ------------------- */
struct rng { uint64_t s[4]; };

static inline uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline void rng_seed(struct rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return res;
}

static inline double rnd(struct rng *r) { return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }
static inline uint64_t rnd_int(struct rng *r, uint64_t lo, uint64_t hi) { return lo + rng_next(r) % (hi - lo + 1); }
static inline double rnd_log(struct rng *r, double lo, double hi) { return lo * exp(rnd(r) * log(hi / lo)); }
static inline double rnd_lognormal(struct rng *r, double median, double sigma)
{
    double u1 = rnd(r), u2 = rnd(r);
    if (u1 < 1e-12)
        u1 = 1e-12;
    return median * exp(sigma * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}
static inline uint64_t hash64(uint64_t a, uint64_t b) { uint64_t x = a * 0x9e3779b97f4a7c15ULL ^ b; return splitmix64(&x); }
static inline uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* ---- output buffer (its JSON writer is gen_profile.c's) -------------------------------------- */
struct buf { char *p; size_t n, cap; };

/* ---- files in the spool ---------------------------------------------------------------- */
struct ctx {
    const struct jsgen_params *p;
    struct jsgen_summary *s;
    struct rng r;
    int64_t win_start_ns, win_end_ns;
    int64_t first_slice, nslices;
    int64_t *free_at;     /* per node: when it is free (ns) */
    unsigned *order;      /* scratch for node selection */
    uint8_t *busy;        /* bitmap nodes x slices of the period */
    uint32_t next_job;
    int spool_fd;
    struct buf b;
    uint64_t *pids;       /* scratch: the pids of a step-node's processes, ppn of them */
    struct js_fold fold;  /* the slice rows of the bundle being written: its series */
    struct js_cols *cols; /* bundle version 3: its processes as columns */
    struct buf pb;        /* bundle version 3: one profile's text, for cols */
    size_t in_text;       /* bytes of profile text in the bundle being written */
};

/* one job: steps, profiles, records */
static inline int64_t slice_of(const struct ctx *c, int64_t ns) { return js_slice_of_ns(ns, (int32_t)c->p->slice_s); }

/* ---- the job mix ------------------------------------------------------------------------- */
enum kind { K_MPI, K_IO, K_MPIIO, K_SERIAL };
#define NAPPS 10
extern const char *const jsgen_apps[NAPPS][2]; /* name, kind letter (gen_job.c) */

struct input { char path[200]; uint64_t bytes; uint32_t writer; };

struct gjob {
    uint32_t id;
    unsigned k;
    unsigned nodes[MAX_NODES_PER_JOB];
    int64_t submit_ns, start_ns, end_ns;
    unsigned user;
    long uid, gid;
    char user_name[32];
    unsigned app;
    enum kind kind;
    const char *name;
    char tag[48];       /* workflow tag, "" for none */
    uint32_t array_job_id;
    long array_task_id; /* -1 none */
    int ndeps;
    struct { const char *type; uint32_t job; } deps[MAX_INPUTS];
    int nin;
    struct input in[MAX_INPUTS];
    int ref;            /* shared read-only reference data set, -1 none */
    char output[200];
    uint64_t out_bytes;
    unsigned nsteps;
    unsigned ppn;       /* processes per node of a numbered step */
    unsigned threads;
    int failed;
    char script[160];
};

struct steprec_arg {
    const struct ctx *c;
    const struct gjob *j;
    uint32_t step_id;
    unsigned node_index, nodes, local_tasks, tasks, cpus;
    const char *node;
    int64_t start_ns, end_ns;
    const char *exe;
    const char *const *argv;
    const uint64_t *pids;
    unsigned killed;     /* the last `killed` local tasks were killed by SIGKILL */
};
struct jobrec_arg { const struct ctx *c; const struct gjob *j; };

struct pfile {
    char path[220];
    const char *layer, *mount, *fstype, *open_mode, *used_mode;
    uint64_t dev, ino, btime, opens, read_calls, read_bytes, write_calls, write_bytes, lower_read, lower_write;
    int64_t first_open_ns, last_close_ns;
};

struct proc {
    const char *step;
    const char *node;
    long task_id;
    uint64_t pid, ppid;
    const char *exe, *args;
    int64_t start_ns, end_ns;
    const char *end;          /* how the image ended: exit or signal */
    int exit_code, signal;
    const char *missing;
    long mpi_rank, mpi_size;
    unsigned threads;
    uint64_t max_rss_kib;
    unsigned sys_divisor;     /* system CPU time is cpu_ns / this (0: none) */
    uint64_t startup_rchar;   /* bytes the kernel counted read in the first slice besides the wrappers' */
    int64_t first_slice;
    const int64_t *slice_ids; /* NULL: rows are first_slice, first_slice + 1, ... */
    unsigned nrows;
    uint64_t (*rows)[JS_M_COUNT];
    unsigned nfiles;
    struct pfile files[MAX_INPUTS + 8];
};

/* The profiles of one step-node: one file each (<step>.<node>.<pid>.json), or bundles
 * (<step>.<node>.b<N>.json) of at most JS_PROFILE_BUNDLE_MAX, in c->b. */
struct pout {
    struct ctx *c;
    const struct gjob *j;
    int pfd;
    const char *step, *node;
    unsigned in_bundle, bundles;
};

/* gen_records.c */
/* A node's name: the prefix and its number (cluster shape a 5-digit index from 0, uniform a number from 1). */
void gen_node_name(const struct jsgen_params *p, char *buf, size_t size, unsigned index);
/* A file of the spool written whole (a temporary renamed): 0, or -1 with a message. */
int gen_write_at(struct ctx *c, int dirfd, const char *name, const char *data, size_t len, mode_t mode, long uid, long gid);
int gen_open_job_dirs(struct ctx *c, const struct gjob *j, int *jfd, int *pfd);
/* The step record of a step-node, the job record: 0, or -1 with a message. */
int gen_write_step_record(struct ctx *c, int jfd, const struct steprec_arg *sa);
int gen_write_job_record(struct ctx *c, int jfd, const struct gjob *j);

/* gen_profile.c */
struct pfile *gen_add_file(struct proc *pr, const char *path, const char *layer, int local);
void gen_file_read(struct pfile *f, uint64_t bytes, int64_t t0, int64_t t1);
void gen_file_write(struct pfile *f, uint64_t bytes, int64_t t0, int64_t t1);
void gen_pout_begin(struct pout *o, struct ctx *c, const struct gjob *j, int pfd, const char *step, const char *node);
int gen_pout_add(struct pout *o, const struct proc *pr);
int gen_pout_flush(struct pout *o);

/* gen_job.c: one job of the cluster shape, placed: 0, or -1 with a message */
int gen_write_job(struct ctx *c, struct gjob *j);

/* gen_uniform.c: every job of the uniform shape */
int gen_run_uniform(struct ctx *c);

#endif
