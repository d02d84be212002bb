/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen SPANK plugin: the step's callbacks in slurmstepd (remote context, slurmstepd.c),
 * which the entry points (jobscreen.c) hand off to. The calls go one way: slurmstepd.c calls
 * nothing of jobscreen.c; what both read, the options, is options.c's.
 */
#ifndef JOBSCREEN_SLURMSTEPD_H
#define JOBSCREEN_SLURMSTEPD_H

#include <slurm/spank.h>

int js_stepd_init(spank_t sp, int ac, char **av);
int js_stepd_init_post_opt(spank_t sp);
int js_stepd_task_post_fork(spank_t sp);
int js_stepd_task_init(spank_t sp);
int js_stepd_task_exit(spank_t sp);
int js_stepd_exit(spank_t sp);

#endif
