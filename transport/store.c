/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Storing a parcel (store.h). */
#include "config.h"

#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record_format.h"

int jt_write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* base in dirfd, atomically: ".<base>.<pid>.tmp", fsync, rename. */
static int store_file(int dirfd, const char *base, const char *data, size_t len, char *reason, size_t rsize)
{
    char tmp[JT_NAME_MAX + 32];
    snprintf(tmp, sizeof tmp, ".%s.%ld.tmp", base, (long)getpid());
    unlinkat(dirfd, tmp, 0); /* left by a receiver of the same pid that was killed */
    int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(reason, rsize, "cannot create %s: %s", tmp, strerror(errno));
        return -1;
    }
    if (jt_write_all(fd, data, len) < 0 || fsync(fd) < 0) {
        snprintf(reason, rsize, "cannot write %s: %s", tmp, strerror(errno));
        close(fd);
        unlinkat(dirfd, tmp, 0);
        return -1;
    }
    if (close(fd) < 0 || renameat(dirfd, tmp, dirfd, base) < 0) {
        snprintf(reason, rsize, "cannot publish %s: %s", base, strerror(errno));
        unlinkat(dirfd, tmp, 0);
        return -1;
    }
    return 0;
}

/* A subdirectory of ours (made 0700 when missing), opened without following a link. */
static int own_dir(int dirfd, const char *name, char *reason, size_t rsize)
{
    if (mkdirat(dirfd, name, 0700) < 0 && errno != EEXIST) {
        snprintf(reason, rsize, "cannot make %s: %s", name, strerror(errno));
        return -1;
    }
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) < 0 || sb.st_uid != geteuid()) {
        snprintf(reason, rsize, "%s is not a directory of the receiver's (uid %u)", name, (unsigned)geteuid());
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* 1 when a job record says final: true. */
static int says_final(const char *data, size_t len)
{
    json_t *j = json_loadb(data, len, 0, NULL);
    int f = j && json_is_true(json_object_get(j, "final"));
    json_decref(j);
    return f;
}

/* The job record we hold is final and the incoming one is not (a node that sent its
 * provisional record late): keep ours, so that the final state is not undone. */
static int keep_final_job_record(int jobfd, const struct jt_file *f)
{
    if (says_final(f->data, f->len))
        return 0;
    int fd = openat(jobfd, JS_JOB_RECORD_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat sb;
    if (fd < 0)
        return 0;
    int keep = 0;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size <= JS_RECORD_MAX_FILE_BYTES) {
        char *b = malloc((size_t)sb.st_size + 1);
        ssize_t r = b ? read(fd, b, (size_t)sb.st_size) : -1;
        keep = r == sb.st_size && says_final(b, (size_t)r);
        free(b);
    }
    close(fd);
    return keep;
}

/* Job ids a post touched, each once, for the directory fsyncs at the end of a phase. */
struct touched {
    uint32_t *ids;
    unsigned char *profiles; /* 1: its profiles/ took a file */
    size_t n;
};

static int touch(struct touched *t, uint32_t id, int profiles)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->ids[i] == id) {
            t->profiles[i] |= (unsigned char)profiles;
            return 0;
        }
    uint32_t *ni = realloc(t->ids, (t->n + 1) * sizeof *ni);
    if (ni)
        t->ids = ni;
    unsigned char *np = ni ? realloc(t->profiles, t->n + 1) : NULL;
    if (!np)
        return -1;
    t->profiles = np;
    t->ids[t->n] = id;
    t->profiles[t->n++] = (unsigned char)profiles;
    return 0;
}

/* fsync what the phase wrote: profiles/ (phase 1) or the job directories and the spool. */
static int sync_touched(int spoolfd, const struct touched *t, int profiles, char *reason, size_t rsize)
{
    char name[64];
    for (size_t i = 0; i < t->n; i++) {
        if (profiles && !t->profiles[i])
            continue;
        js_job_dir_name(name, 32, t->ids[i]);
        if (profiles)
            strcat(name, "/" JS_PROFILES_DIR_NAME);
        int fd = openat(spoolfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0 || fsync(fd) < 0) {
            snprintf(reason, rsize, "fsync of %s: %s", name, strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        close(fd);
    }
    if (!profiles && fsync(spoolfd) < 0) {
        snprintf(reason, rsize, "fsync of the spool: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Phase 1 for one parcel: its bundles and live snapshots, each file fsynced and renamed. */
static int store_profiles(int spoolfd, const struct jt_parcel *p, struct touched *t, char *reason, size_t rsize)
{
    char jobname[32];
    const struct jt_file *step = NULL;
    int want = 0;
    for (size_t i = 0; i < p->nfiles; i++) {
        step = p->files[i].n.kind == JT_STEP_RECORD ? &p->files[i] : step;
        want |= p->files[i].n.kind == JT_BUNDLE || p->files[i].n.kind == JT_LIVE;
    }
    js_job_dir_name(jobname, sizeof jobname, p->job_id);
    int jobfd = own_dir(spoolfd, jobname, reason, rsize), pfd = -1, rc = -1;
    if (jobfd < 0)
        return -1;
    if (want && (pfd = own_dir(jobfd, JS_PROFILES_DIR_NAME, reason, rsize)) < 0)
        goto out;
    for (size_t i = 0; i < p->nfiles; i++) {
        const struct jt_file *f = &p->files[i];
        const char *base = f->name + strlen(JS_PROFILES_DIR_NAME "/");
        if (f->n.kind == JT_LIVE) {
            /* a snapshot that arrives after its step record is stale: the step has ended */
            char rec[JT_NAME_MAX];
            struct stat sb;
            snprintf(rec, sizeof rec, JS_STEP_RECORD_PREFIX "%s.%s" JS_RECORD_SUFFIX, f->n.step, f->n.node);
            if (!step && fstatat(jobfd, rec, &sb, AT_SYMLINK_NOFOLLOW) == 0)
                continue;
        }
        if ((f->n.kind == JT_BUNDLE || f->n.kind == JT_LIVE) && store_file(pfd, base, f->data, f->len, reason, rsize) < 0)
            goto out;
    }
    rc = touch(t, p->job_id, want);
    if (rc < 0)
        snprintf(reason, rsize, "out of memory");
out:
    if (pfd >= 0)
        close(pfd);
    close(jobfd);
    return rc;
}

/* Phase 2 for one parcel: the job record (unless the same bytes went in earlier in this post,
 * or it would undo a final one), then the step record, which ends the live snapshot. */
static int store_records(int spoolfd, const struct jt_post *post, size_t k, char *reason, size_t rsize)
{
    const struct jt_parcel *p = &post->parcels[k];
    const struct jt_file *job = NULL, *step = NULL;
    char jobname[32];
    for (size_t i = 0; i < p->nfiles; i++) {
        job = p->files[i].n.kind == JT_JOB_RECORD ? &p->files[i] : job;
        step = p->files[i].n.kind == JT_STEP_RECORD ? &p->files[i] : step;
    }
    for (size_t q = 0; job && q < k; q++) /* a post's parcels of one job mostly carry one record */
        for (size_t i = 0; i < post->parcels[q].nfiles && job; i++) {
            const struct jt_file *f = &post->parcels[q].files[i];
            if (post->parcels[q].job_id == p->job_id && f->n.kind == JT_JOB_RECORD && f->len == job->len &&
                !memcmp(f->data, job->data, job->len))
                job = NULL;
        }
    if (!job && !step)
        return 0;
    js_job_dir_name(jobname, sizeof jobname, p->job_id);
    int jobfd = own_dir(spoolfd, jobname, reason, rsize), rc = -1;
    if (jobfd < 0)
        return -1;
    if (job && !keep_final_job_record(jobfd, job) && store_file(jobfd, JS_JOB_RECORD_NAME, job->data, job->len, reason, rsize) < 0)
        goto out;
    if (step) {
        if (store_file(jobfd, step->name, step->data, step->len, reason, rsize) < 0)
            goto out;
        /* the step ended on that node: its live snapshot is over */
        char live[JT_NAME_MAX];
        snprintf(live, sizeof live, ".live.%s.%s" JS_RECORD_SUFFIX, step->n.step, step->n.node);
        int lfd = openat(jobfd, JS_PROFILES_DIR_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (lfd >= 0 && unlinkat(lfd, live, 0) == 0)
            fsync(lfd);
        if (lfd >= 0)
            close(lfd);
    }
    rc = 0;
out:
    close(jobfd);
    return rc;
}

int jt_store_post(int spoolfd, const struct jt_post *post, char *reason, size_t rsize)
{
    struct touched t = { 0 };
    int rc = -1;
    /* the profiles of every parcel first, durable before any record is published: once a
     * step record is there, the ingest takes the step; then the records; the directories
     * are fsynced once per post, not once per parcel */
    for (size_t k = 0; k < post->n; k++)
        if (store_profiles(spoolfd, &post->parcels[k], &t, reason, rsize) < 0)
            goto out;
    if (sync_touched(spoolfd, &t, 1, reason, rsize) < 0)
        goto out;
    for (size_t k = 0; k < post->n; k++)
        if (store_records(spoolfd, post, k, reason, rsize) < 0)
            goto out;
    rc = sync_touched(spoolfd, &t, 0, reason, rsize);
out:
    free(t.ids);
    free(t.profiles);
    return rc;
}

int jt_store(int spoolfd, const struct jt_parcel *p, char *reason, size_t rsize)
{
    struct jt_post post = { .parcels = (struct jt_parcel *)p, .n = 1, .nfiles = p->nfiles };
    return jt_store_post(spoolfd, &post, reason, rsize);
}
