/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The step record's "gpu" member (docs/record-format.md, "GPUs and energy"): its version,
 * bounds and the columns of a device's series, shared by the writer (gpu/gpu_record.c, in
 * root's relay) and the reader (profile_ingest/ingest_gpu.c).
 */
#ifndef JS_GPU_FORMAT_H
#define JS_GPU_FORMAT_H

#define JSG_RECORD_VERSION 1
/* Slices a record's series hold (a day at 4 s slices); later slices count in the totals
 * only, and "series_dropped" says how many the series lack. */
#define JSG_RECORD_MAX_SLICES 21600
/* The most the series may take in the record (base64): the step record is read up to 4 MiB
 * (JS_RECORD_MAX_FILE_BYTES). Larger: no series, said in "series_dropped" and "series_note". */
#define JSG_RECORD_SERIES_MAX_BYTES (2u << 20)

/* The columns of a device's series, in the record's order. */
#define JSG_RECORD_COLUMNS(X)                                                                     \
    X(samples) X(util_n) X(util_sm_sum) X(util_mem_sum) X(util_sm_max) X(util_mem_max)            \
    X(mem_used_max) X(power_n) X(power_mw_sum) X(energy_uj)
enum {
#define JSG_COL_ENUM(name) JSG_COL_##name,
    JSG_RECORD_COLUMNS(JSG_COL_ENUM)
#undef JSG_COL_ENUM
    JSG_NCOLS
};
/* Devices one record may name (gpu/jsgpu.h's JSG_MAX_DEVICES). */
#define JSG_RECORD_MAX_DEVICES 64
/* Processes of the step a device's "procs" lists (those with the highest peak memory); the
 * rest are counted in its "procs_dropped". */
#define JSG_RECORD_MAX_DEV_PROCS 32
/* The highest pid Linux gives (PID_MAX_LIMIT on 64-bit): a bound for the ingest. */
#define JSG_RECORD_MAX_PID 4194304

#include <stdint.h>

/* The step's share of the node's CPU energy E in one slice: E x min(1, step / busy), 0 when
 * busy is 0 (docs/gpu.md, "Attribution of CPU energy"). The relay applies it with the step's
 * cgroup's CPU time; the ingest with the CPU time the step's processes reported, where the
 * record carries the node's busy time per slice instead ("node_busy_ns"). */
static inline int64_t jsg_cpu_share(int64_t energy_uj, int64_t step_ns, int64_t busy_ns)
{
    if (busy_ns <= 0 || step_ns <= 0 || energy_uj <= 0)
        return 0;
    if (step_ns >= busy_ns)
        return energy_uj;
    return (int64_t)((__int128)energy_uj * step_ns / busy_ns);
}

#endif
