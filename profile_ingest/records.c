/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plugin's records in the spool (job.json, step.<step>.<node>.json): read safely, checked
 * (validate.c), and matched against each other; and the files the ingest keeps, logged once,
 * not at every pass.
 */
#include "config.h"

#include "ingest.h"
#include "ingest_spool.h"
#include "log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int warn_once(struct ctx *c, const char *key)
{
    for (size_t i = 0; i < c->nwarned; i++)
        if (!strcmp(c->warned[i], key))
            return 0;
    char **w = realloc(c->warned, (c->nwarned + 1) * sizeof *w);
    if (!w)
        abort();
    c->warned = w;
    c->warned[c->nwarned++] = strdup(key);
    return 1;
}

void pi_kept(struct ctx *c, const char *file, const char *reason)
{
    char key[PATH_MAX + 600];
    snprintf(key, sizeof key, "%s: %s", file, reason);
    if (warn_once(c, key))
        pi_warn("kept %s: %s", file, reason);
}

json_t *pi_read_record(struct ctx *c, int dirfd, const char *jobname, const char *name, int is_step,
                       char *reason, size_t rsize, int *invalid, int *gone)
{
    char *buf = NULL, path[PATH_MAX];
    size_t len = 0;
    *invalid = *gone = 0;
    snprintf(path, sizeof path, "%s/%s", jobname, name);
    int r = pi_read_file(dirfd, name, (uid_t)c->conf.record_uid, "the record writer", JS_RECORD_MAX_FILE_BYTES, &buf, &len, reason, rsize);
    if (r == PI_READ_GONE) {
        *gone = 1;
        return NULL;
    }
    if (r == PI_READ_REFUSED) {
        *invalid = 1;
        return NULL;
    }
    json_t *j = pi_json_parse(buf, len, reason, rsize);
    free(buf);
    if (!j) {
        *invalid = 1;
        return NULL;
    }
    int chk = pi_record_check(j, is_step, reason, rsize);
    if (chk != PI_OK) {
        json_decref(j);
        if (chk == PI_UNKNOWN_VERSION)
            pi_kept(c, path, reason);
        else
            *invalid = 1;
        return NULL;
    }
    return j;
}

int pi_records_disagree(const json_t *jobrec, const json_t *rec, long long job, const char *step, const char *node,
                        char *reason, size_t rsize)
{
    const char *rstep = json_string_value(json_object_get(rec, "step"));
    const char *rnode = json_string_value(json_object_get(rec, "node"));
    long long rjob = json_integer_value(json_object_get(rec, "job_id"));
    if (rjob != job || strcmp(rstep, step) || strcmp(rnode, node)) {
        snprintf(reason, rsize, "step record is of job %lld step %s node %s, its name says job %lld step %s node %s",
                 rjob, rstep, rnode, job, step, node);
        return 1;
    }
    if (json_integer_value(json_object_get(jobrec, "job_id")) != job) {
        snprintf(reason, rsize, "job record is of job %lld, not %lld", (long long)json_integer_value(json_object_get(jobrec, "job_id")), job);
        return 1;
    }
    if (json_integer_value(json_object_get(rec, "uid")) != json_integer_value(json_object_get(jobrec, "uid"))) {
        snprintf(reason, rsize, "step record's uid %lld differs from the job record's uid %lld",
                 (long long)json_integer_value(json_object_get(rec, "uid")), (long long)json_integer_value(json_object_get(jobrec, "uid")));
        return 1;
    }
    return 0;
}
