/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rows of step records (and of one live snapshot): each step-node's rows made from its
 * assembled step (aggregate.c), written after the exactly-once key claims it (dbbatch.c, the
 * transaction of many step records), each table once for all the step-nodes of a transaction:
 * one COPY, one call with arrays (docs/ingest.md). ingest_db.c holds the connection and the
 * other statements.
 */
#include "config.h"

#include "dbstep.h"
#include "dbutil.h"
#include "ingest_db.h"
#include "ingest_gpu.h"
#include "log.h"
#include "record_format.h"
#include "series.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dbs_ensure_partitions(struct pi_db *db, const struct pi_step *st)
{
    if (st->nslices == 0)
        return PI_DB_OK;
    /* partitions are never dropped while a daemon runs (retention drops old ones only) */
    const long long w = 21600; /* js_data.slice_partition_width() */
    long long lo = st->slices[0].slice, hi = st->slices[st->nslices - 1].slice;
    long long p0 = lo - (((lo % w) + w) % w), p1 = hi - (((hi % w) + w) % w);
    int known = 0;
    for (int i = 0; i < db->nparts; i++)
        known += db->parts[i] == p0 || (p1 != p0 && db->parts[i] == p1);
    if (known == (p1 == p0 ? 1 : 2) && p1 - p0 <= w)
        return PI_DB_OK;
    char a[32], b[32];
    snprintf(a, sizeof a, "%" PRId64, st->slices[0].slice);
    snprintf(b, sizeof b, "%" PRId64, st->slices[st->nslices - 1].slice);
    const char *p[2] = { a, b };
    int rc = dbu_check(db, dbu_q(db, "SELECT js_data.ensure_slice_partitions($1, $2)", 2, p), PGRES_TUPLES_OK, "create partitions");
    if (rc == PI_DB_OK && p1 - p0 <= w) {
        if (db->nparts + 2 > (int)(sizeof db->parts / sizeof db->parts[0]))
            db->nparts = 0;
        db->parts[db->nparts++] = p0;
        if (p1 != p0)
            db->parts[db->nparts++] = p1;
    }
    return rc;
}

static void pg_text_array(struct sbuf *b, char *const *list)
{
    sb_raw(b, "{", 1);
    for (int i = 0; i < PI_MAX_LIST && list[i]; i++) {
        if (i)
            sb_raw(b, ",", 1);
        sb_array_elem(b, list[i]);
    }
    sb_raw(b, "}", 1);
}

/* A tab and a value of a nullable column: \N when negative (unknown). */
static void sb_null_or_int(struct sbuf *b, int64_t v)
{
    if (v < 0)
        sb_raw(b, "\t\\N", 3);
    else {
        sb_raw(b, "\t", 1);
        sb_int(b, v);
    }
}

/* COPY the process rows of n step-nodes into table (js_data.processes, or live_processes). */
static int copy_procs(struct pi_db *db, struct pi_step *const *sts, size_t n, const char *cid, const char *table)
{
    size_t nprocs = 0;
    for (size_t k = 0; k < n; k++)
        nprocs += sts[k]->nprocs;
    if (!nprocs)
        return PI_DB_OK;
    char sql[4096];
    snprintf(sql, sizeof sql, "COPY %s (cluster_id, job_id, step_id, node, pid, image, ppid, task_id, "
             "mpi_rank, mpi_size, origin, ended_by, exe, args, start_time, end_time, wall_ns, cpu_user_ns, "
             "cpu_sys_ns, max_rss_kib, threads_peak, threads_seen, compute_ns, slices_truncated, "
             "files_dropped, mpi_collectives, exit_code, signal, missing, %s, idle_ns, mpi_setup_ns, cpu_wait_ns, kernel_rchar, "
             "kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes, sync_calls, sync_ns, "
             "code_dropped) FROM STDIN",
             table, dbu_metric_columns());
    int rc = dbu_copy_start(db, sql, "COPY processes");
    struct sbuf b = { 0 };
    /* streamed a megabyte at a time: 10^5 processes would hold ~35 MB of COPY text */
    for (size_t s = 0, i = 0; s < n && rc == PI_DB_OK; s++, i = 0)
        for (const struct pi_step *st = sts[s]; i < st->nprocs && rc == PI_DB_OK; i++) {
            const struct pi_proc *p = &st->procs[i];
            sb_printf(&b, "%s\t%" PRId64 "\t", cid, st->job_id);
            sb_text(&b, st->step);
            sb_raw(&b, "\t", 1);
            sb_text(&b, st->node);
            sb_printf(&b, "\t%" PRId64 "\t%d\t%" PRId64 "\t", p->pid, p->image, p->ppid);
            if (p->task_id < 0) sb_raw(&b, "\\N\t", 3); else sb_printf(&b, "%" PRId64 "\t", p->task_id);
            if (p->mpi_rank < 0) sb_raw(&b, "\\N\t", 3); else sb_printf(&b, "%" PRId64 "\t", p->mpi_rank);
            if (p->mpi_size < 0) sb_raw(&b, "\\N\t", 3); else sb_printf(&b, "%" PRId64 "\t", p->mpi_size);
            sb_text(&b, p->origin); sb_raw(&b, "\t", 1);
            sb_text(&b, p->end); sb_raw(&b, "\t", 1);
            sb_text(&b, p->exe); sb_raw(&b, "\t", 1);
            sb_text(&b, p->args); sb_raw(&b, "\t", 1);
            sb_ts(&b, p->start_ns); sb_raw(&b, "\t", 1);
            sb_ts(&b, p->end_ns);
            sb_printf(&b, "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%s\t%" PRId64 "\t",
                      p->wall_ns, p->cpu_user_ns, p->cpu_sys_ns, p->max_rss_kib, p->threads_peak, p->threads_seen,
                      p->compute_ns, p->slices_truncated ? "t" : "f", p->files_dropped);
            sb_text(&b, p->collectives);
            if (p->exit_code < 0) sb_raw(&b, "\t\\N", 3); else sb_printf(&b, "\t%d", p->exit_code);
            sb_printf(&b, "\t%d\t", p->signal);
            sb_text(&b, p->missing);
            for (int k = 0; k < JS_M_COUNT; k++) {
                sb_raw(&b, "\t", 1);
                sb_int(&b, p->m[k]);
            }
            sb_null_or_int(&b, p->idle_ns);
            sb_null_or_int(&b, p->mpi_setup_ns);
            sb_null_or_int(&b, p->cpu_wait_ns);
            for (int k = 0; k < JS_KIO_COUNT; k++)
                sb_null_or_int(&b, p->kio[k]);
            sb_null_or_int(&b, p->sync_calls);
            sb_null_or_int(&b, p->sync_ns);
            sb_null_or_int(&b, p->code_dropped);
            sb_raw(&b, "\n", 1);
            if (b.len >= (1 << 20))
                rc = dbu_copy_put(db, &b, "COPY processes");
        }
    if (rc == PI_DB_OK)
        rc = dbu_copy_finish(db, &b, "COPY processes");
    free(b.p);
    return rc;
}

/* The bytes mapped of the step-node's files (mmap): few files have any, so one call with arrays
 * after ingest_finish made their rows, and none when no file was mapped. */
static int store_mapped(struct pi_db *db, const struct pi_step *st, const char *cid, const char *job)
{
    struct sbuf paths = { 0 }, local = { 0 }, bytes = { 0 };
    size_t n = 0;
    for (size_t i = 0; i < st->nfiles; i++) {
        const struct pi_file *f = &st->files[i];
        if (f->mapped_bytes <= 0)
            continue;
        sb_raw(&paths, n ? "," : "{", 1);
        sb_raw(&local, n ? "," : "{", 1);
        sb_raw(&bytes, n ? "," : "{", 1);
        sb_array_elem(&paths, f->path);
        sb_raw(&local, f->shared ? "f" : "t", 1);
        sb_int(&bytes, f->mapped_bytes);
        n++;
    }
    int rc = PI_DB_OK;
    if (n > 0) {
        sb_raw(&paths, "}", 1);
        sb_raw(&local, "}", 1);
        sb_raw(&bytes, "}", 1);
        const char *p[7] = { cid, job, st->step, st->node, paths.p, local.p, bytes.p };
        rc = dbu_check(db, dbu_q(db, "SELECT js_data.ingest_mapped($1, $2, $3, $4, $5, $6, $7)", 7, p), PGRES_TUPLES_OK, "mapped bytes");
    }
    free(paths.p);
    free(local.p);
    free(bytes.p);
    return rc;
}

/* COPY the provisional slice vectors of a running step-node into js_data.live_slice_metrics. */
static int copy_slices(struct pi_db *db, const struct pi_step *st, const char *cid, const char *job, const char *table)
{
    int rc = PI_DB_OK;
    struct sbuf b = { 0 };
    if (st->nslices) {
        b.len = 0;
        struct sbuf key = { 0 };
        sb_printf(&key, "%s\t%s\t", cid, job);
        sb_text(&key, st->step);
        sb_raw(&key, "\t", 1);
        sb_text(&key, st->node);
        for (size_t i = 0; i < st->nslices; i++) {
            const struct pi_slice *s = &st->slices[i];
            sb_raw(&b, key.p, key.len);
            sb_raw(&b, "\t", 1);
            sb_int(&b, s->slice);
            sb_raw(&b, "\t", 1);
            sb_int(&b, s->processes);
            for (int k = 0; k < JS_SLICE_COLS; k++) {
                sb_raw(&b, "\t", 1);
                sb_int(&b, s->m[k]);
            }
            sb_raw(&b, "\n", 1);
        }
        free(key.p);
        char sql[4096];
        snprintf(sql, sizeof sql, "COPY %s (cluster_id, job_id, step_id, node, slice, processes, %s, %s) FROM STDIN",
                 table, dbu_metric_columns(), dbu_kernel_columns());
        if ((rc = dbu_copy(db, sql, &b, "COPY slice_metrics")) != PI_DB_OK)
            { free(b.p); return rc; }
    }
    free(b.p);
    return rc;
}

/* The spread's columns of js_data.series_step_node (migration 040), in the order of a row's
 * values after the sums: min_, max_ and max_..._pid of each JS_SPREAD_METRICS. */
static const char *spread_columns(void)
{
    static char cols[512];
    if (!cols[0])
        for (int k = 0, n = 0; k < JS_SPREAD_COUNT; k++)
            n += snprintf(cols + n, sizeof cols - (size_t)n, "%smin_%s, max_%s, max_%s_pid", k ? ", " : "",
                          js_spread_metrics[k].name, js_spread_metrics[k].name, js_spread_metrics[k].name);
    return cols;
}

/* COPY the step-node's slice vectors into js_data.series_step_node: one row per chunk of
 * JS_SERIES_CHUNK slices, from its first to its last slice with activity, each metric one
 * encoded series (common/series.h; slices without activity inside are zeros), then the spread
 * (min and max NULL where at most one process was active in each of its slices: the sums say
 * it; whose most always). */
static int copy_series(struct pi_db *db, const struct pi_step *st, const char *cid, const char *job)
{
    enum { NS = 1 + JS_SLICE_COLS, NV = NS + 3 * JS_SPREAD_COUNT }; /* processes, sums, then the spread */
    int rc = PI_DB_OK;
    struct sbuf b = { 0 };
    int64_t *dense = calloc((size_t)JS_SERIES_CHUNK * NV, sizeof *dense);
    unsigned char *tmp = malloc(JS_SERIES_MAX_BYTES(JS_SERIES_CHUNK));
    if (!dense || !tmp) {
        free(dense);
        free(tmp);
        pi_error("out of memory for the series of %s", st->node);
        return PI_DB_RETRY;
    }
    for (size_t i = 0; i < st->nslices;) {
        int64_t chunk = js_series_chunk_of(st->slices[i].slice), first = st->slices[i].slice, last = first;
        size_t j = i;
        int many = 0;
        for (; j < st->nslices && st->slices[j].slice < chunk + JS_SERIES_CHUNK; j++) {
            const struct pi_slice *s = &st->slices[j];
            int64_t *row = dense + (size_t)(s->slice - first) * NV;
            row[0] = s->processes;
            for (int k = 0; k < JS_SLICE_COLS; k++)
                row[1 + k] = s->m[k];
            for (int k = 0; k < JS_SPREAD_COUNT; k++) {
                row[NS + 3 * k] = s->lo[k];
                row[NS + 3 * k + 1] = s->hi[k];
                row[NS + 3 * k + 2] = s->hi_pid[k];
            }
            many |= s->processes > 1;
            last = s->slice;
        }
        size_t n = (size_t)(last - first + 1);
        sb_printf(&b, "%s\t%s\t", cid, job);
        sb_text(&b, st->step);
        sb_raw(&b, "\t", 1);
        sb_text(&b, st->node);
        sb_printf(&b, "\t%" PRId64 "\t%" PRId64 "\t%zu", chunk, first, n);
        for (int k = 0; k < NV; k++) {
            sb_raw(&b, "\t", 1);
            if (k < NS || many || (k - NS) % 3 == 2) /* the pids always: one process's too */
                sb_series(&b, dense + k, n, NV, tmp);
            else
                sb_raw(&b, "\\N", 2);
        }
        sb_raw(&b, "\n", 1);
        memset(dense, 0, n * NV * sizeof *dense);
        i = j;
    }
    free(dense);
    free(tmp);
    if (b.len) {
        char sql[4096];
        snprintf(sql, sizeof sql, "COPY js_data.series_step_node (cluster_id, job_id, step_id, node, chunk, first_slice, "
                                  "slices, processes, %s, %s, %s) FROM STDIN", dbu_metric_columns(), dbu_kernel_columns(),
                 spread_columns());
        rc = dbu_copy(db, sql, &b, "COPY series_step_node");
    }
    free(b.p);
    return rc;
}

/* The refused profiles' quarantine rows, a few thousand per statement (as
 * js_data.add_quarantine makes them one at a time): a junk step-node of 10^5 files would
 * otherwise cost 10^5 round trips. */
static int quarantine_rows(struct pi_db *db, const struct pi_step *st, const char *cid, const char *job,
                           char *const *moved_to)
{
    enum { PER_STATEMENT = 5000 };
    int rc = PI_DB_OK;
    struct sbuf a[3] = { { 0 } };
    char file[600];
    for (size_t i = 0; i < st->nbad && rc == PI_DB_OK; i += PER_STATEMENT) {
        for (int k = 0; k < 3; k++)
            a[k].len = 0;
        for (size_t j = i; j < st->nbad && j < i + PER_STATEMENT; j++) {
            snprintf(file, sizeof file, "job.%s/%s/%s", job, JS_PROFILES_DIR_NAME, st->bad[j].name);
            const char *v[3] = { file, moved_to[j], st->bad[j].reason };
            for (int k = 0; k < 3; k++) {
                sb_raw(&a[k], j == i ? "{" : ",", 1);
                sb_array_elem(&a[k], v[k]);
            }
        }
        for (int k = 0; k < 3; k++)
            sb_raw(&a[k], "}", 1);
        const char *p[7] = { cid, job, st->step, st->node, a[0].p, a[1].p, a[2].p };
        rc = dbu_check(db, dbu_q(db, "INSERT INTO js_data.quarantine (cluster_id, job_id, step_id, node, file, moved_to, reason) "
                                     "SELECT $1, $2, $3, $4, u.f, u.m, u.r FROM unnest($5::text[], $6::text[], $7::text[]) AS u(f, m, r) "
                                     "ON CONFLICT (cluster_id, job_id, step_id, node, file) DO UPDATE SET "
                                     "moved_to = excluded.moved_to, reason = excluded.reason, at = now()", 7, p),
                       PGRES_COMMAND_OK, "quarantine");
    }
    for (int k = 0; k < 3; k++)
        free(a[k].p);
    return rc;
}


/* The keys of n step-nodes as three array literals: job ids, steps, nodes. */
static void key_arrays(struct pi_step *const *sts, size_t n, struct sbuf *jobs, struct sbuf *steps, struct sbuf *nodes)
{
    for (size_t k = 0; k < n; k++) {
        sb_raw(jobs, k ? "," : "{", 1);
        sb_raw(steps, k ? "," : "{", 1);
        sb_raw(nodes, k ? "," : "{", 1);
        sb_int(jobs, sts[k]->job_id);
        sb_array_elem(steps, sts[k]->step);
        sb_array_elem(nodes, sts[k]->node);
    }
    sb_raw(jobs, n ? "}" : "{}", n ? 1 : 2);
    sb_raw(steps, n ? "}" : "{}", n ? 1 : 2);
    sb_raw(nodes, n ? "}" : "{}", n ? 1 : 2);
}

/* The steps' sums over their processes (js.steps reads them): one call for the n step-nodes
 * (those without processes add nothing). */
static int store_step_sums(struct pi_db *db, struct pi_step *const *sts, size_t n, const char *cid)
{
    struct sbuf jobs = { 0 }, steps = { 0 }, nodes = { 0 };
    key_arrays(sts, n, &jobs, &steps, &nodes);
    const char *p[4] = { cid, jobs.p, steps.p, nodes.p };
    int rc = dbu_check(db, dbu_q(db, "SELECT js_data.ingest_step_sums($1, $2, $3, $4)", 4, p), PGRES_TUPLES_OK, "step sums");
    free(jobs.p);
    free(steps.p);
    free(nodes.p);
    return rc;
}

/* COPY the file accesses of n step-nodes into the staging table ingest_finish reads. */
static int copy_file_accesses(struct pi_db *db, struct pi_step *const *sts, size_t n)
{
    static const struct { int bit; const char *name; } layers[] = {
        { PI_LAYER_MPIIO, "mpiio" }, { PI_LAYER_POSIX, "posix" }, { PI_LAYER_STDIO, "stdio" }, { PI_LAYER_RENAME, "rename" } };
    struct sbuf b = { 0 };
    for (size_t s = 0, i = 0; s < n; s++, i = 0)
      for (const struct pi_step *st = sts[s]; i < st->nfiles; i++) {
        const struct pi_file *f = &st->files[i];
        sb_int(&b, st->job_id);
        sb_raw(&b, "\t", 1);
        sb_text(&b, st->step);
        sb_raw(&b, "\t", 1);
        sb_text(&b, st->node);
        sb_raw(&b, "\t", 1);
        const char *mode = f->read && f->written ? "rw" : f->read ? "r" : f->written ? "w"
                         : f->opened_r && f->opened_w ? "rw" : f->opened_w ? "w" : "r";
        sb_text(&b, f->path);
        sb_printf(&b, "\t%s\t", f->shared ? "shared" : "local");
        sb_text(&b, f->fstype);
        sb_printf(&b, "\t%s\t%d\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t",
                  mode, f->processes, f->opens, f->reads, f->writes, f->bytes_read, f->bytes_written,
                  f->first_access, f->last_access);
        if (f->first_read < 0) sb_raw(&b, "\\N\t", 3); else sb_printf(&b, "%" PRId64 "\t", f->first_read);
        if (f->last_write < 0) sb_raw(&b, "\\N\t", 3); else sb_printf(&b, "%" PRId64 "\t", f->last_write);
        for (size_t k = 0, nl = 0; k < sizeof layers / sizeof layers[0]; k++)
            if (f->layers & layers[k].bit)
                sb_printf(&b, "%s%s", nl++ ? "," : "", layers[k].name);
        if (f->ino == 0)
            sb_raw(&b, "\t\\N\t\\N\t\\N\n", 10);
        else if (f->btime == 0)
            sb_printf(&b, "\t%" PRId64 "\t%" PRId64 "\t\\N\n", (int64_t)f->dev, (int64_t)f->ino);
        else
            sb_printf(&b, "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n", (int64_t)f->dev, (int64_t)f->ino, (int64_t)f->btime);
    }
    int rc = b.len ? dbu_copy(db, "COPY ingest_batch_files FROM STDIN", &b, "COPY file accesses") : PI_DB_OK;
    free(b.p);
    return rc;
}

/* The files, their accesses and the edges of the n step-nodes from the staged accesses (paths
 * under no_edge_prefix make no edge), in their order; their queue rows and workflow merges. */
static int finish_files(struct pi_db *db, const struct pi_conf *conf, struct pi_step *const *sts, size_t n, const char *cid)
{
    struct sbuf b = { 0 }, jobs = { 0 }, steps = { 0 }, nodes = { 0 };
    pg_text_array(&b, conf->no_edge_prefix);
    key_arrays(sts, n, &jobs, &steps, &nodes);
    const char *p[5] = { cid, jobs.p, steps.p, nodes.p, b.p };
    int rc = dbu_check(db, dbu_q(db, "SELECT js_data.ingest_finish($1, $2, $3, $4, $5)", 5, p), PGRES_TUPLES_OK, "finish");
    free(b.p);
    free(jobs.p);
    free(steps.p);
    free(nodes.p);
    return rc;
}

/* The software trees: a handful per step-node, as one jsonb. */
static int store_trees(struct pi_db *db, const struct pi_step *st, const char *cid, const char *job)
{
    if (!st->ntrees)
        return PI_DB_OK;
    json_t *a = json_array();
    for (size_t i = 0; i < st->ntrees; i++) {
        const struct pi_tree *t = &st->trees[i];
        json_array_append_new(a, json_pack("{s:s, s:I, s:I, s:I, s:I}", "path", t->path, "processes", (json_int_t)t->processes,
                                           "opens", (json_int_t)t->opens, "read_bytes", (json_int_t)t->read_bytes,
                                           "write_bytes", (json_int_t)t->write_bytes));
    }
    char *trees = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    const char *p[5] = { cid, job, st->step, st->node, trees };
    int rc = dbu_check(db, dbu_q(db, "SELECT js_data.ingest_trees($1, $2, $3, $4, $5)", 5, p), PGRES_TUPLES_OK, "software trees");
    free(trees);
    return rc;
}

/* The step-node's MPI segments (profile format 6): its groups summed over its processes, its
 * slowest and the totals, as one jsonb; nothing when no process recorded any. */
static int store_segments(struct pi_db *db, const struct pi_step *st, const char *cid, const char *job)
{
    if (!st->seg_processes)
        return PI_DB_OK;
    json_t *groups = json_array(), *slowest = json_array();
    for (size_t i = 0; i < st->nseg_groups; i++) {
        const struct pi_seg_group *g = &st->seg_groups[i];
        json_t *bins = json_array(), *counts = json_array();
        for (int b = 0; b < JS_SEG_BINS; b++)
            if (g->bins[b]) {
                json_array_append_new(bins, json_integer(b));
                json_array_append_new(counts, json_integer(g->bins[b]));
            }
        json_array_append_new(groups, json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:o, s:o}", "signature", g->sig, "boundary",
                                                g->boundary, "processes", (json_int_t)g->processes, "count", (json_int_t)g->count,
                                                "sum_ns", (json_int_t)g->sum_ns, "min_ns", (json_int_t)g->min_ns, "max_ns",
                                                (json_int_t)g->max_ns, "bins", bins, "counts", counts));
    }
    for (size_t i = 0; i < st->nseg_slow; i++) {
        const struct pi_seg_slow *e = &st->seg_slow[i];
        json_array_append_new(slowest, json_pack("{s:I, s:I, s:I, s:s}", "rank", (json_int_t)e->rank, "end_ns", (json_int_t)e->end_ns,
                                                 "ns", (json_int_t)e->ns, "signature", e->sig));
    }
    json_t *seg = json_pack("{s:i, s:I, s:I, s:I, s:o, s:o}", "processes", st->seg_processes, "boundaries",
                            (json_int_t)st->seg_boundaries, "ungrouped", (json_int_t)st->seg_ungrouped, "ungrouped_ns",
                            (json_int_t)st->seg_ungrouped_ns, "groups", groups, "slowest", slowest);
    char *text = json_dumps(seg, JSON_COMPACT);
    json_decref(seg);
    const char *p[5] = { cid, job, st->step, st->node, text };
    int rc = dbu_check(db, dbu_q(db, "SELECT js_data.ingest_segments($1, $2, $3, $4, $5)", 5, p), PGRES_TUPLES_OK, "MPI segments");
    free(text);
    return rc;
}

/* What is missing: the processes the profiler refused to record (the spool quota, as the
 * bundles said), then whether the step-node and the step (over all its nodes) are incomplete. */
static int store_missing(struct pi_db *db, const struct pi_step *st, const char *cid, const char *job)
{
    if (st->unrecorded > 0) {
        char n[32];
        snprintf(n, sizeof n, "%" PRId64, st->unrecorded);
        const char *p[6] = { cid, job, st->step, st->node, n, st->unrecorded_reason[0] ? st->unrecorded_reason : NULL };
        int rc = dbu_check(db, dbu_q(db, "SELECT js_data.ingest_unrecorded($1, $2, $3, $4, $5, $6)", 6, p), PGRES_TUPLES_OK, "unrecorded");
        if (rc != PI_DB_OK)
            return rc;
    }
    if (st->nbad || pi_step_has_missing(st) || st->unrecorded > 0) {
        const char *p[4] = { cid, job, st->step, st->node };
        return dbu_check(db, dbu_q(db, "SELECT js_data.ingest_incomplete($1, $2, $3, $4)", 4, p), PGRES_TUPLES_OK, "incomplete");
    }
    return PI_DB_OK;
}

int dbs_write_rows(struct pi_db *db, const struct pi_conf *conf, struct pi_step *const *sts, char *const *const *moved_to,
                   size_t n, const char *cid)
{
    int rc = copy_procs(db, sts, n, cid, "js_data.processes");
    /* the series of all n in one COPY: copy_series's rows gathered */
    if (rc == PI_DB_OK && (rc = dbu_gather(db, 1)) == PI_DB_OK) {
        char job[32];
        for (size_t k = 0; k < n && rc == PI_DB_OK; k++) {
            snprintf(job, sizeof job, "%" PRId64, sts[k]->job_id);
            rc = copy_series(db, sts[k], cid, job);
        }
        int end = dbu_gather(db, rc == PI_DB_OK ? 0 : -1);
        rc = rc != PI_DB_OK ? rc : end;
    }
    if (rc != PI_DB_OK || (rc = store_step_sums(db, sts, n, cid)) != PI_DB_OK ||
        (rc = copy_file_accesses(db, sts, n)) != PI_DB_OK || (rc = finish_files(db, conf, sts, n, cid)) != PI_DB_OK)
        return rc;
    for (size_t k = 0; k < n && rc == PI_DB_OK; k++) {
        const struct pi_step *st = sts[k];
        char job[32];
        snprintf(job, sizeof job, "%" PRId64, st->job_id);
        if ((rc = store_mapped(db, st, cid, job)) != PI_DB_OK || (rc = store_trees(db, st, cid, job)) != PI_DB_OK ||
            (rc = store_segments(db, st, cid, job)) != PI_DB_OK || (rc = quarantine_rows(db, st, cid, job, moved_to[k])) != PI_DB_OK)
            return rc;
        if ((rc = store_missing(db, st, cid, job)) == PI_DB_OK)
            rc = pi_gpu_write(db, st, cid, job);
    }
    return rc;
}

/* A live snapshot of a running step-node: its provisional rows replaced in one transaction
 * (docs/ingest.md, "Running steps"). */
static int ingest_live_once(struct pi_db *db, const struct pi_step *st, long long snapshot_ns)
{
    int rc;
    char cid[16], job[32], snap[32], start[32], nprof[16], nrun[16];
    PGresult *r;
    if ((rc = dbu_cluster_id(db, st->cluster, (int)st->slice_seconds, cid, sizeof cid)) != PI_DB_OK)
        return rc;
    snprintf(job, sizeof job, "%" PRId64, st->job_id);
    snprintf(snap, sizeof snap, "%lld", snapshot_ns);
    int64_t first = -1;
    size_t running = 0;
    for (size_t i = 0; i < st->nprocs; i++) {
        if (first < 0 || st->procs[i].start_ns < first)
            first = st->procs[i].start_ns;
        running += strcmp(st->procs[i].end, "running") == 0;
    }
    snprintf(start, sizeof start, "%" PRId64, first < 0 ? st->start_ns : first);
    snprintf(nprof, sizeof nprof, "%zu", st->nprocs);
    snprintf(nrun, sizeof nrun, "%zu", running);
    if ((rc = dbu_exec(db, "BEGIN; SET LOCAL synchronous_commit = off", "begin")) != PI_DB_OK)
        return rc;
    long long written = json_integer_value(json_object_get(st->job, "written_ns"));
    {
        /* the job record's values, unless this session committed this very record before */
        const json_t *jrec = dbu_job_sent(db, cid, st->job_id, written) ? NULL : st->job;
        struct dbu_params p = { .n = 0 };
        struct sbuf sql = { 0 };
        dbu_params_add(&p, cid);
        sb_printf(&sql, "SELECT js_data.live_begin($1, ");
        int bad = dbu_params_record(&p, jrec, js_job_record_fields, "js_data.job_record_values", &sql);
        const char *rest[8] = { job, st->step, st->node, snap, start, nprof, nrun, db->who };
        for (int i = 0; i < 8; i++) {
            dbu_params_add(&p, rest[i]);
            sb_printf(&sql, ", $%d", p.n);
        }
        sb_printf(&sql, ")");
        r = bad ? NULL : dbu_q(db, sql.p, p.n, p.v);
        dbu_params_free(&p);
        free(sql.p);
        if (PQresultStatus(r) != PGRES_TUPLES_OK) {
            rc = dbu_check(db, r, PGRES_TUPLES_OK, "live snapshot");
            goto out;
        }
        char what = PQgetvalue(r, 0, 0)[0];
        PQclear(r);
        if (what != 'o') {
            rc = what == 'b' ? PI_DB_BUSY : PI_DB_DONE;
            goto out;
        }
    }
    struct pi_step *one[1] = { (struct pi_step *)st };
    if ((rc = copy_procs(db, one, 1, cid, "js_data.live_processes")) != PI_DB_OK ||
        (rc = copy_slices(db, st, cid, job, "js_data.live_slice_metrics")) != PI_DB_OK)
        goto out;
    rc = dbu_exec(db, "COMMIT", "commit");
    if (rc == PI_DB_OK)
        dbu_job_note(db, cid, st->job_id, written);
out:
    if (rc != PI_DB_OK)
        dbu_rollback(db);
    return rc;
}

int pi_db_ingest_live(struct pi_db *db, const struct pi_conf *conf, const struct pi_step *st, long long snapshot_ns)
{
    int rc = PI_DB_RETRY;
    for (int attempt = 0; attempt < 3; attempt++) {
        if ((rc = pi_db_ensure(db, conf->migrate)) != PI_DB_OK)
            return rc;
        rc = ingest_live_once(db, st, snapshot_ns);
        if (rc != PI_DB_RETRY || !db->conn)
            return rc;
    }
    return rc;
}
