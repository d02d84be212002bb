-- jobscreen schema, migration 007: processes the profiler refused to record (the job's spool
-- quota on a node was used up), as the collector's bundles say in their "unrecorded" member:
-- counted per step-node with the first reason given, and a third kind of part of
-- incomplete_reason ("12 processes not recorded: REASON"), so that nothing is silently
-- missing (docs/schema.md, docs/ingest.md, docs/profile-format.md).
-- Views gain columns at their end only (CREATE OR REPLACE VIEW keeps what stands on them).

ALTER TABLE js_data.step_nodes
    ADD COLUMN unrecorded        integer NOT NULL DEFAULT 0,
    ADD COLUMN unrecorded_reason text;
COMMENT ON COLUMN js_data.step_nodes.unrecorded IS 'processes of the step on this node the profiler refused to record (the job''s spool quota was reached), summed over its bundles; 0: none';
COMMENT ON COLUMN js_data.step_nodes.unrecorded_reason IS 'why processes were not recorded, as the first bundle that said so gave it; NULL when none were refused or no reason was given';
COMMENT ON COLUMN js_data.step_nodes.incomplete IS 'true when a profile was quarantined, a profile says part of it is missing, or processes were not recorded: the step''s data on this node is partial';
COMMENT ON COLUMN js_data.steps.incomplete IS 'true when a node of the step is incomplete (a quarantined profile, a profile with something missing, processes not recorded)';

-- What is missing of a step on one node (p_node), or of the whole step (p_node NULL), in
-- words: the refused profiles by reason, the processes not recorded by reason (summed over
-- the nodes), then the processes by what their profile says is missing; most frequent first
-- within each kind, at most five parts (then "N more reasons"), e.g.
--   1 profile quarantined: field "end" is missing; 12 processes not recorded: the job's spool
--   quota on this node (1073741824 B, 10000 files) was reached; 2 processes: CPU time after the kill
-- NULL when nothing is missing.
CREATE OR REPLACE FUNCTION js_data.incomplete_reason(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS text
LANGUAGE sql STABLE AS $$
    WITH parts AS (
        SELECT 0 AS kind, count(*) AS n, q.reason AS what FROM js_data.quarantine q
        WHERE q.cluster_id = p_cluster AND q.job_id = p_job AND q.step_id = p_step AND (p_node IS NULL OR q.node = p_node)
        GROUP BY q.reason
        UNION ALL
        SELECT 1, sum(sn.unrecorded), sn.unrecorded_reason FROM js_data.step_nodes sn
        WHERE sn.cluster_id = p_cluster AND sn.job_id = p_job AND sn.step_id = p_step AND (p_node IS NULL OR sn.node = p_node)
          AND sn.unrecorded > 0
        GROUP BY sn.unrecorded_reason
        UNION ALL
        SELECT 2, count(*), p.missing FROM js_data.processes p
        WHERE p.cluster_id = p_cluster AND p.job_id = p_job AND p.step_id = p_step AND (p_node IS NULL OR p.node = p_node)
          AND p.missing <> ''
        GROUP BY p.missing
    ), ranked AS (
        SELECT kind, n, what, row_number() OVER (ORDER BY kind, n DESC, what) AS i, count(*) OVER () AS total FROM parts
    )
    SELECT nullif(concat_ws('; ',
               string_agg(n || CASE kind
                                   WHEN 0 THEN CASE WHEN n = 1 THEN ' profile quarantined: ' ELSE ' profiles quarantined: ' END || what
                                   WHEN 1 THEN CASE WHEN n = 1 THEN ' process not recorded' ELSE ' processes not recorded' END
                                               || coalesce(': ' || nullif(what, ''), '')
                                   ELSE CASE WHEN n = 1 THEN ' process: ' ELSE ' processes: ' END || what END,
                          '; ' ORDER BY i) FILTER (WHERE i <= 5),
               CASE WHEN max(total) > 5 THEN (max(total) - 5) || ' more reasons' END), '')
    FROM ranked $$;
COMMENT ON FUNCTION js_data.incomplete_reason(smallint, bigint, text, text) IS 'what is missing of a step on a node (or of the whole step: node NULL), in words: profiles quarantined, processes not recorded, processes with something missing; NULL when nothing';

-- Called by profile_ingest in a step record's transaction, before js_data.ingest_incomplete,
-- when the step's bundles on this node said that processes were not recorded.
CREATE FUNCTION js_data.ingest_unrecorded(p_cluster smallint, p_job bigint, p_step text, p_node text,
        p_processes integer, p_reason text) RETURNS void
LANGUAGE sql AS $$
    UPDATE js_data.step_nodes SET unrecorded = p_processes, unrecorded_reason = nullif(p_reason, '')
        WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node $$;
COMMENT ON FUNCTION js_data.ingest_unrecorded(smallint, bigint, text, text, integer, text) IS 'store how many processes of a step-node were not recorded, and why (then js_data.ingest_incomplete says so)';
COMMENT ON FUNCTION js_data.ingest_incomplete(smallint, bigint, text, text) IS 'mark a step-node and its step incomplete with the reason, when a profile was refused, has something missing, or processes were not recorded';

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
           coalesce(p.killed_processes, 0)::integer AS killed_processes,
           (SELECT coalesce(sum(sn.unrecorded), 0)::integer FROM js_data.step_nodes sn
            WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id AND sn.step_id = s.step_id) AS unrecorded_processes
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
COMMENT ON VIEW js.steps IS 'steps merged over their nodes, with the runtime share summed over their processes (wall_ns = compute_ns + mpi_p2p_ns + mpi_coll_ns + io_*_ns), I/O volume and metadata calls; incomplete_reason says what is missing, killed_processes counts processes killed by a signal, unrecorded_processes those the profiler did not record (spool quota), summed over the nodes';

CREATE OR REPLACE VIEW js.step_nodes AS
    SELECT cluster_id, job_id, step_id, node, start_time, end_time, state, exit_code, num_tasks,
           profiles, quarantined, incomplete, ingested_at, ingested_by, incomplete_reason,
           unrecorded, unrecorded_reason
    FROM js_data.step_nodes;
COMMENT ON VIEW js.step_nodes IS 'one row per step and node ingested (the ingest''s unit); incomplete_reason says what is missing; unrecorded counts the processes the profiler did not record (spool quota), unrecorded_reason why';
