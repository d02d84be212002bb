-- jobscreen schema, migration 027: the workflow list at a million jobs (issue 13).
--
-- js.workflows counted every workflow's jobs at query time (a GROUP BY over all jobs): the
-- admins' workflow list took 1.7 s with 10^6 jobs. Each workflow now keeps its summary (jobs,
-- jobs not ok, first submit and start, last end), brought up to date by statement triggers on
-- js_data.jobs for the workflows whose jobs a statement inserted, changed, moved or deleted;
-- indexes in the list's order (newest first submit: every user's, and one user's per
-- cluster) let the list stop at its limit. js_data.merge_workflows computes a job's edges
-- before it joins them to the jobs (below).

ALTER TABLE js_data.workflows
    ADD COLUMN jobs integer NOT NULL DEFAULT 0,
    ADD COLUMN jobs_not_ok integer NOT NULL DEFAULT 0,
    ADD COLUMN first_submit timestamptz,
    ADD COLUMN first_start timestamptz,
    ADD COLUMN last_end timestamptz;
COMMENT ON COLUMN js_data.workflows.jobs IS 'its jobs (kept by js_data.workflow_summarise)';
COMMENT ON COLUMN js_data.workflows.jobs_not_ok IS 'its jobs in a state other than COMPLETED or RUNNING';
COMMENT ON COLUMN js_data.workflows.first_submit IS 'the first submit time of its jobs';
COMMENT ON COLUMN js_data.workflows.first_start IS 'the first start time of its jobs';
COMMENT ON COLUMN js_data.workflows.last_end IS 'the last end time of its jobs';

-- the summary of the workflows p_ids of cluster p_cluster, from their jobs (rows that would not
-- change are left alone)
CREATE FUNCTION js_data.workflow_summarise(p_cluster smallint, p_ids bigint[]) RETURNS void
LANGUAGE sql AS $$
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
          IS DISTINCT FROM (s.jobs, s.jobs_not_ok, s.first_submit, s.first_start, s.last_end)
$$;
COMMENT ON FUNCTION js_data.workflow_summarise(smallint, bigint[]) IS 'the kept summary of workflows (jobs, jobs_not_ok, first_submit, first_start, last_end) from their jobs';

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
CREATE TRIGGER jobs_workflow_summary_delete AFTER DELETE ON js_data.jobs
    REFERENCING OLD TABLE AS old_jobs FOR EACH STATEMENT EXECUTE FUNCTION js_data.jobs_summarise_workflows();
COMMENT ON TRIGGER jobs_workflow_summary_update ON js_data.jobs IS 'a workflow''s kept summary follows its jobs (js_data.workflow_summarise)';

-- the summaries of an existing database
UPDATE js_data.workflows w
SET jobs = s.jobs, jobs_not_ok = s.jobs_not_ok, first_submit = s.first_submit,
    first_start = s.first_start, last_end = s.last_end
FROM (SELECT cluster_id, workflow_id, count(*)::integer AS jobs,
             count(*) FILTER (WHERE state NOT IN ('COMPLETED', 'RUNNING'))::integer AS jobs_not_ok,
             min(submit_time) AS first_submit, min(start_time) AS first_start, max(end_time) AS last_end
      FROM js_data.jobs WHERE workflow_id IS NOT NULL GROUP BY cluster_id, workflow_id) s
WHERE w.cluster_id = s.cluster_id AND w.workflow_id = s.workflow_id;

CREATE INDEX workflows_submit ON js_data.workflows (first_submit DESC NULLS LAST, workflow_id DESC);
CREATE INDEX workflows_user_submit ON js_data.workflows (cluster_id, uid, first_submit DESC NULLS LAST, workflow_id DESC);

CREATE OR REPLACE VIEW js.workflows AS
    SELECT w.cluster_id, c.name AS cluster, w.workflow_id, w.uid, u.name AS user_name, w.tag, w.name,
           w.tag IS NULL AS derived, w.jobs, w.first_submit, w.first_start, w.last_end, w.jobs_not_ok
    FROM js_data.workflows w
    JOIN js_data.clusters c USING (cluster_id)
    LEFT JOIN js_data.users u ON u.cluster_id = w.cluster_id AND u.uid = w.uid;

-- Merging workflows along a job's edges: the pairs come from the job's own edges and array
-- (a handful of rows), computed first; without the fence the planner, with the statistics of
-- the small tables it planned on, walked every job of the cluster for each call (2.3 ms a call
-- at 160 jobs, growing with the jobs: the largest cost of an ingest).
CREATE OR REPLACE FUNCTION js_data.merge_workflows(p_cluster smallint, p_job bigint) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    pair record;
    keep bigint;
    gone bigint;
    merged integer := 0;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM js_data.jobs WHERE cluster_id = p_cluster AND job_id = p_job AND workflow_tag IS NULL) THEN
        RETURN 0;   -- a tagged job keeps its workflow
    END IF;
    LOOP
        WITH d AS MATERIALIZED (
            SELECT from_job, to_job FROM js_data.dependencies WHERE cluster_id = p_cluster AND from_job = p_job
            UNION ALL
            SELECT from_job, to_job FROM js_data.dependencies WHERE cluster_id = p_cluster AND to_job = p_job
            UNION ALL
            SELECT t.job_id, p_job FROM js_data.jobs me
            JOIN js_data.jobs t ON t.cluster_id = me.cluster_id AND t.array_job_id = me.array_job_id
            WHERE me.cluster_id = p_cluster AND me.job_id = p_job AND t.job_id <> p_job)
        SELECT a.workflow_id AS wa, b.workflow_id AS wb INTO pair
            FROM d
            JOIN js_data.jobs a ON a.cluster_id = p_cluster AND a.job_id = d.from_job
            JOIN js_data.jobs b ON b.cluster_id = p_cluster AND b.job_id = d.to_job
            WHERE a.uid = b.uid AND a.workflow_tag IS NULL AND b.workflow_tag IS NULL
              AND a.workflow_id <> b.workflow_id
            LIMIT 1;
        EXIT WHEN NOT FOUND;
        keep := least(pair.wa, pair.wb);
        gone := greatest(pair.wa, pair.wb);
        UPDATE js_data.jobs SET workflow_id = keep WHERE cluster_id = p_cluster AND workflow_id = gone;
        DELETE FROM js_data.workflows WHERE cluster_id = p_cluster AND workflow_id = gone;
        merged := merged + 1;
    END LOOP;
    RETURN merged;
END $$;
