-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 043: GPUs and energy per step (issue 39; docs/gpu.md). The
-- relay of each step-node samples the step's GPUs (NVML) and the node's CPU energy (powercap)
-- as root, and the step record carries what it found ("gpu", record-format.md). Per step-node
-- and GPU its figures over the step; per chunk of slices its series; on the step-node the
-- energy, and in words what is missing.

CREATE TABLE js_data.step_node_gpus (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    uuid text NOT NULL,
    name text,
    gpu_index integer,
    minor integer,
    mig_parent text,
    mem_total bigint,
    first_slice bigint,
    last_slice bigint,
    samples bigint NOT NULL,
    util_sm_mean double precision,
    util_sm_max integer,
    util_mem_mean double precision,
    util_mem_max integer,
    mem_used_max bigint,
    power_w_mean double precision,
    power_w_max double precision,
    energy_j double precision,
    energy_kind text NOT NULL,
    gone boolean NOT NULL,
    failed_reads integer NOT NULL,
    PRIMARY KEY (cluster_id, job_id, step_id, node, uuid),
    FOREIGN KEY (cluster_id, job_id, step_id, node) REFERENCES js_data.step_nodes ON DELETE CASCADE
);
COMMENT ON TABLE js_data.step_node_gpus IS 'one row per step, node and GPU (or MIG instance) the step was given: its figures over the step, from the relay''s readings (root''s, once a second; docs/gpu.md)';
COMMENT ON COLUMN js_data.step_node_gpus.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.step_node_gpus.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.step_node_gpus.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.step_node_gpus.node IS 'Slurm node name';
COMMENT ON COLUMN js_data.step_node_gpus.name IS 'the device''s name as NVML gives it (a MIG instance: its profile, 3g.71gb)';
COMMENT ON COLUMN js_data.step_node_gpus.util_sm_max IS 'the highest SM utilization read, %';
COMMENT ON COLUMN js_data.step_node_gpus.util_mem_max IS 'the highest memory utilization read, %';
COMMENT ON COLUMN js_data.step_node_gpus.power_w_max IS 'the highest power read, W';
COMMENT ON COLUMN js_data.step_node_gpus.uuid IS 'the device''s UUID (GPU-... or MIG-...)';
COMMENT ON COLUMN js_data.step_node_gpus.gpu_index IS 'NVML index of the GPU (of its parent for a MIG instance)';
COMMENT ON COLUMN js_data.step_node_gpus.minor IS 'N of /dev/nvidiaN (Slurm''s GPU index where gres.conf names the files); NULL when NVML did not say';
COMMENT ON COLUMN js_data.step_node_gpus.mig_parent IS 'a MIG instance: the UUID of its GPU; NULL for a GPU';
COMMENT ON COLUMN js_data.step_node_gpus.mem_total IS 'the device''s memory, bytes';
COMMENT ON COLUMN js_data.step_node_gpus.first_slice IS 'first slice with a reading of the step on this node';
COMMENT ON COLUMN js_data.step_node_gpus.last_slice IS 'last such slice';
COMMENT ON COLUMN js_data.step_node_gpus.samples IS 'readings of the device';
COMMENT ON COLUMN js_data.step_node_gpus.util_sm_mean IS 'mean SM utilization over the readings that had one, %; NULL: none (a MIG instance has none)';
COMMENT ON COLUMN js_data.step_node_gpus.util_mem_mean IS 'mean memory (bandwidth) utilization, %';
COMMENT ON COLUMN js_data.step_node_gpus.mem_used_max IS 'peak memory used, bytes; NULL: never read';
COMMENT ON COLUMN js_data.step_node_gpus.power_w_mean IS 'mean power, W; NULL: none read';
COMMENT ON COLUMN js_data.step_node_gpus.energy_j IS 'energy over the step, J (the device''s counter difference, or power x time: energy_kind)';
COMMENT ON COLUMN js_data.step_node_gpus.energy_kind IS 'counter (the device''s energy counter), estimated (power x time somewhere in the step), none';
COMMENT ON COLUMN js_data.step_node_gpus.gone IS 'the device disappeared during the step (its later slices have no reading)';
COMMENT ON COLUMN js_data.step_node_gpus.failed_reads IS 'readings of the device that failed';

CREATE TABLE js_data.series_step_node_gpu (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    uuid text NOT NULL,
    chunk bigint NOT NULL,
    first_slice bigint NOT NULL,
    slices integer NOT NULL,
    samples bytea,
    util_n bytea,
    util_sm_sum bytea,
    util_mem_sum bytea,
    util_sm_max bytea,
    util_mem_max bytea,
    mem_used_max bytea,
    power_n bytea,
    power_mw_sum bytea,
    energy_uj bytea,
    PRIMARY KEY (cluster_id, job_id, step_id, node, uuid, chunk),
    FOREIGN KEY (cluster_id, job_id, step_id, node, uuid) REFERENCES js_data.step_node_gpus ON DELETE CASCADE
);
COMMENT ON TABLE js_data.series_step_node_gpu IS 'per step-node and GPU, its slices as encoded series (docs/schema.md, "Series"), one row per chunk of 900 slices: readings (samples), readings with utilization (util_n) and the sums and maxima of SM and memory utilization (mean = sum / util_n, %), peak memory (bytes), readings with power (power_n) and their sum (mW; mean = sum / power_n), energy (uJ)';

COMMENT ON COLUMN js_data.series_step_node_gpu.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.series_step_node_gpu.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.series_step_node_gpu.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.series_step_node_gpu.node IS 'Slurm node name';
COMMENT ON COLUMN js_data.series_step_node_gpu.uuid IS 'the device''s UUID';
COMMENT ON COLUMN js_data.series_step_node_gpu.chunk IS 'first slice of the chunk (js_data.series_chunk_of)';
COMMENT ON COLUMN js_data.series_step_node_gpu.first_slice IS 'first slice of the row';
COMMENT ON COLUMN js_data.series_step_node_gpu.slices IS 'slices the row covers';
COMMENT ON COLUMN js_data.series_step_node_gpu.samples IS 'per slice, readings of the device (encoded series)';
COMMENT ON COLUMN js_data.series_step_node_gpu.util_n IS 'per slice, readings with utilization (encoded series)';
COMMENT ON COLUMN js_data.series_step_node_gpu.util_sm_sum IS 'per slice, the sum of SM utilization over util_n readings, % (encoded series)';
COMMENT ON COLUMN js_data.series_step_node_gpu.util_mem_sum IS 'per slice, the sum of memory utilization over util_n readings, % (encoded series)';
COMMENT ON COLUMN js_data.series_step_node_gpu.util_sm_max IS 'per slice, the highest SM utilization, % (encoded series)';
COMMENT ON COLUMN js_data.series_step_node_gpu.util_mem_max IS 'per slice, the highest memory utilization, % (encoded series)';
COMMENT ON COLUMN js_data.series_step_node_gpu.mem_used_max IS 'per slice, peak memory used, bytes (encoded series)';
COMMENT ON COLUMN js_data.series_step_node_gpu.power_n IS 'per slice, readings with power (encoded series)';
COMMENT ON COLUMN js_data.series_step_node_gpu.power_mw_sum IS 'per slice, the sum of power over power_n readings, mW (encoded series)';
COMMENT ON COLUMN js_data.series_step_node_gpu.energy_uj IS 'per slice, energy, uJ: the counter difference shared by time (encoded series)';

-- a table of its own rather than columns of step_nodes: a step-node without readings has no row,
-- and step_nodes keeps its columns' order (tests/integration/51 re-applies 036's columns there)
CREATE TABLE js_data.step_node_energy (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    gpus integer NOT NULL,
    gpu_energy_j double precision,
    cpu_energy_j double precision,
    node_cpu_energy_j double precision,
    gpu_note text,
    PRIMARY KEY (cluster_id, job_id, step_id, node),
    FOREIGN KEY (cluster_id, job_id, step_id, node) REFERENCES js_data.step_nodes ON DELETE CASCADE
);
COMMENT ON TABLE js_data.step_node_energy IS 'one row per step-node whose step record carried GPU or CPU-energy readings (the step had GPUs, or the node has powercap): what they add up to, and what they lack';
COMMENT ON COLUMN js_data.step_node_energy.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.step_node_energy.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.step_node_energy.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.step_node_energy.node IS 'Slurm node name';
COMMENT ON COLUMN js_data.step_node_energy.gpus IS 'GPUs (and MIG instances) of the step on this node that were read (js_data.step_node_gpus)';
COMMENT ON COLUMN js_data.step_node_energy.gpu_energy_j IS 'energy of the step''s GPUs on this node, J; NULL: none measured';
COMMENT ON COLUMN js_data.step_node_energy.cpu_energy_j IS 'the step''s share of the node''s CPU energy (powercap), J: the node''s energy in each slice times the step''s share of the node''s busy CPU time; NULL: not known (gpu_note says why)';
COMMENT ON COLUMN js_data.step_node_energy.node_cpu_energy_j IS 'the node''s CPU energy (RAPL package and dram zones) while the step ran, J; NULL: no powercap';
COMMENT ON COLUMN js_data.step_node_energy.gpu_note IS 'what the GPU and energy readings of the step-node lack, in words (NVML missing or failing while GPUs were asked for, a GPU gone, series cut, the CPU share unknown); NULL: nothing';
