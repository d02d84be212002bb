/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen SPANK plugin: entry points.
 *
 * Slurm calls the slurm_spank_* functions below in several contexts (srun, sbatch/salloc,
 * slurmd, slurmstepd, the job epilog).  Each hands off to the code of its context: the
 * submitter and the job epilog live here, the options in options.c, everything that happens in
 * the step in slurmstepd.c.
 * Whatever goes wrong is logged with a "jobscreen:" prefix and the function still returns
 * success: the plugin never fails a job on its own account (unless the site set fail_on_error).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/spank.h>

#include "options.h"
#include "plugstack_conf.h"
#include "relay.h"
#include "slurmstepd.h"

SPANK_PLUGIN(jobscreen, 1);

/* Slurm refuses a plugin built for another release series ("Incompatible Slurm plugin"): the
 * admin who reads slurmd's log sees which one this was built for. The string is also what
 * tests/cluster reads from the file to tell the Slurm a plugin was built for. */
static const char built_for[] = "jobscreen " PACKAGE_VERSION " built for Slurm " JS_SLURM_VERSION;

int slurm_spank_init(spank_t sp, int ac, char **av)
{
    /* slurmd calls init in its own context once, as it loads plugstack.conf (start, reconfigure) */
    if (spank_context() == S_CTX_SLURMD)
        slurm_info("%s", built_for);
    js_options_register(sp);
    if (spank_context() == S_CTX_REMOTE)
        return js_stepd_init(sp, ac, av);
    return ESPANK_SUCCESS;
}

/* In sbatch, salloc and srun: name the submitting command in the job's environment, unless it
 * is named already (a step inside a job; an engine that names itself): host, process group and
 * the group leader's start time. The jobs one command (a workflow engine's run, a script)
 * submits share it, the next run's do not: time edges join only jobs of one submitter
 * (docs/dependencies.md). Nothing here may fail the submission. */
static void set_submitter(void)
{
    if (getenv(JS_ENV_SUBMITTER))
        return;
    char host[64] = "", path[64], stat[1024], value[JS_WORKFLOW_MAX];
    if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "?");
    pid_t pg = getpgrp();
    unsigned long long start = 0;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pg);
    FILE *f = fopen(path, "re");
    if (f) {
        size_t n = fread(stat, 1, sizeof stat - 1, f);
        stat[n] = '\0';
        fclose(f);
        /* the fields after the command's closing parenthesis; the start time is the 20th */
        char *p = strrchr(stat, ')');
        for (int field = 0; p && field < 20; field++)
            p = strchr(p + 1, ' ');
        if (p)
            start = strtoull(p + 1, NULL, 10);
    }
    snprintf(value, sizeof value, "%s:%d:%llu", host, (int)pg, start);
    if (js_submitter_valid(value) == 0)
        setenv(JS_ENV_SUBMITTER, value, 0);
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (spank_context() == S_CTX_REMOTE)
        return js_stepd_init_post_opt(sp);
    if (spank_context() == S_CTX_LOCAL || spank_context() == S_CTX_ALLOCATOR)
        set_submitter();
    return ESPANK_SUCCESS;
}

int slurm_spank_task_post_fork(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    return spank_context() == S_CTX_REMOTE ? js_stepd_task_post_fork(sp) : ESPANK_SUCCESS;
}

int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    return spank_context() == S_CTX_REMOTE ? js_stepd_task_init(sp) : ESPANK_SUCCESS;
}

int slurm_spank_task_exit(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    return spank_context() == S_CTX_REMOTE ? js_stepd_task_exit(sp) : ESPANK_SUCCESS;
}

int slurm_spank_exit(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    return spank_context() == S_CTX_REMOTE ? js_stepd_exit(sp) : ESPANK_SUCCESS;
}

/* At the job's end on each node (slurmd runs this as root, in the job epilog's context, for
 * every job on every node it ran on): the job's directory in the record area goes. */
int slurm_spank_job_epilog(spank_t sp, int ac, char **av)
{
    struct js_conf conf;
    char err[512];
    uint32_t job_id;
    struct js_removal rm;
    char node[256];
    const char *nn = getenv("SLURMD_NODENAME"); /* slurmd's epilog environment names the node */
    if (nn == NULL || nn[0] == '\0') {
        if (gethostname(node, sizeof node) != 0)
            node[0] = '\0';
        node[sizeof node - 1] = '\0';
        node[strcspn(node, ".")] = '\0';
        nn = node;
    }
    if (js_conf_parse(&conf, ac, av, err, sizeof err) < 0 || js_conf_expand_node(&conf, nn, err, sizeof err) < 0 ||
        spank_get_item(sp, S_JOB_ID, &job_id) != ESPANK_SUCCESS)
        return ESPANK_SUCCESS;
    js_relay_remove_job(conf.record_dir, job_id, &rm);
    if (rm.found)
        slurm_info("jobscreen: job %u: removed %s/job.%u: %lld files (%lld bytes) and %lld directories below it",
                   job_id, conf.record_dir, job_id, (long long)rm.files, (long long)rm.bytes, (long long)rm.dirs);
    if (rm.left > 0)
        slurm_error("jobscreen: job %u: cannot remove all of %s/job.%u: %lld entries left: %s", job_id,
                    conf.record_dir, job_id, (long long)rm.left, rm.why);
    if (rm.records > 0)
        slurm_error("jobscreen: job %u: %lld records no collector turned were removed with %s/job.%u", job_id,
                    (long long)rm.records, conf.record_dir, job_id);
    return ESPANK_SUCCESS;
}
