/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The database side of the ingest: connection, migrations, the one transaction per step
 * record (COPY for the bulk rows), and what --status reports. */
#ifndef PI_INGEST_DB_H
#define PI_INGEST_DB_H

#include <libpq-fe.h>

#include "ingest_conf.h"
#include "validate.h"

/* Results: PI_DB_OK; PI_DB_DONE (already ingested); PI_DB_BUSY (another daemon holds it);
 * PI_DB_RETRY (database down or restarting: keep the spool, back off); PI_DB_FAIL (this
 * step failed for a reason of its own, logged). */
enum { PI_DB_OK = 0, PI_DB_DONE = 1, PI_DB_BUSY = 2, PI_DB_RETRY = -1, PI_DB_FAIL = -2 };

struct pi_db {
    PGconn *conn;
    char *conninfo;
    int migrated;
    int staged;
    char who[128];
    /* per-session caches (cleared on reconnect): the last cluster's id, the partitions known
     * to exist (their first slices), and the last job record written */
    char cluster_name[256], cluster_id[16];
    long long parts[64];
    int nparts;
    /* the job records (job, written_ns) this session committed: not sent again */
    struct { long long cluster, job, written; } jobs_sent[256];
    int njobs_sent, jobs_sent_next;
    /* COPY data gathered while gathering is set (dbu_gather): one COPY for many calls */
    int gathering;
    char *gather_sql, *gather_p;
    size_t gather_len, gather_cap;
    /* the names of the statements prepared in this session (dbu_batch_run) */
    const char *prepared[32];
    int nprepared;
    /* step records this process committed, and the count at which it next analyses the
     * tables its functions plan on (dbbatch.c) */
    long long committed, analyse_at;
};

void pi_db_init(struct pi_db *db, const char *conninfo);
void pi_db_close(struct pi_db *db);
/* Connect when not connected (and apply migrations when migrate is set): PI_DB_OK / RETRY / FAIL */
int pi_db_ensure(struct pi_db *db, int migrate);
/* Apply the embedded migrations: PI_DB_OK, RETRY, or FAIL (e.g. a newer schema). */
int pi_db_migrate(struct pi_db *db);
/* Quarantined files of an ingested step record: names = file, reason, file, reason, ..., NULL (malloc'd). */
int pi_db_quarantined(struct pi_db *db, const char *cluster, long long job, const char *step, const char *node, char ***names);
/* *known = 1 when the step-node's exactly-once key is in the database (it was ingested). */
int pi_db_step_node_known(struct pi_db *db, const char *cluster, long long job, const char *step, const char *node, int *known);
/* The most step records of one transaction (pi_db_ingest_batch). */
#define PI_DB_BATCH_MAX 64
/* The transaction of n step records (at most PI_DB_BATCH_MAX; n == 1: alone). moved_to[k][i] is
 * where sts[k]->bad[i] will go. Each record's result into rcs[k]: PI_DB_OK, DONE, BUSY, or the
 * failure; a record that fails for a reason of its own fails alone (the others are written in
 * transactions without it). Returns PI_DB_RETRY when the database went (every rcs[k] RETRY
 * then), else PI_DB_OK. */
int pi_db_ingest_batch(struct pi_db *db, const struct pi_conf *conf, struct pi_step *const *sts, char *const *const *moved_to,
                       int n, int *rcs);
/* Store a live snapshot of a running step-node (st: its validated profiles) as provisional
 * rows, replacing older ones: PI_DB_OK; PI_DB_DONE (its step record is ingested, or this
 * snapshot_ns is stored already); PI_DB_BUSY; RETRY / FAIL. */
int pi_db_ingest_live(struct pi_db *db, const struct pi_conf *conf, const struct pi_step *st, long long snapshot_ns);
/* Upsert a job from its record alone (job.json changed, e.g. final). */
int pi_db_ingest_job(struct pi_db *db, const char *cluster, const json_t *job, int slice_seconds);
/* Log a quarantined file outside a step transaction (a bad step record, an orphan profile). */
int pi_db_quarantine(struct pi_db *db, const char *cluster, long long job, const char *step, const char *node,
                     const char *file, const char *moved_to, const char *reason);
/* Make every commit of this session durable (the step transactions commit asynchronously). */
int pi_db_durable(struct pi_db *db);
/* Fold the queued step records into the slice totals (js_data.rollup_totals) until none is
 * left; *folded says how many. */
int pi_db_rollup(struct pi_db *db, long *folded);
/* Print the ingest rate and totals (profile_ingest --status). */
int pi_db_status(struct pi_db *db, FILE *out);
/* Apply every retention setting (js_data.apply_retention_all; docs/reports.md, "Retention"),
 * or with dry_run only count; a line per table on out. PI_DB_OK, or the failure. */
int pi_db_retention(struct pi_db *db, int dry_run, FILE *out);

#endif
