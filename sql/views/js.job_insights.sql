-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.job_insights AS
    SELECT i.cluster, i.cluster_id, i.job_id, i.user_name, count(*) FILTER (WHERE NOT i.judged_by_sruns)::integer AS steps,
           (array_agg(i.light ORDER BY js.light_rank(i.light) DESC))[1] AS light,
           count(*) FILTER (WHERE i.disturbed)::integer AS disturbed_steps,
           sum(i.lost_s) AS lost_s,
           (array_agg(i.cause ORDER BY i.lost_s DESC NULLS LAST) FILTER (WHERE i.cause IS NOT NULL))[1] AS cause,
           max(i.interference_pct) AS interference_pct
    FROM js.step_insights i
    GROUP BY i.cluster, i.cluster_id, i.job_id, i.user_name;
COMMENT ON VIEW js.job_insights IS 'insight rolled up per job: its steps judged (a batch step that waits for its sruns is not: judged_by_sruns), the worst light of its steps, how many were disturbed, the time they lost, the cause of the largest loss, the largest interference estimate';
