/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The node's GPU and CPU-energy sampler (docs/gpu.md): NVML loaded at run time, the step's
 * GPUs selected from Slurm's variables, readings ("ticks") accumulated per cluster-aligned
 * slice, CPU energy from powercap/RAPL. Runs in root's node side, never in a user process:
 * nothing here aborts, signals, logs or blocks longer than the timeout given to jsg_open.
 */
#ifndef JS_JSGPU_H
#define JS_JSGPU_H

#include <stddef.h>
#include <stdint.h>

#define JSG_DEFAULT_LIBRARY "libnvidia-ml.so.1"
#define JSG_DEFAULT_POWERCAP "/sys/class/powercap"
#define JSG_MAX_DEVICES 64 /* 8 GPUs with 7 MIG instances each fit */
#define JSG_MAX_PROCS 256  /* per tick, over all devices; more are counted, not kept */
#define JSG_MAX_SLICE_PROCS 256
#define JSG_MAX_ZONES 16
#define JSG_UUID_LEN 96
#define JSG_NAME_LEN 96
#define JSG_FAIL_STREAK 3 /* reads in a row that fail before a device counts as gone */

/* which fields of a reading hold a value */
enum {
    JSG_HAVE_UTIL = 1,   /* util_sm, util_mem */
    JSG_HAVE_MEM = 2,    /* mem_used, mem_total */
    JSG_HAVE_POWER = 4,  /* power_mw */
    JSG_HAVE_ENERGY = 8, /* energy_mj: the device's own counter */
};

struct jsg_device {
    char uuid[JSG_UUID_LEN];
    char name[JSG_NAME_LEN];
    int index;       /* NVML index of the physical GPU (of the parent for a MIG instance) */
    int minor;       /* N of /dev/nvidiaN, -1 when NVML does not say */
    int parent;      /* MIG instance: position of its GPU in the table; -1 for a GPU */
    int mig_slot;    /* MIG instance: its index under the parent; -1 for a GPU */
    int mig_enabled; /* a GPU in MIG mode (its instances follow it in the table) */
    int selected;
    int gone;        /* its calls failed (GPU_IS_LOST, or JSG_FAIL_STREAK reads): no more calls */
    int fail_streak;
    uint32_t unsupported; /* JSG_HAVE_* the device said it does not have: not asked again */
    uint64_t mem_total; /* as the last read gave it (0 before the first) */
    unsigned long long proc_seen_us; /* last process-utilization time stamp taken */
    void *handle;                    /* nvmlDevice_t */
};

struct jsg_reading {
    uint32_t have; /* JSG_HAVE_* */
    uint32_t util_sm, util_mem; /* percent */
    uint64_t mem_used, mem_total; /* bytes */
    uint32_t power_mw;
    uint64_t energy_mj; /* the device's counter (since the driver loaded) */
    uint8_t failed;     /* this read failed (calls other than "not supported") */
    uint8_t gone;
};

struct jsg_proc {
    uint32_t pid;
    uint16_t dev;  /* position in the device table */
    uint16_t have; /* JSG_HAVE_UTIL, JSG_HAVE_MEM */
    uint32_t util_sm, util_mem;
    uint64_t mem_used;
};

struct jsg_zone_reading {
    uint64_t energy_uj; /* the zone's counter */
    uint64_t max_uj;    /* where it wraps (max_energy_range_uj) */
    uint8_t have;
};

/* one reading of the selected devices and the powercap zones at one instant */
struct jsg_tick {
    int64_t t_ns; /* wall clock, ns since the epoch: places the tick in its slice */
    int ndev;     /* the device table's size; unselected devices have have == 0 */
    struct jsg_reading dev[JSG_MAX_DEVICES];
    int nproc;
    uint32_t proc_dropped;
    struct jsg_proc proc[JSG_MAX_PROCS];
    int nzone;
    struct jsg_zone_reading zone[JSG_MAX_ZONES];
};

/* --- NVML: open, select, read (gpu_nvml.c, gpu_select.c, gpu_read.c) ------------------- */
struct jsg_gpus;

/* Loads LIBRARY (NULL: libnvidia-ml.so.1) and enumerates its devices, MIG instances included.
 * Never fails: without the library, or when NVML does not initialise, the result has no
 * devices and jsg_status says why. Every NVML call runs on a worker thread and is waited for
 * at most timeout_ms (0: called directly, for tests); one that does not return in time
 * leaves the sampler "stuck": no NVML call is made again and jsg_read returns -1. */
struct jsg_gpus *jsg_open(const char *library, int timeout_ms);
/* Frees all; when stuck, leaks the worker and the library rather than wait on them. */
void jsg_close(struct jsg_gpus *g);

int jsg_ndevices(const struct jsg_gpus *g);
const struct jsg_device *jsg_device(const struct jsg_gpus *g, int i);
/* "ok", or why there are no devices ("no GPUs: libnvidia-ml.so.1: cannot open ...") */
const char *jsg_status(const struct jsg_gpus *g);
int jsg_stuck(const struct jsg_gpus *g);
/* the name of the process-listing entry point in use ("..._v3", "..._v2", "...", "none") */
const char *jsg_proc_api(const struct jsg_gpus *g);

/* Selection: which devices a read covers. Each returns the number selected. */
int jsg_select_all(struct jsg_gpus *g);
/* LIST: comma-separated GPU indexes (Slurm's: matched to /dev/nvidiaN's minor number where
 * NVML gives it, else NVML's index) or UUIDs (GPU-..., MIG-..., a unique prefix of one).
 * Unknown entries are skipped and counted in *unknown (may be NULL). */
int jsg_select_list(struct jsg_gpus *g, const char *list, int *unknown);
/* The step's GPUs from its environment (a getenv-like lookup): UUIDs in CUDA_VISIBLE_DEVICES,
 * else SLURM_STEP_GPUS, else SLURM_JOB_GPUS, else indexes in CUDA_VISIBLE_DEVICES; none of
 * them set: no GPU. *source (may be NULL) names the variable used, or "none". */
int jsg_select_env(struct jsg_gpus *g, const char *(*lookup)(const char *name, void *arg),
                   void *arg, const char **source);

/* Reads the selected devices into tick (its dev[], proc[]; zones untouched). 0, or -1 when
 * the sampler is stuck or has no devices (tick then says nothing of GPUs). */
int jsg_read(struct jsg_gpus *g, int64_t t_ns, struct jsg_tick *tick);

/* --- powercap/RAPL (gpu_powercap.c) ------------------------------------------------------ */
struct jsg_zone {
    char dir[64];  /* intel-rapl:0, intel-rapl:0:2 */
    char name[32]; /* package-0, dram */
    uint64_t max_uj;
};
struct jsg_powercap {
    int dirfd; /* the root, -1 when absent */
    int nzone;
    struct jsg_zone zone[JSG_MAX_ZONES];
    char status[160]; /* "ok" or why there is no CPU energy */
};
/* ROOT NULL: /sys/class/powercap. The package and dram zones of the intel-rapl control type
 * (the MMIO duplicates of the package left out). Returns the zones found; 0 with status. */
int jsg_powercap_open(struct jsg_powercap *pc, const char *root);
/* Reads every zone into tick->zone[] (have = 0 for one that could not be read). */
void jsg_powercap_read(struct jsg_powercap *pc, struct jsg_tick *tick);
void jsg_powercap_close(struct jsg_powercap *pc);

/* --- slices (gpu_slices.c) ----------------------------------------------------------------- */
enum { JSG_ENERGY_NONE = 0, JSG_ENERGY_COUNTER = 1, JSG_ENERGY_ESTIMATED = 2 };

struct jsg_slice_dev {
    uint32_t samples; /* ticks with a reading of the device */
    uint32_t util_n;
    uint64_t util_sm_sum, util_mem_sum; /* mean = sum / util_n */
    uint32_t util_sm_max, util_mem_max;
    uint32_t mem_n;
    uint64_t mem_used_max, mem_total;
    uint32_t power_n;
    uint64_t power_mw_sum; /* mean = sum / power_n */
    uint32_t power_mw_max;
    int64_t energy_uj;
    uint8_t energy; /* JSG_ENERGY_*: counter where the device has one, else power x time;
                     * ESTIMATED when any part of the slice was estimated */
    uint8_t gone;
    uint32_t failed; /* reads that failed */
};

struct jsg_slice_proc {
    uint32_t pid;
    uint16_t dev;
    uint32_t samples, util_n;
    uint64_t util_sm_sum, util_mem_sum;
    uint32_t util_sm_max;
    uint32_t mem_n; /* readings that had its memory */
    uint64_t mem_used_max;
};

struct jsg_slice {
    int64_t index;   /* slice = floor(t / seconds) */
    int32_t seconds;
    uint32_t ticks;  /* ticks that fell into it (0: a slice that a gap spanned: energy only) */
    int ndev;
    struct jsg_slice_dev dev[JSG_MAX_DEVICES];
    int nproc;
    uint32_t proc_dropped;
    struct jsg_slice_proc proc[JSG_MAX_SLICE_PROCS];
    int nzone;
    int64_t zone_uj[JSG_MAX_ZONES];
    uint8_t zone_have[JSG_MAX_ZONES];
};

typedef void (*jsg_slice_fn)(const struct jsg_slice *s, void *arg);

struct jsg_slicer {
    int32_t seconds;
    int started;
    int64_t prev_ns;
    struct jsg_reading prev[JSG_MAX_DEVICES];
    struct jsg_zone_reading prev_zone[JSG_MAX_ZONES];
    uint32_t gap_slices_skipped; /* slices of gaps longer than JSG_MAX_GAP_SLICES: no energy */
    struct jsg_slice cur;
};
#define JSG_MAX_GAP_SLICES 256

void jsg_slicer_init(struct jsg_slicer *sl, int32_t seconds);
/* Adds a tick: closed slices (and slices a gap spanned) are handed to fn in order. Energy
 * between two ticks is shared among the slices the interval spans, in proportion to time. */
void jsg_slicer_add(struct jsg_slicer *sl, const struct jsg_tick *t, jsg_slice_fn fn, void *arg);
/* Hands the open slice to fn (the step's end: a partial slice). */
void jsg_slicer_flush(struct jsg_slicer *sl, jsg_slice_fn fn, void *arg);

/* Energy counted between two readings of a wrapping counter (powercap's energy_uj). */
uint64_t jsg_counter_delta(uint64_t prev, uint64_t cur, uint64_t max);
/* The part of e (spent evenly over [t0, t1)) that falls into [from, to): whole units whose sum
 * over adjacent ranges is exactly e. How the slicer shares energy among slices, and the relay
 * the CPU times it weighs the energy by. */
int64_t jsg_time_share(int64_t e, int64_t t0, int64_t t1, int64_t from, int64_t to);

#endif
