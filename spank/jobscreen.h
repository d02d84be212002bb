/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen SPANK plugin: state shared between the entry points (jobscreen.c) and the
 * per-context code (slurmstepd.c).  One slurmstepd runs one step, so the state of a step is
 * plain static memory.
 */
#ifndef JOBSCREEN_H
#define JOBSCREEN_H

#include <stdint.h>

#include <slurm/spank.h>

#define JS_WORKFLOW_MAX 128
/* The environment variable through which Slurm hands an sbatch/salloc option to the steps. */
#define JS_ENV_SBATCH_NO_PROFILE "SLURM_SPANK__SLURM_SPANK_OPTION_jobscreen_no_profile"
#define JS_ENV_SBATCH_WORKFLOW "SLURM_SPANK__SLURM_SPANK_OPTION_jobscreen_workflow"
/* The submitting command, named by the plugin in sbatch/salloc/srun (docs/plugin.md). */
#define JS_ENV_SUBMITTER "JOBSCREEN_SUBMITTER"

/* What the user asked for with options (set by the option handlers in every context). */
struct js_options {
    int no_profile;
    char workflow[JS_WORKFLOW_MAX];
};
extern struct js_options js_opts;

/* A workflow name: 1..127 printable characters, no blank, no '/'.  0 or -1. */
int js_workflow_valid(const char *name);
/* A submitter: the same rule. */
static inline int js_submitter_valid(const char *s) { return js_workflow_valid(s); }

/* slurmstepd (remote context), in slurmstepd.c */
int js_stepd_init(spank_t sp, int ac, char **av);
int js_stepd_init_post_opt(spank_t sp);
int js_stepd_task_post_fork(spank_t sp);
int js_stepd_task_init(spank_t sp);
int js_stepd_task_exit(spank_t sp);
int js_stepd_exit(spank_t sp);

#endif
