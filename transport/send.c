/*
 * jobscreen-send: ships a node-local spool to the server's receiver (docs/transport.md).
 *
 * Runs as root on each node (the spool is root's). Per pass over SPOOL/job.<id>/:
 *  - each complete step-node (step.<s>.<n>.json present): a parcel of the job record, that
 *    step record and that step-node's bundles (several parcels when they are large, the step
 *    record in the last); once the receiver answered "stored", those files go (never before);
 *  - the job record whenever it changed since the receiver last stored it (.transport.sent
 *    holds its SHA-256); once it is final, its grace time passed and nothing is left to
 *    send, the job's directory goes;
 *  - each live snapshot when it changed, and at least once a minute while it is there.
 * It reads only what root wrote as records (owner checked) and never parses a bundle or a
 * live snapshot: their bytes are framed as they are.
 */
#include "config.h"

#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
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

#define SENT_LEDGER ".transport.sent"
#define EXIT_TEMPFAIL 75
#define LIVE_EVERY_SECONDS 60

struct opts {
    const char *spool, *url, *munge_socket, *metrics_listen;
    int once, status, verbose;
    int backoff_max, rescan, job_grace, timeout;
    long long parcel_max;
};

struct live_seen {
    char key[NAME_MAX + 2 + JT_NAME_MAX];
    unsigned char digest[JS_DIGEST_BYTES];
    time_t sent;
    int seen;
};

struct pass {
    int sending;       /* 0: counting only (--status, or the receiver failed in this pass) */
    long parcels_sent, files_removed, dirs_removed;
    long waiting;      /* parcels that could not be sent (or, counting, would be) */
    time_t oldest;     /* mtime of the oldest waiting record, 0: none */
    char failure[2048];
};

static struct opts o;

/* --metrics-listen: what the passes did, for Prometheus (docs/transport.md, "Metrics") */
static struct {
    pthread_mutex_t lock;
    long parcels, files_removed, dirs_removed, passes, failed_passes, waiting;
    double oldest_s, last_pass, started;
    int receiver_up;
} mx = { .lock = PTHREAD_MUTEX_INITIALIZER, .receiver_up = -1 };

static void metrics_pass(const struct pass *ps, int ok)
{
    pthread_mutex_lock(&mx.lock);
    mx.passes++;
    mx.failed_passes += !ok;
    mx.parcels += ps->parcels_sent;
    mx.files_removed += ps->files_removed;
    mx.dirs_removed += ps->dirs_removed;
    mx.waiting = ps->waiting;
    mx.oldest_s = ps->oldest ? (double)(time(NULL) - ps->oldest) : 0;
    mx.receiver_up = ok;
    mx.last_pass = (double)time(NULL);
    pthread_mutex_unlock(&mx.lock);
}

static size_t metrics_render(char *buf, size_t size)
{
    pthread_mutex_lock(&mx.lock);
    int n = snprintf(buf, size,
        "# HELP jobscreen_send_parcels_total parcels the receiver stored\n# TYPE jobscreen_send_parcels_total counter\n"
        "jobscreen_send_parcels_total %ld\n"
        "# HELP jobscreen_send_files_removed_total spool files removed once stored\n# TYPE jobscreen_send_files_removed_total counter\n"
        "jobscreen_send_files_removed_total %ld\n"
        "# HELP jobscreen_send_job_dirs_removed_total job directories removed once all was stored\n"
        "# TYPE jobscreen_send_job_dirs_removed_total counter\njobscreen_send_job_dirs_removed_total %ld\n"
        "# HELP jobscreen_send_passes_total passes over the spool\n# TYPE jobscreen_send_passes_total counter\n"
        "jobscreen_send_passes_total %ld\n"
        "# HELP jobscreen_send_failed_passes_total passes the receiver or the spool failed\n"
        "# TYPE jobscreen_send_failed_passes_total counter\njobscreen_send_failed_passes_total %ld\n"
        "# HELP jobscreen_send_waiting_parcels parcels waiting after the last pass\n# TYPE jobscreen_send_waiting_parcels gauge\n"
        "jobscreen_send_waiting_parcels %ld\n"
        "# HELP jobscreen_send_oldest_waiting_seconds age of the oldest waiting record\n"
        "# TYPE jobscreen_send_oldest_waiting_seconds gauge\njobscreen_send_oldest_waiting_seconds %.0f\n"
        "# HELP jobscreen_send_last_pass_timestamp_seconds when the last pass ended\n"
        "# TYPE jobscreen_send_last_pass_timestamp_seconds gauge\njobscreen_send_last_pass_timestamp_seconds %.0f\n"
        "# HELP jobscreen_send_start_time_seconds when the sender started\n"
        "# TYPE jobscreen_send_start_time_seconds gauge\njobscreen_send_start_time_seconds %.0f\n",
        mx.parcels, mx.files_removed, mx.dirs_removed, mx.passes, mx.failed_passes, mx.waiting, mx.oldest_s, mx.last_pass,
        mx.started);
    if (n > 0 && (size_t)n < size && mx.receiver_up >= 0)
        n += snprintf(buf + n, size - (size_t)n,
                      "# HELP jobscreen_send_receiver_up whether the last pass reached the receiver\n"
                      "# TYPE jobscreen_send_receiver_up gauge\njobscreen_send_receiver_up %d\n", mx.receiver_up);
    pthread_mutex_unlock(&mx.lock);
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}
static CURL *curl;
static struct live_seen *lives;
static size_t nlives, caplives;
static int generation;
static volatile sig_atomic_t stop;
static int inotify_fd = -1;

/* --- log ------------------------------------------------------------------------------------ */
static void logf_(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(const char *level, const char *fmt, ...)
{
    char ts[32];
    time_t now = time(NULL);
    struct tm tm;
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", localtime_r(&now, &tm));
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s jobscreen-send %s: ", ts, level);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
#define log_info(...) logf_("info", __VA_ARGS__)
#define log_warn(...) logf_("warn", __VA_ARGS__)
#define log_error(...) logf_("error", __VA_ARGS__)
#define log_debug(...) do { if (o.verbose) logf_("debug", __VA_ARGS__); } while (0)

/* --- files ---------------------------------------------------------------------------------- */
/* A regular file in dirfd, not followed through a link, of at most max bytes, owned by
 * want_uid unless it is (uid_t)-1. 0 (buf malloc'd, mtime set), -1 with reason, -2 gone. */
static int read_file(int dirfd, const char *name, uid_t want_uid, long long max, char **buf, size_t *len, time_t *mtime,
                     char *reason, size_t rsize)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat sb;
    if (fd < 0) {
        if (errno == ENOENT)
            return -2;
        snprintf(reason, rsize, "%s: cannot open: %s", name, strerror(errno));
        return -1;
    }
    if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || (want_uid != (uid_t)-1 && sb.st_uid != want_uid) ||
        sb.st_size > max) {
        snprintf(reason, rsize, "%s: not a regular file of uid %d of at most %lld bytes", name, (int)want_uid, max);
        close(fd);
        return -1;
    }
    char *p = malloc((size_t)sb.st_size + 1);
    size_t n = 0;
    while (p && n <= (size_t)sb.st_size) {
        ssize_t r = read(fd, p + n, (size_t)sb.st_size + 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (!p || n != (size_t)sb.st_size) {
        snprintf(reason, rsize, "%s: changed while read", name);
        free(p);
        return -1;
    }
    *buf = p;
    *len = n;
    if (mtime)
        *mtime = sb.st_mtime;
    return 0;
}

static void hex(const unsigned char *d, char out[2 * JS_DIGEST_BYTES + 1])
{
    for (int i = 0; i < JS_DIGEST_BYTES; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

/* The digest of the job record the receiver last stored, as hex ("" when none). */
static void sent_digest(int jobfd, char out[2 * JS_DIGEST_BYTES + 1])
{
    char *b = NULL, r[256];
    size_t l = 0;
    out[0] = '\0';
    if (read_file(jobfd, SENT_LEDGER, 0, 256, &b, &l, NULL, r, sizeof r) == 0 && l >= 2 * JS_DIGEST_BYTES) {
        memcpy(out, b, 2 * JS_DIGEST_BYTES);
        out[2 * JS_DIGEST_BYTES] = '\0';
    }
    free(b);
}

static int write_sent_digest(int jobfd, const char *hexd)
{
    const char *tmp = "." SENT_LEDGER ".tmp";
    unlinkat(jobfd, tmp, 0);
    int fd = openat(jobfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    int ok = dprintf(fd, "%s\n", hexd) > 0 && fsync(fd) == 0;
    ok &= close(fd) == 0;
    if (!ok || renameat(jobfd, tmp, jobfd, SENT_LEDGER) < 0) {
        unlinkat(jobfd, tmp, 0);
        return -1;
    }
    return 0;
}

/* --- HTTP ----------------------------------------------------------------------------------- */
struct reply {
    char text[1024];
    size_t len;
};

static size_t collect(char *data, size_t size, size_t n, void *arg)
{
    struct reply *r = arg;
    size_t take = size * n;
    if (take > sizeof r->text - 1 - r->len)
        take = sizeof r->text - 1 - r->len;
    memcpy(r->text + r->len, data, take);
    r->len += take;
    r->text[r->len] = '\0';
    return size * n;
}

/* POST the parcel; 0 when the receiver answered that it stored it, else -1 with reason. */
static int post(const struct jt_buf *b, const char *what, char *reason, size_t rsize)
{
    char *cred = NULL, why[512];
    if (js_credential_make(o.munge_socket, b->data, b->len, &cred, why, sizeof why) < 0) {
        snprintf(reason, rsize, "%s: no credential: %s", what, why);
        return -1;
    }
    size_t hl = strlen(JS_CREDENTIAL_HEADER) + strlen(cred) + 3;
    char *h = malloc(hl);
    snprintf(h, hl, "%s: %s", JS_CREDENTIAL_HEADER, cred);
    free(cred);
    struct curl_slist *headers = curl_slist_append(NULL, h);
    headers = curl_slist_append(headers, "Content-Type: application/x-jobscreen-parcel");
    headers = curl_slist_append(headers, "Expect:");
    free(h);
    struct reply r = { .len = 0 };
    char err[CURL_ERROR_SIZE] = "";
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, o.url);
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, b->data);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)b->len);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, err);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
    /* a stalled server: give up after timeout seconds below 1 byte/s, retry later */
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, (long)o.timeout);
    CURLcode rc = curl_easy_perform(curl);
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    curl_slist_free_all(headers);
    char *nl = strchr(r.text, '\n');
    if (nl)
        *nl = '\0';
    if (rc != CURLE_OK) {
        snprintf(reason, rsize, "%s: %s: %s", what, o.url, err[0] ? err : curl_easy_strerror(rc));
        return -1;
    }
    /* 200 alone is not enough: only a receiver that stored and fsynced says "stored" */
    if (code != 200 || strncmp(r.text, "stored ", 7) != 0) {
        snprintf(reason, rsize, "%s: %s answered HTTP %ld: %s", what, o.url, code, r.text[0] ? r.text : "(no body)");
        return -1;
    }
    log_debug("%s: %s", what, r.text);
    return 0;
}

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
};

static void waiting(struct pass *ps, time_t mtime)
{
    ps->waiting++;
    if (mtime && (!ps->oldest || mtime < ps->oldest))
        ps->oldest = mtime;
}

static void failed(struct pass *ps, const char *reason)
{
    snprintf(ps->failure, sizeof ps->failure, "%s", reason);
    ps->sending = 0;
}

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

static void mark_job_record_sent(struct job *j)
{
    char have[2 * JS_DIGEST_BYTES + 1];
    if (!j->record)
        return;
    sent_digest(j->fd, have);
    if (strcmp(have, j->record_hex) != 0 && write_sent_digest(j->fd, j->record_hex) < 0)
        log_warn("%s/" SENT_LEDGER ": cannot write: %s (the job record will be sent again)", j->dirname, strerror(errno));
}

/* Send the bundles of one step-node (those with bundle set in pick; NULL: all of step/node)
 * and, when step is given, its step record in the last parcel; remove each parcel's files once
 * it was stored. 0, or -1 (the pass stops sending). */
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
        char what[1024], reason[1536], name[JT_NAME_MAX + 16];
        size_t first = next;
        int with_step = 0;
        if (jt_parcel_begin(&b, j->id) < 0 || (j->record && jt_parcel_add(&b, JS_JOB_RECORD_NAME, j->record, j->record_len) < 0))
            { jt_buf_free(&b); goto oom; }
        /* bundles while the parcel stays within parcel_max (one at least) */
        while (next < nidx) {
            const struct entry *e = &j->profiles[idx[next]];
            char *data = NULL;
            size_t len = 0;
            /* bundles are the user's: framed, never parsed */
            int r = read_file(j->pfd, e->name, (uid_t)-1, JS_PROFILE_MAX_BYTES, &data, &len, NULL, reason, sizeof reason);
            if (r == -1) {
                log_error("%s/" JS_PROFILES_DIR_NAME "/%s; it stays in the spool", j->dirname, reason);
                idx[next] = (size_t)-1;
                next++;
                continue;
            }
            if (r == -2) {
                idx[next] = (size_t)-1;
                next++;
                continue;
            }
            if (next > first && (long long)(b.len + jt_parcel_entry_size(e->name, len)) > o.parcel_max) {
                free(data);
                break;
            }
            snprintf(name, sizeof name, JS_PROFILES_DIR_NAME "/%s", e->name);
            int a = jt_parcel_add(&b, name, data, len);
            free(data);
            if (a < 0)
                { jt_buf_free(&b); goto oom; }
            next++;
        }
        if (next == nidx && step) {
            char *data = NULL;
            size_t len = 0;
            int r = read_file(j->fd, step->name, 0, JS_RECORD_MAX_FILE_BYTES, &data, &len, NULL, reason, sizeof reason);
            if (r == 0) {
                with_step = jt_parcel_add(&b, step->name, data, len) == 0;
                free(data);
                if (!with_step)
                    { jt_buf_free(&b); goto oom; }
            } else if (r == -1)
                log_error("%s/%s; it stays in the spool", j->dirname, reason);
        }
        size_t files = 0;
        for (size_t k = first; k < next; k++)
            files += idx[k] != (size_t)-1;
        if (files == 0 && !with_step) {
            jt_buf_free(&b);
            return 0;
        }
        jt_parcel_end(&b);
        snprintf(what, sizeof what, "%s step %s on %s (%zu bundles%s, %zu bytes)", j->dirname, stepnode_step, stepnode_node,
                 files, with_step ? " and the step record" : ", no step record", b.len);
        if (!ps->sending) {
            waiting(ps, step ? step->mtime : 0);
            jt_buf_free(&b);
            if (next == nidx)
                return 0;
            continue;
        }
        if (post(&b, what, reason, sizeof reason) < 0) {
            jt_buf_free(&b);
            failed(ps, reason);
            waiting(ps, step ? step->mtime : 0);
            return -1;
        }
        jt_buf_free(&b);
        ps->parcels_sent++;
        log_info("sent %s", what);
        /* stored on the server: now, and only now, they leave the node */
        for (size_t k = first; k < next; k++)
            if (idx[k] != (size_t)-1 && unlinkat(j->pfd, j->profiles[idx[k]].name, 0) == 0)
                ps->files_removed++;
        if (j->pfd >= 0)
            fsync(j->pfd);
        mark_job_record_sent(j);
        if (with_step) {
            if (unlinkat(j->fd, step->name, 0) == 0)
                ps->files_removed++;
            fsync(j->fd);
            return 0;
        }
        if (next == nidx && !step)
            return 0;
    }
oom:
    log_error("%s: out of memory building a parcel", j->dirname);
    return -1;
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
    char key[sizeof lives[0].key], reason[1536], what[1024], name[JT_NAME_MAX + 16];
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
    int bad = jt_parcel_begin(&b, j->id) < 0 || (j->record && jt_parcel_add(&b, JS_JOB_RECORD_NAME, j->record, j->record_len) < 0) ||
              jt_parcel_add(&b, name, data, len) < 0 || jt_parcel_end(&b) < 0;
    free(data);
    if (bad) {
        jt_buf_free(&b);
        log_error("%s/%s: cannot make a parcel of it", j->dirname, name);
        return 0;
    }
    snprintf(what, sizeof what, "%s live snapshot of step %s on %s (%zu bytes)", j->dirname, e->n.step, e->n.node, b.len);
    if (!ps->sending) {
        waiting(ps, e->mtime);
        jt_buf_free(&b);
        return 0;
    }
    int rc = post(&b, what, reason, sizeof reason);
    jt_buf_free(&b);
    if (rc < 0) {
        failed(ps, reason);
        waiting(ps, e->mtime);
        return -1;
    }
    ps->parcels_sent++;
    log_info("sent %s", what);
    if (l) {
        memcpy(l->digest, d, sizeof d);
        l->sent = now;
    }
    mark_job_record_sent(j);
    return 0;
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
    if (j.record && strcmp(have, j.record_hex) != 0 && !stop) {
        struct jt_buf b = { 0 };
        char what[NAME_MAX + 64];
        snprintf(what, sizeof what, "%s job record (%zu bytes)", dirname, j.record_len);
        if (jt_parcel_begin(&b, id) < 0 || jt_parcel_add(&b, JS_JOB_RECORD_NAME, j.record, j.record_len) < 0 ||
            jt_parcel_end(&b) < 0)
            log_error("%s: cannot make a parcel of it", what);
        else if (!ps->sending)
            waiting(ps, j.record_mtime);
        else if (post(&b, what, reason, sizeof reason) < 0) {
            failed(ps, reason);
            waiting(ps, j.record_mtime);
        } else {
            ps->parcels_sent++;
            log_info("sent %s", what);
            mark_job_record_sent(&j);
        }
        jt_buf_free(&b);
    }
    if (!ps->sending || !j.record || stop)
        goto out;
    /* the job ended: leftovers (bundles no step record named) go too, then the directory */
    json_t *jr = json_loadb(j.record, j.record_len, 0, NULL);
    int final = jr && json_is_true(json_object_get(jr, "final"));
    json_t *end = jr ? json_object_get(jr, "end_ns") : NULL;
    long long end_s = json_is_integer(end) ? json_integer_value(end) / 1000000000LL : (long long)j.record_mtime;
    json_decref(jr);
    sent_digest(j.fd, have);
    free(j.steps);
    free(j.profiles);
    j.steps = j.profiles = NULL;
    j.nsteps = j.nprofiles = 0;
    list_job(&j);
    if (!final || end_s + o.job_grace > (long long)time(NULL) || j.nsteps || strcmp(have, j.record_hex) != 0)
        goto out;
    /* each step-node that has bundles once (send_step_node takes all of its bundles) */
    for (size_t i = 0; i < j.nprofiles; i++) {
        const struct jt_name *n = &j.profiles[i].n;
        int first = n->kind == JT_BUNDLE;
        for (size_t k = 0; k < i && first; k++)
            first = !(j.profiles[k].n.kind == JT_BUNDLE && !strcmp(j.profiles[k].n.step, n->step) &&
                      !strcmp(j.profiles[k].n.node, n->node));
        if (first && send_step_node(&j, n->step, n->node, NULL, ps) < 0)
            goto out;
    }
    free(j.profiles);
    j.profiles = NULL;
    j.nprofiles = 0;
    list_job(&j);
    for (size_t i = 0; i < j.nprofiles; i++)
        if (j.profiles[i].n.kind == JT_BUNDLE) {
            log_warn("%s: %s could not be sent; the directory stays", dirname, j.profiles[i].name);
            goto out;
        }
    if (j.pfd >= 0) {
        remove_tree(j.fd, JS_PROFILES_DIR_NAME, ps);
        unlinkat(j.fd, JS_PROFILES_DIR_NAME, AT_REMOVEDIR);
    }
    remove_tree(spoolfd, dirname, ps);
    if (unlinkat(spoolfd, dirname, AT_REMOVEDIR) == 0) {
        fsync(spoolfd);
        ps->dirs_removed++;
        log_info("%s: the job ended and all of it was stored by the receiver; directory removed", dirname);
    } else
        log_warn("%s: cannot remove the directory: %s", dirname, strerror(errno));
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
            "  --parcel-max BYTES     parcels are cut at this size (default 67108864; a bundle is never cut)\n"
            "  --timeout SECONDS      a transfer that stalls this long fails (default 60)\n"
            "  --verbose              debug messages\n"
            "  --metrics-listen HOST:PORT  serve Prometheus metrics at http://HOST:PORT/metrics\n");
}

int main(int argc, char **argv)
{
    enum { O_SPOOL = 256, O_URL, O_MUNGE, O_ONCE, O_STATUS, O_BACKOFF, O_RESCAN, O_GRACE, O_PMAX, O_TIMEOUT, O_VERBOSE,
           O_METRICS };
    static const struct option opts[] = {
        { "spool", required_argument, 0, O_SPOOL }, { "url", required_argument, 0, O_URL },
        { "munge-socket", required_argument, 0, O_MUNGE }, { "once", no_argument, 0, O_ONCE },
        { "status", no_argument, 0, O_STATUS }, { "backoff-max", required_argument, 0, O_BACKOFF },
        { "rescan", required_argument, 0, O_RESCAN }, { "job-grace", required_argument, 0, O_GRACE },
        { "parcel-max", required_argument, 0, O_PMAX }, { "timeout", required_argument, 0, O_TIMEOUT },
        { "verbose", no_argument, 0, O_VERBOSE }, { "metrics-listen", required_argument, 0, O_METRICS },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
    };
    o.backoff_max = 60;
    o.rescan = 10;
    o.job_grace = 300;
    o.timeout = 60;
    o.parcel_max = 64LL << 20;
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
            if (js_kv_size(optarg, 4096, JT_PARCEL_MAX_BYTES - JS_PROFILE_MAX_BYTES - 2 * JS_RECORD_MAX_FILE_BYTES, &o.parcel_max) < 0) {
                fprintf(stderr, "jobscreen-send: --parcel-max: \"%s\" is not a size from 4096 to %lld bytes\n", optarg,
                        JT_PARCEL_MAX_BYTES - JS_PROFILE_MAX_BYTES - 2 * JS_RECORD_MAX_FILE_BYTES);
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
    curl_global_init(CURL_GLOBAL_DEFAULT);
    curl = curl_easy_init();
    if (!curl) {
        log_error("libcurl: cannot initialise");
        return 1;
    }
    struct sigaction sa = { .sa_handler = on_signal };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    if (o.once) {
        int rc = run_pass(&ps, 1);
        backlog_line(&ps, line, sizeof line);
        if (rc < 0 || ps.failure[0])
            log_warn("%s; the spool is kept; %s", ps.failure, line);
        log_info("done: %ld parcels sent, %ld files and %ld job directories removed; %s", ps.parcels_sent, ps.files_removed,
                 ps.dirs_removed, line);
        curl_easy_cleanup(curl);
        curl_global_cleanup();
        return rc < 0 ? 1 : ps.failure[0] ? EXIT_TEMPFAIL : 0;
    }
    inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    int backoff = 1;
    time_t last_backlog = time(NULL);
    log_info("sending %s to %s", o.spool, o.url);
    if (o.metrics_listen) {
        char why[320];
        mx.started = (double)time(NULL);
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
    log_info("stopped");
    curl_easy_cleanup(curl);
    curl_global_cleanup();
    return 0;
}
