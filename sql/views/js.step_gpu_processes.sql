-- SPDX-License-Identifier: GPL-2.0-or-later
-- Per step, node, GPU and process of the step on it (issue 39; docs/gpu.md, "Per process"):
-- its peak GPU memory and utilization as the relay read them, with the process's rank and
-- command where the step's profiled processes know its pid (the last image of the pid: the one
-- an exec left, the program that ran on the GPU). Seen through js.may_see by the CGI.
CREATE VIEW js.step_gpu_processes AS
    SELECT gp.cluster_id, gp.job_id, gp.step_id, gp.node, j.uid, gp.uuid, g.gpu_index, g.minor, g.mig_parent, gp.pid,
           p.task_id, p.mpi_rank, p.exe, p.args, gp.samples, gp.first_slice, gp.last_slice, gp.slices,
           gp.mem_used_max, gp.util_sm_mean, gp.util_sm_max, gp.util_mem_mean
    FROM js_data.step_node_gpu_processes gp
    JOIN js_data.step_node_gpus g USING (cluster_id, job_id, step_id, node, uuid)
    JOIN js_data.jobs j ON j.cluster_id = gp.cluster_id AND j.job_id = gp.job_id
    LEFT JOIN LATERAL (
        SELECT pr.task_id, pr.mpi_rank, pr.exe, pr.args
        FROM js_data.processes pr
        WHERE pr.cluster_id = gp.cluster_id AND pr.job_id = gp.job_id AND pr.step_id = gp.step_id
          AND pr.node = gp.node AND pr.pid = gp.pid
        ORDER BY pr.image DESC
        LIMIT 1) p ON true;
COMMENT ON VIEW js.step_gpu_processes IS 'per step, node, GPU (or MIG instance) and process of the step NVML listed on it: pid, its rank (task_id: Slurm''s task, mpi_rank) and command (exe, args) where the step''s profiled processes hold the pid (NULL otherwise: not profiled, or not yet ingested), readings, first and last slice and slices it was seen in, peak GPU memory (bytes), mean and max SM utilization and mean memory utilization (%); processes of other jobs are never listed (js.step_gpus.processes_other counts them)';
