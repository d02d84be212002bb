-- SPDX-License-Identifier: GPL-2.0-or-later
-- The last write before a read: of all accesses of the file (any job, the reader's own job
-- too) whose last write is at or before the read, the latest; an edge when it is another job's.
-- The file is its path and, where the node knew them, its device and inode: a hard link or a
-- bind mount (another name, the same dev/ino, on the same node or both on a shared file system
-- of one type) is the same file, each access keeping the name its step used (issue 36).
CREATE FUNCTION js_data.last_writer(p_cluster smallint, p_file bigint, p_read timestamptz, p_dev bigint, p_ino bigint,
        OUT job_id bigint, OUT step_id text, OUT last_write timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT x.job_id, x.step_id, x.last_write FROM (
        SELECT w.job_id, w.step_id, w.last_write FROM js_data.file_accesses w
        WHERE w.cluster_id = p_cluster AND w.file_id = p_file AND w.last_write IS NOT NULL AND w.last_write <= p_read
        UNION ALL
        SELECT w.job_id, w.step_id, w.last_write FROM js_data.files rf
        JOIN js_data.file_accesses w ON w.cluster_id = rf.cluster_id AND w.ino = p_ino AND w.dev = p_dev
                                    AND w.file_id <> rf.file_id
        JOIN js_data.files wf ON wf.cluster_id = w.cluster_id AND wf.file_id = w.file_id AND wf.node = rf.node
                             AND wf.fs_type IS NOT DISTINCT FROM rf.fs_type
        WHERE p_ino IS NOT NULL AND rf.cluster_id = p_cluster AND rf.file_id = p_file
          AND w.last_write IS NOT NULL AND w.last_write <= p_read) x
    ORDER BY x.last_write DESC, x.job_id DESC, x.step_id DESC LIMIT 1
$$;
COMMENT ON FUNCTION js_data.last_writer(smallint, bigint, timestamptz, bigint, bigint) IS 'the access that wrote the file last at or before a read (file edges): the file by its path, or by its device and inode (hard links, bind mounts)';
