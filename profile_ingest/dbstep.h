/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rows of claimed step records (dbstep.c), for the transaction that claims them
 * (dbbatch.c). Internal to the database code. */
#ifndef PI_DBSTEP_H
#define PI_DBSTEP_H

#include "ingest_db.h"

#include <stddef.h>

/* The slice partitions st needs (cached in the session). */
int dbs_ensure_partitions(struct pi_db *db, const struct pi_step *st);
/* Every row of n claimed step-nodes of cluster cid, in the open transaction: each table once
 * for all of them (one COPY, one call with arrays), then what a few step-nodes have (mapped
 * bytes, trees, MPI segments, quarantine rows, what is missing). moved_to[k]: where the refused
 * files of sts[k] go. */
int dbs_write_rows(struct pi_db *db, const struct pi_conf *conf, struct pi_step *const *sts, char *const *const *moved_to,
                   size_t n, const char *cid);

#endif
