/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobscreen-send's input and output (send.h): the log, root's files, the HTTP post, metrics. */
#include "config.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "send.h"

/* the options, set by main (send.c): here, under the files that read them */
struct opts o;

static CURL *curl;

/* --- log ------------------------------------------------------------------------------------ */
void logf_(const char *level, const char *fmt, ...)
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

/* --- files ---------------------------------------------------------------------------------- */
/* A regular file in dirfd, not followed through a link, of at most max bytes, owned by
 * want_uid unless it is (uid_t)-1. 0 (buf malloc'd, mtime set), -1 with reason, -2 gone. */
int read_file(int dirfd, const char *name, uid_t want_uid, long long max, char **buf, size_t *len, time_t *mtime,
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

void hex(const unsigned char *d, char out[2 * JS_DIGEST_BYTES + 1])
{
    for (int i = 0; i < JS_DIGEST_BYTES; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

/* The digest of the job record the receiver last stored, as hex ("" when none). */
void sent_digest(int jobfd, char out[2 * JS_DIGEST_BYTES + 1])
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

int write_sent_digest(int jobfd, const char *hexd)
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

int post(const char *data, size_t len, int gzip, const char *what, long *code_out, char *reason, size_t rsize)
{
    char *cred = NULL, why[512];
    *code_out = 0;
    /* the credential is of the bytes on the wire: the receiver checks it before inflating */
    if (js_credential_make(o.munge_socket, data, len, &cred, why, sizeof why) < 0) {
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
    if (gzip)
        headers = curl_slist_append(headers, "Content-Encoding: gzip");
    free(h);
    struct reply r = { .len = 0 };
    char err[CURL_ERROR_SIZE] = "";
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, o.url);
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, data);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
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
    *code_out = code;
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

int http_init(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    curl = curl_easy_init();
    return curl ? 0 : -1;
}

void http_cleanup(void)
{
    if (curl)
        curl_easy_cleanup(curl);
    curl = NULL;
    curl_global_cleanup();
}

/* --- metrics -------------------------------------------------------------------------------- */
/* --metrics-listen: what the passes did, for Prometheus (docs/transport.md, "Metrics") */
static struct {
    pthread_mutex_t lock;
    long parcels, posts, files_removed, dirs_removed, passes, failed_passes, waiting;
    double oldest_s, last_pass, started;
    int receiver_up;
} mx = { .lock = PTHREAD_MUTEX_INITIALIZER, .receiver_up = -1 };

void metrics_pass(const struct pass *ps, int ok)
{
    pthread_mutex_lock(&mx.lock);
    mx.passes++;
    mx.failed_passes += !ok;
    mx.parcels += ps->parcels_sent;
    mx.posts += ps->posts;
    mx.files_removed += ps->files_removed;
    mx.dirs_removed += ps->dirs_removed;
    mx.waiting = ps->waiting;
    mx.oldest_s = ps->oldest ? (double)(time(NULL) - ps->oldest) : 0;
    mx.receiver_up = ok;
    mx.last_pass = (double)time(NULL);
    pthread_mutex_unlock(&mx.lock);
}

size_t metrics_render(char *buf, size_t size)
{
    pthread_mutex_lock(&mx.lock);
    int n = snprintf(buf, size,
        "# HELP jobscreen_send_parcels_total parcels the receiver stored\n# TYPE jobscreen_send_parcels_total counter\n"
        "jobscreen_send_parcels_total %ld\n"
        "# HELP jobscreen_send_posts_total requests that carried them (many parcels each when a backlog exists)\n"
        "# TYPE jobscreen_send_posts_total counter\njobscreen_send_posts_total %ld\n"
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
        mx.parcels, mx.posts, mx.files_removed, mx.dirs_removed, mx.passes, mx.failed_passes, mx.waiting, mx.oldest_s, mx.last_pass,
        mx.started);
    if (n > 0 && (size_t)n < size && mx.receiver_up >= 0)
        n += snprintf(buf + n, size - (size_t)n,
                      "# HELP jobscreen_send_receiver_up whether the last pass reached the receiver\n"
                      "# TYPE jobscreen_send_receiver_up gauge\njobscreen_send_receiver_up %d\n", mx.receiver_up);
    pthread_mutex_unlock(&mx.lock);
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

void metrics_started(void)
{
    pthread_mutex_lock(&mx.lock);
    mx.started = (double)time(NULL);
    pthread_mutex_unlock(&mx.lock);
}
