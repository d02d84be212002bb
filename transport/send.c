/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen-send: ships a node-local spool to the server's receiver (docs/transport.md).
 *
 * Runs as root on each node (the spool is root's). Per pass over SPOOL/job.<id>/:
 *  - each complete step-node (step.<s>.<n>.json present): a parcel of the job record, that
 *    step record and that step-node's bundles (several parcels when they are large, the step
 *    record in the last; none above --parcel-max but one of a single file, so that the
 *    receiver may refuse anything larger before reading it); once the receiver answered
 *    "stored", those files go (never before);
 *  - the job record whenever it changed since the receiver last stored it (.transport.sent
 *    holds its SHA-256); once it is final, its grace time passed and nothing is left to
 *    send, the job's directory goes;
 *  - each live snapshot when it changed, and at least once a minute while it is there.
 * It reads only what root wrote as records (owner checked) and never parses a bundle or a
 * live snapshot: their bytes are framed as they are.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "credential.h"
#include "kvconf.h"
#include "metrics_http.h"
#include "parcel.h"
#include "profile_format.h"
#include "record_format.h"
#include "send.h"

#define EXIT_TEMPFAIL 75
#define LIVE_EVERY_SECONDS 60

struct live_seen {
    char key[NAME_MAX + 2 + JT_NAME_MAX];
    unsigned char digest[JS_DIGEST_BYTES];
    time_t sent;
    int seen;
};

static struct live_seen *lives;
static size_t nlives, caplives;
static int generation;
static volatile sig_atomic_t stop;
static int inotify_fd = -1;

/* --- one job directory ------------------------------------------------------------------------ */
struct entry {
    char name[JT_NAME_MAX]; /* inside profiles/, or in the job directory for step records */
    struct jt_name n;
    time_t mtime;
};

struct job {
    uint32_t id;
    char dirname[NAME_MAX + 1];
    int fd, pfd;
    char *record;       /* job.json, root's, or NULL */
    size_t record_len;
    time_t record_mtime;
    char record_hex[2 * JS_DIGEST_BYTES + 1];
    struct entry *steps, *profiles;
    size_t nsteps, nprofiles;
    int record_pending; /* the job record rides in a parcel of the post in the making */
};

static int add_entry(struct entry **v, size_t *n, const char *name, const struct jt_name *jn, time_t mtime)
{
    struct entry *nv = realloc(*v, (*n + 1) * sizeof **v);
    if (!nv)
        return -1;
    *v = nv;
    snprintf(nv[*n].name, sizeof nv[*n].name, "%s", name);
    nv[*n].n = *jn;
    nv[*n].mtime = mtime;
    (*n)++;
    return 0;
}

static int by_bundle(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    return x->n.bundle < y->n.bundle ? -1 : x->n.bundle > y->n.bundle;
}

static void list_job(struct job *j)
{
    DIR *d = fdopendir(dup(j->fd));
    struct dirent *e;
    struct stat sb;
    char r[JT_REASON_MAX];
    while (d && (e = readdir(d))) {
        struct jt_name n;
        if (e->d_name[0] == '.' || jt_name_parse(e->d_name, &n, r, sizeof r) < 0 || n.kind != JT_STEP_RECORD)
            continue;
        if (fstatat(j->fd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode))
            add_entry(&j->steps, &j->nsteps, e->d_name, &n, sb.st_mtime);
    }
    if (d)
        closedir(d);
    if (j->pfd < 0)
        return;
    d = fdopendir(dup(j->pfd));
    while (d && (e = readdir(d))) {
        struct jt_name n;
        if (jt_profile_name_parse(e->d_name, &n) < 0)
            continue;
        if (fstatat(j->pfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode))
            add_entry(&j->profiles, &j->nprofiles, e->d_name, &n, sb.st_mtime);
    }
    if (d)
        closedir(d);
    qsort(j->profiles, j->nprofiles, sizeof *j->profiles, by_bundle);
}

static int has_step_record(const struct job *j, const struct jt_name *n)
{
    for (size_t i = 0; i < j->nsteps; i++)
        if (!strcmp(j->steps[i].n.step, n->step) && !strcmp(j->steps[i].n.node, n->node))
            return 1;
    return 0;
}

/* Whether a file of len bytes named name still fits in parcel b (and its "end\n") within
 * --parcel-max. A parcel's first file goes in whatever its size: a parcel of one file is at
 * most JT_PARCEL_DEFAULT_MAX, the receiver's default bound. */
static int fits(const struct jt_buf *b, const char *name, size_t len)
{
    return (long long)(b->len + jt_parcel_entry_size(name, len) + strlen("end\n")) <= o.parcel_max;
}

/* The bundles idx[*next...] into b while they fit (the first one in any case); one that cannot
 * be read is marked (size_t)-1 and skipped. Returns how many went in, or -1 (out of memory). */
static long add_bundles(struct job *j, size_t *idx, size_t nidx, size_t *next, struct jt_buf *b)
{
    long added = 0;
    char reason[1536], name[JT_NAME_MAX + 16];
    while (*next < nidx) {
        const struct entry *e = &j->profiles[idx[*next]];
        char *data = NULL;
        size_t len = 0;
        /* bundles are the user's: framed, never parsed */
        int r = read_file(j->pfd, e->name, (uid_t)-1, JS_PROFILE_MAX_BYTES, &data, &len, NULL, reason, sizeof reason);
        if (r < 0) {
            if (r == -1)
                log_error("%s/" JS_PROFILES_DIR_NAME "/%s; it stays in the spool", j->dirname, reason);
            idx[(*next)++] = (size_t)-1;
            continue;
        }
        snprintf(name, sizeof name, JS_PROFILES_DIR_NAME "/%s", e->name);
        if (added && !fits(b, name, len)) {
            free(data);
            break;
        }
        int a = jt_parcel_add(b, name, data, len);
        free(data);
        if (a < 0)
            return -1;
        added++;
        (*next)++;
    }
    return added;
}

/* The step record into b when it fits (or b holds nothing yet). 1 added, 0 not (it does not
 * fit, or cannot be read: logged), -1 out of memory. */
static int add_step_record(struct job *j, const struct entry *step, int empty, struct jt_buf *b, int *unreadable)
{
    char *data = NULL, reason[1536];
    size_t len = 0;
    int r = read_file(j->fd, step->name, 0, JS_RECORD_MAX_FILE_BYTES, &data, &len, NULL, reason, sizeof reason);
    *unreadable = r < 0;
    if (r == -1)
        log_error("%s/%s; it stays in the spool", j->dirname, reason);
    if (r < 0)
        return 0;
    int added = 0;
    if (empty || fits(b, step->name, len))
        added = jt_parcel_add(b, step->name, data, len) == 0 ? 1 : -1;
    free(data);
    return added;
}

/* Parcel b joins the post in the making, with what to do once it is stored (d: its files
 * are named in it; with_job: it carries the job record). 0, or -1 (the pass stops sending). */
static int queue_parcel(struct job *j, struct jt_buf *b, struct done *d, size_t nfiles, int with_job, struct pass *ps)
{
    d->job_id = j->id;
    snprintf(d->dirname, sizeof d->dirname, "%s", j->dirname);
    if (with_job) {
        snprintf(d->job_hex, sizeof d->job_hex, "%s", j->record_hex);
        j->record_pending = ps->sending;
    }
    int rc = batch_add(b, d, nfiles, ps);
    jt_buf_free(b);
    return rc;
}

/* Send the bundles of one step-node and, when step is given, its step record in the last
 * parcel (one of its own when it does not fit beside the last bundles); the job record rides
 * along where it fits. No parcel is larger than --parcel-max, but for a parcel of one file.
 * Each parcel's files are removed once it was stored. 0, or -1 (the pass stops sending). */
static int send_step_node(struct job *j, const char *stepnode_step, const char *stepnode_node, const struct entry *step,
                          struct pass *ps)
{
    size_t idx[JT_PARCEL_MAX_FILES];
    size_t nidx = 0, next = 0;
    for (size_t i = 0; i < j->nprofiles && nidx < JT_PARCEL_MAX_FILES - 2; i++)
        if (j->profiles[i].n.kind == JT_BUNDLE && !strcmp(j->profiles[i].n.step, stepnode_step) &&
            !strcmp(j->profiles[i].n.node, stepnode_node))
            idx[nidx++] = i;
    for (;;) {
        struct jt_buf b = { 0 };
        char what[1024];
        size_t first = next;
        int with_step = 0, with_job = 0, unreadable = 1;
        long files = jt_parcel_begin(&b, j->id) < 0 ? -1 : add_bundles(j, idx, nidx, &next, &b);
        if (files >= 0 && next == nidx && step && (with_step = add_step_record(j, step, files == 0, &b, &unreadable)) < 0)
            files = -1;
        if (files == 0 && !with_step) {
            jt_buf_free(&b);
            return 0;
        }
        /* the job record where it fits: it is sent on its own later when it did not */
        if (files >= 0 && j->record && fits(&b, JS_JOB_RECORD_NAME, j->record_len)) {
            if (jt_parcel_add(&b, JS_JOB_RECORD_NAME, j->record, j->record_len) < 0)
                files = -1;
            with_job = 1;
        }
        if (files < 0 || jt_parcel_end(&b) < 0) {
            jt_buf_free(&b);
            log_error("%s: out of memory building a parcel", j->dirname);
            return -1;
        }
        struct done d = { .mtime = step ? step->mtime : 0 };
        snprintf(d.what, sizeof d.what, "%s step %s on %s (%ld bundles%s%s, %zu bytes)", j->dirname, stepnode_step,
                 stepnode_node, files, with_step ? " and the step record" : ", no step record",
                 with_job ? ", the job record" : "", b.len);
        /* once stored on the server, and only then, they leave the node (when only counting,
         * the loop goes on to count the parcels the rest would take) */
        int bad = 0;
        for (size_t k = first; k < next; k++)
            if (idx[k] != (size_t)-1) {
                snprintf(what, sizeof what, JS_PROFILES_DIR_NAME "/%s", j->profiles[idx[k]].name);
                bad |= done_add_name(&d, what) < 0;
            }
        if (with_step)
            bad |= done_add_name(&d, step->name) < 0;
        if (bad) { /* nothing is removed then: sent again in a later pass */
            free(d.names);
            d.names = NULL;
            d.names_len = 0;
        }
        if (queue_parcel(j, &b, &d, (size_t)files + (size_t)with_step + (size_t)with_job, with_job, ps) < 0)
            return -1;
        if (with_step || (next == nidx && (!step || unreadable)))
            return 0;
    }
}

static struct live_seen *live_find(const char *key)
{
    for (size_t i = 0; i < nlives; i++)
        if (!strcmp(lives[i].key, key))
            return &lives[i];
    if (nlives == caplives) {
        size_t c = caplives ? caplives * 2 : 16;
        struct live_seen *nl = realloc(lives, c * sizeof *nl);
        if (!nl)
            return NULL;
        lives = nl;
        caplives = c;
    }
    memset(&lives[nlives], 0, sizeof lives[nlives]);
    snprintf(lives[nlives].key, sizeof lives[nlives].key, "%s", key);
    return &lives[nlives++];
}

static int send_live(struct job *j, const struct entry *e, struct pass *ps)
{
    char key[sizeof lives[0].key], reason[1536], name[JT_NAME_MAX + 16];
    snprintf(key, sizeof key, "%s/%s", j->dirname, e->name);
    char *data = NULL;
    size_t len = 0;
    if (read_file(j->pfd, e->name, (uid_t)-1, JS_PROFILE_MAX_BYTES, &data, &len, NULL, reason, sizeof reason) < 0)
        return 0; /* gone (the step ended) or refused: the next pass sees */
    unsigned char d[JS_DIGEST_BYTES];
    js_sha256(data, len, d);
    struct live_seen *l = live_find(key);
    time_t now = time(NULL);
    if (l)
        l->seen = generation;
    if (l && l->sent && !memcmp(l->digest, d, sizeof d) && now - l->sent < LIVE_EVERY_SECONDS) {
        free(data);
        return 0;
    }
    struct jt_buf b = { 0 };
    snprintf(name, sizeof name, JS_PROFILES_DIR_NAME "/%s", e->name);
    /* the snapshot, and the job record where it fits (a parcel stays within --parcel-max) */
    int bad = jt_parcel_begin(&b, j->id) < 0 || jt_parcel_add(&b, name, data, len) < 0;
    int with_job = !bad && j->record && fits(&b, JS_JOB_RECORD_NAME, j->record_len);
    bad = bad || (with_job && jt_parcel_add(&b, JS_JOB_RECORD_NAME, j->record, j->record_len) < 0) || jt_parcel_end(&b) < 0;
    free(data);
    if (bad) {
        jt_buf_free(&b);
        log_error("%s/%s: cannot make a parcel of it", j->dirname, name);
        return 0;
    }
    struct done dn = { .mtime = e->mtime, .live_when = now };
    snprintf(dn.what, sizeof dn.what, "%s live snapshot of step %s on %s (%zu bytes)", j->dirname, e->n.step, e->n.node, b.len);
    if (l) {
        snprintf(dn.live_key, sizeof dn.live_key, "%s", key);
        memcpy(dn.live_digest, d, sizeof d);
    }
    return queue_parcel(j, &b, &dn, 1 + (size_t)with_job, with_job, ps);
}

/* batch_start's on_live: the snapshot of key the receiver stored */
static void live_sent(const char *key, const unsigned char digest[JS_DIGEST_BYTES], time_t when)
{
    struct live_seen *l = live_find(key);
    if (l) {
        memcpy(l->digest, digest, JS_DIGEST_BYTES);
        l->sent = when;
    }
}

/* Remove every file of dirfd/sub, then sub. */
static void remove_tree(int dirfd, const char *sub, struct pass *ps)
{
    int fd = openat(dirfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && unlinkat(fd, e->d_name, 0) == 0)
            ps->files_removed++;
    if (d)
        closedir(d);
    else if (fd >= 0)
        close(fd);
}

/* The job of j ended (its record final, its grace time passed, the receiver holds the record
 * and no step record is left): leftovers (bundles no step record named) go, then the
 * directory. */
static void finish_job(int spoolfd, struct job *j, struct pass *ps)
{
    char have[2 * JS_DIGEST_BYTES + 1];
    json_t *jr = json_loadb(j->record, j->record_len, 0, NULL);
    int final = jr && json_is_true(json_object_get(jr, "final"));
    json_t *end = jr ? json_object_get(jr, "end_ns") : NULL;
    long long end_s = json_is_integer(end) ? json_integer_value(end) / 1000000000LL : (long long)j->record_mtime;
    json_decref(jr);
    if (!final || end_s + o.job_grace > (long long)time(NULL))
        return;
    /* what of it waits in the post in the making goes now: then the ledger and the spool say
     * what the receiver holds */
    if (batch_holds(j->id) && batch_flush(ps) < 0)
        return;
    sent_digest(j->fd, have);
    free(j->steps);
    free(j->profiles);
    j->steps = j->profiles = NULL;
    j->nsteps = j->nprofiles = 0;
    list_job(j);
    if (j->nsteps || strcmp(have, j->record_hex) != 0)
        return;
    /* each step-node that has bundles once (send_step_node takes all of its bundles) */
    for (size_t i = 0; i < j->nprofiles; i++) {
        const struct jt_name *n = &j->profiles[i].n;
        int first = n->kind == JT_BUNDLE;
        for (size_t k = 0; k < i && first; k++)
            first = !(j->profiles[k].n.kind == JT_BUNDLE && !strcmp(j->profiles[k].n.step, n->step) &&
                      !strcmp(j->profiles[k].n.node, n->node));
        if (first && send_step_node(j, n->step, n->node, NULL, ps) < 0)
            return;
    }
    if (batch_holds(j->id) && batch_flush(ps) < 0)
        return;
    free(j->profiles);
    j->profiles = NULL;
    j->nprofiles = 0;
    list_job(j);
    for (size_t i = 0; i < j->nprofiles; i++)
        if (j->profiles[i].n.kind == JT_BUNDLE) {
            log_warn("%s: %s could not be sent; the directory stays", j->dirname, j->profiles[i].name);
            return;
        }
    if (j->pfd >= 0) {
        remove_tree(j->fd, JS_PROFILES_DIR_NAME, ps);
        unlinkat(j->fd, JS_PROFILES_DIR_NAME, AT_REMOVEDIR);
    }
    remove_tree(spoolfd, j->dirname, ps);
    if (unlinkat(spoolfd, j->dirname, AT_REMOVEDIR) == 0) {
        fsync(spoolfd);
        ps->dirs_removed++;
        log_info("%s: the job ended and all of it was stored by the receiver; directory removed", j->dirname);
    } else
        log_warn("%s: cannot remove the directory: %s", j->dirname, strerror(errno));
}

static void do_job(int spoolfd, const char *dirname, uint32_t id, struct pass *ps)
{
    struct job j = { .id = id, .fd = -1, .pfd = -1 };
    char reason[1536];
    struct stat sb;
    snprintf(j.dirname, sizeof j.dirname, "%s", dirname);
    j.fd = openat(spoolfd, dirname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (j.fd < 0 || fstat(j.fd, &sb) < 0 || sb.st_uid != 0) {
        log_debug("%s: not a directory of root's: skipped", dirname);
        goto out;
    }
    j.pfd = openat(j.fd, JS_PROFILES_DIR_NAME, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (j.pfd >= 0 && (fstat(j.pfd, &sb) < 0 || sb.st_uid != 0)) {
        close(j.pfd);
        j.pfd = -1;
    }
    int r = read_file(j.fd, JS_JOB_RECORD_NAME, 0, JS_RECORD_MAX_FILE_BYTES, &j.record, &j.record_len, &j.record_mtime, reason,
                      sizeof reason);
    if (r == -1)
        log_error("%s/%s; not sent", dirname, reason);
    if (j.record) {
        unsigned char d[JS_DIGEST_BYTES];
        js_sha256(j.record, j.record_len, d);
        hex(d, j.record_hex);
    }
    list_job(&j);
    /* complete step-nodes */
    for (size_t i = 0; i < j.nsteps && !stop; i++)
        send_step_node(&j, j.steps[i].n.step, j.steps[i].n.node, &j.steps[i], ps);
    /* live snapshots of steps still running */
    for (size_t i = 0; i < j.nprofiles && !stop; i++)
        if (j.profiles[i].n.kind == JT_LIVE && !has_step_record(&j, &j.profiles[i].n))
            send_live(&j, &j.profiles[i], ps);
    /* the job record, when the receiver has not stored this version of it */
    char have[2 * JS_DIGEST_BYTES + 1];
    if (j.record)
        sent_digest(j.fd, have);
    if (j.record && strcmp(have, j.record_hex) != 0 && !j.record_pending && !stop) {
        struct jt_buf b = { 0 };
        struct done d = { .mtime = j.record_mtime };
        snprintf(d.what, sizeof d.what, "%s job record (%zu bytes)", dirname, j.record_len);
        if (jt_parcel_begin(&b, id) < 0 || jt_parcel_add(&b, JS_JOB_RECORD_NAME, j.record, j.record_len) < 0 ||
            jt_parcel_end(&b) < 0) {
            log_error("%s: cannot make a parcel of it", d.what);
            jt_buf_free(&b);
        } else
            queue_parcel(&j, &b, &d, 1, 1, ps);
    }
    if (!ps->sending || !j.record || stop)
        goto out;
    finish_job(spoolfd, &j, ps);
out:
    free(j.record);
    free(j.steps);
    free(j.profiles);
    if (j.pfd >= 0)
        close(j.pfd);
    if (j.fd >= 0)
        close(j.fd);
}

static int parse_job_dir(const char *name, uint32_t *id)
{
    const char *n = name + strlen(JS_JOB_DIR_PREFIX);
    if (strncmp(name, JS_JOB_DIR_PREFIX, strlen(JS_JOB_DIR_PREFIX)) != 0 || *n < '1' || *n > '9' || strlen(n) > 10)
        return -1;
    for (const char *c = n; *c; c++)
        if (*c < '0' || *c > '9')
            return -1;
    unsigned long long v = strtoull(n, NULL, 10);
    if (v > UINT32_MAX)
        return -1;
    *id = (uint32_t)v;
    return 0;
}

/* One pass over the spool. 0, or -1 when the spool cannot be read. */
static int run_pass(struct pass *ps, int sending)
{
    memset(ps, 0, sizeof *ps);
    ps->sending = sending;
    generation++;
    int spoolfd = open(o.spool, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (spoolfd < 0) {
        snprintf(ps->failure, sizeof ps->failure, "spool %s: %s", o.spool, strerror(errno));
        return -1;
    }
    if (inotify_fd >= 0)
        inotify_add_watch(inotify_fd, o.spool, IN_CREATE | IN_MOVED_TO | IN_ONLYDIR);
    batch_start(spoolfd, live_sent);
    DIR *d = fdopendir(dup(spoolfd));
    struct dirent *e;
    while (d && (e = readdir(d)) && !stop) {
        uint32_t id;
        if (parse_job_dir(e->d_name, &id) < 0)
            continue;
        if (inotify_fd >= 0) {
            char p[PATH_MAX];
            snprintf(p, sizeof p, "%s/%s", o.spool, e->d_name);
            inotify_add_watch(inotify_fd, p, IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_ONLYDIR | IN_DONT_FOLLOW);
            snprintf(p, sizeof p, "%s/%s/" JS_PROFILES_DIR_NAME, o.spool, e->d_name);
            inotify_add_watch(inotify_fd, p, IN_CLOSE_WRITE | IN_MOVED_TO | IN_ONLYDIR | IN_DONT_FOLLOW);
        }
        do_job(spoolfd, e->d_name, id, ps);
    }
    if (d)
        closedir(d);
    /* the post in hand goes, even after SIGTERM */
    batch_flush(ps);
    close(spoolfd);
    /* forget live snapshots that are gone */
    for (size_t i = 0; i < nlives;)
        if (lives[i].seen != generation && sending)
            lives[i] = lives[--nlives];
        else
            i++;
    return 0;
}

static void backlog_line(const struct pass *ps, char *out, size_t size)
{
    long age = ps->oldest ? (long)(time(NULL) - ps->oldest) : 0;
    snprintf(out, size, "backlog: %ld parcels waiting, oldest %ld s", ps->waiting, age);
}

/* --- main ------------------------------------------------------------------------------------ */
static void on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: jobscreen-send --spool DIR --url URL [--once | --status] [options]\n"
            "  --spool DIR            the node-local spool (plugstack.conf spool=)\n"
            "  --url URL              the receiver, e.g. https://server/receive\n"
            "  --munge-socket PATH    munged's socket (default: munge's own default)\n"
            "  --once                 one pass, then exit (0 all sent, 75 something could not be sent)\n"
            "  --status               print the backlog and exit\n"
            "  --backoff-max SECONDS  longest wait between retries (default 60)\n"
            "  --rescan SECONDS       full rescan besides inotify (default 10)\n"
            "  --job-grace SECONDS    a final job's directory goes this long after the job's end (default 300)\n"
            "  --parcel-max BYTES     no post is larger, but one of a single file (default 67112960,\n"
            "                         the receiver's default max_bytes; a file is never cut)\n"
            "  --post-parcels N       parcels (step-nodes) one post carries at most (default 1024, 1 to 4096)\n"
            "  --no-compress          post parcels as they are (by default gzip, Content-Encoding)\n"
            "  --timeout SECONDS      a transfer that stalls this long fails (default 60)\n"
            "  --verbose              debug messages\n"
            "  --metrics-listen HOST:PORT  serve Prometheus metrics at http://HOST:PORT/metrics\n");
}

/* The command line into o. -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv)
{
    enum { O_SPOOL = 256, O_URL, O_MUNGE, O_ONCE, O_STATUS, O_BACKOFF, O_RESCAN, O_GRACE, O_PMAX, O_TIMEOUT, O_VERBOSE,
           O_METRICS, O_POSTN, O_NOZ };
    static const struct option opts[] = {
        { "spool", required_argument, 0, O_SPOOL }, { "url", required_argument, 0, O_URL },
        { "munge-socket", required_argument, 0, O_MUNGE }, { "once", no_argument, 0, O_ONCE },
        { "status", no_argument, 0, O_STATUS }, { "backoff-max", required_argument, 0, O_BACKOFF },
        { "rescan", required_argument, 0, O_RESCAN }, { "job-grace", required_argument, 0, O_GRACE },
        { "parcel-max", required_argument, 0, O_PMAX }, { "timeout", required_argument, 0, O_TIMEOUT },
        { "verbose", no_argument, 0, O_VERBOSE }, { "metrics-listen", required_argument, 0, O_METRICS },
        { "post-parcels", required_argument, 0, O_POSTN }, { "no-compress", no_argument, 0, O_NOZ },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
    };
    o.backoff_max = 60;
    o.rescan = 10;
    o.job_grace = 300;
    o.timeout = 60;
    o.parcel_max = JT_PARCEL_DEFAULT_MAX; /* the receiver's default max_bytes */
    o.post_parcels = 1024;
    o.compress = 1;
    int c;
    long long v;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case O_SPOOL: o.spool = optarg; break;
        case O_URL: o.url = optarg; break;
        case O_MUNGE: o.munge_socket = optarg; break;
        case O_ONCE: o.once = 1; break;
        case O_STATUS: o.status = 1; break;
        case O_VERBOSE: o.verbose = 1; break;
        case O_METRICS: o.metrics_listen = optarg; break;
        case O_NOZ: o.compress = 0; break;
        case O_POSTN:
            if (js_kv_int(optarg, 1, JT_POST_MAX_PARCELS, &v) < 0) {
                fprintf(stderr, "jobscreen-send: --post-parcels: \"%s\" is not a number from 1 to %d\n", optarg,
                        JT_POST_MAX_PARCELS);
                return 2;
            }
            o.post_parcels = (int)v;
            break;
        case O_BACKOFF:
        case O_RESCAN:
        case O_GRACE:
        case O_TIMEOUT:
            if (js_kv_int(optarg, c == O_GRACE ? 0 : 1, 30 * 86400, &v) < 0) {
                fprintf(stderr, "jobscreen-send: %s: \"%s\" is not a number of seconds\n", opts[c - O_SPOOL].name, optarg);
                return 2;
            }
            *(c == O_BACKOFF ? &o.backoff_max : c == O_RESCAN ? &o.rescan : c == O_GRACE ? &o.job_grace : &o.timeout) = (int)v;
            break;
        case O_PMAX:
            if (js_kv_size(optarg, 4096, JT_PARCEL_MAX_BYTES, &o.parcel_max) < 0) {
                fprintf(stderr, "jobscreen-send: --parcel-max: \"%s\" is not a size from 4096 to %lld bytes\n", optarg,
                        JT_PARCEL_MAX_BYTES);
                return 2;
            }
            break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!o.spool || (!o.url && !o.status) || optind != argc) {
        usage(stderr);
        return 2;
    }
    return -1;
}

/* The daemon: passes until SIGTERM/SIGINT, backing off while the receiver fails. */
static void run_daemon(void)
{
    struct pass ps;
    char line[256];
    inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    int backoff = 1;
    time_t last_backlog = time(NULL);
    log_info("sending %s to %s", o.spool, o.url);
    if (o.metrics_listen) {
        char why[320];
        metrics_started();
        if (js_metrics_serve(o.metrics_listen, metrics_render, why, sizeof why) < 0)
            log_error("%s: no metrics are served (the sender goes on)", why);
        else
            log_info("metrics: http://%s/metrics", o.metrics_listen);
    }
    while (!stop) {
        int rc = run_pass(&ps, 1);
        metrics_pass(&ps, rc >= 0 && !ps.failure[0]);
        backlog_line(&ps, line, sizeof line);
        /* at most 30 s between passes: live snapshots are looked at twice a minute (transport.md) */
        int wait_s = o.rescan < 30 ? o.rescan : 30;
        if (rc < 0 || ps.failure[0]) {
            log_warn("%s; retrying in %d s; the spool is kept (%s)", ps.failure, backoff, line);
            wait_s = backoff;
            backoff = backoff * 2 > o.backoff_max ? o.backoff_max : backoff * 2;
        } else if (backoff > 1) {
            log_info("receiver back: resumed");
            backoff = 1;
        }
        if (time(NULL) - last_backlog >= 60) {
            log_info("%s", line);
            last_backlog = time(NULL);
        }
        /* live snapshots need a look at least every LIVE_EVERY_SECONDS */
        if (wait_s > LIVE_EVERY_SECONDS / 2)
            wait_s = LIVE_EVERY_SECONDS / 2;
        struct pollfd pfd = { .fd = inotify_fd, .events = POLLIN };
        /* while backing off, changes in the spool do not hurry the retry */
        if (poll(&pfd, ps.failure[0] || inotify_fd < 0 ? 0 : 1, wait_s * 1000) > 0) {
            char buf[8192];
            while (read(inotify_fd, buf, sizeof buf) > 0)
                ;
            usleep(200000); /* let a burst of renames settle */
        }
    }
}

int main(int argc, char **argv)
{
    int rc = parse_options(argc, argv);
    if (rc >= 0)
        return rc;
    struct pass ps;
    char line[256];
    if (o.status) {
        if (run_pass(&ps, 0) < 0) {
            fprintf(stderr, "jobscreen-send: %s\n", ps.failure);
            return 1;
        }
        backlog_line(&ps, line, sizeof line);
        printf("%s\n", line);
        return 0;
    }
    if (geteuid() != 0)
        log_warn("not running as root: munge credentials of uid %u are refused by the receiver", (unsigned)geteuid());
    if (http_init() < 0) {
        log_error("libcurl: cannot initialise");
        return 1;
    }
    struct sigaction sa = { .sa_handler = on_signal };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    if (o.once) {
        rc = run_pass(&ps, 1);
        backlog_line(&ps, line, sizeof line);
        if (rc < 0 || ps.failure[0])
            log_warn("%s; the spool is kept; %s", ps.failure, line);
        log_info("done: %ld parcels sent, %ld files and %ld job directories removed; %s", ps.parcels_sent, ps.files_removed,
                 ps.dirs_removed, line);
        http_cleanup();
        batch_end();
        return rc < 0 ? 1 : ps.failure[0] ? EXIT_TEMPFAIL : 0;
    }
    run_daemon();
    log_info("stopped");
    http_cleanup();
    batch_end();
    return 0;
}
