/* SPDX-License-Identifier: GPL-2.0-or-later */
/* joblog: the job and step records as C structures and as JSON (docs/record-format.md). */
#include "config.h"

#include "joblog.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record_format.h"

int64_t joblog_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void joblog_job_init(struct joblog_job *job)
{
    memset(job, 0, sizeof *job);
    job->job_id = JOBLOG_NULL;
    job->array_job_id = job->array_task_id = JOBLOG_NULL;
    job->uid = job->gid = JOBLOG_NULL;
    job->submit_ns = job->eligible_ns = job->start_ns = job->end_ns = JOBLOG_NULL;
    job->nodes = job->cpus = job->tasks = JOBLOG_NULL;
    job->exit_code = job->signal = JOBLOG_NULL;
    job->source = "plugin";
}

void joblog_job_free(struct joblog_job *job)
{
    char **strings[] = { &job->cluster, &job->name, &job->user, &job->group, &job->account,
                         &job->partition, &job->qos, &job->node_list, &job->dependency,
                         &job->state, &job->reason, &job->batch_host, &job->workflow, &job->work_dir,
                         &job->batch_script, &job->submitter };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        free(*strings[i]);
        *strings[i] = NULL;
    }
}

void joblog_step_init(struct joblog_step *step)
{
    memset(step, 0, sizeof *step);
    step->job_id = JOBLOG_NULL;
    step->array_job_id = step->array_task_id = JOBLOG_NULL;
    step->node_index = step->nodes = JOBLOG_NULL;
    step->cpus = step->tasks = step->local_tasks = JOBLOG_NULL;
    step->uid = step->gid = JOBLOG_NULL;
    step->start_ns = step->end_ns = JOBLOG_NULL;
    step->profile_reason = "on";
    step->slice_seconds = 4;
}

void joblog_step_free(struct joblog_step *step)
{
    char **strings[] = { &step->cluster, &step->node, &step->node_list, &step->user,
                         &step->work_dir, &step->profiler, &step->profiler_version, &step->workflow,
                         &step->unrecorded_reason, &step->live_refused_reason };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        free(*strings[i]);
        *strings[i] = NULL;
    }
    if (step->argv) {
        for (char **a = step->argv; *a; a++)
            free(*a);
        free(step->argv);
        step->argv = NULL;
    }
    free(step->task_list);
    step->task_list = NULL;
    step->ntasks = 0;
}

int joblog_set_string(char **field, const char *s, int *truncated)
{
    free(*field);
    *field = NULL;
    if (s == NULL)
        return 0;
    size_t n = strnlen(s, JS_RECORD_MAX_STRING + 1);
    if (n > JS_RECORD_MAX_STRING) {
        n = JS_RECORD_MAX_STRING;
        /* do not cut a UTF-8 sequence in half */
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
        if (truncated)
            *truncated = 1;
    }
    *field = strndup(s, n);
    return *field ? 0 : -1;
}

void joblog_deps_free(struct joblog_deps *deps)
{
    free(deps->v);
    memset(deps, 0, sizeof *deps);
}

static int parse_int64(const char *s, size_t len, int64_t *out)
{
    if (len == 0 || len > 18)
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

/* One job reference of a dependency: "12", "12_3", "12_*", "12+5", each maybe with
 * "(unfulfilled)" or similar that scontrol appends. */
static int parse_dep_job(const char *s, size_t len, struct joblog_dep *d)
{
    const char *paren = memchr(s, '(', len);
    if (paren) {
        if (s[len - 1] != ')')
            return -1;
        len = (size_t)(paren - s);
    }
    const char *plus = memchr(s, '+', len);
    size_t jlen = plus ? (size_t)(plus - s) : len;
    if (plus && parse_int64(plus + 1, len - jlen - 1, &d->delay_minutes) < 0)
        return -1;
    const char *us = memchr(s, '_', jlen);
    size_t idlen = us ? (size_t)(us - s) : jlen;
    if (parse_int64(s, idlen, &d->job_id) < 0)
        return -1;
    if (us) {
        size_t tlen = jlen - idlen - 1;
        if (!(tlen == 1 && us[1] == '*') && parse_int64(us + 1, tlen, &d->array_task_id) < 0)
            return -1;
    }
    return 0;
}

static int deps_push(struct joblog_deps *deps, const struct joblog_dep *d)
{
    if (deps->n >= JS_RECORD_MAX_DEPS) {
        deps->parse_error = 1;
        return 0;
    }
    struct joblog_dep *v = realloc(deps->v, (deps->n + 1) * sizeof *v);
    if (v == NULL)
        return -1;
    deps->v = v;
    deps->v[deps->n++] = *d;
    return 0;
}

static int known_dep_type(const char *type, size_t len)
{
    for (const char *const *t = js_dependency_types; *t; t++)
        if (strlen(*t) == len && memcmp(*t, type, len) == 0)
            return 1;
    return 0;
}

/* One part: "afterok:12:13" or "singleton". */
static int parse_dep_part(const char *s, size_t len, struct joblog_deps *deps)
{
    struct joblog_dep d;
    const char *colon = memchr(s, ':', len);
    size_t tlen = colon ? (size_t)(colon - s) : len;
    if (tlen >= sizeof d.type || !known_dep_type(s, tlen)) {
        deps->parse_error = 1;
        return 0;
    }
    int singleton = (tlen == 9 && memcmp(s, "singleton", 9) == 0);
    if (singleton != (colon == NULL)) {
        deps->parse_error = 1;
        return 0;
    }
    memset(&d, 0, sizeof d);
    memcpy(d.type, s, tlen);
    d.type[tlen] = '\0';
    d.job_id = d.array_task_id = d.delay_minutes = JOBLOG_NULL;
    if (singleton)
        return deps_push(deps, &d);
    const char *p = colon + 1, *end = s + len;
    if (p >= end) {
        deps->parse_error = 1;
        return 0;
    }
    while (p < end) {
        const char *q = memchr(p, ':', (size_t)(end - p));
        size_t jl = q ? (size_t)(q - p) : (size_t)(end - p);
        struct joblog_dep one = d;
        if (parse_dep_job(p, jl, &one) < 0)
            deps->parse_error = 1;
        else if (deps_push(deps, &one) < 0)
            return -1;
        p += jl + (q ? 1 : 0);
        if (q && p >= end)
            deps->parse_error = 1;
    }
    return 0;
}

int joblog_parse_dependency(const char *text, struct joblog_deps *deps)
{
    memset(deps, 0, sizeof *deps);
    if (text == NULL || *text == '\0' || strcmp(text, "(null)") == 0)
        return 0;
    int has_comma = strchr(text, ',') != NULL, has_q = strchr(text, '?') != NULL;
    if (has_comma && has_q)
        deps->parse_error = 1; /* Slurm does not allow mixing them */
    deps->any = has_q && !has_comma;
    const char *p = text;
    while (*p) {
        size_t len = strcspn(p, ",?");
        if (len == 0)
            deps->parse_error = 1;
        else if (parse_dep_part(p, len, deps) < 0)
            return -1;
        p += len;
        if (*p) {
            p++;
            if (*p == '\0')
                deps->parse_error = 1;
        }
    }
    return 0;
}

void joblog_fill_names(int64_t uid, int64_t gid, char **user, char **group)
{
    char buf[16384];
    if (uid != JOBLOG_NULL) {
        struct passwd pw, *pwp = NULL;
        if (getpwuid_r((uid_t)uid, &pw, buf, sizeof buf, &pwp) == 0 && pwp)
            joblog_set_string(user, pwp->pw_name, NULL);
    }
    if (gid != JOBLOG_NULL && group) {
        struct group gr, *grp = NULL;
        if (getgrgid_r((gid_t)gid, &gr, buf, sizeof buf, &grp) == 0 && grp)
            joblog_set_string(group, grp->gr_name, NULL);
    }
}

void joblog_status_split(int64_t status, int64_t *exit_code, int64_t *signal)
{
    if (status == JOBLOG_NULL) {
        *exit_code = JOBLOG_NULL;
        *signal = JOBLOG_NULL;
    } else if (WIFSIGNALED((int)status)) {
        *exit_code = JOBLOG_NULL;
        *signal = WTERMSIG((int)status);
    } else {
        *exit_code = WEXITSTATUS((int)status);
        *signal = 0;
    }
}

/* --- JSON ------------------------------------------------------------------------------ */

static json_t *jint(int64_t v)
{
    return v == JOBLOG_NULL ? json_null() : json_integer((json_int_t)v);
}

static json_t *jstr(const char *s)
{
    if (s == NULL)
        return json_null();
    json_t *j = json_string(s);
    /* not UTF-8: keep the bytes readable rather than dropping the field */
    if (j == NULL) {
        size_t n = strlen(s);
        char *c = malloc(n + 1);
        if (c == NULL)
            return NULL;
        for (size_t i = 0; i < n; i++)
            c[i] = ((unsigned char)s[i] < 0x80) ? s[i] : '?';
        c[n] = '\0';
        j = json_string(c);
        free(c);
    }
    return j;
}

/* json_object_set_new that remembers a failure */
static void put(json_t *o, const char *key, json_t *v, int *fail)
{
    if (v == NULL || json_object_set_new(o, key, v) < 0)
        *fail = 1;
}

json_t *joblog_job_to_json(const struct joblog_job *job, int64_t written_ns)
{
    int fail = 0;
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    struct joblog_deps deps;
    if (joblog_parse_dependency(job->dependency, &deps) < 0) {
        json_decref(o);
        return NULL;
    }
    json_t *darr = json_array();
    if (darr == NULL)
        fail = 1;
    for (size_t i = 0; darr && i < deps.n; i++) {
        json_t *d = json_object();
        if (d == NULL) {
            fail = 1;
            break;
        }
        put(d, "type", json_string(deps.v[i].type), &fail);
        put(d, "job_id", jint(deps.v[i].job_id), &fail);
        put(d, "array_task_id", jint(deps.v[i].array_task_id), &fail);
        put(d, "delay_minutes", jint(deps.v[i].delay_minutes), &fail);
        if (json_array_append_new(darr, d) < 0)
            fail = 1;
    }
    put(o, "format", json_string(JS_JOB_RECORD_FORMAT), &fail);
    put(o, "version", json_integer(JS_RECORD_VERSION), &fail);
    put(o, "cluster", jstr(job->cluster), &fail);
    put(o, "job_id", jint(job->job_id), &fail);
    put(o, "array_job_id", jint(job->array_job_id), &fail);
    put(o, "array_task_id", jint(job->array_task_id), &fail);
    put(o, "name", jstr(job->name), &fail);
    put(o, "user", jstr(job->user), &fail);
    put(o, "uid", jint(job->uid), &fail);
    put(o, "group", jstr(job->group), &fail);
    put(o, "gid", jint(job->gid), &fail);
    put(o, "account", jstr(job->account), &fail);
    put(o, "partition", jstr(job->partition), &fail);
    put(o, "qos", jstr(job->qos), &fail);
    put(o, "submit_ns", jint(job->submit_ns), &fail);
    put(o, "eligible_ns", jint(job->eligible_ns), &fail);
    put(o, "start_ns", jint(job->start_ns), &fail);
    put(o, "end_ns", jint(job->end_ns), &fail);
    put(o, "nodes", jint(job->nodes), &fail);
    put(o, "node_list", jstr(job->node_list), &fail);
    put(o, "cpus", jint(job->cpus), &fail);
    put(o, "tasks", jint(job->tasks), &fail);
    put(o, "dependency", jstr(job->dependency), &fail);
    put(o, "dependencies", darr, &fail);
    put(o, "dependency_any", json_boolean(deps.any), &fail);
    put(o, "dependency_parse_error", json_boolean(deps.parse_error), &fail);
    put(o, "exit_code", jint(job->exit_code), &fail);
    put(o, "signal", jint(job->signal), &fail);
    put(o, "state", json_string(job->state ? job->state : (job->final ? "COMPLETED" : "RUNNING")), &fail);
    put(o, "final", json_boolean(job->final), &fail);
    put(o, "workflow", jstr(job->workflow), &fail);
    put(o, "work_dir", jstr(job->work_dir), &fail);
    put(o, "batch_script", jstr(job->batch_script), &fail);
    put(o, "submitter", jstr(job->submitter), &fail);
    put(o, "batch", json_boolean(job->batch), &fail);
    put(o, "source", json_string(job->source ? job->source : "plugin"), &fail);
    put(o, "writer_version", json_string(PACKAGE_VERSION), &fail);
    put(o, "written_ns", json_integer(written_ns), &fail);
    put(o, "truncated", json_boolean(job->truncated), &fail);
    /* optional (record-format.md): only when Slurm gave a reason */
    if (job->reason)
        put(o, "reason", jstr(job->reason), &fail);
    joblog_deps_free(&deps);
    if (fail) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* Optional (record-format.md): only when the spool's share refused something of the step, its
 * profiles (unrecorded) or its live snapshots (live_refused). */
static void put_refused(json_t *o, const struct joblog_step *step, int *fail)
{
    if (step->unrecorded > 0)
        put(o, "unrecorded", json_pack("{s:I,s:s}", "processes", (json_int_t)step->unrecorded, "reason",
                                       step->unrecorded_reason ? step->unrecorded_reason : ""), fail);
    if (step->live_refused > 0)
        put(o, "live_refused", json_pack("{s:I,s:I,s:s}", "snapshots", (json_int_t)step->live_refused, "bytes",
                                         (json_int_t)step->live_refused_bytes, "reason",
                                         step->live_refused_reason ? step->live_refused_reason : ""), fail);
}

json_t *joblog_step_to_json(const struct joblog_step *step, int64_t written_ns)
{
    int fail = 0, truncated = step->truncated;
    char name[JS_STEP_NAME_MAX];
    json_t *o = json_object(), *argv = json_array(), *tasks = json_array();
    if (o == NULL || argv == NULL || tasks == NULL) {
        json_decref(o);
        json_decref(argv);
        json_decref(tasks);
        return NULL;
    }
    size_t argc = 0;
    for (char **a = step->argv; a && *a; a++, argc++) {
        if (argc >= JS_RECORD_MAX_ARGV) {
            truncated = 1;
            break;
        }
        if (json_array_append_new(argv, jstr(*a)) < 0)
            fail = 1;
    }
    /* worst status over the local tasks: the highest exit code, the lowest signal */
    int64_t exit_code = JOBLOG_NULL, signal = 0;
    int any_nonzero = 0;
    for (size_t i = 0; i < step->ntasks; i++) {
        int64_t ec, sig;
        joblog_status_split(step->task_list[i].status, &ec, &sig);
        if (i < JS_RECORD_MAX_TASKS) {
            json_t *t = json_object();
            if (t == NULL) {
                fail = 1;
                break;
            }
            put(t, "task_id", jint(step->task_list[i].task_id), &fail);
            put(t, "pid", jint(step->task_list[i].pid), &fail);
            put(t, "exit_code", jint(ec), &fail);
            put(t, "signal", json_integer(sig == JOBLOG_NULL ? 0 : sig), &fail);
            if (json_array_append_new(tasks, t) < 0)
                fail = 1;
        } else {
            truncated = 1;
        }
        if (ec != JOBLOG_NULL && (exit_code == JOBLOG_NULL || ec > exit_code))
            exit_code = ec;
        if (ec != JOBLOG_NULL && ec != 0)
            any_nonzero = 1;
        if (sig != JOBLOG_NULL && sig > 0 && (signal == 0 || sig < signal))
            signal = sig;
    }
    /* a step whose tasks never ran (or ended unseen) did not complete */
    const char *state = signal ? "CANCELLED" : (any_nonzero || exit_code == JOBLOG_NULL) ? "FAILED" : "COMPLETED";
    int64_t elapsed = (step->start_ns != JOBLOG_NULL && step->end_ns != JOBLOG_NULL)
                          ? step->end_ns - step->start_ns : 0;

    put(o, "format", json_string(JS_STEP_RECORD_FORMAT), &fail);
    put(o, "version", json_integer(JS_RECORD_VERSION), &fail);
    put(o, "cluster", jstr(step->cluster), &fail);
    put(o, "job_id", jint(step->job_id), &fail);
    put(o, "step", json_string(js_step_name(step->step_id, name, sizeof name)), &fail);
    put(o, "step_id", json_integer(step->step_id), &fail);
    put(o, "array_job_id", jint(step->array_job_id), &fail);
    put(o, "array_task_id", jint(step->array_task_id), &fail);
    put(o, "node", jstr(step->node ? step->node : "unknown"), &fail);
    put(o, "node_index", jint(step->node_index), &fail);
    put(o, "nodes", jint(step->nodes), &fail);
    put(o, "node_list", jstr(step->node_list), &fail);
    put(o, "cpus", jint(step->cpus), &fail);
    put(o, "tasks", jint(step->tasks), &fail);
    put(o, "local_tasks", jint(step->local_tasks), &fail);
    put(o, "uid", jint(step->uid), &fail);
    put(o, "gid", jint(step->gid), &fail);
    put(o, "user", jstr(step->user), &fail);
    put(o, "start_ns", jint(step->start_ns), &fail);
    put(o, "end_ns", jint(step->end_ns), &fail);
    put(o, "elapsed_ns", json_integer(elapsed), &fail);
    put(o, "executable", jstr(step->argv ? step->argv[0] : NULL), &fail);
    put(o, "argv", argv, &fail);
    put(o, "work_dir", jstr(step->work_dir), &fail);
    put(o, "exit_code", jint(exit_code), &fail);
    put(o, "signal", json_integer(signal), &fail);
    put(o, "state", json_string(state), &fail);
    put(o, "task_list", tasks, &fail);
    put(o, "profiled", json_boolean(step->profiled), &fail);
    put(o, "profile_reason", json_string(step->profile_reason ? step->profile_reason : "on"), &fail);
    put(o, "profiler", jstr(step->profiled ? step->profiler : NULL), &fail);
    put(o, "profiler_version", jstr(step->profiled ? step->profiler_version : NULL), &fail);
    put(o, "slice_seconds", json_integer(step->slice_seconds), &fail);
    put(o, "workflow", jstr(step->workflow), &fail);
    put(o, "source", json_string("plugin"), &fail);
    put(o, "writer_version", json_string(PACKAGE_VERSION), &fail);
    put(o, "written_ns", json_integer(written_ns), &fail);
    put(o, "truncated", json_boolean(truncated), &fail);
    put_refused(o, step, &fail);
    if (fail) {
        json_decref(o);
        return NULL;
    }
    return o;
}
