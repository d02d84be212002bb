/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the endpoint files (endpoints*.c) share: the handlers the dispatch table of endpoints.c
 * names, the query parameters every query starts with (the viewer and the cluster: the access
 * rule of endpoints.c), and the parameter checks more than one endpoint makes. */
#ifndef JSW_ENDPOINTS_H
#define JSW_ENDPOINTS_H

#include <stdio.h>

#include "jsweb.h"

#define FAIL(st, ...)                                                                            \
    do {                                                                                         \
        *status = (st);                                                                          \
        snprintf(err, errlen, __VA_ARGS__);                                                      \
        return NULL;                                                                             \
    } while (0)

/* the database layer has already put its message into err */
#define DBFAIL()                                                                                 \
    do {                                                                                         \
        *status = 500;                                                                           \
        return NULL;                                                                             \
    } while (0)

/* A query's text parameters: $1 user, $2 admin, $3 cluster (jsw_args_init), then the
 * endpoint's own. */
struct jsw_args {
    const char *v[12];
    char buf[12][32];
    int n;
};
void jsw_args_init(struct jsw_args *a, const struct jsw_request *req);
void jsw_arg_str(struct jsw_args *a, const char *s);
/* n in decimal, or SQL NULL when not present */
void jsw_arg_int(struct jsw_args *a, int64_t n, bool present);

/* The required parameter name (job=ID, id=ID): a Slurm job id; 0, or -1 with *status 400. */
int jsw_job_param(const struct jsw_request *req, const char *name, int64_t *job, int *status, char *err,
                  size_t errlen);
/* The required parameter step: a step number, batch, extern or interactive. */
int jsw_step_param(const struct jsw_request *req, const char **step, int *status, char *err, size_t errlen);
json_int_t jsw_int_or(json_t *v, json_int_t dflt);

/* endpoints_step.c: how many processes the step reply lists (its cap and max_rows). */
int64_t jsw_step_process_limit(const struct jsw_request *req);
/* endpoints_jobs.c: each step object of steps gets its "insight" and "advice" (step NULL: all
 * of the job's). 0, or -1 with err set. */
int jsw_add_insights(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, json_t *steps,
                     char *err, size_t errlen);
/* endpoints_step.c: how many slices a chart of at most points groups sums into one; a step's
 * own slices (live: with its running step-nodes; kernel: with the kernel's counts). */
size_t jsw_group_width(size_t n, int64_t points);
/* endpoints_step.c: the row of query "step" (a: its parameters, for the step's other queries),
 * or NULL with *status 500 or 404 and err set. */
json_t *jsw_step_row(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, struct jsw_args *a,
                     int *status, char *err, size_t errlen);
int jsw_own_slices(jsw_db *db, const struct jsw_request *req, int64_t job, const char *step, const char *metric,
                   bool live, bool kernel, json_t *s, struct jsw_slices *own, char *err, size_t errlen);

/* The handlers (jsw_handler) of the dispatch table, by the file that holds them. */
json_t *jsw_h_me(jsw_db *db, const struct jsw_request *req, int *status, char *err, size_t errlen);
/* endpoints_jobs.c: the lists, the job and the file, written as text (jsw_text_handler) */
char *jsw_t_workflows(jsw_db *db, const struct jsw_request *req, size_t *n, int *status, char *err, size_t errlen);
char *jsw_t_jobs(jsw_db *db, const struct jsw_request *req, size_t *n, int *status, char *err, size_t errlen);
char *jsw_t_job(jsw_db *db, const struct jsw_request *req, size_t *n, int *status, char *err, size_t errlen);
char *jsw_t_file(jsw_db *db, const struct jsw_request *req, size_t *n, int *status, char *err, size_t errlen);
/* endpoints_workflow.c */
json_t *jsw_h_workflow(jsw_db *db, const struct jsw_request *req, int *status, char *err, size_t errlen);
/* The text handlers (jsw_text_handler): endpoints_step.c, endpoints_background.c */
char *jsw_t_step(jsw_db *db, const struct jsw_request *req, size_t *n, int *status, char *err, size_t errlen);
char *jsw_t_background(jsw_db *db, const struct jsw_request *req, size_t *n, int *status, char *err, size_t errlen);
/* endpoints_export.c */
json_t *jsw_h_export(jsw_db *db, const struct jsw_request *req, int *status, char *err, size_t errlen);

#endif
