/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The daemon's configuration: a file of "key = value" lines and the same keys as flags
 * (profile_ingest(8) lists them). */
#ifndef PI_INGEST_CONF_H
#define PI_INGEST_CONF_H

#include <stddef.h>

#define PI_CONF_DEFAULT_PATH SYSCONFDIR "/jobscreen/profile_ingest.conf"
#define PI_QUARANTINE_DEFAULT LOCALSTATEDIR "/lib/jobscreen/quarantine"
#define PI_MAX_LIST 32

struct pi_conf {
    char *db;                 /* libpq connection string */
    char *spool;              /* spool directory */
    char *quarantine;         /* quarantine directory, outside the spool (PI_QUARANTINE_DEFAULT) */
    char *archive;            /* NULL: remove ingested files; else move them here */
    char *cluster;            /* cluster name when a record has none */
    char *user;               /* started as root: run as this account with CAP_DAC_OVERRIDE only */
    char *metrics_listen;     /* HOST:PORT where the daemon serves /metrics (NULL: it does not) */
    int rescan_seconds;       /* full rescan interval besides inotify */
    long long max_profile_bytes;
    int max_profiles;         /* profiles per step record */
    long long user_budget_bytes; /* a user's step records a pass takes, bytes of profiles (0: no limit) */
    long long pass_budget_bytes; /* the step records a pass takes, bytes of profiles (0: no limit) */
    int node_cpus_max;        /* plausibility: the most CPUs a node has */
    long long node_bytes_per_second_max; /* plausibility: the most bytes a node moves per second */
    int backoff_max_seconds;  /* database retry backoff cap */
    int once_retries;         /* --once: attempts while the database is down */
    int job_grace_seconds;    /* a final job's directory is cleaned this long after its end */
    int orphan_grace_seconds; /* a job directory without job record, unchanged this long, is quarantined */
    int insight_settle_seconds; /* a step's insight waits this long after its last record (docs/insight.md) */
    int replies_min_jobs;     /* workflows of at least this many jobs get their graph stored (docs/web.md) */
    int replies_min_step_slices; /* finished steps of at least this many slices x step-nodes get their reply stored */
    int replies_min_job_rows; /* jobs of at least this many file accesses and edges get their job reply stored */
    int replies_min_file_rows; /* files of at least this many accesses get their file reply stored */
    int replies_settle_seconds; /* a stored reply waits this long after the last change to its rows */
    int quarantine_days;      /* quarantined files older than this are removed; 0: kept */
    int record_uid;           /* owner that records must have (root) */
    int received;             /* a received spool (jobscreen-receive): profiles are record_uid's too */
    int migrate;              /* apply migrations at start */
    int log_level;
    int syslog;
    char *shared_fs[PI_MAX_LIST];     /* fs types whose files are one file cluster-wide */
    char *no_edge_prefix[PI_MAX_LIST];/* paths that give no file edges */
};

void pi_conf_defaults(struct pi_conf *c);
void pi_conf_free(struct pi_conf *c);
/* Set one key; 0, or -1 with a message in err ("unknown key \"x\"", "bad value ..."). */
int pi_conf_set(struct pi_conf *c, const char *key, const char *value, char *err, size_t errsize);
/* Read a file of key = value lines (common/kvconf.h); 0, or -1 with "FILE:LINE: message" in err. */
int pi_conf_load(struct pi_conf *c, const char *path, char *err, size_t errsize);
/* 1 when the fs type is listed as shared */
int pi_conf_is_shared_fs(const struct pi_conf *c, const char *fstype);

#endif
