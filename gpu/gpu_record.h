/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A step-node's GPU and CPU-energy readings as the step record carries them (its "gpu"
 * member, docs/record-format.md and docs/gpu.md, "What travels"): the slices of the step's
 * devices kept as dense per-slice columns, their totals, and the node's CPU energy with the
 * step's share of it. Built by root's relay from jsg_slicer's slices; written as one JSON
 * object whose series are encoded (common/series.h) and in base64.
 */
#ifndef JS_GPU_RECORD_H
#define JS_GPU_RECORD_H

#include "gpu_format.h"
#include "jsgpu.h"

#include <stdint.h>
#include <stdio.h>

extern const char *const jsg_record_column_names[JSG_NCOLS];

struct jsg_record;

/* For the selected devices of g (copied now: names, UUIDs, parents) and the zones of pc.
 * source: the variable the selection came from; unknown: its entries that matched nothing.
 * NULL when out of memory. */
struct jsg_record *jsg_record_new(const struct jsg_gpus *g, const struct jsg_powercap *pc, int32_t seconds,
                                  const char *source, int unknown);
/* Before jsg_slicer_add of a tick: keeps in it the processes is_step says are the step's (the
 * relay's test of the pid: docs/gpu.md, "Per process"; > 0 the step's, 0 not, < 0 ended); the
 * others are counted, per device. */
void jsg_record_filter_procs(struct jsg_record *r, struct jsg_tick *t, int (*is_step)(uint32_t pid, void *arg),
                             void *arg);
/* jsg_slicer's callback (arg: the record). */
void jsg_record_slice(const struct jsg_slice *s, void *arg);
/* The step's CPU time and the node's busy CPU time between the previous reading (t0_ns) and
 * this one (t_ns) (ns; step_ns < 0: unknown), shared among the slices that interval spans in
 * proportion to time, as the slicer shares energy: the step's share of the node's CPU energy
 * in a slice is min(1, step / busy). Call before jsg_slicer_add of that tick. */
void jsg_record_cpu(struct jsg_record *r, int64_t t0_ns, int64_t t_ns, int64_t step_ns, int64_t busy_ns);
/* Why the step's CPU time is not known ("" when it is); kept in the record. */
void jsg_record_cpu_note(struct jsg_record *r, const char *why);
/* The whole record as one JSON object; 0, or -1 on a write error or out of memory. */
int jsg_record_write(struct jsg_record *r, const struct jsg_gpus *g, FILE *f);
void jsg_record_free(struct jsg_record *r);

#endif
