/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The receiver's side of the spool: a parsed parcel into RECEIVED/job.<id>/, atomically
 * and durably (docs/transport.md, "Storing"). */
#ifndef JT_STORE_H
#define JT_STORE_H

#include <jansson.h>
#include <stddef.h>

#include "parcel.h"

/* Store p under the directory spoolfd: each file under a temporary name, fsynced, renamed;
 * profiles first, the job record, the step record last; then the directories fsynced.
 * A job directory must be the caller's own (euid). 0, or -1 with the reason. */
int jt_store(int spoolfd, const struct jt_parcel *p, char *reason, size_t rsize);
/* The same for every parcel of a post: the profiles of all of them (fsynced, then their
 * directories), then their job and step records, then the job directories and the spool,
 * each once. 0, or -1 with the reason (some parcels may be stored: storing again is
 * harmless, and the sender sends the whole post again). */
int jt_store_post(int spoolfd, const struct jt_post *post, char *reason, size_t rsize);

/* The incoming job record (data, len bytes) with what the one held captured and it lacks
 * (js_job_record_kept, record_format.h): a malloc'd JSON text of *out bytes, or NULL when
 * there is nothing to add or either is not a JSON object (the incoming is stored as it came). */
char *jt_job_record_merged(const json_t *held, const char *data, size_t len, size_t *out);

/* Write all of p (len bytes), again after EINTR: 0, or -1 with errno. */
int jt_write_all(int fd, const char *p, size_t len);

#endif
