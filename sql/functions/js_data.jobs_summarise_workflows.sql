-- SPDX-License-Identifier: GPL-2.0-or-later
-- one function for the three triggers: the workflows of the rows before (old_jobs) and after
-- (new_jobs) the statement
CREATE FUNCTION js_data.jobs_summarise_workflows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM js_data.workflow_summarise(x.cluster_id, array_agg(DISTINCT x.workflow_id))
            FROM new_jobs x WHERE x.workflow_id IS NOT NULL GROUP BY x.cluster_id;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM js_data.workflow_summarise(x.cluster_id, array_agg(DISTINCT x.workflow_id))
            FROM old_jobs x WHERE x.workflow_id IS NOT NULL GROUP BY x.cluster_id;
    ELSE
        PERFORM js_data.workflow_summarise(x.cluster_id, array_agg(DISTINCT x.workflow_id))
            FROM (SELECT cluster_id, workflow_id FROM old_jobs UNION ALL SELECT cluster_id, workflow_id FROM new_jobs) x
            WHERE x.workflow_id IS NOT NULL GROUP BY x.cluster_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER jobs_workflow_summary_insert AFTER INSERT ON js_data.jobs
    REFERENCING NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION js_data.jobs_summarise_workflows();
CREATE TRIGGER jobs_workflow_summary_update AFTER UPDATE ON js_data.jobs
    REFERENCING OLD TABLE AS old_jobs NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION js_data.jobs_summarise_workflows();
COMMENT ON TRIGGER jobs_workflow_summary_update ON js_data.jobs IS 'a workflow''s kept summary follows its jobs (js_data.workflow_summarise)';
CREATE TRIGGER jobs_workflow_summary_delete AFTER DELETE ON js_data.jobs
    REFERENCING OLD TABLE AS old_jobs FOR EACH STATEMENT EXECUTE FUNCTION js_data.jobs_summarise_workflows();
