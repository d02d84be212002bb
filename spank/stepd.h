/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen plugin in slurmstepd: the state of the step (one slurmstepd runs one step, so it is
 * plain static memory), shared by the callbacks (slurmstepd.c) and the step's collection
 * (stepd_collect.c: the record quota, the relay and its collector, the final collection, the
 * last relay pass). Both files call it st for short.
 */
#ifndef JOBSCREEN_STEPD_H
#define JOBSCREEN_STEPD_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "joblog.h"
#include "options.h"
#include "plugstack_conf.h"

#define JS_GPU_ENV_VARS 3    /* SLURM_STEP_GPUS, SLURM_JOB_GPUS, CUDA_VISIBLE_DEVICES */
#define JS_GPU_ENV_MAX 1024

struct js_stepd {
    int enabled;              /* plugstack.conf parsed and the step is one we record */
    int failed;               /* fail_on_error=yes and an error of ours: fail the step */
    struct js_conf conf;
    int64_t start_ns;
    uint32_t job_id, step_id;
    uid_t uid;
    gid_t gid;
    char node[256];
    char cluster[256];
    char workflow[JS_WORKFLOW_MAX];
    char user[256];
    char work_dir[PATH_MAX];
    int profiled;
    const char *reason;
    int job_dir;              /* SPOOL/job.<id>, or -1 */
    int rec_dir;              /* RECORD_DIR/job.<id> (the user's), or -1: profiled steps only */
    struct joblog_task *tasks;
    uint32_t ntasks;
    pid_t watcher;            /* the relay, parent of jobscreen-collect --watch, while the step runs; or 0 */
    char gpu_env[JS_GPU_ENV_VARS][JS_GPU_ENV_MAX]; /* the step's GPU variables ("" unset), for the relay */
};
extern struct js_stepd js_stepd;

/* stepd_state.c */
/* An error of ours in slurmstepd, said in the slurmd log exactly as slurm_error says it
 * ("error: jobscreen: ...") but at info level: once a step's I/O is set up, slurmstepd copies
 * every error() into the stderr of the step's first task (the job's output for a batch step),
 * and nothing of ours may change a job's output. */
void js_stepd_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* stepd_collect.c */
/* The job's directory in the record area (the tasks' JOBSCREEN_PROFILE_DIR) and the step's name. */
void js_stepd_records_dir(char *dir, size_t dirsize, char *step, size_t stepsize);
/* The job's record quota ledger on this node, made by its first profiled step here. */
void js_stepd_quota_ledger(void);
/* The relay (root) and its jobscreen-collect --watch (the user), from init_post_opt to exit. */
void js_stepd_start_watcher(void);
void js_stepd_stop_watcher(void);
/* jobscreen-collect --final as the user, told how each task ended. */
void js_stepd_collect_records(int64_t end_ns);
/* The last bundles into the spool; what the spool's share refused goes into the step record. */
void js_stepd_relay_last(struct joblog_step *s);

/* stepd_gpu.c: the step's GPUs and CPU energy (docs/gpu.md) */
/* The step's GPU variables, read in init_post_opt (js_stepd_gpu_var(i): the i-th name). */
const char *js_stepd_gpu_var(int i);
void js_stepd_gpu_env(const char *name, const char *value);
/* In the relay: open NVML and powercap (after the collector's fork: a thread starts), one
 * reading a pass, and at the end the readings into SPOOL/job.N/.gpu.<step>.<node>. */
void js_stepd_gpu_start(void);
void js_stepd_gpu_tick(void);
void js_stepd_gpu_finish(void);
/* In the plugin at the step's end: that file into the step record's "gpu" member. */
void js_stepd_gpu_attach(json_t *rec);

#endif
