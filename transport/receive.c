/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen-receive: POST /receive, taking parcels from the nodes' senders
 * (docs/transport.md). It stores a post only when its munge credential was made by root
 * (uid 0) and carries the SHA-256 of the body it read, and only after the framing of every
 * parcel in it passed every check; it answers 200 "stored ..." only after the files and
 * directories are fsynced. What needs no body is checked before a byte of it is read: the
 * credential's presence, the Content-Length against max_bytes, the Content-Encoding, and the
 * credential itself (munged decodes it: root's, not expired, not replayed); the body is read
 * in bounded memory (body.h) and hashed as it comes; a compressed one is inflated only once
 * its credential matched, and never beyond max_bytes. Every refusal is one line on stderr
 * (the web server's error log) naming the reason and how many bytes of the body were read.
 *
 * The same binary is a plain CGI (a process per request) or, started as a FastCGI responder
 * (its standard input a listening socket: lighttpd's mod_fastcgi with bin-path,
 * spawn-fcgi), a loop over requests that reads its configuration once (docs/transport.md,
 * "A persistent receiver").
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#ifdef HAVE_FCGI
#include <fcgiapp.h>
#endif

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

/* One request: its parameters, its body and its answer, whether a CGI's or FastCGI's. */
struct req {
    char **envp;       /* the request's parameters; NULL: the process's environment (CGI) */
    jt_read_fn read;   /* the body */
    void *rctx;
    void (*write)(void *ctx, const char *s, size_t n); /* the answer */
    void *wctx;
};

static const char *param(const struct req *r, const char *name)
{
    if (!r->envp)
        return getenv(name);
    size_t l = strlen(name);
    for (char **e = r->envp; *e; e++)
        if (!strncmp(*e, name, l) && (*e)[l] == '=')
            return *e + l + 1;
    return NULL;
}

static void reply(const struct req *r, int status, const char *text, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void reply(const struct req *r, int status, const char *text, const char *fmt, ...)
{
    char buf[JT_REASON_MAX + 4400];
    int n = snprintf(buf, sizeof buf, "Status: %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\n\r\n",
                     status, text);
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof buf - 2)
        n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    r->write(r->wctx, buf, (size_t)n);
}

/* One log line per refused or failed parcel, in the web server's error log: the bytes of the
 * body read (0: refused before reading) and the Content-Length (when there was one). */
static void log_line(const struct req *r, const char *what, size_t got, long long want, const char *reason)
{
    const char *addr = param(r, "REMOTE_ADDR");
    if (want >= 0)
        fprintf(stderr, "jobscreen-receive: %s parcel from %s (%zu bytes read of %lld): %s\n", what, addr ? addr : "?", got,
                want, reason);
    else
        fprintf(stderr, "jobscreen-receive: %s parcel from %s (%zu bytes read): %s\n", what, addr ? addr : "?", got, reason);
}

/* Answer status and log the refusal; 1. */
static int refuse(const struct req *r, int status, const char *text, size_t got, long long want, const char *reason)
{
    log_line(r, "refused", got, want, reason);
    reply(r, status, text, "refused: %s", reason);
    return 1;
}

static int unavailable(const struct req *r, size_t got, long long want, const char *reason, const char *answer)
{
    log_line(r, "cannot store", got, want, reason);
    reply(r, 503, "Service Unavailable", "%s", answer);
    return 0;
}

/* The body's Content-Encoding: 0 none (identity), 1 gzip or deflate (zlib inflates both),
 * -1 one this receiver does not know. */
static int encoding(const char *ce)
{
    if (!ce || !*ce || !strcasecmp(ce, "identity"))
        return 0;
    if (!strcasecmp(ce, "gzip") || !strcasecmp(ce, "x-gzip") || !strcasecmp(ce, "deflate"))
        return 1;
    return -1;
}

/* Everything before the body: the method, the credential's presence, Content-Length (into
 * *want), Content-Encoding (into *compressed) and the credential itself (its SHA-256 into
 * digest). 0 to go on, 1 when refused (answered and logged). */
static int before_body(const struct req *r, const struct receive_conf *conf, long long *want, int *compressed,
                       unsigned char digest[JS_DIGEST_BYTES])
{
    char err[JT_REASON_MAX + 64];
    const char *method = param(r, "REQUEST_METHOD"), *cred = param(r, JS_CREDENTIAL_ENV), *cl = param(r, "CONTENT_LENGTH");
    const char *ce = param(r, "HTTP_CONTENT_ENCODING");
    char *end = NULL;
    *want = -1;
    if (!method || strcmp(method, "POST") != 0)
        return refuse(r, 405, "Method Not Allowed", 0, -1, "only POST is accepted");
    errno = 0;
    long long n = cl ? strtoll(cl, &end, 10) : -1;
    int length_ok = cl && !errno && end != cl && !*end && n >= 0;
    /* no credential: nothing of the body is wanted, whatever its length */
    if (!cred || !*cred)
        return refuse(r, 403, "Forbidden", 0, length_ok ? n : -1, "no credential (header " JS_CREDENTIAL_HEADER ")");
    if (!length_ok)
        return refuse(r, 411, "Length Required", 0, -1, "no valid Content-Length");
    *want = n;
    if (n > conf->max_bytes) {
        snprintf(err, sizeof err, "Content-Length %lld is over the bound of %lld bytes (max_bytes)", n, conf->max_bytes);
        return refuse(r, 413, "Payload Too Large", 0, n, err);
    }
    if ((*compressed = encoding(ce)) < 0) {
        snprintf(err, sizeof err, "Content-Encoding \"%.64s\" is not gzip, deflate or identity", ce);
        return refuse(r, 415, "Unsupported Media Type", 0, n, err);
    }
    /* who sent it, before a byte is read: root on a node (munged refuses a replayed or
     * expired credential); that it is this body's is checked once the body is in */
    uid_t uid;
    if (js_credential_decode(conf->munge_socket[0] ? conf->munge_socket : NULL, cred, 0, &uid, digest, err, sizeof err) < 0)
        return refuse(r, 403, "Forbidden", 0, n, err);
    return 0;
}

/* The body is in and root's (its SHA-256 matched the credential's): inflated when it came
 * compressed, its parcels' framing, then the files. */
static void take(const struct req *r, const struct receive_conf *conf, int spoolfd, const struct jt_body *wire,
                 long long want, int compressed)
{
    char err[JT_REASON_MAX + 4200], reason[JT_REASON_MAX];
    struct jt_body inflated = { 0 };
    const struct jt_body *b = wire;
    struct jt_post post;
    if (compressed) {
        int ir = jt_body_inflate(wire, (size_t)conf->max_bytes, spoolfd, &inflated, reason, sizeof reason);
        if (ir == -3)
            refuse(r, 413, "Payload Too Large", wire->len, want, reason);
        else if (ir == -1)
            refuse(r, 400, "Bad Request", wire->len, want, reason);
        else if (ir < 0)
            unavailable(r, wire->len, want, reason, "cannot inflate the body (see the server's log)");
        if (ir < 0) {
            jt_body_free(&inflated);
            return;
        }
        b = &inflated;
    }
    if (jt_post_parse(b->data, b->len, &post, reason, sizeof reason) < 0) {
        refuse(r, 400, "Bad Request", wire->len, want, reason);
    } else if (jt_store_post(spoolfd, &post, reason, sizeof reason) < 0) {
        snprintf(err, sizeof err, "%s%u: %s", post.n == 1 ? "job." : "a post of parcels from job.",
                 (unsigned)post.parcels[0].job_id, reason);
        log_line(r, "cannot store", wire->len, want, err);
        reply(r, 503, "Service Unavailable", "cannot store: %s", err);
    } else if (post.n == 1)
        reply(r, 200, "OK", "stored job.%u: %zu files", (unsigned)post.parcels[0].job_id, post.nfiles);
    else
        reply(r, 200, "OK", "stored %zu parcels: %zu files", post.n, post.nfiles);
    jt_post_free(&post);
    jt_body_free(&inflated);
}

/* One request, conf read (conf_err: why it could not be, or ""). */
static void serve(const struct req *r, const struct receive_conf *conf, const char *conf_err)
{
    char err[JT_REASON_MAX + 4200];
    if (conf_err[0]) {
        log_line(r, "cannot take", 0, -1, conf_err);
        reply(r, 500, "Internal Server Error", "the receiver's configuration is broken (see the server's log)");
        return;
    }
    long long want;
    int compressed = 0;
    unsigned char cred_digest[JS_DIGEST_BYTES], body_digest[JS_DIGEST_BYTES];
    if (before_body(r, conf, &want, &compressed, cred_digest))
        return;
    int spoolfd = open(conf->spool, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (spoolfd < 0) {
        snprintf(err, sizeof err, "spool %s: %s", conf->spool, strerror(errno));
        unavailable(r, 0, want, err, "cannot store: the received spool is not available");
        return;
    }
    struct jt_body b;
    int rc = jt_body_read_from(r->read, r->rctx, (size_t)want, spoolfd, &b, body_digest, err, sizeof err);
    if (rc == -1)
        refuse(r, 400, "Bad Request", b.len, want, err);
    else if (rc < 0)
        unavailable(r, b.len, want, err, "cannot take the body (see the server's log)");
    else if (js_credential_matches(cred_digest, body_digest, err, sizeof err) < 0)
        refuse(r, 403, "Forbidden", b.len, want, err);
    else
        take(r, conf, spoolfd, &b, want, compressed);
    jt_body_free(&b);
    close(spoolfd);
}

static ssize_t stdin_read(void *ctx, void *buf, size_t len)
{
    (void)ctx;
    ssize_t r;
    do
        r = read(STDIN_FILENO, buf, len);
    while (r < 0 && errno == EINTR);
    return r;
}

static void stdout_write(void *ctx, const char *s, size_t n)
{
    (void)ctx;
    fwrite(s, 1, n, stdout);
    fflush(stdout);
}

#ifdef HAVE_FCGI
static ssize_t fcgi_read(void *ctx, void *buf, size_t len)
{
    return FCGX_GetStr(buf, len > INT32_MAX ? INT32_MAX : (int)len, (FCGX_Stream *)ctx);
}

static void fcgi_write(void *ctx, const char *s, size_t n)
{
    FCGX_PutStr(s, (int)n, (FCGX_Stream *)ctx);
}

/* The FastCGI loop: the configuration was read once, at the start; each request is served as
 * a CGI's would be. A body not read (refused before reading) is not read afterwards either:
 * the connection to the web server is closed with the request. */
static int fastcgi(const struct receive_conf *conf, const char *conf_err)
{
    FCGX_Request rq;
    if (FCGX_Init() != 0 || FCGX_InitRequest(&rq, 0, 0) != 0) {
        fprintf(stderr, "jobscreen-receive: FastCGI: initialisation failed\n");
        return 1;
    }
    /* a sender that went away must not kill the process (the write fails, that is all) */
    signal(SIGPIPE, SIG_IGN);
    if (conf_err[0])
        fprintf(stderr, "jobscreen-receive: %s (every request is answered 500)\n", conf_err);
    while (FCGX_Accept_r(&rq) >= 0) {
        struct req r = { .envp = rq.envp, .read = fcgi_read, .rctx = rq.in, .write = fcgi_write, .wctx = rq.out };
        serve(&r, conf, conf_err);
        FCGX_Finish_r(&rq);
    }
    return 0;
}
#endif

int main(void)
{
    const char *conf_path = getenv("JOBSCREEN_RECEIVE_CONF");
    struct receive_conf conf;
    char conf_err[JT_REASON_MAX + 4200] = "";
    if (!conf_path || !*conf_path)
        conf_path = JT_DEFAULT_RECEIVE_CONF;
    load_conf(conf_path, &conf, conf_err, sizeof conf_err);
#ifdef HAVE_FCGI
    if (!FCGX_IsCGI())
        return fastcgi(&conf, conf_err);
#else
    /* a FastCGI responder's standard input is a listening socket */
    int listening = 0;
    socklen_t len = sizeof listening;
    if (getsockopt(0, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) == 0 && listening) {
        fprintf(stderr, "jobscreen-receive: started as a FastCGI responder, but this build has no FastCGI mode "
                        "(configure found no libfcgi: install libfcgi-dev and build again); run it as a plain CGI\n");
        return 1;
    }
#endif
    struct req r = { .envp = NULL, .read = stdin_read, .write = stdout_write };
    serve(&r, &conf, conf_err);
    return 0;
}
