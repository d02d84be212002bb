/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Job and step records: field tables and spool names (see record_format.h). */
#include "record_format.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S JS_FIELD_STRING
#define I JS_FIELD_INTEGER
#define B JS_FIELD_BOOLEAN
#define A JS_FIELD_ARRAY

const struct js_record_field js_job_record_fields[] = {
    { "format", S, 0 },         { "version", I, 0 },
    { "cluster", S, 1 },        { "job_id", I, 0 },
    { "array_job_id", I, 1 },   { "array_task_id", I, 1 },
    { "name", S, 1 },           { "user", S, 1 },
    { "uid", I, 0 },            { "group", S, 1 },
    { "gid", I, 0 },            { "account", S, 1 },
    { "partition", S, 1 },      { "qos", S, 1 },
    { "submit_ns", I, 1 },      { "eligible_ns", I, 1 },
    { "start_ns", I, 1 },       { "end_ns", I, 1 },
    { "nodes", I, 1 },          { "node_list", S, 1 },
    { "cpus", I, 1 },           { "tasks", I, 1 },
    { "dependency", S, 1 },     { "dependencies", A, 0 },
    { "dependency_any", B, 0 }, { "dependency_parse_error", B, 0 },
    { "exit_code", I, 1 },      { "signal", I, 1 },
    { "state", S, 0 },          { "final", B, 0 },
    { "workflow", S, 1 },       { "work_dir", S, 1 },
    { "batch_script", S, 1 },   { "batch", B, 0 },
    { "source", S, 0 },         { "writer_version", S, 0 },
    { "written_ns", I, 0 },     { "truncated", B, 0 },
    { "submitter", S, JS_FIELD_OPTIONAL },
    { "reason", S, JS_FIELD_OPTIONAL },
    { NULL, 0, 0 },
};

const char *const js_job_record_kept[] = {
    "workflow", "batch_script", "work_dir", "submitter", "account", "qos", "submit_ns", "eligible_ns",
    "array_job_id", "array_task_id", "nodes", "node_list", "cpus", NULL,
};
const char *const js_job_record_dependency[] = {
    "dependency", "dependencies", "dependency_any", "dependency_parse_error", NULL,
};

const struct js_record_field js_dependency_fields[] = {
    { "type", S, 0 },
    { "job_id", I, 1 },
    { "array_task_id", I, 1 },
    { "delay_minutes", I, 1 },
    { NULL, 0, 0 },
};

const struct js_record_field js_step_record_fields[] = {
    { "format", S, 0 },           { "version", I, 0 },
    { "cluster", S, 1 },          { "job_id", I, 0 },
    { "step", S, 0 },             { "step_id", I, 0 },
    { "array_job_id", I, 1 },     { "array_task_id", I, 1 },
    { "node", S, 0 },             { "node_index", I, 1 },
    { "nodes", I, 1 },            { "node_list", S, 1 },
    { "cpus", I, 1 },             { "tasks", I, 1 },
    { "local_tasks", I, 1 },      { "uid", I, 0 },
    { "gid", I, 0 },              { "user", S, 1 },
    { "start_ns", I, 0 },         { "end_ns", I, 0 },
    { "elapsed_ns", I, 0 },       { "executable", S, 1 },
    { "argv", A, 0 },             { "work_dir", S, 1 },
    { "exit_code", I, 1 },        { "signal", I, 0 },
    { "state", S, 0 },            { "task_list", A, 0 },
    { "profiled", B, 0 },         { "profile_reason", S, 0 },
    { "profiler", S, 1 },         { "profiler_version", S, 1 },
    { "slice_seconds", I, 0 },    { "workflow", S, 1 },
    { "source", S, 0 },           { "writer_version", S, 0 },
    { "written_ns", I, 0 },       { "truncated", B, 0 },
    { NULL, 0, 0 },
};

const struct js_record_field js_task_fields[] = {
    { "task_id", I, 0 },
    { "pid", I, 1 },
    { "exit_code", I, 1 },
    { "signal", I, 0 },
    { NULL, 0, 0 },
};

#undef S
#undef I
#undef B
#undef A

const char *const js_dependency_types[] = {
    "after", "afterany", "afterok", "afternotok", "aftercorr", "afterburstbuffer", "singleton", NULL,
};

const char *const js_profile_reasons[] = {
    "on", "no-profile option", "JOBSCREEN_NO_PROFILE", "default off", "excluded user",
    "excluded partition", "excluded executable", "profiler missing", "spool error",
    "config error", "special step", NULL,
};

char *js_step_name(uint32_t step_id, char *buf, size_t size)
{
    switch (step_id) {
    case JS_STEP_ID_BATCH:
        snprintf(buf, size, "batch");
        break;
    case JS_STEP_ID_EXTERN:
        snprintf(buf, size, "extern");
        break;
    case JS_STEP_ID_INTERACTIVE:
        snprintf(buf, size, "interactive");
        break;
    default:
        snprintf(buf, size, "%" PRIu32, step_id);
        break;
    }
    return buf;
}

int js_step_parse(const char *text, uint32_t *step_id)
{
    if (text == NULL || *text == '\0')
        return -1;
    if (strcmp(text, "batch") == 0) {
        *step_id = JS_STEP_ID_BATCH;
        return 0;
    }
    if (strcmp(text, "extern") == 0) {
        *step_id = JS_STEP_ID_EXTERN;
        return 0;
    }
    if (strcmp(text, "interactive") == 0) {
        *step_id = JS_STEP_ID_INTERACTIVE;
        return 0;
    }
    if (text[0] < '0' || text[0] > '9' || (text[0] == '0' && text[1] != '\0'))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v >= JS_STEP_ID_INTERACTIVE)
        return -1;
    *step_id = (uint32_t)v;
    return 0;
}

int js_step_record_name(char *buf, size_t size, uint32_t step_id, const char *node)
{
    char step[JS_STEP_NAME_MAX];
    if (node == NULL || node[0] == '\0' || node[0] == '.' || strchr(node, '/') != NULL)
        return -1;
    int n = snprintf(buf, size, JS_STEP_RECORD_PREFIX "%s.%s" JS_RECORD_SUFFIX,
                     js_step_name(step_id, step, sizeof step), node);
    return (n < 0 || (size_t)n >= size) ? -1 : n;
}

int js_job_dir_name(char *buf, size_t size, uint32_t job_id)
{
    int n = snprintf(buf, size, JS_JOB_DIR_PREFIX "%" PRIu32, job_id);
    return (n < 0 || (size_t)n >= size) ? -1 : n;
}

const struct js_record_field *js_record_field_find(const struct js_record_field *table, const char *name)
{
    for (; table->name; table++)
        if (strcmp(table->name, name) == 0)
            return table;
    return NULL;
}
