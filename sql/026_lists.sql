-- jobscreen schema, migration 026: the job list at a million jobs (issue 13).
--
-- The viewer's job list (web/queries.sql "jobs") orders jobs newest first, either every user's
-- (admins) or one user's. Without an index in that order it sorted every matching job, and
-- js.jobs joined every workflow to name them before the limit: 150-500 ms at 10^6 jobs. Now:
--   * jobs_submit and jobs_user_submit walk the jobs in the list's order, all users or one
--     user per cluster, and stop at the limit;
--   * js.jobs names the workflow per row it returns (a scalar subquery, not a join over every
--     workflow);
--   * steps_incomplete answers js.jobs.incomplete without reading every step;
--   * js.users names the users per cluster (the list picks one user's uid per cluster there).

CREATE INDEX jobs_submit ON js_data.jobs (submit_time DESC NULLS LAST, job_id DESC);
CREATE INDEX jobs_user_submit ON js_data.jobs (cluster_id, uid, submit_time DESC NULLS LAST, job_id DESC);
CREATE INDEX steps_incomplete ON js_data.steps (cluster_id, job_id) WHERE incomplete;

CREATE VIEW js.users AS
    SELECT u.cluster_id, c.name AS cluster, u.uid, u.name AS user_name
    FROM js_data.users u
    JOIN js_data.clusters c USING (cluster_id);
COMMENT ON VIEW js.users IS 'user names per cluster and uid, as the job records gave them';

CREATE OR REPLACE VIEW js.jobs AS
    SELECT j.cluster_id, c.name AS cluster, j.job_id, j.uid, u.name AS user_name, j.gid, j.name, j.partition,
           j.account, j.workflow_id,
           (SELECT w.name FROM js_data.workflows w
            WHERE w.cluster_id = j.cluster_id AND w.workflow_id = j.workflow_id) AS workflow_name,
           j.workflow_tag, j.submit_time, j.start_time,
           j.end_time, extract(epoch FROM j.end_time - j.start_time)::double precision AS elapsed_s,
           j.state, j.exit_code, j.num_nodes, j.num_cpus, j.num_tasks, j.nodelist, j.dependency, j.work_dir,
           (j.record->>'final')::boolean AS final,
           (SELECT count(*) FROM js_data.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id)::integer AS steps,
           EXISTS (SELECT 1 FROM js_data.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id AND s.incomplete) AS incomplete,
           (SELECT count(DISTINCT l.step_id) FROM js_data.live_step_nodes l
            WHERE l.cluster_id = j.cluster_id AND l.job_id = j.job_id)::integer AS running_steps,
           j.array_job_id, j.array_task_id, j.reason
    FROM js_data.jobs j
    JOIN js_data.clusters c USING (cluster_id)
    LEFT JOIN js_data.users u ON u.cluster_id = j.cluster_id AND u.uid = j.uid;
