-- SPDX-License-Identifier: GPL-2.0-or-later
-- After the COPYs of a transaction's step records (the arrays: job, step, node of each), for
-- all of them at once: their files and accesses, then the file edges: into each read from its
-- last writer (all the transaction's accesses in: the same edges as one record after another,
-- where a writer that comes later fixes its readers' edges), and from each write of theirs to
-- the reads whose last writer it now is; time edges, the slice-totals queue, workflow merges.
-- Set-based (issue 37): each path is written or looked up once (finish_files), the accesses and
-- their reads and writes come from the staged rows, and every read's last writer is one probe
-- of an index within one statement (js_data.last_writer, inlined). jit off: its compilation
-- (~100 ms) cost more than the statements it would speed up.
CREATE FUNCTION js_data.ingest_finish(p_cluster smallint, p_jobs bigint[], p_steps text[], p_nodes text[],
        p_no_edge_prefixes text[]) RETURNS void
LANGUAGE plpgsql SET jit = off AS $$
DECLARE
    v_job bigint;
    v_readers bigint;
BEGIN
    -- the files: those new to the database inserted, their ids returned; then those it had (or
    -- another daemon committed while this waited on them: a statement of its own sees them);
    -- each marked whether it gives edges (paths everybody reads do not; their accesses are stored;
    -- a prefix test of the array, not a subquery over it: a function scan per file cost more)
    WITH ins AS (
        INSERT INTO js_data.files (cluster_id, path, node, scope, fs_type)
            SELECT DISTINCT ON (f.path, x.n) p_cluster, f.path, x.n, f.scope, f.fs_type
            FROM ingest_batch_files f, LATERAL (SELECT CASE WHEN f.scope = 'local' THEN f.node ELSE '' END AS n) x
            ORDER BY f.path, x.n
            ON CONFLICT (cluster_id, path, node) DO NOTHING
            RETURNING path, node, file_id, fs_type)
    INSERT INTO finish_files
        SELECT i.path, i.node, i.file_id, NOT coalesce(i.path ^@ ANY (p_no_edge_prefixes), false), i.fs_type
        FROM ins i;
    INSERT INTO finish_files
        SELECT d.path, d.n, fi.file_id, NOT coalesce(d.path ^@ ANY (p_no_edge_prefixes), false), fi.fs_type
        FROM (SELECT DISTINCT f.path, x.n
              FROM ingest_batch_files f, LATERAL (SELECT CASE WHEN f.scope = 'local' THEN f.node ELSE '' END AS n) x
              WHERE NOT EXISTS (SELECT 1 FROM finish_files m WHERE m.path = f.path AND m.node = x.n)) d
        -- each looked up by its key: a join would hash every file of the cluster (migration 028)
        CROSS JOIN LATERAL (
            SELECT fi.file_id, fi.fs_type FROM js_data.files fi
            WHERE fi.cluster_id = p_cluster AND fi.path = d.path AND fi.node = d.n
            LIMIT 1) fi;
    -- the accesses, and beside them what the edges below read of each (finish_accesses: the
    -- staged rows joined to their files by path once, not once a statement)
    WITH a AS (
        INSERT INTO js_data.file_accesses (cluster_id, job_id, step_id, node, file_id, mode, processes, opens,
                reads, writes, bytes_read, bytes_written, first_access, last_access, first_read, last_write, interfaces, dev, ino,
                btime)
            SELECT p_cluster, f.job_id, f.step_id, f.node, m.file_id, f.mode, f.processes, f.opens, f.reads, f.writes,
                f.bytes_read, f.bytes_written, js_data.ns_to_time(f.first_access_ns), js_data.ns_to_time(f.last_access_ns),
                js_data.ns_to_time(f.first_read_ns), js_data.ns_to_time(f.last_write_ns), f.interfaces, f.dev, f.ino, f.btime
            FROM ingest_batch_files f
            JOIN finish_files m ON m.path = f.path AND m.node = CASE WHEN f.scope = 'local' THEN f.node ELSE '' END
            RETURNING job_id, step_id, file_id, first_read, last_write, dev, ino, btime)
    INSERT INTO finish_accesses
        SELECT a.job_id, a.step_id, a.file_id, a.first_read, a.last_write, m.edges, m.node, m.fs_type, a.dev, a.ino, a.btime
        FROM a JOIN finish_files m ON m.file_id = a.file_id
        WHERE a.first_read IS NOT NULL OR a.last_write IS NOT NULL;

    -- what these steps read: an edge from the last writer before each read, when another job's
    -- (the staged rows are these step-nodes' accesses, all of them); by the file's path or its
    -- identity (a hard link: the writer's name kept as from_file_id)
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, from_step, to_job, to_step, file_id, from_time, to_time,
            from_file_id)
        SELECT p_cluster, 'file', w.job_id, w.step_id, r.job_id, r.step_id, r.file_id, max(w.last_write), min(r.first_read),
            min(nullif(w.file_id, r.file_id))
        FROM (SELECT job_id, step_id, file_id, first_read, dev, ino, btime FROM finish_accesses
              WHERE first_read IS NOT NULL AND edges) r
        CROSS JOIN LATERAL js_data.last_writer(p_cluster, r.file_id, r.first_read, r.dev, r.ino, r.btime) w
        WHERE w.job_id <> r.job_id
        GROUP BY w.job_id, w.step_id, r.job_id, r.step_id, r.file_id
        ON CONFLICT (cluster_id, to_job, kind, from_job, from_step, to_step, file_id) DO UPDATE SET
            from_file_id = CASE WHEN excluded.from_time >= dependencies.from_time THEN excluded.from_file_id
                                ELSE dependencies.from_file_id END,
            from_time = greatest(dependencies.from_time, excluded.from_time),
            to_time = least(dependencies.to_time, excluded.to_time);

    -- what these steps wrote: the reads after it whose last writer it now is (a writer ingested
    -- after its readers) get their edge from it, and the edges from the writers it supersedes go.
    -- Each written file's reads found by the readers' index (OFFSET 0 keeps the probe per file:
    -- planned on the staging's missing statistics, a hash join read every access of the
    -- cluster each transaction, 3x the time at 73,000 accesses and growing with the table); and
    -- its readers by its identity under another name (a hard link). The conditions are in each
    -- branch: a LATERAL subquery gets none pushed into it.
    INSERT INTO finish_readers
        SELECT w.job_id, w.step_id, r.job_id, r.step_id, r.file_id, r.first_read, w.last_write, nullif(w.file_id, r.file_id)
        FROM (SELECT job_id, step_id, file_id, node, fs_type, last_write, dev, ino, btime FROM finish_accesses
              WHERE last_write IS NOT NULL AND edges) w
        CROSS JOIN LATERAL (
            (SELECT r.job_id, r.step_id, r.file_id, r.first_read, r.dev, r.ino, r.btime FROM js_data.file_accesses r
             WHERE r.cluster_id = p_cluster AND r.file_id = w.file_id AND r.first_read IS NOT NULL
               AND r.first_read >= w.last_write
             OFFSET 0)
            UNION ALL
            SELECT r.job_id, r.step_id, r.file_id, r.first_read, r.dev, r.ino, r.btime
            FROM (SELECT r.* FROM js_data.file_accesses r  -- planned alone: a probe of file_accesses_identity
                  WHERE w.btime IS NOT NULL AND r.cluster_id = p_cluster AND r.ino = w.ino AND r.btime = w.btime
                    AND r.first_read IS NOT NULL AND r.first_read >= w.last_write AND r.file_id <> w.file_id
                  OFFSET 0) r
            CROSS JOIN LATERAL (SELECT f.node, f.fs_type, f.path FROM js_data.files f  -- by its key alone
                                WHERE f.cluster_id = p_cluster AND f.file_id = r.file_id OFFSET 0) rf
            WHERE rf.node = w.node AND rf.fs_type IS NOT DISTINCT FROM w.fs_type AND (w.node = '' OR r.dev = w.dev)
              AND NOT coalesce(rf.path ^@ ANY (p_no_edge_prefixes), false)) r
        CROSS JOIN LATERAL js_data.last_writer(p_cluster, r.file_id, r.first_read, r.dev, r.ino, r.btime) lw
        WHERE lw.job_id = w.job_id AND lw.step_id = w.step_id AND lw.file_id = w.file_id
          AND NOT (r.job_id = w.job_id AND r.step_id = w.step_id);
    GET DIAGNOSTICS v_readers = ROW_COUNT;
    -- usually none (readers come after their writer): then the edges are left alone (the
    -- delete's plan, made for a temporary table without statistics, read every file edge)
    IF v_readers > 0 THEN
        DELETE FROM js_data.dependencies d USING finish_readers f
            WHERE d.cluster_id = p_cluster AND d.to_job = f.job_id AND d.kind = 'file' AND d.file_id = f.file_id
              AND d.to_step = f.step_id AND d.from_time < f.last_write
              AND NOT (d.from_job = f.from_job AND d.from_step = f.from_step);
        INSERT INTO js_data.dependencies (cluster_id, kind, from_job, from_step, to_job, to_step, file_id, from_time, to_time,
                from_file_id)
            SELECT p_cluster, 'file', f.from_job, f.from_step, f.job_id, f.step_id, f.file_id, max(f.last_write), min(f.first_read),
                min(f.from_file_id)
            FROM finish_readers f
            WHERE f.job_id <> f.from_job
            GROUP BY f.from_job, f.from_step, f.job_id, f.step_id, f.file_id
            ON CONFLICT (cluster_id, to_job, kind, from_job, from_step, to_step, file_id) DO UPDATE SET
                from_file_id = CASE WHEN excluded.from_time >= dependencies.from_time THEN excluded.from_file_id
                                    ELSE dependencies.from_file_id END,
                from_time = greatest(dependencies.from_time, excluded.from_time),
                to_time = least(dependencies.to_time, excluded.to_time);
    END IF;

    -- a file edge explains a start: the time edges of the jobs that have one now go
    PERFORM js_data.unlink_by_time(p_cluster, ARRAY(SELECT DISTINCT j FROM (
        SELECT unnest(p_jobs) AS j UNION ALL SELECT job_id FROM finish_readers) x));

    -- the slice totals: queued, folded in batches by js_data.rollup_totals()
    INSERT INTO js_data.totals_pending (cluster_id, job_id, step_id, node)
        SELECT p_cluster, k.job_id, k.step_id, k.node FROM unnest(p_jobs, p_steps, p_nodes) AS k(job_id, step_id, node);

    -- the workflows along the edges into the steps (their writers'), then the steps' jobs, each once
    FOR v_job IN
        SELECT j FROM (
            SELECT d.from_job AS j, 0 AS o
            FROM (SELECT DISTINCT job_id, step_id FROM unnest(p_jobs, p_steps) AS k(job_id, step_id)) k
            JOIN js_data.dependencies d ON d.cluster_id = p_cluster AND d.kind = 'file' AND d.to_job = k.job_id
                                       AND d.to_step = k.step_id
            UNION
            SELECT k.job_id, 1 FROM unnest(p_jobs) AS k(job_id)) x
        GROUP BY j ORDER BY min(o), j
    LOOP
        PERFORM js_data.merge_workflows(p_cluster, v_job);
    END LOOP;
    -- emptied by DELETE, and by TRUNCATE once their pages pass 8 MiB: nothing vacuums a
    -- session's temporary tables, so deleted rows keep their pages, every transaction appends
    -- its rows after them and every scan reads them all (a daemon's staging grew by each
    -- transaction's accesses, ~2 MB at 128 processes a node, for as long as it ran); a TRUNCATE
    -- each time cost 1.6 ms (new files, the plans on them made again), most of a small
    -- transaction's finish
    IF pg_relation_size('ingest_batch_files') + pg_relation_size('ingest_batch_steps') + pg_relation_size('finish_files')
       + pg_relation_size('finish_readers') + pg_relation_size('finish_accesses') > 8388608 THEN
        TRUNCATE ingest_batch_files, ingest_batch_steps, finish_files, finish_readers, finish_accesses;
    ELSE
        DELETE FROM ingest_batch_files;
        DELETE FROM ingest_batch_steps;
        DELETE FROM finish_files;
        DELETE FROM finish_readers;
        DELETE FROM finish_accesses;
    END IF;
END $$;
COMMENT ON FUNCTION js_data.ingest_finish(smallint, bigint[], text[], text[], text[]) IS 'after the COPYs of a transaction''s step records: files, accesses, file edges (from the last write before each read), time edges, queue for the slice totals, workflow merges';
