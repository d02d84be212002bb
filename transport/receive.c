/*
 * jobscreen-receive: the CGI at POST /receive that takes parcels from the nodes' senders
 * (docs/transport.md). It stores a parcel only when its munge credential was made by root
 * (uid 0) and carries the SHA-256 of the body it read, and only after the framing passed
 * every check; it answers 200 "stored ..." only after the files and directories are fsynced.
 * Every refusal is one line on stderr (the web server's error log) naming the reason.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "credential.h"
#include "kvconf.h"
#include "parcel.h"
#include "store.h"

#ifndef JT_DEFAULT_RECEIVE_CONF
#define JT_DEFAULT_RECEIVE_CONF "/etc/jobscreen/receive.conf"
#endif

struct receive_conf {
    char spool[4096];
    char munge_socket[4096];
    long long max_bytes;
};

/* one key of receive.conf; unknown keys are errors, the line's position is added by
 * common/kvconf.c */
static int set_key(void *ctx, const char *key, const char *value, char *why, size_t whysize)
{
    struct receive_conf *c = ctx;
    int bad;
    if (!strcmp(key, "spool"))
        bad = snprintf(c->spool, sizeof c->spool, "%s", value) >= (int)sizeof c->spool;
    else if (!strcmp(key, "munge_socket"))
        bad = snprintf(c->munge_socket, sizeof c->munge_socket, "%s", value) >= (int)sizeof c->munge_socket;
    else if (!strcmp(key, "max_bytes"))
        bad = js_kv_size(value, 1024, JT_PARCEL_MAX_BYTES, &c->max_bytes) < 0;
    else {
        snprintf(why, whysize, "unknown key \"%s\"", key);
        return -1;
    }
    if (bad) {
        snprintf(why, whysize, "%s: bad value \"%s\"", key, value);
        return -1;
    }
    return 0;
}

/* 0, or -1 with err */
static int load_conf(const char *path, struct receive_conf *c, char *err, size_t errsize)
{
    memset(c, 0, sizeof *c);
    c->max_bytes = JT_PARCEL_MAX_BYTES;
    if (js_kv_parse_file(path, set_key, c, err, errsize) < 0)
        return -1;
    if (c->spool[0] != '/') {
        snprintf(err, errsize, "%s: spool = an absolute directory is required", path);
        return -1;
    }
    return 0;
}

static void reply(int status, const char *text, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void reply(int status, const char *text, const char *fmt, ...)
{
    va_list ap;
    printf("Status: %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\n\r\n", status, text);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* One log line per refused or failed parcel, in the web server's error log. */
static void log_line(const char *what, size_t len, const char *reason)
{
    const char *addr = getenv("REMOTE_ADDR");
    fprintf(stderr, "jobscreen-receive: %s parcel from %s (%zu bytes): %s\n", what, addr ? addr : "?", len, reason);
}

static int refuse(int status, const char *text, size_t len, const char *reason)
{
    log_line("refused", len, reason);
    reply(status, text, "refused: %s", reason);
    return 0;
}

int main(void)
{
    const char *conf_path = getenv("JOBSCREEN_RECEIVE_CONF");
    struct receive_conf conf;
    char err[JT_REASON_MAX + 4200];
    if (!conf_path || !*conf_path)
        conf_path = JT_DEFAULT_RECEIVE_CONF;
    if (load_conf(conf_path, &conf, err, sizeof err) < 0) {
        log_line("cannot take", 0, err);
        reply(500, "Internal Server Error", "the receiver's configuration is broken (see the server's log)");
        return 0;
    }
    const char *method = getenv("REQUEST_METHOD");
    if (!method || strcmp(method, "POST") != 0)
        return refuse(405, "Method Not Allowed", 0, "only POST is accepted");
    const char *cl = getenv("CONTENT_LENGTH");
    char *end = NULL;
    errno = 0;
    long long want = cl ? strtoll(cl, &end, 10) : -1;
    if (!cl || errno || end == cl || *end || want < 0)
        return refuse(411, "Length Required", 0, "no valid Content-Length");
    if (want > conf.max_bytes) {
        snprintf(err, sizeof err, "Content-Length %lld is over the bound of %lld bytes", want, conf.max_bytes);
        return refuse(413, "Payload Too Large", 0, err);
    }
    char *body = malloc((size_t)want + 1);
    size_t got = 0;
    if (!body) {
        log_line("cannot take", (size_t)want, "out of memory");
        reply(503, "Service Unavailable", "out of memory");
        return 0;
    }
    while (got < (size_t)want) {
        ssize_t r = read(STDIN_FILENO, body + got, (size_t)want - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (got != (size_t)want) {
        snprintf(err, sizeof err, "body of %zu bytes, Content-Length said %lld", got, want);
        return refuse(400, "Bad Request", got, err);
    }
    /* who sent it: root on a node, and exactly this body */
    uid_t uid;
    if (js_credential_check(conf.munge_socket[0] ? conf.munge_socket : NULL, getenv(JS_CREDENTIAL_ENV), body, got, 0, &uid,
                            err, sizeof err) < 0)
        return refuse(403, "Forbidden", got, err);
    struct jt_parcel p;
    char reason[JT_REASON_MAX];
    if (jt_parcel_parse(body, got, &p, reason, sizeof reason) < 0)
        return refuse(400, "Bad Request", got, reason);
    int spoolfd = open(conf.spool, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (spoolfd < 0) {
        snprintf(err, sizeof err, "spool %s: %s", conf.spool, strerror(errno));
        log_line("cannot store", got, err);
        reply(503, "Service Unavailable", "cannot store: the received spool is not available");
        jt_parcel_free(&p);
        return 0;
    }
    if (jt_store(spoolfd, &p, reason, sizeof reason) < 0) {
        snprintf(err, sizeof err, "job.%u: %s", (unsigned)p.job_id, reason);
        log_line("cannot store", got, err);
        reply(503, "Service Unavailable", "cannot store: %s", err);
    } else
        reply(200, "OK", "stored job.%u: %zu files", (unsigned)p.job_id, p.nfiles);
    close(spoolfd);
    jt_parcel_free(&p);
    free(body);
    return 0;
}
