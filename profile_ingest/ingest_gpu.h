/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A step record's GPU and CPU-energy readings (its "gpu" member, written by root's relay:
 * docs/record-format.md, docs/gpu.md): checked, taken out of the record (the stored record
 * does not carry the series twice) and written to js_data.step_node_gpus,
 * js_data.series_step_node_gpu and js_data.step_node_energy (migration 043), and the step's
 * processes on each GPU to js_data.step_node_gpu_processes (migration 050).
 */
#ifndef PI_INGEST_GPU_H
#define PI_INGEST_GPU_H

#include <stdint.h>

struct pi_db;
struct pi_step;
struct pi_gpu;

/* Takes st->rec's "gpu" member into st->gpu (none: st->gpu stays NULL) and removes it from
 * the record. A member that is not well formed is refused whole: its reason goes to the log
 * (naming path) and into the step-node's gpu_note, nothing of it is stored. */
void pi_gpu_take(struct pi_step *st, const char *path);
/* The rows of st->gpu, in the step record's transaction (after its step_nodes row). */
int pi_gpu_write(struct pi_db *db, const struct pi_step *st, const char *cid, const char *job);
void pi_gpu_free(struct pi_gpu *g);
/* The step's CPU energy on the node, uJ (-1: not known). Where the relay could not share the
 * node's energy (no cgroup of the step) and the record carries the node's busy CPU time a
 * slice, it is shared here by the CPU time the step's processes reported in st's slices
 * (jsg_cpu_share), and the note says so; else the note says why it is not known. */
int64_t pi_gpu_cpu_energy_uj(struct pi_gpu *g, const struct pi_step *st);
/* What was taken: its devices and what it lacks ("" when nothing), for the tests. */
int pi_gpu_devices(const struct pi_gpu *g);
int pi_gpu_processes(const struct pi_gpu *g);
const char *pi_gpu_note(const struct pi_gpu *g);

#endif
