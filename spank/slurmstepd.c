/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen plugin in slurmstepd (remote context): everything that happens in a step.
 *
 *   init            (root)  start time; plugstack.conf arguments (a bad one disables the plugin
 *                           for this step)
 *   init_post_opt   (root)  decide whether to profile; the job's spool directory and, when
 *                           profiled, its directory in the record area; the tasks' environment
 *                           (LD_PRELOAD once, JOBSCREEN_*); the relay (relay.h) and its collector;
 *                           in the batch step, a first job record that holds the dependency while
 *                           the job is alive
 *   task_post_fork  (root)  pid of each task
 *   task_init       (user)  JOBSCREEN_TASK_ID of each task; fail_on_error=yes fails tasks here
 *   task_exit       (root)  exit status of each task
 *   exit            (root)  the relay stopped, the final collection (as the user), the last
 *                           bundles relayed; the step record; the job record (final at the end of
 *                           the batch step, provisional after the first step of a job without
 *                           batch script)
 * The step's state is js_stepd (stepd.h); the relay and the collectors are in stepd_collect.c.
 *
 * Every error is logged with "jobscreen:" and the step goes on; only fail_on_error=yes turns a
 * spool or profiler error into a failed step (its tasks exit 1 in task_init).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <slurm/spank.h>

#include "joblog.h"
#include "options.h"
#include "plugstack_conf.h"
#include "record_format.h"
#include "slurmstepd.h"
#include "stepd.h"

#define ENV_MAX 8192

/* js_stepd, the step's state, is stepd_state.c's */
#define st js_stepd

/* copy src into dst of size, cut when longer (names here are bounded before they get here) */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = src ? strnlen(src, size - 1) : 0;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

/* spank_getenv into buf; NULL when unset or too long */
static const char *job_getenv(spank_t sp, const char *name, char *buf, int size)
{
    if (spank_getenv(sp, name, buf, size) != ESPANK_SUCCESS)
        return NULL;
    return buf;
}

static void job_setenv(spank_t sp, const char *name, const char *value)
{
    if (spank_setenv(sp, name, value, 1) != ESPANK_SUCCESS)
        js_stepd_error("jobscreen: cannot set %s in the task environment", name);
}

/* The Slurm node name of this node: slurmd exports SLURMD_NODENAME to its steps. */
static void find_node_name(spank_t sp)
{
    char buf[256];
    const char *v = getenv("SLURMD_NODENAME");
    if (v == NULL || v[0] == '\0')
        v = job_getenv(sp, "SLURMD_NODENAME", buf, sizeof buf);
    if (v == NULL || v[0] == '\0') {
        if (gethostname(buf, sizeof buf) == 0) {
            buf[sizeof buf - 1] = '\0';
            buf[strcspn(buf, ".")] = '\0';
            v = buf;
        }
    }
    copy_str(st.node, sizeof st.node, v ? v : "unknown");
    /* a node name goes into file names */
    if (st.node[0] == '.' || strchr(st.node, '/'))
        snprintf(st.node, sizeof st.node, "unknown");
}

int js_stepd_init(spank_t sp, int ac, char **av)
{
    char err[512];
    st.start_ns = joblog_now_ns();
    if (spank_get_item(sp, S_JOB_STEPID, &st.step_id) != ESPANK_SUCCESS)
        return ESPANK_SUCCESS;
    /* the extern step holds no user program: nothing to screen or record */
    if (st.step_id == JS_STEP_ID_EXTERN)
        return ESPANK_SUCCESS;
    if (js_conf_parse(&st.conf, ac, av, err, sizeof err) < 0) {
        js_stepd_error("jobscreen: plugstack.conf: %s; jobscreen is disabled for this step", err);
        return ESPANK_SUCCESS;
    }
    st.enabled = 1;
    return ESPANK_SUCCESS;
}

/* The profiler is preloaded only when ld.so will take it: otherwise ld.so would print its
 * refusal into the job's stderr; the reason goes to the slurmd log instead. */
static int profiler_usable(const char *path)
{
    char why[160];
    if (path[0] == '\0')
        return 0;
    if (js_profiler_check(path, why, sizeof why) < 0) {
        js_stepd_error("jobscreen: profiler=%s: %s; the tasks run without the profiler", path, why);
        return 0;
    }
    return 1;
}

static void set_task_env(spank_t sp)
{
    char ld[ENV_MAX], out[ENV_MAX], val[PATH_MAX + 64], step[JS_STEP_NAME_MAX];
    const char *cur = job_getenv(sp, "LD_PRELOAD", ld, sizeof ld);
    if (st.profiled) {
        if (js_preload_add(cur, st.conf.profiler, out, sizeof out) < 0) {
            js_stepd_error("jobscreen: LD_PRELOAD too long to add %s; the tasks run without the profiler",
                        st.conf.profiler);
            st.profiled = 0;
            st.reason = "profiler missing";
        }
    }
    if (st.profiled) {
        job_setenv(sp, "LD_PRELOAD", out);
        js_stepd_records_dir(val, sizeof val, step, sizeof step);
        job_setenv(sp, "JOBSCREEN_PROFILE_DIR", val);
        snprintf(val, sizeof val, "%d", st.conf.slice_seconds);
        job_setenv(sp, "JOBSCREEN_SLICE_SECONDS", val);
        snprintf(val, sizeof val, "%" PRIu32, st.job_id);
        job_setenv(sp, "JOBSCREEN_JOB_ID", val);
        job_setenv(sp, "JOBSCREEN_STEP", step);
        job_setenv(sp, "JOBSCREEN_NODE", st.node);
        if (st.cluster[0])
            job_setenv(sp, "JOBSCREEN_CLUSTER", st.cluster);
        job_setenv(sp, "JOBSCREEN_VERSION", PACKAGE_VERSION);
    } else {
        /* inherited from a profiled batch step: take the profiler out again */
        if (cur && st.conf.profiler[0] && js_preload_has(cur, st.conf.profiler)) {
            if (js_preload_remove(cur, st.conf.profiler, out, sizeof out) == 0) {
                if (out[0])
                    job_setenv(sp, "LD_PRELOAD", out);
                else
                    spank_unsetenv(sp, "LD_PRELOAD");
            }
        }
        /* and what a profiled batch step handed down describes that step, not this one */
        static const char *const inherited[] = { "JOBSCREEN_PROFILE_DIR", "JOBSCREEN_SLICE_SECONDS",
                                                 "JOBSCREEN_JOB_ID", "JOBSCREEN_STEP", "JOBSCREEN_NODE",
                                                 "JOBSCREEN_CLUSTER", "JOBSCREEN_TASK_ID" };
        for (size_t i = 0; i < sizeof inherited / sizeof inherited[0]; i++)
            spank_unsetenv(sp, inherited[i]);
        job_setenv(sp, "JOBSCREEN_VERSION", PACKAGE_VERSION " off");
    }
    if (st.workflow[0])
        job_setenv(sp, "JOBSCREEN_WORKFLOW", st.workflow);
}

/* The workflow tag: --workflow, else the job's JOBSCREEN_WORKFLOW. */
static void find_workflow(spank_t sp)
{
    char buf[ENV_MAX];
    const char *v;
    if (js_opts.workflow[0])
        copy_str(st.workflow, sizeof st.workflow, js_opts.workflow);
    else if ((v = job_getenv(sp, JS_ENV_SBATCH_WORKFLOW, buf, sizeof buf)) && js_workflow_valid(v) == 0)
        copy_str(st.workflow, sizeof st.workflow, v);
    else if ((v = job_getenv(sp, "JOBSCREEN_WORKFLOW", buf, sizeof buf))) {
        if (js_workflow_valid(v) == 0)
            copy_str(st.workflow, sizeof st.workflow, v);
        else
            js_stepd_error("jobscreen: JOBSCREEN_WORKFLOW=%s: not a workflow name; ignored", v);
    }
}

/* The step's local tasks, by global rank; their pids and ends come later. */
static void list_tasks(spank_t sp)
{
    uint32_t n = 0;
    if (spank_get_item(sp, S_JOB_LOCAL_TASK_COUNT, &n) != ESPANK_SUCCESS || n == 0 ||
        (st.tasks = calloc(n, sizeof *st.tasks)) == NULL)
        return;
    st.ntasks = n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t gid = i;
        spank_get_item(sp, S_JOB_LOCAL_TO_GLOBAL_ID, i, &gid);
        st.tasks[i].task_id = gid;
        st.tasks[i].pid = JOBLOG_NULL;
        st.tasks[i].status = JOBLOG_NULL;
    }
}

static void write_job_record(spank_t sp, int final, int64_t batch_status);

int js_stepd_init_post_opt(spank_t sp)
{
    char buf[ENV_MAX], err[512];
    if (!st.enabled)
        return ESPANK_SUCCESS;
    if (spank_get_item(sp, S_JOB_ID, &st.job_id) != ESPANK_SUCCESS ||
        spank_get_item(sp, S_JOB_UID, &st.uid) != ESPANK_SUCCESS ||
        spank_get_item(sp, S_JOB_GID, &st.gid) != ESPANK_SUCCESS) {
        js_stepd_error("jobscreen: cannot read the job's ids; jobscreen is disabled for this step");
        st.enabled = 0;
        return ESPANK_SUCCESS;
    }
    find_node_name(sp);
    if (js_conf_expand_node(&st.conf, st.node, err, sizeof err) < 0) {
        js_stepd_error("jobscreen: plugstack.conf: %s; jobscreen is disabled for this step", err);
        st.enabled = 0;
        return ESPANK_SUCCESS;
    }
    const char *v = getenv("SLURM_CLUSTER_NAME");
    if (v == NULL)
        v = job_getenv(sp, "SLURM_CLUSTER_NAME", buf, sizeof buf);
    copy_str(st.cluster, sizeof st.cluster, v);

    find_workflow(sp);
    char *user = NULL;
    joblog_fill_names(st.uid, JOBLOG_NULL, &user, NULL);
    copy_str(st.user, sizeof st.user, user);
    free(user);

    int argc = 0;
    char **argv = NULL;
    if (spank_get_item(sp, S_JOB_ARGV, &argc, &argv) != ESPANK_SUCCESS)
        argc = 0;
    char partition[256], no_profile_env[64], sbatch_no_profile[64];
    struct js_decision_in in = {
        .conf = &st.conf,
        .special_step = 0,
        .opt_no_profile = js_opts.no_profile ||
                          job_getenv(sp, JS_ENV_SBATCH_NO_PROFILE, sbatch_no_profile, sizeof sbatch_no_profile) != NULL,
        .env_no_profile = job_getenv(sp, "JOBSCREEN_NO_PROFILE", no_profile_env, sizeof no_profile_env),
        .user = st.user,
        .uid = st.uid,
        .partition = job_getenv(sp, "SLURM_JOB_PARTITION", partition, sizeof partition),
        .exe = argc > 0 ? argv[0] : NULL,
        .profiler_usable = 0,
    };
    if (st.conf.profiler[0])
        in.profiler_usable = profiler_usable(st.conf.profiler);
    st.reason = js_decide(&in);
    st.profiled = strcmp(st.reason, "on") == 0;

    st.job_dir = joblog_spool_job_dir(st.conf.spool, st.job_id, st.profiled, err, sizeof err);
    if (st.job_dir < 0) {
        js_stepd_error("jobscreen: %s; job %" PRIu32 " runs without the profiler and without records",
                    err, st.job_id);
        if (st.profiled) {
            st.profiled = 0;
            st.reason = "spool error";
        }
        st.failed = st.conf.fail_on_error;
    }
    if (st.profiled) {
        st.rec_dir = joblog_record_job_dir(st.conf.record_dir, st.job_id, st.uid, st.gid, err, sizeof err);
        if (st.rec_dir < 0) {
            js_stepd_error("jobscreen: %s; job %" PRIu32 " runs without the profiler", err, st.job_id);
            st.profiled = 0;
            st.reason = "spool error";
            st.failed = st.conf.fail_on_error;
        }
    }
    if (st.conf.fail_on_error && st.conf.profiler[0] && !in.profiler_usable)
        st.failed = 1;

    set_task_env(sp);
    for (int i = 0; i < JS_GPU_ENV_VARS; i++)
        js_stepd_gpu_env(js_stepd_gpu_var(i), job_getenv(sp, js_stepd_gpu_var(i), buf, sizeof buf));
    js_stepd_quota_ledger();
    js_stepd_start_watcher();

    list_tasks(sp);
    /* the batch step writes the job record at once: the dependency is known now */
    if (st.step_id == JS_STEP_ID_BATCH && st.job_dir >= 0)
        write_job_record(sp, 0, JOBLOG_NULL);
    return ESPANK_SUCCESS;
}

int js_stepd_task_post_fork(spank_t sp)
{
    int local;
    pid_t pid;
    if (!st.enabled || st.tasks == NULL)
        return ESPANK_SUCCESS;
    if (spank_get_item(sp, S_TASK_ID, &local) == ESPANK_SUCCESS && local >= 0 && (uint32_t)local < st.ntasks &&
        spank_get_item(sp, S_TASK_PID, &pid) == ESPANK_SUCCESS) {
        st.tasks[local].pid = pid;
        /* the task was forked in the step's working directory (slurmstepd changes into it
         * before it forks the tasks); a task that changed directory since tells nothing */
        if (st.work_dir[0] == '\0') {
            char link[64];
            snprintf(link, sizeof link, "/proc/%ld/cwd", (long)pid);
            ssize_t n = readlink(link, st.work_dir, sizeof st.work_dir - 1);
            st.work_dir[n > 0 ? n : 0] = '\0';
        }
    }
    return ESPANK_SUCCESS;
}

/* fail_on_error=yes takes effect here: slurmstepd (22.05) logs but ignores a plugin's error in
 * every remote callback, even for a plugin listed `required`, so the task itself (this is its
 * process, just before exec) exits 1 instead of running. */
int js_stepd_task_init(spank_t sp)
{
    uint32_t gid;
    char val[24];
    if (st.enabled && st.failed) {
        slurm_error("jobscreen: fail_on_error=yes: job %" PRIu32 ": the task exits 1 instead of running", st.job_id);
        _exit(1);
    }
    if (!st.enabled || !st.profiled)
        return ESPANK_SUCCESS;
    if (spank_get_item(sp, S_TASK_GLOBAL_ID, &gid) == ESPANK_SUCCESS) {
        snprintf(val, sizeof val, "%" PRIu32, gid);
        job_setenv(sp, "JOBSCREEN_TASK_ID", val);
    }
    return ESPANK_SUCCESS;
}

int js_stepd_task_exit(spank_t sp)
{
    int local, status;
    if (!st.enabled || st.tasks == NULL)
        return ESPANK_SUCCESS;
    if (spank_get_item(sp, S_TASK_ID, &local) == ESPANK_SUCCESS && local >= 0 && (uint32_t)local < st.ntasks &&
        spank_get_item(sp, S_TASK_EXIT_STATUS, &status) == ESPANK_SUCCESS)
        st.tasks[local].status = status;
    return ESPANK_SUCCESS;
}

/* Fill what the step knows about itself (items and its environment). */
static void fill_step(spank_t sp, struct joblog_step *s, int64_t end_ns)
{
    char buf[ENV_MAX];
    uint32_t u32;
    uint16_t u16;
    s->job_id = st.job_id;
    s->step_id = st.step_id;
    joblog_set_string(&s->cluster, st.cluster[0] ? st.cluster : NULL, &s->truncated);
    /* Slurm reports the job's own id and task NO_VAL (0xfffffffe) for a job outside an array */
    uint32_t task_id;
    if (spank_get_item(sp, S_JOB_ARRAY_ID, &u32) == ESPANK_SUCCESS && u32 != 0 &&
        spank_get_item(sp, S_JOB_ARRAY_TASK_ID, &task_id) == ESPANK_SUCCESS && task_id < 0xfffffffeU) {
        s->array_job_id = u32;
        s->array_task_id = task_id;
    }
    joblog_set_string(&s->node, st.node, &s->truncated);
    if (spank_get_item(sp, S_JOB_NODEID, &u32) == ESPANK_SUCCESS)
        s->node_index = u32;
    if (spank_get_item(sp, S_JOB_NNODES, &u32) == ESPANK_SUCCESS)
        s->nodes = u32;
    const char *nl = job_getenv(sp, "SLURM_STEP_NODELIST", buf, sizeof buf);
    if (nl == NULL)
        nl = job_getenv(sp, "SLURM_JOB_NODELIST", buf, sizeof buf);
    joblog_set_string(&s->node_list, nl, &s->truncated);
    if (spank_get_item(sp, S_JOB_NCPUS, &u16) == ESPANK_SUCCESS)
        s->cpus = u16;
    if (spank_get_item(sp, S_JOB_TOTAL_TASK_COUNT, &u32) == ESPANK_SUCCESS)
        s->tasks = u32;
    if (spank_get_item(sp, S_JOB_LOCAL_TASK_COUNT, &u32) == ESPANK_SUCCESS)
        s->local_tasks = u32;
    /* the batch step is one task (the script) on one node, whatever the items say */
    if (st.step_id == JS_STEP_ID_BATCH) {
        s->nodes = 1;
        s->tasks = 1;
        s->local_tasks = 1;
        s->node_list = (free(s->node_list), NULL);
        joblog_set_string(&s->node_list, st.node, &s->truncated);
    }
    s->uid = st.uid;
    s->gid = st.gid;
    joblog_set_string(&s->user, st.user[0] ? st.user : NULL, &s->truncated);
    s->start_ns = st.start_ns;
    s->end_ns = end_ns;
    int argc = 0;
    char **argv = NULL;
    if (spank_get_item(sp, S_JOB_ARGV, &argc, &argv) == ESPANK_SUCCESS && argc > 0 && argv) {
        if (argc > JS_RECORD_MAX_ARGV) {
            argc = JS_RECORD_MAX_ARGV;
            s->truncated = 1;
        }
        s->argv = calloc((size_t)argc + 1, sizeof *s->argv);
        for (int i = 0; s->argv && i < argc; i++)
            joblog_set_string(&s->argv[i], argv[i] ? argv[i] : "", &s->truncated);
    }
    joblog_set_string(&s->work_dir, st.work_dir[0] ? st.work_dir : job_getenv(sp, "PWD", buf, sizeof buf),
                      &s->truncated);
    s->task_list = st.tasks;
    s->ntasks = st.ntasks;
    s->profiled = st.profiled;
    s->profile_reason = st.reason;
    if (st.profiled) {
        joblog_set_string(&s->profiler, st.conf.profiler, NULL);
        joblog_set_string(&s->profiler_version, PACKAGE_VERSION, NULL);
    }
    s->slice_seconds = st.conf.slice_seconds;
    joblog_set_string(&s->workflow, st.workflow[0] ? st.workflow : NULL, NULL);
}

static void write_job_record(spank_t sp, int final, int64_t batch_status)
{
    char err[512], buf[ENV_MAX];
    int finished = 0;
    struct joblog_job job;
    joblog_job_init(&job);
    job.source = "plugin";
    job.uid = st.uid;
    job.gid = st.gid;
    if (st.cluster[0])
        joblog_set_string(&job.cluster, st.cluster, NULL);
    if (st.workflow[0])
        joblog_set_string(&job.workflow, st.workflow, NULL);
    /* the dependency as the job was submitted with it: slurmctld forgets it once fulfilled */
    joblog_set_string(&job.dependency, job_getenv(sp, "SLURM_JOB_DEPENDENCY", buf, sizeof buf), &job.truncated);
    /* which command submitted it (the plugin in sbatch/srun set it): time edges join only the
     * jobs of one submitting command (docs/dependencies.md); the user's to say, not trusted */
    const char *sub = job_getenv(sp, JS_ENV_SUBMITTER, buf, sizeof buf);
    if (sub && js_submitter_valid(sub) == 0)
        joblog_set_string(&job.submitter, sub, NULL);
    if (joblog_job_merge_previous(st.job_dir, &job, err, sizeof err) < 0)
        js_stepd_error("jobscreen: job %" PRIu32 ": previous job record ignored: %s", st.job_id, err);
    /* a step of a batch job leaves the job record to the batch step (and costs no RPC) */
    if (st.step_id != JS_STEP_ID_BATCH && job.batch)
        goto out;
    if (joblog_job_from_slurm(st.job_id, &job, &finished, err, sizeof err) < 0) {
        js_stepd_error("jobscreen: job %" PRIu32 ": %s; the job record holds what the step knows", st.job_id, err);
        job.job_id = st.job_id;
        job.batch = st.step_id == JS_STEP_ID_BATCH;
    }
    if (st.step_id != JS_STEP_ID_BATCH && job.batch)
        goto out;
    joblog_fill_names(job.uid, job.gid, &job.user, &job.group);
    free(job.state);
    job.state = NULL;
    job.final = final;
    if (final) {
        job.end_ns = joblog_now_ns();
        joblog_status_split(batch_status, &job.exit_code, &job.signal);
        joblog_set_string(&job.state,
                          job.signal != JOBLOG_NULL && job.signal > 0 ? "CANCELLED"
                          : job.exit_code == JOBLOG_NULL              ? "FAILED"
                          : job.exit_code != 0                        ? "FAILED" : "COMPLETED",
                          NULL);
    } else {
        job.end_ns = JOBLOG_NULL;
        job.exit_code = job.signal = JOBLOG_NULL;
        joblog_set_string(&job.state, "RUNNING", NULL);
    }
    json_t *rec = joblog_job_to_json(&job, joblog_now_ns());
    if (rec == NULL)
        js_stepd_error("jobscreen: job %" PRIu32 ": cannot build the job record (out of memory)", st.job_id);
    else if (joblog_write_record(st.job_dir, JS_JOB_RECORD_NAME, rec, err, sizeof err) < 0)
        js_stepd_error("jobscreen: %s/job.%" PRIu32 ": %s", st.conf.spool, st.job_id, err);
    json_decref(rec);
out:
    joblog_job_free(&job);
}

int js_stepd_exit(spank_t sp)
{
    char err[512], name[512];
    if (!st.enabled || st.job_dir < 0)
        goto done;
    int64_t end_ns = joblog_now_ns();
    js_stepd_stop_watcher();
    js_stepd_collect_records(end_ns);
    struct joblog_step s;
    joblog_step_init(&s);
    fill_step(sp, &s, end_ns);
    js_stepd_relay_last(&s);
    json_t *rec = joblog_step_to_json(&s, joblog_now_ns());
    js_stepd_gpu_attach(rec);
    if (js_step_record_name(name, sizeof name, st.step_id, st.node) < 0)
        js_stepd_error("jobscreen: node name %s cannot name a step record", st.node);
    else if (rec == NULL)
        js_stepd_error("jobscreen: job %" PRIu32 ": cannot build the step record (out of memory)", st.job_id);
    else if (joblog_write_record(st.job_dir, name, rec, err, sizeof err) < 0)
        js_stepd_error("jobscreen: %s/job.%" PRIu32 ": %s", st.conf.spool, st.job_id, err);
    json_decref(rec);
    s.task_list = NULL; /* st.tasks, freed below */
    s.ntasks = 0;
    joblog_step_free(&s);

    /* The batch step owns the job record of a batch job.  A job without batch script (srun,
     * salloc) gets a provisional one from the first of its steps to end: what Slurm tells about
     * it does not change while it runs, and an allocation running thousands of steps should
     * not cost slurmctld thousands of RPCs.  A step of a batch job finds the batch step's record
     * there and writes nothing. */
    struct stat sb;
    if (st.step_id == JS_STEP_ID_BATCH)
        write_job_record(sp, 1, st.ntasks > 0 ? st.tasks[0].status : JOBLOG_NULL);
    else if (fstatat(st.job_dir, JS_JOB_RECORD_NAME, &sb, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
        write_job_record(sp, 0, JOBLOG_NULL);
done:
    if (st.job_dir >= 0)
        close(st.job_dir);
    st.job_dir = -1;
    if (st.rec_dir >= 0)
        close(st.rec_dir);
    st.rec_dir = -1;
    free(st.tasks);
    st.tasks = NULL;
    st.ntasks = 0;
    return ESPANK_SUCCESS;
}
