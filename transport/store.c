/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Storing a parcel (store.h). */
#include "config.h"

#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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

/* The job record held in jobfd, parsed (NULL: none, or not one of bounded size). */
static json_t *held_job_record(int jobfd)
{
    int fd = openat(jobfd, JS_JOB_RECORD_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat sb;
    json_t *j = NULL;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size <= JS_RECORD_MAX_FILE_BYTES)
        j = json_loadfd(fd, 0, NULL);
    close(fd);
    return j;
}

static int lacks(const json_t *rec, const char *key)
{
    const json_t *v = json_object_get(rec, key);
    return v == NULL || json_is_null(v);
}

/* The received spool holds one job record a job: the controller's final record knows no
 * dependency or workflow, and when it arrived before the ingest read the node's, what the
 * node's had captured was gone (the sample workflow's "plot" left its workflow). */
char *jt_job_record_merged(const json_t *held, const char *data, size_t len, size_t *out)
{
    json_t *in = json_loadb(data, len, 0, NULL);
    char *text = NULL;
    int added = 0;
    if (json_is_object(held) && json_is_object(in)) {
        for (const char *const *k = js_job_record_kept; *k; k++)
            if (lacks(in, *k) && !lacks(held, *k))
                added += json_object_set(in, *k, json_object_get(held, *k)) == 0;
        if (!json_is_string(json_object_get(in, "dependency")) && json_is_string(json_object_get(held, "dependency")))
            for (const char *const *k = js_job_record_dependency; *k; k++)
                if (json_object_get(held, *k))
                    added += json_object_set(in, *k, json_object_get(held, *k)) == 0;
        if (json_is_true(json_object_get(held, "batch")) && !json_is_true(json_object_get(in, "batch")))
            added += json_object_set_new(in, "batch", json_true()) == 0;
    }
    if (added && (text = json_dumps(in, JSON_COMPACT | JSON_PRESERVE_ORDER)) != NULL)
        *out = strlen(text);
    json_decref(in);
    return text;
}

/* Files written under their temporary names, waiting for their fsync and rename. The fsyncs
 * of many files, issued at once from several threads, share the file system's journal
 * commits: a post of 400 step-nodes costs a few commits rather than 1000 (one per file). */
#define PEND_MAX 128
#define SYNC_THREADS 8
struct pend {
    int fd, dirfd;
    uint32_t job_id;
    int err;
    char tmp[JT_NAME_MAX + 32], base[JT_NAME_MAX];
};
struct pending {
    struct pend v[PEND_MAX];
    size_t n;
};
struct sync_slice {
    struct pending *pd;
    size_t first;
};

static void *sync_slice(void *arg)
{
    struct sync_slice *sl = arg;
    for (size_t i = sl->first; i < sl->pd->n; i += SYNC_THREADS)
        if (fsync(sl->pd->v[i].fd) < 0)
            sl->pd->v[i].err = errno ? errno : EIO;
    return NULL;
}

/* fsync every pending file (from threads when there are several), then close and rename
 * each in the order they were written. 0, or -1 with the reason (none renamed after it). */
static int pending_flush(struct pending *pd, char *reason, size_t rsize)
{
    pthread_t th[SYNC_THREADS];
    struct sync_slice sl[SYNC_THREADS];
    size_t nth = pd->n < SYNC_THREADS ? pd->n : SYNC_THREADS, started = 0;
    for (size_t t = 1; t < nth; t++) {
        sl[t] = (struct sync_slice){ pd, t };
        if (pthread_create(&th[t], NULL, sync_slice, &sl[t]) != 0)
            break;
        started = t;
    }
    /* what no thread took, this one does */
    for (size_t i = 0; i < pd->n; i++)
        if ((i % SYNC_THREADS == 0 || i % SYNC_THREADS > started) && fsync(pd->v[i].fd) < 0)
            pd->v[i].err = errno ? errno : EIO;
    for (size_t t = 1; t <= started; t++)
        pthread_join(th[t], NULL);
    int rc = 0;
    for (size_t i = 0; i < pd->n; i++) {
        struct pend *f = &pd->v[i];
        if (close(f->fd) < 0 && !f->err)
            f->err = errno;
        if (rc == 0 && f->err)
            snprintf(reason, rsize, "cannot write %s: %s", f->tmp, strerror(f->err));
        else if (rc == 0 && renameat(f->dirfd, f->tmp, f->dirfd, f->base) < 0)
            snprintf(reason, rsize, "cannot publish %s: %s", f->base, strerror(errno));
        else if (rc == 0) {
            close(f->dirfd);
            continue;
        }
        rc = -1;
        unlinkat(f->dirfd, f->tmp, 0);
        close(f->dirfd);
    }
    pd->n = 0;
    return rc;
}

/* base in dirfd (of job job_id) under ".<base>.<pid>.tmp", written, its fsync and rename
 * pending. 0, or -1 with the reason. */
static int write_tmp(struct pending *pd, int dirfd, uint32_t job_id, const char *base, const char *data, size_t len,
                     char *reason, size_t rsize)
{
    int again = pd->n == PEND_MAX;
    for (size_t i = 0; i < pd->n && !again; i++) /* the same name twice in a post: the first goes first */
        again = pd->v[i].job_id == job_id && !strcmp(pd->v[i].base, base);
    if (again && pending_flush(pd, reason, rsize) < 0)
        return -1;
    struct pend *f = &pd->v[pd->n];
    snprintf(f->tmp, sizeof f->tmp, ".%s.%ld.tmp", base, (long)getpid());
    snprintf(f->base, sizeof f->base, "%s", base);
    f->job_id = job_id;
    f->err = 0;
    unlinkat(dirfd, f->tmp, 0); /* left by a receiver of the same pid that was killed */
    f->fd = openat(dirfd, f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (f->fd < 0) {
        snprintf(reason, rsize, "cannot create %s: %s", f->tmp, strerror(errno));
        return -1;
    }
    f->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
    if (f->dirfd < 0 || jt_write_all(f->fd, data, len) < 0) {
        snprintf(reason, rsize, "cannot write %s: %s", f->tmp, strerror(errno));
        close(f->fd);
        unlinkat(dirfd, f->tmp, 0);
        if (f->dirfd >= 0)
            close(f->dirfd);
        return -1;
    }
    pd->n++;
    return 0;
}

/* Pending files dropped after a failure: their temporary files go. */
static void pending_drop(struct pending *pd)
{
    for (size_t i = 0; i < pd->n; i++) {
        close(pd->v[i].fd);
        unlinkat(pd->v[i].dirfd, pd->v[i].tmp, 0);
        close(pd->v[i].dirfd);
    }
    pd->n = 0;
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
static int store_profiles(int spoolfd, const struct jt_parcel *p, struct touched *t, struct pending *pd, char *reason,
                          size_t rsize)
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
        if ((f->n.kind == JT_BUNDLE || f->n.kind == JT_LIVE) &&
            write_tmp(pd, pfd, p->job_id, base, f->data, f->len, reason, rsize) < 0)
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

/* The job record of parcel k, or NULL. */
static const struct jt_file *job_record(const struct jt_parcel *p)
{
    for (size_t i = 0; i < p->nfiles; i++)
        if (p->files[i].n.kind == JT_JOB_RECORD)
            return &p->files[i];
    return NULL;
}

/* Whether parcel k's job record is the one the post stores for its job: the last final one
 * of the job's parcels, or when none is final the last one (each job record is stored once
 * per post). */
static int chosen_job_record(const struct jt_post *post, size_t k)
{
    const struct jt_file *job = job_record(&post->parcels[k]);
    if (!job)
        return 0;
    int final = says_final(job->data, job->len);
    for (size_t q = k + 1; q < post->n; q++) {
        const struct jt_file *later = post->parcels[q].job_id == post->parcels[k].job_id ? job_record(&post->parcels[q]) : NULL;
        if (later && (!final || says_final(later->data, later->len)))
            return 0;
    }
    return 1;
}

/* Another receiver may be storing a record of the same job at this moment (the node's final
 * record and the controller's, sent the moment the job ended): the held record is read, merged
 * and the new one published under an exclusive lock on the job's directory, else the one
 * renamed last loses what the other captured. The lock lasts until the rename (the pending
 * file's directory descriptor shares it); before waiting for another's, this post publishes
 * its pending files, which releases its own locks (no two posts wait for each other). */
static int lock_job_dir(struct pending *pd, int jobfd, char *reason, size_t rsize)
{
    if (flock(jobfd, LOCK_EX | LOCK_NB) == 0)
        return 0;
    int rc = -1;
    if (errno == EWOULDBLOCK) {
        if (pending_flush(pd, reason, rsize) < 0)
            return -1;
        while ((rc = flock(jobfd, LOCK_EX)) < 0 && errno == EINTR)
            ;
    }
    if (rc < 0)
        snprintf(reason, rsize, "cannot lock the job's directory: %s", strerror(errno));
    return rc;
}

/* The incoming job record f into jobfd. The one held, read once: kept when it is final and f is
 * not (a node that sent its provisional record late: the final state is not undone), with what
 * f captured and it lacks (the controller's final record knows no workflow or dependency); else
 * f written with what the held one captured and f lacks (jt_job_record_merged). */
static int store_job_record(struct pending *pd, int jobfd, uint32_t job_id, const struct jt_file *f, char *reason,
                            size_t rsize)
{
    if (lock_job_dir(pd, jobfd, reason, rsize) < 0)
        return -1;
    json_t *held = held_job_record(jobfd);
    size_t mlen = 0;
    char *merged = NULL;
    if (held && json_is_true(json_object_get(held, "final")) && !says_final(f->data, f->len)) {
        /* late: the held record, with what f adds; nothing to add, nothing written */
        json_t *late = json_loadb(f->data, f->len, 0, NULL);
        char *text = json_dumps(held, JSON_COMPACT | JSON_PRESERVE_ORDER);
        merged = text ? jt_job_record_merged(late, text, strlen(text), &mlen) : NULL;
        free(text);
        json_decref(late);
        if (merged == NULL) {
            json_decref(held);
            return 0;
        }
    } else if (held)
        merged = jt_job_record_merged(held, f->data, f->len, &mlen);
    int rc = write_tmp(pd, jobfd, job_id, JS_JOB_RECORD_NAME, merged ? merged : f->data, merged ? mlen : f->len, reason,
                       rsize);
    free(merged);
    json_decref(held);
    return rc;
}

/* Phase 2 for one parcel: its job record when chosen (unless it would undo a final one) or
 * its step record (records: 0 the job record, 1 the step record). */
static int store_record(int spoolfd, const struct jt_post *post, size_t k, int records, struct pending *pd, char *reason,
                        size_t rsize)
{
    const struct jt_parcel *p = &post->parcels[k];
    const struct jt_file *f = NULL;
    char jobname[32];
    for (size_t i = 0; i < p->nfiles; i++)
        if (p->files[i].n.kind == (records ? JT_STEP_RECORD : JT_JOB_RECORD))
            f = &p->files[i];
    if (!f || (!records && !chosen_job_record(post, k)))
        return 0;
    js_job_dir_name(jobname, sizeof jobname, p->job_id);
    int jobfd = own_dir(spoolfd, jobname, reason, rsize);
    if (jobfd < 0)
        return -1;
    int rc = records ? write_tmp(pd, jobfd, p->job_id, f->name, f->data, f->len, reason, rsize)
                     : store_job_record(pd, jobfd, p->job_id, f, reason, rsize);
    close(jobfd);
    return rc;
}

/* The step record of parcel p is in: the step ended on that node, its live snapshot is over. */
static void end_live(int spoolfd, const struct jt_parcel *p)
{
    char path[64 + JT_NAME_MAX];
    for (size_t i = 0; i < p->nfiles; i++) {
        const struct jt_file *f = &p->files[i];
        if (f->n.kind != JT_STEP_RECORD)
            continue;
        js_job_dir_name(path, 32, p->job_id);
        strcat(path, "/" JS_PROFILES_DIR_NAME);
        int lfd = openat(spoolfd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        snprintf(path, sizeof path, ".live.%s.%s" JS_RECORD_SUFFIX, f->n.step, f->n.node);
        if (lfd >= 0 && unlinkat(lfd, path, 0) == 0)
            fsync(lfd);
        if (lfd >= 0)
            close(lfd);
    }
}

int jt_store_post(int spoolfd, const struct jt_post *post, char *reason, size_t rsize)
{
    struct touched t = { 0 };
    struct pending *pd = calloc(1, sizeof *pd);
    int rc = -1;
    if (!pd) {
        snprintf(reason, rsize, "out of memory");
        return -1;
    }
    /* the profiles of every parcel first, durable before any record is published: once a
     * step record is there, the ingest takes the step; then the job records, then the step
     * records; the directories are fsynced once per post, not once per parcel */
    for (size_t k = 0; k < post->n; k++)
        if (store_profiles(spoolfd, &post->parcels[k], &t, pd, reason, rsize) < 0)
            goto out;
    if (pending_flush(pd, reason, rsize) < 0 || sync_touched(spoolfd, &t, 1, reason, rsize) < 0)
        goto out;
    for (int records = 0; records <= 1; records++) {
        for (size_t k = 0; k < post->n; k++)
            if (store_record(spoolfd, post, k, records, pd, reason, rsize) < 0)
                goto out;
        if (pending_flush(pd, reason, rsize) < 0)
            goto out;
    }
    for (size_t k = 0; k < post->n; k++)
        end_live(spoolfd, &post->parcels[k]);
    rc = sync_touched(spoolfd, &t, 0, reason, rsize);
out:
    pending_drop(pd);
    free(pd);
    free(t.ids);
    free(t.profiles);
    return rc;
}

int jt_store(int spoolfd, const struct jt_parcel *p, char *reason, size_t rsize)
{
    struct jt_post post = { .parcels = (struct jt_parcel *)p, .n = 1, .nfiles = p->nfiles };
    return jt_store_post(spoolfd, &post, reason, rsize);
}
