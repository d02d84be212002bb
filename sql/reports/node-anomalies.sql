-- node-anomalies: nodes on which the same step is consistently slower than on its peers.  For
-- each step profiled on two nodes or more, each node's mean compute time per process is
-- compared with the median over the step's nodes (a slow node makes the others wait in MPI,
-- so compute time, not wall time, is what differs).  A node is slow in a step when its ratio
-- is at least min_ratio; it is anomalous when it was slow in at least min_steps steps and in
-- at least half of the multi-node steps it ran.  Steps count in the window when they
-- started in [since, until).
--   psql -f sql/reports/node-anomalies.sql -v since=... -v until=... [-v min_ratio=1.25] [-v min_steps=3]
\ir window.psql
\if :{?min_ratio}
\else
\set min_ratio 1.25
\endif
\if :{?min_steps}
\else
\set min_steps 3
\endif

CREATE TEMP VIEW balance AS
SELECT b.*, s.start_time, s.application, s.user_name
FROM js.step_node_balance b
JOIN js.step_report s ON s.cluster_id = b.cluster_id AND s.job_id = b.job_id AND s.step_id = b.step_id
WHERE s.start_time >= :'since' AND s.start_time < :'until';

\echo '== anomalous nodes (slow: ratio >=' :min_ratio 'in at least' :min_steps 'steps and half of their multi-node steps)'
SELECT node, count(*) AS multi_node_steps, count(*) FILTER (WHERE ratio >= :min_ratio) AS slow_steps,
       round((count(*) FILTER (WHERE ratio >= :min_ratio))::numeric / count(*), 2) AS slow_fraction,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio))::numeric, 2) AS median_ratio,
       round(max(ratio)::numeric, 2) AS max_ratio,
       (array_agg(job_id || '.' || step_id ORDER BY ratio DESC, job_id, step_id))[1] AS worst_step
FROM balance
GROUP BY cluster_id, node
HAVING count(*) FILTER (WHERE ratio >= :min_ratio) >= :min_steps
   AND count(*) FILTER (WHERE ratio >= :min_ratio) * 2 >= count(*)
ORDER BY count(*) FILTER (WHERE ratio >= :min_ratio) DESC, node;

\echo '== slow (step, node) pairs'
SELECT job_id, step_id, user_name AS "user", application, node, step_nodes, round(ratio::numeric, 2) AS ratio,
       round((compute_ns / 1e9)::numeric, 2) AS compute_s, round((median_compute_ns / 1e9)::numeric, 2) AS median_compute_s,
       start_time
FROM balance WHERE ratio >= :min_ratio
ORDER BY node, start_time, job_id, step_id;
