/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Live snapshots (profiles/.live.<step>.<node>.json: the processes of a running step on a
 * node, docs/spool.md): for a step-node with no step record in its job directory yet, the
 * snapshot is validated like any bundle (a process may end "running"; the step's span is the
 * job's start until now) and stored as provisional rows (docs/ingest.md, "Running steps").
 * The snapshot belongs to the plugin: it is never moved or removed; a bad one is only logged
 * (once).
 */
#include "config.h"

#include "ingest.h"
#include "ingest_spool.h"
#include "log.h"
#include "slice.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* One snapshot of a job directory, as a pass finds it. */
struct snapshot {
    int jobfd, pfd;             /* the job directory and its profiles/ */
    const char *name;           /* in profiles/ */
    char path[PATH_MAX];        /* "job.<id>/profiles/<name>", for the log */
    char step[JS_STEP_NAME_MAX], node[256];
    long long job;
    json_t *jobrec;             /* borrowed: the job record it hangs on */
    long long mtime;            /* the time it is stored under */
};

#define LIVE_PREFIX ".live."

/* 1 when name is a live snapshot's: its step record's name into recname, step and node. */
static int snapshot_name(const char *name, char *recname, size_t rsize, struct snapshot *s)
{
    if (strncmp(name, LIVE_PREFIX, strlen(LIVE_PREFIX)) != 0)
        return 0;
    snprintf(recname, rsize, "%s%s", JS_STEP_RECORD_PREFIX, name + strlen(LIVE_PREFIX));
    return pi_parse_step_record_name(recname, s->step, sizeof s->step, s->node, sizeof s->node) == 0;
}

/* The job record a snapshot hangs on: NULL when there is none (yet) or it is another job's. */
static json_t *live_job_record(struct ctx *c, int jobfd, const char *jobname, long long job)
{
    char reason[PI_REASON_MAX];
    int invalid, gone;
    json_t *jobrec = pi_read_record(c, jobfd, jobname, JS_JOB_RECORD_NAME, 0, reason, sizeof reason, &invalid, &gone);
    if (jobrec && json_integer_value(json_object_get(jobrec, "job_id")) != job) {
        json_decref(jobrec);
        jobrec = NULL;
    }
    return jobrec;
}

/* The time a snapshot is stored under: its own, or profiles/'s when later (a newer snapshot
 * or a new bundle changes the directory or the snapshot); -1 when it is gone. */
static long long snapshot_time(const struct snapshot *s)
{
    struct stat sb;
    if (fstatat(s->pfd, s->name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
        return -1;
    long long mtime = (long long)sb.st_mtim.tv_sec * 1000000000LL + sb.st_mtim.tv_nsec;
    struct stat dsb;
    if (fstat(s->pfd, &dsb) == 0) {
        long long dm = (long long)dsb.st_mtim.tv_sec * 1000000000LL + dsb.st_mtim.tv_nsec;
        if (dm > mtime)
            mtime = dm;
    }
    return mtime;
}

static struct live_seen *live_seen_find(struct ctx *c, const char *path)
{
    for (size_t k = 0; k < c->nlive; k++)
        if (strcmp(c->live[k].key, path) == 0)
            return &c->live[k];
    return NULL;
}

/* Remember that path is stored under mtime (seen: its entry, or NULL for a new one). */
static void live_seen_remember(struct ctx *c, struct live_seen *seen, const char *path, long long mtime)
{
    if (!seen) {
        if (c->nlive >= PI_LIVE_SEEN_MAX) { /* bounded: forget them all, at worst read again */
            for (size_t k = 0; k < c->nlive; k++)
                free(c->live[k].key);
            c->nlive = 0;
        }
        struct live_seen *l = realloc(c->live, (c->nlive + 1) * sizeof *l);
        char *key = strdup(path);
        if (l)
            c->live = l;
        if (l && key) {
            seen = &c->live[c->nlive++];
            seen->key = key;
        } else {
            free(key);
        }
    }
    if (seen)
        seen->mtime = mtime;
}

/* The snapshot's bundle, read as its owner wrote it; NULL when gone or refused (kept). */
static json_t *read_snapshot(struct ctx *c, const struct snapshot *s, uint32_t uid)
{
    char reason[PI_REASON_MAX];
    uid_t owner = c->conf.received ? (uid_t)c->conf.record_uid : (uid_t)uid;
    char *buf = NULL;
    size_t len = 0;
    int r = pi_read_file(s->pfd, s->name, owner, c->conf.received ? "the receiver (record_uid)" : "the job's user",
                         c->conf.max_profile_bytes, &buf, &len, reason, sizeof reason);
    if (r == PI_READ_GONE)
        return NULL;
    if (r == PI_READ_REFUSED) {
        pi_kept(c, s->path, reason);
        return NULL;
    }
    json_t *b = pi_json_parse(buf, len, reason, sizeof reason);
    free(buf);
    if (!b || !pi_is_bundle(b)) {
        pi_kept(c, s->path, b ? "live snapshot is not a bundle of profiles" : reason);
        json_decref(b);
        return NULL;
    }
    return b;
}

/* The step record the snapshot stands in for: the span it must lie in is the job's start
 * (else the snapshot's time, less a day) to now. */
static json_t *live_step_record(const struct snapshot *s, const json_t *b, uint32_t uid)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    long long start = json_integer_value(json_object_get(s->jobrec, "start_ns"));
    if (start <= 0)
        start = s->mtime - 86400LL * 1000000000LL;
    json_int_t slen = json_integer_value(json_object_get(json_array_get(json_object_get(b, "profiles"), 0), "slice_seconds"));
    json_t *rec = json_pack("{s:I, s:I, s:s, s:s, s:I, s:I, s:I}", "job_id", (json_int_t)s->job, "uid", (json_int_t)uid,
                            "step", s->step, "node", s->node, "start_ns", (json_int_t)start,
                            "end_ns", (json_int_t)((long long)now.tv_sec * 1000000000LL + now.tv_nsec),
                            "slice_seconds", (json_int_t)(slen > 0 && slen <= 86400 ? slen : JS_SLICE_DEFAULT_SECONDS));
    const char *cl = json_string_value(json_object_get(s->jobrec, "cluster"));
    if (cl && *cl)
        json_object_set_new(rec, "cluster", json_string(cl));
    return rec;
}

/* The step-node so far: the processes that ended and were bundled are in the spool's bundles
 * (their refusals are left to the step record's ingest), the others in the snapshot b; one
 * that is in both (bundled after the snapshot was taken) counts once: dropped from b. */
static struct pi_step live_step(struct ctx *c, const struct snapshot *s, json_t *rec, json_t *b)
{
    struct item it;
    memset(&it, 0, sizeof it);
    it.jobfd = s->jobfd;
    it.conf = &c->conf;
    snprintf(it.step, sizeof it.step, "%s", s->step);
    snprintf(it.node, sizeof it.node, "%s", s->node);
    json_incref(s->jobrec);
    pi_step_init(&it.st, s->jobrec, rec, c->conf.cluster);
    it.st.live = 1;
    pi_read_profiles(&it);
    if (it.pfd >= 0)
        close(it.pfd);
    struct pi_step st = it.st;
    json_t *ps = json_object_get(b, "profiles");
    for (size_t k = json_array_size(ps); k-- > 0;) {
        const json_t *p = json_array_get(ps, k);
        json_int_t pid = json_integer_value(json_object_get(p, "pid"));
        json_int_t pstart = json_integer_value(json_object_get(p, "start_ns"));
        for (size_t x = 0; x < st.nprocs; x++)
            if (st.procs[x].pid == pid && st.procs[x].start_ns == pstart) {
                json_array_remove(ps, k);
                break;
            }
    }
    return st;
}

/* One snapshot: read unless unchanged since this process stored it, then stored. */
static void store_snapshot(struct ctx *c, struct snapshot *s, struct scan_result *res)
{
    char reason[PI_REASON_MAX];
    if ((s->mtime = snapshot_time(s)) < 0)
        return;
    struct live_seen *seen = live_seen_find(c, s->path);
    if (seen && seen->mtime == s->mtime)
        return;
    uint32_t uid = (uint32_t)json_integer_value(json_object_get(s->jobrec, "uid"));
    json_t *b = read_snapshot(c, s, uid);
    if (!b)
        return;
    struct pi_step st = live_step(c, s, live_step_record(s, b, uid), b);
    int count = (int)st.nprocs;
    if (pi_bundle_add(&st, &c->conf, b, &count, reason, sizeof reason) != PI_OK) {
        pi_kept(c, s->path, reason); /* the step record's own ingest will say what it refuses */
    } else {
        pi_step_finish(&st);
        int rc = pi_db_ensure(&c->db, c->conf.migrate);
        if (rc == PI_DB_OK)
            rc = pi_db_ingest_live(&c->db, &c->conf, &st, s->mtime);
        if (rc == PI_DB_OK)
            pi_info("live %s: %zu processes, %zu slice rows (provisional)", s->path, st.nprocs, st.nslices);
        if (rc == PI_DB_OK || rc == PI_DB_DONE)
            live_seen_remember(c, seen, s->path, s->mtime);
        res->retry |= rc == PI_DB_RETRY;
        res->failed += rc == PI_DB_FAIL;
    }
    json_decref(b);
    pi_step_free(&st);
}

void pi_process_live(struct ctx *c, int jobfd, const char *jobname, long long job, struct scan_result *res)
{
    int pfd = pi_open_dir(jobfd, JS_PROFILES_DIR_NAME);
    if (pfd < 0)
        return;
    DIR *d = fdopendir(dup(pfd));
    struct dirent *e;
    json_t *jobrec = NULL;
    int jobrec_tried = 0;
    while (d && (e = readdir(d)) && !*c->stop && !res->retry) {
        struct snapshot s = { .jobfd = jobfd, .pfd = pfd, .name = e->d_name, .job = job };
        char recname[PATH_MAX];
        if (!snapshot_name(e->d_name, recname, sizeof recname, &s))
            continue;
        /* its step record is there: the final data is on its way (or in) */
        if (faccessat(jobfd, recname, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
            continue;
        snprintf(s.path, sizeof s.path, "%s/%s/%s", jobname, JS_PROFILES_DIR_NAME, e->d_name);
        if (!jobrec_tried) {
            jobrec_tried = 1;
            jobrec = live_job_record(c, jobfd, jobname, job);
        }
        if (!jobrec)
            break; /* no job record (yet): nothing to hang the snapshot on */
        s.jobrec = jobrec;
        store_snapshot(c, &s, res);
    }
    if (d)
        closedir(d);
    json_decref(jobrec);
    close(pfd);
}
