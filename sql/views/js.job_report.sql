-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.job_report AS
    SELECT j.cluster_id, j.cluster, j.job_id, j.uid, j.user_name, j.name, j.account, j.partition, j.workflow_id,
           j.workflow_name, j.workflow_tag, j.state, j.exit_code, j.final, j.dependency, j.submit_time, j.start_time,
           coalesce(j.end_time, s.last_step_end) AS end_time, j.num_nodes, j.num_cpus, j.nodelist,
           coalesce(s.steps, 0)::integer AS steps,
           coalesce(s.failed_steps, 0)::integer AS failed_steps,
           coalesce(s.profiled_steps, 0)::integer AS profiled_steps,
           coalesce(s.processes, 0)::integer AS processes,
           coalesce(s.wall_ns, 0)::bigint AS wall_ns,
           coalesce(s.compute_ns, 0)::bigint AS compute_ns,
           coalesce(s.mpi_ns, 0)::bigint AS mpi_ns,
           coalesce(s.io_ns, 0)::bigint AS io_ns,
           coalesce(s.read_bytes, 0)::bigint AS read_bytes,
           coalesce(s.write_bytes, 0)::bigint AS write_bytes,
           coalesce(s.read_bytes + s.write_bytes, 0)::bigint AS io_bytes,
           coalesce(s.meta_calls, 0)::bigint AS meta_calls,
           coalesce(s.meta_ops, 0)::bigint AS meta_ops,
           coalesce(s.files, 0)::integer AS files,
           coalesce(s.small_files, 0)::integer AS small_files,
           coalesce(s.cpu_ns, 0)::bigint AS cpu_ns
    FROM js.jobs j
    LEFT JOIN LATERAL (
        SELECT count(*) AS steps,
               count(*) FILTER (WHERE r.state IS DISTINCT FROM 'COMPLETED') AS failed_steps,
               count(*) FILTER (WHERE r.profiled) AS profiled_steps,
               sum(r.processes) AS processes, sum(r.wall_ns) AS wall_ns, sum(r.compute_ns) AS compute_ns,
               sum(r.mpi_ns) AS mpi_ns, sum(r.io_ns) AS io_ns, sum(r.read_bytes) AS read_bytes,
               sum(r.write_bytes) AS write_bytes, sum(r.meta_calls) AS meta_calls, sum(r.meta_ops) AS meta_ops, sum(r.files) AS files,
               sum(r.small_files) AS small_files, sum(r.cpu_ns) AS cpu_ns, max(r.end_time) AS last_step_end
        FROM js.step_report r
        WHERE r.cluster_id = j.cluster_id AND r.job_id = j.job_id) s ON true;
COMMENT ON VIEW js.job_report IS 'jobs for the reports: the sums of js.step_report over their steps (files and small_files summed per step); end_time falls back to the last step end while the job record is not final';
