/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen SPANK plugin: what the entry points (jobscreen.c) call in slurmstepd (remote
 * context, slurmstepd.c).  The calls go one way: slurmstepd.c calls nothing of jobscreen.c;
 * what both read (the options) is options.c's.
 */
#ifndef JOBSCREEN_H
#define JOBSCREEN_H

#include <slurm/spank.h>

int js_stepd_init(spank_t sp, int ac, char **av);
int js_stepd_init_post_opt(spank_t sp);
int js_stepd_task_post_fork(spank_t sp);
int js_stepd_task_init(spank_t sp);
int js_stepd_task_exit(spank_t sp);
int js_stepd_exit(spank_t sp);

#endif
