-- jobscreen schema, migration 020: the views the admin reports (sql/reports/*.sql) stand on.
-- They derive from the js.* views of 004 and add what every report needs once: the
-- application of a step, its runtime shares, its file counts and why it was (not) profiled;
-- the same summed per job.  Documented in docs/reports.md.  Like every js.* view, their
-- columns are only ever added to.
--
-- Time windows: the reports select a job by coalesce(start_time, submit_time) and a step by
-- its start_time, in [since, until).

-- The application a step ran: the base name of its executable; the batch step runs the
-- job's script (a spool path), so it is named by the job.
CREATE FUNCTION js.application(p_step_id text, p_executable text, p_job_name text) RETURNS text
    LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN p_step_id = 'batch' THEN 'batch:' || coalesce(p_job_name, '?')
                ELSE coalesce(nullif(regexp_replace(p_executable, '^.*/', ''), ''), 'step ' || p_step_id) END $$;
COMMENT ON FUNCTION js.application(text, text, text) IS 'application of a step: base name of its executable, or batch:<job name> for the batch step';

-- The bound below which a file counts as small (the small-file storm of the reports).
CREATE FUNCTION js.small_file_bytes() RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT 65536::bigint $$;
COMMENT ON FUNCTION js.small_file_bytes() IS 'a file a step moved fewer bytes of than this (read + written, per node) is a small file';

CREATE VIEW js.step_report AS
    SELECT s.cluster_id, s.job_id, s.step_id, s.uid, j.user_name, j.name AS job_name, j.account, j.partition,
           j.workflow_id, j.workflow_name, js.application(s.step_id, s.name, j.name) AS application,
           s.name AS executable, s.start_time, s.end_time, s.elapsed_s, s.state, s.exit_code,
           s.num_nodes, s.num_tasks, s.num_cpus, s.nodelist, s.profiled, r.profile_reason, s.incomplete,
           s.processes, s.wall_ns, s.compute_ns,
           (s.mpi_p2p_ns + s.mpi_coll_ns)::bigint AS mpi_ns,
           (s.io_posix_ns + s.io_stdio_ns + s.io_mpiio_ns)::bigint AS io_ns,
           CASE WHEN s.wall_ns > 0 THEN (s.mpi_p2p_ns + s.mpi_coll_ns)::double precision / s.wall_ns END AS mpi_share,
           CASE WHEN s.wall_ns > 0 THEN (s.io_posix_ns + s.io_stdio_ns + s.io_mpiio_ns)::double precision / s.wall_ns END AS io_share,
           s.read_bytes, s.write_bytes, (s.read_bytes + s.write_bytes)::bigint AS io_bytes, s.meta_calls,
           coalesce(m.meta_ops, 0)::bigint AS meta_ops, s.cpu_ns,
           coalesce(f.files, 0)::integer AS files, coalesce(f.small_files, 0)::integer AS small_files
    FROM js.steps s
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
COMMENT ON VIEW js.step_report IS 'steps for the reports: application, runtime shares (mpi_share, io_share of the summed process wall time), I/O volume, meta_ops (file system metadata: POSIX open and metadata calls, fopen, MPI-IO open/close/sync/seek; not stdio fflush/fseek/fclose, which bash alone calls once per builtin), files and small files, profile_reason from the step records';

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

-- What ran beside a step, slice by slice: every other step's vector on the same cluster in each
-- slice of the step's span, with same_node true when it shared one of the step's nodes.
-- Always filter by (cluster_id, job_id) or (cluster_id, job_id, step_id): it is a range read
-- of the per-slice table by slice.
CREATE VIEW js.step_neighbours AS
    SELECT s.cluster_id, s.job_id, s.step_id, m.slice, js_data.slice_start(s.cluster_id, m.slice) AS slice_start,
           m.job_id AS other_job, m.step_id AS other_step, m.node AS other_node, o.uid AS other_uid,
           u.name AS other_user, o.name AS other_job_name,
           EXISTS (SELECT 1 FROM js_data.step_nodes sn WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id
                     AND sn.step_id = s.step_id AND sn.node = m.node) AS same_node,
           m.processes,
           (m.posix_read_bytes + m.stdio_read_bytes + m.mpiio_read_bytes + m.lower_read_bytes)::bigint AS read_bytes,
           (m.posix_write_bytes + m.stdio_write_bytes + m.mpiio_write_bytes + m.lower_write_bytes)::bigint AS write_bytes,
           (m.posix_open_calls + m.posix_meta_calls + m.stdio_open_calls + m.mpiio_meta_calls)::bigint AS meta_ops,
           (m.mpi_send_bytes + m.mpi_coll_bytes)::bigint AS mpi_bytes,
           (m.posix_ns + m.stdio_ns + m.mpiio_ns)::bigint AS io_ns,
           m.cpu_ns
    FROM js_data.steps s
    JOIN js_data.slice_metrics m ON m.cluster_id = s.cluster_id AND m.slice BETWEEN s.first_slice AND s.last_slice
        AND NOT (m.job_id = s.job_id AND m.step_id = s.step_id)
    LEFT JOIN js_data.jobs o ON o.cluster_id = m.cluster_id AND o.job_id = m.job_id
    LEFT JOIN js_data.users u ON u.cluster_id = o.cluster_id AND u.uid = o.uid;
COMMENT ON VIEW js.step_neighbours IS 'contributors to a step''s background: per slice of the step, each other step and node with activity in it (read_bytes and write_bytes include the lower layer), meta_ops as in js.step_report, same_node when it shared a node with the step; filter by cluster_id and job_id';

-- Per node of a multi-node step: the mean compute time of its processes against the median
-- of the step's nodes (a slow node makes the others wait in MPI, so their compute time is
-- the comparable part).
CREATE VIEW js.step_node_balance AS
    WITH per_node AS (
        SELECT p.cluster_id, p.job_id, p.step_id, p.node, count(*)::integer AS processes,
               avg(p.compute_ns)::double precision AS compute_ns, avg(p.wall_ns)::double precision AS wall_ns
        FROM js_data.processes p
        JOIN js_data.steps s ON s.cluster_id = p.cluster_id AND s.job_id = p.job_id AND s.step_id = p.step_id
        WHERE s.nodes_ingested >= 2
        GROUP BY p.cluster_id, p.job_id, p.step_id, p.node
    ), med AS (
        SELECT cluster_id, job_id, step_id, count(*)::integer AS nodes,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY compute_ns) AS median_compute_ns
        FROM per_node GROUP BY cluster_id, job_id, step_id HAVING count(*) >= 2
    )
    SELECT n.cluster_id, n.job_id, n.step_id, n.node, m.nodes AS step_nodes, n.processes,
           n.compute_ns::bigint AS compute_ns, m.median_compute_ns::bigint AS median_compute_ns,
           CASE WHEN m.median_compute_ns > 0 THEN n.compute_ns / m.median_compute_ns END AS ratio,
           n.wall_ns::bigint AS wall_ns
    FROM per_node n JOIN med m USING (cluster_id, job_id, step_id);
COMMENT ON VIEW js.step_node_balance IS 'per node of a step profiled on two nodes or more: mean compute_ns of its processes, the median of that over the step''s nodes, and ratio = node / median';
