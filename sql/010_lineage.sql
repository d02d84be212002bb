-- jobscreen schema, migration 010: lineage that holds on real workflows (issue 14).
-- - Software trees: the profiler counts the files under system, package and library
--   directories together, per tree (profile format 3, "trees"), so that an interpreter's imports
--   leave the file list to the data files; kept per step and node in js_data.step_trees.
-- - Files not listed (a process's list was full) are summed per step in js.steps.files_dropped
--   (and the step is marked incomplete: the profile says so in "missing").
-- - File edges from the last write before the first read: a step that read a file links to the
--   step that wrote it last before that read, not to every earlier writer, so that a workflow
--   run again in the same directory stays apart from its earlier runs (docs/dependencies.md);
--   renames carry a file to its new name (interface rename); device and inode kept per access.
-- - Time edges by a stricter rule (docs/dependencies.md): B submitted after A ended; stored, so
--   that they join derived workflows.
-- Views gain columns at their end only (CREATE OR REPLACE VIEW keeps what stands on them).

CREATE TABLE js_data.step_trees (
    cluster_id   smallint NOT NULL,
    job_id       bigint NOT NULL,
    step_id      text NOT NULL,
    node         text NOT NULL,
    tree         text NOT NULL,
    processes    integer NOT NULL,
    opens        bigint NOT NULL,
    read_bytes   bigint NOT NULL,
    write_bytes  bigint NOT NULL,
    PRIMARY KEY (cluster_id, job_id, step_id, node, tree)
);
COMMENT ON TABLE js_data.step_trees IS 'software trees a step used on a node: the files under each counted together (profile-format.md "trees")';
COMMENT ON COLUMN js_data.step_trees.cluster_id IS 'cluster of the step';
COMMENT ON COLUMN js_data.step_trees.job_id IS 'job of the step';
COMMENT ON COLUMN js_data.step_trees.step_id IS 'the step';
COMMENT ON COLUMN js_data.step_trees.node IS 'node of the step record';
COMMENT ON COLUMN js_data.step_trees.tree IS 'the tree: /usr/lib, /etc, a site-packages or lib/pythonX.Y directory, the directory of a shared library, ...';
COMMENT ON COLUMN js_data.step_trees.processes IS 'processes of the step on the node that opened files under it';
COMMENT ON COLUMN js_data.step_trees.opens IS 'opens of files under it';
COMMENT ON COLUMN js_data.step_trees.read_bytes IS 'bytes read from them';
COMMENT ON COLUMN js_data.step_trees.write_bytes IS 'bytes written to them';

CREATE FUNCTION js_data.ingest_trees(p_cluster smallint, p_job bigint, p_step text, p_node text, p_trees jsonb) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO js_data.step_trees (cluster_id, job_id, step_id, node, tree, processes, opens, read_bytes, write_bytes)
        SELECT p_cluster, p_job, p_step, p_node, t.path, t.processes, t.opens, t.read_bytes, t.write_bytes
        FROM jsonb_to_recordset(p_trees) AS t(path text, processes integer, opens bigint, read_bytes bigint, write_bytes bigint)
$$;
COMMENT ON FUNCTION js_data.ingest_trees(smallint, bigint, text, text, jsonb) IS 'the software trees of a step record, in its transaction (profile_ingest)';

CREATE VIEW js.step_trees AS
    SELECT t.cluster_id, t.job_id, t.step_id, j.uid, t.tree, sum(t.processes)::integer AS processes,
           sum(t.opens)::bigint AS opens, sum(t.read_bytes)::bigint AS read_bytes, sum(t.write_bytes)::bigint AS write_bytes,
           string_agg(t.node, ',' ORDER BY t.node) AS nodes
    FROM js_data.step_trees t
    JOIN js_data.jobs j ON j.cluster_id = t.cluster_id AND j.job_id = t.job_id
    GROUP BY t.cluster_id, t.job_id, t.step_id, j.uid, t.tree;
COMMENT ON VIEW js.step_trees IS 'software trees per step, summed over its nodes: the system, package and library directories whose files the profiler counted together instead of listing them';

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
                   WHERE l.cluster_id = s.cluster_id AND l.job_id = s.job_id AND l.step_id = s.step_id) AS live,
           coalesce(p.files_dropped, 0)::bigint AS files_dropped
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
               sum(cpu_ns) AS cpu_ns, count(*) FILTER (WHERE ended_by = 'signal') AS killed_processes,
               sum(files_dropped) AS files_dropped
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
           true AS live,
           coalesce(p.files_dropped, 0)::bigint AS files_dropped
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
               sum(files_dropped) AS files_dropped
        FROM js_data.live_processes p
        WHERE p.cluster_id = l.cluster_id AND p.job_id = l.job_id AND p.step_id = l.step_id) p ON true
    WHERE NOT EXISTS (SELECT 1 FROM js_data.steps s
                      WHERE s.cluster_id = l.cluster_id AND s.job_id = l.job_id AND s.step_id = l.step_id);
COMMENT ON VIEW js.steps IS 'steps merged over their nodes, with the runtime share summed over their processes (wall_ns = compute_ns + mpi_p2p_ns + mpi_coll_ns + io_*_ns), I/O volume and metadata calls; incomplete_reason says what is missing, killed_processes counts processes killed by a signal, unrecorded_processes those the profiler did not record (spool quota), summed over the nodes; live: some node still runs (provisional data); a step with no step record ingested yet has state RUNNING, its data so far, end_time its newest snapshot; files_dropped: files its processes did not list (their lists were full)';

-- Device and inode with each access (profile "dev", "ino" at the first open; NULL when unknown:
-- a name only a rename gave it): what the file was, beside the path it had.
ALTER TABLE js_data.file_accesses ADD COLUMN dev bigint, ADD COLUMN ino bigint;
COMMENT ON COLUMN js_data.file_accesses.dev IS 'st_dev of the file at the step''s first open of it on the node (NULL: unknown)';
COMMENT ON COLUMN js_data.file_accesses.ino IS 'st_ino of the file at that open (NULL: unknown; above 2^63 it reads negative)';

CREATE OR REPLACE FUNCTION js_data.create_staging() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS ingest_files (
        path text NOT NULL,
        scope text NOT NULL,
        fs_type text,
        mode text NOT NULL,
        processes integer NOT NULL,
        opens bigint NOT NULL,
        reads bigint NOT NULL,
        writes bigint NOT NULL,
        bytes_read bigint NOT NULL,
        bytes_written bigint NOT NULL,
        first_access_ns bigint NOT NULL,
        last_access_ns bigint NOT NULL,
        first_read_ns bigint,
        last_write_ns bigint,
        interfaces text NOT NULL,
        dev bigint,
        ino bigint
    );  -- emptied by ingest_finish: ON COMMIT DELETE ROWS would truncate it at every commit (1-2 ms)
END $$;

CREATE OR REPLACE VIEW js.file_accesses AS
    SELECT a.cluster_id, a.job_id, a.step_id, a.node, j.uid, a.file_id, f.path, f.scope, f.node AS file_node,
           a.mode, CASE a.mode WHEN 'r' THEN 'read-only' WHEN 'w' THEN 'write-only' ELSE 'read-write' END AS access,
           a.processes, a.opens, a.reads, a.writes, a.bytes_read, a.bytes_written, a.first_access, a.last_access,
           a.first_read, a.last_write, a.interfaces, a.dev, a.ino
    FROM js_data.file_accesses a
    JOIN js_data.files f ON f.cluster_id = a.cluster_id AND f.file_id = a.file_id
    JOIN js_data.jobs j ON j.cluster_id = a.cluster_id AND j.job_id = a.job_id;
COMMENT ON VIEW js.file_accesses IS 'what each step did to each file on each node; access = read-only, write-only or read-write; interfaces posix, stdio, mpiio, rename (the step renamed it to or from this name); dev and ino of the file at the first open';

-- The last write before a read: of all accesses of the file (any job, the reader's own job
-- too) whose last write is at or before the read, the latest; an edge when it is another job's.
CREATE FUNCTION js_data.last_writer(p_cluster smallint, p_file bigint, p_read timestamptz,
        OUT job_id bigint, OUT step_id text, OUT last_write timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT w.job_id, w.step_id, w.last_write FROM js_data.file_accesses w
    WHERE w.cluster_id = p_cluster AND w.file_id = p_file AND w.last_write IS NOT NULL AND w.last_write <= p_read
    ORDER BY w.last_write DESC, w.job_id DESC, w.step_id DESC LIMIT 1
$$;
COMMENT ON FUNCTION js_data.last_writer(smallint, bigint, timestamptz) IS 'the access that wrote the file last at or before a read (file edges)';

CREATE OR REPLACE FUNCTION js_data.ingest_finish(p_cluster smallint, p_job bigint, p_step text, p_node text,
        p_no_edge_prefixes text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO js_data.files (cluster_id, path, node, scope, fs_type)
        SELECT DISTINCT ON (f.path, n) p_cluster, f.path, n, f.scope, f.fs_type
        FROM ingest_files f, LATERAL (SELECT CASE WHEN f.scope = 'local' THEN p_node ELSE '' END AS n) x
        ORDER BY f.path, n
        ON CONFLICT (cluster_id, path, node) DO NOTHING;
    INSERT INTO js_data.file_accesses (cluster_id, job_id, step_id, node, file_id, mode, processes, opens,
            reads, writes, bytes_read, bytes_written, first_access, last_access, first_read, last_write, interfaces, dev, ino)
        SELECT p_cluster, p_job, p_step, p_node, fi.file_id, f.mode, f.processes, f.opens, f.reads, f.writes,
            f.bytes_read, f.bytes_written, js_data.ns_to_time(f.first_access_ns), js_data.ns_to_time(f.last_access_ns),
            js_data.ns_to_time(f.first_read_ns), js_data.ns_to_time(f.last_write_ns), f.interfaces, f.dev, f.ino
        FROM ingest_files f
        JOIN js_data.files fi ON fi.cluster_id = p_cluster AND fi.path = f.path
            AND fi.node = CASE WHEN f.scope = 'local' THEN p_node ELSE '' END;

    -- what this step read: an edge from the last writer before each read, when another job's
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, from_step, to_job, to_step, file_id, from_time, to_time)
        SELECT p_cluster, 'file', w.job_id, w.step_id, r.job_id, r.step_id, r.file_id, max(w.last_write), min(r.first_read)
        FROM js_data.file_accesses r
        JOIN js_data.files fi ON fi.cluster_id = r.cluster_id AND fi.file_id = r.file_id
        CROSS JOIN LATERAL js_data.last_writer(r.cluster_id, r.file_id, r.first_read) w
        WHERE r.cluster_id = p_cluster AND r.job_id = p_job AND r.step_id = p_step AND r.node = p_node
          AND r.first_read IS NOT NULL AND w.job_id <> r.job_id
          AND NOT EXISTS (SELECT 1 FROM unnest(p_no_edge_prefixes) pre WHERE starts_with(fi.path, pre))
        GROUP BY w.job_id, w.step_id, r.job_id, r.step_id, r.file_id
        ON CONFLICT (cluster_id, to_job, kind, from_job, from_step, to_step, file_id) DO UPDATE SET
            from_time = greatest(dependencies.from_time, excluded.from_time),
            to_time = least(dependencies.to_time, excluded.to_time);

    -- what this step wrote: the reads after it whose last writer it now is (a writer ingested
    -- after its readers) get their edge from it, and the edges from the writers it supersedes go
    CREATE TEMP TABLE IF NOT EXISTS finish_readers (job_id bigint, step_id text, file_id bigint,
        first_read timestamptz, last_write timestamptz);
    DELETE FROM finish_readers;
    INSERT INTO finish_readers
        SELECT r.job_id, r.step_id, r.file_id, r.first_read, w.last_write
        FROM js_data.file_accesses w
        JOIN js_data.files fi ON fi.cluster_id = w.cluster_id AND fi.file_id = w.file_id
        JOIN js_data.file_accesses r ON r.cluster_id = w.cluster_id AND r.file_id = w.file_id
        CROSS JOIN LATERAL js_data.last_writer(r.cluster_id, r.file_id, r.first_read) lw
        WHERE w.cluster_id = p_cluster AND w.job_id = p_job AND w.step_id = p_step AND w.node = p_node
          AND w.last_write IS NOT NULL AND r.first_read IS NOT NULL AND w.last_write <= r.first_read
          AND lw.job_id = w.job_id AND lw.step_id = w.step_id
          AND NOT (r.job_id = w.job_id AND r.step_id = w.step_id)
          AND NOT EXISTS (SELECT 1 FROM unnest(p_no_edge_prefixes) pre WHERE starts_with(fi.path, pre));
    DELETE FROM js_data.dependencies d USING finish_readers f
        WHERE d.cluster_id = p_cluster AND d.kind = 'file' AND d.file_id = f.file_id
          AND d.to_job = f.job_id AND d.to_step = f.step_id AND d.from_time < f.last_write
          AND NOT (d.from_job = p_job AND d.from_step = p_step);
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, from_step, to_job, to_step, file_id, from_time, to_time)
        SELECT p_cluster, 'file', p_job, p_step, f.job_id, f.step_id, f.file_id, max(f.last_write), min(f.first_read)
        FROM finish_readers f
        WHERE f.job_id <> p_job
        GROUP BY f.job_id, f.step_id, f.file_id
        ON CONFLICT (cluster_id, to_job, kind, from_job, from_step, to_step, file_id) DO UPDATE SET
            from_time = greatest(dependencies.from_time, excluded.from_time),
            to_time = least(dependencies.to_time, excluded.to_time);

    -- a file edge explains a start: the time edges of the jobs that have one now go
    PERFORM js_data.unlink_by_time(p_cluster, array_append(ARRAY(SELECT DISTINCT job_id FROM finish_readers), p_job));

    -- the slice totals: queued, folded in batches by js_data.rollup_totals()
    INSERT INTO js_data.totals_pending (cluster_id, job_id, step_id, node) VALUES (p_cluster, p_job, p_step, p_node);
    DELETE FROM ingest_files;

    PERFORM js_data.merge_workflows(p_cluster, d.from_job)
        FROM js_data.dependencies d
        WHERE d.cluster_id = p_cluster AND d.kind = 'file' AND d.to_job = p_job AND d.to_step = p_step;
    PERFORM js_data.merge_workflows(p_cluster, p_job);
END $$;
COMMENT ON FUNCTION js_data.ingest_finish(smallint, bigint, text, text, text[]) IS 'after the COPYs of one step record: files, accesses, file edges (from the last write before each read), queue for the slice totals, workflow merges';

-- Time edges: A -> B when B was submitted after A ended (an engine submits the next job when
-- the last one is done; a job submitted before A ended waited for something else), B started at
-- most js.time_edge_window() after A ended (never before), A and B are of one user and of one
-- workflow tag, or both untagged and submitted by one command (the job records' submitter:
-- host, process group and its start; without it, from one working directory), A is the latest
-- such job, and B depends on nothing else: no scheduler dependency, no incoming file edge
-- (docs/dependencies.md). Stored now (kind time), so that they join derived workflows like the
-- other edges (an engine's untagged run is one workflow): made whenever a job's times change
-- (trigger below), removed when a file edge into the job arrives.
ALTER TABLE js_data.dependencies DROP CONSTRAINT dependencies_kind_check;
ALTER TABLE js_data.dependencies ADD CONSTRAINT dependencies_kind_check CHECK (kind IN ('scheduler', 'file', 'time'));

CREATE FUNCTION js_data.link_by_time(p_cluster smallint, p_job bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    a record;
BEGIN
    DELETE FROM js_data.dependencies WHERE cluster_id = p_cluster AND kind = 'time' AND to_job = p_job;
    IF EXISTS (SELECT 1 FROM js_data.dependencies d
               WHERE d.cluster_id = p_cluster AND d.to_job = p_job AND d.from_job <> p_job) THEN
        RETURN;
    END IF;
    SELECT x.job_id, x.end_time, b.start_time INTO a
        FROM js_data.jobs b
        JOIN LATERAL (
            SELECT x.job_id, x.end_time FROM js_data.jobs x
            WHERE x.cluster_id = b.cluster_id AND x.uid = b.uid AND x.workflow_tag IS NOT DISTINCT FROM b.workflow_tag
              AND (b.workflow_tag IS NOT NULL OR
                   CASE WHEN b.record->>'submitter' IS NOT NULL AND x.record->>'submitter' IS NOT NULL
                        THEN x.record->>'submitter' = b.record->>'submitter'
                        ELSE x.work_dir = b.work_dir END)
              AND x.job_id <> b.job_id AND x.end_time <= b.start_time
              AND x.end_time >= b.start_time - js.time_edge_window()
              -- Slurm's submit time is whole seconds: B's submission in the second A ended counts
              -- as after it, one in the second before does not (no slack beyond the truncation)
              AND b.submit_time >= date_trunc('second', x.end_time)
            ORDER BY x.end_time DESC LIMIT 1
        ) x ON true
        WHERE b.cluster_id = p_cluster AND b.job_id = p_job AND coalesce(b.dependency, '') = '';
    IF FOUND THEN
        INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, from_time, to_time)
            VALUES (p_cluster, 'time', a.job_id, p_job, a.end_time, a.start_time)
            ON CONFLICT DO NOTHING;
        PERFORM js_data.merge_workflows(p_cluster, p_job);
    END IF;
END $$;
COMMENT ON FUNCTION js_data.link_by_time(smallint, bigint) IS 'the time edge into a job by the rule of docs/dependencies.md (removed first, made again when it holds)';

CREATE FUNCTION js_data.jobs_link_by_time() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM js_data.link_by_time(NEW.cluster_id, NEW.job_id);
    RETURN NULL;
END $$;
CREATE TRIGGER jobs_time_edge AFTER INSERT OR UPDATE OF submit_time, start_time, end_time, work_dir, workflow_tag, dependency
    ON js_data.jobs FOR EACH ROW EXECUTE FUNCTION js_data.jobs_link_by_time();
COMMENT ON TRIGGER jobs_time_edge ON js_data.jobs IS 'a job''s time edge follows its times (js_data.link_by_time)';

-- a file edge into a job explains its start: its time edge goes (ingest_finish calls this)
CREATE FUNCTION js_data.unlink_by_time(p_cluster smallint, p_jobs bigint[]) RETURNS void
LANGUAGE sql AS $$
    DELETE FROM js_data.dependencies t
    WHERE t.cluster_id = p_cluster AND t.kind = 'time' AND t.to_job = ANY (p_jobs)
      AND EXISTS (SELECT 1 FROM js_data.dependencies d WHERE d.cluster_id = p_cluster AND d.to_job = t.to_job
                  AND d.kind <> 'time' AND d.from_job <> t.to_job)
$$;
COMMENT ON FUNCTION js_data.unlink_by_time(smallint, bigint[]) IS 'remove the time edges of jobs that have a scheduler or file edge now';

CREATE OR REPLACE VIEW js.time_edges AS
    SELECT d.cluster_id, d.from_job, d.to_job, d.from_time, d.to_time
    FROM js_data.dependencies d WHERE d.kind = 'time';
COMMENT ON VIEW js.time_edges IS 'time edges (stored by js_data.link_by_time): the latest job of the same user and workflow tag (or both untagged, submitted by one command) that ended at most js.time_edge_window() before this one started and before it was submitted (in the same second counts: Slurm''s submit times are whole seconds), for jobs with no scheduler dependency and no incoming file edge';

CREATE OR REPLACE VIEW js.dependencies AS
    SELECT d.cluster_id, d.kind, d.from_job, d.from_step, d.to_job, d.to_step, ja.uid AS from_uid, jb.uid AS to_uid,
           d.condition, nullif(d.file_id, 0) AS file_id, f.path, d.from_time, d.to_time
    FROM js_data.dependencies d
    LEFT JOIN js_data.jobs ja ON ja.cluster_id = d.cluster_id AND ja.job_id = d.from_job
    LEFT JOIN js_data.jobs jb ON jb.cluster_id = d.cluster_id AND jb.job_id = d.to_job
    LEFT JOIN js_data.files f ON f.cluster_id = d.cluster_id AND f.file_id = d.file_id;
COMMENT ON VIEW js.dependencies IS 'all dependency edges: kind scheduler (condition), file (from_step wrote file_id/path, last write from_time; to_step first read it at to_time) and time (from_time: the end of from_job; to_time: the start of to_job); from_uid may differ from to_uid for file edges';

-- the time edges of the jobs already in the database, by the rule above
DO $$ BEGIN
    PERFORM js_data.link_by_time(cluster_id, job_id) FROM js_data.jobs ORDER BY start_time NULLS LAST;
END $$;
