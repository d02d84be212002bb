-- SPDX-License-Identifier: GPL-2.0-or-later
-- A step record's processes added into its step (profile_ingest calls it after their COPY).
CREATE FUNCTION js_data.ingest_step_sums(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS void
LANGUAGE sql AS $$
    UPDATE js_data.steps s SET
        processes = js.saturated(s.processes::numeric + a.processes),
        wall_ns = js.saturated(s.wall_ns::numeric + a.wall_ns),
        compute_ns = js.saturated(s.compute_ns::numeric + a.compute_ns),
        mpi_p2p_ns = js.saturated(s.mpi_p2p_ns::numeric + a.mpi_p2p_ns),
        mpi_coll_ns = js.saturated(s.mpi_coll_ns::numeric + a.mpi_coll_ns),
        io_posix_ns = js.saturated(s.io_posix_ns::numeric + a.io_posix_ns),
        io_stdio_ns = js.saturated(s.io_stdio_ns::numeric + a.io_stdio_ns),
        io_mpiio_ns = js.saturated(s.io_mpiio_ns::numeric + a.io_mpiio_ns),
        read_bytes = js.saturated(s.read_bytes::numeric + a.read_bytes),
        write_bytes = js.saturated(s.write_bytes::numeric + a.write_bytes),
        meta_calls = js.saturated(s.meta_calls::numeric + a.meta_calls),
        cpu_ns = js.saturated(s.cpu_ns::numeric + a.cpu_ns),
        killed_processes = js.saturated(s.killed_processes::numeric + a.killed_processes),
        files_dropped = js.saturated(s.files_dropped::numeric + a.files_dropped),
        idle_ns = CASE WHEN a.idle_ns IS NULL THEN s.idle_ns ELSE js.saturated(coalesce(s.idle_ns, 0)::numeric + a.idle_ns) END,
        mpi_setup_ns = CASE WHEN a.mpi_setup_ns IS NULL THEN s.mpi_setup_ns ELSE js.saturated(coalesce(s.mpi_setup_ns, 0)::numeric + a.mpi_setup_ns) END,
        cpu_wait_ns = CASE WHEN a.cpu_wait_ns IS NULL THEN s.cpu_wait_ns ELSE js.saturated(coalesce(s.cpu_wait_ns, 0)::numeric + a.cpu_wait_ns) END,
        max_rss_kib = greatest(s.max_rss_kib, a.max_rss_kib),
        unattributed_read_bytes = CASE WHEN a.unattributed_read_bytes IS NULL THEN s.unattributed_read_bytes ELSE js.saturated(coalesce(s.unattributed_read_bytes, 0)::numeric + a.unattributed_read_bytes) END,
        unattributed_write_bytes = CASE WHEN a.unattributed_write_bytes IS NULL THEN s.unattributed_write_bytes ELSE js.saturated(coalesce(s.unattributed_write_bytes, 0)::numeric + a.unattributed_write_bytes) END,
        kernel_io_unknown = js.saturated(s.kernel_io_unknown::numeric + a.kernel_io_unknown)
    FROM js_data.step_node_process_sums a
    WHERE a.cluster_id = p_cluster AND a.job_id = p_job AND a.step_id = p_step AND a.node = p_node
      AND s.cluster_id = p_cluster AND s.job_id = p_job AND s.step_id = p_step
$$;
COMMENT ON FUNCTION js_data.ingest_step_sums(smallint, bigint, text, text) IS 'add a step record''s processes (js_data.processes of the step on the node) into the sums of its step, once, in the record''s transaction';
