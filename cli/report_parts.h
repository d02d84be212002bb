/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the files of the terminal report (report_*.c) share beside report.h: reading a reply's
 * members, the runtime share's categories, the label column. Not for the report's users. */
#ifndef JSR_REPORT_PARTS_H
#define JSR_REPORT_PARTS_H

#include <stdbool.h>

#include "report.h"

/* a number of o (integer or real), NAN when absent or null; a string of o, or NULL */
double jsr_num(const json_t *o, const char *key);
const char *jsr_str(const json_t *o, const char *key);
/* elapsed seconds from start to end, or to now while it runs; NAN when it never started */
double jsr_elapsed_of(const json_t *o, time_t now);

/* The runtime share's categories as a user reads them. */
enum { RT_COMPUTE, RT_MPI, RT_IO, RT_WAIT, RT_IDLE, RT_N };
extern const char *const jsr_rt_label[RT_N];

/* a section's label column: "  submitted  " */
#define JSR_LABEL "  %-11s"

/* report_insight.c: the Insight section of a job, for the steps that carry one */
void jsr_job_insight(FILE *out, const json_t *job, int colour);

#endif
