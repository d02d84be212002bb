/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NVML loaded at run time: the entry points resolved with dlsym, the devices and their MIG
 * instances enumerated once at open. No library, no symbol, an init that fails: no devices,
 * and jsg_status says why; nothing is logged here (the caller decides what a node without
 * GPUs is worth saying, and at which level).
 */
#include "config.h"

#include "gpu_internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

const char *jsg_nvml_error(const struct jsg_gpus *g, nvmlReturn_t rc)
{
    static __thread char buf[32];
    if (g->api.error_string != NULL) {
        const char *s = g->api.error_string(rc);
        if (s != NULL)
            return s;
    }
    snprintf(buf, sizeof(buf), "NVML error %d", rc);
    return buf;
}

int jsg_call(struct jsg_gpus *g, void (*fn)(void *))
{
    if (g->stuck)
        return -1;
    if (g->guard == NULL) {
        fn(g);
        return 0;
    }
    if (jsg_guard_run(g->guard, fn, g) != 0) {
        g->stuck = 1;
        return -1;
    }
    return 0;
}

/* dlsym into a function pointer without the object-to-function cast warning */
static void *sym(void *dl, const char *name)
{
    return dlsym(dl, name);
}
#define SYM(field, name) memcpy(&g->api.field, &(void *){sym(dl, name)}, sizeof(void *))

static int resolve(struct jsg_gpus *g, void *dl)
{
    SYM(init, "nvmlInit_v2");
    SYM(shutdown, "nvmlShutdown");
    SYM(error_string, "nvmlErrorString");
    SYM(get_count, "nvmlDeviceGetCount_v2");
    SYM(get_handle, "nvmlDeviceGetHandleByIndex_v2");
    SYM(get_uuid, "nvmlDeviceGetUUID");
    SYM(get_name, "nvmlDeviceGetName");
    SYM(get_minor, "nvmlDeviceGetMinorNumber");
    SYM(get_power, "nvmlDeviceGetPowerUsage");
    SYM(get_mig_max, "nvmlDeviceGetMaxMigDeviceCount");
    SYM(get_mem, "nvmlDeviceGetMemoryInfo");
    SYM(get_mem_v2, "nvmlDeviceGetMemoryInfo_v2");
    SYM(get_util, "nvmlDeviceGetUtilizationRates");
    SYM(get_energy, "nvmlDeviceGetTotalEnergyConsumption");
    SYM(get_proc_util, "nvmlDeviceGetProcessUtilization");
    SYM(get_mig_mode, "nvmlDeviceGetMigMode");
    SYM(get_mig_handle, "nvmlDeviceGetMigDeviceHandleByIndex");
    /* the newest process-list layout the driver has; the _v2 and _v3 layouts are one */
    g->api.procs_name = "nvmlDeviceGetComputeRunningProcesses_v3";
    SYM(get_procs, g->api.procs_name);
    if (g->api.get_procs == NULL) {
        g->api.procs_name = "nvmlDeviceGetComputeRunningProcesses_v2";
        SYM(get_procs, g->api.procs_name);
    }
    if (g->api.get_procs != NULL) {
        /* the same version as the compute list's, so that the layouts are one */
        bool v3 = strstr(g->api.procs_name, "_v3") != NULL;
        SYM(get_gfx_procs, v3 ? "nvmlDeviceGetGraphicsRunningProcesses_v3" : "nvmlDeviceGetGraphicsRunningProcesses_v2");
        SYM(get_mps_procs, v3 ? "nvmlDeviceGetMPSComputeRunningProcesses_v3" : "nvmlDeviceGetMPSComputeRunningProcesses_v2");
    }
    if (g->api.get_procs == NULL) {
        g->api.procs_name = "nvmlDeviceGetComputeRunningProcesses";
        SYM(get_procs_v1, g->api.procs_name);
        if (g->api.get_procs_v1 == NULL)
            g->api.procs_name = "none";
    }
    if (g->api.init == NULL || g->api.shutdown == NULL || g->api.get_count == NULL ||
        g->api.get_handle == NULL)
        return -1;
    return 0;
}

/* a device's identity; 0, or -1 when even its UUID cannot be read */
static int describe(struct jsg_gpus *g, struct jsg_device *d)
{
    nvmlDevice_t h = d->handle;
    if (g->api.get_uuid == NULL || g->api.get_uuid(h, d->uuid, sizeof(d->uuid)) != NVML_SUCCESS)
        return -1;
    d->uuid[sizeof(d->uuid) - 1] = '\0';
    if (g->api.get_name == NULL || g->api.get_name(h, d->name, sizeof(d->name)) != NVML_SUCCESS)
        snprintf(d->name, sizeof(d->name), "unknown");
    d->name[sizeof(d->name) - 1] = '\0';
    return 0;
}

/* the MIG instances of the GPU at position p, added after it */
static void add_mig(struct jsg_gpus *g, int p)
{
    struct jsg_device *gpu = &g->dev[p];
    unsigned int cur = 0, pending = 0, max = 0;
    if (g->api.get_mig_mode == NULL || g->api.get_mig_handle == NULL ||
        g->api.get_mig_max == NULL)
        return;
    if (g->api.get_mig_mode(gpu->handle, &cur, &pending) != NVML_SUCCESS ||
        cur != NVML_DEVICE_MIG_ENABLE)
        return;
    gpu->mig_enabled = 1;
    /* in MIG mode the GPU stands for its power and energy alone: its memory, utilization
     * and processes are its instances' (counted once, where a step is given them) */
    gpu->unsupported |= JSG_HAVE_MEM | JSG_HAVE_UTIL | JSG_NO_PROCS | JSG_NO_PROC_UTIL;
    if (g->api.get_mig_max(gpu->handle, &max) != NVML_SUCCESS)
        return;
    for (unsigned int j = 0; j < max && g->ndev < JSG_MAX_DEVICES; j++) {
        nvmlDevice_t mh;
        if (g->api.get_mig_handle(gpu->handle, j, &mh) != NVML_SUCCESS)
            continue; /* an empty slot */
        struct jsg_device *d = &g->dev[g->ndev];
        memset(d, 0, sizeof(*d));
        d->handle = mh;
        d->index = gpu->index;
        d->minor = gpu->minor;
        d->parent = p;
        d->mig_slot = (int)j;
        /* power and energy are the whole GPU's: NVML gives an instance none of its own */
        d->unsupported = JSG_HAVE_POWER | JSG_HAVE_ENERGY;
        if (describe(g, d) == 0)
            g->ndev++;
    }
}

static void enumerate(struct jsg_gpus *g)
{
    unsigned int n = 0;
    nvmlReturn_t rc = g->api.get_count(&n);
    if (rc != NVML_SUCCESS) {
        snprintf(g->status, sizeof(g->status), "no GPUs: nvmlDeviceGetCount_v2: %s",
                 jsg_nvml_error(g, rc));
        return;
    }
    for (unsigned int i = 0; i < n && g->ndev < JSG_MAX_DEVICES; i++) {
        struct jsg_device *d = &g->dev[g->ndev];
        memset(d, 0, sizeof(*d));
        d->index = (int)i;
        d->parent = -1;
        d->mig_slot = -1;
        d->minor = -1;
        nvmlDevice_t h;
        if (g->api.get_handle(i, &h) != NVML_SUCCESS)
            continue;
        d->handle = h;
        if (describe(g, d) != 0)
            continue; /* a GPU NVML cannot name now is not one a step can be given */
        unsigned int minor;
        if (g->api.get_minor != NULL && g->api.get_minor(d->handle, &minor) == NVML_SUCCESS)
            d->minor = (int)minor;
        int p = g->ndev++;
        add_mig(g, p);
    }
    if (g->ndev == 0 && g->status[0] == '\0')
        snprintf(g->status, sizeof(g->status), "no GPUs: NVML reports %u devices", n);
}

static void open_work(void *p)
{
    struct jsg_gpus *g = p;
    dlerror();
    void *dl = dlopen(g->library, RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL) {
        const char *e = dlerror();
        snprintf(g->status, sizeof(g->status), "no GPUs: %s", e != NULL ? e : g->library);
        return;
    }
    g->api.dl = dl;
    if (resolve(g, dl) != 0) {
        snprintf(g->status, sizeof(g->status), "no GPUs: %s lacks nvmlInit_v2 and its peers",
                 g->library);
        return;
    }
    nvmlReturn_t rc = g->api.init();
    if (rc != NVML_SUCCESS) {
        snprintf(g->status, sizeof(g->status), "no GPUs: nvmlInit_v2: %s",
                 jsg_nvml_error(g, rc));
        return;
    }
    g->initialised = 1;
    enumerate(g);
    if (g->ndev > 0)
        snprintf(g->status, sizeof(g->status), "ok");
}

struct jsg_gpus *jsg_open(const char *library, int timeout_ms)
{
    struct jsg_gpus *g = calloc(1, sizeof(*g));
    if (g == NULL)
        return NULL;
    snprintf(g->library, sizeof(g->library), "%s",
             library != NULL && *library != '\0' ? library : JSG_DEFAULT_LIBRARY);
    if (timeout_ms > 0) {
        g->guard = jsg_guard_start(timeout_ms);
        if (g->guard == NULL) {
            snprintf(g->status, sizeof(g->status), "no GPUs: the sampler's thread did not start");
            g->open_done = 1;
            return g;
        }
    }
    if (jsg_call(g, open_work) != 0) {
        /* the worker may still write the table: the caller sees none of it, ever */
        snprintf(g->status, sizeof(g->status),
                 "no GPUs: NVML did not answer within %d ms (nvmlInit); not asked again",
                 timeout_ms);
        return g;
    }
    g->open_done = 1;
    return g;
}

static void close_work(void *p)
{
    struct jsg_gpus *g = p;
    if (g->initialised)
        g->api.shutdown();
    g->initialised = 0;
}

void jsg_close(struct jsg_gpus *g)
{
    if (g == NULL)
        return;
    if (g->stuck) {
        /* a call into the driver never came back: shutting NVML down or unloading it under
         * that thread could only make things worse; the process's exit frees it all */
        jsg_guard_stop(g->guard);
        return;
    }
    if (jsg_call(g, close_work) != 0) {
        jsg_guard_stop(g->guard);
        return;
    }
    jsg_guard_stop(g->guard);
    /* the library stays loaded: a driver library may leave exit handlers or threads of its
     * own behind nvmlShutdown, and the node side's process ends with its step anyway */
    free(g);
}

int jsg_ndevices(const struct jsg_gpus *g)
{
    return g != NULL && g->open_done ? g->ndev : 0;
}

const struct jsg_device *jsg_device(const struct jsg_gpus *g, int i)
{
    return i >= 0 && i < jsg_ndevices(g) ? &g->dev[i] : NULL;
}

const char *jsg_status(const struct jsg_gpus *g)
{
    return g == NULL ? "no GPUs: out of memory" : g->status;
}

int jsg_stuck(const struct jsg_gpus *g)
{
    return g != NULL && g->stuck;
}

const char *jsg_proc_api(const struct jsg_gpus *g)
{
    return g != NULL && g->api.procs_name != NULL ? g->api.procs_name : "none";
}
