-- jobscreen schema, migration 008: the live view (issue 12). While a step runs, the plugin's
-- relay keeps a snapshot of its processes on each node (profiles/.live.<step>.<node>.json,
-- docs/spool.md); profile_ingest stores it as provisional data in tables of their own, replaced
-- by each newer snapshot and deleted in the transaction that ingests the step record. The
-- provisional rows never reach the slice totals (nor the exactly-once key, nor the reports'
-- tables): the views js.steps, js.step_slices and js.step_node_slices add them, js.jobs counts
-- the running steps (docs/schema.md, docs/ingest.md).
-- Views gain columns at their end only (CREATE OR REPLACE VIEW keeps what stands on them).

CREATE TABLE js_data.live_step_nodes (
    cluster_id   smallint NOT NULL,
    job_id       bigint NOT NULL,
    step_id      text NOT NULL,
    node         text NOT NULL,
    start_time   timestamptz,
    snapshot_time timestamptz NOT NULL,
    profiles     integer NOT NULL DEFAULT 0,
    running      integer NOT NULL DEFAULT 0,
    ingested_at  timestamptz NOT NULL DEFAULT now(),
    ingested_by  text,
    PRIMARY KEY (cluster_id, job_id, step_id, node)
);
COMMENT ON TABLE js_data.live_step_nodes IS 'provisional: a step on a node that is still running, from its newest live snapshot; deleted when its step record is ingested';
COMMENT ON COLUMN js_data.live_step_nodes.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.live_step_nodes.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.live_step_nodes.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.live_step_nodes.node IS 'Slurm node name';
COMMENT ON COLUMN js_data.live_step_nodes.start_time IS 'earliest start of the snapshot''s processes';
COMMENT ON COLUMN js_data.live_step_nodes.snapshot_time IS 'modification time of the snapshot file stored (a snapshot of the same time is not stored again)';
COMMENT ON COLUMN js_data.live_step_nodes.profiles IS 'profiles (processes) in the snapshot';
COMMENT ON COLUMN js_data.live_step_nodes.running IS 'of them, processes still running (end "running")';
COMMENT ON COLUMN js_data.live_step_nodes.ingested_at IS 'commit time of the transaction that stored the snapshot';
COMMENT ON COLUMN js_data.live_step_nodes.ingested_by IS 'host:pid of the profile_ingest that stored it';

CREATE TABLE js_data.live_processes (LIKE js_data.processes INCLUDING DEFAULTS INCLUDING COMMENTS);
CREATE INDEX live_processes_step ON js_data.live_processes (cluster_id, job_id, step_id, node);
COMMENT ON TABLE js_data.live_processes IS 'provisional per-process totals of running step-nodes (js_data.processes'' columns; ended_by running for a process still running, end_time then the snapshot''s time of it)';
CREATE TABLE js_data.live_slice_metrics (LIKE js_data.slice_metrics INCLUDING DEFAULTS INCLUDING COMMENTS);
CREATE INDEX live_slice_metrics_step ON js_data.live_slice_metrics (cluster_id, job_id, step_id, node, slice);
COMMENT ON TABLE js_data.live_slice_metrics IS 'provisional per-slice metric vectors of running step-nodes (js_data.slice_metrics'' columns); never folded into the slice totals';

-- The start of a live snapshot's transaction: claim the step-node (the advisory lock of its
-- step record's transaction), write the job record, and say whether to store it: 'busy'
-- (another daemon on it), 'done' (its step record is ingested: the final data is there),
-- 'same' (this snapshot is stored already), or 'ok' (its older provisional rows are gone).
CREATE FUNCTION js_data.live_begin(p_cluster smallint, p_job jsonb, p_job_id bigint, p_step text, p_node text,
        p_snapshot_ns bigint, p_start_ns bigint, p_profiles integer, p_running integer, p_by text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext(p_cluster || '/' || p_job_id::text), hashtext(p_step || '/' || p_node)) THEN
        RETURN 'busy';
    END IF;
    IF EXISTS (SELECT 1 FROM js_data.step_nodes WHERE cluster_id = p_cluster AND job_id = p_job_id
               AND step_id = p_step AND node = p_node) THEN
        RETURN 'done';
    END IF;
    IF EXISTS (SELECT 1 FROM js_data.live_step_nodes WHERE cluster_id = p_cluster AND job_id = p_job_id
               AND step_id = p_step AND node = p_node AND snapshot_time = js_data.ns_to_time(p_snapshot_ns)) THEN
        RETURN 'same';
    END IF;
    IF p_job IS NOT NULL THEN
        PERFORM js_data.ingest_job(p_cluster, p_job);
    END IF;
    PERFORM js_data.live_clear(p_cluster, p_job_id, p_step, p_node);
    INSERT INTO js_data.live_step_nodes (cluster_id, job_id, step_id, node, start_time, snapshot_time, profiles,
            running, ingested_by)
        VALUES (p_cluster, p_job_id, p_step, p_node, js_data.ns_to_time(p_start_ns), js_data.ns_to_time(p_snapshot_ns),
            p_profiles, p_running, p_by);
    RETURN 'ok';
END $$;
COMMENT ON FUNCTION js_data.live_begin(smallint, jsonb, bigint, text, text, bigint, bigint, integer, integer, text) IS 'claim a running step-node and replace its provisional row from a live snapshot: ok, busy, done (step record ingested) or same (snapshot stored already)';

CREATE FUNCTION js_data.live_clear(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS void
LANGUAGE sql AS $$
    DELETE FROM js_data.live_processes WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
    DELETE FROM js_data.live_slice_metrics WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
    DELETE FROM js_data.live_step_nodes WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
$$;
COMMENT ON FUNCTION js_data.live_clear(smallint, bigint, text, text) IS 'delete the provisional rows of a step on a node';

-- The step record's transaction now also deletes the provisional rows of its step-node.
CREATE OR REPLACE FUNCTION js_data.ingest_begin(p_cluster smallint, p_job jsonb, p_step jsonb, p_profiles integer,
        p_quarantined integer, p_by text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext(p_cluster || '/' || (p_step->>'job_id')),
                                     hashtext((p_step->>'step') || '/' || (p_step->>'node'))) THEN
        RETURN 'busy';
    END IF;
    IF p_job IS NOT NULL THEN
        PERFORM js_data.ingest_job(p_cluster, p_job);
    END IF;
    IF NOT js_data.ingest_step_node(p_cluster, p_step, p_profiles, p_quarantined, p_by) THEN
        RETURN 'done';
    END IF;
    PERFORM js_data.live_clear(p_cluster, (p_step->>'job_id')::bigint, p_step->>'step', p_step->>'node');
    RETURN 'ok';
END $$;
COMMENT ON FUNCTION js_data.ingest_begin(smallint, jsonb, jsonb, integer, integer, text) IS 'claim a step record, upsert its job, insert its exactly-once key (and delete the step-node''s provisional rows): ok, busy or done';

CREATE OR REPLACE VIEW js.jobs AS
    SELECT j.cluster_id, c.name AS cluster, j.job_id, j.uid, u.name AS user_name, j.gid, j.name, j.partition,
           j.account, j.workflow_id, w.name AS workflow_name, j.workflow_tag, j.submit_time, j.start_time,
           j.end_time, extract(epoch FROM j.end_time - j.start_time)::double precision AS elapsed_s,
           j.state, j.exit_code, j.num_nodes, j.num_cpus, j.num_tasks, j.nodelist, j.dependency, j.work_dir,
           (j.record->>'final')::boolean AS final,
           (SELECT count(*) FROM js_data.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id)::integer AS steps,
           EXISTS (SELECT 1 FROM js_data.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id AND s.incomplete) AS incomplete,
           (SELECT count(DISTINCT l.step_id) FROM js_data.live_step_nodes l
            WHERE l.cluster_id = j.cluster_id AND l.job_id = j.job_id)::integer AS running_steps
    FROM js_data.jobs j
    JOIN js_data.clusters c USING (cluster_id)
    LEFT JOIN js_data.users u ON u.cluster_id = j.cluster_id AND u.uid = j.uid
    LEFT JOIN js_data.workflows w ON w.cluster_id = j.cluster_id AND w.workflow_id = j.workflow_id;
COMMENT ON VIEW js.jobs IS 'jobs with user and workflow names; final is false while the record was written before the job ended; running_steps counts the steps with provisional data (running)';

-- js.steps: the steps as before (live true while some of its nodes still run), then the steps
-- of which only live snapshots are stored: state RUNNING, end_time the newest snapshot's time.
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
            WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id AND sn.step_id = s.step_id) AS unrecorded_processes,
           EXISTS (SELECT 1 FROM js_data.live_step_nodes l
                   WHERE l.cluster_id = s.cluster_id AND l.job_id = s.job_id AND l.step_id = s.step_id) AS live
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
        WHERE p.cluster_id = s.cluster_id AND p.job_id = s.job_id AND p.step_id = s.step_id) p ON true
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
           true AS live
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
               sum(cpu_ns) AS cpu_ns, count(*) FILTER (WHERE ended_by = 'signal') AS killed_processes
        FROM js_data.live_processes p
        WHERE p.cluster_id = l.cluster_id AND p.job_id = l.job_id AND p.step_id = l.step_id) p ON true
    WHERE NOT EXISTS (SELECT 1 FROM js_data.steps s
                      WHERE s.cluster_id = l.cluster_id AND s.job_id = l.job_id AND s.step_id = l.step_id);
COMMENT ON VIEW js.steps IS 'steps merged over their nodes, with the runtime share summed over their processes (wall_ns = compute_ns + mpi_p2p_ns + mpi_coll_ns + io_*_ns), I/O volume and metadata calls; incomplete_reason says what is missing, killed_processes counts processes killed by a signal, unrecorded_processes those the profiler did not record (spool quota), summed over the nodes; live: some node still runs (provisional data); a step with no step record ingested yet has state RUNNING, its data so far, end_time its newest snapshot';

CREATE OR REPLACE VIEW js.step_node_slices AS
    SELECT m.*, js_data.slice_start(m.cluster_id, m.slice) AS slice_start
    FROM js_data.slice_metrics m
    UNION ALL
    SELECT m.*, js_data.slice_start(m.cluster_id, m.slice) AS slice_start
    FROM js_data.live_slice_metrics m;
COMMENT ON VIEW js.step_node_slices IS 'per-slice metric vectors of a step on one node (only slices with activity), provisional ones (a running step-node) included';

CREATE OR REPLACE VIEW js.step_slices AS
    SELECT cluster_id, job_id, step_id, slice, js_data.slice_start(cluster_id, slice) AS slice_start,
           count(*)::integer AS nodes, sum(processes)::integer AS processes,
    sum(posix_read_calls)::bigint AS posix_read_calls,
    sum(posix_read_bytes)::bigint AS posix_read_bytes,
    sum(posix_write_calls)::bigint AS posix_write_calls,
    sum(posix_write_bytes)::bigint AS posix_write_bytes,
    sum(posix_open_calls)::bigint AS posix_open_calls,
    sum(posix_meta_calls)::bigint AS posix_meta_calls,
    sum(posix_ns)::bigint AS posix_ns,
    sum(stdio_read_calls)::bigint AS stdio_read_calls,
    sum(stdio_read_bytes)::bigint AS stdio_read_bytes,
    sum(stdio_write_calls)::bigint AS stdio_write_calls,
    sum(stdio_write_bytes)::bigint AS stdio_write_bytes,
    sum(stdio_open_calls)::bigint AS stdio_open_calls,
    sum(stdio_meta_calls)::bigint AS stdio_meta_calls,
    sum(stdio_ns)::bigint AS stdio_ns,
    sum(lower_read_bytes)::bigint AS lower_read_bytes,
    sum(lower_write_bytes)::bigint AS lower_write_bytes,
    sum(mpi_send_calls)::bigint AS mpi_send_calls,
    sum(mpi_send_bytes)::bigint AS mpi_send_bytes,
    sum(mpi_recv_calls)::bigint AS mpi_recv_calls,
    sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes,
    sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns,
    sum(mpi_coll_calls)::bigint AS mpi_coll_calls,
    sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes,
    sum(mpi_coll_ns)::bigint AS mpi_coll_ns,
    sum(mpiio_read_calls)::bigint AS mpiio_read_calls,
    sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes,
    sum(mpiio_write_calls)::bigint AS mpiio_write_calls,
    sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes,
    sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls,
    sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls,
    sum(mpiio_ns)::bigint AS mpiio_ns,
    sum(cpu_ns)::bigint AS cpu_ns
    FROM (SELECT * FROM js_data.slice_metrics UNION ALL SELECT * FROM js_data.live_slice_metrics) m
    GROUP BY cluster_id, job_id, step_id, slice;
COMMENT ON VIEW js.step_slices IS 'per-slice metric vectors of a step summed over its nodes (only slices with activity), provisional ones (running step-nodes) included';

CREATE VIEW js.live_step_nodes AS
    SELECT l.cluster_id, l.job_id, l.step_id, l.node, l.start_time, l.snapshot_time, l.profiles, l.running,
           l.ingested_at, j.uid
    FROM js_data.live_step_nodes l
    JOIN js_data.jobs j ON j.cluster_id = l.cluster_id AND j.job_id = l.job_id;
COMMENT ON VIEW js.live_step_nodes IS 'the running step-nodes: a step on a node of which only a live snapshot is stored (provisional data), with the time of that snapshot';
