-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 050: the step's processes on its GPUs (issue 39; docs/gpu.md,
-- "Per process"). The relay lists, per GPU, the processes NVML reports that are the step's (its
-- cgroup, or descendants of its slurmstepd), with their peak memory and utilization; another
-- job's process on a shared GPU is only counted. A row per step-node, GPU and process; per GPU
-- the processes left out.

CREATE TABLE js_data.step_node_gpu_processes (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    uuid text NOT NULL,
    pid integer NOT NULL,
    samples bigint NOT NULL,
    first_slice bigint NOT NULL,
    last_slice bigint NOT NULL,
    slices integer NOT NULL,
    mem_used_max bigint,
    util_sm_mean double precision,
    util_sm_max integer,
    util_mem_mean double precision,
    PRIMARY KEY (cluster_id, job_id, step_id, node, uuid, pid),
    FOREIGN KEY (cluster_id, job_id, step_id, node, uuid) REFERENCES js_data.step_node_gpus ON DELETE CASCADE
);
COMMENT ON TABLE js_data.step_node_gpu_processes IS 'one row per step, node, GPU (or MIG instance) and process of the step NVML listed on it: its figures over the step (the relay''s readings, root''s, once a second; docs/gpu.md, "Per process"); a GPU lists at most 32 (the highest peak memory), step_node_gpus.processes_dropped counts the rest';
COMMENT ON COLUMN js_data.step_node_gpu_processes.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.step_node_gpu_processes.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.step_node_gpu_processes.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.step_node_gpu_processes.node IS 'Slurm node name';
COMMENT ON COLUMN js_data.step_node_gpu_processes.uuid IS 'the device''s UUID (GPU-... or MIG-...)';
COMMENT ON COLUMN js_data.step_node_gpu_processes.pid IS 'process id as the node sees it (NVML''s; the profiled processes'' pid)';
COMMENT ON COLUMN js_data.step_node_gpu_processes.samples IS 'readings that listed the process on the device';
COMMENT ON COLUMN js_data.step_node_gpu_processes.first_slice IS 'first slice it was seen in';
COMMENT ON COLUMN js_data.step_node_gpu_processes.last_slice IS 'last slice it was seen in';
COMMENT ON COLUMN js_data.step_node_gpu_processes.slices IS 'slices it was seen in';
COMMENT ON COLUMN js_data.step_node_gpu_processes.mem_used_max IS 'its peak GPU memory on the device, bytes; NULL: NVML gave none';
COMMENT ON COLUMN js_data.step_node_gpu_processes.util_sm_mean IS 'mean SM utilization over the readings with a sample of it (nvmlDeviceGetProcessUtilization), %; NULL: none (an idle process, a MIG instance)';
COMMENT ON COLUMN js_data.step_node_gpu_processes.util_sm_max IS 'the highest SM utilization sampled, %';
COMMENT ON COLUMN js_data.step_node_gpu_processes.util_mem_mean IS 'mean memory (bandwidth) utilization over those samples, %';

ALTER TABLE js_data.step_node_gpus ADD COLUMN processes_dropped integer, ADD COLUMN processes_other integer;
COMMENT ON COLUMN js_data.step_node_gpus.processes_dropped IS 'processes of the step on the device beyond the 32 js_data.step_node_gpu_processes lists; NULL: the record listed no processes (before migration 050)';
COMMENT ON COLUMN js_data.step_node_gpus.processes_other IS 'processes NVML listed on the device that were not the step''s (another job''s or a daemon''s on a shared GPU): counted, never attributed';
