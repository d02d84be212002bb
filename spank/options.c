/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen SPANK plugin: the user's options.  Slurm calls the handlers where the user typed
 * the option (srun, sbatch, salloc) and again in slurmstepd (remote); an sbatch/salloc option
 * reaches the job's steps through the environment (JS_ENV_SBATCH_*, read in slurmstepd.c).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <slurm/spank.h>

#include "options.h"

struct js_options js_opts;

int js_workflow_valid(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n >= JS_WORKFLOW_MAX)
        return -1;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)name[i] <= ' ' || (unsigned char)name[i] == 0x7f || name[i] == '/')
            return -1;
    return 0;
}

static int handle_no_profile(int val, const char *optarg, int remote)
{
    (void)val;
    (void)optarg;
    (void)remote;
    js_opts.no_profile = 1;
    return ESPANK_SUCCESS;
}

static int handle_workflow(int val, const char *optarg, int remote)
{
    (void)val;
    if (js_workflow_valid(optarg) < 0) {
        slurm_error("jobscreen: --workflow=%s: a workflow name is 1 to %d printable characters without blanks or '/'",
                    optarg ? optarg : "", JS_WORKFLOW_MAX - 1);
        js_opts.workflow[0] = '\0';
        /* refuse it where the user typed it; in the step, go on without a tag */
        return remote ? ESPANK_SUCCESS : ESPANK_BAD_ARG;
    }
    snprintf(js_opts.workflow, sizeof js_opts.workflow, "%s", optarg);
    return ESPANK_SUCCESS;
}

static struct spank_option jobscreen_options[] = {
    { "no-profile", NULL,
      "jobscreen: do not profile the tasks of this step (on sbatch/salloc: of every step of the job)", 0, 0,
      handle_no_profile },
    { "workflow", "NAME", "jobscreen: tag this job as part of the named workflow", 1, 0, handle_workflow },
    SPANK_OPTIONS_TABLE_END
};

void js_options_register(spank_t sp)
{
    for (struct spank_option *o = jobscreen_options; o->name; o++)
        if (spank_option_register(sp, o) != ESPANK_SUCCESS)
            slurm_error("jobscreen: cannot register option --%s", o->name);
}
