/*
 * jobscreen SPANK plugin: entry points.
 *
 * Slurm calls the slurm_spank_* functions below in several contexts (srun, sbatch/salloc,
 * slurmd, slurmstepd). Whatever goes wrong in here is logged with a "jobscreen:" prefix and
 * the function still returns success: the plugin never fails a job on its own account.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>

#include <slurm/spank.h>

SPANK_PLUGIN(jobscreen, 1);

#define JS_VERSION_ENV "JOBSCREEN_VERSION"

static int opt_no_profile;
static char opt_workflow[128];

static int handle_no_profile(int val, const char *optarg, int remote)
{
    (void)val;
    (void)optarg;
    (void)remote;
    opt_no_profile = 1;
    return ESPANK_SUCCESS;
}

static int handle_workflow(int val, const char *optarg, int remote)
{
    (void)val;
    (void)remote;
    if (optarg == NULL || snprintf(opt_workflow, sizeof opt_workflow, "%s", optarg) >= (int)sizeof opt_workflow) {
        slurm_error("jobscreen: --workflow: name missing or longer than %zu bytes", sizeof opt_workflow - 1);
        opt_workflow[0] = '\0';
    }
    return ESPANK_SUCCESS;
}

static struct spank_option jobscreen_options[] = {
    { "no-profile", NULL, "jobscreen: do not profile the tasks of this job or step", 0, 0,
      handle_no_profile },
    { "workflow", "NAME", "jobscreen: tag this job as part of the named workflow", 1, 0,
      handle_workflow },
    { NULL, NULL, NULL, 0, 0, NULL },
};

int slurm_spank_init(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    for (struct spank_option *o = jobscreen_options; o->name; o++)
        if (spank_option_register(sp, o) != ESPANK_SUCCESS)
            slurm_error("jobscreen: cannot register option --%s", o->name);
    return ESPANK_SUCCESS;
}

/* Remote context, as the job's user, once per step: mark the tasks' environment so that a
 * test (and a curious user) can see that the step was screened by this version. */
int slurm_spank_user_init(spank_t sp, int ac, char **av)
{
    (void)ac;
    (void)av;
    if (!spank_remote(sp))
        return ESPANK_SUCCESS;
    if (spank_setenv(sp, JS_VERSION_ENV, opt_no_profile ? PACKAGE_VERSION " off" : PACKAGE_VERSION, 1)
        != ESPANK_SUCCESS)
        slurm_error("jobscreen: cannot set %s in the task environment", JS_VERSION_ENV);
    if (opt_workflow[0] && spank_setenv(sp, "JOBSCREEN_WORKFLOW", opt_workflow, 1) != ESPANK_SUCCESS)
        slurm_error("jobscreen: cannot set JOBSCREEN_WORKFLOW in the task environment");
    return ESPANK_SUCCESS;
}
