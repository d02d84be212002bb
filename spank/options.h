/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen SPANK plugin: the user's options (--no-profile, --workflow), registered by the
 * dispatcher (jobscreen.c) in every context and read in the step (slurmstepd.c).
 */
#ifndef JOBSCREEN_OPTIONS_H
#define JOBSCREEN_OPTIONS_H

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

/* The options, registered with Slurm (from slurm_spank_init, in every context). */
void js_options_register(spank_t sp);

/* A workflow name: 1..127 printable characters, no blank, no '/'.  0 or -1. */
int js_workflow_valid(const char *name);
/* A submitter: the same rule. */
static inline int js_submitter_valid(const char *s) { return js_workflow_valid(s); }

#endif
