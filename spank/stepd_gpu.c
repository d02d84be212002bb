/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobscreen plugin in slurmstepd: the step's GPUs and CPU energy (docs/gpu.md, "The relay
 * samples"). The relay (root, a child of slurmstepd) reads the step's GPUs through NVML and
 * the node's powercap zones once a pass, slices them (gpu/), and at its end writes what it
 * found, as root, to SPOOL/job.N/.gpu.<step>.<node>; the plugin then puts it into the step
 * record as its "gpu" member (record-format.md): root's readings stay root's, trusted as the
 * record is, and travel with it. A step that asked for no GPU on a node without powercap
 * costs nothing (no dlopen), and its record has no "gpu" member, as before.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <slurm/spank.h>

#include "gpu_procs.h"
#include "gpu_record.h"
#include "jsgpu.h"
#include "record_format.h"
#include "stepd.h"

#define st js_stepd
#define JS_GPU_TIMEOUT_MS 1000 /* the longest one NVML call may hold the relay */

static const char *const gpu_vars[JS_GPU_ENV_VARS] = { "SLURM_STEP_GPUS", "SLURM_JOB_GPUS", "CUDA_VISIBLE_DEVICES" };

static struct {
    int on;
    struct jsg_gpus *g;
    struct jsg_powercap pc;
    struct jsg_slicer sl;
    struct jsg_tick tick;
    struct jsg_record *rec;
    char cpu_stat[PATH_MAX + 64]; /* the step's cgroup's cpu.stat; "" when not found */
    char step_cg[PATH_MAX + 8];   /* the step's cgroup (v2) as /proc/PID/cgroup names it; "" */
    pid_t self, stepd;            /* the relay, and the step's slurmstepd (its parent) */
    int64_t prev_step, prev_busy, prev_t;
    int have_prev;
} gs;

void js_stepd_gpu_env(const char *name, const char *value)
{
    for (int i = 0; i < JS_GPU_ENV_VARS; i++)
        if (strcmp(name, gpu_vars[i]) == 0 && value != NULL && value[0] != '\0' &&
            strlen(value) < sizeof st.gpu_env[i])
            snprintf(st.gpu_env[i], sizeof st.gpu_env[i], "%s", value);
}

const char *js_stepd_gpu_var(int i)
{
    return i >= 0 && i < JS_GPU_ENV_VARS ? gpu_vars[i] : NULL;
}

static const char *env_lookup(const char *name, void *arg)
{
    (void)arg;
    for (int i = 0; i < JS_GPU_ENV_VARS; i++)
        if (strcmp(name, gpu_vars[i]) == 0 && st.gpu_env[i][0])
            return st.gpu_env[i];
    return NULL;
}

/* The step's cgroup (v2): the relay lives where slurmstepd does (jsg_step_cgroup). Its
 * cpu.stat's usage_usec is the step's CPU time, root's to read. */
static void find_cgroup(void)
{
    gs.cpu_stat[0] = '\0';
    if (jsg_step_cgroup(getpid(), gs.step_cg, sizeof gs.step_cg) == 1)
        snprintf(gs.cpu_stat, sizeof gs.cpu_stat, "/sys/fs/cgroup%s/cpu.stat", gs.step_cg);
}

static int64_t step_cpu_ns(void)
{
    char line[128];
    long long usec = -1;
    FILE *f = gs.cpu_stat[0] ? fopen(gs.cpu_stat, "re") : NULL;
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "usage_usec %lld", &usec) == 1)
            break;
    fclose(f);
    return usec < 0 ? -1 : usec * 1000;
}

/* the node's busy CPU time (/proc/stat: user, nice, system, irq, softirq, steal), ns */
static int64_t node_busy_ns(void)
{
    unsigned long long v[8] = { 0 };
    FILE *f = fopen("/proc/stat", "re");
    if (f == NULL)
        return -1;
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                   &v[7]);
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    if (n < 8 || hz <= 0)
        return -1;
    return (int64_t)((v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) * (1000000000ULL / (unsigned long long)hz));
}

/* Is a process NVML lists on the step's GPUs the step's (docs/gpu.md, "Per process")? In the
 * step's cgroup (v2) where the relay found one: all the step's processes, daemonised or not.
 * Else a descendant of the step's slurmstepd (the relay's parent) not through the relay, as
 * proctrack/linuxproc tracks a step. Another job's process sharing the GPU is neither (0); one
 * that ended since NVML listed it cannot be told (-1). */
static int is_step_pid(uint32_t pid, void *arg)
{
    (void)arg;
    if (gs.step_cg[0])
        return jsg_in_cgroup((pid_t)pid, gs.step_cg);
    return jsg_descends((pid_t)pid, gs.stepd, gs.self);
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void js_stepd_gpu_tick(void)
{
    if (!gs.on)
        return;
    int64_t t = now_ns();
    jsg_read(gs.g, t, &gs.tick); /* sets t_ns; no devices: says nothing of GPUs */
    jsg_record_filter_procs(gs.rec, &gs.tick, is_step_pid, NULL);
    jsg_powercap_read(&gs.pc, &gs.tick);
    if (gs.pc.nzone > 0) {
        int64_t step = step_cpu_ns(), busy = node_busy_ns();
        if (gs.have_prev && busy >= 0)
            jsg_record_cpu(gs.rec, gs.prev_t, t, step >= 0 && gs.prev_step >= 0 ? step - gs.prev_step : -1,
                           busy - gs.prev_busy);
        gs.prev_step = step;
        gs.prev_busy = busy;
        gs.prev_t = t;
        gs.have_prev = busy >= 0;
    }
    jsg_slicer_add(&gs.sl, &gs.tick, jsg_record_slice, gs.rec);
}

void js_stepd_gpu_start(void)
{
    const char *source = "none";
    char selection[JS_GPU_ENV_MAX + 64];
    int asked = 0;
    for (int i = 0; i < JS_GPU_ENV_VARS; i++)
        asked |= st.gpu_env[i][0] != '\0';
    /* no GPU asked for: no dlopen at all */
    if (asked && strcmp(st.conf.nvml, "none") != 0) {
        gs.g = jsg_open(st.conf.nvml, JS_GPU_TIMEOUT_MS);
        jsg_select_env(gs.g, env_lookup, NULL, &source);
    }
    if (strcmp(st.conf.powercap, "none") != 0)
        jsg_powercap_open(&gs.pc, st.conf.powercap);
    else
        snprintf(gs.pc.status, sizeof gs.pc.status, "no CPU energy: powercap=none");
    if (!asked && gs.pc.nzone == 0)
        return;
    const char *v = env_lookup(source, NULL);
    snprintf(selection, sizeof selection, "%s%s%s", source, v ? "=" : "", v ? v : "");
    gs.rec = jsg_record_new(gs.g, &gs.pc, st.conf.slice_seconds, selection, 0);
    if (gs.rec == NULL)
        return;
    jsg_slicer_init(&gs.sl, st.conf.slice_seconds);
    gs.self = getpid();
    gs.stepd = getppid();
    find_cgroup();
    if (!gs.cpu_stat[0])
        jsg_record_cpu_note(gs.rec, "no cgroup v2 of the step (.../step_N): the step's share is not known");
    gs.on = 1;
    js_stepd_gpu_tick();
}

static void gpu_file_name(char *name, size_t size)
{
    char step[JS_STEP_NAME_MAX];
    js_step_name(st.step_id, step, sizeof step);
    snprintf(name, size, ".gpu.%s.%s", step, st.node);
}

void js_stepd_gpu_finish(void)
{
    char name[300], tmp[340];
    if (!gs.on || st.job_dir < 0)
        return;
    js_stepd_gpu_tick();
    jsg_slicer_flush(&gs.sl, jsg_record_slice, gs.rec);
    gpu_file_name(name, sizeof name);
    snprintf(tmp, sizeof tmp, "%s.tmp", name);
    int fd = openat(st.job_dir, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f == NULL || jsg_record_write(gs.rec, gs.g, f) != 0 || fclose(f) != 0 ||
        renameat(st.job_dir, tmp, st.job_dir, name) != 0) {
        js_stepd_error("jobscreen: job %" PRIu32 ": %s/job.%" PRIu32 "/%s: %m; the step's GPU readings are lost",
                    st.job_id, st.conf.spool, st.job_id, name);
        unlinkat(st.job_dir, tmp, 0);
    }
    gs.on = 0; /* the relay exits next: the sampler's thread and library go with it */
}

/* A record too large for a reader (JS_RECORD_MAX_FILE_BYTES) loses the series, and says so. */
static void fit(json_t *rec, json_t *gpu)
{
    size_t len = json_dumpb(rec, NULL, 0, JSON_COMPACT);
    if (len <= JS_RECORD_MAX_FILE_BYTES - 4096)
        return;
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(gpu, "gpus"), i, d)
        json_object_del(d, "series");
    json_object_del(json_object_get(gpu, "cpu"), "series");
    json_object_set_new(gpu, "series_dropped", json_object_get(gpu, "slices") ? json_deep_copy(json_object_get(gpu, "slices")) : json_integer(0));
    json_object_set_new(gpu, "series_note", json_string("the series did not fit in the step record beside its other fields"));
}

/* The step asked for GPUs and its relay wrote no readings (it was killed, or could not write
 * them): the record says so rather than nothing (the ingest notes it). */
static void lost(json_t *rec)
{
    char selection[JS_GPU_ENV_MAX + 64] = "";
    for (int i = 0; i < JS_GPU_ENV_VARS && !selection[0]; i++)
        if (st.gpu_env[i][0])
            snprintf(selection, sizeof selection, "%s=%s", gpu_vars[i], st.gpu_env[i]);
    if (!selection[0] || !st.profiled || !strcmp(st.conf.nvml, "none"))
        return;
    json_object_set_new(rec, "gpu", json_pack("{s:i, s:i, s:s, s:s, s:i, s:b, s:i, s:i, s:i, s:[]}", "version",
                                              JSG_RECORD_VERSION, "slice_seconds", st.conf.slice_seconds, "nvml",
                                              "no readings: the relay ended before it wrote them", "selection", selection,
                                              "unknown", 0, "stuck", 0, "first_slice", 0, "slices", 0, "series_dropped", 0,
                                              "gpus"));
}

void js_stepd_gpu_attach(json_t *rec)
{
    char name[300];
    struct stat sb;
    if (rec == NULL || st.job_dir < 0)
        return;
    gpu_file_name(name, sizeof name);
    int fd = openat(st.job_dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        lost(rec); /* no GPU asked for, no powercap: nothing, as before */
        return;
    }
    json_error_t jerr;
    json_t *gpu = NULL;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == 0 && sb.st_size <= JS_RECORD_MAX_FILE_BYTES)
        gpu = json_loadfd(fd, JSON_REJECT_DUPLICATES, &jerr);
    if (json_is_object(gpu)) {
        json_object_set_new(rec, "gpu", gpu);
        fit(rec, gpu);
    } else {
        js_stepd_error("jobscreen: job %" PRIu32 ": %s/job.%" PRIu32 "/%s: not the relay's GPU readings; left out of the step record",
                    st.job_id, st.conf.spool, st.job_id, name);
        json_decref(gpu);
    }
    close(fd);
    unlinkat(st.job_dir, name, 0);
}
