-- SPDX-License-Identifier: GPL-2.0-or-later
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
            reads, writes, bytes_read, bytes_written, first_access, last_access, first_read, last_write, interfaces, dev, ino)
        SELECT p_cluster, p_job, p_step, p_node, fi.file_id, f.mode, f.processes, f.opens, f.reads, f.writes,
            f.bytes_read, f.bytes_written, js_data.ns_to_time(f.first_access_ns), js_data.ns_to_time(f.last_access_ns),
            js_data.ns_to_time(f.first_read_ns), js_data.ns_to_time(f.last_write_ns), f.interfaces, f.dev, f.ino
        FROM ingest_files f
        CROSS JOIN LATERAL (
            SELECT fi.file_id FROM js_data.files fi
            WHERE fi.cluster_id = p_cluster AND fi.path = f.path
              AND fi.node = CASE WHEN f.scope = 'local' THEN p_node ELSE '' END
            LIMIT 1) fi;

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
    -- usually none (readers come after their writer): then the edges are left alone (the
    -- delete's plan, made for a temporary table without statistics, read every file edge)
    IF FOUND THEN
        DELETE FROM js_data.dependencies d USING finish_readers f
            WHERE d.cluster_id = p_cluster AND d.to_job = f.job_id AND d.kind = 'file' AND d.file_id = f.file_id
              AND d.to_step = f.step_id AND d.from_time < f.last_write
              AND NOT (d.from_job = p_job AND d.from_step = p_step);
        INSERT INTO js_data.dependencies (cluster_id, kind, from_job, from_step, to_job, to_step, file_id, from_time, to_time)
            SELECT p_cluster, 'file', p_job, p_step, f.job_id, f.step_id, f.file_id, max(f.last_write), min(f.first_read)
            FROM finish_readers f
            WHERE f.job_id <> p_job
            GROUP BY f.job_id, f.step_id, f.file_id
            ON CONFLICT (cluster_id, to_job, kind, from_job, from_step, to_step, file_id) DO UPDATE SET
                from_time = greatest(dependencies.from_time, excluded.from_time),
                to_time = least(dependencies.to_time, excluded.to_time);
    END IF;

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
