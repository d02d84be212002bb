/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the keepers of the stored replies share (replies.c: the workflow graph; replies_step.c:
 * a finished step's reply; docs/web.md, "Stored replies"). */
#ifndef JS_REPLIES_H
#define JS_REPLIES_H

#include <stdbool.h>
#include <stddef.h>

#include <libpq-fe.h>

#include "jsweb.h"

struct pi_db;

#define REPLIES_PASS_SECONDS 5.0 /* a daemon's pass, each keeper; --once keeps all */
/* pi_replies_take: some of the change rows were taken by another keeper first */
#define PI_REPLIES_TAKEN 3

/* CLOCK_MONOTONIC in seconds */
double pi_replies_now(void);
/* The connection set up as the CGI's, to this daemon's database (made once; NULL: logged) */
jsw_db *pi_replies_reader(struct pi_db *db);
/* Forget it (it failed: the database restarting): connected anew next time */
void pi_replies_reader_reset(void);
/* The gzip of a reply as a bytea literal in hex, empty below JSW_GZIP_MIN; malloc'd. Level 6:
 * level 9 took 2.6 times the time for 8 % fewer bytes, a quarter of the daemon's CPU at 128
 * processes a node (issue 37) */
char *pi_replies_gzip_hex(const char *body, size_t n);
/* In the keeper's transaction: run take (a DELETE of the change rows $1, returning their count)
 * on changes (array_agg's text): PI_DB_OK when all were there, PI_REPLIES_TAKEN, RETRY/FAIL */
int pi_replies_take(struct pi_db *db, const char *take, const char *changes);

/* A reply computed by a keeper: its endpoint, params, ETag and text (malloc'd, n bytes), how
 * long it took; plain: not sent as it is (the step's spread), no gzip */
struct pi_reply {
    const char *endpoint;
    char params[JSW_STORED_PARAMS_MAX], etag[JSW_ETAG_LEN];
    char *text;
    size_t n;
    double ms;
    bool plain;
};
/* One transaction: the change rows changes deleted by take, the stored replies of cid and key
 * deleted by drop ($1 cluster, $2 key) and replaced by the n in rs; what names the keeper in the
 * log. Nothing when another keeper deleted some of those rows first (PI_REPLIES_TAKEN). */
int pi_replies_store(struct pi_db *db, const char *take, const char *drop, const char *what, const char *cid,
                     const char *key, const char *changes, const struct pi_reply *rs, int n);
/* A keeper's row done: the n replies in rs stored as pi_replies_store does (unless failed: they
 * stay due), counted in *kept (stored) and *done (stored or taken by another), their texts freed:
 * PI_DB_OK, or RETRY/FAIL */
int pi_replies_done(struct pi_db *db, const char *take, const char *drop, const char *what, const char *cid,
                    const char *key, const char *changes, struct pi_reply *rs, int n, int failed, long *kept,
                    long *done);

/* A keeper of change rows by job or file (replies_step.c, replies_file.c): drop_due deletes the
 * change rows seen of what is not kept and its stored replies; due lists what is kept among
 * them whose last change is at least $(nparams + 1) (an interval) old (params: nparams
 * thresholds, both queries'); keep stores row i of due, counting the replies stored in *kept
 * and what it finished in *done; what names it in the log. */
struct pi_replies_keeper {
    const char *drop_due, *due, *what;
    int nparams;
    int (*keep)(struct pi_db *db, PGresult *due, int i, const char *const *params, long *kept, long *done);
};
/* Rounds over the change rows until one finds nothing more to do (a daemon: within
 * REPLIES_PASS_SECONDS; all: until done), what changed less than settle seconds ago left for a
 * later pass; *dropped counts the change rows dropped */
int pi_replies_rounds(struct pi_db *db, const struct pi_replies_keeper *k, const char *const *params, int all,
                      int settle, long *kept, long *dropped);
/* The interval text of settle seconds for the due queries (buf: 32 bytes) */
const char *pi_replies_settle(char *buf, int settle);

#endif
