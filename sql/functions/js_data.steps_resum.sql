-- SPDX-License-Identifier: GPL-2.0-or-later
-- Every step's sums computed from its step-nodes', for steps that hold none yet
-- (synthetic data written straight into the tables, bench/web/synth.sql): one pass over the
-- processes.
CREATE FUNCTION js_data.steps_resum() RETURNS bigint
LANGUAGE plpgsql AS $f$
DECLARE
    n bigint;
BEGIN
    UPDATE js_data.steps s SET (processes, wall_ns, compute_ns, mpi_p2p_ns, mpi_coll_ns, io_posix_ns, io_stdio_ns, io_mpiio_ns, read_bytes, write_bytes, meta_calls, cpu_ns, killed_processes, files_dropped, idle_ns, mpi_setup_ns, cpu_wait_ns, max_rss_kib, unattributed_read_bytes, unattributed_write_bytes, kernel_io_unknown) =
        (t.processes, t.wall_ns, t.compute_ns, t.mpi_p2p_ns, t.mpi_coll_ns, t.io_posix_ns, t.io_stdio_ns, t.io_mpiio_ns, t.read_bytes, t.write_bytes, t.meta_calls, t.cpu_ns, t.killed_processes, t.files_dropped, t.idle_ns, t.mpi_setup_ns, t.cpu_wait_ns, t.max_rss_kib, t.unattributed_read_bytes, t.unattributed_write_bytes, t.kernel_io_unknown)
    FROM (SELECT a.cluster_id, a.job_id, a.step_id,
                 sum(a.processes)::integer AS processes,
                 js.saturated(sum(a.wall_ns)) AS wall_ns,
                 js.saturated(sum(a.compute_ns)) AS compute_ns,
                 js.saturated(sum(a.mpi_p2p_ns)) AS mpi_p2p_ns,
                 js.saturated(sum(a.mpi_coll_ns)) AS mpi_coll_ns,
                 js.saturated(sum(a.io_posix_ns)) AS io_posix_ns,
                 js.saturated(sum(a.io_stdio_ns)) AS io_stdio_ns,
                 js.saturated(sum(a.io_mpiio_ns)) AS io_mpiio_ns,
                 js.saturated(sum(a.read_bytes)) AS read_bytes,
                 js.saturated(sum(a.write_bytes)) AS write_bytes,
                 js.saturated(sum(a.meta_calls)) AS meta_calls,
                 js.saturated(sum(a.cpu_ns)) AS cpu_ns,
                 sum(a.killed_processes)::integer AS killed_processes,
                 js.saturated(sum(a.files_dropped)) AS files_dropped,
                 js.saturated(sum(a.idle_ns)) AS idle_ns,
                 js.saturated(sum(a.mpi_setup_ns)) AS mpi_setup_ns,
                 js.saturated(sum(a.cpu_wait_ns)) AS cpu_wait_ns,
                 max(a.max_rss_kib)::bigint AS max_rss_kib,
                 js.saturated(sum(a.unattributed_read_bytes)) AS unattributed_read_bytes,
                 js.saturated(sum(a.unattributed_write_bytes)) AS unattributed_write_bytes,
                 sum(a.kernel_io_unknown)::integer AS kernel_io_unknown
          FROM js_data.step_node_process_sums a
          GROUP BY a.cluster_id, a.job_id, a.step_id) t
    WHERE s.cluster_id = t.cluster_id AND s.job_id = t.job_id AND s.step_id = t.step_id AND s.processes = 0;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END $f$;
COMMENT ON FUNCTION js_data.steps_resum() IS 'sum the processes of every step whose sums are still empty (js_data.steps.processes = 0) into it; returns the steps';
