-- SPDX-License-Identifier: GPL-2.0-or-later
-- What the job list shows of each job beyond its own row: its usage over its steps but extern
-- (as the job endpoint's usage) and its insight rolled up (as js.job_insights: the worst light
-- of its steps, the time they lost). Kept per job in js_data.job_totals by the triggers of
-- js_data.job_totals_note (migration 053): summed per request over js.steps and
-- js.step_insights they were a third of the list's database time at 10^6 jobs. The usage of a
-- job with a step still running (a live step-node) is summed through js.steps, which holds those
-- steps' data so far (the condition gates the sum: for any other job it is not run; OFFSET 0:
-- looked for once per job, not once per column). Read per job by key.
CREATE VIEW js.job_totals AS
    SELECT j.cluster_id, j.job_id, j.uid,
           CASE WHEN x.live THEN u.cpu_ns ELSE t.cpu_ns END AS cpu_ns,
           CASE WHEN x.live THEN u.max_rss_kib ELSE t.max_rss_kib END AS max_rss_kib,
           CASE WHEN x.live THEN u.read_bytes ELSE t.read_bytes END AS read_bytes,
           CASE WHEN x.live THEN u.write_bytes ELSE t.write_bytes END AS write_bytes,
           CASE WHEN x.live THEN u.profiled_steps ELSE coalesce(t.profiled_steps, 0) END AS profiled_steps,
           t.light, t.lost_s
    FROM js_data.jobs j
    LEFT JOIN js_data.job_totals t ON t.cluster_id = j.cluster_id AND t.job_id = j.job_id
    CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM js_data.live_step_nodes l
                                       WHERE l.cluster_id = j.cluster_id AND l.job_id = j.job_id) AS live
                        OFFSET 0) x
    CROSS JOIN LATERAL (
        SELECT js.saturated(sum(s.cpu_ns)) AS cpu_ns, max(s.max_rss_kib) AS max_rss_kib,
               js.saturated(sum(s.read_bytes)) AS read_bytes, js.saturated(sum(s.write_bytes)) AS write_bytes,
               count(*) FILTER (WHERE s.profiled)::integer AS profiled_steps
        FROM js.steps s WHERE x.live AND s.cluster_id = j.cluster_id AND s.job_id = j.job_id AND s.step_id <> 'extern') u;
COMMENT ON VIEW js.job_totals IS 'per job: cpu_ns, max_rss_kib, read_bytes, write_bytes summed (the largest peak) over its steps but extern, running steps'' data so far included; profiled_steps: how many were profiled; light: the worst light of its steps'' insights, lost_s the time they lost (NULL: no insight computed)';
