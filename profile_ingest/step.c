/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One step record's way through a pass (struct item): prepared on the main thread (its job
 * and step records read and checked), loaded on a worker thread (its profiles read, checked
 * and merged: files and memory only), committed on the main thread (one transaction, then its
 * files handed to durable.c). The pipeline that overlaps them is pass.c's.
 */
#include "config.h"

#include "ingest.h"
#include "ingest_gpu.h"
#include "ingest_spool.h"
#include "log.h"
#include "metrics.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A step record whose job record is gone: when the database has its step-node, it is a copy
 * of something ingested (a sender that sent it again, killed after the receiver stored it and
 * before it removed it, once this job's directory was ingested and removed): cleaned as
 * pi_commit_steps cleans what was ingested before, and the job directory goes if that emptied
 * it. 1 when cleaned; 0 when it must wait for its job record. */
static int clean_if_ingested(struct ctx *c, struct item *it, const char *path)
{
    char reason[PI_REASON_MAX], cluster[256];
    int invalid, gone, known = 0;
    char **q = NULL;
    /* the step-node key is the step record's cluster (the job record's, which is gone) */
    json_t *rec = pi_read_record(c, it->jobfd, it->jobname, it->recname, 1, reason, sizeof reason, &invalid, &gone);
    if (!rec)
        return 0;
    const char *cl = json_string_value(json_object_get(rec, "cluster"));
    snprintf(cluster, sizeof cluster, "%s", cl && *cl ? cl : c->conf.cluster);
    int same = json_integer_value(json_object_get(rec, "job_id")) == it->job &&
               !strcmp(json_string_value(json_object_get(rec, "step")), it->step) &&
               !strcmp(json_string_value(json_object_get(rec, "node")), it->node);
    json_decref(rec);
    if (!same || pi_db_ensure(&c->db, c->conf.migrate) != PI_DB_OK ||
        pi_db_step_node_known(&c->db, cluster, it->job, it->step, it->node, &known) != PI_DB_OK || !known)
        return 0;
    int done = pi_db_durable(&c->db) == PI_DB_OK &&
               pi_db_quarantined(&c->db, cluster, it->job, it->step, it->node, &q) == PI_DB_OK;
    if (done) {
        pi_info("%s was ingested before (its job directory went since); cleaning the spool", path);
        pi_clean_step(c, it->jobfd, it->job, it->recname, it->step, it->node, q);
        /* only when empty: a parcel being stored into it keeps it */
        if (unlinkat(it->jobfd, JS_PROFILES_DIR_NAME, AT_REMOVEDIR) == 0 || errno == ENOENT)
            unlinkat(c->spoolfd, it->jobname, AT_REMOVEDIR);
    }
    pi_free_list(q);
    return done;
}

int pi_prepare_step(struct ctx *c, struct item *it, struct scan_result *res)
{
    char reason[PI_REASON_MAX], path[PATH_MAX];
    int invalid, gone, jobfd = it->jobfd;
    const char *jobname = it->jobname, *recname = it->recname, *step = it->step, *node = it->node;
    long long job = it->job;
    it->ready = 0;
    it->pfd = -1;
    snprintf(path, sizeof path, "%s/%s", jobname, recname);
    json_t *jobrec = pi_read_record(c, jobfd, jobname, JS_JOB_RECORD_NAME, 0, reason, sizeof reason, &invalid, &gone);
    if (!jobrec) {
        char jpath[PATH_MAX];
        snprintf(jpath, sizeof jpath, "%s/%s", jobname, JS_JOB_RECORD_NAME);
        if (invalid)
            pi_kept(c, jpath, reason);
        else if (gone && clean_if_ingested(c, it, path))
            return 0;
        else if (gone)
            pi_kept(c, path, "no job record (job.json) yet");
        res->backlog++;
        return 0;
    }
    json_t *rec = pi_read_record(c, jobfd, jobname, recname, 1, reason, sizeof reason, &invalid, &gone);
    if (!rec) {
        json_decref(jobrec);
        if (invalid)
            pi_quarantine_record(c, jobfd, job, recname, step, node, reason, res);
        else if (!gone)
            res->backlog++;
        return 0;
    }
    if (pi_records_disagree(jobrec, rec, job, step, node, reason, sizeof reason)) {
        json_decref(jobrec);
        json_decref(rec);
        pi_quarantine_record(c, jobfd, job, recname, step, node, reason, res);
        return 0;
    }
    pi_step_init(&it->st, jobrec, rec, c->conf.cluster);
    pi_gpu_take(&it->st, path);
    it->conf = &c->conf;
    it->ready = 1;
    return 1;
}

/* One profile file (or bundle) of the item's step-node into its step; *count: the profiles
 * so far, within max_profiles. */
static void read_profile_file(struct item *it, const char *name, int *count)
{
    struct pi_step *st = &it->st;
    char reason[PI_REASON_MAX];
    char *buf = NULL;
    size_t len = 0;
    if (++*count > it->conf->max_profiles) {
        snprintf(reason, sizeof reason, "more than %d profiles for one step on one node", it->conf->max_profiles);
        pi_step_add_bad(st, name, reason);
        return;
    }
    /* in a received spool the receiver wrote every file, after checking that root on
     * the node sent it (root's relay only copies the job user's own files) */
    uid_t owner = it->conf->received ? (uid_t)it->conf->record_uid : (uid_t)st->uid;
    int r = pi_read_file(it->pfd, name, owner, it->conf->received ? "the receiver (record_uid)" : "the job's user",
                         it->conf->max_profile_bytes, &buf, &len, reason, sizeof reason);
    if (r == PI_READ_GONE)
        return;
    if (r == PI_READ_REFUSED) {
        pi_step_add_bad(st, name, reason);
        return;
    }
    json_t *p = pi_json_parse(buf, len, reason, sizeof reason);
    free(buf);
    if (p && pi_is_bundle(p)) {
        /* a bundle: each profile counts, the good ones go in, the file is kept with the
         * first bad one's reason */
        if (pi_bundle_add(st, it->conf, p, count, reason, sizeof reason) != PI_OK)
            pi_step_add_bad(st, name, reason);
    } else if (!p || pi_profile_add(st, it->conf, p, reason, sizeof reason) != PI_OK) {
        pi_step_add_bad(st, name, reason);
    }
    json_decref(p);
}

void pi_read_profiles(struct item *it)
{
    it->pfd = pi_open_dir(it->jobfd, JS_PROFILES_DIR_NAME);
    it->bad_profiles_dir = it->pfd < 0 && errno != ENOENT;
    if (it->pfd < 0)
        return;
    DIR *d = fdopendir(dup(it->pfd));
    struct dirent *e;
    int count = 0;
    while (d && (e = readdir(d)))
        if (pi_profile_name_matches(e->d_name, it->step, it->node))
            read_profile_file(it, e->d_name, &count);
    if (d)
        closedir(d);
}

void *pi_load_profiles(void *arg)
{
    struct item *it = arg;
    pi_read_profiles(it);
    pi_step_finish(&it->st);
    return NULL;
}

/* Where each refused file of st will go in the quarantine (not PATH_MAX each: 10^5 refusals
 * made 400 MB of it). */
static char **quarantine_paths(struct ctx *c, long long job, const struct pi_step *st)
{
    char **moved = calloc(st->nbad + 1, sizeof *moved);
    for (size_t i = 0; i < st->nbad; i++) {
        char to[PATH_MAX];
        pi_quarantine_path(to, sizeof to, c->qdir, job, st->bad[i].name);
        if (!(moved[i] = strdup(to)))
            abort();
    }
    return moved;
}

/* Committed (asynchronously): counted, and its files handed to the cleanup that follows the
 * next durable commit. */
static void step_ingested(struct ctx *c, const struct item *it, const struct pi_step *st, const char *path,
                          struct scan_result *res)
{
    pi_info("ingested %s: %zu profiles, %zu slice rows, %zu files%s", path, st->nprocs, st->nslices, st->nfiles,
            st->nbad ? ", some refused: step marked incomplete" : "");
    struct timespec done;
    clock_gettime(CLOCK_REALTIME, &done);
    pi_metrics_step(st->end_ns > 0 ? (double)done.tv_sec + (double)done.tv_nsec / 1e9 - (double)st->end_ns / 1e9 : -1,
                    (long)st->nprocs, (long)st->nslices, (long)st->nbad);
    res->steps++;
    res->profiles += (long)st->nprocs;
    res->slices += (long)st->nslices;
    res->refused += (long)st->nbad;
    char **q = calloc(2 * st->nbad + 1, sizeof *q);
    for (size_t i = 0; i < st->nbad; i++) {
        char f[PATH_MAX];
        snprintf(f, sizeof f, "job.%lld/%s/%s", it->job, JS_PROFILES_DIR_NAME, st->bad[i].name);
        q[2 * i] = strdup(f);
        q[2 * i + 1] = strdup(st->bad[i].reason);
    }
    pi_defer_cleanup(c, it, q);
}

/* Ingested before (a kill between commit and cleanup, another daemon, a rerun): make sure
 * that commit is durable, then treat each file as that ingest did. */
static void step_ingested_before(struct ctx *c, const struct item *it, const struct pi_step *st, const char *path)
{
    char **q = NULL;
    if (pi_db_durable(&c->db) == PI_DB_OK &&
        pi_db_quarantined(&c->db, st->cluster, it->job, it->step, it->node, &q) == PI_DB_OK) {
        pi_info("%s was ingested before; cleaning the spool", path);
        pi_clean_step(c, it->jobfd, it->job, it->recname, it->step, it->node, q);
    }
    pi_free_list(q);
}

void pi_commit_steps(struct ctx *c, struct item **its, int n, struct scan_result *res)
{
    struct pi_step **sts = calloc((size_t)n + 1, sizeof *sts);
    char ***moved = calloc((size_t)n + 1, sizeof *moved);
    int *rcs = calloc((size_t)n + 1, sizeof *rcs);
    if (!sts || !moved || !rcs)
        abort();
    for (int k = 0; k < n; k++) {
        sts[k] = &its[k]->st;
        moved[k] = quarantine_paths(c, its[k]->job, sts[k]);
        rcs[k] = PI_DB_RETRY;
    }
    if (n > 0 && pi_db_ensure(&c->db, c->conf.migrate) == PI_DB_OK)
        pi_db_ingest_batch(&c->db, &c->conf, sts, (char *const *const *)moved, n, rcs);
    for (int k = 0; k < n; k++) {
        struct item *it = its[k];
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", it->jobname, it->recname);
        it->ready = 0;
        if (it->bad_profiles_dir)
            pi_kept(c, path, "its profiles/ directory is not a directory (or is a link): profiles ignored");
        if (rcs[k] == PI_DB_OK) {
            step_ingested(c, it, sts[k], path, res);
        } else if (rcs[k] == PI_DB_DONE) {
            step_ingested_before(c, it, sts[k], path);
        } else if (rcs[k] == PI_DB_BUSY) {
            pi_debug("%s: another profile_ingest is on it", path);
        } else {
            res->retry |= rcs[k] == PI_DB_RETRY;
            res->failed += rcs[k] == PI_DB_FAIL;
            res->backlog++;
        }
        pi_free_list(moved[k]);
        if (it->pfd >= 0)
            close(it->pfd);
        it->pfd = -1;
        pi_step_free(&it->st);
    }
    free(sts);
    free(moved);
    free(rcs);
}
