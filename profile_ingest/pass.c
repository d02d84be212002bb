/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One pass over the spool: list its job directories and their step records in name order,
 * plan the pass (each user's share and the budgets, plan.h), take the step records through
 * the pipeline (many in one transaction; the next transaction's profiles load on a worker
 * thread while this one is written),
 * then see to the job directories (live snapshots; those whose step records are all in), and
 * fold what the pass queued into the slice totals.
 */
#include "config.h"

#include "ingest.h"
#include "ingest_spool.h"
#include "insight.h"
#include "log.h"
#include "metrics.h"
#include "plan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

struct jobdir {
    char *name;
    long long job;
    int fd;
    size_t first, n;           /* its items */
};

/* What a pass works on: the job directories and their step records, in name order. */
struct pass {
    char **names;              /* of the job directories */
    size_t nnames;
    struct jobdir *jobs;
    size_t njobs;
    struct item *items;
    size_t nitems;
};

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* ---- the plan: who goes in this pass, in what order ---- */

struct cost_key {
    char key[JS_STEP_NAME_MAX + 258]; /* "<step>.<node>" */
    struct item *it;
};

static int cmp_cost_key(const void *a, const void *b)
{
    return strcmp(((const struct cost_key *)a)->key, ((const struct cost_key *)b)->key);
}

/* The user and the cost (plan.h) of a job directory's step records: the job record's uid, and
 * each profile file of the step-node at its size (at least PI_SCHED_FILE_MIN), from one
 * listing of profiles/ (a file's size from fstatat: nothing is opened). */
static void cost_job(struct ctx *c, struct jobdir *j, struct item *its)
{
    char reason[PI_REASON_MAX];
    int invalid, gone;
    json_t *jr = pi_read_record(c, j->fd, j->name, JS_JOB_RECORD_NAME, 0, reason, sizeof reason, &invalid, &gone);
    long long uid = jr ? (long long)json_integer_value(json_object_get(jr, "uid")) : -1;
    json_decref(jr);
    struct cost_key *keys = calloc(j->n + 1, sizeof *keys);
    if (!keys)
        abort();
    for (size_t k = 0; k < j->n; k++) {
        its[k].uid = uid;
        its[k].cost = PI_SCHED_FILE_MIN;
        snprintf(keys[k].key, sizeof keys[k].key, "%s.%s", its[k].step, its[k].node);
        keys[k].it = &its[k];
    }
    qsort(keys, j->n, sizeof *keys, cmp_cost_key);
    int pfd = pi_open_dir(j->fd, JS_PROFILES_DIR_NAME);
    DIR *d = pfd >= 0 ? fdopendir(pfd) : NULL;
    struct dirent *e;
    size_t sl = strlen(JS_RECORD_SUFFIX);
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len <= sl || strcmp(e->d_name + len - sl, JS_RECORD_SUFFIX) != 0)
            continue;
        const char *dot = NULL; /* "<step>.<node>.<id>.json": the key ends at the dot before <id> */
        for (const char *p = e->d_name; p < e->d_name + len - sl; p++)
            if (*p == '.')
                dot = p;
        if (!dot || (size_t)(dot - e->d_name) >= sizeof keys[0].key)
            continue;
        struct cost_key want;
        memcpy(want.key, e->d_name, (size_t)(dot - e->d_name));
        want.key[dot - e->d_name] = '\0';
        struct cost_key *hit = bsearch(&want, keys, j->n, sizeof *keys, cmp_cost_key);
        if (!hit)
            continue;
        struct stat sb;
        long long size = fstatat(pfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode) ? (long long)sb.st_size : 0;
        hit->it->cost += pi_sched_file_cost(size);
    }
    if (d)
        closedir(d);
    else if (pfd >= 0)
        close(pfd);
    free(keys);
}

/* Log what waits for the next pass, per user (the items of a user are together in name order,
 * not in items[]), and for the pass's budget; remember the latter as aged in c. */
static void log_waiting(struct ctx *c, const struct pi_sched_item *si, const struct item *items, size_t nitems)
{
    char key[PATH_MAX * 2];
    long long pass_bytes = 0;
    size_t pass_left = 0;
    for (size_t i = 0; i < nitems; i++) {
        if (si[i].fate == PI_SCHED_PASS_BUDGET) {
            pass_left++;
            pass_bytes += si[i].cost;
            if (c->naged < PI_AGED_MAX) {
                char **a = realloc(c->aged, (c->naged + 1) * sizeof *a);
                if (!a)
                    abort();
                c->aged = a;
                snprintf(key, sizeof key, "%s/%s", items[i].jobname, items[i].recname);
                c->aged[c->naged++] = strdup(key);
            }
        } else if (si[i].fate == PI_SCHED_USER_BUDGET) {
            int first = 1; /* log once per user: at its first step record left */
            for (size_t k = 0; k < i && first; k++)
                first = !(si[k].fate == PI_SCHED_USER_BUDGET && si[k].uid == si[i].uid);
            if (!first)
                continue;
            size_t n = 0;
            long long bytes = 0;
            for (size_t k = i; k < nitems; k++)
                if (si[k].fate == PI_SCHED_USER_BUDGET && si[k].uid == si[i].uid) {
                    n++;
                    bytes += si[k].cost;
                }
            pi_info("budget: %zu step records of uid %lld (%lld bytes of profiles) wait for the next pass: the user's "
                    "budget of %lld bytes a pass (user_budget_bytes) is spent",
                    n, si[i].uid, bytes, c->conf.user_budget_bytes);
        }
    }
    if (pass_left)
        pi_info("budget: %zu step records (%lld bytes of profiles) wait for the next pass, where they go first: the "
                "pass's budget of %lld bytes (pass_budget_bytes) is spent",
                pass_left, pass_bytes, c->conf.pass_budget_bytes);
}

/* The order of a pass (plan.h): each user's step records in name order, users by weighted
 * fair queuing, within user_budget_bytes for a user and pass_budget_bytes for the pass; the
 * ones left wait for the next pass (logged at info: no data is lost), those the pass's budget
 * left go first in it.  order[] receives the items to take; returns how many. */
static size_t plan_pass(struct ctx *c, struct pass *p, size_t *order, struct scan_result *res)
{
    for (size_t k = 0; k < p->njobs; k++)
        cost_job(c, &p->jobs[k], p->items + p->jobs[k].first);
    struct pi_sched_item *si = calloc(p->nitems + 1, sizeof *si);
    if (!si)
        abort();
    char key[PATH_MAX * 2];
    for (size_t i = 0; i < p->nitems; i++) {
        si[i].uid = p->items[i].uid;
        si[i].cost = p->items[i].cost;
        snprintf(key, sizeof key, "%s/%s", p->items[i].jobname, p->items[i].recname);
        char *kp = key;
        si[i].aged = c->naged && bsearch(&kp, c->aged, c->naged, sizeof *c->aged, cmp_str) != NULL;
    }
    size_t ntaken = pi_sched_plan(si, p->nitems, c->conf.user_budget_bytes, c->conf.pass_budget_bytes, order);
    for (size_t i = 0; i < c->naged; i++)
        free(c->aged[i]);
    c->naged = 0;
    log_waiting(c, si, p->items, p->nitems);
    qsort(c->aged, c->naged, sizeof *c->aged, cmp_str);
    res->deferred = (long)(p->nitems - ntaken);
    res->backlog += res->deferred;
    free(si);
    return ntaken;
}

/* ---- the listing ---- */

/* The names of the spool's job directories, sorted; each job marked as listed in the jobs
 * seen (seen.h). 0, or -1 when the listing may be incomplete. */
static int list_job_dirs(struct ctx *c, int spoolfd, struct pass *p)
{
    DIR *d = fdopendir(dup(spoolfd));
    struct dirent *e;
    int rc = d ? 0 : -1;
    pi_seen_begin_pass(&c->seen);
    for (errno = 0; d && (e = readdir(d)); errno = 0) {
        long long job;
        if (e->d_name[0] == '.' || pi_parse_job_dir(e->d_name, &job) < 0)
            continue;
        pi_seen_listed(&c->seen, job);
        p->names = realloc(p->names, (p->nnames + 1) * sizeof *p->names);
        p->names[p->nnames++] = strdup(e->d_name);
    }
    if (d && errno)
        rc = -1;
    if (d)
        closedir(d);
    qsort(p->names, p->nnames, sizeof *p->names, cmp_str);
    return rc;
}

/* A job directory, opened when it is one of the record owner's (and watched for new files);
 * -1 (kept) when not. */
static int open_job_dir(struct ctx *c, int spoolfd, const char *name)
{
    int jobfd = pi_open_dir(spoolfd, name);
    if (jobfd < 0) {
        if (errno != ENOENT)
            pi_kept(c, name, errno == ELOOP || errno == ENOTDIR ? "not a directory (or a link): never followed" : strerror(errno));
        return -1;
    }
    struct stat sb;
    if (fstat(jobfd, &sb) < 0 || sb.st_uid != (uid_t)c->conf.record_uid) {
        pi_kept(c, name, "job directory is not owned by the record owner (record_uid): ignored");
        close(jobfd);
        return -1;
    }
    if (c->inotify_fd >= 0) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", c->conf.spool, name);
        inotify_add_watch(c->inotify_fd, path, IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE | IN_DONT_FOLLOW | IN_ONLYDIR);
    }
    return jobfd;
}

/* The step records of job directory j, in name order, as items of the pass. */
static void add_step_records(struct pass *p, struct jobdir *j)
{
    DIR *jd = fdopendir(dup(j->fd));
    struct dirent *e;
    char **recs = NULL;
    size_t nrecs = 0;
    while (jd && (e = readdir(jd))) {
        char step[JS_STEP_NAME_MAX], node[256];
        if (e->d_name[0] == '.' || pi_parse_step_record_name(e->d_name, step, sizeof step, node, sizeof node) < 0)
            continue;
        recs = realloc(recs, (nrecs + 1) * sizeof *recs);
        recs[nrecs++] = strdup(e->d_name);
    }
    if (jd)
        closedir(jd);
    qsort(recs, nrecs, sizeof *recs, cmp_str);
    j->first = p->nitems;
    p->items = realloc(p->items, (p->nitems + nrecs + 1) * sizeof *p->items);
    for (size_t k = 0; k < nrecs; k++) {
        struct item *it = &p->items[p->nitems++];
        memset(it, 0, sizeof *it);
        it->jobname = j->name;
        it->recname = recs[k];
        it->job = j->job;
        it->jobfd = j->fd;
        it->pfd = -1;
        pi_parse_step_record_name(recs[k], it->step, sizeof it->step, it->node, sizeof it->node);
    }
    free(recs);
    j->n = p->nitems - j->first;
}

/* The job directories and their step records, in name order. 0, or -1 when the listing of
 * the spool may be incomplete. */
static int list_pass(struct ctx *c, int spoolfd, struct pass *p)
{
    int rc = list_job_dirs(c, spoolfd, p);
    p->jobs = calloc(p->nnames + 1, sizeof *p->jobs);
    for (size_t i = 0; i < p->nnames; i++) {
        long long job;
        pi_parse_job_dir(p->names[i], &job);
        int jobfd = open_job_dir(c, spoolfd, p->names[i]);
        if (jobfd < 0)
            continue;
        struct jobdir *j = &p->jobs[p->njobs++];
        j->name = p->names[i];
        j->job = job;
        j->fd = jobfd;
        add_step_records(p, j);
    }
    return rc;
}

/* ---- the pipeline, and the job directories after it ---- */

/* The items of the next transaction, from order[*pos] on: prepared (main thread), up to
 * PI_DB_BATCH_MAX ready ones with PI_BATCH_BYTES of profiles; how many into out[]. */
static int prepare_batch(struct ctx *c, struct item *items, const size_t *order, size_t ntaken, size_t *pos,
                         struct item **out, struct scan_result *res)
{
    int n = 0;
    long long bytes = 0;
    while (*pos < ntaken && n < PI_DB_BATCH_MAX && bytes < PI_BATCH_BYTES) {
        struct item *it = &items[order[(*pos)++]];
        if (pi_prepare_step(c, it, res)) {
            out[n++] = it;
            bytes += it->cost;
        }
    }
    return n;
}

struct load_job {
    struct item **its;
    int n;
};

static void *load_batch(void *arg)
{
    struct load_job *j = arg;
    for (int k = 0; k < j->n; k++)
        pi_load_profiles(j->its[k]);
    return NULL;
}

/* The step records of order[], ntaken of them, a transaction of many at a time (dbbatch.c):
 * the next transaction's profiles load on a worker thread while this one is written; a stop or
 * the database gone leaves the rest to a later pass. */
static void run_pipeline(struct ctx *c, struct item *items, const size_t *order, size_t ntaken, int spoolfd,
                         struct scan_result *res)
{
    struct item *cur[PI_DB_BATCH_MAX], *next[PI_DB_BATCH_MAX];
    size_t pos = 0;
    int ncur = prepare_batch(c, items, order, ntaken, &pos, cur, res);
    struct load_job first = { cur, ncur };
    load_batch(&first);
    while (ncur > 0) {
        if (*c->stop || res->retry) {
            res->backlog += (long)(ntaken - pos) + ncur;
            break;
        }
        struct load_job lj = { next, prepare_batch(c, items, order, ntaken, &pos, next, res) };
        pthread_t worker;
        int working = lj.n > 0 && pthread_create(&worker, NULL, load_batch, &lj) == 0;
        if (!working)
            load_batch(&lj);
        pi_commit_steps(c, cur, ncur, res);
        if (c->ndeferred >= PI_DEFER_MAX)
            pi_flush_deferred(c, spoolfd, res);
        if (working)
            pthread_join(worker, NULL);
        memcpy(cur, next, (size_t)lj.n * sizeof *cur);
        ncur = lj.n;
    }
}

/* Live snapshots, and the job directories whose step records are all gone. */
static void finish_job_dirs(struct ctx *c, int spoolfd, struct pass *p, int dry_run, struct scan_result *res)
{
    for (size_t k = 0; k < p->njobs; k++) {
        struct jobdir *j = &p->jobs[k];
        size_t left = 0;
        for (size_t r = j->first; r < j->first + j->n; r++)
            if (faccessat(j->fd, p->items[r].recname, F_OK, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT)
                left++;
        if (!dry_run && !*c->stop && !res->retry)
            pi_process_live(c, j->fd, j->name, j->job, res);
        if (!dry_run && !*c->stop && !res->retry && left == 0)
            pi_process_job_dir(c, spoolfd, j->fd, j->name, j->job, res);
        close(j->fd);
    }
}

/* The step records prepared and never committed (stop, database down): let go. */
static void drop_uncommitted(struct pass *p)
{
    for (size_t k = 0; k < p->nitems; k++) {
        if (p->items[k].ready) {
            if (p->items[k].pfd >= 0)
                close(p->items[k].pfd);
            pi_step_free(&p->items[k].st);
        }
    }
}

static void free_pass(struct pass *p)
{
    for (size_t k = 0; k < p->nitems; k++)
        free(p->items[k].recname);
    free(p->items);
    free(p->jobs);
    for (size_t k = 0; k < p->nnames; k++)
        free(p->names[k]);
    free(p->names);
}

void pi_scan(struct ctx *c, struct scan_result *res, int dry_run)
{
    memset(res, 0, sizeof *res);
    int spoolfd = open(c->conf.spool, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    c->spoolfd = spoolfd;
    if (spoolfd < 0) {
        char r[512];
        snprintf(r, sizeof r, "cannot open the spool: %s", strerror(errno));
        pi_kept(c, c->conf.spool, r);
        return;
    }
    struct pass p;
    memset(&p, 0, sizeof p);
    int listed = list_pass(c, spoolfd, &p);

    /* the order of the step records, and what waits for the next pass */
    size_t *order = calloc(p.nitems + 1, sizeof *order), ntaken = 0;
    if (!order)
        abort();
    if (dry_run)
        res->backlog = (long)p.nitems;
    else
        ntaken = plan_pass(c, &p, order, res);
    run_pipeline(c, p.items, order, ntaken, spoolfd, res);
    free(order);
    drop_uncommitted(&p);
    pi_flush_deferred(c, spoolfd, res);
    finish_job_dirs(c, spoolfd, &p, dry_run, res);
    /* the jobs seen whose directories are gone (removed, or ingested by another daemon) are
     * forgotten: the table holds no more jobs than the spool */
    if (listed == 0)
        pi_seen_end_pass(&c->seen);
    free_pass(&p);
    close(spoolfd);
    c->spoolfd = -1;
}

void pi_rollup(struct ctx *c, struct scan_result *res, enum pi_insight_when insight, enum pi_keep_when keep)
{
    long folded = 0, insights = 0, failed = 0, queued = 0;
    int rc = pi_db_ensure(&c->db, c->conf.migrate);
    if (rc == PI_DB_OK)
        rc = pi_db_rollup(&c->db, &folded);
    /* after the fold: a step's background is complete in the totals */
    if (rc == PI_DB_OK && insight != PI_INSIGHT_NONE) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        rc = pi_db_insight(&c->db, insight == PI_INSIGHT_ALL ? -1 : c->conf.insight_settle_seconds, &insights,
                           &failed, &queued);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        pi_metrics_insight(insights, failed, s, queued);
        res->insights = insights;
        res->insights_queued = queued;
        if (insights || failed)
            pi_info("computed the insight of %ld steps in %.3f s (%ld failed, %ld queued)", insights, s, failed, queued);
    }
    /* after the insight: the graph shows none of it, but the pass's changes are all in */
    if (rc == PI_DB_OK && keep != PI_KEEP_NONE) {
        long kept = 0, dropped = 0;
        int all = keep == PI_KEEP_ALL, settle = all ? 0 : c->conf.replies_settle_seconds;
        rc = pi_db_replies(&c->db, c->conf.replies_min_jobs, all, settle, &kept, &dropped);
        if (kept || dropped)
            pi_debug("stored the replies of %ld workflows (%ld dropped)", kept, dropped);
        if (rc == PI_DB_OK)
            rc = pi_db_step_replies(&c->db, c->conf.replies_min_step_slices, c->conf.replies_min_job_rows,
                                    all, settle, &kept, &dropped);
        if (kept || dropped)
            pi_debug("stored %ld step and job replies (%ld changes of jobs with none dropped)", kept, dropped);
        kept = dropped = 0;
        if (rc == PI_DB_OK)
            rc = pi_db_file_replies(&c->db, c->conf.replies_min_file_rows, all, settle, &kept,
                                    &dropped);
        if (kept || dropped)
            pi_debug("stored %ld file replies (%ld changes of files with none dropped)", kept, dropped);
    }
    if (rc == PI_DB_RETRY)
        res->retry = 1;
    else if (rc != PI_DB_OK)
        res->failed++;
    if (folded)
        pi_debug("folded %ld step records into the slice totals", folded);
}
