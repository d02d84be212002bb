/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The jobs whose job.json this process wrote to the database (jobdir.c), as a hash table of
 * job ids (open addressing, linear probing): a lookup costs the same however many jobs the
 * spool holds, and the table holds only the jobs whose directories are in the spool: a job is
 * dropped once its directory is removed (fully ingested) or a pass no longer lists it (gone).
 * Pure memory, no I/O: unit-tested (tests/unit/test_ingest_seen.c). */
#ifndef PI_SEEN_H
#define PI_SEEN_H

#include <stddef.h>

/* A job whose job.json this process wrote to the database. */
struct seen_job {
    long long job;             /* > 0; 0 marks a free slot */
    long long mtime_ns, size;  /* of the job.json last written to the database */
    int final;                 /* what it said: final, and the end time */
    long long end_ns;
    unsigned pass;             /* the last pass that listed its directory */
};

struct seen_table {
    struct seen_job *slot;
    size_t cap, n;             /* cap: 0 or a power of two, at least twice n */
    unsigned pass;             /* the pass under way (pi_seen_begin_pass) */
};

/* The entry of job (> 0); a new one (mtime_ns and size -1, not final) when there is none.
 * The pointer holds until the next call that adds or drops an entry. */
struct seen_job *pi_seen_get(struct seen_table *t, long long job);
/* The entry of job, or NULL. */
struct seen_job *pi_seen_find(const struct seen_table *t, long long job);
/* Forget job (its directory went). */
void pi_seen_drop(struct seen_table *t, long long job);
/* A pass begins: pi_seen_listed marks the jobs whose directories it lists, pi_seen_end_pass
 * then drops the others (their directories are gone) and returns how many it dropped. */
void pi_seen_begin_pass(struct seen_table *t);
void pi_seen_listed(struct seen_table *t, long long job);
size_t pi_seen_end_pass(struct seen_table *t);
void pi_seen_free(struct seen_table *t);

#endif
