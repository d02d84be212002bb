/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the keepers of the stored replies share (replies.c: the workflow graph; replies_step.c:
 * a finished step's reply; docs/web.md, "Stored replies"). */
#ifndef JS_REPLIES_H
#define JS_REPLIES_H

#include <stddef.h>

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
/* The gzip (level 9) of a reply as a bytea literal in hex, empty below JSW_GZIP_MIN; malloc'd */
char *pi_replies_gzip_hex(const char *body, size_t n);
/* In the keeper's transaction: run take (a DELETE of the change rows $1, returning their count)
 * on changes (array_agg's text): PI_DB_OK when all were there, PI_REPLIES_TAKEN, RETRY/FAIL */
int pi_replies_take(struct pi_db *db, const char *take, const char *changes);

#endif
