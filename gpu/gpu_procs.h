/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A step's processes on its GPUs, for the step record's "gpu" member (docs/gpu.md, "Per
 * process"): the relay tells which processes NVML lists are the step's (a predicate on the
 * pid); the others are counted per device, never attributed. Per device and process of the
 * step: readings, peak memory, SM and memory utilization, the slices it was seen in.
 */
#ifndef JS_GPU_PROCS_H
#define JS_GPU_PROCS_H

#include "jsgpu.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* (device, pid) pairs one record follows; more are counted in proc_readings_dropped */
#define JSG_PROCS_TABLE 512

struct jsg_procs;

struct jsg_procs *jsg_procs_new(void);
void jsg_procs_free(struct jsg_procs *p);
/* Keeps in t the processes is_step says are the step's (> 0); the others (0) are counted
 * (distinct pids per device) and removed, as are those that ended before is_step could tell
 * (< 0: counted as readings). is_step NULL: all are the step's. */
void jsg_procs_filter(struct jsg_procs *p, struct jsg_tick *t, int (*is_step)(uint32_t pid, void *arg), void *arg);
/* A closed slice's processes (all the step's: filtered at each tick). */
void jsg_procs_slice(struct jsg_procs *p, const struct jsg_slice *s);
/* The device's members: ,"procs":[...],"procs_dropped":N,"procs_other":N (dev: its position
 * in the sampler's table). */
void jsg_procs_write_dev(const struct jsg_procs *p, int dev, FILE *f);
/* Readings of processes the bounds dropped (the sampler's, the table's). */
uint64_t jsg_procs_dropped(const struct jsg_procs *p);
/* Readings of processes that had ended when they were to be told apart. */
uint64_t jsg_procs_ended(const struct jsg_procs *p);

/* The parent of pid (/proc/PID/stat), -1 when it is gone. */
pid_t jsg_parent_of(pid_t pid);
/* Whether pid descends from ancestor, not through not_through (at most 64 levels): 1, 0, or
 * -1 when pid itself is gone. */
int jsg_descends(pid_t pid, pid_t ancestor, pid_t not_through);
/* The step's cgroup (v2) as /proc/PID/cgroup names it, for a pid of slurmstepd's
 * (.../step_N/slurm or .../step_N): 1 with cg set, 0 when pid is in no step's cgroup (cg ""),
 * -1 when pid is gone. */
int jsg_step_cgroup(pid_t pid, char *cg, size_t size);
/* Whether pid is in cgroup cg (v2) or below it: 1, 0, or -1 when pid is gone. */
int jsg_in_cgroup(pid_t pid, const char *cg);

#endif
