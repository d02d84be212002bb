/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobscreen-send's parts, each calling only those below it: send.c (the passes over the spool
 * and main) above send_batch.c (the posts) above send_io.c (the options, the log, reading
 * root's files, the HTTP post and the metrics). */
#ifndef JT_SEND_H
#define JT_SEND_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "credential.h"
#include "parcel.h"

#define SENT_LEDGER ".transport.sent"

struct opts {
    const char *spool, *url, *munge_socket, *metrics_listen;
    int once, status, verbose;
    int backoff_max, rescan, job_grace, timeout;
    int post_parcels, compress;
    long long parcel_max;
};
extern struct opts o;

struct pass {
    int sending;       /* 0: counting only (--status, or the receiver failed in this pass) */
    long parcels_sent, posts, files_removed, dirs_removed;
    long waiting;      /* parcels that could not be sent (or, counting, would be) */
    time_t oldest;     /* mtime of the oldest waiting record, 0: none */
    char failure[2048];
};

/* A parcel counted as waiting (mtime: its oldest record's, 0 when unknown; send_batch.c). */
void pass_waiting(struct pass *ps, time_t mtime);

/* What to do once the receiver stored a parcel (send_batch.c). */
struct done {
    uint32_t job_id;
    char dirname[NAME_MAX + 1];
    char *names;           /* files to remove, relative to the job directory, NUL after each:
                            * profiles/ first, the step record last */
    size_t names_len;
    char job_hex[2 * JS_DIGEST_BYTES + 1]; /* the job record's version it carried, or "" */
    char live_key[NAME_MAX + 2 + JT_NAME_MAX]; /* the live snapshot it carried, or "" */
    unsigned char live_digest[JS_DIGEST_BYTES];
    time_t live_when, mtime;
    char what[1024];       /* for the log */
    size_t off, len, nfiles; /* its bytes in the post */
};
int done_add_name(struct done *d, const char *name);
/* A live snapshot of key the receiver stored (the sender's table of them lives in send.c). */
typedef void jt_live_sent_fn(const char *key, const unsigned char digest[JS_DIGEST_BYTES], time_t when);
/* The pass's posts go from spoolfd (the files are removed through it); on_live is told of each
 * live snapshot stored. */
void batch_start(int spoolfd, jt_live_sent_fn *on_live);
/* Parcel b (copied) of nfiles files joins the post in the making; what is held is posted
 * first when b would take it past --parcel-max, --post-parcels or JT_POST_MAX_FILES. d's
 * content is taken (d is cleared). When not sending, it is only counted as waiting. 0, or -1:
 * a post failed, the pass stops sending (the parcels held count as waiting). */
int batch_add(const struct jt_buf *b, struct done *d, size_t nfiles, struct pass *ps);
/* Post what is held: 0, or -1 (failed: ps->failure, ps->sending = 0). */
int batch_flush(struct pass *ps);
int batch_holds(uint32_t job_id);
void batch_end(void);

/* "TIME jobscreen-send LEVEL: ..." on stderr */
void logf_(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define log_info(...) logf_("info", __VA_ARGS__)
#define log_warn(...) logf_("warn", __VA_ARGS__)
#define log_error(...) logf_("error", __VA_ARGS__)
#define log_debug(...) do { if (o.verbose) logf_("debug", __VA_ARGS__); } while (0)

/* A regular file in dirfd, not followed through a link, of at most max bytes, owned by
 * want_uid unless it is (uid_t)-1. 0 (buf malloc'd, mtime set), -1 with reason, -2 gone. */
int read_file(int dirfd, const char *name, uid_t want_uid, long long max, char **buf, size_t *len, time_t *mtime,
              char *reason, size_t rsize);
void hex(const unsigned char *d, char out[2 * JS_DIGEST_BYTES + 1]);
/* The digest of the job record the receiver last stored, as hex ("" when none); writing it. */
void sent_digest(int jobfd, char out[2 * JS_DIGEST_BYTES + 1]);
int write_sent_digest(int jobfd, const char *hexd);

/* libcurl, once per process: 0, or -1. */
int http_init(void);
void http_cleanup(void);
/* POST a body of len bytes (gzip: Content-Encoding gzip); 0 when the receiver answered that it
 * stored it, else -1 with reason (*code: the HTTP status, 0 when none came). */
int post(const char *data, size_t len, int gzip, const char *what, long *code, char *reason, size_t rsize);

/* --metrics-listen: a pass's figures, and the page (metrics_http.h) */
void metrics_started(void);
void metrics_pass(const struct pass *ps, int ok);
size_t metrics_render(char *buf, size_t size);

#endif
