-- A step record's processes added into its step (profile_ingest calls it after their COPY).
CREATE FUNCTION js_data.ingest_step_sums(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS void
LANGUAGE sql AS $$
    UPDATE js_data.steps s SET
        processes = s.processes + a.processes,
        wall_ns = s.wall_ns + a.wall_ns,
        compute_ns = s.compute_ns + a.compute_ns,
        mpi_p2p_ns = s.mpi_p2p_ns + a.mpi_p2p_ns,
        mpi_coll_ns = s.mpi_coll_ns + a.mpi_coll_ns,
        io_posix_ns = s.io_posix_ns + a.io_posix_ns,
        io_stdio_ns = s.io_stdio_ns + a.io_stdio_ns,
        io_mpiio_ns = s.io_mpiio_ns + a.io_mpiio_ns,
        read_bytes = s.read_bytes + a.read_bytes,
        write_bytes = s.write_bytes + a.write_bytes,
        meta_calls = s.meta_calls + a.meta_calls,
        cpu_ns = s.cpu_ns + a.cpu_ns,
        killed_processes = s.killed_processes + a.killed_processes,
        files_dropped = s.files_dropped + a.files_dropped,
        idle_ns = CASE WHEN a.idle_ns IS NULL THEN s.idle_ns ELSE coalesce(s.idle_ns, 0) + a.idle_ns END,
        mpi_setup_ns = CASE WHEN a.mpi_setup_ns IS NULL THEN s.mpi_setup_ns ELSE coalesce(s.mpi_setup_ns, 0) + a.mpi_setup_ns END,
        cpu_wait_ns = CASE WHEN a.cpu_wait_ns IS NULL THEN s.cpu_wait_ns ELSE coalesce(s.cpu_wait_ns, 0) + a.cpu_wait_ns END,
        max_rss_kib = greatest(s.max_rss_kib, a.max_rss_kib),
        unattributed_read_bytes = CASE WHEN a.unattributed_read_bytes IS NULL THEN s.unattributed_read_bytes ELSE coalesce(s.unattributed_read_bytes, 0) + a.unattributed_read_bytes END,
        unattributed_write_bytes = CASE WHEN a.unattributed_write_bytes IS NULL THEN s.unattributed_write_bytes ELSE coalesce(s.unattributed_write_bytes, 0) + a.unattributed_write_bytes END,
        kernel_io_unknown = s.kernel_io_unknown + a.kernel_io_unknown
    FROM js_data.step_node_process_sums a
    WHERE a.cluster_id = p_cluster AND a.job_id = p_job AND a.step_id = p_step AND a.node = p_node
      AND s.cluster_id = p_cluster AND s.job_id = p_job AND s.step_id = p_step
$$;
COMMENT ON FUNCTION js_data.ingest_step_sums(smallint, bigint, text, text) IS 'add a step record''s processes (js_data.processes of the step on the node) into the sums of its step, once, in the record''s transaction';
