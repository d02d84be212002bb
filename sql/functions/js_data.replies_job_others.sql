-- SPDX-License-Identifier: GPL-2.0-or-later
-- The other jobs whose job reply a statement changed (migration 055; docs/web.md, "Stored
-- replies"), for js_data.replies_note_change: p_jobs the jobs the statement on p_table touched,
-- p_waiting the jobs waiting by a scheduler edge it changed, p_named the jobs it inserted,
-- deleted or renamed. The job reply shows the other end of each edge (name, state) and the
-- lineage warnings, which pair two jobs (js.lineage_warnings): an edge no dependency orders
-- (the scheduler edges walked up from the reader, 50 deep) and a read while written. PL/pgSQL:
-- its plan kept for the session (a SQL function is planned at every call).
CREATE FUNCTION js_data.replies_job_others(p_table text, p_jobs js_data.replies_job[],
                                           p_waiting js_data.replies_job[], p_named js_data.replies_job[])
    RETURNS js_data.replies_job[] LANGUAGE plpgsql STABLE
    AS $$
BEGIN
    RETURN (
    WITH RECURSIVE down (cluster_id, job_id, depth) AS (
        SELECT k.cluster_id, k.job_id, 0 FROM unnest(p_waiting) k
        UNION
        SELECT s.cluster_id, s.to_job, d.depth + 1 FROM down d
        JOIN js_data.dependencies s ON s.cluster_id = d.cluster_id AND s.from_job = d.job_id AND s.kind = 'scheduler'
                                   AND s.condition <> 'after'
        WHERE d.depth < 50)
    SELECT ARRAY(
        SELECT DISTINCT y.x FROM (
            -- below a scheduler edge: the jobs waiting, and the writers of their file edges
            SELECT ROW(d.cluster_id, d.job_id)::js_data.replies_job AS x FROM down d
            UNION ALL
            SELECT ROW(f.cluster_id, f.from_job)::js_data.replies_job FROM down d
            JOIN js_data.dependencies f ON f.cluster_id = d.cluster_id AND f.to_job = d.job_id AND f.kind = 'file'
            UNION ALL
            -- a job's row: the jobs at the other end of its edges (by the edges' two indexes)
            SELECT ROW(e.cluster_id, e.to_job)::js_data.replies_job FROM unnest(p_jobs) k
            JOIN js_data.dependencies e ON e.cluster_id = k.cluster_id AND e.from_job = k.job_id
            WHERE p_table = 'jobs'
            UNION ALL
            SELECT ROW(e.cluster_id, e.from_job)::js_data.replies_job FROM unnest(p_jobs) k
            JOIN js_data.dependencies e ON e.cluster_id = k.cluster_id AND e.to_job = k.job_id
            WHERE p_table = 'jobs'
            UNION ALL
            -- a job inserted, deleted or renamed: the jobs its file accesses pair with
            SELECT unnest(js_data.replies_file_partners(
                array_agg(a.cluster_id), array_agg(a.file_id), array_agg(a.job_id), array_agg(a.first_access),
                array_agg(a.first_read), array_agg(a.last_write)))
            FROM unnest(p_named) k
            JOIN js_data.file_accesses a ON a.cluster_id = k.cluster_id AND a.job_id = k.job_id
            WHERE a.first_read IS NOT NULL OR a.last_write IS NOT NULL) y)
    );
END $$;
COMMENT ON FUNCTION js_data.replies_job_others(text, js_data.replies_job[], js_data.replies_job[], js_data.replies_job[]) IS 'the other jobs whose job reply a statement on a table changed: the other ends of the edges of the jobs it touched, the jobs waiting below a scheduler edge changed and their file edges'' writers, the jobs paired by file accesses with a job inserted, deleted or renamed (js_data.replies_note_change)';
