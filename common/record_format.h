/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Job and step records (docs/record-format.md): the one definition shared by the writer
 * (joblog/, run by the SPANK plugin as root or by the joblog command) and the reader
 * (profile_ingest/).  Every field of both records is listed here with its JSON type and
 * whether it may be null; the writer's unit test checks its output against these tables and
 * the ingest can validate a record with them before it reads a single value.
 */
#ifndef JS_RECORD_FORMAT_H
#define JS_RECORD_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define JS_RECORD_VERSION 1
#define JS_JOB_RECORD_FORMAT "jobscreen-job"
#define JS_STEP_RECORD_FORMAT "jobscreen-step"

/* File names inside SPOOL/job.<jobid>/ (docs/spool.md). */
#define JS_JOB_DIR_PREFIX "job."
#define JS_JOB_RECORD_NAME "job.json"
#define JS_STEP_RECORD_PREFIX "step."
#define JS_RECORD_SUFFIX ".json"
#define JS_PROFILES_DIR_NAME "profiles"

/* Bounds on what a record holds (a longer string or list is cut and "truncated" set). */
#define JS_RECORD_MAX_ARGV 256
#define JS_RECORD_MAX_STRING 4096
#define JS_RECORD_MAX_TASKS 4096
#define JS_RECORD_MAX_DEPS 256
/* Bound a reader should put on a record file's size: the bounds above fit well inside it. */
#define JS_RECORD_MAX_FILE_BYTES (4 * 1024 * 1024)

/* Slurm's special step ids (slurm.h), repeated so that readers need no Slurm headers. */
#define JS_STEP_ID_BATCH 0xfffffffbU
#define JS_STEP_ID_EXTERN 0xfffffffcU
#define JS_STEP_ID_INTERACTIVE 0xfffffffaU

/* Longest step name in words ("interactive" or a 10-digit number) plus NUL. */
#define JS_STEP_NAME_MAX 16

enum js_field_type {
    JS_FIELD_STRING,
    JS_FIELD_INTEGER,
    JS_FIELD_BOOLEAN,
    JS_FIELD_ARRAY,
    JS_FIELD_OBJECT,
};

struct js_record_field {
    const char *name;
    enum js_field_type type;
    int nullable; /* 1: the value may be JSON null; JS_FIELD_OPTIONAL: and a record may lack it */
};
/* nullable, and absent in records of writers before it (a reader takes null) */
#define JS_FIELD_OPTIONAL 2

/* The fields of each record and of the objects in its arrays, each table ending with
 * { NULL, 0, 0 }.  Every listed field is always present in a record of this version. */
extern const struct js_record_field js_job_record_fields[];
extern const struct js_record_field js_dependency_fields[];
extern const struct js_record_field js_step_record_fields[];
extern const struct js_record_field js_task_fields[];

/* What an older record of a job captured and a newer one lacks (null or absent), kept in the
 * newer: a record written where the plugin's was not (the controller's, another node's epilog)
 * knows no dependency, workflow or script, and a COMPLETING job's node counts shrink. Kept by
 * the receiver (transport/store.c) and, with the same names, by joblog in one spool
 * (joblog_job_merge_previous) and the database (js_data.job_record_keep). "dependency" takes
 * its parsed members (js_job_record_dependency) with it; "batch" only ever goes to true.
 * NULL-terminated. */
extern const char *const js_job_record_kept[];
extern const char *const js_job_record_dependency[];

/* Dependency types (js_dependency_fields "type"), NULL-terminated. */
extern const char *const js_dependency_types[];

/* Step profile reasons (js_step_record_fields "profile_reason"), NULL-terminated. */
extern const char *const js_profile_reasons[];

/* Step id in words into buf (size >= JS_STEP_NAME_MAX): "batch", "extern", "interactive"
 * or the decimal number.  Returns buf. */
char *js_step_name(uint32_t step_id, char *buf, size_t size);

/* Inverse of js_step_name: 0 and *step_id set, or -1 when text is not a step name. */
int js_step_parse(const char *text, uint32_t *step_id);

/* "step.<step>.<node>.json" into buf; -1 when it does not fit or node is empty or holds a
 * '/' or starts with '.', else the length. */
int js_step_record_name(char *buf, size_t size, uint32_t step_id, const char *node);

/* "job.<jobid>" into buf; -1 when it does not fit, else the length. */
int js_job_dir_name(char *buf, size_t size, uint32_t job_id);

/* Look a field up in a table; NULL when absent. */
const struct js_record_field *js_record_field_find(const struct js_record_field *table, const char *name);

#endif
