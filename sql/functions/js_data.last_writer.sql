-- SPDX-License-Identifier: GPL-2.0-or-later
-- The last write before a read: of all accesses of the file (any job, the reader's own job
-- too) whose last write is at or before the read, the latest; an edge when it is another job's.
-- A set-returning SQL function, so that a LATERAL call in a statement over all the reads of a
-- batch is inlined (planned as its subquery: one backward probe of file_accesses_writers per
-- read, no function call each).
CREATE FUNCTION js_data.last_writer(p_cluster smallint, p_file bigint, p_read timestamptz)
RETURNS TABLE (job_id bigint, step_id text, last_write timestamptz)
LANGUAGE sql STABLE ROWS 1 AS $$
    SELECT w.job_id, w.step_id, w.last_write FROM js_data.file_accesses w
    WHERE w.cluster_id = p_cluster AND w.file_id = p_file AND w.last_write IS NOT NULL AND w.last_write <= p_read
    ORDER BY w.last_write DESC, w.job_id DESC, w.step_id DESC LIMIT 1
$$;
COMMENT ON FUNCTION js_data.last_writer(smallint, bigint, timestamptz) IS 'the access that wrote the file last at or before a read (file edges); inlined where called in FROM';
