-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.step_report AS
    SELECT s.cluster_id, s.job_id, s.step_id, s.uid, j.user_name, j.name AS job_name, j.account, j.partition,
           j.workflow_id, j.workflow_name, js.application(s.step_id, s.name, j.name) AS application,
           coalesce(s.script, s.name) AS executable, s.start_time, s.end_time, s.elapsed_s, s.state, s.exit_code,
           s.num_nodes, s.num_tasks, s.num_cpus, s.nodelist, s.profiled, r.profile_reason, s.incomplete,
           s.processes, s.wall_ns, s.compute_ns,
           (s.mpi_p2p_ns + s.mpi_coll_ns)::bigint AS mpi_ns,
           (s.io_posix_ns + s.io_stdio_ns + s.io_mpiio_ns)::bigint AS io_ns,
           CASE WHEN s.wall_ns > 0 THEN (s.mpi_p2p_ns + s.mpi_coll_ns)::double precision / s.wall_ns END AS mpi_share,
           CASE WHEN s.wall_ns > 0 THEN (s.io_posix_ns + s.io_stdio_ns + s.io_mpiio_ns)::double precision / s.wall_ns END AS io_share,
           s.read_bytes, s.write_bytes, (s.read_bytes + s.write_bytes)::bigint AS io_bytes, s.meta_calls,
           coalesce(m.meta_ops, 0)::bigint AS meta_ops, s.cpu_ns,
           coalesce(f.files, 0)::integer AS files, coalesce(f.small_files, 0)::integer AS small_files,
           s.idle_ns, s.mpi_setup_ns, s.cpu_wait_ns,
           CASE WHEN b.budget_ns > 0 THEN s.compute_ns::double precision / b.budget_ns END AS compute_share,
           CASE WHEN b.budget_ns > 0 THEN s.idle_ns::double precision / b.budget_ns END AS idle_share,
           CASE WHEN b.budget_ns > 0 THEN s.cpu_wait_ns::double precision / b.budget_ns END AS cpu_wait_share,
           s.max_rss_kib, s.unattributed_read_bytes, s.unattributed_write_bytes
    FROM js.steps s
    CROSS JOIN LATERAL (SELECT CASE WHEN s.idle_ns IS NOT NULL THEN s.compute_ns + s.mpi_p2p_ns + s.mpi_coll_ns + s.mpi_setup_ns
                                   + s.io_posix_ns + s.io_stdio_ns + s.io_mpiio_ns + s.cpu_wait_ns + s.idle_ns END AS budget_ns) b
    JOIN js.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id
    LEFT JOIN LATERAL (
        SELECT string_agg(DISTINCT sn.record->>'profile_reason', ',') AS profile_reason
        FROM js_data.step_nodes sn
        WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id AND sn.step_id = s.step_id) r ON true
    LEFT JOIN LATERAL (
        SELECT sum(p.posix_open_calls + p.posix_meta_calls + p.stdio_open_calls + p.mpiio_meta_calls) AS meta_ops
        FROM js_data.processes p
        WHERE p.cluster_id = s.cluster_id AND p.job_id = s.job_id AND p.step_id = s.step_id) m ON true
    LEFT JOIN LATERAL (
        SELECT count(DISTINCT a.file_id) AS files,
               count(DISTINCT a.file_id) FILTER (WHERE a.bytes_read + a.bytes_written < js.small_file_bytes()) AS small_files
        FROM js_data.file_accesses a
        WHERE a.cluster_id = s.cluster_id AND a.job_id = s.job_id AND a.step_id = s.step_id) f ON true;
COMMENT ON VIEW js.step_report IS 'steps for the reports: application, runtime shares (mpi_share, io_share of the summed process wall time; compute_share, idle_share, cpu_wait_share of the processes'' time budget, NULL before profile format 4), I/O volume, meta_ops (file system metadata: POSIX open and metadata calls, fopen, MPI-IO open/close/sync/seek; not stdio fflush/fseek/fclose, which bash alone calls once per builtin), files and small files, profile_reason from the step records, peak memory (max_rss_kib, the largest process) and unattributed_*_bytes (what the kernel counted beyond the wrappers)';
