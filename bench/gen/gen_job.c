/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsgen: one job of the cluster shape: its numbered steps on all its nodes, the batch step,
 * their profiles and records, the job record last. */
#include "config.h"

#include "gen_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the applications of the job mix (gen.c draws one per job) */
const char *const jsgen_apps[NAPPS][2] = {
    /* name, kind letter */
    { "lammps", "m" }, { "gromacs", "m" }, { "wrf", "p" }, { "cp2k", "m" }, { "openfoam", "p" },
    { "bwa", "i" }, { "samtools", "i" }, { "python3", "s" }, { "Rscript", "s" }, { "nemo", "p" },
};

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

/* What the steps of a job being written share: its random numbers, the process being
 * written (its rows kept from step to step), its directories. */
struct wjob {
    struct ctx *c;
    struct gjob *j;
    struct rng r;
    struct proc pr;
    size_t maxrows;
    int jfd, pfd;
    char exe[128], args[512], node[64];
};

/* A numbered step: its time, and the intermediate file it reads (from the step before) and writes. */
struct wstep {
    unsigned s;
    int last;
    int64_t st, en;
    char step[16], inter_in[200], inter_out[200];
    uint64_t inter_bytes;
};

/* The steps one after another: bounds[s] to bounds[s + 1], 1 s after the job's start to 1 s
 * before its end, of random weights. */
static void step_bounds(struct rng *r, const struct gjob *j, int64_t bounds[MAX_STEPS + 1])
{
    const int64_t job_len = j->end_ns - j->start_ns;
    double w[MAX_STEPS], sum = 0;
    for (unsigned s = 0; s < j->nsteps; s++)
        sum += (w[s] = 0.3 + rnd(r));
    int64_t t = j->start_ns + 1 * NS, usable = job_len - 2 * NS;
    bounds[0] = t;
    double acc = 0;
    for (unsigned s = 0; s < j->nsteps; s++) {
        acc += w[s];
        bounds[s + 1] = j->start_ns + 1 * NS + (int64_t)((double)usable * acc / sum);
    }
}

/* Process q of node ni of a numbered step: who it is, when it runs. */
static void proc_identity(struct wjob *w, const struct wstep *ws, unsigned ni, unsigned q)
{
    struct ctx *c = w->c;
    const struct gjob *j = w->j;
    struct proc *pr = &w->pr;
    unsigned ppn = j->ppn;
    memset(&pr->files, 0, sizeof pr->files[0]);
    pr->nfiles = 0;
    pr->step = ws->step;
    pr->node = w->node;
    pr->task_id = (long)(ni * ppn + q);
    pr->pid = 1000 + hash64(hash64(j->id, ws->s), ni * 4096 + q) % 4000000;
    c->pids[q] = pr->pid;
    pr->ppid = 900 + (hash64(j->id, ni) % 1000);
    pr->exe = w->exe;
    snprintf(w->args, sizeof w->args, "%s -i input.%u -o out.%u", jsgen_apps[j->app][0], ws->s, ws->s);
    pr->args = w->args;
    pr->start_ns = ws->st + q * 1000000;
    pr->end_ns = ws->en;
    pr->mpi_size = (j->kind == K_MPI || j->kind == K_MPIIO) ? (long)(j->k * ppn) : -1;
    pr->mpi_rank = pr->mpi_size > 0 ? pr->task_id : -1;
    pr->threads = j->threads;
    pr->max_rss_kib = 100000 + hash64(pr->pid, 7) % 4000000;
    pr->first_slice = slice_of(c, pr->start_ns);
    pr->nrows = (unsigned)(slice_of(c, pr->end_ns) - pr->first_slice + 1);
}

/* Its files: the job's inputs (step 0) or the step before's output, the reference data set, a
 * node-local scratch file and (the first process of the step) the step's output. */
static void proc_files(struct wjob *w, const struct wstep *ws, unsigned ni, unsigned q, uint64_t *in_bytes,
                       uint64_t *out_bytes)
{
    const struct gjob *j = w->j;
    struct proc *pr = &w->pr;
    uint64_t nprocs = (uint64_t)j->k * j->ppn;
    int64_t t = pr->start_ns + 1000000;
    *in_bytes = 0;
    if (ws->s == 0) {
        for (int i = 0; i < j->nin; i++) {
            struct pfile *f = gen_add_file(pr, j->in[i].path, "posix", 0);
            uint64_t share = j->in[i].bytes / nprocs + 1;
            gen_file_read(f, share, t, t + 200000000);
            *in_bytes += share;
            t += 1000000;
        }
    } else {
        struct pfile *f = gen_add_file(pr, ws->inter_in, "posix", 0);
        gen_file_read(f, ws->inter_bytes / nprocs + 1, t, t + 200000000);
        *in_bytes += ws->inter_bytes / nprocs + 1;
    }
    if (j->ref >= 0) {
        char ref[200];
        snprintf(ref, sizeof ref, "/project/ref/dataset%02d.dat", j->ref);
        struct pfile *f = gen_add_file(pr, ref, "posix", 0);
        gen_file_read(f, (uint64_t)1 << 26, t, t + 300000000);
        *in_bytes += (uint64_t)1 << 26;
    }
    if (!w->c->p->shared_files) { /* its own scratch file (N-N) */
        char tmp[200];
        snprintf(tmp, sizeof tmp, "/tmp/js.%" PRIu32 ".%" PRIu64, j->id, pr->pid);
        struct pfile *f = gen_add_file(pr, tmp, "posix", 1);
        f->open_mode = "rw";
        f->used_mode = "rw";
        f->write_calls = 1;
        f->write_bytes = 1 << 20;
        f->read_calls = 1;
        f->read_bytes = 1 << 20;
        f->first_open_ns = t;
        f->last_close_ns = pr->end_ns - 1000000;
    }
    *out_bytes = 0;
    if (ni == 0 && q == 0) {
        *out_bytes = ws->last ? j->out_bytes : ws->inter_bytes;
        struct pfile *f = gen_add_file(pr, ws->last ? j->output : ws->inter_out, "posix", 0);
        int64_t w0 = pr->end_ns - 2 * NS > t ? pr->end_ns - 2 * NS : t;
        gen_file_write(f, *out_bytes, w0, pr->end_ns - 100000000);
    }
}

/* Its slices, and the checkpoint file its bursts wrote. */
static void proc_rows(struct wjob *w, const struct wstep *ws, uint64_t in_bytes, uint64_t out_bytes)
{
    const struct gjob *j = w->j;
    struct proc *pr = &w->pr;
    int64_t slen = (int64_t)w->c->p->slice_s * NS;
    uint64_t ck_bytes;
    unsigned ck_bursts;
    fill_rows(w->c, &w->r, j, pr, ws->s, ws->last, in_bytes, out_bytes, &ck_bytes, &ck_bursts);
    if (!ck_bursts)
        return;
    char ck[200];
    if (j->kind == K_MPIIO || w->c->p->shared_files)
        snprintf(ck, sizeof ck, "/scratch/%s/job%" PRIu32 "/ckpt.%u.h5", j->user_name, j->id, ws->s);
    else
        snprintf(ck, sizeof ck, "/scratch/%s/job%" PRIu32 "/ckpt.%u.%ld", j->user_name, j->id, ws->s, pr->task_id);
    struct pfile *f = gen_add_file(pr, ck, j->kind == K_MPIIO ? "mpiio" : "posix", 0);
    gen_file_write(f, ck_bytes, pr->start_ns + slen, pr->end_ns - slen);
    f->opens = ck_bursts;
    if (j->kind == K_MPIIO)
        f->lower_write = ck_bytes;
}

/* A numbered step on node ni: its processes' profiles, then its step record. */
static int write_step_node(struct wjob *w, const struct wstep *ws, unsigned ni)
{
    struct ctx *c = w->c;
    struct gjob *j = w->j;
    unsigned ppn = j->ppn;
    struct pout po;
    gen_node_name(c->p, w->node, sizeof w->node, j->nodes[ni]);
    gen_pout_begin(&po, c, j, w->pfd, ws->step, w->node);
    for (unsigned q = 0; q < ppn; q++) {
        uint64_t in_bytes, out_bytes;
        proc_identity(w, ws, ni, q);
        proc_files(w, ws, ni, q, &in_bytes, &out_bytes);
        proc_rows(w, ws, in_bytes, out_bytes);
        if (gen_pout_add(&po, &w->pr) < 0)
            return -1;
    }
    if (gen_pout_flush(&po) < 0)
        return -1;
    c->s->slice_rows += (uint64_t)(slice_of(c, ws->en) - slice_of(c, ws->st) + 1);
    mark_busy(c, j->nodes[ni], slice_of(c, ws->st), slice_of(c, ws->en));
    const char *argv[] = { w->exe, "-i", "input", NULL };
    struct steprec_arg sa = { c, j, ws->s, ni, j->k, ppn, j->k * ppn, ppn * j->threads, w->node, ws->st, ws->en, w->exe,
                              argv, c->pids, 0 };
    if (gen_write_step_record(c, w->jfd, &sa) < 0)
        return -1;
    c->s->step_nodes++;
    return 0;
}

/* Numbered step s, between bounds[s] and bounds[s + 1], on every node of the job. */
static int write_step(struct wjob *w, unsigned s, const int64_t *bounds)
{
    struct ctx *c = w->c;
    const struct gjob *j = w->j;
    struct wstep ws;
    ws.s = s;
    snprintf(ws.step, sizeof ws.step, "%u", s);
    ws.st = bounds[s] + 50000000;
    ws.en = bounds[s + 1] - 50000000;
    if (ws.en <= ws.st)
        ws.en = ws.st + 1000000;
    int64_t fs = slice_of(c, ws.st), ls = slice_of(c, ws.en);
    size_t rows = (size_t)(ls - fs + 1);
    if (rows > w->maxrows) {
        free(w->pr.rows);
        w->pr.rows = malloc(rows * sizeof *w->pr.rows);
        if (!w->pr.rows)
            abort();
        w->maxrows = rows;
    }
    ws.last = s + 1 == j->nsteps;
    snprintf(ws.inter_in, sizeof ws.inter_in, "/scratch/%s/job%" PRIu32 "/step%u.dat", j->user_name, j->id, s ? s - 1 : 0);
    snprintf(ws.inter_out, sizeof ws.inter_out, "/scratch/%s/job%" PRIu32 "/step%u.dat", j->user_name, j->id, s);
    ws.inter_bytes = (uint64_t)rnd_log(&w->r, 1e7, 1e9);
    for (unsigned ni = 0; ni < j->k; ni++)
        if (write_step_node(w, &ws, ni) < 0)
            return -1;
    c->s->steps++;
    return 0;
}

/* The batch step: the job script (a shell) on the first node, active at start and end. */
static int write_batch(struct wjob *w)
{
    struct ctx *c = w->c;
    struct gjob *j = w->j;
    struct proc *pr = &w->pr;
    struct pout po;
    gen_node_name(c->p, w->node, sizeof w->node, j->nodes[0]);
    memset(&pr->files, 0, sizeof pr->files[0]);
    pr->nfiles = 0;
    pr->step = "batch";
    pr->node = w->node;
    pr->task_id = 0;
    pr->pid = 1000 + hash64(j->id, 0xba7c4) % 4000000;
    c->pids[0] = pr->pid;
    pr->ppid = 900 + (hash64(j->id, 0) % 1000);
    pr->exe = "/usr/bin/bash";
    snprintf(w->args, sizeof w->args, "/bin/bash /var/spool/slurmd/job%" PRIu32 "/slurm_script", j->id);
    pr->args = w->args;
    pr->start_ns = j->start_ns + 10000000;
    pr->end_ns = j->end_ns - 10000000;
    pr->mpi_rank = pr->mpi_size = -1;
    pr->threads = 1;
    pr->max_rss_kib = 4000;
    /* two rows: the first and the last slice (a shell waiting on srun does nothing between) */
    int64_t fs = slice_of(c, pr->start_ns), ls = slice_of(c, pr->end_ns);
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
    struct pfile *f = gen_add_file(pr, j->script, "stdio", 0);
    gen_file_read(f, 2048, pr->start_ns + 1000000, pr->start_ns + 2000000);
    int64_t ids[2] = { fs, ls };
    pr->first_slice = fs;
    pr->slice_ids = ids;
    pr->nrows = fs == ls ? 1 : 2;
    uint64_t(*saved)[JS_M_COUNT] = pr->rows;
    pr->rows = rows2;
    gen_pout_begin(&po, c, j, w->pfd, "batch", w->node);
    int rc = gen_pout_add(&po, pr);
    pr->slice_ids = NULL;
    pr->rows = saved;
    if (rc < 0 || gen_pout_flush(&po) < 0)
        return -1;
    c->s->slice_rows += pr->nrows;
    const char *argv[] = { "/bin/bash", j->script, NULL };
    struct steprec_arg sa = { c, j, JS_STEP_ID_BATCH, 0, 1, 1, 1, 1, w->node, j->start_ns, j->end_ns,
                              "/bin/bash", argv, c->pids, 0 };
    if (gen_write_step_record(c, w->jfd, &sa) < 0)
        return -1;
    c->s->step_nodes++;
    c->s->steps++;
    return 0;
}

/* The jobs whose outputs the job reads: the file edges the ingest should derive. */
static uint64_t file_links(const struct gjob *j)
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
    return (uint64_t)ns;
}

int gen_write_job(struct ctx *c, struct gjob *j)
{
    struct wjob *w = calloc(1, sizeof *w);
    if (!w)
        abort();
    w->c = c;
    w->j = j;
    rng_seed(&w->r, hash64(c->p->seed, j->id));
    j->ppn = j->kind == K_SERIAL ? 1 : c->p->ppn;
    int rc = -1;
    if (gen_open_job_dirs(c, j, &w->jfd, &w->pfd) < 0)
        goto out;
    /* steps: the batch step on the first node over the whole job, then the numbered steps
     * one after another, each on all nodes of the job */
    int64_t bounds[MAX_STEPS + 1];
    step_bounds(&w->r, j, bounds);
    w->pr.end = "exit";
    w->pr.missing = "";
    w->pr.sys_divisor = 20;
    w->pr.startup_rchar = 4096;
    snprintf(w->exe, sizeof w->exe, "/opt/apps/%s/bin/%s", jsgen_apps[j->app][0], jsgen_apps[j->app][0]);
    for (unsigned s = 0; s < j->nsteps; s++)
        if (write_step(w, s, bounds) < 0)
            goto out;
    if (write_batch(w) < 0)
        goto out;
    /* the job record last, as at a job's end */
    if (gen_write_job_record(c, w->jfd, j) < 0)
        goto out;
    c->s->jobs++;
    c->s->sched_deps += (uint64_t)j->ndeps;
    c->s->file_links += file_links(j);
    rc = 0;
out:
    free(w->pr.rows);
    if (w->pfd >= 0)
        close(w->pfd);
    if (w->jfd >= 0)
        close(w->jfd);
    free(w);
    return rc;
}
