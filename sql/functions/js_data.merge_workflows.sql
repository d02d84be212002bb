-- SPDX-License-Identifier: GPL-2.0-or-later
-- Merging workflows along a job's edges: the pairs come from the job's own edges and array
-- (a handful of rows), computed first; without the fence the planner, with the statistics of
-- the small tables it planned on, walked every job of the cluster for each call (2.3 ms a call
-- at 160 jobs, growing with the jobs: the largest cost of an ingest).
CREATE FUNCTION js_data.merge_workflows(p_cluster smallint, p_job bigint) RETURNS integer
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
COMMENT ON FUNCTION js_data.merge_workflows(smallint, bigint) IS 'merge the derived workflows of untagged jobs of one user joined to the job by an edge';
