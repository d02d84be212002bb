/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which of the node's GPUs are the step's. On a shared node only those count: the readings,
 * the slices and the processes are of the selected devices alone (docs/gpu.md, "Which GPUs").
 */
#include "config.h"

#include "gpu_internal.h"

#include <ctype.h>
#include <string.h>

static void clear(struct jsg_gpus *g)
{
    for (int i = 0; i < g->ndev; i++)
        g->dev[i].selected = 0;
}

static int count(const struct jsg_gpus *g)
{
    int n = 0;
    for (int i = 0; i < jsg_ndevices(g); i++)
        n += g->dev[i].selected;
    return n;
}

/* a GPU and, in MIG mode, its instances (they are what its processes run on) */
static void pick(struct jsg_gpus *g, int p)
{
    g->dev[p].selected = 1;
    if (g->dev[p].parent >= 0 || !g->dev[p].mig_enabled)
        return;
    for (int i = 0; i < g->ndev; i++)
        if (g->dev[i].parent == p)
            g->dev[i].selected = 1;
}

/* Slurm's GPU index: the GPU whose /dev/nvidiaN has that minor number (gres.conf names the
 * device files; NVML's own order is the PCI bus's and need not agree), else NVML's index */
static int by_index(const struct jsg_gpus *g, long k)
{
    int have_minor = 0;
    for (int i = 0; i < g->ndev; i++)
        if (g->dev[i].parent < 0 && g->dev[i].minor >= 0)
            have_minor = 1;
    for (int i = 0; i < g->ndev; i++) {
        const struct jsg_device *d = &g->dev[i];
        if (d->parent < 0 && (have_minor ? d->minor : d->index) == k)
            return i;
    }
    return -1;
}

/* a whole UUID, or a prefix that names one device only (as CUDA accepts) */
static int by_uuid(const struct jsg_gpus *g, const char *u, size_t len)
{
    int found = -1;
    for (int i = 0; i < g->ndev; i++) {
        const char *d = g->dev[i].uuid;
        if (strncmp(d, u, len) != 0)
            continue;
        if (d[len] == '\0')
            return i;
        found = found == -1 ? i : -2;
    }
    return found >= 0 ? found : -1;
}

static int one(const struct jsg_gpus *g, const char *w, size_t len)
{
    if (len >= 4 && (strncmp(w, "GPU-", 4) == 0 || strncmp(w, "MIG-", 4) == 0))
        return by_uuid(g, w, len);
    if (len == 0 || len > 6)
        return -1;
    long k = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)w[i]))
            return -1;
        k = k * 10 + (w[i] - '0');
    }
    return by_index(g, k);
}

int jsg_select_list(struct jsg_gpus *g, const char *list, int *unknown)
{
    int bad = 0;
    if (g == NULL)
        return 0;
    clear(g);
    const char *p = list != NULL ? list : "";
    while (*p != '\0') {
        while (*p == ',' || *p == ' ')
            p++;
        const char *w = p;
        while (*p != '\0' && *p != ',' && *p != ' ')
            p++;
        if (p == w)
            continue;
        int i = one(g, w, (size_t)(p - w));
        if (i >= 0)
            pick(g, i);
        else
            bad++;
    }
    if (unknown != NULL)
        *unknown = bad;
    return count(g);
}

int jsg_select_all(struct jsg_gpus *g)
{
    if (g == NULL)
        return 0;
    for (int i = 0; i < jsg_ndevices(g); i++)
        g->dev[i].selected = 1;
    return count(g);
}

static int has_uuid(const char *v)
{
    return strstr(v, "GPU-") != NULL || strstr(v, "MIG-") != NULL;
}

int jsg_select_env(struct jsg_gpus *g, const char *(*lookup)(const char *name, void *arg),
                   void *arg, const char **source)
{
    /* UUIDs cannot be misread; Slurm's indexes are the node's (CUDA_VISIBLE_DEVICES's
     * indexes count from 0 inside a step whose devices are constrained, so come last) */
    static const char *const order[] = {"CUDA_VISIBLE_DEVICES", "SLURM_STEP_GPUS",
                                        "SLURM_JOB_GPUS", "CUDA_VISIBLE_DEVICES"};
    const char *used = "none";
    int n = 0;
    if (g == NULL)
        return 0;
    clear(g);
    for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
        const char *v = lookup(order[k], arg);
        if (v == NULL || *v == '\0' || (k == 0 && !has_uuid(v)))
            continue;
        used = order[k];
        n = jsg_select_list(g, v, NULL);
        break;
    }
    if (source != NULL)
        *source = used;
    return n;
}
