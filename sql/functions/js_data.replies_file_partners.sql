-- SPDX-License-Identifier: GPL-2.0-or-later
-- The other jobs a file access pairs with as js.lineage_warnings' read_while_written does (a
-- read while another job wrote the file): the job reply of each shows the pair (job_warnings),
-- so the triggers of js_data.replies_note_change note them with the access's own job
-- (migration 055; docs/web.md, "Stored replies"). The view's condition without its path and
-- user tests: a few jobs noted in vain, none missed. Probes the readers' and writers' indexes.
CREATE FUNCTION js_data.replies_file_partners(p_cluster smallint, p_file bigint, p_job bigint,
                                              p_first_access timestamptz, p_first_read timestamptz,
                                              p_last_write timestamptz)
    RETURNS SETOF js_data.replies_job LANGUAGE sql STABLE
    AS $$
    SELECT w.cluster_id, w.job_id FROM js_data.file_accesses w
    WHERE p_first_read IS NOT NULL AND w.cluster_id = p_cluster AND w.file_id = p_file AND w.last_write IS NOT NULL
      AND w.job_id <> p_job AND p_first_read >= w.first_access AND p_first_read < w.last_write
    UNION ALL
    SELECT r.cluster_id, r.job_id FROM js_data.file_accesses r
    WHERE p_last_write IS NOT NULL AND r.cluster_id = p_cluster AND r.file_id = p_file AND r.first_read IS NOT NULL
      AND r.job_id <> p_job AND r.first_read >= p_first_access AND r.first_read < p_last_write
$$;
COMMENT ON FUNCTION js_data.replies_file_partners(smallint, bigint, bigint, timestamptz, timestamptz, timestamptz) IS 'the other jobs a file access (cluster, file, job, first access, first read, last write) pairs with as a read while written (js.lineage_warnings): their job replies show it (js_data.replies_note_change)';
