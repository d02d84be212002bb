/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobscreen-send's parts (send.c: the passes over the spool and main; send_io.c: the log,
 * reading root's files, the HTTP post and the metrics). */
#ifndef JT_SEND_H
#define JT_SEND_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "credential.h"
#include "parcel.h"

#define SENT_LEDGER ".transport.sent"

struct opts {
    const char *spool, *url, *munge_socket, *metrics_listen;
    int once, status, verbose;
    int backoff_max, rescan, job_grace, timeout;
    long long parcel_max;
};
extern struct opts o;

struct pass {
    int sending;       /* 0: counting only (--status, or the receiver failed in this pass) */
    long parcels_sent, files_removed, dirs_removed;
    long waiting;      /* parcels that could not be sent (or, counting, would be) */
    time_t oldest;     /* mtime of the oldest waiting record, 0: none */
    char failure[2048];
};

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
/* POST the parcel; 0 when the receiver answered that it stored it, else -1 with reason. */
int post(const struct jt_buf *b, const char *what, char *reason, size_t rsize);

/* --metrics-listen: a pass's figures, and the page (metrics_http.h) */
void metrics_started(void);
void metrics_pass(const struct pass *ps, int ok);
size_t metrics_render(char *buf, size_t size);

#endif
