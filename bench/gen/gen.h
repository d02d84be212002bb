/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsgen: THE generator of synthetic spools (docs/spool.md), for the benchmarks and the tests.
 * Two shapes:
 *
 * cluster (the default): a cluster of N nodes over a period: a job mix (single jobs, chains
 * with scheduler dependencies, job arrays with a gather job, engine-driven pipelines whose jobs
 * Slurm does not link), steps on the jobs' nodes, per-process profiles with per-slice metrics
 * and I/O bursts, and files shared between jobs (so that the ingest derives file edges).
 *
 * uniform: JOBS jobs alike, for tests that assert exact counts and sums. Every job holds STEPS
 * numbered steps on the same NODES nodes (or, spread, one node each in turn), PPN processes per
 * step and node, over the same SLICES slices; no batch step. Every value is a function of its
 * position: per process and slice k (k = 0..SLICES-1) posix_write_calls 1, posix_write_bytes
 * 1000 + k, cpu_ns CPU_NS (1 ms unless told, times the node's slow factor); the kernel's counts are those writes
 * and, in the first slice, 10 bytes read in one call; each process writes FILES files
 * /gen/<job>/<step>/<node>.<process>.<i> (ext4, 100 bytes each) and reads /gen/input (nfs4,
 * 10 bytes). Process p of a step-node has pid 1000 + p; the last KILLED of them were killed by
 * SIGKILL (end signal, signal 9, exit_code -1, missing "CPU time after the kill").
 *
 * Job and step records are built field by field from the tables of common/record_format.h (a
 * field added there and unknown here stops the generator with a message), profiles member by
 * member from the X-macro lists of common/profile_format.h (a member added there and unknown
 * here stops the build, -Wswitch): never a stale format. Each job's record
 * is written after its steps, as at a job's end, so that an ingest running meanwhile never
 * takes a job before its last step record.
 *
 * The output depends only on the parameters (seed and start included): the same parameters
 * give the same files, byte for byte.
 */
#ifndef JSGEN_H
#define JSGEN_H

#include <stdint.h>
#include <stdio.h>

enum jsgen_shape { JSGEN_CLUSTER, JSGEN_UNIFORM };

#define JSGEN_MAX_SLOW 16
#define JSGEN_MAX_FILES 40   /* files a process of the uniform shape writes */

struct jsgen_params {
    enum jsgen_shape shape;
    const char *out;         /* spool directory (made if missing) */
    const char *cluster;     /* cluster name in records and profiles */
    const char *node_prefix; /* node names: cluster prefix + 5-digit index from 0, uniform prefix + number from 1 */
    unsigned nodes;          /* nodes of the cluster (uniform: of each job, or spread over) */
    double hours;            /* length of the simulated period */
    int64_t start_s;         /* period start, epoch seconds (rounded down to a slice); uniform: 0 is the
                                last SLICES + 10 slices before now (jobs that just ended) */
    unsigned slice_s;        /* slice length L */
    unsigned ppn;            /* processes (profiles) per node of a numbered step */
    int bundle;              /* 1 (the latest version), 2 or 3: a step-node's profiles in bundles of that version (<step>.<node>.b<N>.json, at most
                                JS_PROFILE_BUNDLE_MAX each) in a profiles/ of root's, as the plugin's
                                relay leaves them; 0: one file each in a profiles/ of the user's */
    unsigned users;          /* distinct users */
    uint64_t seed;
    uint32_t job_id_base;    /* first job id */
    unsigned max_jobs;       /* stop after this many jobs (0: fill the period) */
    double duration_scale;   /* multiplies every job duration (short jobs: < 1) */
    long uid;                /* -1: user u is uid uid_base + u, else every job has this uid */
    long uid_base;
    long gid;                /* -1: the uid */
    const char *user;        /* NULL: user u is synth<u> (synth000, synth001, ...) */
    int chown_profiles;      /* 1: chown profiles/ and profiles to the job's uid (needs root) */
    unsigned big_array;      /* > 0: first a workflow (tag "bigarray") of a job array of this many
                                tasks and its gather job */
    int shared_files;        /* 1: a step's processes share their files (N-1): no scratch file of each
                                process in /tmp, one checkpoint file a step; 0: each has its own (N-N) */
    /* the uniform shape */
    unsigned jobs;           /* jobs, numbered from job_id_base */
    unsigned steps;          /* numbered steps of each job */
    unsigned slices;         /* slices of every process */
    unsigned files;          /* files each process writes (at most JSGEN_MAX_FILES) */
    unsigned killed;         /* the last KILLED processes of each step-node were killed by SIGKILL */
    uint64_t cpu_ns;         /* CPU time of a process in a slice */
    int spread;              /* 1: each job on one node, job i on node i mod NODES */
    const char *exe;         /* the processes' executable (the application is its base name) */
    struct jsgen_slow { const char *node; double factor; } slow[JSGEN_MAX_SLOW];
    unsigned nslow;          /* processes on slow[i].node use factor times the CPU time */
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

/* The defaults of a shape: cluster "synth", nodes node00000..; uniform cluster "gen", nodes
 * gen1.., one job of one step on one node, one process, one slice, executable /gen/app. */
void jsgen_defaults(struct jsgen_params *p, enum jsgen_shape shape);

/* Writes the spool; 0, or -1 with a message on stderr. */
int jsgen_run(const struct jsgen_params *p, struct jsgen_summary *s);

/* The summary as "name: value" lines. */
void jsgen_print_summary(FILE *f, const struct jsgen_params *p, const struct jsgen_summary *s);

#endif
