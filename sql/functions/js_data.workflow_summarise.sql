-- SPDX-License-Identifier: GPL-2.0-or-later
-- the summary of the workflows p_ids of cluster p_cluster, from their jobs (rows that would not
-- change are left alone). PL/pgSQL keeps its plan for the session (an SQL function is planned
-- at each call, and the ingest calls it per job record: issue 37)
CREATE FUNCTION js_data.workflow_summarise(p_cluster smallint, p_ids bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE js_data.workflows w
    SET jobs = s.jobs, jobs_not_ok = s.jobs_not_ok, first_submit = s.first_submit,
        first_start = s.first_start, last_end = s.last_end
    FROM (SELECT i.id, count(j.job_id)::integer AS jobs,
                 count(*) FILTER (WHERE j.state NOT IN ('COMPLETED', 'RUNNING'))::integer AS jobs_not_ok,
                 min(j.submit_time) AS first_submit, min(j.start_time) AS first_start, max(j.end_time) AS last_end
          FROM unnest(p_ids) AS i(id)
          LEFT JOIN js_data.jobs j ON j.cluster_id = p_cluster AND j.workflow_id = i.id
          GROUP BY i.id) s
    WHERE w.cluster_id = p_cluster AND w.workflow_id = s.id
      AND (w.jobs, w.jobs_not_ok, w.first_submit, w.first_start, w.last_end)
          IS DISTINCT FROM (s.jobs, s.jobs_not_ok, s.first_submit, s.first_start, s.last_end);
END $$;
COMMENT ON FUNCTION js_data.workflow_summarise(smallint, bigint[]) IS 'the kept summary of workflows (jobs, jobs_not_ok, first_submit, first_start, last_end) from their jobs';
