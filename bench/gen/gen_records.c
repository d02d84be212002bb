/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsgen: job and step records, field by field from common/record_format.h, and the spool's
 * files and directories, owned as the plugin leaves them. */
#include "config.h"

#include "gen_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gen_write_at(struct ctx *c, int dirfd, const char *name, const char *data, size_t len, mode_t mode, long uid, long gid)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, ".%s.tmp", name);
    int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
    if (fd < 0) {
        fprintf(stderr, "jsgen: %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    if (fchmod(fd, mode) < 0 || (uid >= 0 && fchown(fd, (uid_t)uid, (gid_t)gid) < 0)) {
        fprintf(stderr, "jsgen: %s: %s\n", tmp, strerror(errno));
        close(fd);
        return -1;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "jsgen: writing %s: %s\n", tmp, strerror(errno));
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    if (close(fd) < 0 || renameat(dirfd, tmp, dirfd, name) < 0) {
        fprintf(stderr, "jsgen: %s: %s\n", name, strerror(errno));
        return -1;
    }
    c->s->bytes += len;
    return 0;
}

/* A node's number in its name: cluster shape a 5-digit index from 0, uniform a number from 1. */
static void node_number(const struct jsgen_params *p, char *buf, size_t size, unsigned index)
{
    if (p->shape == JSGEN_UNIFORM)
        snprintf(buf, size, "%u", index + 1);
    else
        snprintf(buf, size, "%05u", index);
}

void gen_node_name(const struct jsgen_params *p, char *buf, size_t size, unsigned index)
{
    char num[16];
    node_number(p, num, sizeof num, index);
    snprintf(buf, size, "%s%s", p->node_prefix, num);
}

static void job_node_list(const struct gjob *j, char *buf, size_t size, const struct jsgen_params *p)
{
    /* a Slurm host list, one range per run of consecutive indices */
    size_t n = 0;
    unsigned sorted[MAX_NODES_PER_JOB];
    char first[16], last[16];
    memcpy(sorted, j->nodes, j->k * sizeof *sorted);
    for (unsigned x = 1; x < j->k; x++)
        for (unsigned y = x; y > 0 && sorted[y - 1] > sorted[y]; y--) {
            unsigned t = sorted[y];
            sorted[y] = sorted[y - 1];
            sorted[y - 1] = t;
        }
    if (j->k == 1) {
        gen_node_name(p, buf, size, sorted[0]);
        return;
    }
    n += (size_t)snprintf(buf + n, size - n, "%s[", p->node_prefix);
    for (unsigned i = 0; i < j->k && n < size;) {
        unsigned e = i;
        while (e + 1 < j->k && sorted[e + 1] == sorted[e] + 1)
            e++;
        node_number(p, first, sizeof first, sorted[i]);
        node_number(p, last, sizeof last, sorted[e]);
        if (e == i)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "," : "", first);
        else
            n += (size_t)snprintf(buf + n, size - n, "%s%s-%s", i ? "," : "", first, last);
        i = e + 1;
    }
    if (n < size)
        snprintf(buf + n, size - n, "]");
}

/* ---- records, field by field from common/record_format.h ---------------------------------- */
typedef json_t *(*getter)(const char *name, const void *ctx);

static json_t *from_table(const struct js_record_field *t, getter get, const void *arg, const char *what)
{
    json_t *o = json_object();
    for (; t->name; t++) {
        json_t *v = get(t->name, arg);
        if (!v) {
            fprintf(stderr, "jsgen: the %s field \"%s\" of common/record_format.h is unknown to the generator: "
                            "update bench/gen/gen_records.c\n", what, t->name);
            exit(3);
        }
        int ok = json_is_null(v) ? t->nullable
               : t->type == JS_FIELD_STRING ? json_is_string(v)
               : t->type == JS_FIELD_INTEGER ? json_is_integer(v)
               : t->type == JS_FIELD_BOOLEAN ? json_is_boolean(v)
               : t->type == JS_FIELD_ARRAY ? json_is_array(v)
               : json_is_object(v);
        if (!ok) {
            fprintf(stderr, "jsgen: %s field \"%s\": the generator's value has the wrong type\n", what, t->name);
            exit(3);
        }
        json_object_set_new(o, t->name, v);
    }
    return o;
}

static json_t *str_or_null(const char *s) { return s && *s ? json_string(s) : json_null(); }


struct deprec_arg { const char *type; uint32_t job; };
static json_t *dep_field(const char *name, const void *arg)
{
    const struct deprec_arg *d = arg;
    if (!strcmp(name, "type")) return json_string(d->type);
    if (!strcmp(name, "job_id")) return json_integer(d->job);
    if (!strcmp(name, "array_task_id")) return json_null();
    if (!strcmp(name, "delay_minutes")) return json_null();
    return NULL;
}

static json_t *job_field(const char *name, const void *arg)
{
    const struct jobrec_arg *a = arg;
    const struct gjob *j = a->j;
    const struct jsgen_params *p = a->c->p;
    char buf[4096];
    if (!strcmp(name, "format")) return json_string(JS_JOB_RECORD_FORMAT);
    if (!strcmp(name, "version")) return json_integer(JS_RECORD_VERSION);
    if (!strcmp(name, "cluster")) return json_string(p->cluster);
    if (!strcmp(name, "job_id")) return json_integer(j->id);
    if (!strcmp(name, "array_job_id")) return j->array_task_id >= 0 ? json_integer(j->array_job_id) : json_null();
    if (!strcmp(name, "array_task_id")) return j->array_task_id >= 0 ? json_integer(j->array_task_id) : json_null();
    if (!strcmp(name, "name")) return json_string(j->name);
    if (!strcmp(name, "user")) return json_string(j->user_name);
    if (!strcmp(name, "uid")) return json_integer(j->uid);
    if (!strcmp(name, "group")) return json_string(j->user_name);
    if (!strcmp(name, "gid")) return json_integer(j->gid);
    if (!strcmp(name, "account")) { snprintf(buf, sizeof buf, "proj%02u", j->user % 17); return json_string(buf); }
    if (!strcmp(name, "partition")) return json_string(j->k > 16 ? "large" : "batch");
    if (!strcmp(name, "qos")) return json_string("normal");
    if (!strcmp(name, "submit_ns")) return json_integer(j->submit_ns);
    if (!strcmp(name, "eligible_ns")) return json_integer(j->submit_ns);
    if (!strcmp(name, "start_ns")) return json_integer(j->start_ns);
    if (!strcmp(name, "end_ns")) return json_integer(j->end_ns);
    if (!strcmp(name, "nodes")) return json_integer(j->k);
    if (!strcmp(name, "node_list")) { job_node_list(j, buf, sizeof buf, p); return json_string(buf); }
    if (!strcmp(name, "cpus")) return json_integer((json_int_t)j->k * CORES_PER_NODE);
    if (!strcmp(name, "tasks")) return json_integer((json_int_t)j->k * j->ppn);
    if (!strcmp(name, "dependency")) {
        if (!j->ndeps)
            return json_null();
        size_t n = 0;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", j->deps[0].type);
        for (int i = 0; i < j->ndeps && n < sizeof buf; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, ":%" PRIu32, j->deps[i].job);
        return json_string(buf);
    }
    if (!strcmp(name, "dependencies")) {
        json_t *arr = json_array();
        for (int i = 0; i < j->ndeps; i++) {
            struct deprec_arg d = { j->deps[i].type, j->deps[i].job };
            json_array_append_new(arr, from_table(js_dependency_fields, dep_field, &d, "dependency"));
        }
        return arr;
    }
    if (!strcmp(name, "dependency_any")) return json_false();
    if (!strcmp(name, "dependency_parse_error")) return json_false();
    if (!strcmp(name, "exit_code")) return json_integer(j->failed ? 1 : 0);
    if (!strcmp(name, "signal")) return json_integer(0);
    if (!strcmp(name, "state")) return json_string(j->failed ? "FAILED" : "COMPLETED");
    if (!strcmp(name, "final")) return json_true();
    if (!strcmp(name, "workflow")) return str_or_null(j->tag);
    if (!strcmp(name, "work_dir")) { snprintf(buf, sizeof buf, "/scratch/%s", j->user_name); return json_string(buf); }
    if (!strcmp(name, "batch_script")) return json_string(j->script);
    if (!strcmp(name, "submitter")) return json_null();
    if (!strcmp(name, "reason")) return json_null();
    if (!strcmp(name, "batch")) return json_true();
    if (!strcmp(name, "source")) return json_string("plugin");
    if (!strcmp(name, "writer_version")) return json_string(WRITER_VERSION);
    if (!strcmp(name, "written_ns")) return json_integer(j->end_ns);
    if (!strcmp(name, "truncated")) return json_false();
    return NULL;
}

struct taskrec_arg { long task_id; uint64_t pid; int exit_code, signal; };
static json_t *task_field(const char *name, const void *arg)
{
    const struct taskrec_arg *t = arg;
    if (!strcmp(name, "task_id")) return json_integer(t->task_id);
    if (!strcmp(name, "pid")) return json_integer((json_int_t)t->pid);
    if (!strcmp(name, "exit_code")) return t->signal ? json_null() : json_integer(t->exit_code);
    if (!strcmp(name, "signal")) return json_integer(t->signal);
    return NULL;
}

static json_t *step_field(const char *name, const void *arg)
{
    const struct steprec_arg *a = arg;
    const struct gjob *j = a->j;
    const struct jsgen_params *p = a->c->p;
    char buf[4096];
    int failed = j->failed && a->step_id == JS_STEP_ID_BATCH;
    if (!strcmp(name, "format")) return json_string(JS_STEP_RECORD_FORMAT);
    if (!strcmp(name, "version")) return json_integer(JS_RECORD_VERSION);
    if (!strcmp(name, "cluster")) return json_string(p->cluster);
    if (!strcmp(name, "job_id")) return json_integer(j->id);
    if (!strcmp(name, "step")) return json_string(js_step_name(a->step_id, buf, sizeof buf));
    if (!strcmp(name, "step_id")) return json_integer(a->step_id);
    if (!strcmp(name, "array_job_id")) return j->array_task_id >= 0 ? json_integer(j->array_job_id) : json_null();
    if (!strcmp(name, "array_task_id")) return j->array_task_id >= 0 ? json_integer(j->array_task_id) : json_null();
    if (!strcmp(name, "node")) return json_string(a->node);
    if (!strcmp(name, "node_index")) return json_integer(a->node_index);
    if (!strcmp(name, "nodes")) return json_integer(a->nodes);
    if (!strcmp(name, "node_list")) {
        if (a->nodes == 1)
            return json_string(a->node);
        job_node_list(j, buf, sizeof buf, p);
        return json_string(buf);
    }
    if (!strcmp(name, "cpus")) return json_integer(a->cpus);
    if (!strcmp(name, "tasks")) return json_integer(a->tasks);
    if (!strcmp(name, "local_tasks")) return json_integer(a->local_tasks);
    if (!strcmp(name, "uid")) return json_integer(j->uid);
    if (!strcmp(name, "gid")) return json_integer(j->gid);
    if (!strcmp(name, "user")) return json_string(j->user_name);
    if (!strcmp(name, "start_ns")) return json_integer(a->start_ns);
    if (!strcmp(name, "end_ns")) return json_integer(a->end_ns);
    if (!strcmp(name, "elapsed_ns")) return json_integer(a->end_ns - a->start_ns);
    if (!strcmp(name, "executable")) return json_string(a->exe);
    if (!strcmp(name, "argv")) {
        json_t *arr = json_array();
        for (int i = 0; a->argv[i]; i++)
            json_array_append_new(arr, json_string(a->argv[i]));
        return arr;
    }
    if (!strcmp(name, "work_dir")) { snprintf(buf, sizeof buf, "/scratch/%s", j->user_name); return json_string(buf); }
    if (!strcmp(name, "exit_code")) return json_integer(failed ? 1 : 0);
    if (!strcmp(name, "signal")) return json_integer(0);
    if (!strcmp(name, "state")) return json_string(failed ? "FAILED" : "COMPLETED");
    if (!strcmp(name, "task_list")) { /* cut to its bound as the plugin cuts it ("truncated") */
        json_t *arr = json_array();
        for (unsigned t = 0; t < a->local_tasks && t < JS_RECORD_MAX_TASKS; t++) {
            int killed = t + a->killed >= a->local_tasks;
            struct taskrec_arg ta = { (long)(a->node_index * a->local_tasks + t), a->pids[t], failed ? 1 : 0, killed ? 9 : 0 };
            json_array_append_new(arr, from_table(js_task_fields, task_field, &ta, "task"));
        }
        return arr;
    }
    if (!strcmp(name, "profiled")) return json_true();
    if (!strcmp(name, "profile_reason")) return json_string("on");
    if (!strcmp(name, "profiler")) return json_string("/usr/lib/jobscreen/libjobscreen-profiler.so");
    if (!strcmp(name, "profiler_version")) return json_string(PACKAGE_VERSION);
    if (!strcmp(name, "slice_seconds")) return json_integer(p->slice_s);
    if (!strcmp(name, "workflow")) return str_or_null(j->tag);
    if (!strcmp(name, "source")) return json_string("plugin");
    if (!strcmp(name, "writer_version")) return json_string(WRITER_VERSION);
    if (!strcmp(name, "written_ns")) return json_integer(a->end_ns + 1000000);
    if (!strcmp(name, "truncated")) return json_boolean(a->local_tasks > JS_RECORD_MAX_TASKS);
    return NULL;
}

static int write_record(struct ctx *c, int dirfd, const char *name, json_t *rec)
{
    char *text = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(rec);
    if (!text)
        abort();
    int r = gen_write_at(c, dirfd, name, text, strlen(text), 0644, -1, -1);
    free(text);
    return r;
}

int gen_write_step_record(struct ctx *c, int jfd, const struct steprec_arg *sa)
{
    char name[256];
    js_step_record_name(name, sizeof name, sa->step_id, sa->node);
    return write_record(c, jfd, name, from_table(js_step_record_fields, step_field, sa, "step record"));
}

int gen_write_job_record(struct ctx *c, int jfd, const struct gjob *j)
{
    struct jobrec_arg ja = { c, j };
    return write_record(c, jfd, JS_JOB_RECORD_NAME, from_table(js_job_record_fields, job_field, &ja, "job record"));
}

/* A job's directory and its profiles/, owned as the plugin leaves them: 0, or -1 with a message. */
int gen_open_job_dirs(struct ctx *c, const struct gjob *j, int *jfd, int *pfd)
{
    const struct jsgen_params *p = c->p;
    char dname[64];
    js_job_dir_name(dname, sizeof dname, j->id);
    *pfd = -1;
    if (mkdirat(c->spool_fd, dname, 0711) < 0 && errno != EEXIST) {
        fprintf(stderr, "jsgen: %s: %s\n", dname, strerror(errno));
        return *jfd = -1;
    }
    *jfd = openat(c->spool_fd, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (*jfd < 0 || fchmod(*jfd, 0711) < 0) {
        fprintf(stderr, "jsgen: %s: %s\n", dname, strerror(errno));
        return -1;
    }
    if (mkdirat(*jfd, JS_PROFILES_DIR_NAME, 0700) < 0 && errno != EEXIST) {
        fprintf(stderr, "jsgen: %s/profiles: %s\n", dname, strerror(errno));
        return -1;
    }
    /* profiles/ is the user's (the profiler writes there), or root's with the relay's bundles */
    long duid = p->chown_profiles && !p->bundle ? j->uid : -1;
    *pfd = openat(*jfd, JS_PROFILES_DIR_NAME, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (*pfd < 0 || fchmod(*pfd, 0700) < 0 || (duid >= 0 && fchown(*pfd, (uid_t)duid, (gid_t)j->gid) < 0)) {
        fprintf(stderr, "jsgen: %s/profiles: %s\n", dname, strerror(errno));
        return -1;
    }
    return 0;
}
