/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's own parts, and the one context they share (struct ctx, made by ingest_main.c):
 * the daemon (ingest_main.c), one pass over the spool (pass.c), one step record's way through a
 * pass (step.c), live snapshots (live.c), a job directory whose step records are all in
 * (jobdir.c), what leaves the spool and when (durable.c), and reading the plugin's records
 * (records.c).
 * Internal to profile_ingest: the checks, the assembly of a step and the database code have
 * headers of their own (validate.h, ingest_db.h).
 */
#ifndef PI_INGEST_H
#define PI_INGEST_H

#include "ingest_conf.h"
#include "ingest_db.h"
#include "seen.h"
#include "validate.h"

#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>


/* A step record committed asynchronously, cleaned once a durable commit follows it (durable.c). */
struct deferred {
    char *jobname, *recname, step[JS_STEP_NAME_MAX], node[256];
    long long job;
    char **q;                  /* its refused files: file, reason, ..., NULL */
};

/* A live snapshot stored (or found stored) by this process: "job.<id>/<name>" and the time it
 * was stored under, so that an unchanged one is not even read again (live.c). */
struct live_seen {
    char *key;
    long long mtime;
};

struct ctx {
    struct pi_conf conf;
    const char *conf_path;
    int conf_required;
    char **overrides; /* key=value from the command line, applied after the file */
    int noverrides;
    struct pi_db db;
    char qdir[PATH_MAX];
    struct seen_table seen; /* the jobs whose job.json went to the database (seen.h) */
    char **warned;
    size_t nwarned;
    int inotify_fd;
    int spoolfd; /* the spool, during a pass */
    const volatile sig_atomic_t *stop; /* set by a signal: the pass ends early, the spool kept */
    struct deferred *deferred;
    size_t ndeferred, capdeferred;
    struct live_seen *live;
    size_t nlive;
    /* the step records ("job.<id>/step.<step>.<node>.json") the last pass left because its
     * budget was spent, sorted */
    char **aged;
    size_t naged;
};

#define PI_LIVE_SEEN_MAX 4096

#define PI_DEFER_MAX 64

/* A transaction takes at most PI_DB_BATCH_MAX step records and about this many bytes of their
 * profiles (plan.h's cost): their assembled rows are in memory together */
#define PI_BATCH_BYTES (64LL << 20)

struct scan_result {
    long steps, profiles, slices, refused, backlog, failed;
    long deferred;  /* step records left for the next pass by the budgets (also in backlog) */
    long insights, insights_queued; /* steps whose insight the rollup computed, and left queued */
    int retry;
};

/* A step-node's refused files are logged one by one up to this many, then summed up in one
 * line: their reasons are in the quarantine and js.quarantine (10^5 junk files made 10^5
 * lines) */
#define PI_REFUSED_LOG_MAX 20

/* Step records left over by a pass whose budget was spent go first in the next pass; at most
 * this many are remembered (the others compete as new ones) */
#define PI_AGED_MAX 65536

/* One step record on its way through a pass: prepared (records read and checked, main
 * thread), loaded (profiles read, checked and merged: a worker thread, while the main thread
 * writes the previous step record), committed (database and spool, main thread). */
struct item {
    char *jobname, *recname;
    char step[JS_STEP_NAME_MAX], node[256];
    long long job;
    int jobfd;                 /* borrowed from the pass's list of job directories */
    int ready;                 /* st holds a step record to ingest */
    int bad_profiles_dir;      /* profiles/ exists but is no directory (or a link) */
    int pfd;                   /* profiles/, or -1 */
    const struct pi_conf *conf;
    struct pi_step st;
    long long uid;             /* the job's user (job.json), -1 when not known */
    long long cost;            /* bytes (plan.h) */
};

/* ---- records.c: the plugin's records, and the files kept ---- */

/* Log "kept FILE: REASON" once in this process's life. */
void pi_kept(struct ctx *c, const char *file, const char *reason);
/* Read and check a record; returns the JSON, or NULL (kept, logged once). is_step < 0: do not
 * quarantine; *invalid set when the record is broken (not merely of an unknown version). */
json_t *pi_read_record(struct ctx *c, int dirfd, const char *jobname, const char *name, int is_step,
                       char *reason, size_t rsize, int *invalid, int *gone);
/* 1 with the reason set when a step record disagrees with its name (job, step, node) or with
 * its job record. */
int pi_records_disagree(const json_t *jobrec, const json_t *rec, long long job, const char *step, const char *node,
                        char *reason, size_t rsize);

/* ---- durable.c: what leaves the spool, and when ---- */

/* Free a list pi_db_quarantined made (NULL-terminated). */
void pi_free_list(char **l);
/* After COMMIT (or when the step record was ingested before): quarantine what the database
 * says was refused (quarantined: file, reason, ..., NULL), dispose of the rest, the step
 * record last. */
void pi_clean_step(struct ctx *c, int jobfd, long long job, const char *recname, const char *step,
                   const char *node, char **quarantined);
/* A broken step record: its quarantine row, then the file. */
void pi_quarantine_record(struct ctx *c, int jobfd, long long job, const char *name, const char *step,
                          const char *node, const char *reason, struct scan_result *res);
/* Quarantine every file of dirfd/sub (leftovers: hidden ones too), then remove sub; 0 when
 * done, -1 when the database is away (retry) or sub stays. */
int pi_quarantine_dir(struct ctx *c, int dirfd, const char *jobname, const char *sub, long long job,
                      const char *cluster, const char *why, struct scan_result *res);
/* The plugin's ledgers and an older plugin's reserve: no data of the job. */
void pi_remove_ledgers(int jobfd);
/* Temporary files of atomic writes that never finished, older than grace_s seconds. */
void pi_remove_stale_temps(int dirfd, int grace_s);
/* An item's step record committed asynchronously, with its refused files (q, taken): cleaned
 * by pi_flush_deferred. */
void pi_defer_cleanup(struct ctx *c, const struct item *it, char **q);
/* Make the asynchronous commits durable, then clean the spool of their step records. */
void pi_flush_deferred(struct ctx *c, int spoolfd, struct scan_result *res);

/* ---- step.c: one step record through a pass ---- */

/* The job and step records of an item; 1 when it->st is ready for its profiles. */
int pi_prepare_step(struct ctx *c, struct item *it, struct scan_result *res);
/* Read, check and add the profiles of an item's step on its node (not yet merged). */
void pi_read_profiles(struct item *it);
/* The profiles of an item's step on its node, merged: files and memory only (a worker thread). */
void *pi_load_profiles(void *arg);
/* The database transaction of n loaded items (one for all, pi_db_ingest_batch), then each
 * one's place in the spool's cleanup; each is let go. */
void pi_commit_steps(struct ctx *c, struct item **its, int n, struct scan_result *res);

/* ---- live.c ---- */

/* Store the live snapshots of a job directory's running step-nodes as provisional rows. */
void pi_process_live(struct ctx *c, int jobfd, const char *jobname, long long job, struct scan_result *res);

/* ---- jobdir.c: a job directory of the spool ---- */

/* "job.<id>" into *job (0), -1 when name is no job directory's. */
int pi_parse_job_dir(const char *name, long long *job);
/* A job directory with no step record left: keep the job row current, and once the job is
 * over, clean and remove the directory (or an orphan one, without a job record). */
void pi_process_job_dir(struct ctx *c, int spoolfd, int jobfd, const char *jobname, long long job, struct scan_result *res);

/* ---- pass.c: one pass over the spool ---- */

/* Ingest what the spool holds (dry_run: only count the backlog); res says what it did. */
void pi_scan(struct ctx *c, struct scan_result *res, int dry_run);
/* After a pass: fold what it queued into the slice totals. */
/* Fold the queued step records into the totals, then compute the insight of the steps due
 * (docs/insight.md): those rested insight_settle_seconds (PI_INSIGHT_DUE), all of them
 * (PI_INSIGHT_ALL: --once), or none (PI_INSIGHT_NONE: the daemon stopping). */
enum pi_insight_when { PI_INSIGHT_NONE, PI_INSIGHT_DUE, PI_INSIGHT_ALL };
/* Then keep the stored replies (docs/web.md, "Stored replies") whose rows changed: none, those
 * due within a daemon's pass (PI_KEEP_PASS), or all (PI_KEEP_ALL: --once, after its last pass;
 * a reply kept after every pass was computed again for each pass that brought its job a step
 * record: issue 37's bench computed each job reply twice) */
enum pi_keep_when { PI_KEEP_NONE, PI_KEEP_PASS, PI_KEEP_ALL };

/* ---- replies.c: the stored replies (docs/web.md, "Stored replies") ---- */
/* Compute and store the workflow graphs due (their rows changed, the last change at least
 * settle seconds ago: a workflow whose jobs' records are still arriving is computed once, after
 * them; kept: at least min_jobs jobs, none running a step), and drop the others' stored
 * replies; for at most a few seconds unless all. PI_DB_OK (a workflow that failed stays due),
 * or RETRY / FAIL. */
struct pi_db;
int pi_db_replies(struct pi_db *db, int min_jobs, int all, int settle, long *kept, long *dropped);
/* replies_step.c: the same for finished steps' replies (jobs whose rows changed; kept: steps of
 * at least min_slices slices x step-nodes with no node running), *kept: the replies stored,
 * *dropped: the change rows of jobs with none. */
int pi_db_step_replies(struct pi_db *db, long long min_slices, int min_job_rows, int all, int settle, long *kept,
                       long *dropped);
/* The keeper of the stored file replies (replies_file.c): files of at least min_rows accesses */
int pi_db_file_replies(struct pi_db *db, int min_rows, int all, int settle, long *kept, long *dropped);
void pi_rollup(struct ctx *c, struct scan_result *res, enum pi_insight_when insight, enum pi_keep_when keep);

#endif
