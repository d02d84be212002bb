-- SPDX-License-Identifier: GPL-2.0-or-later
-- the jobs an export holds: those of workflow p_workflow_id or the job p_job_id that the viewer
-- may see, in the export's order, at most p_limit. Rows of js.jobs, so that export_jobs reads
-- each job once and the queries of its steps, files and digest take the keys alone (the
-- planner drops the columns a caller does not use); CREATE OR REPLACE VIEW js.jobs may still
-- add columns, and the function follows.
CREATE FUNCTION js.exported_jobs(p_viewer text, p_admin boolean, p_cluster_filter text,
                                 p_workflow_id bigint, p_job_id bigint, p_limit integer)
    RETURNS SETOF js.jobs LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT j.* FROM js.jobs j
    WHERE js.may_see(p_viewer, p_admin, p_cluster_filter, j.user_name, j.cluster)
      AND j.cluster_id = ANY (ARRAY(SELECT c.cluster_id FROM js.clusters c
                                    WHERE p_cluster_filter IS NULL OR c.cluster = p_cluster_filter))
      AND (j.workflow_id = p_workflow_id OR j.job_id = p_job_id)
    ORDER BY j.start_time NULLS LAST, j.job_id
    LIMIT p_limit
$$;
COMMENT ON FUNCTION js.exported_jobs(text, boolean, text, bigint, bigint, integer) IS 'the jobs of an export of the web (docs/api.md, export): workflow p_workflow_id or job p_job_id, those js.may_see lets the viewer see, by start time, at most p_limit; inlined by the planner';
