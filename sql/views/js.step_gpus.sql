-- SPDX-License-Identifier: GPL-2.0-or-later
-- Per step, node and GPU (or MIG instance) its figures over the step (issue 39; docs/gpu.md):
-- what the relay of the step-node read as root once a second. Seen through js.may_see by the
-- CGI, like every view of a job.
CREATE VIEW js.step_gpus AS
    SELECT g.cluster_id, g.job_id, g.step_id, g.node, j.uid, g.uuid, g.name, g.gpu_index, g.minor, g.mig_parent,
           g.mem_total, g.first_slice, g.last_slice, g.samples, g.util_sm_mean, g.util_sm_max, g.util_mem_mean,
           g.util_mem_max, g.mem_used_max, g.power_w_mean, g.power_w_max, g.energy_j, g.energy_kind, g.gone,
           g.failed_reads, g.processes_dropped, g.processes_other
    FROM js_data.step_node_gpus g
    JOIN js_data.jobs j ON j.cluster_id = g.cluster_id AND j.job_id = g.job_id;
COMMENT ON VIEW js.step_gpus IS 'per step, node and GPU (or MIG instance) the step was given: readings (samples), mean and max SM and memory utilization (%), peak memory and the device''s total (bytes), mean and max power (W), energy (J; energy_kind: counter, estimated from power, none), gone (disappeared during the step), failed_reads; processes_dropped: the step''s processes on it beyond those js.step_gpu_processes lists, processes_other: processes not the step''s NVML listed on it (counted, not attributed; NULL: no process list)';
