-- SPDX-License-Identifier: GPL-2.0-or-later
-- gpu-energy: GPU-hours, idle GPU-hours and energy per user and account (issue 39; docs/gpu.md,
-- docs/reports.md). A GPU's hours are its step's slices with a reading on it; its idle hours
-- the slices whose mean SM utilization was under 5 % (as the insight's GPU_IDLE counts them).
-- A GPU the batch step and another step of the job both read counts once, with the other
-- step (the batch step spans it); the batch step's own GPU-hours count where no other step of
-- the job read that GPU. Energy is the jobs' (js.jobs: GPUs, and the steps' shares of their
-- nodes' CPU energy), in kWh. A job counts in the window when it started in [since, until).
--   psql -f sql/reports/gpu-energy.sql -v since=2026-11-01 -v until=2026-12-01 [-v limit=50]
\ir window.psql
\if :{?limit}
\else
\set limit 50
\endif

\echo '== GPU-hours, idle GPU-hours and energy by user and account'
WITH jobs AS (
    SELECT j.cluster_id, j.job_id, j.user_name, j.account, j.gpu_energy_j, j.cpu_energy_j
    FROM js.jobs j
    WHERE j.start_time >= :'since' AND j.start_time < :'until'),
gpus AS (
    SELECT g.cluster_id, g.job_id, g.step_id, g.node, g.uuid
    FROM js.step_gpus g JOIN jobs USING (cluster_id, job_id)
    WHERE g.step_id <> 'batch'
       OR NOT EXISTS (SELECT 1 FROM js.step_gpus o
                      WHERE o.cluster_id = g.cluster_id AND o.job_id = g.job_id AND o.node = g.node
                        AND o.uuid = g.uuid AND o.step_id <> 'batch')),
hours AS (
    SELECT g.cluster_id, g.job_id,
           sum(c.slice_seconds) FILTER (WHERE v.n > 0) / 3600.0 AS gpu_h,
           sum(c.slice_seconds) FILTER (WHERE v.n > 0 AND v.sm < 5 * v.n) / 3600.0 AS idle_h
    FROM gpus g
    JOIN js.clusters c ON c.cluster_id = g.cluster_id
    JOIN js.series_step_node_gpu s ON s.cluster_id = g.cluster_id AND s.job_id = g.job_id AND s.step_id = g.step_id
                                  AND s.node = g.node AND s.uuid = g.uuid
    CROSS JOIN LATERAL unnest(js.series_decode(s.util_n, s.slices), js.series_decode(s.util_sm_sum, s.slices)) AS v(n, sm)
    GROUP BY g.cluster_id, g.job_id)
SELECT j.user_name AS "user", coalesce(j.account, '-') AS account, count(*) AS jobs,
       count(h.job_id) AS gpu_jobs,
       round(coalesce(sum(h.gpu_h), 0)::numeric, 2) AS gpu_hours,
       round(coalesce(sum(h.idle_h), 0)::numeric, 2) AS idle_gpu_hours,
       round((100 * sum(h.idle_h) / nullif(sum(h.gpu_h), 0))::numeric, 1) AS idle_pct,
       round((sum(j.gpu_energy_j) / 3.6e6)::numeric, 3) AS gpu_kwh,
       round((sum(j.cpu_energy_j) / 3.6e6)::numeric, 3) AS cpu_kwh,
       round(((coalesce(sum(j.gpu_energy_j), 0) + coalesce(sum(j.cpu_energy_j), 0)) / 3.6e6)::numeric, 3) AS kwh
FROM jobs j
LEFT JOIN hours h ON h.cluster_id = j.cluster_id AND h.job_id = j.job_id
GROUP BY j.user_name, j.account
HAVING count(h.job_id) > 0 OR sum(j.gpu_energy_j) IS NOT NULL OR sum(j.cpu_energy_j) IS NOT NULL
ORDER BY sum(h.idle_h) DESC NULLS LAST, "user", account
LIMIT :limit;

\echo '== the steps with the most idle GPU-hours'
SELECT a.job_id, a.step_id, j.user_name AS "user", j.name AS job_name, count(DISTINCT a.node || a.uuid) AS gpus,
       round(sum(a.idle_h)::numeric, 2) AS idle_gpu_hours, round(sum(a.gpu_h)::numeric, 2) AS gpu_hours
FROM (SELECT g.cluster_id, g.job_id, g.step_id, g.node, g.uuid,
             sum(c.slice_seconds) FILTER (WHERE v.n > 0) / 3600.0 AS gpu_h,
             sum(c.slice_seconds) FILTER (WHERE v.n > 0 AND v.sm < 5 * v.n) / 3600.0 AS idle_h
      FROM js.step_gpus g
      JOIN js.jobs j0 ON j0.cluster_id = g.cluster_id AND j0.job_id = g.job_id
      JOIN js.clusters c ON c.cluster_id = g.cluster_id
      JOIN js.series_step_node_gpu s ON s.cluster_id = g.cluster_id AND s.job_id = g.job_id AND s.step_id = g.step_id
                                    AND s.node = g.node AND s.uuid = g.uuid
      CROSS JOIN LATERAL unnest(js.series_decode(s.util_n, s.slices), js.series_decode(s.util_sm_sum, s.slices)) AS v(n, sm)
      WHERE j0.start_time >= :'since' AND j0.start_time < :'until' AND g.step_id <> 'batch'
      GROUP BY g.cluster_id, g.job_id, g.step_id, g.node, g.uuid) a
JOIN js.jobs j ON j.cluster_id = a.cluster_id AND j.job_id = a.job_id
GROUP BY a.job_id, a.step_id, j.user_name, j.name
HAVING sum(a.idle_h) > 0
ORDER BY sum(a.idle_h) DESC, a.job_id, a.step_id
LIMIT :limit;
