-- SPDX-License-Identifier: GPL-2.0-or-later
-- The scheduler edges of one job, as dependant and as upstream, from the references stored so
-- far: a whole reference (ref_task NULL) gives an edge from the job of that id (kept even
-- before that job arrives) and from every task of the array of that id; a task reference only
-- from that task.  Called whenever a job record is ingested, so arrival order does not matter.
-- PL/pgSQL keeps the plans for the session (an SQL function is planned at each call: issue 37).
CREATE FUNCTION js_data.link_scheduler_edges(p_cluster smallint, p_job bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, condition)
        SELECT p_cluster, 'scheduler', r.ref_job, r.to_job, r.condition
        FROM js_data.dependency_refs r
        WHERE r.cluster_id = p_cluster AND r.to_job = p_job AND r.ref_task IS NULL
        ON CONFLICT DO NOTHING;
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, condition)
        SELECT p_cluster, 'scheduler', j.job_id, r.to_job, r.condition
        FROM js_data.dependency_refs r
        JOIN js_data.jobs j ON j.cluster_id = r.cluster_id AND j.array_job_id = r.ref_job
             AND (r.ref_task IS NULL OR r.ref_task = j.array_task_id)
        WHERE r.cluster_id = p_cluster AND r.to_job = p_job
        ON CONFLICT DO NOTHING;
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, condition)
        SELECT p_cluster, 'scheduler', j.job_id, r.to_job, r.condition
        FROM js_data.jobs j
        JOIN js_data.dependency_refs r ON r.cluster_id = j.cluster_id AND r.ref_job = j.array_job_id
             AND (r.ref_task IS NULL OR r.ref_task = j.array_task_id)
        WHERE j.cluster_id = p_cluster AND j.job_id = p_job
        ON CONFLICT DO NOTHING;
END $$;
COMMENT ON FUNCTION js_data.link_scheduler_edges(smallint, bigint) IS 'the scheduler edges of a job as dependant and as upstream (array tasks included) from js_data.dependency_refs';
