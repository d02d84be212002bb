-- jobscreen schema, migration 006: how each process ended (profile format version 2: exit_code,
-- signal, missing; end may be signal or unknown), and what is missing of an incomplete step:
-- a step-node is incomplete when a profile was quarantined or when a profile says that part of
-- it is missing; incomplete_reason says which, in words (docs/schema.md, docs/ingest.md).
-- Views gain columns at their end only (CREATE OR REPLACE VIEW keeps what stands on them).

ALTER TABLE js_data.processes
    ADD COLUMN exit_code integer,
    ADD COLUMN signal    integer NOT NULL DEFAULT 0,
    ADD COLUMN missing   text NOT NULL DEFAULT '';
COMMENT ON COLUMN js_data.processes.ended_by IS 'how the image ended: exit, _exit, exec, signal (killed by one) or unknown (gone, its end not seen)';
COMMENT ON COLUMN js_data.processes.end_time IS 'when the profile was written; for a killed process when its death was seen (or its last recorded activity)';
COMMENT ON COLUMN js_data.processes.exit_code IS 'exit status 0-255 when known, NULL otherwise (killed, not seen, or a version 1 profile)';
COMMENT ON COLUMN js_data.processes.signal IS 'number of the signal that killed the process, 0 otherwise';
COMMENT ON COLUMN js_data.processes.missing IS 'empty when the profile is complete, else what is missing of it, in words (e.g. slices after the 1 MiB slice budget)';
-- the few processes with something missing, for the incomplete reason of their step
CREATE INDEX processes_missing ON js_data.processes (cluster_id, job_id, step_id) WHERE missing <> '';
COMMENT ON INDEX js_data.processes_missing IS 'processes whose profile says something is missing (js_data.incomplete_reason)';

ALTER TABLE js_data.step_nodes ADD COLUMN incomplete_reason text;
COMMENT ON COLUMN js_data.step_nodes.incomplete IS 'true when a profile was quarantined or a profile says part of it is missing: the step''s data on this node is partial';
COMMENT ON COLUMN js_data.step_nodes.incomplete_reason IS 'what is missing when incomplete, in words (e.g. 2 processes: CPU time after the kill); NULL when complete';
ALTER TABLE js_data.steps ADD COLUMN incomplete_reason text;
COMMENT ON COLUMN js_data.steps.incomplete IS 'true when a node of the step is incomplete (a quarantined profile, or a profile with something missing)';
COMMENT ON COLUMN js_data.steps.incomplete_reason IS 'what is missing when incomplete, in words, counted over the step''s nodes; NULL when complete';

-- What is missing of a step on one node (p_node), or of the whole step (p_node NULL), in
-- words: the refused profiles by reason, then the processes by what their profile says is
-- missing, most frequent first, at most five, e.g.
--   1 profile quarantined: field "end" is missing; 2 processes: CPU time after the kill
-- NULL when nothing is missing.
CREATE FUNCTION js_data.incomplete_reason(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS text
LANGUAGE sql STABLE AS $$
    WITH parts AS (
        SELECT 0 AS kind, count(*) AS n, q.reason AS what FROM js_data.quarantine q
        WHERE q.cluster_id = p_cluster AND q.job_id = p_job AND q.step_id = p_step AND (p_node IS NULL OR q.node = p_node)
        GROUP BY q.reason
        UNION ALL
        SELECT 1, count(*), p.missing FROM js_data.processes p
        WHERE p.cluster_id = p_cluster AND p.job_id = p_job AND p.step_id = p_step AND (p_node IS NULL OR p.node = p_node)
          AND p.missing <> ''
        GROUP BY p.missing
    ), ranked AS (
        SELECT kind, n, what, row_number() OVER (ORDER BY kind, n DESC, what) AS i, count(*) OVER () AS total FROM parts
    )
    SELECT nullif(concat_ws('; ',
               string_agg(n || CASE WHEN kind = 0 THEN CASE WHEN n = 1 THEN ' profile quarantined: ' ELSE ' profiles quarantined: ' END
                                    ELSE CASE WHEN n = 1 THEN ' process: ' ELSE ' processes: ' END END || what,
                          '; ' ORDER BY i) FILTER (WHERE i <= 5),
               CASE WHEN max(total) > 5 THEN (max(total) - 5) || ' more reasons' END), '')
    FROM ranked $$;
COMMENT ON FUNCTION js_data.incomplete_reason(smallint, bigint, text, text) IS 'what is missing of a step on a node (or of the whole step: node NULL), in words; NULL when nothing';

-- Called by profile_ingest in a step record's transaction, after its processes and
-- quarantine rows, when a profile was refused or says something is missing: marks the
-- step-node and the step incomplete and says why (the step counted over all its nodes; the
-- step row is locked since ingest_begin, so the nodes of one step take turns here).
CREATE FUNCTION js_data.ingest_incomplete(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_reason text := js_data.incomplete_reason(p_cluster, p_job, p_step, p_node);
BEGIN
    IF v_reason IS NULL THEN
        RETURN;
    END IF;
    UPDATE js_data.step_nodes SET incomplete = true, incomplete_reason = v_reason
        WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
    UPDATE js_data.steps SET incomplete = true, incomplete_reason = js_data.incomplete_reason(p_cluster, p_job, p_step, NULL)
        WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step;
END $$;
COMMENT ON FUNCTION js_data.ingest_incomplete(smallint, bigint, text, text) IS 'mark a step-node and its step incomplete with the reason, when a profile was refused or has something missing';

-- the reasons of what was ingested before this migration (quarantined profiles only)
UPDATE js_data.step_nodes sn
    SET incomplete_reason = coalesce(js_data.incomplete_reason(sn.cluster_id, sn.job_id, sn.step_id, sn.node),
                                     sn.quarantined || ' profiles quarantined')
    WHERE sn.incomplete;
UPDATE js_data.steps s
    SET incomplete_reason = coalesce(js_data.incomplete_reason(s.cluster_id, s.job_id, s.step_id, NULL), 'profiles quarantined')
    WHERE s.incomplete;

CREATE OR REPLACE VIEW js.steps AS
    SELECT s.cluster_id, s.job_id, s.step_id, j.uid, s.name, s.start_time, s.end_time,
           extract(epoch FROM s.end_time - s.start_time)::double precision AS elapsed_s,
           s.state, s.exit_code, s.num_nodes, s.num_tasks, s.num_cpus, s.nodelist, s.profiled,
           s.first_slice, s.last_slice, s.nodes_ingested, s.incomplete,
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
           s.incomplete_reason,
           coalesce(p.killed_processes, 0)::integer AS killed_processes
    FROM js_data.steps s
    JOIN js_data.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id
    LEFT JOIN LATERAL (
        SELECT count(*) AS processes, sum(wall_ns) AS wall_ns, sum(compute_ns) AS compute_ns,
               sum(mpi_p2p_ns) AS mpi_p2p_ns, sum(mpi_coll_ns) AS mpi_coll_ns, sum(posix_ns) AS posix_ns,
               sum(stdio_ns) AS stdio_ns, sum(mpiio_ns) AS mpiio_ns, sum(posix_read_bytes) AS posix_read_bytes,
               sum(stdio_read_bytes) AS stdio_read_bytes, sum(mpiio_read_bytes) AS mpiio_read_bytes,
               sum(posix_write_bytes) AS posix_write_bytes, sum(stdio_write_bytes) AS stdio_write_bytes,
               sum(mpiio_write_bytes) AS mpiio_write_bytes, sum(posix_open_calls) AS posix_open_calls,
               sum(posix_meta_calls) AS posix_meta_calls, sum(stdio_open_calls) AS stdio_open_calls,
               sum(stdio_meta_calls) AS stdio_meta_calls, sum(mpiio_meta_calls) AS mpiio_meta_calls,
               sum(cpu_ns) AS cpu_ns, count(*) FILTER (WHERE ended_by = 'signal') AS killed_processes
        FROM js_data.processes p
        WHERE p.cluster_id = s.cluster_id AND p.job_id = s.job_id AND p.step_id = s.step_id) p ON true;
COMMENT ON VIEW js.steps IS 'steps merged over their nodes, with the runtime share summed over their processes (wall_ns = compute_ns + mpi_p2p_ns + mpi_coll_ns + io_*_ns), I/O volume and metadata calls; incomplete_reason says what is missing, killed_processes counts processes killed by a signal';

CREATE OR REPLACE VIEW js.step_nodes AS
    SELECT cluster_id, job_id, step_id, node, start_time, end_time, state, exit_code, num_tasks,
           profiles, quarantined, incomplete, ingested_at, ingested_by, incomplete_reason
    FROM js_data.step_nodes;
COMMENT ON VIEW js.step_nodes IS 'one row per step and node ingested (the ingest''s unit); incomplete_reason says what is missing';

-- js.processes was p.*, j.uid: its columns as they were, then the new ones after uid
CREATE OR REPLACE VIEW js.processes AS
    SELECT p.cluster_id, p.job_id, p.step_id, p.node, p.pid, p.image, p.ppid, p.task_id, p.mpi_rank, p.mpi_size,
           p.origin, p.ended_by, p.exe, p.args, p.start_time, p.end_time, p.wall_ns, p.cpu_user_ns, p.cpu_sys_ns,
           p.max_rss_kib, p.threads_peak, p.threads_seen, p.compute_ns, p.slices_truncated, p.files_dropped,
           p.mpi_collectives,
           p.posix_read_calls, p.posix_read_bytes, p.posix_write_calls, p.posix_write_bytes, p.posix_open_calls,
           p.posix_meta_calls, p.posix_ns, p.stdio_read_calls, p.stdio_read_bytes, p.stdio_write_calls,
           p.stdio_write_bytes, p.stdio_open_calls, p.stdio_meta_calls, p.stdio_ns, p.lower_read_bytes,
           p.lower_write_bytes, p.mpi_send_calls, p.mpi_send_bytes, p.mpi_recv_calls, p.mpi_recv_bytes,
           p.mpi_p2p_ns, p.mpi_coll_calls, p.mpi_coll_bytes, p.mpi_coll_ns, p.mpiio_read_calls,
           p.mpiio_read_bytes, p.mpiio_write_calls, p.mpiio_write_bytes, p.mpiio_coll_calls,
           p.mpiio_meta_calls, p.mpiio_ns, p.cpu_ns,
           j.uid, p.exit_code, p.signal, p.missing
    FROM js_data.processes p
    JOIN js_data.jobs j ON j.cluster_id = p.cluster_id AND j.job_id = p.job_id;
COMMENT ON VIEW js.processes IS 'per-process totals (one row per profile) with the job''s uid, then how each process ended (exit_code, signal) and what its profile misses';
