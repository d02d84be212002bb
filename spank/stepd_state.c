/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jobscreen plugin in slurmstepd: the step's state (stepd.h), in a file of its own so that the
 * callbacks (slurmstepd.c) and the collection (stepd_collect.c, stepd_gpu.c) share it without
 * reaching into each other. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include <slurm/spank.h>

#include "stepd.h"

struct js_stepd js_stepd = { .job_dir = -1, .rec_dir = -1 };

void js_stepd_error(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    slurm_info("error: %s", msg);
}
