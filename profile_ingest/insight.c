/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The insight driver (docs/insight.md): after a pass's fold, the steps due in
 * js_data.insight_pending are taken one transaction each, their figures read (the step, its
 * processes, its slices beside the background, its written files, its MPI segments), the
 * methods of insight_method.c applied, and the results written to js_data.step_insights and
 * js_data.step_advice. A step that fails for a reason of its own is logged and left out of the
 * queue (its next record queues it again), so that it cannot stop the others.
 */
#include "insight_gpu.h"
#include "config.h"

#include "dbutil.h"
#include "insight.h"
#include "log.h"
#include "profile_format.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* steps computed per pass at most, and the time a pass may spend on them: the rest wait for the
 * next pass, so that a long queue does not hold up the ingest of new records */
#define INSIGHT_BATCH 200
#define INSIGHT_PASS_SECONDS 5.0

struct step_key {
    char cluster[16], job[32], step[JS_STEP_NAME_MAX > 64 ? JS_STEP_NAME_MAX : 64];
};

static const char *const q_facts =
    "SELECT s.first_slice, s.last_slice, c.slice_seconds, "
    "       coalesce(extract(epoch FROM s.end_time - s.start_time), 0), coalesce(s.num_cpus, 0), "
    "       count(p.pid), coalesce(max(p.mpi_size), 0), "
    "       coalesce(sum(p.posix_read_calls + p.stdio_read_calls + p.mpiio_read_calls), 0), "
    "       coalesce(sum(p.posix_read_bytes + p.stdio_read_bytes + p.mpiio_read_bytes), 0), "
    "       coalesce(sum(p.posix_write_calls + p.stdio_write_calls + p.mpiio_write_calls), 0), "
    "       coalesce(sum(p.posix_write_bytes + p.stdio_write_bytes + p.mpiio_write_bytes), 0), "
    "       coalesce(sum(p.posix_open_calls + p.stdio_open_calls), 0), "
    "       coalesce(sum(p.posix_meta_calls + p.stdio_meta_calls + p.mpiio_meta_calls), 0), "
    "       coalesce(sum(p.compute_ns), 0), coalesce(sum(p.posix_ns + p.stdio_ns + p.mpiio_ns), 0), "
    "       coalesce(sum(p.mpi_p2p_ns + p.mpi_coll_ns), 0), coalesce(sum(p.cpu_wait_ns), 0), "
    "       coalesce(sum(p.idle_ns), 0), coalesce(sum(p.cpu_user_ns + p.cpu_sys_ns), 0), "
    "       coalesce(sum(p.wall_ns) FILTER (WHERE p.mpi_rank >= 0), 0), "
    "       coalesce(sum(p.posix_meta_calls), 0), coalesce(sum(p.posix_open_calls), 0), "
    "       s.nodes_ingested < coalesce(s.num_nodes, 0), s.incomplete, "
    "       coalesce(sum(p.sync_calls), 0), coalesce(sum(p.sync_ns), 0), s.step_id = 'batch', "
    /* the job's steps (sruns), for the batch step that waits for them */
    "       (SELECT count(*) FROM js_data.steps o WHERE o.cluster_id = s.cluster_id AND o.job_id = s.job_id "
    "          AND o.step_id NOT IN ('batch', 'extern')), "
    "       (SELECT count(*) FROM js_data.steps o WHERE o.cluster_id = s.cluster_id AND o.job_id = s.job_id "
    "          AND o.step_id NOT IN ('batch', 'extern') AND NOT o.profiled), "
    "       (SELECT coalesce(sum(o.cpu_ns), 0) FROM js_data.steps o WHERE o.cluster_id = s.cluster_id "
    "          AND o.job_id = s.job_id AND o.step_id <> 'extern'), "
    "       (SELECT coalesce(extract(epoch FROM j.end_time - j.start_time), 0) FROM js_data.jobs j "
    "          WHERE j.cluster_id = s.cluster_id AND j.job_id = s.job_id), "
    "       (SELECT coalesce(j.num_cpus, 0) FROM js_data.jobs j WHERE j.cluster_id = s.cluster_id AND j.job_id = s.job_id) "
    "FROM js_data.steps s JOIN js_data.clusters c ON c.cluster_id = s.cluster_id "
    "LEFT JOIN js_data.processes p ON p.cluster_id = s.cluster_id AND p.job_id = s.job_id AND p.step_id = s.step_id "
    "WHERE s.cluster_id = $1 AND s.job_id = $2 AND s.step_id = $3 "
    "GROUP BY s.cluster_id, s.job_id, s.step_id, s.first_slice, s.last_slice, c.slice_seconds, s.end_time, "
    "         s.start_time, s.num_cpus, "
    "         s.nodes_ingested, s.num_nodes, s.incomplete";

enum {
    F_FIRST, F_LAST, F_SLICE_S, F_WALL_S, F_CPUS, F_PROCS, F_RANKS, F_RCALLS, F_RBYTES, F_WCALLS, F_WBYTES,
    F_OPENS, F_META, F_COMPUTE, F_IO, F_MPI, F_WAIT, F_IDLE, F_CPU, F_MPI_WALL, F_POSIX_META, F_POSIX_OPENS,
    F_NODES_MISSING, F_INCOMPLETE, F_SYNC_CALLS, F_SYNC_NS, F_BATCH, F_JOB_STEPS, F_JOB_UNPROFILED, F_JOB_CPU,
    F_JOB_WALL, F_JOB_CPUS
};

static const char *const q_ranks =
    "SELECT mpi_rank, sum(compute_ns) FROM js_data.processes "
    "WHERE cluster_id = $1 AND job_id = $2 AND step_id = $3 AND mpi_rank >= 0 GROUP BY mpi_rank";

static const char *const q_files =
    "SELECT opens, reads, bytes_read, writes, bytes_written FROM js_data.file_accesses "
    "WHERE cluster_id = $1 AND job_id = $2 AND step_id = $3 AND (writes > 0 OR reads > 0)";

static const char *const q_segments =
    "SELECT bins, counts FROM js_data.step_segment_groups($1::smallint, $2::bigint, $3)";

static double num(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? 0 : strtod(PQgetvalue(r, row, col), NULL);
}

static long long inum(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? 0 : strtoll(PQgetvalue(r, row, col), NULL, 10);
}

/* The reads of a step, in one batch (one round trip): the step's facts, its series beside the
 * cluster's and its nodes' (insight_series.c), its MPI segments, files and ranks. */
enum { R_FACTS, R_SEGMENTS, R_FILES, R_RANKS, R_GPUS, R_SERIES };

static void add_reads(struct dbu_batch *b, const char *const key[3])
{
    dbu_batch_add(b, "insight_facts", q_facts, 3, key, 0, "insight: the step");
    dbu_batch_add(b, "insight_segments", q_segments, 3, key, 0, "insight: the step's MPI segments");
    dbu_batch_add(b, "insight_files", q_files, 3, key, 0, "insight: the step's files");
    dbu_batch_add(b, "insight_ranks", q_ranks, 3, key, 0, "insight: the step's ranks");
    dbu_batch_add(b, "insight_gpus", pi_in_gpu_query, 3, key, 0, "insight: the step's GPUs");
    pi_in_series_queries(b, key);
}

/* "{1,2,3}" into a new array of n integers */
static long long *int_array(const char *text, size_t *n)
{
    size_t cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == ',';
    long long *v = calloc(cap, sizeof *v);
    if (!v)
        abort();
    *n = 0;
    for (const char *p = text; *p;) {
        if (*p == '{' || *p == ',' || *p == '}') {
            p++;
            continue;
        }
        char *end;
        long long x = strtoll(p, &end, 10);
        if (end == p)
            break;
        if (*n < cap)
            v[(*n)++] = x;
        p = end;
    }
    return v;
}

/* a bin's geometric middle (common/profile_format.h's segment histogram; the last bin holds
 * everything longer: its lower edge) */
static double seg_bin_ns(int bin)
{
    if (bin < 0 || bin >= JS_SEG_BINS - 1)
        return (double)js_seg_bin_lo_ns(bin < 0 ? 0 : JS_SEG_BINS - 1);
    return sqrt((double)js_seg_bin_lo_ns(bin) * (double)js_seg_bin_lo_ns(bin + 1));
}

struct step_result {
    struct pi_in_disturbance d;
    struct pi_in_segments seg;
    int have_segments;
    struct pi_in_period period;
    const char *pattern;
    struct pi_in_figures fig;
    struct pi_in_verdict v;
    struct pi_in_gpus gpus;
    double lost_pct, interference_pct, estimate;
    char incomplete[256];
};

/* The step's rates and the background beside them (insight_series.c), and the methods on them */
static int read_slices(const struct dbu_batch *b, const char *const key[3], int64_t first, int64_t last,
                       double slice_s, struct step_result *res)
{
    struct pi_in_slices s;
    double *mem = NULL;
    int rc = pi_in_series_slices(b->r + R_SERIES, key, first, last, slice_s, &s, &mem);
    if (rc != PI_DB_OK)
        return rc;
    for (size_t t = 0; t < s.n; t++)
        if (s.meta_ops[t] / slice_s > res->fig.meta_peak_per_s) {
            res->fig.meta_peak_per_s = s.meta_ops[t] / slice_s;
            res->fig.meta_peak_slice = first + (int64_t)t;
        }
    pi_in_disturbance(&s, &res->d);
    pi_in_period(s.io_bytes, s.n, slice_s, &res->period);
    free(mem);
    return PI_DB_OK;
}

static void read_segments(const PGresult *r, struct step_result *res)
{
    int n = PQntuples(r);
    struct pi_in_seg_group *g = calloc((size_t)(n ? n : 1), sizeof *g);
    long long **keep = calloc((size_t)(n ? n : 1) * 2, sizeof *keep);
    if (!g || !keep)
        abort();
    for (int i = 0; i < n; i++) {
        size_t nb = 0, nc = 0;
        long long *bins = int_array(PQgetvalue(r, i, 0), &nb);
        long long *counts = int_array(PQgetvalue(r, i, 1), &nc);
        int *bin = calloc(nb ? nb : 1, sizeof *bin);
        if (!bin)
            abort();
        for (size_t j = 0; j < nb; j++)
            bin[j] = (int)bins[j];
        free(bins);
        keep[2 * i] = (long long *)bin;
        keep[2 * i + 1] = counts;
        g[i] = (struct pi_in_seg_group){ .nbins = nb < nc ? nb : nc, .bin = bin, .count = (const int64_t *)counts,
                                         .bin_ns = seg_bin_ns };
    }
    pi_in_segments(g, (size_t)n, &res->seg);
    res->have_segments = res->seg.groups_judged > 0;
    for (int i = 0; i < 2 * n; i++)
        free(keep[i]);
    free(keep);
    free(g);
}

/* the step's files (per node and file): its write pattern, and the files it read or wrote in
 * small requests */
static void read_files(const PGresult *r, long long meta, long long opens, struct step_result *res)
{
    int n = PQntuples(r), nw = 0;
    struct pi_in_written *w = calloc((size_t)(n ? n : 1), sizeof *w);
    if (!w)
        abort();
    struct pi_in_figures *f = &res->fig;
    for (int i = 0; i < n; i++) {
        long long o = inum(r, i, 0), rd = inum(r, i, 1), rb = inum(r, i, 2), wr = inum(r, i, 3), wb = inum(r, i, 4);
        if (wb > 0)
            w[nw++] = (struct pi_in_written){ o, wr, wb };
        if (rd > 0 && rb < rd * PI_IN_SMALL_IO) {
            f->small_read_calls += rd;
            f->small_read_bytes += rb;
            f->small_read_files++;
        }
        if (wr > 0 && wb < wr * PI_IN_SMALL_IO) {
            f->small_write_calls += wr;
            f->small_write_bytes += wb;
            f->small_write_files++;
        }
    }
    res->pattern = pi_in_write_pattern(w, (size_t)nw, meta, opens);
    free(w);
}

static void read_ranks(const PGresult *r, struct pi_in_figures *f)
{
    int n = PQntuples(r);
    double sum = 0;
    for (int i = 0; i < n; i++) {
        double c = num(r, i, 1) / 1e9;
        sum += c;
        if (c > f->rank_compute_max) {
            f->rank_compute_max = c;
            f->rank_compute_max_rank = inum(r, i, 0);
        }
    }
    f->rank_compute_mean = n ? sum / n : 0;
}

/* the step's own figures (the batch's results), then each method */
static int analyse_batch(const struct dbu_batch *b, const char *const key[3], struct step_result *res, int *known)
{
    int rc = PI_DB_OK;
    const PGresult *r = b->r[R_FACTS];
    *known = PQntuples(r) == 1;
    if (!*known)
        return PI_DB_OK;
    struct pi_in_figures *f = &res->fig;
    f->slice_s = num(r, 0, F_SLICE_S);
    f->wall_s = num(r, 0, F_WALL_S);
    f->num_cpus = inum(r, 0, F_CPUS);
    f->processes = inum(r, 0, F_PROCS);
    f->ranks = inum(r, 0, F_RANKS);
    f->read_calls = inum(r, 0, F_RCALLS);
    f->read_bytes = inum(r, 0, F_RBYTES);
    f->write_calls = inum(r, 0, F_WCALLS);
    f->write_bytes = inum(r, 0, F_WBYTES);
    f->opens = inum(r, 0, F_OPENS);
    f->meta_calls = inum(r, 0, F_META);
    f->sync_calls = inum(r, 0, F_SYNC_CALLS);
    f->sync_s = num(r, 0, F_SYNC_NS) / 1e9;
    f->compute_s = num(r, 0, F_COMPUTE) / 1e9;
    f->io_s = num(r, 0, F_IO) / 1e9;
    f->mpi_s = num(r, 0, F_MPI) / 1e9;
    f->cpu_wait_s = num(r, 0, F_WAIT) / 1e9;
    f->idle_s = num(r, 0, F_IDLE) / 1e9;
    f->cpu_s = num(r, 0, F_CPU) / 1e9;
    f->batch = !strcmp(PQgetvalue(r, 0, F_BATCH), "t");
    f->job_steps = inum(r, 0, F_JOB_STEPS);
    f->job_steps_unprofiled = inum(r, 0, F_JOB_UNPROFILED);
    f->job_cpu_s = num(r, 0, F_JOB_CPU) / 1e9;
    f->job_wall_s = num(r, 0, F_JOB_WALL);
    f->job_cpus = inum(r, 0, F_JOB_CPUS);
    double mpi_wall_s = num(r, 0, F_MPI_WALL) / 1e9;
    long long posix_meta = inum(r, 0, F_POSIX_META), posix_opens = inum(r, 0, F_POSIX_OPENS);
    int has_slices = !PQgetisnull(r, 0, F_FIRST) && !PQgetisnull(r, 0, F_LAST);
    int64_t first = inum(r, 0, F_FIRST), last = inum(r, 0, F_LAST);
    if (!strcmp(PQgetvalue(r, 0, F_NODES_MISSING), "t"))
        snprintf(res->incomplete, sizeof res->incomplete, "not all of the step's nodes are in yet");
    else if (!strcmp(PQgetvalue(r, 0, F_INCOMPLETE), "t"))
        snprintf(res->incomplete, sizeof res->incomplete, "files of the step were quarantined");
    if (has_slices && last - first >= PI_IN_SLICES_MAX) {
        size_t used = strlen(res->incomplete);
        snprintf(res->incomplete + used, sizeof res->incomplete - used, "%slonger than a week: not judged by its slices",
                 used ? "; " : "");
    }
    else if (has_slices && last >= first && f->slice_s > 0)
        rc = read_slices(b, key, first, last, f->slice_s, res);
    if (rc != PI_DB_OK)
        return rc;
    if (f->ranks > 0)
        read_segments(b->r[R_SEGMENTS], res);
    read_files(b->r[R_FILES], posix_meta, posix_opens, res);
    if (f->ranks > 1)
        read_ranks(b->r[R_RANKS], f);
    pi_in_gpu_read((const struct pg_result *)b->r[R_GPUS], &res->gpus);
    /* the verdict: the larger of the two estimates that could be made; none for a batch step
     * that waits for its sruns (its figures of disturbance left out: they are the sruns') */
    res->lost_pct = res->d.judged && f->wall_s > 0 ? 100 * res->d.lost_s / f->wall_s : -1;
    res->interference_pct = res->have_segments && mpi_wall_s > 0 ? 100 * res->seg.excess_ns / 1e9 / mpi_wall_s : -1;
    pi_in_judge(f, res->lost_pct, res->interference_pct, res->d.cause, &res->v);
    if (res->v.by_sruns) {
        int slices = res->d.slices;
        memset(&res->d, 0, sizeof res->d);
        res->d.cause = -1;
        res->d.slices = slices;
        res->have_segments = 0;
        res->lost_pct = res->interference_pct = -1;
    }
    res->estimate = res->v.estimate;
    if (res->d.stretches_dropped && !*res->incomplete)
        snprintf(res->incomplete, sizeof res->incomplete, "%ld smaller disturbed stretches not listed",
                 res->d.stretches_dropped);
    f->disturbed = res->v.disturbed;
    f->lost_pct = res->estimate;
    f->cause = res->v.cause;
    return PI_DB_OK;
}

/* the step's own figures, then each method; the reads in one batch */
static int analyse(struct pi_db *db, const struct step_key *k, struct step_result *res, int *known)
{
    memset(res, 0, sizeof *res);
    const char *key[3] = { k->cluster, k->job, k->step };
    struct dbu_batch b = { 0 };
    add_reads(&b, key);
    int rc = dbu_batch_run(db, &b);
    if (rc == PI_DB_OK)
        rc = analyse_batch(&b, key, res, known);
    dbu_batch_clear(&b);
    return rc;
}

static char *evidence_json(const struct pi_in_disturbance *d, double slice_s)
{
    json_t *a = json_array();
    for (int i = 0; i < d->nstretch; i++) {
        const struct pi_in_stretch *x = &d->stretch[i];
        char start[64];
        time_t t = (time_t)((double)x->first_slice * slice_s);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(start, sizeof start, "%Y-%m-%dT%H:%M:%SZ", &tm);
        json_array_append_new(a, json_pack("{s:I, s:I, s:s, s:s, s:f, s:s, s:s, s:f, s:f, s:f}",
                                           "first_slice", (json_int_t)x->first_slice, "last_slice",
                                           (json_int_t)x->last_slice, "start", start, "own", pi_own_names[x->own],
                                           "own_drop_pct", round(1000 * x->own_drop) / 10, "background",
                                           pi_bg_names[x->bg], "scope", pi_bg_scopes[x->bg], "background_rate",
                                           round(x->bg_rate), "background_base", round(x->bg_base), "lost_s",
                                           round(10 * x->lost_s) / 10));
    }
    char *s = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    if (!s)
        abort();
    return s;
}

/* a parameter: NULL when the method could not tell; counts in full (a %g of a million
 * segments is "1e+06", which no bigint column takes) */
static const char *fmt(char *buf, size_t cap, double v, int have)
{
    if (!have || isnan(v))
        return NULL;
    snprintf(buf, cap, "%.6g", v);
    return buf;
}

static const char *ifmt(char *buf, size_t cap, long long v, int have)
{
    if (!have)
        return NULL;
    snprintf(buf, cap, "%lld", v);
    return buf;
}

static const char *const q_write =
    "INSERT INTO js_data.step_insights AS i (cluster_id, job_id, step_id, light, disturbed, cause, lost_s, "
    "  lost_pct, slices, dented_slices, disturbed_slices, evidence, segments, segment_groups, segments_flagged, "
    "  segment_excess_s, interference_pct, interference_class, io_period_s, io_period_z, io_sigma_vol, "
    "  io_sigma_time, io_time_share, io_phase_bandwidth, write_pattern, incomplete, judged_by_sruns) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, "
    "        $23, $24, $25, $26, $27) "
    "ON CONFLICT (cluster_id, job_id, step_id) DO UPDATE SET computed_at = now(), light = $4, disturbed = $5, "
    "  cause = $6, lost_s = $7, lost_pct = $8, slices = $9, dented_slices = $10, disturbed_slices = $11, "
    "  evidence = $12, segments = $13, segment_groups = $14, segments_flagged = $15, segment_excess_s = $16, "
    "  interference_pct = $17, interference_class = $18, io_period_s = $19, io_period_z = $20, "
    "  io_sigma_vol = $21, io_sigma_time = $22, io_time_share = $23, io_phase_bandwidth = $24, "
    "  write_pattern = $25, incomplete = $26, judged_by_sruns = $27";

static int write_result(struct pi_db *db, const struct step_key *k, const struct step_result *res)
{
    char b[20][40];
    char *evidence = evidence_json(&res->d, res->fig.slice_s);
    int judged = res->d.judged, segs = res->have_segments, per = res->period.found;
    const char *cls = !segs ? NULL : res->interference_pct >= PI_IN_RED_PCT ? "high"
                                 : res->interference_pct >= PI_IN_YELLOW_PCT ? "medium" : "low";
    const char *v[27] = {
        k->cluster, k->job, k->step, res->v.light,
        res->fig.disturbed < 0 ? NULL : res->fig.disturbed ? "true" : "false",
        res->fig.disturbed == 1 ? res->fig.cause : NULL,
        fmt(b[0], 40, res->d.lost_s, judged), fmt(b[1], 40, res->lost_pct, judged),
        ifmt(b[2], 40, res->d.slices, 1), ifmt(b[3], 40, res->d.dented, 1), ifmt(b[4], 40, res->d.disturbed, 1),
        evidence,
        ifmt(b[5], 40, res->seg.segments, res->fig.ranks > 0), ifmt(b[6], 40, res->seg.groups_judged, segs),
        ifmt(b[7], 40, res->seg.flagged, segs), fmt(b[8], 40, res->seg.excess_ns / 1e9, segs),
        fmt(b[9], 40, res->interference_pct, segs), cls,
        fmt(b[10], 40, res->period.period_s, per), fmt(b[11], 40, res->period.z, per),
        fmt(b[12], 40, res->period.sigma_vol, per), fmt(b[13], 40, res->period.sigma_time, per),
        fmt(b[14], 40, res->period.time_share, per), fmt(b[15], 40, res->period.phase_bandwidth, per),
        res->pattern, res->incomplete, res->v.by_sruns ? "true" : "false",
    };
    /* the writes and the commit in one batch (one round trip), checked in order */
    const char *key[3] = { k->cluster, k->job, k->step };
    struct pi_in_advice advice[PI_ADVICE_MAX];
    const char *a[PI_ADVICE_MAX][7];
    int n = pi_in_advise(&res->fig, advice);
    n += pi_in_gpu_advise(&res->gpus, advice + n, PI_ADVICE_MAX - n);
    struct dbu_batch batch = { 0 };
    dbu_batch_add(&batch, "insight_write", q_write, 27, v, 0, "insight: write the step's insight");
    dbu_batch_add(&batch, "insight_advice_clear",
                  "DELETE FROM js_data.step_advice WHERE cluster_id = $1 AND job_id = $2 AND step_id = $3", 3, key, 0,
                  "insight: clear the step's advice");
    for (int i = 0; i < n; i++) {
        const char *row[7] = { k->cluster, k->job, k->step, advice[i].code, advice[i].severity, advice[i].message,
                               advice[i].figures };
        memcpy(a[i], row, sizeof row);
        dbu_batch_add(&batch, "insight_advice",
                      "INSERT INTO js_data.step_advice (cluster_id, job_id, step_id, code, severity, message, figures) "
                      "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                      7, a[i], 0, "insight: write the step's advice");
    }
    dbu_batch_add(&batch, "insight_requeue", "SELECT js_data.insight_requeue_neighbours($1, $2, $3)", 3, key, 0,
                  "insight: queue the step's neighbours again");
    dbu_batch_add(&batch, NULL, "COMMIT", 0, NULL, 0, "insight: commit");
    int rc = dbu_batch_run(db, &batch);
    free(evidence);
    dbu_batch_clear(&batch);
    return rc;
}

/* One step from the queue in one transaction, in three round trips (take, read, write and
 * commit): PI_DB_OK (*taken 0 when none was due), or an error. */
static int one_step(struct pi_db *db, const char *settle, int *taken)
{
    *taken = 0;
    const char *p[1] = { settle };
    struct dbu_batch b = { 0 };
    dbu_batch_add(&b, NULL, "BEGIN", 0, NULL, 0, "insight: begin");
    /* every statement of a step looks up by key: planned once a session, not at each step; and
     * never by reading a table whole: planned while step_insights and step_advice were small
     * (empty at an ANALYZE), their lookups read the whole table for every step until autovacuum
     * analyzed them again (bench/web/synth.sql's database: 3 ms a step more every 200 steps) */
    dbu_batch_add(&b, NULL, "SET LOCAL plan_cache_mode = force_generic_plan", 0, NULL, 0, "insight: plan once");
    dbu_batch_add(&b, NULL, "SET LOCAL enable_seqscan = off", 0, NULL, 0, "insight: by key");
    dbu_batch_add(&b, "insight_take", "SELECT cluster_id, job_id, step_id FROM js_data.insight_take($1::interval, 1)", 1,
                  p, 0, "insight: take a step");
    int rc = dbu_batch_run(db, &b);
    if (rc != PI_DB_OK) {
        dbu_rollback(db);
        return rc;
    }
    if (PQntuples(b.r[3]) == 0) {
        dbu_batch_clear(&b);
        return dbu_exec(db, "COMMIT", "insight: commit");
    }
    struct step_key k;
    snprintf(k.cluster, sizeof k.cluster, "%s", PQgetvalue(b.r[3], 0, 0));
    snprintf(k.job, sizeof k.job, "%s", PQgetvalue(b.r[3], 0, 1));
    snprintf(k.step, sizeof k.step, "%s", PQgetvalue(b.r[3], 0, 2));
    dbu_batch_clear(&b);
    *taken = 1;
    struct step_result res;
    int known = 0;
    rc = analyse(db, &k, &res, &known);
    if (rc == PI_DB_OK && !known)
        return dbu_exec(db, "COMMIT", "insight: commit");
    if (rc == PI_DB_OK)
        rc = write_result(db, &k, &res); /* and commits */
    if (rc == PI_DB_OK)
        return rc;
    dbu_rollback(db);
    if (rc == PI_DB_FAIL) {
        /* a reason of its own: out of the queue, or it would be taken first again and again */
        pi_error("insight of job %s step %s failed (see above); it is computed again when a record of it arrives",
                 k.job, k.step);
        const char *key[3] = { k.cluster, k.job, k.step };
        dbu_check(db,
                  dbu_q(db, "DELETE FROM js_data.insight_pending WHERE cluster_id = $1 AND job_id = $2 AND step_id = $3",
                        3, key),
                  PGRES_COMMAND_OK, "insight: drop a failed step from the queue");
    }
    return rc;
}

/* The queue's length after a pass: counted up to 10,000; beyond, the statistics' count of its
 * live rows (pg_stat_user_tables.n_live_tup, which inserts and deletes keep, a second or so
 * behind; lost by a crash, so at least the 10,000 counted). A count of 10^6 queued steps took
 * 50-120 ms a pass (a quarter of a pass of 200 steps); 10^7 would take a second. */
static const char *const q_queued =
    "SELECT CASE WHEN c.n < 10000 THEN c.n "
    "            ELSE greatest(c.n, pg_stat_get_live_tuples('js_data.insight_pending'::regclass)) END "
    "FROM (SELECT count(*) AS n FROM (SELECT FROM js_data.insight_pending LIMIT 10000) x) c";

int pi_db_insight(struct pi_db *db, int settle_seconds, long *done, long *failed, long *queued)
{
    char settle[32];
    snprintf(settle, sizeof settle, "%d seconds", settle_seconds);
    *done = *failed = *queued = 0;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < INSIGHT_BATCH; i++) {
        int taken = 0;
        int rc = one_step(db, settle_seconds < 0 ? NULL : settle, &taken); /* NULL: due or not */
        if (rc == PI_DB_RETRY)
            return rc;
        if (!taken)
            break;
        if (rc == PI_DB_OK)
            (*done)++;
        else
            (*failed)++;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 >= INSIGHT_PASS_SECONDS)
            break;
    }
    PGresult *r = dbu_q(db, q_queued, 0, NULL);
    if (!r || PQresultStatus(r) != PGRES_TUPLES_OK)
        return dbu_check(db, r, PGRES_TUPLES_OK, "insight: the queue's length");
    *queued = inum(r, 0, 0);
    PQclear(r);
    return PI_DB_OK;
}
