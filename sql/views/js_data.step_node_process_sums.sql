-- SPDX-License-Identifier: GPL-2.0-or-later
-- A step-node's sums over its processes, as js.steps shows them for a step (the expressions of
-- every sum, once: the ingest adds one step-node's into its step, steps_resum all of a step's).
CREATE VIEW js_data.step_node_process_sums AS
    SELECT p.cluster_id, p.job_id, p.step_id, p.node,
           (count(*))::integer AS processes,
           js.saturated(coalesce(sum(p.wall_ns), 0)) AS wall_ns,
           js.saturated(coalesce(sum(p.compute_ns), 0)) AS compute_ns,
           js.saturated(coalesce(sum(p.mpi_p2p_ns), 0)) AS mpi_p2p_ns,
           js.saturated(coalesce(sum(p.mpi_coll_ns), 0)) AS mpi_coll_ns,
           js.saturated(coalesce(sum(p.posix_ns), 0)) AS io_posix_ns,
           js.saturated(coalesce(sum(p.stdio_ns), 0)) AS io_stdio_ns,
           js.saturated(coalesce(sum(p.mpiio_ns), 0)) AS io_mpiio_ns,
           js.saturated(coalesce(sum(p.posix_read_bytes) + sum(p.stdio_read_bytes) + sum(p.mpiio_read_bytes), 0)) AS read_bytes,
           js.saturated(coalesce(sum(p.posix_write_bytes) + sum(p.stdio_write_bytes) + sum(p.mpiio_write_bytes), 0)) AS write_bytes,
           js.saturated(coalesce(sum(p.posix_open_calls) + sum(p.posix_meta_calls) + sum(p.stdio_open_calls) + sum(p.stdio_meta_calls) + sum(p.mpiio_meta_calls), 0)) AS meta_calls,
           js.saturated(coalesce(sum(p.cpu_ns), 0)) AS cpu_ns,
           (count(*) FILTER (WHERE p.ended_by = 'signal'))::integer AS killed_processes,
           js.saturated(coalesce(sum(p.files_dropped), 0)) AS files_dropped,
           js.saturated(sum(p.idle_ns)) AS idle_ns,
           js.saturated(sum(p.mpi_setup_ns)) AS mpi_setup_ns,
           js.saturated(sum(p.cpu_wait_ns)) AS cpu_wait_ns,
           (max(p.max_rss_kib))::bigint AS max_rss_kib,
           js.saturated(sum(js_data.unattributed(p.kernel_rchar, p.posix_read_bytes + p.stdio_read_bytes + p.lower_read_bytes))) AS unattributed_read_bytes,
           js.saturated(sum(js_data.unattributed(p.kernel_wchar, p.posix_write_bytes + p.stdio_write_bytes + p.lower_write_bytes))) AS unattributed_write_bytes,
           (count(*) FILTER (WHERE p.kernel_rchar IS NULL))::integer AS kernel_io_unknown
    FROM js_data.processes p
    GROUP BY p.cluster_id, p.job_id, p.step_id, p.node;
COMMENT ON VIEW js_data.step_node_process_sums IS 'per step-node, the sums over its processes that js_data.steps keeps per step (filter by the step-node: the filter reaches the processes'' index)';
