/*
 * jsgen: a synthetic cluster written as a real spool (docs/spool.md), for the benchmarks.
 *
 * A cluster of N nodes over a period: a job mix (single jobs, chains with scheduler
 * dependencies, job arrays with a gather job, engine-driven pipelines whose jobs Slurm does not
 * link), steps on the jobs' nodes, per-process profiles with per-slice metrics and I/O bursts,
 * and files shared between jobs (so that the ingest derives file edges).  Job and step records
 * are built field by field from the tables of common/record_format.h, profiles from the
 * X-macro lists of common/profile_format.h: a field added there and unknown here stops the
 * generator with a message instead of writing a stale format.
 *
 * The output depends only on the parameters (seed included): the same parameters give the
 * same files, byte for byte.
 */
#ifndef JSGEN_H
#define JSGEN_H

#include <stdint.h>
#include <stdio.h>

struct jsgen_params {
    const char *out;         /* spool directory (made if missing) */
    const char *cluster;     /* cluster name in records and profiles */
    const char *node_prefix; /* node names: prefix + 5-digit index */
    unsigned nodes;          /* nodes of the cluster */
    double hours;            /* length of the simulated period */
    int64_t start_s;         /* period start, epoch seconds (rounded down to a slice) */
    unsigned slice_s;        /* slice length L */
    unsigned ppn;            /* processes (profiles) per node of a numbered step */
    unsigned users;          /* distinct users */
    uint64_t seed;
    uint32_t job_id_base;    /* first job id */
    unsigned max_jobs;       /* stop after this many jobs (0: fill the period) */
    double duration_scale;   /* multiplies every job duration (short jobs: < 1) */
    long uid;                /* -1: user u is uid uid_base + u, else every job has this uid */
    long uid_base;
    int chown_profiles;      /* 1: chown profiles/ and profiles to the job's uid (needs root) */
    unsigned big_array;      /* > 0: first a workflow (tag "bigarray") of a job array of this many
                                tasks and its gather job */
};

struct jsgen_summary {
    uint64_t jobs, workflows, arrays, chains, pipelines, singles;
    uint64_t steps, step_nodes, profiles;
    uint64_t profile_rows;   /* slice rows over all profiles */
    uint64_t slice_rows;     /* distinct (job, step, node, slice) rows: what js_data.slice_metrics gets */
    uint64_t node_slices;    /* nodes x slices of the period: the cluster's time */
    uint64_t busy_node_slices; /* (node, slice) covered by a numbered step */
    uint64_t file_entries;   /* entries of "files" over all profiles */
    uint64_t sched_deps;     /* dependency elements in job records */
    uint64_t file_links;     /* (writer job, reader job) pairs through a file: expected file edges */
    uint64_t bytes;          /* bytes written into the spool */
};

void jsgen_defaults(struct jsgen_params *p);

/* Writes the spool; 0, or -1 with a message on stderr. */
int jsgen_run(const struct jsgen_params *p, struct jsgen_summary *s);

/* The summary as "name: value" lines. */
void jsgen_print_summary(FILE *f, const struct jsgen_params *p, const struct jsgen_summary *s);

#endif
