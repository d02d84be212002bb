/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen-receive: the CGI at POST /receive that takes parcels from the nodes' senders
 * (docs/transport.md). It stores a parcel only when its munge credential was made by root
 * (uid 0) and carries the SHA-256 of the body it read, and only after the framing passed
 * every check; it answers 200 "stored ..." only after the files and directories are fsynced.
 * What needs no body is checked before a byte of it is read: the credential's presence, the
 * Content-Length against max_bytes, and the credential itself (munged decodes it: root's, not
 * expired, not replayed); the body is read in bounded memory (body.h) and hashed as it comes.
 * Every refusal is one line on stderr (the web server's error log) naming the reason and how
 * many bytes of the body were read.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "body.h"
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
        bad = js_kv_size(value, JT_PARCEL_MIN_BOUND, JT_PARCEL_MAX_BYTES, &c->max_bytes) < 0;
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
    c->max_bytes = JT_PARCEL_DEFAULT_MAX;
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

/* One log line per refused or failed parcel, in the web server's error log: the bytes of the
 * body read (0: refused before reading) and the Content-Length (when there was one). */
static void log_line(const char *what, size_t got, long long want, const char *reason)
{
    const char *addr = getenv("REMOTE_ADDR");
    if (want >= 0)
        fprintf(stderr, "jobscreen-receive: %s parcel from %s (%zu bytes read of %lld): %s\n", what, addr ? addr : "?", got,
                want, reason);
    else
        fprintf(stderr, "jobscreen-receive: %s parcel from %s (%zu bytes read): %s\n", what, addr ? addr : "?", got, reason);
}

/* Answer status and log the refusal; 1. */
static int refuse(int status, const char *text, size_t got, long long want, const char *reason)
{
    log_line("refused", got, want, reason);
    reply(status, text, "refused: %s", reason);
    return 1;
}

static int unavailable(size_t got, long long want, const char *reason, const char *answer)
{
    log_line("cannot store", got, want, reason);
    reply(503, "Service Unavailable", "%s", answer);
    return 0;
}

/* Everything before the body: the method, the credential's presence, Content-Length (into
 * *want) and the credential itself (its SHA-256 into digest). 0 to go on, 1 when refused
 * (answered and logged). */
static int before_body(const struct receive_conf *conf, long long *want, unsigned char digest[JS_DIGEST_BYTES])
{
    char err[JT_REASON_MAX + 64];
    const char *method = getenv("REQUEST_METHOD"), *cred = getenv(JS_CREDENTIAL_ENV), *cl = getenv("CONTENT_LENGTH");
    char *end = NULL;
    *want = -1;
    if (!method || strcmp(method, "POST") != 0)
        return refuse(405, "Method Not Allowed", 0, -1, "only POST is accepted");
    errno = 0;
    long long n = cl ? strtoll(cl, &end, 10) : -1;
    int length_ok = cl && !errno && end != cl && !*end && n >= 0;
    /* no credential: nothing of the body is wanted, whatever its length */
    if (!cred || !*cred)
        return refuse(403, "Forbidden", 0, length_ok ? n : -1, "no credential (header " JS_CREDENTIAL_HEADER ")");
    if (!length_ok)
        return refuse(411, "Length Required", 0, -1, "no valid Content-Length");
    *want = n;
    if (n > conf->max_bytes) {
        snprintf(err, sizeof err, "Content-Length %lld is over the bound of %lld bytes (max_bytes)", n, conf->max_bytes);
        return refuse(413, "Payload Too Large", 0, n, err);
    }
    /* who sent it, before a byte is read: root on a node (munged refuses a replayed or
     * expired credential); that it is this body's is checked once the body is in */
    uid_t uid;
    if (js_credential_decode(conf->munge_socket[0] ? conf->munge_socket : NULL, cred, 0, &uid, digest, err, sizeof err) < 0)
        return refuse(403, "Forbidden", 0, n, err);
    return 0;
}

/* The body is in and root's: its SHA-256, its framing, then the files. */
static void take(int spoolfd, const struct jt_body *b, long long want,
                 const unsigned char cred_digest[JS_DIGEST_BYTES], const unsigned char body_digest[JS_DIGEST_BYTES])
{
    char err[JT_REASON_MAX + 4200], reason[JT_REASON_MAX];
    struct jt_parcel p;
    if (js_credential_matches(cred_digest, body_digest, err, sizeof err) < 0) {
        refuse(403, "Forbidden", b->len, want, err);
        return;
    }
    if (jt_parcel_parse(b->data, b->len, &p, reason, sizeof reason) < 0) {
        refuse(400, "Bad Request", b->len, want, reason);
        return;
    }
    if (jt_store(spoolfd, &p, reason, sizeof reason) < 0) {
        snprintf(err, sizeof err, "job.%u: %s", (unsigned)p.job_id, reason);
        log_line("cannot store", b->len, want, err);
        reply(503, "Service Unavailable", "cannot store: %s", err);
    } else
        reply(200, "OK", "stored job.%u: %zu files", (unsigned)p.job_id, p.nfiles);
    jt_parcel_free(&p);
}

int main(void)
{
    const char *conf_path = getenv("JOBSCREEN_RECEIVE_CONF");
    struct receive_conf conf;
    char err[JT_REASON_MAX + 4200];
    if (!conf_path || !*conf_path)
        conf_path = JT_DEFAULT_RECEIVE_CONF;
    if (load_conf(conf_path, &conf, err, sizeof err) < 0) {
        log_line("cannot take", 0, -1, err);
        reply(500, "Internal Server Error", "the receiver's configuration is broken (see the server's log)");
        return 0;
    }
    long long want;
    unsigned char cred_digest[JS_DIGEST_BYTES], body_digest[JS_DIGEST_BYTES];
    if (before_body(&conf, &want, cred_digest))
        return 0;
    int spoolfd = open(conf.spool, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (spoolfd < 0) {
        snprintf(err, sizeof err, "spool %s: %s", conf.spool, strerror(errno));
        return unavailable(0, want, err, "cannot store: the received spool is not available");
    }
    struct jt_body b;
    int r = jt_body_read(STDIN_FILENO, (size_t)want, spoolfd, &b, body_digest, err, sizeof err);
    if (r == -1)
        refuse(400, "Bad Request", b.len, want, err);
    else if (r < 0)
        unavailable(b.len, want, err, "cannot take the body (see the server's log)");
    else
        take(spoolfd, &b, want, cred_digest, body_digest);
    jt_body_free(&b);
    close(spoolfd);
    return 0;
}
