-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.workflow_insights AS
    SELECT j.cluster, j.cluster_id, j.workflow_id, j.user_name, count(*)::integer AS jobs,
           (array_agg(i.light ORDER BY js.light_rank(i.light) DESC))[1] AS light,
           sum(i.disturbed_steps)::integer AS disturbed_steps, sum(i.lost_s) AS lost_s,
           (array_agg(i.cause ORDER BY i.lost_s DESC NULLS LAST) FILTER (WHERE i.cause IS NOT NULL))[1] AS cause
    FROM js.job_insights i
    JOIN js.jobs j ON j.cluster_id = i.cluster_id AND j.job_id = i.job_id
    WHERE j.workflow_id IS NOT NULL
    GROUP BY j.cluster, j.cluster_id, j.workflow_id, j.user_name;
COMMENT ON VIEW js.workflow_insights IS 'insight rolled up per workflow: the worst light of its jobs, their disturbed steps, the time lost, the cause of the largest loss';
