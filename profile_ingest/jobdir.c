/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A job directory of the spool (SPOOL/job.<id>, docs/spool.md) once no step record is left in
 * it: its job row kept up to date (job.json becomes final at the job's end), and once the job
 * is over and its grace time has passed, its leftovers quarantined and the directory removed.
 * A directory that never got a job record goes the same way once nothing in it changes, so
 * that it cannot hold the spool for ever.
 */
#include "config.h"

#include "ingest.h"
#include "ingest_spool.h"
#include "log.h"
#include "slice.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int pi_parse_job_dir(const char *name, long long *job)
{
    if (strncmp(name, JS_JOB_DIR_PREFIX, strlen(JS_JOB_DIR_PREFIX)) != 0)
        return -1;
    const char *n = name + strlen(JS_JOB_DIR_PREFIX);
    if (*n < '1' || *n > '9')
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(n, &end, 10);
    if (errno || *end || v <= 0)
        return -1;
    *job = v;
    return 0;
}

/* The newest change time (ns) of a directory and of the entries in it, profiles/ included. */
static long long newest_change(int dirfd, const char *sub)
{
    struct stat sb;
    long long newest = 0;
    int fd = pi_open_dir(dirfd, sub);
    if (fd < 0)
        return 0;
    if (fstat(fd, &sb) == 0)
        newest = (long long)sb.st_mtim.tv_sec * 1000000000LL + sb.st_mtim.tv_nsec;
    DIR *d = fdopendir(dup(fd));
    struct dirent *e;
    if (d)
        rewinddir(d);
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            fstatat(fd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        long long t = (long long)sb.st_mtim.tv_sec * 1000000000LL + sb.st_mtim.tv_nsec;
        if (S_ISDIR(sb.st_mode) && strcmp(e->d_name, JS_PROFILES_DIR_NAME) == 0)
            t = newest_change(fd, e->d_name);
        if (t > newest)
            newest = t;
    }
    if (d)
        closedir(d);
    close(fd);
    return newest;
}

/* A job directory without a job record (the plugin could not write it: a full spool; or made
 * by hand) that nothing has touched for orphan_grace_seconds: its files are quarantined with
 * the reason and the directory removed. */
static void process_orphan_dir(struct ctx *c, int spoolfd, int jobfd, const char *jobname, long long job,
                               struct scan_result *res)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    long long newest = newest_change(spoolfd, jobname);
    if (newest == 0 || newest / 1000000000LL + c->conf.orphan_grace_seconds > now.tv_sec)
        return;
    if (pi_db_ensure(&c->db, c->conf.migrate) != PI_DB_OK) {
        res->retry = 1;
        return;
    }
    char why[128];
    snprintf(why, sizeof why, "no job record, and nothing in its directory changed for %d s",
             c->conf.orphan_grace_seconds);
    if (pi_quarantine_dir(c, jobfd, jobname, JS_PROFILES_DIR_NAME, job, c->conf.cluster, why, res) != 0)
        return;
    /* the step records and whatever else is beside them: alike */
    if (pi_quarantine_dir(c, spoolfd, jobname, jobname, job, c->conf.cluster, why, res) == 0)
        pi_info("%s: no job record for %d s; quarantined and removed", jobname, c->conf.orphan_grace_seconds);
}

/* job.json (sb: its stat) into the job row when it changed since this process wrote it, and
 * what it says of the job's end into s; a running job's job.json is re-read only when it
 * changes. 0, or -1 when it cannot be read (kept) or the database did not take it. */
static int refresh_job_row(struct ctx *c, int jobfd, const char *jobname, const struct stat *sb, struct seen_job *s,
                           struct scan_result *res)
{
    long long mt = (long long)sb->st_mtim.tv_sec * 1000000000LL + sb->st_mtim.tv_nsec;
    char reason[PI_REASON_MAX];
    int invalid, gone;
    if (s->mtime_ns == mt && s->size == (long long)sb->st_size)
        return 0;
    json_t *jr = pi_read_record(c, jobfd, jobname, JS_JOB_RECORD_NAME, 0, reason, sizeof reason, &invalid, &gone);
    if (!jr) {
        if (invalid) {
            char p[PATH_MAX];
            snprintf(p, sizeof p, "%s/%s", jobname, JS_JOB_RECORD_NAME);
            pi_kept(c, p, reason);
        }
        return -1;
    }
    const char *cl = json_string_value(json_object_get(jr, "cluster"));
    int rc = pi_db_ensure(&c->db, c->conf.migrate);
    if (rc == PI_DB_OK)
        rc = pi_db_ingest_job(&c->db, cl && *cl ? cl : c->conf.cluster, jr, JS_SLICE_DEFAULT_SECONDS);
    if (rc != PI_DB_OK) {
        res->retry |= rc == PI_DB_RETRY;
        json_decref(jr);
        return -1;
    }
    s->mtime_ns = mt;
    s->size = (long long)sb->st_size;
    s->final = json_is_true(json_object_get(jr, "final"));
    s->end_ns = json_is_integer(json_object_get(jr, "end_ns")) ? json_integer_value(json_object_get(jr, "end_ns")) : 0;
    json_decref(jr);
    return 0;
}

/* 1 when the directory may go: the job is final and ended job_grace_seconds ago, no file
 * arrived since (a node's backlog sent late; the bundles of a parcel whose receiver was killed
 * before its step record, which the sender sends again), and no step record appeared since
 * the pass listed it. */
static int job_dir_done(struct ctx *c, int spoolfd, int jobfd, const char *jobname, const struct seen_job *s)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (!s->final || s->end_ns / 1000000000LL + c->conf.job_grace_seconds > now.tv_sec)
        return 0;
    if (newest_change(spoolfd, jobname) / 1000000000LL + c->conf.job_grace_seconds > now.tv_sec)
        return 0;
    DIR *jd = fdopendir(dup(jobfd));
    struct dirent *de;
    int recs = 0;
    if (jd)
        rewinddir(jd); /* the duplicate shares the offset the pass's listing left at the end */
    while (jd && (de = readdir(jd))) {
        char st[JS_STEP_NAME_MAX], nd[256];
        recs += de->d_name[0] != '.' && pi_parse_step_record_name(de->d_name, st, sizeof st, nd, sizeof nd) == 0;
    }
    if (jd)
        closedir(jd);
    return recs == 0;
}

/* The job is over: leftover profiles (no step record will come for them) quarantined, debris
 * removed, the job record disposed of, the directory removed. */
static void remove_job_dir(struct ctx *c, int spoolfd, int jobfd, const char *jobname, long long job, struct scan_result *res)
{
    char reason[PI_REASON_MAX];
    int invalid, gone;
    json_t *jr = pi_read_record(c, jobfd, jobname, JS_JOB_RECORD_NAME, 0, reason, sizeof reason, &invalid, &gone);
    if (!jr)
        return;
    const char *cl = json_string_value(json_object_get(jr, "cluster"));
    char cluster[256];
    snprintf(cluster, sizeof cluster, "%s", cl && *cl ? cl : c->conf.cluster);
    json_decref(jr);
    if (pi_db_ensure(&c->db, c->conf.migrate) != PI_DB_OK) {
        res->retry = 1;
        return;
    }
    pi_remove_stale_temps(jobfd, c->conf.job_grace_seconds);
    int pfd = pi_open_dir(jobfd, JS_PROFILES_DIR_NAME);
    if (pfd >= 0) {
        pi_remove_stale_temps(pfd, c->conf.job_grace_seconds);
        close(pfd);
    }
    if (pi_quarantine_dir(c, jobfd, jobname, JS_PROFILES_DIR_NAME, job, cluster,
                          "no step record names this profile's step and node (the job ended)", res) != 0)
        return;
    pi_dispose(jobfd, JS_JOB_RECORD_NAME, c->conf.archive, job, NULL);
    pi_remove_ledgers(jobfd);
    if (unlinkat(spoolfd, jobname, AT_REMOVEDIR) == 0) {
        pi_seen_drop(&c->seen, job); /* done: nothing of it is looked at again */
        pi_info("%s: job ended and fully ingested; directory removed", jobname);
    }
}

void pi_process_job_dir(struct ctx *c, int spoolfd, int jobfd, const char *jobname, long long job, struct scan_result *res)
{
    struct stat sb;
    if (fstatat(jobfd, JS_JOB_RECORD_NAME, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
        if (errno == ENOENT)
            process_orphan_dir(c, spoolfd, jobfd, jobname, job, res);
        return;
    }
    struct seen_job *s = pi_seen_get(&c->seen, job);
    if (refresh_job_row(c, jobfd, jobname, &sb, s, res) == 0 && job_dir_done(c, spoolfd, jobfd, jobname, s))
        remove_job_dir(c, spoolfd, jobfd, jobname, job, res);
}
