/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsgen: synthetic spools, of a cluster or uniform.  See gen.h and docs/benchmarks.md. */
#include "config.h"

#include "gen.h"

#include "bundle_cols.h"
#include "bundle_series.h"
#include "profile_format.h"
#include "record_format.h"
#include "slice.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NS 1000000000LL
#define MAX_NODES_PER_JOB 256
#define MAX_INPUTS 40
#define MAX_STEPS 4
#define CORES_PER_NODE 64
#define WRITER_VERSION "jsgen-" PACKAGE_VERSION

/* ---- deterministic random numbers: xoshiro256** seeded by splitmix64 ------------------- */
struct rng { uint64_t s[4]; };

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(struct rng *r)
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

static double rnd(struct rng *r) { return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }
static uint64_t rnd_int(struct rng *r, uint64_t lo, uint64_t hi) { return lo + rng_next(r) % (hi - lo + 1); }
static double rnd_log(struct rng *r, double lo, double hi) { return lo * exp(rnd(r) * log(hi / lo)); }
static double rnd_lognormal(struct rng *r, double median, double sigma)
{
    double u1 = rnd(r), u2 = rnd(r);
    if (u1 < 1e-12)
        u1 = 1e-12;
    return median * exp(sigma * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}
static uint64_t hash64(uint64_t a, uint64_t b) { uint64_t x = a * 0x9e3779b97f4a7c15ULL ^ b; return splitmix64(&x); }
static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* ---- output buffer with a JSON writer -------------------------------------------------- */
struct buf { char *p; size_t n, cap; };

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

static int write_at(struct ctx *c, int dirfd, const char *name, const char *data, size_t len, mode_t mode, long uid, long gid)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, ".%s.tmp", name);
    int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
    if (fd < 0) {
        fprintf(stderr, "jsgen: %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    if (fchmod(fd, mode) < 0 || (uid >= 0 && fchown(fd, (uid_t)uid, (gid_t)gid) < 0)) {
        fprintf(stderr, "jsgen: %s: %s\n", tmp, strerror(errno));
        close(fd);
        return -1;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "jsgen: writing %s: %s\n", tmp, strerror(errno));
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    if (close(fd) < 0 || renameat(dirfd, tmp, dirfd, name) < 0) {
        fprintf(stderr, "jsgen: %s: %s\n", name, strerror(errno));
        return -1;
    }
    c->s->bytes += len;
    return 0;
}

/* ---- the job mix ------------------------------------------------------------------------- */
enum kind { K_MPI, K_IO, K_MPIIO, K_SERIAL };
static const char *const apps[][2] = {
    /* name, kind letter */
    { "lammps", "m" }, { "gromacs", "m" }, { "wrf", "p" }, { "cp2k", "m" }, { "openfoam", "p" },
    { "bwa", "i" }, { "samtools", "i" }, { "python3", "s" }, { "Rscript", "s" }, { "nemo", "p" },
};
#define NAPPS (sizeof apps / sizeof apps[0])

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

/* A node's number in its name: cluster shape a 5-digit index from 0, uniform a number from 1. */
static void node_number(const struct jsgen_params *p, char *buf, size_t size, unsigned index)
{
    if (p->shape == JSGEN_UNIFORM)
        snprintf(buf, size, "%u", index + 1);
    else
        snprintf(buf, size, "%05u", index);
}

static void node_name(const struct jsgen_params *p, char *buf, size_t size, unsigned index)
{
    char num[16];
    node_number(p, num, sizeof num, index);
    snprintf(buf, size, "%s%s", p->node_prefix, num);
}

static void job_node_list(const struct gjob *j, char *buf, size_t size, const struct jsgen_params *p)
{
    /* a Slurm host list, one range per run of consecutive indices */
    size_t n = 0;
    unsigned sorted[MAX_NODES_PER_JOB];
    char first[16], last[16];
    memcpy(sorted, j->nodes, j->k * sizeof *sorted);
    for (unsigned x = 1; x < j->k; x++)
        for (unsigned y = x; y > 0 && sorted[y - 1] > sorted[y]; y--) {
            unsigned t = sorted[y];
            sorted[y] = sorted[y - 1];
            sorted[y - 1] = t;
        }
    if (j->k == 1) {
        node_name(p, buf, size, sorted[0]);
        return;
    }
    n += (size_t)snprintf(buf + n, size - n, "%s[", p->node_prefix);
    for (unsigned i = 0; i < j->k && n < size;) {
        unsigned e = i;
        while (e + 1 < j->k && sorted[e + 1] == sorted[e] + 1)
            e++;
        node_number(p, first, sizeof first, sorted[i]);
        node_number(p, last, sizeof last, sorted[e]);
        if (e == i)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "," : "", first);
        else
            n += (size_t)snprintf(buf + n, size - n, "%s%s-%s", i ? "," : "", first, last);
        i = e + 1;
    }
    if (n < size)
        snprintf(buf + n, size - n, "]");
}

/* ---- records, field by field from common/record_format.h ---------------------------------- */
typedef json_t *(*getter)(const char *name, const void *ctx);

static json_t *from_table(const struct js_record_field *t, getter get, const void *arg, const char *what)
{
    json_t *o = json_object();
    for (; t->name; t++) {
        json_t *v = get(t->name, arg);
        if (!v) {
            fprintf(stderr, "jsgen: the %s field \"%s\" of common/record_format.h is unknown to the generator: "
                            "update bench/gen/gen.c\n", what, t->name);
            exit(3);
        }
        int ok = json_is_null(v) ? t->nullable
               : t->type == JS_FIELD_STRING ? json_is_string(v)
               : t->type == JS_FIELD_INTEGER ? json_is_integer(v)
               : t->type == JS_FIELD_BOOLEAN ? json_is_boolean(v)
               : t->type == JS_FIELD_ARRAY ? json_is_array(v)
               : json_is_object(v);
        if (!ok) {
            fprintf(stderr, "jsgen: %s field \"%s\": the generator's value has the wrong type\n", what, t->name);
            exit(3);
        }
        json_object_set_new(o, t->name, v);
    }
    return o;
}

static json_t *str_or_null(const char *s) { return s && *s ? json_string(s) : json_null(); }

struct jobrec_arg { const struct ctx *c; const struct gjob *j; };

struct deprec_arg { const char *type; uint32_t job; };
static json_t *dep_field(const char *name, const void *arg)
{
    const struct deprec_arg *d = arg;
    if (!strcmp(name, "type")) return json_string(d->type);
    if (!strcmp(name, "job_id")) return json_integer(d->job);
    if (!strcmp(name, "array_task_id")) return json_null();
    if (!strcmp(name, "delay_minutes")) return json_null();
    return NULL;
}

static json_t *job_field(const char *name, const void *arg)
{
    const struct jobrec_arg *a = arg;
    const struct gjob *j = a->j;
    const struct jsgen_params *p = a->c->p;
    char buf[4096];
    if (!strcmp(name, "format")) return json_string(JS_JOB_RECORD_FORMAT);
    if (!strcmp(name, "version")) return json_integer(JS_RECORD_VERSION);
    if (!strcmp(name, "cluster")) return json_string(p->cluster);
    if (!strcmp(name, "job_id")) return json_integer(j->id);
    if (!strcmp(name, "array_job_id")) return j->array_task_id >= 0 ? json_integer(j->array_job_id) : json_null();
    if (!strcmp(name, "array_task_id")) return j->array_task_id >= 0 ? json_integer(j->array_task_id) : json_null();
    if (!strcmp(name, "name")) return json_string(j->name);
    if (!strcmp(name, "user")) return json_string(j->user_name);
    if (!strcmp(name, "uid")) return json_integer(j->uid);
    if (!strcmp(name, "group")) return json_string(j->user_name);
    if (!strcmp(name, "gid")) return json_integer(j->gid);
    if (!strcmp(name, "account")) { snprintf(buf, sizeof buf, "proj%02u", j->user % 17); return json_string(buf); }
    if (!strcmp(name, "partition")) return json_string(j->k > 16 ? "large" : "batch");
    if (!strcmp(name, "qos")) return json_string("normal");
    if (!strcmp(name, "submit_ns")) return json_integer(j->submit_ns);
    if (!strcmp(name, "eligible_ns")) return json_integer(j->submit_ns);
    if (!strcmp(name, "start_ns")) return json_integer(j->start_ns);
    if (!strcmp(name, "end_ns")) return json_integer(j->end_ns);
    if (!strcmp(name, "nodes")) return json_integer(j->k);
    if (!strcmp(name, "node_list")) { job_node_list(j, buf, sizeof buf, p); return json_string(buf); }
    if (!strcmp(name, "cpus")) return json_integer((json_int_t)j->k * CORES_PER_NODE);
    if (!strcmp(name, "tasks")) return json_integer((json_int_t)j->k * j->ppn);
    if (!strcmp(name, "dependency")) {
        if (!j->ndeps)
            return json_null();
        size_t n = 0;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", j->deps[0].type);
        for (int i = 0; i < j->ndeps && n < sizeof buf; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, ":%" PRIu32, j->deps[i].job);
        return json_string(buf);
    }
    if (!strcmp(name, "dependencies")) {
        json_t *arr = json_array();
        for (int i = 0; i < j->ndeps; i++) {
            struct deprec_arg d = { j->deps[i].type, j->deps[i].job };
            json_array_append_new(arr, from_table(js_dependency_fields, dep_field, &d, "dependency"));
        }
        return arr;
    }
    if (!strcmp(name, "dependency_any")) return json_false();
    if (!strcmp(name, "dependency_parse_error")) return json_false();
    if (!strcmp(name, "exit_code")) return json_integer(j->failed ? 1 : 0);
    if (!strcmp(name, "signal")) return json_integer(0);
    if (!strcmp(name, "state")) return json_string(j->failed ? "FAILED" : "COMPLETED");
    if (!strcmp(name, "final")) return json_true();
    if (!strcmp(name, "workflow")) return str_or_null(j->tag);
    if (!strcmp(name, "work_dir")) { snprintf(buf, sizeof buf, "/scratch/%s", j->user_name); return json_string(buf); }
    if (!strcmp(name, "batch_script")) return json_string(j->script);
    if (!strcmp(name, "submitter")) return json_null();
    if (!strcmp(name, "reason")) return json_null();
    if (!strcmp(name, "batch")) return json_true();
    if (!strcmp(name, "source")) return json_string("plugin");
    if (!strcmp(name, "writer_version")) return json_string(WRITER_VERSION);
    if (!strcmp(name, "written_ns")) return json_integer(j->end_ns);
    if (!strcmp(name, "truncated")) return json_false();
    return NULL;
}

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

struct taskrec_arg { long task_id; uint64_t pid; int exit_code, signal; };
static json_t *task_field(const char *name, const void *arg)
{
    const struct taskrec_arg *t = arg;
    if (!strcmp(name, "task_id")) return json_integer(t->task_id);
    if (!strcmp(name, "pid")) return json_integer((json_int_t)t->pid);
    if (!strcmp(name, "exit_code")) return t->signal ? json_null() : json_integer(t->exit_code);
    if (!strcmp(name, "signal")) return json_integer(t->signal);
    return NULL;
}

static json_t *step_field(const char *name, const void *arg)
{
    const struct steprec_arg *a = arg;
    const struct gjob *j = a->j;
    const struct jsgen_params *p = a->c->p;
    char buf[4096];
    int failed = j->failed && a->step_id == JS_STEP_ID_BATCH;
    if (!strcmp(name, "format")) return json_string(JS_STEP_RECORD_FORMAT);
    if (!strcmp(name, "version")) return json_integer(JS_RECORD_VERSION);
    if (!strcmp(name, "cluster")) return json_string(p->cluster);
    if (!strcmp(name, "job_id")) return json_integer(j->id);
    if (!strcmp(name, "step")) return json_string(js_step_name(a->step_id, buf, sizeof buf));
    if (!strcmp(name, "step_id")) return json_integer(a->step_id);
    if (!strcmp(name, "array_job_id")) return j->array_task_id >= 0 ? json_integer(j->array_job_id) : json_null();
    if (!strcmp(name, "array_task_id")) return j->array_task_id >= 0 ? json_integer(j->array_task_id) : json_null();
    if (!strcmp(name, "node")) return json_string(a->node);
    if (!strcmp(name, "node_index")) return json_integer(a->node_index);
    if (!strcmp(name, "nodes")) return json_integer(a->nodes);
    if (!strcmp(name, "node_list")) {
        if (a->nodes == 1)
            return json_string(a->node);
        job_node_list(j, buf, sizeof buf, p);
        return json_string(buf);
    }
    if (!strcmp(name, "cpus")) return json_integer(a->cpus);
    if (!strcmp(name, "tasks")) return json_integer(a->tasks);
    if (!strcmp(name, "local_tasks")) return json_integer(a->local_tasks);
    if (!strcmp(name, "uid")) return json_integer(j->uid);
    if (!strcmp(name, "gid")) return json_integer(j->gid);
    if (!strcmp(name, "user")) return json_string(j->user_name);
    if (!strcmp(name, "start_ns")) return json_integer(a->start_ns);
    if (!strcmp(name, "end_ns")) return json_integer(a->end_ns);
    if (!strcmp(name, "elapsed_ns")) return json_integer(a->end_ns - a->start_ns);
    if (!strcmp(name, "executable")) return json_string(a->exe);
    if (!strcmp(name, "argv")) {
        json_t *arr = json_array();
        for (int i = 0; a->argv[i]; i++)
            json_array_append_new(arr, json_string(a->argv[i]));
        return arr;
    }
    if (!strcmp(name, "work_dir")) { snprintf(buf, sizeof buf, "/scratch/%s", j->user_name); return json_string(buf); }
    if (!strcmp(name, "exit_code")) return json_integer(failed ? 1 : 0);
    if (!strcmp(name, "signal")) return json_integer(0);
    if (!strcmp(name, "state")) return json_string(failed ? "FAILED" : "COMPLETED");
    if (!strcmp(name, "task_list")) { /* cut to its bound as the plugin cuts it ("truncated") */
        json_t *arr = json_array();
        for (unsigned t = 0; t < a->local_tasks && t < JS_RECORD_MAX_TASKS; t++) {
            int killed = t + a->killed >= a->local_tasks;
            struct taskrec_arg ta = { (long)(a->node_index * a->local_tasks + t), a->pids[t], failed ? 1 : 0, killed ? 9 : 0 };
            json_array_append_new(arr, from_table(js_task_fields, task_field, &ta, "task"));
        }
        return arr;
    }
    if (!strcmp(name, "profiled")) return json_true();
    if (!strcmp(name, "profile_reason")) return json_string("on");
    if (!strcmp(name, "profiler")) return json_string("/usr/lib/jobscreen/libjobscreen-profiler.so");
    if (!strcmp(name, "profiler_version")) return json_string(PACKAGE_VERSION);
    if (!strcmp(name, "slice_seconds")) return json_integer(p->slice_s);
    if (!strcmp(name, "workflow")) return str_or_null(j->tag);
    if (!strcmp(name, "source")) return json_string("plugin");
    if (!strcmp(name, "writer_version")) return json_string(WRITER_VERSION);
    if (!strcmp(name, "written_ns")) return json_integer(a->end_ns + 1000000);
    if (!strcmp(name, "truncated")) return json_boolean(a->local_tasks > JS_RECORD_MAX_TASKS);
    return NULL;
}

static int write_record(struct ctx *c, int dirfd, const char *name, json_t *rec)
{
    char *text = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(rec);
    if (!text)
        abort();
    int r = write_at(c, dirfd, name, text, strlen(text), 0644, -1, -1);
    free(text);
    return r;
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
        case PF_KERNEL_IO: { /* the sum of the slices' (kernel_of_slice) */
            uint64_t kio[JS_KIO_COUNT];
            kernel_of_slice(tot, 1, pr->startup_rchar, kio);
            b_c(b, '{');
            for (int k = 0, kn = 0; k < JS_KIO_COUNT; k++) {
                b_key(b, kfield_names[k], &kn);
                b_u64(b, kio[k]);
            }
            b_c(b, '}');
            break;
        }
        case PF_RUNTIME: {
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
            break;
        }
        case PF_TOTALS: {
            int tn = 0;
            b_c(b, '{');
            for (int m = 0; m < JS_M_COUNT; m++) {
                b_key(b, js_profile_metrics[m].name, &tn);
                b_u64(b, tot[m]);
            }
            b_c(b, '}');
            break;
        }
        case PF_MPI_COLLECTIVES:
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
            break;
        case PF_MPI_SEGMENTS: put_segments(b, pr, tot, wall); break;
        case PF_SLICE_METRICS:
            b_c(b, '[');
            for (int m = 0; m < JS_SLICE_COLS; m++) {
                if (m)
                    b_c(b, ',');
                b_str(b, js_profile_slice_cols[m].name);
            }
            b_c(b, ']');
            break;
        case PF_SLICES:
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
            break;
        case PF_SLICES_TRUNCATED: b_s(b, "false"); break;
        case PF_FILES:
            b_c(b, '[');
            for (unsigned f = 0; f < pr->nfiles; f++) {
                if (f)
                    b_c(b, ',');
                put_file(b, &pr->files[f]);
            }
            b_c(b, ']');
            break;
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

static struct pfile *add_file(struct proc *pr, const char *path, const char *layer, int local)
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

static void file_read(struct pfile *f, uint64_t bytes, int64_t t0, int64_t t1)
{
    f->open_mode = "r";
    f->used_mode = "r";
    f->read_bytes = bytes;
    f->read_calls = bytes / (1 << 20) + 1;
    f->first_open_ns = t0;
    f->last_close_ns = t1;
}

static void file_write(struct pfile *f, uint64_t bytes, int64_t t0, int64_t t1)
{
    f->open_mode = "w";
    f->used_mode = "w";
    f->write_bytes = bytes;
    f->write_calls = bytes / (1 << 20) + 1;
    f->first_open_ns = t0;
    f->last_close_ns = t1;
}

/* ---- one job: steps, profiles, records ----------------------------------------------------- */
static int64_t slice_of(const struct ctx *c, int64_t ns) { return js_slice_of_ns(ns, (int32_t)c->p->slice_s); }

static void mark_busy(struct ctx *c, unsigned node, int64_t s0, int64_t s1)
{
    for (int64_t s = s0; s <= s1; s++) {
        int64_t i = s - c->first_slice;
        if (i < 0 || i >= c->nslices)
            continue;
        uint64_t bit = (uint64_t)node * (uint64_t)c->nslices + (uint64_t)i;
        if (!(c->busy[bit >> 3] & (1u << (bit & 7)))) {
            c->busy[bit >> 3] |= (uint8_t)(1u << (bit & 7));
            c->s->busy_node_slices++;
        }
    }
}

/* Fills the per-slice rows of one process of a numbered step. */
static void fill_rows(struct ctx *c, struct rng *r, const struct gjob *j, struct proc *pr, unsigned step, int last_step,
                      uint64_t in_bytes, uint64_t out_bytes, uint64_t *ckpt_bytes, unsigned *ckpt_bursts)
{
    const int64_t L = (int64_t)c->p->slice_s * NS;
    int mpi = pr->mpi_size > 1;
    double util = 0.6 + 0.4 * rnd(r);
    double p2p = mpi ? 0.03 + 0.15 * rnd(r) : 0, coll = mpi ? 0.01 + 0.08 * rnd(r) : 0;
    uint64_t msg = (uint64_t)rnd_log(r, 512, 1 << 20);
    unsigned period = (unsigned)rnd_int(r, 60, 450), phase = (unsigned)rnd_int(r, 10, 59);
    uint64_t burst = (uint64_t)(rnd_log(r, 2e8, 2e10) / (double)(pr->mpi_size > 0 ? pr->mpi_size : 1));
    double bw = rnd_log(r, 1e8, 2e9); /* bytes/s per process while writing */
    *ckpt_bytes = 0;
    *ckpt_bursts = 0;
    for (unsigned i = 0; i < pr->nrows; i++) {
        uint64_t *v = pr->rows[i];
        memset(v, 0, sizeof(uint64_t) * JS_M_COUNT);
        int64_t s0 = (pr->first_slice + i) * L, s1 = s0 + L;
        int64_t a = s0 > pr->start_ns ? s0 : pr->start_ns, e = s1 < pr->end_ns ? s1 : pr->end_ns;
        double f = e > a ? (double)(e - a) / (double)L : 0.001;
        double jit = 0.9 + 0.2 * rnd(r);
        double slice_ns = (double)L * f;
        v[JS_M_CPU_NS] = (uint64_t)(slice_ns * pr->threads * util * jit) + 1;
        v[JS_M_POSIX_META_CALLS] = rng_next(r) % 4;
        if (mpi) {
            uint64_t sends = (uint64_t)(f * rnd_log(r, 200, 5000));
            v[JS_M_MPI_SEND_CALLS] = sends;
            v[JS_M_MPI_SEND_BYTES] = sends * msg;
            v[JS_M_MPI_RECV_CALLS] = sends;
            v[JS_M_MPI_RECV_BYTES] = sends * msg;
            v[JS_M_MPI_P2P_NS] = (uint64_t)(slice_ns * p2p * jit);
            uint64_t colls = (uint64_t)(f * rnd_int(r, 10, 200));
            v[JS_M_MPI_COLL_CALLS] = colls;
            v[JS_M_MPI_COLL_BYTES] = colls * 64;
            v[JS_M_MPI_COLL_NS] = (uint64_t)(slice_ns * coll * jit);
        }
        if (j->kind == K_IO) {
            uint64_t calls = (uint64_t)(f * rnd_log(r, 1e3, 1e5));
            v[JS_M_STDIO_READ_CALLS] = calls;
            v[JS_M_STDIO_READ_BYTES] = calls * 4096;
            v[JS_M_STDIO_NS] = calls * 2000;
        }
        /* I/O bursts: checkpoints at a period, POSIX or MPI-IO */
        if (j->kind != K_SERIAL && j->kind != K_IO && i % period == phase && i + 1 < pr->nrows) {
            uint64_t bytes = (uint64_t)((double)burst * (0.8 + 0.4 * rnd(r)));
            uint64_t ns = (uint64_t)((double)bytes / bw * 1e9);
            if (ns > (uint64_t)(slice_ns * 0.9))
                ns = (uint64_t)(slice_ns * 0.9);
            if (j->kind == K_MPIIO) {
                v[JS_M_MPIIO_WRITE_CALLS] += bytes / (4 << 20) + 1;
                v[JS_M_MPIIO_COLL_CALLS] += bytes / (4 << 20) + 1;
                v[JS_M_MPIIO_WRITE_BYTES] += bytes;
                v[JS_M_LOWER_WRITE_BYTES] += bytes;
                v[JS_M_MPIIO_META_CALLS] += 2;
                v[JS_M_MPIIO_NS] += ns;
            } else {
                v[JS_M_POSIX_WRITE_CALLS] += bytes / (1 << 20) + 1;
                v[JS_M_POSIX_WRITE_BYTES] += bytes;
                v[JS_M_POSIX_OPEN_CALLS] += 1;
                v[JS_M_POSIX_META_CALLS] += 2;
                v[JS_M_POSIX_NS] += ns;
            }
            *ckpt_bytes += bytes;
            (*ckpt_bursts)++;
        }
        if (i == 0) {
            /* inputs and the node-local scratch file */
            v[JS_M_POSIX_OPEN_CALLS] += (uint64_t)j->nin + 2;
            v[JS_M_POSIX_READ_CALLS] += in_bytes / (1 << 20) + 1;
            v[JS_M_POSIX_READ_BYTES] += in_bytes + (1 << 20);
            v[JS_M_POSIX_WRITE_CALLS] += 1;
            v[JS_M_POSIX_WRITE_BYTES] += 1 << 20;
            v[JS_M_POSIX_NS] += in_bytes / 1000 + 1000000;
        }
        if (i + 1 == pr->nrows && out_bytes) {
            v[JS_M_POSIX_OPEN_CALLS] += 1;
            v[JS_M_POSIX_WRITE_CALLS] += out_bytes / (1 << 20) + 1;
            v[JS_M_POSIX_WRITE_BYTES] += out_bytes;
            v[JS_M_POSIX_NS] += out_bytes / 1000;
        }
    }
    (void)step;
    (void)last_step;
}

/* A job's directory and its profiles/, owned as the plugin leaves them: 0, or -1 with a message. */
static int open_job_dirs(struct ctx *c, const struct gjob *j, int *jfd, int *pfd)
{
    const struct jsgen_params *p = c->p;
    char dname[64];
    js_job_dir_name(dname, sizeof dname, j->id);
    *pfd = -1;
    if (mkdirat(c->spool_fd, dname, 0711) < 0 && errno != EEXIST) {
        fprintf(stderr, "jsgen: %s: %s\n", dname, strerror(errno));
        return *jfd = -1;
    }
    *jfd = openat(c->spool_fd, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (*jfd < 0 || fchmod(*jfd, 0711) < 0) {
        fprintf(stderr, "jsgen: %s: %s\n", dname, strerror(errno));
        return -1;
    }
    if (mkdirat(*jfd, JS_PROFILES_DIR_NAME, 0700) < 0 && errno != EEXIST) {
        fprintf(stderr, "jsgen: %s/profiles: %s\n", dname, strerror(errno));
        return -1;
    }
    /* profiles/ is the user's (the profiler writes there), or root's with the relay's bundles */
    long duid = p->chown_profiles && !p->bundle ? j->uid : -1;
    *pfd = openat(*jfd, JS_PROFILES_DIR_NAME, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (*pfd < 0 || fchmod(*pfd, 0700) < 0 || (duid >= 0 && fchown(*pfd, (uid_t)duid, (gid_t)j->gid) < 0)) {
        fprintf(stderr, "jsgen: %s/profiles: %s\n", dname, strerror(errno));
        return -1;
    }
    return 0;
}

/* The profiles of one step-node: one file each (<step>.<node>.<pid>.json), or bundles
 * (<step>.<node>.b<N>.json) of at most JS_PROFILE_BUNDLE_MAX, in c->b. */
struct pout {
    struct ctx *c;
    const struct gjob *j;
    int pfd;
    const char *step, *node;
    unsigned in_bundle, bundles;
};

static void pout_begin(struct pout *o, struct ctx *c, const struct gjob *j, int pfd, const char *step, const char *node)
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
    return write_at(o->c, o->pfd, name, o->c->b.p, o->c->b.n, 0600, uid, o->j->gid);
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

static int pout_flush(struct pout *o)
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
static int pout_add(struct pout *o, const struct proc *pr)
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
        return pout_flush(o);
    return 0;
}

static int pids_for(struct ctx *c, unsigned n)
{
    free(c->pids);
    c->pids = calloc(n ? n : 1, sizeof *c->pids);
    return c->pids ? 0 : -1;
}

static int write_job(struct ctx *c, struct gjob *j)
{
    const struct jsgen_params *p = c->p;
    struct rng r;
    rng_seed(&r, hash64(p->seed, j->id));
    char name[256];
    struct proc pr;
    memset(&pr, 0, sizeof pr);
    j->ppn = j->kind == K_SERIAL ? 1 : p->ppn;
    int jfd, pfd;
    if (open_job_dirs(c, j, &jfd, &pfd) < 0)
        goto fail;

    /* steps: the batch step on the first node over the whole job, then the numbered steps
     * one after another, each on all nodes of the job */
    const int64_t job_len = j->end_ns - j->start_ns;
    int64_t bounds[MAX_STEPS + 1];
    {
        double w[MAX_STEPS], sum = 0;
        for (unsigned s = 0; s < j->nsteps; s++)
            sum += (w[s] = 0.3 + rnd(&r));
        int64_t t = j->start_ns + 1 * NS, usable = job_len - 2 * NS;
        bounds[0] = t;
        double acc = 0;
        for (unsigned s = 0; s < j->nsteps; s++) {
            acc += w[s];
            bounds[s + 1] = j->start_ns + 1 * NS + (int64_t)((double)usable * acc / sum);
        }
    }
    unsigned ppn = j->ppn;
    uint64_t *pids = c->pids;
    struct pout po;
    size_t maxrows = 0;
    pr.end = "exit";
    pr.missing = "";
    pr.sys_divisor = 20;
    pr.startup_rchar = 4096;
    char exe[128], args[512], node[64];
    snprintf(exe, sizeof exe, "/opt/apps/%s/bin/%s", apps[j->app][0], apps[j->app][0]);
    int64_t slen = (int64_t)p->slice_s * NS;

    for (unsigned s = 0; s < j->nsteps; s++) {
        char step[16];
        snprintf(step, sizeof step, "%u", s);
        int64_t st = bounds[s] + 50000000, en = bounds[s + 1] - 50000000;
        if (en <= st)
            en = st + 1000000;
        int64_t fs = slice_of(c, st), ls = slice_of(c, en);
        size_t rows = (size_t)(ls - fs + 1);
        if (rows > maxrows) {
            free(pr.rows);
            pr.rows = malloc(rows * sizeof *pr.rows);
            if (!pr.rows)
                abort();
            maxrows = rows;
        }
        int last = s + 1 == j->nsteps;
        char inter_in[200], inter_out[200];
        snprintf(inter_in, sizeof inter_in, "/scratch/%s/job%" PRIu32 "/step%u.dat", j->user_name, j->id, s ? s - 1 : 0);
        snprintf(inter_out, sizeof inter_out, "/scratch/%s/job%" PRIu32 "/step%u.dat", j->user_name, j->id, s);
        uint64_t inter_bytes = (uint64_t)rnd_log(&r, 1e7, 1e9);
        for (unsigned ni = 0; ni < j->k; ni++) {
            node_name(p, node, sizeof node, j->nodes[ni]);
            pout_begin(&po, c, j, pfd, step, node);
            for (unsigned q = 0; q < ppn; q++) {
                memset(&pr.files, 0, sizeof pr.files[0]);
                pr.nfiles = 0;
                pr.step = step;
                pr.node = node;
                pr.task_id = (long)(ni * ppn + q);
                pr.pid = 1000 + hash64(hash64(j->id, s), ni * 4096 + q) % 4000000;
                pids[q] = pr.pid;
                pr.ppid = 900 + (hash64(j->id, ni) % 1000);
                pr.exe = exe;
                snprintf(args, sizeof args, "%s -i input.%u -o out.%u", apps[j->app][0], s, s);
                pr.args = args;
                pr.start_ns = st + q * 1000000;
                pr.end_ns = en;
                pr.mpi_size = (j->kind == K_MPI || j->kind == K_MPIIO) ? (long)(j->k * ppn) : -1;
                pr.mpi_rank = pr.mpi_size > 0 ? pr.task_id : -1;
                pr.threads = j->threads;
                pr.max_rss_kib = 100000 + hash64(pr.pid, 7) % 4000000;
                pr.first_slice = slice_of(c, pr.start_ns);
                pr.nrows = (unsigned)(slice_of(c, pr.end_ns) - pr.first_slice + 1);
                uint64_t nprocs = (uint64_t)j->k * ppn;
                uint64_t in_bytes = 0;
                int64_t t = pr.start_ns + 1000000;
                if (s == 0) {
                    for (int i = 0; i < j->nin; i++) {
                        struct pfile *f = add_file(&pr, j->in[i].path, "posix", 0);
                        uint64_t share = j->in[i].bytes / nprocs + 1;
                        file_read(f, share, t, t + 200000000);
                        in_bytes += share;
                        t += 1000000;
                    }
                } else {
                    struct pfile *f = add_file(&pr, inter_in, "posix", 0);
                    file_read(f, inter_bytes / nprocs + 1, t, t + 200000000);
                    in_bytes += inter_bytes / nprocs + 1;
                }
                if (j->ref >= 0) {
                    char ref[200];
                    snprintf(ref, sizeof ref, "/project/ref/dataset%02d.dat", j->ref);
                    struct pfile *f = add_file(&pr, ref, "posix", 0);
                    file_read(f, (uint64_t)1 << 26, t, t + 300000000);
                    in_bytes += (uint64_t)1 << 26;
                }
                {
                    char tmp[200];
                    snprintf(tmp, sizeof tmp, "/tmp/js.%" PRIu32 ".%" PRIu64, j->id, pr.pid);
                    struct pfile *f = add_file(&pr, tmp, "posix", 1);
                    f->open_mode = "rw";
                    f->used_mode = "rw";
                    f->write_calls = 1;
                    f->write_bytes = 1 << 20;
                    f->read_calls = 1;
                    f->read_bytes = 1 << 20;
                    f->first_open_ns = t;
                    f->last_close_ns = pr.end_ns - 1000000;
                }
                uint64_t out_bytes = 0;
                if (ni == 0 && q == 0) {
                    out_bytes = last ? j->out_bytes : inter_bytes;
                    struct pfile *f = add_file(&pr, last ? j->output : inter_out, "posix", 0);
                    int64_t w0 = pr.end_ns - 2 * NS > t ? pr.end_ns - 2 * NS : t;
                    file_write(f, out_bytes, w0, pr.end_ns - 100000000);
                }
                uint64_t ck_bytes;
                unsigned ck_bursts;
                fill_rows(c, &r, j, &pr, s, last, in_bytes, out_bytes, &ck_bytes, &ck_bursts);
                if (ck_bursts) {
                    char ck[200];
                    if (j->kind == K_MPIIO)
                        snprintf(ck, sizeof ck, "/scratch/%s/job%" PRIu32 "/ckpt.%u.h5", j->user_name, j->id, s);
                    else
                        snprintf(ck, sizeof ck, "/scratch/%s/job%" PRIu32 "/ckpt.%u.%ld", j->user_name, j->id, s, pr.task_id);
                    struct pfile *f = add_file(&pr, ck, j->kind == K_MPIIO ? "mpiio" : "posix", 0);
                    file_write(f, ck_bytes, pr.start_ns + slen, pr.end_ns - slen);
                    f->opens = ck_bursts;
                    if (j->kind == K_MPIIO)
                        f->lower_write = ck_bytes;
                }
                if (pout_add(&po, &pr) < 0)
                    goto fail;
            }
            if (pout_flush(&po) < 0)
                goto fail;
            c->s->slice_rows += (uint64_t)(slice_of(c, en) - slice_of(c, st) + 1);
            mark_busy(c, j->nodes[ni], slice_of(c, st), slice_of(c, en));
            const char *argv[] = { exe, "-i", "input", NULL };
            struct steprec_arg sa = { c, j, s, ni, j->k, ppn, j->k * ppn, ppn * j->threads, node, st, en, exe, argv, pids, 0 };
            js_step_record_name(name, sizeof name, s, node);
            if (write_record(c, jfd, name, from_table(js_step_record_fields, step_field, &sa, "step record")) < 0)
                goto fail;
            c->s->step_nodes++;
        }
        c->s->steps++;
    }

    /* the batch step: the job script (a shell) on the first node, active at start and end */
    {
        node_name(p, node, sizeof node, j->nodes[0]);
        memset(&pr.files, 0, sizeof pr.files[0]);
        pr.nfiles = 0;
        pr.step = "batch";
        pr.node = node;
        pr.task_id = 0;
        pr.pid = 1000 + hash64(j->id, 0xba7c4) % 4000000;
        pids[0] = pr.pid;
        pr.ppid = 900 + (hash64(j->id, 0) % 1000);
        pr.exe = "/usr/bin/bash";
        snprintf(args, sizeof args, "/bin/bash /var/spool/slurmd/job%" PRIu32 "/slurm_script", j->id);
        pr.args = args;
        pr.start_ns = j->start_ns + 10000000;
        pr.end_ns = j->end_ns - 10000000;
        pr.mpi_rank = pr.mpi_size = -1;
        pr.threads = 1;
        pr.max_rss_kib = 4000;
        /* two rows: the first and the last slice (a shell waiting on srun does nothing between) */
        int64_t fs = slice_of(c, pr.start_ns), ls = slice_of(c, pr.end_ns);
        uint64_t rows2[2][JS_M_COUNT];
        memset(rows2, 0, sizeof rows2);
        rows2[0][JS_M_CPU_NS] = 20000000;
        rows2[0][JS_M_STDIO_READ_CALLS] = 40;
        rows2[0][JS_M_STDIO_READ_BYTES] = 2048;
        rows2[0][JS_M_STDIO_OPEN_CALLS] = 2;
        rows2[1][JS_M_CPU_NS] = 5000000;
        rows2[1][JS_M_STDIO_WRITE_CALLS] = 3;
        rows2[1][JS_M_STDIO_WRITE_BYTES] = 120;
        if (fs == ls) {
            for (int m = 0; m < JS_M_COUNT; m++)
                rows2[0][m] += rows2[1][m];
        }
        struct pfile *f = add_file(&pr, j->script, "stdio", 0);
        file_read(f, 2048, pr.start_ns + 1000000, pr.start_ns + 2000000);
        int64_t ids[2] = { fs, ls };
        pr.first_slice = fs;
        pr.slice_ids = ids;
        pr.nrows = fs == ls ? 1 : 2;
        uint64_t(*saved)[JS_M_COUNT] = pr.rows;
        pr.rows = rows2;
        pout_begin(&po, c, j, pfd, "batch", node);
        int rc = pout_add(&po, &pr);
        pr.slice_ids = NULL;
        pr.rows = saved;
        if (rc < 0 || pout_flush(&po) < 0)
            goto fail;
        c->s->slice_rows += pr.nrows;
        const char *argv[] = { "/bin/bash", j->script, NULL };
        struct steprec_arg sa = { c, j, JS_STEP_ID_BATCH, 0, 1, 1, 1, 1, node, j->start_ns, j->end_ns,
                                  "/bin/bash", argv, pids, 0 };
        js_step_record_name(name, sizeof name, JS_STEP_ID_BATCH, node);
        if (write_record(c, jfd, name, from_table(js_step_record_fields, step_field, &sa, "step record")) < 0)
            goto fail;
        c->s->step_nodes++;
        c->s->steps++;
    }
    /* the job record last, as at a job's end */
    struct jobrec_arg ja = { c, j };
    if (write_record(c, jfd, JS_JOB_RECORD_NAME, from_table(js_job_record_fields, job_field, &ja, "job record")) < 0)
        goto fail;
    free(pr.rows);
    close(pfd);
    close(jfd);
    c->s->jobs++;
    c->s->sched_deps += (uint64_t)j->ndeps;
    {
        uint32_t seen[MAX_INPUTS];
        int ns = 0;
        for (int i = 0; i < j->nin; i++) {
            if (!j->in[i].writer)
                continue;
            int dup = 0;
            for (int k = 0; k < ns; k++)
                dup |= seen[k] == j->in[i].writer;
            if (!dup)
                seen[ns++] = j->in[i].writer;
        }
        c->s->file_links += (uint64_t)ns;
    }
    return 0;
fail:
    free(pr.rows);
    if (pfd >= 0)
        close(pfd);
    if (jfd >= 0)
        close(jfd);
    return -1;
}

/* ---- the uniform shape: every job alike, every value a function of its position (gen.h) ------ */
static double slow_factor(const struct jsgen_params *p, const char *node)
{
    for (unsigned i = 0; i < p->nslow; i++)
        if (!strcmp(p->slow[i].node, node))
            return p->slow[i].factor;
    return 1;
}

static int write_uniform_job(struct ctx *c, struct gjob *j, unsigned index, int64_t s0)
{
    const struct jsgen_params *p = c->p;
    const int64_t L = p->slice_s, t0 = s0 * L * NS, t1 = (s0 + (int64_t)p->slices) * L * NS - 1;
    const char *app = strrchr(p->exe, '/') ? strrchr(p->exe, '/') + 1 : p->exe;
    memset(j, 0, sizeof *j);
    j->id = p->job_id_base + index;
    j->k = p->spread ? 1 : p->nodes;
    for (unsigned n = 0; n < j->k; n++)
        j->nodes[n] = p->spread ? index % p->nodes : n;
    j->submit_ns = j->start_ns = t0;
    j->end_ns = t1;
    j->uid = p->uid >= 0 ? p->uid : p->uid_base;
    j->gid = p->gid >= 0 ? p->gid : j->uid;
    snprintf(j->user_name, sizeof j->user_name, "%s", p->user ? p->user : "synth000");
    j->kind = K_SERIAL;
    j->name = app;
    j->array_task_id = -1;
    j->ref = -1;
    j->nsteps = p->steps;
    j->ppn = p->ppn;
    j->threads = 1;
    snprintf(j->script, sizeof j->script, "/home/%s/jobs/%s.sh", j->user_name, app);

    int jfd, pfd;
    if (open_job_dirs(c, j, &jfd, &pfd) < 0)
        goto fail;
    struct proc pr;
    struct pout po;
    memset(&pr, 0, sizeof pr);
    pr.rows = calloc(p->slices, sizeof *pr.rows);
    if (!pr.rows)
        abort();
    char step[16], node[64], name[256];
    for (unsigned s = 0; s < p->steps; s++) {
        snprintf(step, sizeof step, "%u", s);
        for (unsigned ni = 0; ni < j->k; ni++) {
            node_name(p, node, sizeof node, j->nodes[ni]);
            uint64_t cpu = (uint64_t)llround((double)p->cpu_ns * slow_factor(p, node));
            pout_begin(&po, c, j, pfd, step, node);
            for (unsigned q = 0; q < p->ppn; q++) {
                int killed = q + p->killed >= p->ppn;
                pr.step = step;
                pr.node = node;
                pr.task_id = (long)(ni * p->ppn + q);
                pr.pid = 1000 + q;
                c->pids[q] = pr.pid;
                pr.ppid = 1;
                pr.exe = p->exe;
                pr.args = app;
                pr.start_ns = t0;
                pr.end_ns = t1;
                pr.end = killed ? "signal" : "exit";
                pr.exit_code = killed ? -1 : 0;
                pr.signal = killed ? 9 : 0;
                pr.missing = killed ? "CPU time after the kill" : "";
                pr.mpi_rank = pr.mpi_size = -1;
                pr.threads = 1;
                pr.max_rss_kib = 1024;
                pr.sys_divisor = 0;
                pr.startup_rchar = 10;
                pr.first_slice = s0;
                pr.nrows = p->slices;
                for (unsigned k = 0; k < p->slices; k++) {
                    memset(pr.rows[k], 0, sizeof pr.rows[k]);
                    pr.rows[k][JS_M_POSIX_WRITE_CALLS] = 1;
                    pr.rows[k][JS_M_POSIX_WRITE_BYTES] = 1000 + k;
                    pr.rows[k][JS_M_CPU_NS] = cpu;
                }
                pr.nfiles = 0;
                char path[256];
                for (unsigned f = 0; f < p->files; f++) {
                    snprintf(path, sizeof path, "/gen/%" PRIu32 "/%u/%s.%u.%u", j->id, s, node, q, f);
                    struct pfile *pf = add_file(&pr, path, "posix", 0);
                    file_write(pf, 100, t0 + NS, t0 + 2 * NS);
                    pf->write_calls = 1;
                    pf->mount = "/";
                    pf->fstype = "ext4";
                    pf->dev = pf->ino = 1;
                }
                struct pfile *in = add_file(&pr, "/gen/input", "posix", 0);
                file_read(in, 10, t0 + NS, t0 + 2 * NS);
                in->read_calls = 1;
                in->mount = "/";
                in->fstype = "nfs4";
                in->dev = in->ino = 1;
                if (pout_add(&po, &pr) < 0)
                    goto fail2;
            }
            if (pout_flush(&po) < 0)
                goto fail2;
            c->s->slice_rows += p->slices;
            const char *argv[] = { p->exe, NULL };
            struct steprec_arg sa = { c, j, s, ni, j->k, p->ppn, j->k * p->ppn, p->ppn, node, t0, t1, p->exe, argv,
                                      c->pids, p->killed };
            js_step_record_name(name, sizeof name, s, node);
            if (write_record(c, jfd, name, from_table(js_step_record_fields, step_field, &sa, "step record")) < 0)
                goto fail2;
            c->s->step_nodes++;
        }
        c->s->steps++;
    }
    /* the job record last, as at a job's end: an ingest running meanwhile takes none of it before */
    struct jobrec_arg ja = { c, j };
    if (write_record(c, jfd, JS_JOB_RECORD_NAME, from_table(js_job_record_fields, job_field, &ja, "job record")) < 0)
        goto fail2;
    free(pr.rows);
    close(pfd);
    close(jfd);
    c->s->jobs++;
    return 0;
fail2:
    free(pr.rows);
fail:
    if (pfd >= 0)
        close(pfd);
    if (jfd >= 0)
        close(jfd);
    return -1;
}

/* ---- scheduling ------------------------------------------------------------------------------ */
static const struct ctx *sort_ctx;
static int by_free(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    int64_t fx = sort_ctx->free_at[x], fy = sort_ctx->free_at[y];
    return fx < fy ? -1 : fx > fy ? 1 : (x > y) - (x < y);
}

/* Places a job of j->k nodes, ready at `ready`, lasting `dur`: 0, or -1 when it would start
 * after the period (the job is not generated). */
static int place(struct ctx *c, struct gjob *j, int64_t ready, int64_t dur)
{
    unsigned n = c->p->nodes;
    if (j->k > n)
        j->k = n;
    int64_t start = ready;
    if (j->k == 1) {
        unsigned best = 0;
        for (unsigned i = 1; i < n; i++)
            if (c->free_at[i] < c->free_at[best])
                best = i;
        j->nodes[0] = best;
        if (c->free_at[best] > start)
            start = c->free_at[best];
    } else {
        for (unsigned i = 0; i < n; i++)
            c->order[i] = i;
        sort_ctx = c;
        qsort(c->order, n, sizeof *c->order, by_free);
        for (unsigned i = 0; i < j->k; i++) {
            j->nodes[i] = c->order[i];
            if (c->free_at[c->order[i]] > start)
                start = c->free_at[c->order[i]];
        }
    }
    start += (int64_t)rnd_int(&c->r, 0, 20) * NS + (int64_t)rnd_int(&c->r, 0, 999) * 1000000;
    if (start >= c->win_end_ns)
        return -1;
    int64_t end = start + dur;
    if (end > c->win_end_ns)
        end = c->win_end_ns;
    if (end - start < 20 * NS)
        return -1;
    j->start_ns = start;
    j->end_ns = end;
    j->submit_ns = (start - (int64_t)rnd_log(&c->r, 5, 3600) * NS);
    if (j->submit_ns > ready && ready > 0)
        j->submit_ns = ready;
    j->submit_ns -= j->submit_ns % NS;
    for (unsigned i = 0; i < j->k; i++)
        c->free_at[j->nodes[i]] = end + (int64_t)rnd_int(&c->r, 5, 60) * NS;
    return 0;
}

static unsigned job_size(struct ctx *c)
{
    double x = rnd(&c->r);
    unsigned k = x < 0.45 ? 1 : x < 0.7 ? (unsigned)rnd_int(&c->r, 2, 4) : x < 0.9 ? (unsigned)rnd_int(&c->r, 8, 16)
                                                                         : (unsigned)rnd_int(&c->r, 32, 128);
    unsigned cap = c->p->nodes / 4 ? c->p->nodes / 4 : 1;
    if (k > cap)
        k = cap;
    if (k > MAX_NODES_PER_JOB)
        k = MAX_NODES_PER_JOB;
    return k;
}

static int64_t job_duration(struct ctx *c, double median_min)
{
    double m = rnd_lognormal(&c->r, median_min, 0.9) * c->p->duration_scale;
    double lo = 2.0 * (c->p->duration_scale < 1 ? c->p->duration_scale : 1), hi = 12 * 60;
    if (lo < 0.5)
        lo = 0.5;
    if (m < lo)
        m = lo;
    if (m > hi)
        m = hi;
    return (int64_t)(m * 60 * NS);
}

static void new_job(struct ctx *c, struct gjob *j, unsigned user, const char *tag, const char *name)
{
    memset(j, 0, sizeof *j);
    j->id = c->next_job;
    j->user = user;
    j->uid = c->p->uid >= 0 ? c->p->uid : c->p->uid_base + (long)user;
    j->gid = c->p->gid >= 0 ? c->p->gid : j->uid;
    char uname[32];
    if (c->p->user)
        snprintf(uname, sizeof uname, "%s", c->p->user);
    else
        snprintf(uname, sizeof uname, "synth%03u", user);
    memcpy(j->user_name, uname, sizeof uname);
    j->app = (unsigned)(rng_next(&c->r) % NAPPS);
    const char *kl = apps[j->app][1];
    j->kind = *kl == 'm' ? K_MPI : *kl == 'p' ? K_MPIIO : *kl == 'i' ? K_IO : K_SERIAL;
    j->name = name ? name : apps[j->app][0];
    snprintf(j->tag, sizeof j->tag, "%s", tag ? tag : "");
    j->array_task_id = -1;
    j->ref = rnd(&c->r) < 0.3 ? (int)(rng_next(&c->r) % 20) : -1;
    j->nsteps = (unsigned)rnd_int(&c->r, 1, MAX_STEPS);
    j->threads = 1u << rnd_int(&c->r, 0, 2);
    j->failed = rnd(&c->r) < 0.02;
    j->out_bytes = (uint64_t)rnd_log(&c->r, 1e6, 5e9);
    snprintf(j->script, sizeof j->script, "/home/%s/jobs/%s.sh", uname, j->name);
}

static void set_output(struct gjob *j, const char *wf)
{
    char out[sizeof j->output];
    snprintf(out, sizeof out, "/scratch/%s/%s/out.%" PRIu32 ".dat", j->user_name, wf, j->id);
    memcpy(j->output, out, sizeof out);
}

static void add_input(struct gjob *j, const struct gjob *from)
{
    if (j->nin >= MAX_INPUTS)
        return;
    memcpy(j->in[j->nin].path, from->output, sizeof j->in[j->nin].path);
    j->in[j->nin].bytes = from->out_bytes;
    j->in[j->nin].writer = from->id;
    j->nin++;
}

/* 0 written, 1 not generated (after the period, or the job limit reached), -1 write error */
static int emit(struct ctx *c, struct gjob *j, int64_t ready, int64_t dur)
{
    if (c->p->max_jobs && c->s->jobs >= c->p->max_jobs)
        return 1;
    if (place(c, j, ready, dur) < 0)
        return 1;
    c->next_job++;
    return write_job(c, j);
}

/* A job array of n 1-node tasks, then a gather job that depends on the whole array and reads
 * the outputs of (up to MAX_INPUTS of) the tasks. */
static int gen_array(struct ctx *c, unsigned user, const char *wf, unsigned n, const char *tag)
{
    struct gjob *tasks = calloc(n, sizeof *tasks), *arr = calloc(1, sizeof *arr);
    if (!tasks || !arr)
        abort();
    uint32_t array_id = c->next_job;
    unsigned placed = 0;
    int64_t ready = 0;
    int rc = 0;
    for (unsigned i = 0; i < n; i++) {
        struct gjob *j = &tasks[i];
        new_job(c, j, user, tag, "scan");
        j->k = 1;
        j->kind = K_SERIAL;
        j->nsteps = 1;
        j->array_job_id = array_id;
        j->array_task_id = i;
        set_output(j, wf);
        if ((rc = emit(c, j, 0, job_duration(c, 10))) != 0)
            break;
        if (j->end_ns > ready)
            ready = j->end_ns;
        placed++;
    }
    if (placed == n) {
        new_job(c, arr, user, tag, "gather");
        arr->k = 1;
        arr->ndeps = 1;
        arr->deps[0].type = "afterok";
        arr->deps[0].job = array_id;
        for (unsigned i = 0; i < n; i++)
            add_input(arr, &tasks[i]);
        set_output(arr, wf);
        rc = emit(c, arr, ready + 2 * NS, job_duration(c, 5));
    }
    free(tasks);
    free(arr);
    return rc;
}

/* One workflow: -1 on a write error, 1 when the job limit is reached, else 0 (also when
 * nothing of it fitted into the period). */
static int workflow(struct ctx *c)
{
    static struct gjob jobs[2][1]; /* previous and current */
    unsigned user = (unsigned)(rng_next(&c->r) % c->p->users);
    double x = rnd(&c->r);
    char wf[48], tagbuf[48];
    uint64_t wid = c->s->workflows++;
    snprintf(wf, sizeof wf, "wf%05" PRIu64, wid);
    int rc = 0;
    if (x < 0.40) {
        /* a single job */
        struct gjob *j = &jobs[0][0];
        new_job(c, j, user, NULL, NULL);
        j->k = job_size(c);
        set_output(j, wf);
        c->s->singles++;
        rc = emit(c, j, 0, job_duration(c, 30));
    } else if (x < 0.65 || x >= 0.80) {
        /* a chain: with scheduler dependencies (afterok), or an engine's pipeline that Slurm
         * does not see (file edges only); half of the chains carry a workflow tag */
        int engine = x >= 0.80;
        unsigned n = (unsigned)rnd_int(&c->r, 2, engine ? 8 : 6);
        const char *tag = NULL;
        if (!engine && rnd(&c->r) < 0.5) {
            snprintf(tagbuf, sizeof tagbuf, "%s", wf);
            tag = tagbuf;
        }
        engine ? c->s->pipelines++ : c->s->chains++;
        struct gjob *prev = NULL;
        for (unsigned i = 0; i < n && rc == 0; i++) {
            struct gjob *j = &jobs[i & 1][0];
            static const char *const names[] = { "prepare", "simulate", "analyse", "plot", "archive", "report", "merge", "filter" };
            new_job(c, j, user, tag, names[i % 8]);
            j->k = engine ? 1 : job_size(c);
            set_output(j, wf);
            int64_t ready = 0;
            if (prev) {
                add_input(j, prev);
                if (!engine) {
                    j->ndeps = 1;
                    j->deps[0].type = "afterok";
                    j->deps[0].job = prev->id;
                }
                ready = prev->end_ns + (int64_t)rnd_int(&c->r, 1, engine ? 60 : 5) * NS;
            }
            if ((rc = emit(c, j, ready, job_duration(c, engine ? 15 : 30))) != 0)
                break;
            prev = j;
        }
    } else {
        c->s->arrays++;
        rc = gen_array(c, user, wf, (unsigned)rnd_int(&c->r, 4, 32), NULL);
    }
    if (rc < 0)
        return -1;
    return c->p->max_jobs && c->s->jobs >= c->p->max_jobs ? 1 : 0;
}

/* ---- driver -------------------------------------------------------------------------------- */
void jsgen_defaults(struct jsgen_params *p, enum jsgen_shape shape)
{
    memset(p, 0, sizeof *p);
    p->shape = shape;
    p->out = "spool";
    p->cluster = shape == JSGEN_UNIFORM ? "gen" : "synth";
    p->node_prefix = shape == JSGEN_UNIFORM ? "gen" : "node";
    p->nodes = shape == JSGEN_UNIFORM ? 1 : 100;
    p->hours = 1;
    p->start_s = shape == JSGEN_UNIFORM ? 0 : 1800000000; /* 2027-01-15T08:00:00Z */
    p->slice_s = JS_SLICE_DEFAULT_SECONDS;
    p->ppn = 1;
    p->users = 50;
    p->seed = 1;
    p->job_id_base = 1000;
    p->duration_scale = 1;
    p->uid = -1;
    p->uid_base = 30000;
    p->gid = -1;
    p->chown_profiles = geteuid() == 0;
    p->jobs = 1;
    p->steps = 1;
    p->slices = 1;
    p->cpu_ns = 1000000;
    p->exe = "/gen/app";
}

static int run_uniform(struct ctx *c)
{
    const struct jsgen_params *p = c->p;
    if (p->jobs == 0 || p->steps == 0 || p->slices == 0 || p->files > JSGEN_MAX_FILES || p->killed > p->ppn ||
        (!p->spread && p->nodes > MAX_NODES_PER_JOB) || !*p->exe) {
        fprintf(stderr, "jsgen: uniform: jobs, steps and slices must be positive, files at most %d, killed at most "
                        "ppn, nodes at most %d (unless spread), and exe not empty\n", JSGEN_MAX_FILES, MAX_NODES_PER_JOB);
        return -1;
    }
    int64_t L = (int64_t)p->slice_s;
    int64_t start = p->start_s ? p->start_s : (int64_t)time(NULL) - ((int64_t)p->slices + 10) * L;
    int64_t s0 = js_slice_of_ns(start * NS, (int32_t)L);
    c->s->node_slices = (uint64_t)p->nodes * p->slices;
    struct gjob *j = malloc(sizeof *j);
    if (!j)
        abort();
    int rc = 0;
    for (unsigned i = 0; i < p->jobs && rc == 0; i++)
        rc = write_uniform_job(c, j, i, s0);
    free(j);
    return rc;
}

int jsgen_run(const struct jsgen_params *p, struct jsgen_summary *s)
{
    struct ctx c;
    memset(&c, 0, sizeof c);
    memset(s, 0, sizeof *s);
    c.p = p;
    c.s = s;
    if (p->nodes == 0 || p->ppn == 0 || p->slice_s == 0 ||
        (p->shape == JSGEN_CLUSTER && (p->hours <= 0 || p->ppn > 4096 || p->users == 0))) {
        fprintf(stderr, "jsgen: nodes, ppn and slice must be positive (and for a cluster hours and users; ppn at most 4096)\n");
        return -1;
    }
    if (mkdir(p->out, 0711) < 0 && errno != EEXIST) {
        fprintf(stderr, "jsgen: %s: %s\n", p->out, strerror(errno));
        return -1;
    }
    c.spool_fd = open(p->out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (c.spool_fd < 0) {
        fprintf(stderr, "jsgen: %s: %s\n", p->out, strerror(errno));
        return -1;
    }
    if (pids_for(&c, p->ppn) < 0)
        abort();
    int rc = 0;
    if (p->shape == JSGEN_UNIFORM) {
        rc = run_uniform(&c);
        goto out;
    }
    rng_seed(&c.r, p->seed);
    c.next_job = p->job_id_base;
    int64_t L = (int64_t)p->slice_s;
    c.win_start_ns = (p->start_s - p->start_s % L) * NS;
    c.win_end_ns = c.win_start_ns + (int64_t)(p->hours * 3600) * NS;
    c.first_slice = slice_of(&c, c.win_start_ns);
    c.nslices = slice_of(&c, c.win_end_ns - 1) - c.first_slice + 1;
    s->node_slices = (uint64_t)p->nodes * (uint64_t)c.nslices;
    c.free_at = calloc(p->nodes, sizeof *c.free_at);
    c.order = calloc(p->nodes, sizeof *c.order);
    c.busy = calloc(s->node_slices / 8 + 1, 1);
    if (!c.free_at || !c.order || !c.busy)
        abort();
    for (unsigned i = 0; i < p->nodes; i++)
        c.free_at[i] = c.win_start_ns + (int64_t)rnd_int(&c.r, 0, 300) * NS;
    if (p->big_array > 0) {
        /* first, one tagged workflow of a big job array and its gather job (for the API) */
        c.s->workflows++;
        c.s->arrays++;
        if (gen_array(&c, 0, "bigarray", p->big_array, "bigarray") < 0)
            rc = -1;
    }
    for (; rc == 0;) {
        int64_t min = c.free_at[0];
        for (unsigned i = 1; i < p->nodes; i++)
            if (c.free_at[i] < min)
                min = c.free_at[i];
        if (min >= c.win_end_ns - 20 * NS)
            break;
        int w = workflow(&c);
        if (w < 0) {
            rc = -1;
            break;
        }
        if (w > 0)
            break;
        if (s->workflows > 100000000)
            break;
    }
out:
    close(c.spool_fd);
    free(c.free_at);
    free(c.order);
    free(c.busy);
    free(c.pids);
    free(c.b.p);
    js_fold_free(&c.fold);
    js_cols_free(c.cols);
    free(c.pb.p);
    return rc;
}

void jsgen_print_summary(FILE *f, const struct jsgen_params *p, const struct jsgen_summary *s)
{
    if (p->shape == JSGEN_UNIFORM)
        fprintf(f, "shape: uniform\nnodes: %u\nslices: %u\nslice_seconds: %u\nppn: %u\n", p->nodes, p->slices, p->slice_s,
                p->ppn);
    else
        fprintf(f, "shape: cluster\nnodes: %u\nhours: %g\nslice_seconds: %u\nppn: %u\nseed: %" PRIu64 "\n", p->nodes,
                p->hours, p->slice_s, p->ppn, p->seed);
    fprintf(f, "jobs: %" PRIu64 "\nworkflows: %" PRIu64 "\nsingles: %" PRIu64 "\nchains: %" PRIu64 "\npipelines: %" PRIu64
               "\narrays: %" PRIu64 "\n",
            s->jobs, s->workflows, s->singles, s->chains, s->pipelines, s->arrays);
    fprintf(f, "steps: %" PRIu64 "\nstep_nodes: %" PRIu64 "\nprofiles: %" PRIu64 "\nprofile_rows: %" PRIu64
               "\nslice_rows: %" PRIu64 "\n",
            s->steps, s->step_nodes, s->profiles, s->profile_rows, s->slice_rows);
    fprintf(f, "node_slices: %" PRIu64 "\nbusy_node_slices: %" PRIu64 "\nfile_entries: %" PRIu64
               "\nsched_deps: %" PRIu64 "\nfile_links: %" PRIu64 "\nbytes: %" PRIu64 "\n",
            s->node_slices, s->busy_node_slices, s->file_entries, s->sched_deps, s->file_links, s->bytes);
}
