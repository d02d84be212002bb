-- SPDX-License-Identifier: GPL-2.0-or-later
-- What the job list shows of each job beyond its own row: its usage over its steps but extern
-- (as the job endpoint's usage) and its insight rolled up (as js.job_insights: the worst light
-- of its steps, the time they lost). Read per job by key (the list's 500 rows), from the tables
-- themselves: through js.steps and js.step_insights each step joined its job again and the
-- steps not yet recorded were looked for per row (a third of the list's database time at 10^6
-- jobs). A job with a step still running (a live step-node) is summed through js.steps, which
-- holds those steps' data so far; the job's own row stands for the joins the views make.
CREATE VIEW js.job_totals AS
    SELECT j.cluster_id, j.job_id, u.cpu_ns, u.max_rss_kib, u.read_bytes, u.write_bytes, u.profiled_steps,
           i.light, i.lost_s
    FROM js_data.jobs j
    LEFT JOIN LATERAL (
        SELECT js.saturated(sum(s.cpu_ns)) AS cpu_ns, max(s.max_rss_kib) AS max_rss_kib,
               js.saturated(sum(s.read_bytes)) AS read_bytes, js.saturated(sum(s.write_bytes)) AS write_bytes,
               count(*) FILTER (WHERE s.profiled) AS profiled_steps
        FROM (SELECT s.cpu_ns, s.max_rss_kib, s.read_bytes, s.write_bytes, s.profiled FROM js_data.steps s
              WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id AND s.step_id <> 'extern'
                AND NOT EXISTS (SELECT 1 FROM js_data.live_step_nodes l
                                WHERE l.cluster_id = j.cluster_id AND l.job_id = j.job_id)
              UNION ALL
              SELECT s.cpu_ns, s.max_rss_kib, s.read_bytes, s.write_bytes, s.profiled FROM js.steps s
              WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id AND s.step_id <> 'extern'
                AND EXISTS (SELECT 1 FROM js_data.live_step_nodes l
                            WHERE l.cluster_id = j.cluster_id AND l.job_id = j.job_id)) s) u ON true
    LEFT JOIN LATERAL (
        SELECT (array_agg(i.light ORDER BY js.light_rank(i.light) DESC))[1] AS light, sum(i.lost_s) AS lost_s
        FROM js_data.step_insights i WHERE i.cluster_id = j.cluster_id AND i.job_id = j.job_id) i ON true;
COMMENT ON VIEW js.job_totals IS 'per job: cpu_ns, max_rss_kib, read_bytes, write_bytes summed (the largest peak) over its steps but extern, running steps'' data so far included; profiled_steps: how many were profiled; light: the worst light of its steps'' insights, lost_s the time they lost (NULL: no insight computed)';
