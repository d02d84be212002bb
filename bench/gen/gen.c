/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsgen: synthetic spools, of a cluster or uniform.  See gen.h and docs/benchmarks.md.
 * Here the job mix, the scheduling and the driver; gen_internal.h names the other rooms. */
#include "config.h"

#include "gen_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the job mix ------------------------------------------------------------------------- */
static int pids_for(struct ctx *c, unsigned n)
{
    free(c->pids);
    c->pids = calloc(n ? n : 1, sizeof *c->pids);
    return c->pids ? 0 : -1;
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
    const char *kl = jsgen_apps[j->app][1];
    j->kind = *kl == 'm' ? K_MPI : *kl == 'p' ? K_MPIIO : *kl == 'i' ? K_IO : K_SERIAL;
    j->name = name ? name : jsgen_apps[j->app][0];
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
    return gen_write_job(c, j);
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
        rc = gen_run_uniform(&c);
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
