/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The step's processes on its GPUs (gpu_procs.h): a fixed table of (device, pid) pairs with
 * their figures over the step. A process NVML lists that is not the step's (another job's on a
 * GPU it shares, a daemon's) is only counted. What the bounds leave out is counted too: the
 * sampler's per-tick and per-slice caps and a full table in proc_readings_dropped, the
 * processes beyond a device's JSG_RECORD_MAX_DEV_PROCS in its procs_dropped.
 */
#include "config.h"

#include "gpu_procs.h"

#include "gpu_format.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    uint32_t pid;
    uint16_t dev;
    uint8_t other; /* not the step's: counted, never written */
    uint64_t samples, util_n, util_sm_sum, util_mem_sum, mem_n, mem_used_max;
    uint32_t util_sm_max, slices;
    int64_t first, last;
};

/* a pid's verdict from the previous reading: reused while NVML keeps listing the pid (a pid
 * is given again only after its process ended, and an ended process leaves NVML's list) */
struct verdict {
    uint32_t pid;
    int mine;
};

struct jsg_procs {
    int nv;
    struct verdict v[JSG_MAX_PROCS];
    int n;
    uint64_t dropped; /* readings of processes the bounds left out */
    uint64_t ended;   /* readings of processes that ended before they could be told apart */
    struct entry e[JSG_PROCS_TABLE];
};

struct jsg_procs *jsg_procs_new(void)
{
    return calloc(1, sizeof(struct jsg_procs));
}

void jsg_procs_free(struct jsg_procs *p)
{
    free(p);
}

uint64_t jsg_procs_dropped(const struct jsg_procs *p)
{
    return p ? p->dropped : 0;
}

uint64_t jsg_procs_ended(const struct jsg_procs *p)
{
    return p ? p->ended : 0;
}

pid_t jsg_parent_of(pid_t pid)
{
    char path[40], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "re");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    char *end = strrchr(buf, ')'), state;
    int ppid;
    return end && sscanf(end + 1, " %c %d", &state, &ppid) == 2 ? (pid_t)ppid : -1;
}

int jsg_descends(pid_t pid, pid_t ancestor, pid_t not_through)
{
    pid_t p = pid;
    for (int depth = 0; depth < 64 && p > 1 && p != not_through; depth++) {
        pid_t pp = jsg_parent_of(p);
        if (pp == ancestor)
            return 1;
        if (pp < 0 && p == pid)
            return -1;
        p = pp;
    }
    return 0;
}

/* the cgroup v2 path of pid ("0::PATH" in /proc/PID/cgroup) into path; -1 when pid is gone */
static int cgroup_of(pid_t pid, char *path, size_t size)
{
    char file[40], line[PATH_MAX + 8];
    snprintf(file, sizeof file, "/proc/%ld/cgroup", (long)pid);
    FILE *f = fopen(file, "re");
    if (f == NULL)
        return -1;
    path[0] = '\0';
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "0::", 3) == 0) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(path, size, "%s", line + 3);
            break;
        }
    fclose(f);
    return 0;
}

int jsg_step_cgroup(pid_t pid, char *cg, size_t size)
{
    char p[PATH_MAX + 8];
    cg[0] = '\0';
    if (cgroup_of(pid, p, sizeof p) < 0)
        return -1;
    /* slurmstepd lives in .../step_N/slurm (cgroup/v2 plugin), or in .../step_N itself */
    char *base = strrchr(p, '/');
    if (base && strcmp(base, "/slurm") == 0)
        *base = '\0', base = strrchr(p, '/');
    if (!base || strncmp(base, "/step_", 6) != 0)
        return 0;
    snprintf(cg, size, "%s", p);
    return 1;
}

int jsg_in_cgroup(pid_t pid, const char *cg)
{
    char p[PATH_MAX + 8];
    if (cgroup_of(pid, p, sizeof p) < 0)
        return -1;
    size_t len = strlen(cg);
    /* cg itself or below it; .../step_0 does not hold .../step_01 */
    return len > 0 && strncmp(p, cg, len) == 0 && (p[len] == '/' || p[len] == '\0');
}

/* the pair's entry, made when new; NULL when the table is full */
static struct entry *find(struct jsg_procs *p, uint32_t pid, uint16_t dev, int other)
{
    for (int i = 0; i < p->n; i++)
        if (p->e[i].pid == pid && p->e[i].dev == dev && p->e[i].other == other)
            return &p->e[i];
    if (p->n >= JSG_PROCS_TABLE)
        return NULL;
    struct entry *e = &p->e[p->n++];
    memset(e, 0, sizeof *e);
    e->pid = pid;
    e->dev = dev;
    e->other = (uint8_t)other;
    e->first = INT64_MAX;
    e->last = INT64_MIN;
    return e;
}

/* is_step's verdict on pid: the previous reading's while the pid stays listed, else asked */
static int judge(struct jsg_procs *p, struct verdict *now, int *nnow, uint32_t pid,
                 int (*is_step)(uint32_t pid, void *arg), void *arg)
{
    for (int i = 0; i < *nnow; i++)
        if (now[i].pid == pid)
            return now[i].mine;
    int mine = -2;
    for (int i = 0; p != NULL && i < p->nv && mine == -2; i++)
        if (p->v[i].pid == pid)
            mine = p->v[i].mine;
    if (mine == -2)
        mine = is_step(pid, arg);
    if (mine >= 0 && *nnow < JSG_MAX_PROCS) /* an ended one is asked again: it costs a failed open */
        now[(*nnow)++] = (struct verdict){ pid, mine };
    return mine;
}

void jsg_procs_filter(struct jsg_procs *p, struct jsg_tick *t, int (*is_step)(uint32_t pid, void *arg), void *arg)
{
    struct verdict now[JSG_MAX_PROCS];
    int k = 0, nnow = 0;
    for (int i = 0; i < t->nproc; i++) {
        int mine = is_step == NULL ? 1 : judge(p, now, &nnow, t->proc[i].pid, is_step, arg);
        if (mine > 0) {
            t->proc[k++] = t->proc[i];
            continue;
        }
        if (p == NULL)
            continue;
        if (mine < 0)
            p->ended++; /* gone since NVML listed it: neither the step's nor another's */
        else if (find(p, t->proc[i].pid, t->proc[i].dev, 1) == NULL)
            p->dropped++;
    }
    t->nproc = k;
    if (p != NULL && is_step != NULL) {
        memcpy(p->v, now, sizeof now[0] * (size_t)nnow);
        p->nv = nnow;
    }
}

void jsg_procs_slice(struct jsg_procs *p, const struct jsg_slice *s)
{
    if (p == NULL)
        return;
    p->dropped += s->proc_dropped;
    for (int i = 0; i < s->nproc; i++) {
        const struct jsg_slice_proc *sp = &s->proc[i];
        struct entry *e = find(p, sp->pid, sp->dev, 0);
        if (e == NULL) {
            p->dropped += sp->samples;
            continue;
        }
        e->samples += sp->samples;
        e->util_n += sp->util_n;
        e->util_sm_sum += sp->util_sm_sum;
        e->util_mem_sum += sp->util_mem_sum;
        if (sp->util_sm_max > e->util_sm_max)
            e->util_sm_max = sp->util_sm_max;
        e->mem_n += sp->mem_n;
        if (sp->mem_used_max > e->mem_used_max)
            e->mem_used_max = sp->mem_used_max;
        e->slices++;
        if (s->index < e->first)
            e->first = s->index;
        if (s->index > e->last)
            e->last = s->index;
    }
}

/* the listed first: higher peak memory, then more readings, then the lower pid */
static int before(const struct entry *a, const struct entry *b)
{
    if (a->mem_used_max != b->mem_used_max)
        return a->mem_used_max > b->mem_used_max;
    if (a->samples != b->samples)
        return a->samples > b->samples;
    return a->pid < b->pid;
}

static void write_entry(const struct entry *e, int first, FILE *f)
{
    fprintf(f,
            "%s{\"pid\":%" PRIu32 ",\"samples\":%" PRIu64 ",\"util_n\":%" PRIu64 ",\"util_sm_sum\":%" PRIu64
            ",\"util_mem_sum\":%" PRIu64 ",\"util_sm_max\":%" PRIu32 ",\"mem_n\":%" PRIu64 ",\"mem_used_max\":%" PRIu64
            ",\"first_slice\":%" PRId64 ",\"last_slice\":%" PRId64 ",\"slices\":%" PRIu32 "}",
            first ? "" : ",", e->pid, e->samples, e->util_n, e->util_sm_sum, e->util_mem_sum, e->util_sm_max, e->mem_n,
            e->mem_used_max, e->first, e->last, e->slices);
}

void jsg_procs_write_dev(const struct jsg_procs *p, int dev, FILE *f)
{
    const struct entry *list[JSG_RECORD_MAX_DEV_PROCS];
    int n = 0;
    uint64_t dropped = 0, other = 0;
    for (int i = 0; p != NULL && i < p->n; i++) {
        const struct entry *e = &p->e[i];
        if (e->dev != dev)
            continue;
        if (e->other) {
            other++;
            continue;
        }
        if (e->samples == 0)
            continue;
        /* insertion into the sorted list; what falls off its end is counted */
        int k = n;
        while (k > 0 && before(e, list[k - 1]))
            k--;
        if (k >= JSG_RECORD_MAX_DEV_PROCS) {
            dropped++;
            continue;
        }
        if (n == JSG_RECORD_MAX_DEV_PROCS)
            dropped++;
        else
            n++;
        memmove(&list[k + 1], &list[k], (size_t)(n - 1 - k) * sizeof list[0]);
        list[k] = e;
    }
    fputs(",\"procs\":[", f);
    for (int i = 0; i < n; i++)
        write_entry(list[i], i == 0, f);
    fprintf(f, "],\"procs_dropped\":%" PRIu64 ",\"procs_other\":%" PRIu64, dropped, other);
}
