-- jobscreen schema, migration 003: the functions profile_ingest calls inside its one
-- transaction per step record (docs/ingest.md).  All values arrive as parameters or through
-- COPY; nothing here formats user data into SQL.

-- The cluster's id, made on first sight.
CREATE FUNCTION js_data.cluster_id(p_name text, p_slice_seconds integer) RETURNS smallint
LANGUAGE plpgsql AS $$
DECLARE id smallint;
BEGIN
    SELECT cluster_id INTO id FROM js_data.clusters WHERE name = p_name;
    IF id IS NULL THEN
        INSERT INTO js_data.clusters (name, slice_seconds) VALUES (p_name, p_slice_seconds)
            ON CONFLICT (name) DO NOTHING;
        SELECT cluster_id INTO id FROM js_data.clusters WHERE name = p_name;
    END IF;
    RETURN id;
END $$;
COMMENT ON FUNCTION js_data.cluster_id(text, integer) IS 'id of a cluster by name, inserted on first sight';

CREATE FUNCTION js_data.ns_to_time(ns bigint) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE AS $$ SELECT to_timestamp(ns / 1000000000.0) $$;
COMMENT ON FUNCTION js_data.ns_to_time(bigint) IS 'nanoseconds since the epoch (the record and profile formats) to timestamptz (microseconds)';

CREATE FUNCTION js_data.slice_start(p_cluster smallint, p_slice bigint) RETURNS timestamptz
    LANGUAGE sql STABLE AS $$
    SELECT to_timestamp(p_slice * slice_seconds) FROM js_data.clusters WHERE cluster_id = p_cluster $$;
COMMENT ON FUNCTION js_data.slice_start(smallint, bigint) IS 'wall-clock start of a slice of a cluster';

-- The job record (validated by profile_ingest against common/record_format.h): upsert the
-- job, its user and its workflow, and its scheduler edges.  A record never replaces a newer
-- one (written_ns).
CREATE FUNCTION js_data.ingest_job(p_cluster smallint, r jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_job bigint := (r->>'job_id')::bigint;
    v_uid integer := (r->>'uid')::integer;
    v_tag text := r->>'workflow';
    v_wf bigint;
    d jsonb;
BEGIN
    IF r->>'user' IS NOT NULL THEN
        INSERT INTO js_data.users (cluster_id, uid, name) VALUES (p_cluster, v_uid, r->>'user')
            ON CONFLICT (cluster_id, uid) DO UPDATE SET name = excluded.name
            WHERE users.name IS DISTINCT FROM excluded.name;
    END IF;
    IF v_tag IS NOT NULL THEN
        INSERT INTO js_data.workflows (cluster_id, uid, tag, name) VALUES (p_cluster, v_uid, v_tag, v_tag)
            ON CONFLICT (cluster_id, uid, tag) WHERE tag IS NOT NULL DO NOTHING;
        SELECT workflow_id INTO v_wf FROM js_data.workflows
            WHERE cluster_id = p_cluster AND uid = v_uid AND tag = v_tag;
    ELSE
        SELECT workflow_id INTO v_wf FROM js_data.jobs WHERE cluster_id = p_cluster AND job_id = v_job;
        IF v_wf IS NULL THEN
            INSERT INTO js_data.workflows (cluster_id, uid, tag, name)
                VALUES (p_cluster, v_uid, NULL, coalesce(r->>'name', 'job ' || v_job))
                RETURNING workflow_id INTO v_wf;
        END IF;
    END IF;
    INSERT INTO js_data.jobs AS j (cluster_id, job_id, uid, gid, name, partition, account, workflow_tag,
            workflow_id, submit_time, start_time, end_time, state, exit_code, num_nodes, num_cpus,
            num_tasks, nodelist, dependency, work_dir, record, updated)
        VALUES (p_cluster, v_job, v_uid, (r->>'gid')::integer, r->>'name', r->>'partition', r->>'account',
            v_tag, v_wf, js_data.ns_to_time((r->>'submit_ns')::bigint), js_data.ns_to_time((r->>'start_ns')::bigint),
            js_data.ns_to_time((r->>'end_ns')::bigint), r->>'state', (r->>'exit_code')::integer,
            (r->>'nodes')::integer, (r->>'cpus')::integer, (r->>'tasks')::integer, r->>'node_list',
            r->>'dependency', r->>'work_dir', r, now())
        ON CONFLICT (cluster_id, job_id) DO UPDATE SET
            uid = excluded.uid, gid = excluded.gid, name = excluded.name, partition = excluded.partition,
            account = excluded.account, workflow_tag = excluded.workflow_tag,
            workflow_id = CASE WHEN excluded.workflow_tag IS NULL THEN j.workflow_id ELSE excluded.workflow_id END,
            submit_time = excluded.submit_time, start_time = excluded.start_time, end_time = excluded.end_time,
            state = excluded.state, exit_code = excluded.exit_code, num_nodes = excluded.num_nodes,
            num_cpus = excluded.num_cpus, num_tasks = excluded.num_tasks, nodelist = excluded.nodelist,
            dependency = excluded.dependency, work_dir = excluded.work_dir, record = excluded.record,
            updated = now()
        WHERE (j.record->>'written_ns')::bigint <= (excluded.record->>'written_ns')::bigint;
    -- the workflow made above is not needed when the job already had one
    DELETE FROM js_data.workflows w WHERE w.cluster_id = p_cluster AND w.workflow_id = v_wf AND w.tag IS NULL
        AND NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = p_cluster AND j.workflow_id = v_wf);
    FOR d IN SELECT * FROM jsonb_array_elements(coalesce(r->'dependencies', '[]'::jsonb)) LOOP
        IF d->>'job_id' IS NOT NULL THEN
            INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, condition)
                VALUES (p_cluster, 'scheduler', (d->>'job_id')::bigint, v_job, d->>'type')
                ON CONFLICT DO NOTHING;
        END IF;
    END LOOP;
    PERFORM js_data.merge_workflows(p_cluster, v_job);
END $$;
COMMENT ON FUNCTION js_data.ingest_job(smallint, jsonb) IS 'upsert a job from its record: user, workflow, scheduler edges';

-- Derived workflows: untagged jobs of one user joined by a scheduler or file edge share the
-- workflow with the smallest id.
CREATE FUNCTION js_data.merge_workflows(p_cluster smallint, p_job bigint) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    pair record;
    keep bigint;
    gone bigint;
    merged integer := 0;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM js_data.jobs WHERE cluster_id = p_cluster AND job_id = p_job AND workflow_tag IS NULL) THEN
        RETURN 0;   -- a tagged job keeps its workflow
    END IF;
    LOOP
        SELECT a.workflow_id AS wa, b.workflow_id AS wb INTO pair
            FROM (SELECT from_job, to_job FROM js_data.dependencies WHERE cluster_id = p_cluster AND from_job = p_job
                  UNION ALL
                  SELECT from_job, to_job FROM js_data.dependencies WHERE cluster_id = p_cluster AND to_job = p_job) d
            JOIN js_data.jobs a ON a.cluster_id = p_cluster AND a.job_id = d.from_job
            JOIN js_data.jobs b ON b.cluster_id = p_cluster AND b.job_id = d.to_job
            WHERE a.uid = b.uid AND a.workflow_tag IS NULL AND b.workflow_tag IS NULL
              AND a.workflow_id <> b.workflow_id
            LIMIT 1;
        EXIT WHEN NOT FOUND;
        keep := least(pair.wa, pair.wb);
        gone := greatest(pair.wa, pair.wb);
        UPDATE js_data.jobs SET workflow_id = keep WHERE cluster_id = p_cluster AND workflow_id = gone;
        DELETE FROM js_data.workflows WHERE cluster_id = p_cluster AND workflow_id = gone;
        merged := merged + 1;
    END LOOP;
    RETURN merged;
END $$;
COMMENT ON FUNCTION js_data.merge_workflows(smallint, bigint) IS 'merge the derived workflows of untagged jobs of one user joined to the job by an edge';

-- The step record of one node: the exactly-once key.  Returns false when this step record
-- was ingested already (the caller then only cleans the spool).
CREATE FUNCTION js_data.ingest_step_node(p_cluster smallint, r jsonb, p_profiles integer,
        p_quarantined integer, p_by text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    v_job bigint := (r->>'job_id')::bigint;
    v_step text := r->>'step';
    v_node text := r->>'node';
    v_len bigint := (r->>'slice_seconds')::bigint;
    v_first bigint := floor((r->>'start_ns')::numeric / 1e9 / v_len);
    v_last bigint := floor((r->>'end_ns')::numeric / 1e9 / v_len);
    v_incomplete boolean := p_quarantined > 0;
BEGIN
    INSERT INTO js_data.step_nodes (cluster_id, job_id, step_id, node, start_time, end_time, state,
            exit_code, num_tasks, profiles, quarantined, incomplete, record, ingested_by)
        VALUES (p_cluster, v_job, v_step, v_node, js_data.ns_to_time((r->>'start_ns')::bigint),
            js_data.ns_to_time((r->>'end_ns')::bigint), r->>'state', (r->>'exit_code')::integer,
            (r->>'local_tasks')::integer, p_profiles, p_quarantined, v_incomplete, r, p_by)
        ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO js_data.steps AS s (cluster_id, job_id, step_id, name, start_time, end_time, state, exit_code,
            num_nodes, num_tasks, num_cpus, nodelist, profiled, first_slice, last_slice, nodes_ingested, incomplete)
        VALUES (p_cluster, v_job, v_step, r->>'executable', js_data.ns_to_time((r->>'start_ns')::bigint),
            js_data.ns_to_time((r->>'end_ns')::bigint), r->>'state', (r->>'exit_code')::integer,
            (r->>'nodes')::integer, (r->>'tasks')::integer, (r->>'cpus')::integer, r->>'node_list',
            (r->>'profiled')::boolean, v_first, v_last, 1, v_incomplete)
        ON CONFLICT (cluster_id, job_id, step_id) DO UPDATE SET
            start_time = least(s.start_time, excluded.start_time),
            end_time = greatest(s.end_time, excluded.end_time),
            state = CASE WHEN s.state = 'COMPLETED' THEN excluded.state ELSE s.state END,
            exit_code = greatest(s.exit_code, excluded.exit_code),
            num_cpus = coalesce(s.num_cpus, 0) + coalesce(excluded.num_cpus, 0),
            profiled = s.profiled OR excluded.profiled,
            first_slice = least(s.first_slice, excluded.first_slice),
            last_slice = greatest(s.last_slice, excluded.last_slice),
            nodes_ingested = s.nodes_ingested + 1,
            incomplete = s.incomplete OR excluded.incomplete;
    RETURN true;
END $$;
COMMENT ON FUNCTION js_data.ingest_step_node(smallint, jsonb, integer, integer, text) IS 'insert the exactly-once key of a step record and merge the step; false when already ingested';

-- The start of a step record's transaction, in one round trip: claim it (an advisory lock;
-- another daemon holding it: 'busy'), write the job record (NULL: unchanged since this
-- session wrote it), insert the exactly-once key ('done' when it was ingested before).
CREATE FUNCTION js_data.ingest_begin(p_cluster smallint, p_job jsonb, p_step jsonb, p_profiles integer,
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
    RETURN 'ok';
END $$;
COMMENT ON FUNCTION js_data.ingest_begin(smallint, jsonb, jsonb, integer, integer, text) IS 'claim a step record, upsert its job, insert its exactly-once key: ok, busy or done';

-- Staging table for the file accesses of one step on one node (filled by COPY).
CREATE FUNCTION js_data.create_staging() RETURNS void
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
        interfaces text NOT NULL
    );  -- emptied by ingest_finish: ON COMMIT DELETE ROWS would truncate it at every commit (1-2 ms)
END $$;
COMMENT ON FUNCTION js_data.create_staging() IS 'create the per-session staging table ingest_files that profile_ingest fills by COPY';

-- After the COPYs of one step record: files, file accesses, file edges, slice totals.
-- p_no_edge_prefixes: paths under these prefixes (/dev/, /proc/, ...) give no file edges.
CREATE FUNCTION js_data.ingest_finish(p_cluster smallint, p_job bigint, p_step text, p_node text,
        p_no_edge_prefixes text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO js_data.files (cluster_id, path, node, scope, fs_type)
        SELECT DISTINCT ON (f.path, n) p_cluster, f.path, n, f.scope, f.fs_type
        FROM ingest_files f, LATERAL (SELECT CASE WHEN f.scope = 'local' THEN p_node ELSE '' END AS n) x
        ORDER BY f.path, n
        ON CONFLICT (cluster_id, path, node) DO NOTHING;
    INSERT INTO js_data.file_accesses (cluster_id, job_id, step_id, node, file_id, mode, processes, opens,
            reads, writes, bytes_read, bytes_written, first_access, last_access, first_read, last_write, interfaces)
        SELECT p_cluster, p_job, p_step, p_node, fi.file_id, f.mode, f.processes, f.opens, f.reads, f.writes,
            f.bytes_read, f.bytes_written, js_data.ns_to_time(f.first_access_ns), js_data.ns_to_time(f.last_access_ns),
            js_data.ns_to_time(f.first_read_ns), js_data.ns_to_time(f.last_write_ns), f.interfaces
        FROM ingest_files f
        JOIN js_data.files fi ON fi.cluster_id = p_cluster AND fi.path = f.path
            AND fi.node = CASE WHEN f.scope = 'local' THEN p_node ELSE '' END;

    -- file edges, both ways: earlier writers (of other jobs) of what this step read, and later
    -- readers (of other jobs) of what it wrote; each side found through file_accesses_file
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, from_step, to_job, to_step, file_id, from_time, to_time)
        SELECT p_cluster, 'file', w.job_id, w.step_id, r.job_id, r.step_id, r.file_id, max(w.last_write), min(r.first_read)
        FROM js_data.file_accesses r
        JOIN js_data.files fi ON fi.cluster_id = r.cluster_id AND fi.file_id = r.file_id
        JOIN js_data.file_accesses w ON w.cluster_id = r.cluster_id AND w.file_id = r.file_id
        WHERE r.cluster_id = p_cluster AND r.job_id = p_job AND r.step_id = p_step AND r.node = p_node
          AND r.first_read IS NOT NULL AND w.last_write IS NOT NULL AND w.last_write <= r.first_read
          AND w.job_id <> r.job_id
          AND NOT EXISTS (SELECT 1 FROM unnest(p_no_edge_prefixes) pre WHERE starts_with(fi.path, pre))
        GROUP BY w.job_id, w.step_id, r.job_id, r.step_id, r.file_id
        ON CONFLICT (cluster_id, to_job, kind, from_job, from_step, to_step, file_id) DO UPDATE SET
            from_time = greatest(dependencies.from_time, excluded.from_time),
            to_time = least(dependencies.to_time, excluded.to_time);
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, from_step, to_job, to_step, file_id, from_time, to_time)
        SELECT p_cluster, 'file', w.job_id, w.step_id, r.job_id, r.step_id, r.file_id, max(w.last_write), min(r.first_read)
        FROM js_data.file_accesses w
        JOIN js_data.files fi ON fi.cluster_id = w.cluster_id AND fi.file_id = w.file_id
        JOIN js_data.file_accesses r ON r.cluster_id = w.cluster_id AND r.file_id = w.file_id
        WHERE w.cluster_id = p_cluster AND w.job_id = p_job AND w.step_id = p_step AND w.node = p_node
          AND r.first_read IS NOT NULL AND w.last_write IS NOT NULL AND w.last_write <= r.first_read
          AND w.job_id <> r.job_id
          AND NOT EXISTS (SELECT 1 FROM unnest(p_no_edge_prefixes) pre WHERE starts_with(fi.path, pre))
        GROUP BY w.job_id, w.step_id, r.job_id, r.step_id, r.file_id
        ON CONFLICT (cluster_id, to_job, kind, from_job, from_step, to_step, file_id) DO UPDATE SET
            from_time = greatest(dependencies.from_time, excluded.from_time),
            to_time = least(dependencies.to_time, excluded.to_time);

    -- the slice totals: queued, folded in batches by js_data.rollup_totals()
    INSERT INTO js_data.totals_pending (cluster_id, job_id, step_id, node) VALUES (p_cluster, p_job, p_step, p_node);
    DELETE FROM ingest_files;

    PERFORM js_data.merge_workflows(p_cluster, d.from_job)
        FROM js_data.dependencies d
        WHERE d.cluster_id = p_cluster AND d.kind = 'file' AND d.to_job = p_job AND d.to_step = p_step;
    PERFORM js_data.merge_workflows(p_cluster, p_job);
END $$;
COMMENT ON FUNCTION js_data.ingest_finish(smallint, bigint, text, text, text[]) IS 'after the COPYs of one step record: files, accesses, file edges, queue for the slice totals, workflow merges';

-- Fold up to p_limit queued step records into the slice totals, in one transaction: the
-- queue rows are taken with SKIP LOCKED (several daemons fold disjoint batches) and deleted
-- in the same transaction, so every vector is added exactly once.  Grouping a batch first
-- turns many step records that share slices into one update per slice (and node).
CREATE FUNCTION js_data.rollup_totals(p_limit integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    n integer;
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS rollup_batch (cluster_id smallint, job_id bigint, step_id text, node text);
    DELETE FROM rollup_batch;
    INSERT INTO rollup_batch
        SELECT cluster_id, job_id, step_id, node FROM js_data.totals_pending
        ORDER BY queued_at LIMIT p_limit FOR UPDATE SKIP LOCKED;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
        RETURN 0;
    END IF;
    DELETE FROM js_data.totals_pending p USING rollup_batch b
        WHERE p.cluster_id = b.cluster_id AND p.job_id = b.job_id AND p.step_id = b.step_id AND p.node = b.node;
    INSERT INTO js_data.slice_totals_node AS t
        SELECT m.cluster_id, m.node, m.slice, count(*), sum(m.posix_read_calls)::bigint, sum(m.posix_read_bytes)::bigint, sum(m.posix_write_calls)::bigint, sum(m.posix_write_bytes)::bigint, sum(m.posix_open_calls)::bigint, sum(m.posix_meta_calls)::bigint, sum(m.posix_ns)::bigint, sum(m.stdio_read_calls)::bigint, sum(m.stdio_read_bytes)::bigint, sum(m.stdio_write_calls)::bigint, sum(m.stdio_write_bytes)::bigint, sum(m.stdio_open_calls)::bigint, sum(m.stdio_meta_calls)::bigint, sum(m.stdio_ns)::bigint, sum(m.lower_read_bytes)::bigint, sum(m.lower_write_bytes)::bigint, sum(m.mpi_send_calls)::bigint, sum(m.mpi_send_bytes)::bigint, sum(m.mpi_recv_calls)::bigint, sum(m.mpi_recv_bytes)::bigint, sum(m.mpi_p2p_ns)::bigint, sum(m.mpi_coll_calls)::bigint, sum(m.mpi_coll_bytes)::bigint, sum(m.mpi_coll_ns)::bigint, sum(m.mpiio_read_calls)::bigint, sum(m.mpiio_read_bytes)::bigint, sum(m.mpiio_write_calls)::bigint, sum(m.mpiio_write_bytes)::bigint, sum(m.mpiio_coll_calls)::bigint, sum(m.mpiio_meta_calls)::bigint, sum(m.mpiio_ns)::bigint, sum(m.cpu_ns)::bigint
        FROM js_data.slice_metrics m
        JOIN rollup_batch b ON m.cluster_id = b.cluster_id AND m.job_id = b.job_id AND m.step_id = b.step_id AND m.node = b.node
        GROUP BY m.cluster_id, m.slice, m.node
        ORDER BY m.slice, m.node
        ON CONFLICT (cluster_id, slice, node) DO UPDATE SET step_nodes = t.step_nodes + excluded.step_nodes,
            posix_read_calls = t.posix_read_calls + excluded.posix_read_calls,
            posix_read_bytes = t.posix_read_bytes + excluded.posix_read_bytes,
            posix_write_calls = t.posix_write_calls + excluded.posix_write_calls,
            posix_write_bytes = t.posix_write_bytes + excluded.posix_write_bytes,
            posix_open_calls = t.posix_open_calls + excluded.posix_open_calls,
            posix_meta_calls = t.posix_meta_calls + excluded.posix_meta_calls,
            posix_ns = t.posix_ns + excluded.posix_ns,
            stdio_read_calls = t.stdio_read_calls + excluded.stdio_read_calls,
            stdio_read_bytes = t.stdio_read_bytes + excluded.stdio_read_bytes,
            stdio_write_calls = t.stdio_write_calls + excluded.stdio_write_calls,
            stdio_write_bytes = t.stdio_write_bytes + excluded.stdio_write_bytes,
            stdio_open_calls = t.stdio_open_calls + excluded.stdio_open_calls,
            stdio_meta_calls = t.stdio_meta_calls + excluded.stdio_meta_calls,
            stdio_ns = t.stdio_ns + excluded.stdio_ns,
            lower_read_bytes = t.lower_read_bytes + excluded.lower_read_bytes,
            lower_write_bytes = t.lower_write_bytes + excluded.lower_write_bytes,
            mpi_send_calls = t.mpi_send_calls + excluded.mpi_send_calls,
            mpi_send_bytes = t.mpi_send_bytes + excluded.mpi_send_bytes,
            mpi_recv_calls = t.mpi_recv_calls + excluded.mpi_recv_calls,
            mpi_recv_bytes = t.mpi_recv_bytes + excluded.mpi_recv_bytes,
            mpi_p2p_ns = t.mpi_p2p_ns + excluded.mpi_p2p_ns,
            mpi_coll_calls = t.mpi_coll_calls + excluded.mpi_coll_calls,
            mpi_coll_bytes = t.mpi_coll_bytes + excluded.mpi_coll_bytes,
            mpi_coll_ns = t.mpi_coll_ns + excluded.mpi_coll_ns,
            mpiio_read_calls = t.mpiio_read_calls + excluded.mpiio_read_calls,
            mpiio_read_bytes = t.mpiio_read_bytes + excluded.mpiio_read_bytes,
            mpiio_write_calls = t.mpiio_write_calls + excluded.mpiio_write_calls,
            mpiio_write_bytes = t.mpiio_write_bytes + excluded.mpiio_write_bytes,
            mpiio_coll_calls = t.mpiio_coll_calls + excluded.mpiio_coll_calls,
            mpiio_meta_calls = t.mpiio_meta_calls + excluded.mpiio_meta_calls,
            mpiio_ns = t.mpiio_ns + excluded.mpiio_ns,
            cpu_ns = t.cpu_ns + excluded.cpu_ns;
    INSERT INTO js_data.slice_totals_cluster AS t
        SELECT m.cluster_id, m.slice, count(*), sum(m.posix_read_calls)::bigint, sum(m.posix_read_bytes)::bigint, sum(m.posix_write_calls)::bigint, sum(m.posix_write_bytes)::bigint, sum(m.posix_open_calls)::bigint, sum(m.posix_meta_calls)::bigint, sum(m.posix_ns)::bigint, sum(m.stdio_read_calls)::bigint, sum(m.stdio_read_bytes)::bigint, sum(m.stdio_write_calls)::bigint, sum(m.stdio_write_bytes)::bigint, sum(m.stdio_open_calls)::bigint, sum(m.stdio_meta_calls)::bigint, sum(m.stdio_ns)::bigint, sum(m.lower_read_bytes)::bigint, sum(m.lower_write_bytes)::bigint, sum(m.mpi_send_calls)::bigint, sum(m.mpi_send_bytes)::bigint, sum(m.mpi_recv_calls)::bigint, sum(m.mpi_recv_bytes)::bigint, sum(m.mpi_p2p_ns)::bigint, sum(m.mpi_coll_calls)::bigint, sum(m.mpi_coll_bytes)::bigint, sum(m.mpi_coll_ns)::bigint, sum(m.mpiio_read_calls)::bigint, sum(m.mpiio_read_bytes)::bigint, sum(m.mpiio_write_calls)::bigint, sum(m.mpiio_write_bytes)::bigint, sum(m.mpiio_coll_calls)::bigint, sum(m.mpiio_meta_calls)::bigint, sum(m.mpiio_ns)::bigint, sum(m.cpu_ns)::bigint
        FROM js_data.slice_metrics m
        JOIN rollup_batch b ON m.cluster_id = b.cluster_id AND m.job_id = b.job_id AND m.step_id = b.step_id AND m.node = b.node
        GROUP BY m.cluster_id, m.slice
        ORDER BY m.slice
        ON CONFLICT (cluster_id, slice) DO UPDATE SET step_nodes = t.step_nodes + excluded.step_nodes,
            posix_read_calls = t.posix_read_calls + excluded.posix_read_calls,
            posix_read_bytes = t.posix_read_bytes + excluded.posix_read_bytes,
            posix_write_calls = t.posix_write_calls + excluded.posix_write_calls,
            posix_write_bytes = t.posix_write_bytes + excluded.posix_write_bytes,
            posix_open_calls = t.posix_open_calls + excluded.posix_open_calls,
            posix_meta_calls = t.posix_meta_calls + excluded.posix_meta_calls,
            posix_ns = t.posix_ns + excluded.posix_ns,
            stdio_read_calls = t.stdio_read_calls + excluded.stdio_read_calls,
            stdio_read_bytes = t.stdio_read_bytes + excluded.stdio_read_bytes,
            stdio_write_calls = t.stdio_write_calls + excluded.stdio_write_calls,
            stdio_write_bytes = t.stdio_write_bytes + excluded.stdio_write_bytes,
            stdio_open_calls = t.stdio_open_calls + excluded.stdio_open_calls,
            stdio_meta_calls = t.stdio_meta_calls + excluded.stdio_meta_calls,
            stdio_ns = t.stdio_ns + excluded.stdio_ns,
            lower_read_bytes = t.lower_read_bytes + excluded.lower_read_bytes,
            lower_write_bytes = t.lower_write_bytes + excluded.lower_write_bytes,
            mpi_send_calls = t.mpi_send_calls + excluded.mpi_send_calls,
            mpi_send_bytes = t.mpi_send_bytes + excluded.mpi_send_bytes,
            mpi_recv_calls = t.mpi_recv_calls + excluded.mpi_recv_calls,
            mpi_recv_bytes = t.mpi_recv_bytes + excluded.mpi_recv_bytes,
            mpi_p2p_ns = t.mpi_p2p_ns + excluded.mpi_p2p_ns,
            mpi_coll_calls = t.mpi_coll_calls + excluded.mpi_coll_calls,
            mpi_coll_bytes = t.mpi_coll_bytes + excluded.mpi_coll_bytes,
            mpi_coll_ns = t.mpi_coll_ns + excluded.mpi_coll_ns,
            mpiio_read_calls = t.mpiio_read_calls + excluded.mpiio_read_calls,
            mpiio_read_bytes = t.mpiio_read_bytes + excluded.mpiio_read_bytes,
            mpiio_write_calls = t.mpiio_write_calls + excluded.mpiio_write_calls,
            mpiio_write_bytes = t.mpiio_write_bytes + excluded.mpiio_write_bytes,
            mpiio_coll_calls = t.mpiio_coll_calls + excluded.mpiio_coll_calls,
            mpiio_meta_calls = t.mpiio_meta_calls + excluded.mpiio_meta_calls,
            mpiio_ns = t.mpiio_ns + excluded.mpiio_ns,
            cpu_ns = t.cpu_ns + excluded.cpu_ns;
    DELETE FROM rollup_batch;
    RETURN n;
END $$;
COMMENT ON FUNCTION js_data.rollup_totals(integer) IS 'fold up to N queued step records (js_data.totals_pending) into the slice totals; returns how many';

CREATE FUNCTION js_data.add_quarantine(p_cluster smallint, p_job bigint, p_step text, p_node text,
        p_file text, p_moved_to text, p_reason text) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO js_data.quarantine (cluster_id, job_id, step_id, node, file, moved_to, reason)
        VALUES (p_cluster, p_job, p_step, p_node, p_file, p_moved_to, p_reason)
        ON CONFLICT (cluster_id, job_id, step_id, node, file) DO UPDATE SET
            moved_to = excluded.moved_to, reason = excluded.reason, at = now() $$;
COMMENT ON FUNCTION js_data.add_quarantine(smallint, bigint, text, text, text, text, text) IS 'log a quarantined file';
