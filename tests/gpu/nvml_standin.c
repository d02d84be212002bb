/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A scripted NVML: a shared library exporting the entry points the sampler uses (gpu/), whose
 * devices, values and faults come from the file named by JS_NVML_STANDIN, read at each
 * nvmlInit_v2. Lines (docs/gpu.md, "The stand-in"):
 *
 *   init fail=9                    nvmlInit_v2 returns 9 (Driver Not Loaded)
 *   gpu uuid=GPU-1 name=H200 minor=0 mem_total=1000 mem_used=10,20 mem_reserved=5
 *       util_sm=50 util_mem=10 power=100000 energy=1000+400 fail_after=6 fail_code=15
 *       hang_after=3 hang_ms=5000 mig=1 mem_v2=no
 *   mig uuid=MIG-1 name=1g.18gb mem_total=100 mem_used=5   (a MIG instance of the last gpu)
 *   proc pid=42 mem=64 sm=30 memutil=5                     (a process of the last gpu or mig)
 *   proc pidfile=/path mem=64 sm=30        (its pid read from the file at each call; listed
 *                                           only while the file holds one: a test's process)
 *   proc pid=43 mem=8 list=graphics          (the list that names it: compute (the default),
 *                                           graphics, or mps (an MPS server's clients))
 *
 * A value is a list "a,b,c" (one a call, the last repeated) or a ramp "a+b" (a, a+b, a+2b ...),
 * each field counted apart per device; "none": the device does not support it. fail_after=N:
 * every call on the device after its Nth returns fail_code (default 15, GPU is lost);
 * hang_after=N: every call after its Nth sleeps hang_ms first.
 */
#include "nvml_decl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define API __attribute__((visibility("default")))
#define MAXV 64
#define MAXDEV 32
#define MAXPROC 64

struct seq {
    int none, n, ramp;
    unsigned long long v[MAXV], step;
    unsigned long calls;
};

struct proc {
    unsigned int pid;
    char pidfile[256];
    unsigned long long mem;
    unsigned int sm, memutil;
    char list; /* 'c'ompute, 'g'raphics, 'm'ps */
};

struct sdev {
    char uuid[96], name[96];
    int minor, mig_mode, mem_v2_no;
    struct seq mem_total, mem_used, mem_reserved, util_sm, util_mem, power, energy;
    unsigned long calls, fail_after, hang_after, hang_ms, util_calls;
    int fail_code;
    struct proc proc[MAXPROC];
    int nproc;
    struct sdev *parent;
    struct sdev *mig[8];
    int nmig;
};

static struct sdev devs[MAXDEV];
static int ndevs, ngpus;
static struct sdev *gpus[MAXDEV];
static int init_fail;

static unsigned long long next_value(struct seq *s)
{
    unsigned long k = s->calls++;
    if (s->ramp)
        return s->v[0] + s->step * k;
    if (s->n == 0)
        return 0;
    return s->v[k < (unsigned long)s->n ? k : (unsigned long)s->n - 1];
}

static int parse_seq(struct seq *s, const char *v)
{
    memset(s, 0, sizeof(*s));
    if (strcmp(v, "none") == 0) {
        s->none = 1;
        return 0;
    }
    char *end;
    const char *plus = strchr(v, '+');
    if (plus != NULL) {
        s->ramp = 1;
        s->v[0] = strtoull(v, &end, 10);
        s->step = strtoull(plus + 1, &end, 10);
        return *end == '\0' ? 0 : -1;
    }
    while (*v != '\0' && s->n < MAXV) {
        s->v[s->n++] = strtoull(v, &end, 10);
        if (end == v || (*end != ',' && *end != '\0'))
            return -1;
        v = *end == ',' ? end + 1 : end;
    }
    return 0;
}

static int set_dev(struct sdev *d, const char *k, const char *v)
{
    struct {
        const char *name;
        struct seq *s;
    } seqs[] = {{"mem_total", &d->mem_total}, {"mem_used", &d->mem_used},
                {"mem_reserved", &d->mem_reserved}, {"util_sm", &d->util_sm},
                {"util_mem", &d->util_mem}, {"power", &d->power}, {"energy", &d->energy}};
    for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++)
        if (strcmp(k, seqs[i].name) == 0)
            return parse_seq(seqs[i].s, v);
    if (strcmp(k, "uuid") == 0)
        snprintf(d->uuid, sizeof(d->uuid), "%s", v);
    else if (strcmp(k, "name") == 0)
        snprintf(d->name, sizeof(d->name), "%s", v);
    else if (strcmp(k, "minor") == 0)
        d->minor = atoi(v);
    else if (strcmp(k, "mig") == 0)
        d->mig_mode = atoi(v);
    else if (strcmp(k, "mem_v2") == 0)
        d->mem_v2_no = strcmp(v, "no") == 0;
    else if (strcmp(k, "fail_after") == 0)
        d->fail_after = strtoul(v, NULL, 10);
    else if (strcmp(k, "fail_code") == 0)
        d->fail_code = atoi(v);
    else if (strcmp(k, "hang_after") == 0)
        d->hang_after = strtoul(v, NULL, 10);
    else if (strcmp(k, "hang_ms") == 0)
        d->hang_ms = strtoul(v, NULL, 10);
    else
        return -1;
    return 0;
}

static int set_proc(struct proc *p, const char *k, const char *v)
{
    unsigned long long x = strtoull(v, NULL, 10);
    if (strcmp(k, "pid") == 0)
        p->pid = (unsigned int)x;
    else if (strcmp(k, "pidfile") == 0)
        snprintf(p->pidfile, sizeof(p->pidfile), "%s", v);
    else if (strcmp(k, "mem") == 0)
        p->mem = x;
    else if (strcmp(k, "sm") == 0)
        p->sm = (unsigned int)x;
    else if (strcmp(k, "memutil") == 0)
        p->memutil = (unsigned int)x;
    else if (strcmp(k, "list") == 0 && (!strcmp(v, "compute") || !strcmp(v, "graphics") || !strcmp(v, "mps")))
        p->list = v[0];
    else
        return -1;
    return 0;
}

/* one line: its kind, then key=value words */
static int parse_line(char *line, struct sdev **last)
{
    char *save = NULL, *kind = strtok_r(line, " \t\n", &save);
    if (kind == NULL || kind[0] == '#')
        return 0;
    struct sdev *d = NULL;
    struct proc *p = NULL;
    if (strcmp(kind, "gpu") == 0 || strcmp(kind, "mig") == 0) {
        if (ndevs >= MAXDEV)
            return -1;
        d = &devs[ndevs++];
        memset(d, 0, sizeof(*d));
        d->minor = -1;
        d->fail_code = NVML_ERROR_GPU_IS_LOST;
        snprintf(d->name, sizeof(d->name), "stand-in");
        if (kind[0] == 'g') {
            d->minor = ngpus;
            gpus[ngpus++] = d;
        } else {
            struct sdev *g = *last;
            while (g != NULL && g->parent != NULL)
                g = g->parent;
            if (g == NULL || g->nmig >= 8)
                return -1;
            d->parent = g;
            g->mig[g->nmig++] = d;
            d->util_sm.none = d->util_mem.none = d->power.none = d->energy.none = 1;
        }
        *last = d;
    } else if (strcmp(kind, "proc") == 0) {
        if (*last == NULL || (*last)->nproc >= MAXPROC)
            return -1;
        p = &(*last)->proc[(*last)->nproc++];
        memset(p, 0, sizeof(*p));
        p->list = 'c';
    } else if (strcmp(kind, "init") != 0) {
        return -1;
    }
    for (char *w; (w = strtok_r(NULL, " \t\n", &save)) != NULL;) {
        char *eq = strchr(w, '=');
        if (eq == NULL)
            return -1;
        *eq = '\0';
        int rc = d != NULL   ? set_dev(d, w, eq + 1)
                 : p != NULL ? set_proc(p, w, eq + 1)
                 : strcmp(w, "fail") == 0 ? (init_fail = atoi(eq + 1), 0)
                                          : -1;
        if (rc != 0)
            return -1;
    }
    return 0;
}

static int load(void)
{
    ndevs = ngpus = 0;
    init_fail = 0;
    const char *path = getenv("JS_NVML_STANDIN");
    FILE *f = path != NULL ? fopen(path, "r") : NULL;
    if (f == NULL)
        return NVML_ERROR_DRIVER_NOT_LOADED;
    char line[1024];
    int n = 0;
    struct sdev *last = NULL;
    while (fgets(line, sizeof(line), f) != NULL) {
        n++;
        if (parse_line(line, &last) != 0) {
            fprintf(stderr, "nvml stand-in: %s:%d: not understood\n", path, n);
            fclose(f);
            return NVML_ERROR_UNKNOWN;
        }
    }
    fclose(f);
    return init_fail;
}

/* every call on a device: counted, then the scripted faults */
static int enter(nvmlDevice_t h)
{
    struct sdev *d = (struct sdev *)h;
    if (d == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    d->calls++;
    if (d->hang_after > 0 && d->calls > d->hang_after) {
        struct timespec ts = {(time_t)(d->hang_ms / 1000), (long)(d->hang_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    if (d->fail_after > 0 && d->calls > d->fail_after)
        return d->fail_code;
    return NVML_SUCCESS;
}

#define ENTER(h)                                                                               \
    do {                                                                                       \
        int rc_ = enter(h);                                                                    \
        if (rc_ != NVML_SUCCESS)                                                               \
            return rc_;                                                                        \
    } while (0)

API nvmlReturn_t nvmlInit_v2(void)
{
    return load();
}

API nvmlReturn_t nvmlShutdown(void)
{
    return NVML_SUCCESS;
}

API const char *nvmlErrorString(nvmlReturn_t rc)
{
    switch (rc) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
    default: return "Unknown Error";
    }
}

API nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n)
{
    *n = (unsigned int)ngpus;
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t *h)
{
    if (i >= (unsigned int)ngpus)
        return NVML_ERROR_INVALID_ARGUMENT;
    *h = (nvmlDevice_t)gpus[i];
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t h, char *buf, unsigned int len)
{
    ENTER(h);
    snprintf(buf, len, "%s", ((struct sdev *)h)->uuid);
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t h, char *buf, unsigned int len)
{
    ENTER(h);
    snprintf(buf, len, "%s", ((struct sdev *)h)->name);
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t h, unsigned int *minor)
{
    ENTER(h);
    struct sdev *d = (struct sdev *)h;
    if (d->minor < 0)
        return NVML_ERROR_NOT_SUPPORTED;
    *minor = (unsigned int)d->minor;
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t h, nvmlMemory_t *m)
{
    ENTER(h);
    struct sdev *d = (struct sdev *)h;
    if (d->mem_used.none)
        return NVML_ERROR_NOT_SUPPORTED;
    m->total = next_value(&d->mem_total);
    /* v1 counts the driver's reserve as used */
    m->used = next_value(&d->mem_used) + next_value(&d->mem_reserved);
    m->free = m->total > m->used ? m->total - m->used : 0;
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t h, nvmlMemory_v2_t *m)
{
    ENTER(h);
    struct sdev *d = (struct sdev *)h;
    if (d->mem_v2_no)
        return NVML_ERROR_FUNCTION_NOT_FOUND;
    if (m->version != JS_NVML_MEMORY_V2_VERSION)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (d->mem_used.none)
        return NVML_ERROR_NOT_SUPPORTED;
    m->total = next_value(&d->mem_total);
    m->used = next_value(&d->mem_used);
    m->reserved = next_value(&d->mem_reserved);
    m->free = m->total > m->used + m->reserved ? m->total - m->used - m->reserved : 0;
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t h, nvmlUtilization_t *u)
{
    ENTER(h);
    struct sdev *d = (struct sdev *)h;
    if (d->util_sm.none)
        return NVML_ERROR_NOT_SUPPORTED;
    u->gpu = (unsigned int)next_value(&d->util_sm);
    u->memory = (unsigned int)next_value(&d->util_mem);
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t h, unsigned int *mw)
{
    ENTER(h);
    struct sdev *d = (struct sdev *)h;
    if (d->power.none)
        return NVML_ERROR_NOT_SUPPORTED;
    *mw = (unsigned int)next_value(&d->power);
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t h, unsigned long long *mj)
{
    ENTER(h);
    struct sdev *d = (struct sdev *)h;
    if (d->energy.none)
        return NVML_ERROR_NOT_SUPPORTED;
    *mj = next_value(&d->energy);
    return NVML_SUCCESS;
}

/* the pids of d's processes now (0: a pidfile that holds none yet, not listed); how many */
static int present(const struct sdev *d, unsigned int *pid)
{
    int np = 0;
    for (int i = 0; i < d->nproc; i++) {
        pid[i] = d->proc[i].pid;
        if (d->proc[i].pidfile[0]) {
            FILE *f = fopen(d->proc[i].pidfile, "r");
            if (f == NULL || fscanf(f, "%u", &pid[i]) != 1)
                pid[i] = 0;
            if (f)
                fclose(f);
        }
        np += pid[i] != 0;
    }
    return np;
}

/* the processes of one list ('c', 'g', 'm') */
static nvmlReturn_t list_procs(nvmlDevice_t h, unsigned int *n, nvmlProcessInfo_t *info, char list)
{
    struct sdev *d = (struct sdev *)h;
    unsigned int pid[MAXPROC];
    present(d, pid);
    unsigned int np = 0;
    for (int i = 0; i < d->nproc; i++)
        np += pid[i] != 0 && d->proc[i].list == list;
    if (*n < np) {
        *n = np;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    for (int i = 0, k = 0; i < d->nproc; i++)
        if (pid[i] && d->proc[i].list == list)
            info[k++] = (nvmlProcessInfo_t){pid[i], d->proc[i].mem, 0, 0};
    *n = np;
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t h, unsigned int *n,
                                                         nvmlProcessInfo_t *info)
{
    ENTER(h);
    return list_procs(h, n, info, 'c');
}

/* the graphics and MPS lists fail as the device does, but are not counted as calls, so that
 * a script's fail_after and hang_after mean what they meant before the sampler asked them */
static nvmlReturn_t uncounted_list(nvmlDevice_t h, unsigned int *n, nvmlProcessInfo_t *info, char list)
{
    struct sdev *d = (struct sdev *)h;
    if (d == NULL)
        return NVML_ERROR_INVALID_ARGUMENT;
    if (d->fail_after > 0 && d->calls > d->fail_after)
        return d->fail_code;
    return list_procs(h, n, info, list);
}

API nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t h, unsigned int *n,
                                                          nvmlProcessInfo_t *info)
{
    return uncounted_list(h, n, info, 'g');
}

API nvmlReturn_t nvmlDeviceGetMPSComputeRunningProcesses_v3(nvmlDevice_t h, unsigned int *n,
                                                            nvmlProcessInfo_t *info)
{
    return uncounted_list(h, n, info, 'm');
}

API nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t h,
                                                 nvmlProcessUtilizationSample_t *s,
                                                 unsigned int *n, unsigned long long seen)
{
    ENTER(h);
    struct sdev *d = (struct sdev *)h;
    if (d->parent != NULL)
        return NVML_ERROR_NOT_SUPPORTED; /* as on a real MIG instance */
    /* one sample a process and call, stamped later than any before it */
    unsigned long long ts = (++d->util_calls) * 1000000ULL;
    unsigned int pid[MAXPROC];
    int np = present(d, pid);
    if (np == 0 || ts <= seen)
        return NVML_ERROR_NOT_FOUND;
    if (s == NULL || *n < (unsigned int)np) {
        *n = (unsigned int)np;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    for (int i = 0, k = 0; i < d->nproc; i++)
        if (pid[i])
            s[k++] = (nvmlProcessUtilizationSample_t){pid[i], ts, d->proc[i].sm, d->proc[i].memutil, 0, 0};
    *n = (unsigned int)np;
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t h, unsigned int *cur, unsigned int *pending)
{
    ENTER(h);
    struct sdev *d = (struct sdev *)h;
    *cur = *pending = (unsigned int)d->mig_mode;
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t h, unsigned int *n)
{
    ENTER(h);
    *n = 7;
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t h, unsigned int i,
                                                     nvmlDevice_t *mig)
{
    ENTER(h);
    struct sdev *d = (struct sdev *)h;
    if (i >= (unsigned int)d->nmig)
        return NVML_ERROR_NOT_FOUND;
    *mig = (nvmlDevice_t)d->mig[i];
    return NVML_SUCCESS;
}
