-- A step-node's sums over its processes, as js.steps shows them for a step (the expressions of
-- every sum, once: the ingest adds one step-node's into its step, steps_resum all of a step's).
CREATE VIEW js_data.step_node_process_sums AS
    SELECT p.cluster_id, p.job_id, p.step_id, p.node,
           (count(*))::integer AS processes,
           (coalesce(sum(p.wall_ns), 0))::bigint AS wall_ns,
           (coalesce(sum(p.compute_ns), 0))::bigint AS compute_ns,
           (coalesce(sum(p.mpi_p2p_ns), 0))::bigint AS mpi_p2p_ns,
           (coalesce(sum(p.mpi_coll_ns), 0))::bigint AS mpi_coll_ns,
           (coalesce(sum(p.posix_ns), 0))::bigint AS io_posix_ns,
           (coalesce(sum(p.stdio_ns), 0))::bigint AS io_stdio_ns,
           (coalesce(sum(p.mpiio_ns), 0))::bigint AS io_mpiio_ns,
           (coalesce(sum(p.posix_read_bytes) + sum(p.stdio_read_bytes) + sum(p.mpiio_read_bytes), 0))::bigint AS read_bytes,
           (coalesce(sum(p.posix_write_bytes) + sum(p.stdio_write_bytes) + sum(p.mpiio_write_bytes), 0))::bigint AS write_bytes,
           (coalesce(sum(p.posix_open_calls) + sum(p.posix_meta_calls) + sum(p.stdio_open_calls) + sum(p.stdio_meta_calls) + sum(p.mpiio_meta_calls), 0))::bigint AS meta_calls,
           (coalesce(sum(p.cpu_ns), 0))::bigint AS cpu_ns,
           (count(*) FILTER (WHERE p.ended_by = 'signal'))::integer AS killed_processes,
           (coalesce(sum(p.files_dropped), 0))::bigint AS files_dropped,
           (sum(p.idle_ns))::bigint AS idle_ns,
           (sum(p.mpi_setup_ns))::bigint AS mpi_setup_ns,
           (sum(p.cpu_wait_ns))::bigint AS cpu_wait_ns,
           (max(p.max_rss_kib))::bigint AS max_rss_kib,
           (sum(js_data.unattributed(p.kernel_rchar, p.posix_read_bytes + p.stdio_read_bytes + p.lower_read_bytes)))::bigint AS unattributed_read_bytes,
           (sum(js_data.unattributed(p.kernel_wchar, p.posix_write_bytes + p.stdio_write_bytes + p.lower_write_bytes)))::bigint AS unattributed_write_bytes,
           (count(*) FILTER (WHERE p.kernel_rchar IS NULL))::integer AS kernel_io_unknown
    FROM js_data.processes p
    GROUP BY p.cluster_id, p.job_id, p.step_id, p.node;
COMMENT ON VIEW js_data.step_node_process_sums IS 'per step-node, the sums over its processes that js_data.steps keeps per step (filter by the step-node: the filter reaches the processes'' index)';
