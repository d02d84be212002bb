/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sampler's state, shared by gpu_nvml.c (open, close), gpu_select.c and gpu_read.c. */
#ifndef JS_GPU_INTERNAL_H
#define JS_GPU_INTERNAL_H

#include "jsgpu.h"
#include "nvml_decl.h"
#include "gpu_guard.h"

/* bits of jsg_device.unsupported beyond JSG_HAVE_*: calls not asked again */
enum {
    JSG_NO_MEM_V2 = 0x100,    /* the driver refused nvmlDeviceGetMemoryInfo_v2: v1 instead */
    JSG_NO_PROCS = 0x200,     /* no process list */
    JSG_NO_PROC_UTIL = 0x400, /* no per-process utilization */
    JSG_NO_GFX_PROCS = 0x800, /* no list of graphics processes */
    JSG_NO_MPS_PROCS = 0x1000, /* no list of MPS clients */
};

#define JSG_PROC_BUF 64 /* processes asked per device and read */

struct jsg_nvml_api {
    void *dl;
    js_nvmlInit_fn init;
    js_nvmlShutdown_fn shutdown;
    js_nvmlErrorString_fn error_string;
    js_nvmlDeviceGetCount_fn get_count;
    js_nvmlDeviceGetHandleByIndex_fn get_handle;
    js_nvmlDeviceGetString_fn get_uuid, get_name;
    js_nvmlDeviceGetUint_fn get_minor, get_power, get_mig_max;
    js_nvmlDeviceGetMemoryInfo_fn get_mem;
    js_nvmlDeviceGetMemoryInfo_v2_fn get_mem_v2;
    js_nvmlDeviceGetUtilizationRates_fn get_util;
    js_nvmlDeviceGetTotalEnergyConsumption_fn get_energy;
    js_nvmlDeviceGetComputeRunningProcesses_fn get_procs;       /* _v3 or _v2 */
    js_nvmlDeviceGetComputeRunningProcesses_v1_fn get_procs_v1; /* the unversioned one */
    /* graphics processes, and an MPS server's clients (the compute list names the server):
     * the same layout, asked only beside the _v3/_v2 compute list */
    js_nvmlDeviceGetComputeRunningProcesses_fn get_gfx_procs, get_mps_procs;
    js_nvmlDeviceGetProcessUtilization_fn get_proc_util;
    js_nvmlDeviceGetMigMode_fn get_mig_mode;
    js_nvmlDeviceGetMigDeviceHandleByIndex_fn get_mig_handle;
    const char *procs_name;
};

struct jsg_gpus {
    struct jsg_nvml_api api;
    int initialised; /* nvmlInit succeeded: nvmlShutdown is owed */
    int open_done;   /* the open came back: the device table is the caller's to read */
    int ndev;
    struct jsg_device dev[JSG_MAX_DEVICES];
    char status[640]; /* room for the library path and dlerror()s words */
    char library[512];
    struct jsg_guard *guard; /* NULL: NVML is called directly (timeout 0) */
    int stuck;
    /* the worker's side of a read: the request, and what it fills */
    int64_t want_ns;
    struct jsg_tick work;
    unsigned long long work_ts[JSG_MAX_PROCS];
    nvmlProcessInfo_t pinfo[JSG_PROC_BUF];
    nvmlProcessInfo_v1_t pinfo_v1[JSG_PROC_BUF];
    nvmlProcessUtilizationSample_t putil[JSG_PROC_BUF];
};

/* runs fn(g) under the guard (or directly); -1 when it did not come back in time */
int jsg_call(struct jsg_gpus *g, void (*fn)(void *));
const char *jsg_nvml_error(const struct jsg_gpus *g, nvmlReturn_t rc);

#endif
