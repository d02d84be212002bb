-- SPDX-License-Identifier: GPL-2.0-or-later
-- The other jobs that file accesses pair with as js.lineage_warnings' read_while_written does (a
-- read while another job wrote the file): the job reply of each shows the pair (job_warnings),
-- so the triggers of js_data.replies_note_change note them with the accesses' own jobs
-- (migration 055; docs/web.md, "Stored replies"). The accesses come as columns (cluster, file,
-- job, first access, first read, last write), from a statement's rows or a job's, joined as a
-- set (a call per row cost the ingest seconds); PL/pgSQL keeps its plan for the session. The view's condition without its path and user
-- tests: a few jobs noted in vain, none missed. Probes the readers' and writers' indexes.
CREATE FUNCTION js_data.replies_file_partners(p_cluster smallint[], p_file bigint[], p_job bigint[],
                                              p_first_access timestamptz[], p_first_read timestamptz[],
                                              p_last_write timestamptz[])
    RETURNS js_data.replies_job[] LANGUAGE plpgsql STABLE
    AS $$
BEGIN
    RETURN (
    WITH a AS MATERIALIZED (
        SELECT * FROM unnest(p_cluster, p_file, p_job, p_first_access, p_first_read, p_last_write)
            AS a(cluster_id, file_id, job_id, first_access, first_read, last_write))
    SELECT ARRAY(
        SELECT DISTINCT ROW(o.cluster_id, o.job_id)::js_data.replies_job FROM (
            SELECT w.cluster_id, w.job_id FROM a
            JOIN js_data.file_accesses w ON w.cluster_id = a.cluster_id AND w.file_id = a.file_id
                                        AND w.last_write IS NOT NULL AND w.job_id <> a.job_id
            WHERE a.first_read IS NOT NULL AND a.first_read >= w.first_access AND a.first_read < w.last_write
            UNION ALL
            SELECT r.cluster_id, r.job_id FROM a
            JOIN js_data.file_accesses r ON r.cluster_id = a.cluster_id AND r.file_id = a.file_id
                                        AND r.first_read IS NOT NULL AND r.job_id <> a.job_id
            WHERE a.last_write IS NOT NULL AND r.first_read >= a.first_access AND r.first_read < a.last_write) o)
    );
END $$;
COMMENT ON FUNCTION js_data.replies_file_partners(smallint[], bigint[], bigint[], timestamptz[], timestamptz[], timestamptz[]) IS 'the other jobs file accesses (as columns: cluster, file, job, first access, first read, last write) pair with as a read while written (js.lineage_warnings): their job replies show it (js_data.replies_note_change)';
