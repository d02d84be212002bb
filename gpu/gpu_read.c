/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One reading of the selected devices: utilization, memory, power, the energy counter, and
 * the processes on each. A call the device does not support is not asked again; a device
 * whose calls fail JSG_FAIL_STREAK reads in a row, or at once with GPU_IS_LOST, is gone:
 * it is not asked again and the others go on.
 */
#include "config.h"

#include "gpu_internal.h"

#include <string.h>

enum verdict { OK, UNSUPPORTED, FAILED, LOST };

static enum verdict judge(nvmlReturn_t rc)
{
    switch (rc) {
    case NVML_SUCCESS:
        return OK;
    case NVML_ERROR_NOT_SUPPORTED:
    case NVML_ERROR_NO_PERMISSION:
    case NVML_ERROR_FUNCTION_NOT_FOUND:
        return UNSUPPORTED;
    case NVML_ERROR_GPU_IS_LOST:
        return LOST;
    default:
        return FAILED;
    }
}

/* what the calls of one device's read came to */
struct outcome {
    int ok, failed, lost;
};

static int note(struct outcome *o, struct jsg_device *d, uint32_t bit, nvmlReturn_t rc)
{
    switch (judge(rc)) {
    case OK:
        o->ok++;
        return 1;
    case UNSUPPORTED:
        d->unsupported |= bit;
        return 0;
    case LOST:
        o->lost++;
        return 0;
    default:
        o->failed++;
        return 0;
    }
}

static void read_memory(struct jsg_gpus *g, struct jsg_device *d, struct jsg_reading *r,
                        struct outcome *o)
{
    if (g->api.get_mem_v2 != NULL && !(d->unsupported & JSG_NO_MEM_V2)) {
        /* v2 tells the driver's reserve apart, as nvidia-smi's "used" does */
        nvmlMemory_v2_t m = {.version = JS_NVML_MEMORY_V2_VERSION};
        nvmlReturn_t rc = g->api.get_mem_v2(d->handle, &m);
        if (rc == NVML_SUCCESS) {
            o->ok++;
            r->mem_used = m.used;
            r->mem_total = d->mem_total = m.total;
            r->have |= JSG_HAVE_MEM;
            return;
        }
        if (judge(rc) != UNSUPPORTED && rc != NVML_ERROR_INVALID_ARGUMENT) {
            note(o, d, JSG_HAVE_MEM, rc);
            return;
        }
        d->unsupported |= JSG_NO_MEM_V2;
    }
    if (g->api.get_mem == NULL)
        return;
    nvmlMemory_t m;
    if (note(o, d, JSG_HAVE_MEM, g->api.get_mem(d->handle, &m))) {
        r->mem_used = m.used;
        r->mem_total = d->mem_total = m.total;
        r->have |= JSG_HAVE_MEM;
    }
}

static void read_gauges(struct jsg_gpus *g, struct jsg_device *d, struct jsg_reading *r,
                        struct outcome *o)
{
    if (!(d->unsupported & JSG_HAVE_MEM))
        read_memory(g, d, r, o);
    if (g->api.get_util != NULL && !(d->unsupported & JSG_HAVE_UTIL)) {
        nvmlUtilization_t u;
        if (note(o, d, JSG_HAVE_UTIL, g->api.get_util(d->handle, &u))) {
            r->util_sm = u.gpu;
            r->util_mem = u.memory;
            r->have |= JSG_HAVE_UTIL;
        }
    }
    if (g->api.get_power != NULL && !(d->unsupported & JSG_HAVE_POWER)) {
        unsigned int mw;
        if (note(o, d, JSG_HAVE_POWER, g->api.get_power(d->handle, &mw))) {
            r->power_mw = mw;
            r->have |= JSG_HAVE_POWER;
        }
    }
    if (g->api.get_energy != NULL && !(d->unsupported & JSG_HAVE_ENERGY)) {
        unsigned long long mj;
        if (note(o, d, JSG_HAVE_ENERGY, g->api.get_energy(d->handle, &mj))) {
            r->energy_mj = mj;
            r->have |= JSG_HAVE_ENERGY;
        }
    }
}

/* the entry of (pid, device) in this tick, made when new; -1 when the tick is full */
static int proc_slot(struct jsg_gpus *g, int first, uint32_t pid, int dev)
{
    struct jsg_tick *t = &g->work;
    for (int i = first; i < t->nproc; i++)
        if (t->proc[i].pid == pid)
            return i;
    if (t->nproc >= JSG_MAX_PROCS) {
        t->proc_dropped++;
        return -1;
    }
    struct jsg_proc *p = &t->proc[t->nproc];
    memset(p, 0, sizeof(*p));
    p->pid = pid;
    p->dev = (uint16_t)dev;
    g->work_ts[t->nproc] = 0;
    return t->nproc++;
}

/* a process a list names on device dev: one entry however many lists name it, with the
 * largest memory any of them gives (a process in the compute and the graphics list is one) */
static void listed(struct jsg_gpus *g, int first, int dev, uint32_t pid, unsigned long long mem)
{
    int s = proc_slot(g, first, pid, dev);
    if (s < 0 || mem == JS_NVML_VALUE_NOT_AVAILABLE)
        return;
    struct jsg_proc *p = &g->work.proc[s];
    if (!(p->have & JSG_HAVE_MEM) || mem > p->mem_used)
        p->mem_used = mem;
    p->have |= JSG_HAVE_MEM;
}

/* one of the _v3/_v2 lists (compute, graphics, MPS clients), whose call is get */
static void read_list(struct jsg_gpus *g, struct jsg_device *d, int dev, int first, struct outcome *o,
                      js_nvmlDeviceGetComputeRunningProcesses_fn get, uint32_t bit)
{
    unsigned int n = JSG_PROC_BUF;
    nvmlReturn_t rc = get(d->handle, &n, g->pinfo);
    if (rc == NVML_ERROR_INSUFFICIENT_SIZE) {
        /* more than the buffer: counted, not listed (the buffer is JSG_PROC_BUF a device) */
        g->work.proc_dropped += n;
        return;
    }
    if (!note(o, d, bit, rc))
        return;
    for (unsigned int k = 0; k < n && k < JSG_PROC_BUF; k++)
        listed(g, first, dev, g->pinfo[k].pid, g->pinfo[k].usedGpuMemory);
}

static void read_proc_list(struct jsg_gpus *g, struct jsg_device *d, int dev, int first,
                           struct outcome *o)
{
    if (g->api.get_procs == NULL) {
        if (g->api.get_procs_v1 == NULL)
            return;
        unsigned int n = JSG_PROC_BUF;
        nvmlReturn_t rc = g->api.get_procs_v1(d->handle, &n, g->pinfo_v1);
        if (rc == NVML_ERROR_INSUFFICIENT_SIZE) {
            g->work.proc_dropped += n;
            return;
        }
        if (!note(o, d, JSG_NO_PROCS, rc))
            return;
        for (unsigned int k = 0; k < n && k < JSG_PROC_BUF; k++)
            listed(g, first, dev, g->pinfo_v1[k].pid, g->pinfo_v1[k].usedGpuMemory);
        return;
    }
    read_list(g, d, dev, first, o, g->api.get_procs, JSG_NO_PROCS);
    if (g->api.get_gfx_procs != NULL && !(d->unsupported & JSG_NO_GFX_PROCS))
        read_list(g, d, dev, first, o, g->api.get_gfx_procs, JSG_NO_GFX_PROCS);
    if (g->api.get_mps_procs != NULL && !(d->unsupported & JSG_NO_MPS_PROCS))
        read_list(g, d, dev, first, o, g->api.get_mps_procs, JSG_NO_MPS_PROCS);
}

static void read_proc_util(struct jsg_gpus *g, struct jsg_device *d, int dev, int first,
                           struct outcome *o)
{
    unsigned int n = JSG_PROC_BUF;
    nvmlReturn_t rc = g->api.get_proc_util(d->handle, g->putil, &n, d->proc_seen_us);
    if (rc == NVML_ERROR_NOT_FOUND || rc == NVML_ERROR_NO_DATA)
        return; /* no process ran since the last look */
    if (rc == NVML_ERROR_INSUFFICIENT_SIZE) {
        g->work.proc_dropped += n;
        return;
    }
    if (!note(o, d, JSG_NO_PROC_UTIL, rc))
        return;
    for (unsigned int k = 0; k < n && k < JSG_PROC_BUF; k++) {
        const nvmlProcessUtilizationSample_t *u = &g->putil[k];
        if (u->timeStamp > d->proc_seen_us)
            d->proc_seen_us = u->timeStamp;
        int s = proc_slot(g, first, u->pid, dev);
        /* several samples of one process: the latest says how it is now */
        if (s < 0 || (g->work.proc[s].have & JSG_HAVE_UTIL && g->work_ts[s] > u->timeStamp))
            continue;
        g->work_ts[s] = u->timeStamp;
        g->work.proc[s].util_sm = u->smUtil;
        g->work.proc[s].util_mem = u->memUtil;
        g->work.proc[s].have |= JSG_HAVE_UTIL;
    }
}

static void read_device(struct jsg_gpus *g, int i)
{
    struct jsg_device *d = &g->dev[i];
    struct jsg_reading *r = &g->work.dev[i];
    struct outcome o = {0, 0, 0};
    read_gauges(g, d, r, &o);
    int first = g->work.nproc;
    if (!o.lost && !(d->unsupported & JSG_NO_PROCS))
        read_proc_list(g, d, i, first, &o);
    if (!o.lost && g->api.get_proc_util != NULL && !(d->unsupported & JSG_NO_PROC_UTIL))
        read_proc_util(g, d, i, first, &o);
    if (o.lost || (o.failed > 0 && o.ok == 0)) {
        r->failed = 1;
        r->have = 0;
        g->work.nproc = first;
        if (o.lost || ++d->fail_streak >= JSG_FAIL_STREAK)
            d->gone = 1;
    } else {
        d->fail_streak = 0;
    }
    r->gone = (uint8_t)d->gone;
}

static void read_work(void *p)
{
    struct jsg_gpus *g = p;
    struct jsg_tick *t = &g->work;
    t->t_ns = g->want_ns;
    t->ndev = g->ndev;
    t->nproc = 0;
    t->proc_dropped = 0;
    memset(t->dev, 0, sizeof(t->dev[0]) * (size_t)g->ndev);
    for (int i = 0; i < g->ndev; i++) {
        if (!g->dev[i].selected)
            continue;
        if (g->dev[i].gone)
            t->dev[i].gone = 1;
        else
            read_device(g, i);
    }
}

int jsg_read(struct jsg_gpus *g, int64_t t_ns, struct jsg_tick *tick)
{
    tick->t_ns = t_ns;
    tick->ndev = 0;
    tick->nproc = 0;
    tick->proc_dropped = 0;
    if (g == NULL || !g->open_done || g->stuck || g->ndev == 0)
        return -1;
    g->want_ns = t_ns;
    if (jsg_call(g, read_work) != 0)
        return -1;
    tick->ndev = g->work.ndev;
    memcpy(tick->dev, g->work.dev, sizeof(tick->dev[0]) * (size_t)g->work.ndev);
    tick->nproc = g->work.nproc;
    tick->proc_dropped = g->work.proc_dropped;
    memcpy(tick->proc, g->work.proc, sizeof(tick->proc[0]) * (size_t)g->work.nproc);
    return 0;
}
