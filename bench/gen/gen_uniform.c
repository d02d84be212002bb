/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsgen: the uniform shape: every job alike, every value a function of its position (gen.h). */
#include "config.h"

#include "gen_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double slow_factor(const struct jsgen_params *p, const char *node)
{
    for (unsigned i = 0; i < p->nslow; i++)
        if (!strcmp(p->slow[i].node, node))
            return p->slow[i].factor;
    return 1;
}

/* Job index of the uniform shape, over slices s0 .. s0 + SLICES - 1. */
static void uniform_job(const struct jsgen_params *p, struct gjob *j, unsigned index, int64_t t0, int64_t t1,
                        const char *app)
{
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
}

/* Process q of step s on node ni: a write a slice, FILES files written, /gen/input read. */
static void uniform_proc(struct ctx *c, const struct gjob *j, struct proc *pr, const char *step, const char *node,
                         unsigned ni, unsigned q, int64_t s0, uint64_t cpu, const char *app)
{
    const struct jsgen_params *p = c->p;
    const int64_t t0 = j->start_ns;
    int killed = q + p->killed >= p->ppn;
    pr->step = step;
    pr->node = node;
    pr->task_id = (long)(ni * p->ppn + q);
    pr->pid = 1000 + q;
    c->pids[q] = pr->pid;
    pr->ppid = 1;
    pr->exe = p->exe;
    pr->args = app;
    pr->start_ns = t0;
    pr->end_ns = j->end_ns;
    pr->end = killed ? "signal" : "exit";
    pr->exit_code = killed ? -1 : 0;
    pr->signal = killed ? 9 : 0;
    pr->missing = killed ? "CPU time after the kill" : "";
    pr->mpi_rank = pr->mpi_size = -1;
    pr->threads = 1;
    pr->max_rss_kib = 1024;
    pr->sys_divisor = 0;
    pr->startup_rchar = 10;
    pr->first_slice = s0;
    pr->nrows = p->slices;
    for (unsigned k = 0; k < p->slices; k++) {
        memset(pr->rows[k], 0, sizeof pr->rows[k]);
        pr->rows[k][JS_M_POSIX_WRITE_CALLS] = 1;
        pr->rows[k][JS_M_POSIX_WRITE_BYTES] = 1000 + k;
        pr->rows[k][JS_M_CPU_NS] = cpu;
    }
    pr->nfiles = 0;
    char path[256];
    for (unsigned f = 0; f < p->files; f++) {
        snprintf(path, sizeof path, "/gen/%" PRIu32 "/%s/%s.%u.%u", j->id, step, node, q, f);
        struct pfile *pf = gen_add_file(pr, path, "posix", 0);
        gen_file_write(pf, 100, t0 + NS, t0 + 2 * NS);
        pf->write_calls = 1;
        pf->mount = "/";
        pf->fstype = "ext4";
        pf->dev = pf->ino = 1;
    }
    struct pfile *in = gen_add_file(pr, "/gen/input", "posix", 0);
    gen_file_read(in, 10, t0 + NS, t0 + 2 * NS);
    in->read_calls = 1;
    in->mount = "/";
    in->fstype = "nfs4";
    in->dev = in->ino = 1;
}

static int write_uniform_job(struct ctx *c, struct gjob *j, unsigned index, int64_t s0)
{
    const struct jsgen_params *p = c->p;
    const int64_t L = p->slice_s, t0 = s0 * L * NS, t1 = (s0 + (int64_t)p->slices) * L * NS - 1;
    const char *app = strrchr(p->exe, '/') ? strrchr(p->exe, '/') + 1 : p->exe;
    uniform_job(p, j, index, t0, t1, app);
    int jfd, pfd, rc = -1;
    struct proc pr;
    struct pout po;
    memset(&pr, 0, sizeof pr);
    if (gen_open_job_dirs(c, j, &jfd, &pfd) < 0)
        goto out;
    pr.rows = calloc(p->slices, sizeof *pr.rows);
    if (!pr.rows)
        abort();
    char step[16], node[64];
    for (unsigned s = 0; s < p->steps; s++) {
        snprintf(step, sizeof step, "%u", s);
        for (unsigned ni = 0; ni < j->k; ni++) {
            gen_node_name(p, node, sizeof node, j->nodes[ni]);
            uint64_t cpu = (uint64_t)llround((double)p->cpu_ns * slow_factor(p, node));
            gen_pout_begin(&po, c, j, pfd, step, node);
            for (unsigned q = 0; q < p->ppn; q++) {
                uniform_proc(c, j, &pr, step, node, ni, q, s0, cpu, app);
                if (gen_pout_add(&po, &pr) < 0)
                    goto out;
            }
            if (gen_pout_flush(&po) < 0)
                goto out;
            c->s->slice_rows += p->slices;
            const char *argv[] = { p->exe, NULL };
            struct steprec_arg sa = { c, j, s, ni, j->k, p->ppn, j->k * p->ppn, p->ppn, node, t0, t1, p->exe, argv,
                                      c->pids, p->killed };
            if (gen_write_step_record(c, jfd, &sa) < 0)
                goto out;
            c->s->step_nodes++;
        }
        c->s->steps++;
    }
    /* the job record last, as at a job's end: an ingest running meanwhile takes none of it before */
    if (gen_write_job_record(c, jfd, j) < 0)
        goto out;
    c->s->jobs++;
    rc = 0;
out:
    free(pr.rows);
    if (pfd >= 0)
        close(pfd);
    if (jfd >= 0)
        close(jfd);
    return rc;
}

int gen_run_uniform(struct ctx *c)
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
