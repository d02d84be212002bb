/* SPDX-License-Identifier: GPL-2.0-or-later */
/* joblog: what slurmctld still knows about a job (slurm_load_job). */
#include "config.h"

#include "joblog.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

static const char *const state_names[] = {
    "PENDING", "RUNNING", "SUSPENDED", "COMPLETED", "CANCELLED", "FAILED",
    "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY",
};

const char *joblog_slurm_state_name(uint32_t job_state)
{
    uint32_t base = job_state & JOB_STATE_BASE;
    return base < sizeof state_names / sizeof state_names[0] ? state_names[base] : "UNKNOWN";
}

/* Slurm's name of a state reason ("DependencyNeverSatisfied"): libslurm (the joblog command)
 * and slurmstepd's libslurmfull export it without declaring it, under a name that changed:
 * slurm_job_reason_string in 22.05, slurm_job_state_reason_string in 25.11. Both weak, so that
 * a Slurm with neither gives the reason's number instead of failing to load the plugin; the one
 * the running Slurm has is used, whatever the headers said. */
extern char *slurm_job_reason_string(enum job_state_reason inx) __attribute__((weak));
extern const char *slurm_job_state_reason_string(enum job_state_reason inx) __attribute__((weak));

static void take_reason(struct joblog_job *job, uint16_t reason)
{
    char num[32];
    const char *name = NULL;
    if (reason == WAIT_NO_REASON)
        return;
    if (slurm_job_state_reason_string)
        name = slurm_job_state_reason_string((enum job_state_reason)reason);
    else if (slurm_job_reason_string)
        name = slurm_job_reason_string((enum job_state_reason)reason);
    if (name == NULL || name[0] == '\0') {
        snprintf(num, sizeof num, "reason %u", (unsigned)reason);
        name = num;
    }
    joblog_set_string(&job->reason, name, NULL);
}

int joblog_nodes_failed(const struct joblog_job *job)
{
    return job->state && (strcmp(job->state, "NODE_FAIL") == 0 || strcmp(job->state, "BOOT_FAIL") == 0);
}

static int64_t slurm_time_ns(time_t t)
{
    return t > 0 ? (int64_t)t * 1000000000LL : JOBLOG_NULL;
}

/* Slurm's "unset" integer values become null. */
static int64_t slurm_u32(uint32_t v)
{
    return (v == NO_VAL || v == INFINITE) ? JOBLOG_NULL : (int64_t)v;
}

static int empty(const char *s)
{
    return s == NULL || s[0] == '\0' || strcmp(s, "(null)") == 0;
}

/* a string from Slurm, unless job already has one (the caller's own knowledge wins) */
static void take(char **field, const char *s, int *truncated)
{
    if (*field == NULL && !empty(s))
        joblog_set_string(field, s, truncated);
}

int joblog_job_from_slurm(uint32_t job_id, struct joblog_job *job, int *finished, char *err, size_t errlen)
{
    job_info_msg_t *msg = NULL;
    if (slurm_load_job(&msg, job_id, SHOW_DETAIL) != SLURM_SUCCESS || msg == NULL) {
        /* errno, not slurm_get_errno(): Slurm sets errno, and 25.11 has no slurm_get_errno() */
        snprintf(err, errlen, "slurm_load_job(%u): %s", job_id, slurm_strerror(errno));
        return -1;
    }
    slurm_job_info_t *ji = NULL;
    for (uint32_t i = 0; i < msg->record_count; i++)
        if (msg->job_array[i].job_id == job_id)
            ji = &msg->job_array[i];
    if (ji == NULL) {
        slurm_free_job_info_msg(msg);
        snprintf(err, errlen, "slurm_load_job(%u): no such job", job_id);
        return -1;
    }
    job->job_id = job_id;
    take(&job->cluster, ji->cluster, &job->truncated);
    if (ji->array_job_id != 0 && ji->array_task_id != NO_VAL) {
        job->array_job_id = ji->array_job_id;
        job->array_task_id = ji->array_task_id;
    }
    take(&job->name, ji->name, &job->truncated);
    if (job->uid == JOBLOG_NULL)
        job->uid = ji->user_id;
    if (job->gid == JOBLOG_NULL)
        job->gid = ji->group_id;
    take(&job->account, ji->account, &job->truncated);
    take(&job->partition, ji->partition, &job->truncated);
    take(&job->qos, ji->qos, &job->truncated);
    job->submit_ns = slurm_time_ns(ji->submit_time);
    job->eligible_ns = slurm_time_ns(ji->eligible_time);
    job->start_ns = slurm_time_ns(ji->start_time);
    /* a COMPLETING job's node and CPU counts are those still completing (slurmctld lowers
     * them as each node's epilog ends): left out, the record of the running job keeps them */
    if (!(ji->job_state & JOB_COMPLETING)) {
        job->nodes = slurm_u32(ji->num_nodes);
        take(&job->node_list, ji->nodes, &job->truncated);
        job->cpus = slurm_u32(ji->num_cpus);
    }
    job->tasks = slurm_u32(ji->num_tasks);
    /* slurmctld keeps the dependency only while it is unfulfilled */
    take(&job->dependency, ji->dependency, &job->truncated);
    take(&job->work_dir, ji->work_dir, &job->truncated);
    job->batch = ji->batch_flag != 0;
    if (job->batch)
        take(&job->batch_script, ji->command, &job->truncated);
    uint32_t base = ji->job_state & JOB_STATE_BASE;
    *finished = base > JOB_SUSPENDED;
    if (*finished) {
        job->end_ns = slurm_time_ns(ji->end_time);
        joblog_status_split(ji->exit_code, &job->exit_code, &job->signal);
        /* ended without ever getting a node (cancelled while pending): Slurm sets its start
         * time to its end; it never started */
        if (empty(ji->nodes))
            job->start_ns = JOBLOG_NULL;
    }
    take_reason(job, ji->state_reason);
    take(&job->batch_host, ji->batch_host, NULL);
    if (job->state == NULL)
        joblog_set_string(&job->state, joblog_slurm_state_name(ji->job_state), NULL);
    slurm_free_job_info_msg(msg);
    return 0;
}
