-- SPDX-License-Identifier: GPL-2.0-or-later
-- node-anomalies: nodes on which the same step is consistently slower than on its peers.
-- 1. Multi-node steps: for each step profiled on two nodes or more, each node's mean compute
--    time per process is compared with the median over the step's nodes (a slow node makes
--    the others wait in MPI, so compute time, not wall time, is what differs).  A node is slow
--    in a step when its ratio is at least min_ratio; it is anomalous when it was slow in at
--    least min_steps steps and in at least half of the multi-node steps it ran.
-- 2. Single-node steps of one user and application (array tasks, parameter sweeps): a node
--    whose median compute time per process is at least min_ratio times the median of the
--    same application's steps on the other nodes, with at least min_steps steps on each side.
-- Steps count in the window when they started in [since, until).
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

CREATE TEMP VIEW single AS
SELECT s.cluster_id, s.uid, s.user_name, s.application, n.node, s.job_id, s.step_id, s.start_time,
       s.compute_ns::double precision / s.processes AS compute_ns
FROM js.step_report s
CROSS JOIN LATERAL (SELECT min(sn.node) AS node, count(*) AS nodes FROM js.step_nodes sn
                    WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id AND sn.step_id = s.step_id) n
WHERE s.start_time >= :'since' AND s.start_time < :'until' AND s.profiled AND s.processes > 0 AND n.nodes = 1;

\echo '== nodes slower for the same application (single-node steps: node median >=' :min_ratio 'x the other nodes'' median, at least' :min_steps 'steps each)'
WITH per_node AS (
    SELECT cluster_id, uid, user_name, application, node, count(*) AS steps,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY compute_ns) AS median_ns
    FROM single GROUP BY cluster_id, uid, user_name, application, node
), peers AS (
    SELECT p.*, o.peer_steps, o.peer_median_ns
    FROM per_node p
    CROSS JOIN LATERAL (
        SELECT count(*) AS peer_steps, percentile_cont(0.5) WITHIN GROUP (ORDER BY x.compute_ns) AS peer_median_ns
        FROM single x
        WHERE x.cluster_id = p.cluster_id AND x.uid = p.uid AND x.application = p.application AND x.node <> p.node) o
)
SELECT node, user_name AS "user", application, steps, peer_steps,
       round((median_ns / 1e9)::numeric, 2) AS median_compute_s, round((peer_median_ns / 1e9)::numeric, 2) AS peer_median_compute_s,
       round((median_ns / peer_median_ns)::numeric, 2) AS ratio
FROM peers
WHERE steps >= :min_steps AND peer_steps >= :min_steps AND peer_median_ns > 0 AND median_ns >= :min_ratio * peer_median_ns
ORDER BY median_ns / peer_median_ns DESC, node, user_name, application;
