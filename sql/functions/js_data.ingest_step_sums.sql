-- SPDX-License-Identifier: GPL-2.0-or-later
-- The steps of a batch of step records (profile_ingest calls it once per transaction, after
-- the COPY of their processes): first each step's row merged with its records' values
-- (ingest_batch_steps, in the order of their claims: the same row as one record after another
-- gave), then their processes added into its sums, the step-nodes of one step summed first, so
-- each step row is written twice a transaction, not at every record. PL/pgSQL for its cached
-- plans: as a SQL function the statement was planned at every call (0.76 ms a step record).
CREATE FUNCTION js_data.ingest_step_sums(p_cluster smallint, p_jobs bigint[], p_steps text[], p_nodes text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    -- in the order of the keys, as the claims lock (two daemons never wait in a circle); a
    -- new step's row takes its first record's name and counts, the state is the first one
    -- that is not COMPLETED, and the CPUs sum (a lone record's unknown count stays unknown)
    INSERT INTO js_data.steps AS s (cluster_id, job_id, step_id, name, start_time, end_time, state, exit_code,
            num_nodes, num_tasks, num_cpus, nodelist, profiled, first_slice, last_slice, nodes_ingested, incomplete)
        SELECT p_cluster, b.job_id, b.step_id, (array_agg(b.name ORDER BY b.ord))[1], min(b.start_time), max(b.end_time),
            CASE WHEN bool_and(b.state IS NOT DISTINCT FROM 'COMPLETED') THEN 'COMPLETED'
                 ELSE (array_agg(b.state ORDER BY b.ord) FILTER (WHERE b.state IS DISTINCT FROM 'COMPLETED'))[1] END,
            max(b.exit_code), (array_agg(b.num_nodes ORDER BY b.ord))[1], (array_agg(b.num_tasks ORDER BY b.ord))[1],
            CASE WHEN count(*) = 1 THEN min(b.num_cpus) ELSE sum(coalesce(b.num_cpus, 0)) END,
            (array_agg(b.nodelist ORDER BY b.ord))[1], bool_or(b.profiled), min(b.first_slice), max(b.last_slice),
            count(*), bool_or(b.incomplete)
        FROM ingest_batch_steps b
        GROUP BY b.job_id, b.step_id
        ORDER BY b.job_id, b.step_id
        ON CONFLICT (cluster_id, job_id, step_id) DO UPDATE SET
            start_time = least(s.start_time, excluded.start_time),
            end_time = greatest(s.end_time, excluded.end_time),
            state = CASE WHEN s.state = 'COMPLETED' THEN excluded.state ELSE s.state END,
            exit_code = greatest(s.exit_code, excluded.exit_code),
            num_cpus = coalesce(s.num_cpus, 0) + coalesce(excluded.num_cpus, 0),
            profiled = s.profiled OR excluded.profiled,
            first_slice = least(s.first_slice, excluded.first_slice),
            last_slice = greatest(s.last_slice, excluded.last_slice),
            nodes_ingested = s.nodes_ingested + excluded.nodes_ingested,
            incomplete = s.incomplete OR excluded.incomplete;
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
    FROM (
        -- per step over the batch's step-nodes; the view reached through LATERAL, so that each
        -- step-node's filter reaches the processes' index (a join would group every process).
        -- OFFSET 0 keeps the subquery whole: pulled up, its filter became a join condition the
        -- planner cannot push into the view's GROUP BY, and every batch grouped the whole table
        -- (87 ms for 64 step-nodes on 73,422 processes, growing with the table; 1 ms with it)
        SELECT k.job_id, k.step_id, sum(n.processes) AS processes, sum(n.wall_ns) AS wall_ns,
               sum(n.compute_ns) AS compute_ns, sum(n.mpi_p2p_ns) AS mpi_p2p_ns, sum(n.mpi_coll_ns) AS mpi_coll_ns,
               sum(n.io_posix_ns) AS io_posix_ns, sum(n.io_stdio_ns) AS io_stdio_ns, sum(n.io_mpiio_ns) AS io_mpiio_ns,
               sum(n.read_bytes) AS read_bytes, sum(n.write_bytes) AS write_bytes, sum(n.meta_calls) AS meta_calls,
               sum(n.cpu_ns) AS cpu_ns, sum(n.killed_processes) AS killed_processes, sum(n.files_dropped) AS files_dropped,
               sum(n.idle_ns) AS idle_ns, sum(n.mpi_setup_ns) AS mpi_setup_ns, sum(n.cpu_wait_ns) AS cpu_wait_ns,
               max(n.max_rss_kib) AS max_rss_kib, sum(n.unattributed_read_bytes) AS unattributed_read_bytes,
               sum(n.unattributed_write_bytes) AS unattributed_write_bytes, sum(n.kernel_io_unknown) AS kernel_io_unknown
        FROM unnest(p_jobs, p_steps, p_nodes) AS k(job_id, step_id, node)
        CROSS JOIN LATERAL (SELECT * FROM js_data.step_node_process_sums v
                            WHERE v.cluster_id = p_cluster AND v.job_id = k.job_id AND v.step_id = k.step_id
                              AND v.node = k.node OFFSET 0) n
        GROUP BY k.job_id, k.step_id) a
    WHERE s.cluster_id = p_cluster AND s.job_id = a.job_id AND s.step_id = a.step_id;
END $$;
COMMENT ON FUNCTION js_data.ingest_step_sums(smallint, bigint[], text[], text[]) IS 'merge the steps of a transaction''s step records (ingest_batch_steps) into js_data.steps, then add their processes (js_data.processes of each step on its node; the arrays: job, step, node) into the sums of their steps, once each, in the records'' transaction';
