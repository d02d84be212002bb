/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The few NVML types, values and entry points jobscreen uses, declared here from NVIDIA's
 * public NVML API reference (docs.nvidia.com/deploy/nvml-api) so that the build needs no
 * CUDA or driver headers: the library is loaded at run time with dlopen (gpu_nvml.c). The
 * scripted stand-in of the tests (tests/gpu/nvml_standin.c) exports the same entry points.
 * Only the ABI matters: the layouts below are the documented structs, field for field.
 */
#ifndef JS_NVML_DECL_H
#define JS_NVML_DECL_H

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;

/* nvmlReturn_t values (the ones the sampler tells apart) */
#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_NO_PERMISSION 4
#define NVML_ERROR_NOT_FOUND 6
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_DRIVER_NOT_LOADED 9
#define NVML_ERROR_TIMEOUT 10
#define NVML_ERROR_FUNCTION_NOT_FOUND 13
#define NVML_ERROR_GPU_IS_LOST 15
#define NVML_ERROR_NO_DATA 21
#define NVML_ERROR_UNKNOWN 999

#define NVML_DEVICE_MIG_ENABLE 1
/* buffer sizes the reference gives for names and UUIDs (v2: room for MIG UUIDs) */
#define NVML_DEVICE_UUID_V2_BUFFER_SIZE 96
#define NVML_DEVICE_NAME_V2_BUFFER_SIZE 96

typedef struct {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used; /* v1: reserved memory counted as used */
} nvmlMemory_t;

typedef struct {
    unsigned int version; /* sizeof | 2 << 24 */
    unsigned long long total;
    unsigned long long reserved;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_v2_t;
#define JS_NVML_MEMORY_V2_VERSION ((unsigned int)(sizeof(nvmlMemory_v2_t) | (2u << 24)))

typedef struct {
    unsigned int gpu;    /* percent of time a kernel ran (SM) over the last sample period */
    unsigned int memory; /* percent of time device memory was read or written */
} nvmlUtilization_t;

/* the layout that nvmlDeviceGetComputeRunningProcesses_v3 (and _v2) fill */
typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlProcessInfo_t;

/* the layout of the unversioned (v1) call, drivers before R470 */
typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
} nvmlProcessInfo_v1_t;

typedef struct {
    unsigned int pid;
    unsigned long long timeStamp; /* CPU time stamp, microseconds */
    unsigned int smUtil;
    unsigned int memUtil;
    unsigned int encUtil;
    unsigned int decUtil;
} nvmlProcessUtilizationSample_t;

/* NVML's own value for "not available" in a 64-bit field */
#define JS_NVML_VALUE_NOT_AVAILABLE 0xffffffffffffffffULL

/* Entry points, as function-pointer types (the sampler resolves them with dlsym). */
typedef nvmlReturn_t (*js_nvmlInit_fn)(void);
typedef nvmlReturn_t (*js_nvmlShutdown_fn)(void);
typedef const char *(*js_nvmlErrorString_fn)(nvmlReturn_t);
typedef nvmlReturn_t (*js_nvmlDeviceGetCount_fn)(unsigned int *);
typedef nvmlReturn_t (*js_nvmlDeviceGetHandleByIndex_fn)(unsigned int, nvmlDevice_t *);
typedef nvmlReturn_t (*js_nvmlDeviceGetString_fn)(nvmlDevice_t, char *, unsigned int);
typedef nvmlReturn_t (*js_nvmlDeviceGetUint_fn)(nvmlDevice_t, unsigned int *);
typedef nvmlReturn_t (*js_nvmlDeviceGetMemoryInfo_fn)(nvmlDevice_t, nvmlMemory_t *);
typedef nvmlReturn_t (*js_nvmlDeviceGetMemoryInfo_v2_fn)(nvmlDevice_t, nvmlMemory_v2_t *);
typedef nvmlReturn_t (*js_nvmlDeviceGetUtilizationRates_fn)(nvmlDevice_t, nvmlUtilization_t *);
typedef nvmlReturn_t (*js_nvmlDeviceGetTotalEnergyConsumption_fn)(nvmlDevice_t, unsigned long long *);
typedef nvmlReturn_t (*js_nvmlDeviceGetComputeRunningProcesses_fn)(nvmlDevice_t, unsigned int *,
                                                                  nvmlProcessInfo_t *);
typedef nvmlReturn_t (*js_nvmlDeviceGetComputeRunningProcesses_v1_fn)(nvmlDevice_t, unsigned int *,
                                                                     nvmlProcessInfo_v1_t *);
typedef nvmlReturn_t (*js_nvmlDeviceGetProcessUtilization_fn)(nvmlDevice_t,
                                                             nvmlProcessUtilizationSample_t *,
                                                             unsigned int *, unsigned long long);
typedef nvmlReturn_t (*js_nvmlDeviceGetMigMode_fn)(nvmlDevice_t, unsigned int *, unsigned int *);
typedef nvmlReturn_t (*js_nvmlDeviceGetMigDeviceHandleByIndex_fn)(nvmlDevice_t, unsigned int,
                                                                 nvmlDevice_t *);
typedef nvmlReturn_t (*js_nvmlDeviceGetDeviceHandleFromMigDeviceHandle_fn)(nvmlDevice_t,
                                                                          nvmlDevice_t *);

#endif
