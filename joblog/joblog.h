/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * joblog: scheduler metadata of jobs and steps, written as job and step records
 * (docs/record-format.md) into the spool (docs/spool.md).
 *
 * Used by the SPANK plugin inside slurmstepd (as root) and by the joblog command.  Nothing
 * here reads a file a user could write: the only file joblog ever parses is a job record that
 * root wrote into a root-owned job directory (joblog_job_merge_previous).
 *
 * Every function reports failure through its return value and, where it says so, a message in
 * a caller's buffer; none of them logs, exits or aborts: the caller decides what an error means.
 */
#ifndef JOBLOG_H
#define JOBLOG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

/* An integer field that is unknown (JSON null). */
#define JOBLOG_NULL INT64_MIN

struct joblog_dep {
    char type[24];          /* one of js_dependency_types */
    int64_t job_id;         /* JOBLOG_NULL for singleton */
    int64_t array_task_id;  /* JOBLOG_NULL when the whole job is meant */
    int64_t delay_minutes;  /* JOBLOG_NULL when none */
};

struct joblog_deps {
    struct joblog_dep *v;
    size_t n;
    int any;          /* 1: joined by '?' */
    int parse_error;  /* 1: a part did not parse */
};

/* The job record.  Strings are owned (malloc'd) and may be NULL (JSON null). */
struct joblog_job {
    char *cluster;
    int64_t job_id;
    int64_t array_job_id, array_task_id;
    char *name;
    char *user;
    int64_t uid;
    char *group;
    int64_t gid;
    char *account, *partition, *qos;
    int64_t submit_ns, eligible_ns, start_ns, end_ns;
    int64_t nodes;
    char *node_list;
    int64_t cpus, tasks;
    char *dependency;
    int64_t exit_code, signal;
    char *state;
    char *reason;       /* Slurm's state reason (DependencyNeverSatisfied, ...); NULL: none */
    char *batch_host;   /* node of the batch step (not in the record: joblog's epilog rule) */
    int final;
    char *workflow;
    char *work_dir;
    char *batch_script;
    char *submitter;     /* the submitting command (JOBSCREEN_SUBMITTER, set by the plugin in sbatch/srun) */
    int batch;
    const char *source; /* "plugin" or "joblog" (static) */
    int truncated;
};

struct joblog_task {
    int64_t task_id;
    int64_t pid;       /* JOBLOG_NULL when unknown */
    int64_t status;    /* wait status; JOBLOG_NULL when the task never exited */
};

/* The step record of one step on one node. */
struct joblog_step {
    char *cluster;
    int64_t job_id;
    uint32_t step_id;
    int64_t array_job_id, array_task_id;
    char *node;
    int64_t node_index, nodes;
    char *node_list;
    int64_t cpus, tasks, local_tasks;
    int64_t uid, gid;
    char *user;
    int64_t start_ns, end_ns;
    char **argv;       /* NULL-terminated, owned */
    char *work_dir;
    struct joblog_task *task_list;
    size_t ntasks;
    int profiled;
    const char *profile_reason; /* one of js_profile_reasons (static) */
    char *profiler;
    char *profiler_version;
    int64_t slice_seconds;
    char *workflow;
    int64_t unrecorded;          /* processes whose profiles the spool's share refused; 0: none */
    char *unrecorded_reason;     /* why, in words (owned) */
    int64_t live_refused;        /* live snapshots the spool's share did not take; 0: none */
    int64_t live_refused_bytes;  /* their bytes */
    char *live_refused_reason;   /* why, in words (owned) */
    int truncated;
};

void joblog_job_init(struct joblog_job *job);
void joblog_job_free(struct joblog_job *job);
void joblog_step_init(struct joblog_step *step);
void joblog_step_free(struct joblog_step *step);

/* Set a string field: copies s (NULL stays NULL), cut to JS_RECORD_MAX_STRING bytes (sets
 * *truncated).  Returns -1 when out of memory. */
int joblog_set_string(char **field, const char *s, int *truncated);

/* Parse a Slurm dependency string ("afterok:12:13,afterany:14_2", "after:5+10?singleton").
 * deps is reset first; free it with joblog_deps_free.  Returns -1 only when out of memory; a
 * part that does not parse sets deps->parse_error and is left out. */
int joblog_parse_dependency(const char *text, struct joblog_deps *deps);
void joblog_deps_free(struct joblog_deps *deps);

/* Fill uid/gid names from the node's passwd and group databases (NULL when unknown). */
void joblog_fill_names(int64_t uid, int64_t gid, char **user, char **group);

/* Exit code, signal and state from a wait status. */
void joblog_status_split(int64_t status, int64_t *exit_code, int64_t *signal);

/* Build the records; NULL when out of memory.  written_ns is the time of writing. */
json_t *joblog_job_to_json(const struct joblog_job *job, int64_t written_ns);
json_t *joblog_step_to_json(const struct joblog_step *step, int64_t written_ns);

/* Wall clock in ns since the epoch. */
int64_t joblog_now_ns(void);

/*
 * The spool (docs/spool.md).  joblog_spool_job_dir opens (creating when missing) the job's
 * directory SPOOL/job.<jobid> (root 0711) and, when make_profiles is set, its profiles/
 * (root 0700: only root copies profiles into the spool).  No symbolic link is followed anywhere; the spool must be a directory owned
 * by root (our effective uid) that group and others cannot write, and an existing job
 * directory must be owned by root.  Returns an open directory fd, or -1 with a message in err.
 */
int joblog_spool_job_dir(const char *spool, uint32_t job_id, int make_profiles, char *err, size_t errlen);

/* The job's directory in the record area, RECORD_DIR/job.<jobid> (uid:gid 0700: the running
 * processes' records, JOBSCREEN_PROFILE_DIR), made when missing. RECORD_DIR's missing
 * components are made (root 0711); every component must be root's and not writable by group or
 * others (a sticky one like /dev/shm may be), the last one strictly. Returns an open directory
 * fd, or -1 with a message in err. */
int joblog_record_job_dir(const char *record_dir, uint32_t job_id, uid_t uid, gid_t gid, char *err, size_t errlen);

/* Write a record atomically into dirfd: ".<name>.<pid>.tmp" (0644, O_EXCL, O_NOFOLLOW), then rename to
 * name.  Returns 0, or -1 with a message in err. */
int joblog_write_record(int dirfd, const char *name, json_t *record, char *err, size_t errlen);

/*
 * Read the job record root wrote earlier into dirfd (job.json), if any, and copy into job what
 * it has and job lacks: the dependency captured while the job was alive, the workflow tag, the
 * batch script path, whether the job is a batch job.  Only a regular file owned by our effective uid and not writable by
 * others, of bounded size, is read.  Returns 1 when something was read, 0 when there was no
 * such record, -1 with a message in err on a bad one.
 */
int joblog_job_merge_previous(int dirfd, struct joblog_job *job, char *err, size_t errlen);

/*
 * What Slurm (slurmctld) still knows about a job: joblog_job_from_slurm fills job from
 * slurm_load_job().  Needs the Slurm API: inside srun/slurmstepd its symbols resolve in the
 * process, the joblog command links -lslurm.  Returns 0, or -1 with a message in err.
 * The Slurm state name, when wanted, goes into job->state; *finished tells whether the job is
 * over (state past RUNNING/SUSPENDED).
 */
int joblog_job_from_slurm(uint32_t job_id, struct joblog_job *job, int *finished, char *err, size_t errlen);

/* 1 when the job's state says its nodes failed it (NODE_FAIL, BOOT_FAIL): their epilogs may not run. */
int joblog_nodes_failed(const struct joblog_job *job);

/* Slurm state name ("COMPLETED", ...) of a job_state value. */
const char *joblog_slurm_state_name(uint32_t job_state);

#endif
