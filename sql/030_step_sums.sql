-- jobscreen schema, migration 030: a step's sums over its processes kept with the step (issue 13).
--
-- js.steps summed every process of a step at every read (30 aggregates per step): a 1,000-job
-- workflow graph spent 22 of its 43 ms of SQL on 3,000 such sums. The ingest now adds each step
-- record's processes into its step (js_data.ingest_step_sums, in the record's transaction: every
-- step-node is ingested exactly once), the migration sums what is there, and js.steps reads the
-- columns. Running steps (live snapshots) are still summed at read time.

ALTER TABLE js_data.steps
    ADD COLUMN processes integer NOT NULL DEFAULT 0,
    ADD COLUMN wall_ns bigint NOT NULL DEFAULT 0,
    ADD COLUMN compute_ns bigint NOT NULL DEFAULT 0,
    ADD COLUMN mpi_p2p_ns bigint NOT NULL DEFAULT 0,
    ADD COLUMN mpi_coll_ns bigint NOT NULL DEFAULT 0,
    ADD COLUMN io_posix_ns bigint NOT NULL DEFAULT 0,
    ADD COLUMN io_stdio_ns bigint NOT NULL DEFAULT 0,
    ADD COLUMN io_mpiio_ns bigint NOT NULL DEFAULT 0,
    ADD COLUMN read_bytes bigint NOT NULL DEFAULT 0,
    ADD COLUMN write_bytes bigint NOT NULL DEFAULT 0,
    ADD COLUMN meta_calls bigint NOT NULL DEFAULT 0,
    ADD COLUMN cpu_ns bigint NOT NULL DEFAULT 0,
    ADD COLUMN killed_processes integer NOT NULL DEFAULT 0,
    ADD COLUMN files_dropped bigint NOT NULL DEFAULT 0,
    ADD COLUMN idle_ns bigint,
    ADD COLUMN mpi_setup_ns bigint,
    ADD COLUMN cpu_wait_ns bigint,
    ADD COLUMN max_rss_kib bigint,
    ADD COLUMN unattributed_read_bytes bigint,
    ADD COLUMN unattributed_write_bytes bigint,
    ADD COLUMN kernel_io_unknown integer NOT NULL DEFAULT 0;
COMMENT ON COLUMN js_data.steps.processes IS 'over the step''s ingested processes: count(*) (js.steps)';
COMMENT ON COLUMN js_data.steps.wall_ns IS 'over the step''s ingested processes: sum(p.wall_ns) (js.steps)';
COMMENT ON COLUMN js_data.steps.compute_ns IS 'over the step''s ingested processes: sum(p.compute_ns) (js.steps)';
COMMENT ON COLUMN js_data.steps.mpi_p2p_ns IS 'over the step''s ingested processes: sum(p.mpi_p2p_ns) (js.steps)';
COMMENT ON COLUMN js_data.steps.mpi_coll_ns IS 'over the step''s ingested processes: sum(p.mpi_coll_ns) (js.steps)';
COMMENT ON COLUMN js_data.steps.io_posix_ns IS 'over the step''s ingested processes: sum(p.posix_ns) (js.steps)';
COMMENT ON COLUMN js_data.steps.io_stdio_ns IS 'over the step''s ingested processes: sum(p.stdio_ns) (js.steps)';
COMMENT ON COLUMN js_data.steps.io_mpiio_ns IS 'over the step''s ingested processes: sum(p.mpiio_ns) (js.steps)';
COMMENT ON COLUMN js_data.steps.read_bytes IS 'over the step''s ingested processes: sum(p.posix_read_bytes) + sum(p.stdio_read_bytes) + sum(p.mpiio_read_bytes) (js.steps)';
COMMENT ON COLUMN js_data.steps.write_bytes IS 'over the step''s ingested processes: sum(p.posix_write_bytes) + sum(p.stdio_write_bytes) + sum(p.mpiio_write_bytes) (js.steps)';
COMMENT ON COLUMN js_data.steps.meta_calls IS 'over the step''s ingested processes: sum(p.posix_open_calls) + sum(p.posix_meta_calls) + sum(p.stdio_open_calls) + sum(p.stdio_meta_calls) + sum(p.mpiio_meta_calls) (js.steps)';
COMMENT ON COLUMN js_data.steps.cpu_ns IS 'over the step''s ingested processes: sum(p.cpu_ns) (js.steps)';
COMMENT ON COLUMN js_data.steps.killed_processes IS 'over the step''s ingested processes: count(*) FILTER (WHERE p.ended_by = ''signal'') (js.steps)';
COMMENT ON COLUMN js_data.steps.files_dropped IS 'over the step''s ingested processes: sum(p.files_dropped) (js.steps)';
COMMENT ON COLUMN js_data.steps.idle_ns IS 'over the step''s ingested processes: sum(p.idle_ns) (js.steps)';
COMMENT ON COLUMN js_data.steps.mpi_setup_ns IS 'over the step''s ingested processes: sum(p.mpi_setup_ns) (js.steps)';
COMMENT ON COLUMN js_data.steps.cpu_wait_ns IS 'over the step''s ingested processes: sum(p.cpu_wait_ns) (js.steps)';
COMMENT ON COLUMN js_data.steps.max_rss_kib IS 'over the step''s ingested processes: max(p.max_rss_kib) (js.steps)';
COMMENT ON COLUMN js_data.steps.unattributed_read_bytes IS 'over the step''s ingested processes: sum(js_data.unattributed(p.kernel_rchar, p.posix_read_bytes + p.stdio_read_bytes + p.lower_read_bytes)) (js.steps)';
COMMENT ON COLUMN js_data.steps.unattributed_write_bytes IS 'over the step''s ingested processes: sum(js_data.unattributed(p.kernel_wchar, p.posix_write_bytes + p.stdio_write_bytes + p.lower_write_bytes)) (js.steps)';
COMMENT ON COLUMN js_data.steps.kernel_io_unknown IS 'over the step''s ingested processes: count(*) FILTER (WHERE p.kernel_rchar IS NULL) (js.steps)';

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

-- Every step's sums computed from its step-nodes', for steps that hold none yet (this migration;
-- synthetic data written straight into the tables, bench/web/synth.sql): one pass over the
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
                 sum(a.wall_ns)::bigint AS wall_ns,
                 sum(a.compute_ns)::bigint AS compute_ns,
                 sum(a.mpi_p2p_ns)::bigint AS mpi_p2p_ns,
                 sum(a.mpi_coll_ns)::bigint AS mpi_coll_ns,
                 sum(a.io_posix_ns)::bigint AS io_posix_ns,
                 sum(a.io_stdio_ns)::bigint AS io_stdio_ns,
                 sum(a.io_mpiio_ns)::bigint AS io_mpiio_ns,
                 sum(a.read_bytes)::bigint AS read_bytes,
                 sum(a.write_bytes)::bigint AS write_bytes,
                 sum(a.meta_calls)::bigint AS meta_calls,
                 sum(a.cpu_ns)::bigint AS cpu_ns,
                 sum(a.killed_processes)::integer AS killed_processes,
                 sum(a.files_dropped)::bigint AS files_dropped,
                 sum(a.idle_ns)::bigint AS idle_ns,
                 sum(a.mpi_setup_ns)::bigint AS mpi_setup_ns,
                 sum(a.cpu_wait_ns)::bigint AS cpu_wait_ns,
                 max(a.max_rss_kib)::bigint AS max_rss_kib,
                 sum(a.unattributed_read_bytes)::bigint AS unattributed_read_bytes,
                 sum(a.unattributed_write_bytes)::bigint AS unattributed_write_bytes,
                 sum(a.kernel_io_unknown)::integer AS kernel_io_unknown
          FROM js_data.step_node_process_sums a
          GROUP BY a.cluster_id, a.job_id, a.step_id) t
    WHERE s.cluster_id = t.cluster_id AND s.job_id = t.job_id AND s.step_id = t.step_id AND s.processes = 0;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END $f$;
COMMENT ON FUNCTION js_data.steps_resum() IS 'sum the processes of every step whose sums are still empty (js_data.steps.processes = 0) into it; returns the steps';
SELECT js_data.steps_resum();

CREATE OR REPLACE VIEW js.steps AS
    SELECT s.cluster_id, s.job_id, s.step_id, j.uid, s.name, s.start_time, s.end_time,
           extract(epoch FROM s.end_time - s.start_time)::double precision AS elapsed_s,
           s.state, s.exit_code, s.num_nodes, s.num_tasks, s.num_cpus, s.nodelist, s.profiled,
           s.first_slice, s.last_slice, s.nodes_ingested, s.incomplete,
           s.processes, s.wall_ns, s.compute_ns, s.mpi_p2p_ns, s.mpi_coll_ns, s.io_posix_ns, s.io_stdio_ns,
           s.io_mpiio_ns, s.read_bytes, s.write_bytes, s.meta_calls, s.cpu_ns,
           s.incomplete_reason,
           s.killed_processes,
           (SELECT coalesce(sum(sn.unrecorded), 0)::integer FROM js_data.step_nodes sn
            WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id AND sn.step_id = s.step_id) AS unrecorded_processes,
           EXISTS (SELECT 1 FROM js_data.live_step_nodes l
                   WHERE l.cluster_id = s.cluster_id AND l.job_id = s.job_id AND l.step_id = s.step_id) AS live,
           s.files_dropped,
           s.idle_ns, s.mpi_setup_ns, s.cpu_wait_ns, s.max_rss_kib,
           s.unattributed_read_bytes, s.unattributed_write_bytes, s.kernel_io_unknown
    FROM js_data.steps s
    JOIN js_data.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id
    UNION ALL
    SELECT l.cluster_id, l.job_id, l.step_id, j.uid, NULL::text AS name, l.start_time, l.end_time,
           extract(epoch FROM l.end_time - l.start_time)::double precision AS elapsed_s,
           'RUNNING'::text AS state, NULL::integer AS exit_code, l.num_nodes, NULL::integer AS num_tasks,
           NULL::integer AS num_cpus, l.nodelist, true AS profiled, sl.first_slice, sl.last_slice,
           0 AS nodes_ingested, false AS incomplete,
           coalesce(p.processes, 0)::integer AS processes,
           coalesce(p.wall_ns, 0)::bigint AS wall_ns,
           coalesce(p.compute_ns, 0)::bigint AS compute_ns,
           coalesce(p.mpi_p2p_ns, 0)::bigint AS mpi_p2p_ns,
           coalesce(p.mpi_coll_ns, 0)::bigint AS mpi_coll_ns,
           coalesce(p.posix_ns, 0)::bigint AS io_posix_ns,
           coalesce(p.stdio_ns, 0)::bigint AS io_stdio_ns,
           coalesce(p.mpiio_ns, 0)::bigint AS io_mpiio_ns,
           coalesce(p.posix_read_bytes + p.stdio_read_bytes + p.mpiio_read_bytes, 0)::bigint AS read_bytes,
           coalesce(p.posix_write_bytes + p.stdio_write_bytes + p.mpiio_write_bytes, 0)::bigint AS write_bytes,
           coalesce(p.posix_open_calls + p.posix_meta_calls + p.stdio_open_calls + p.stdio_meta_calls + p.mpiio_meta_calls, 0)::bigint AS meta_calls,
           coalesce(p.cpu_ns, 0)::bigint AS cpu_ns,
           NULL::text AS incomplete_reason,
           coalesce(p.killed_processes, 0)::integer AS killed_processes,
           0 AS unrecorded_processes,
           true AS live,
           coalesce(p.files_dropped, 0)::bigint AS files_dropped,
           p.idle_ns::bigint AS idle_ns, p.mpi_setup_ns::bigint AS mpi_setup_ns, p.cpu_wait_ns::bigint AS cpu_wait_ns,
           p.max_rss_kib::bigint AS max_rss_kib,
           p.unattributed_read_bytes::bigint AS unattributed_read_bytes,
           p.unattributed_write_bytes::bigint AS unattributed_write_bytes,
           coalesce(p.kernel_io_unknown, 0)::integer AS kernel_io_unknown
    FROM (SELECT cluster_id, job_id, step_id, min(start_time) AS start_time, max(snapshot_time) AS end_time,
                 count(*)::integer AS num_nodes, string_agg(node, ',' ORDER BY node) AS nodelist
          FROM js_data.live_step_nodes GROUP BY cluster_id, job_id, step_id) l
    JOIN js_data.jobs j ON j.cluster_id = l.cluster_id AND j.job_id = l.job_id
    LEFT JOIN LATERAL (
        SELECT min(m.slice) AS first_slice, max(m.slice) AS last_slice FROM js_data.live_slice_metrics m
        WHERE m.cluster_id = l.cluster_id AND m.job_id = l.job_id AND m.step_id = l.step_id) sl ON true
    LEFT JOIN LATERAL (
        SELECT count(*) AS processes, sum(wall_ns) AS wall_ns, sum(compute_ns) AS compute_ns,
               sum(mpi_p2p_ns) AS mpi_p2p_ns, sum(mpi_coll_ns) AS mpi_coll_ns, sum(posix_ns) AS posix_ns,
               sum(stdio_ns) AS stdio_ns, sum(mpiio_ns) AS mpiio_ns, sum(posix_read_bytes) AS posix_read_bytes,
               sum(stdio_read_bytes) AS stdio_read_bytes, sum(mpiio_read_bytes) AS mpiio_read_bytes,
               sum(posix_write_bytes) AS posix_write_bytes, sum(stdio_write_bytes) AS stdio_write_bytes,
               sum(mpiio_write_bytes) AS mpiio_write_bytes, sum(posix_open_calls) AS posix_open_calls,
               sum(posix_meta_calls) AS posix_meta_calls, sum(stdio_open_calls) AS stdio_open_calls,
               sum(stdio_meta_calls) AS stdio_meta_calls, sum(mpiio_meta_calls) AS mpiio_meta_calls,
               sum(cpu_ns) AS cpu_ns, count(*) FILTER (WHERE ended_by = 'signal') AS killed_processes,
               sum(files_dropped) AS files_dropped,
               sum(idle_ns) AS idle_ns, sum(mpi_setup_ns) AS mpi_setup_ns, sum(cpu_wait_ns) AS cpu_wait_ns,
               max(max_rss_kib) AS max_rss_kib,
               sum(js_data.unattributed(kernel_rchar, posix_read_bytes + stdio_read_bytes + lower_read_bytes)) AS unattributed_read_bytes,
               sum(js_data.unattributed(kernel_wchar, posix_write_bytes + stdio_write_bytes + lower_write_bytes)) AS unattributed_write_bytes,
               count(*) FILTER (WHERE kernel_rchar IS NULL) AS kernel_io_unknown
        FROM js_data.live_processes p
        WHERE p.cluster_id = l.cluster_id AND p.job_id = l.job_id AND p.step_id = l.step_id) p ON true
    WHERE NOT EXISTS (SELECT 1 FROM js_data.steps s
                      WHERE s.cluster_id = l.cluster_id AND s.job_id = l.job_id AND s.step_id = l.step_id);
COMMENT ON VIEW js.steps IS 'steps merged over their nodes, with the runtime share summed over their processes (compute_ns + mpi_p2p_ns + mpi_coll_ns + mpi_setup_ns + io_*_ns + cpu_wait_ns + idle_ns = the processes'' time budgets: wall time, or more for processes with busy threads; before profile format 4 idle and setup are NULL and compute is the rest of wall_ns), I/O volume and metadata calls; incomplete_reason says what is missing, killed_processes counts processes killed by a signal, unrecorded_processes those the profiler did not record (spool quota), summed over the nodes; live: some node still runs (provisional data); a step with no step record ingested yet has state RUNNING, its data so far, end_time its newest snapshot; files_dropped: files its processes did not list (their lists were full); max_rss_kib: the largest peak resident set of its processes; unattributed_*_bytes: what the kernel counted beyond the wrappers, summed over the processes whose kernel counts are known (NULL: none), kernel_io_unknown: the processes whose kernel counts are unknown (killed before their first slice boundary, or profiles before format 4)';
