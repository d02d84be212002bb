-- SPDX-License-Identifier: GPL-2.0-or-later
-- The last write before a read: of all accesses of the file (any job, the reader's own job
-- too) whose last write is at or before the read, the latest; an edge when it is another job's.
-- The file is its path and, where the reader's node knew it, its identity (ino and birth time:
-- a reused inode has a new one): a write under another name of the same file (a hard link, a
-- bind mount) counts, its file_id the name its writer used; at a tie the reader's own name wins.
-- A node-local file is the same node's, on the same device; a shared one is of the same file
-- system type, on any node (each client numbers its mount's device its own way: NFS, Lustre).
-- docs/dependencies.md, "Hard links".
-- A set-returning SQL function, so that a LATERAL call in a statement over all the reads of a
-- batch is inlined (planned as its subqueries: one backward probe of file_accesses_writers per
-- read, one of file_accesses_identity where the identity is known, no function call each).
CREATE FUNCTION js_data.last_writer(p_cluster smallint, p_file bigint, p_read timestamptz,
        p_dev bigint, p_ino bigint, p_btime bigint)
RETURNS TABLE (job_id bigint, step_id text, last_write timestamptz, file_id bigint)
LANGUAGE sql STABLE ROWS 1 AS $$
    SELECT x.job_id, x.step_id, x.last_write, x.file_id FROM (
        (SELECT w.job_id, w.step_id, w.last_write, w.file_id FROM js_data.file_accesses w
         WHERE w.cluster_id = p_cluster AND w.file_id = p_file AND w.last_write IS NOT NULL AND w.last_write <= p_read
         ORDER BY w.last_write DESC, w.job_id DESC, w.step_id DESC LIMIT 1)
        UNION ALL
        (SELECT w.job_id, w.step_id, w.last_write, w.file_id
         -- planned alone: a backward probe of file_accesses_identity, never a walk of the
         -- node's files first, which plans made on young statistics chose (19 s for 10,240
         -- writes at 128 processes a node in bench/ingest); its 16 latest writes, of which the
         -- latest on the reader's node or file system counts (a file rewritten by a long chain
         -- of jobs costs a read 16 rows, not all its writers)
         FROM (SELECT w.job_id, w.step_id, w.last_write, w.file_id, w.dev FROM js_data.file_accesses w
               WHERE p_btime IS NOT NULL AND w.cluster_id = p_cluster AND w.ino = p_ino AND w.btime = p_btime
                 AND w.last_write IS NOT NULL AND w.last_write <= p_read AND w.file_id <> p_file
               ORDER BY w.last_write DESC, w.job_id DESC, w.step_id DESC LIMIT 16) w
         -- each file by its key alone (a join on the node walked the files' path index)
         CROSS JOIN LATERAL (SELECT f.node, f.fs_type FROM js_data.files f
                             WHERE f.cluster_id = p_cluster AND f.file_id = w.file_id OFFSET 0) wf
         CROSS JOIN LATERAL (SELECT f.node, f.fs_type FROM js_data.files f
                             WHERE f.cluster_id = p_cluster AND f.file_id = p_file OFFSET 0) rf
         WHERE rf.node = wf.node AND rf.fs_type IS NOT DISTINCT FROM wf.fs_type AND (rf.node = '' OR w.dev = p_dev)
         ORDER BY w.last_write DESC, w.job_id DESC, w.step_id DESC LIMIT 1)) x
    ORDER BY x.last_write DESC, x.job_id DESC, x.step_id DESC, x.file_id = p_file DESC LIMIT 1
$$;
COMMENT ON FUNCTION js_data.last_writer(smallint, bigint, timestamptz, bigint, bigint, bigint) IS 'the access that wrote the file last at or before a read (file edges), by its path or its identity (ino and birth time; the device too for a node-local file: hard links); inlined where called in FROM';
