-- SPDX-License-Identifier: GPL-2.0-or-later
-- Per node of a multi-node step: the mean compute time of its processes against the median
-- of the step's nodes (a slow node makes the others wait in MPI, so their compute time is
-- the comparable part).
CREATE VIEW js.step_node_balance AS
    WITH per_node AS (
        SELECT p.cluster_id, p.job_id, p.step_id, p.node, count(*)::integer AS processes,
               avg(p.compute_ns)::double precision AS compute_ns, avg(p.wall_ns)::double precision AS wall_ns
        FROM js_data.processes p
        JOIN js_data.steps s ON s.cluster_id = p.cluster_id AND s.job_id = p.job_id AND s.step_id = p.step_id
        WHERE s.nodes_ingested >= 2
        GROUP BY p.cluster_id, p.job_id, p.step_id, p.node
    ), med AS (
        SELECT cluster_id, job_id, step_id, count(*)::integer AS nodes,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY compute_ns) AS median_compute_ns
        FROM per_node GROUP BY cluster_id, job_id, step_id HAVING count(*) >= 2
    )
    SELECT n.cluster_id, n.job_id, n.step_id, n.node, m.nodes AS step_nodes, n.processes,
           n.compute_ns::bigint AS compute_ns, m.median_compute_ns::bigint AS median_compute_ns,
           CASE WHEN m.median_compute_ns > 0 THEN n.compute_ns / m.median_compute_ns END AS ratio,
           n.wall_ns::bigint AS wall_ns
    FROM per_node n JOIN med m USING (cluster_id, job_id, step_id);
COMMENT ON VIEW js.step_node_balance IS 'per node of a step profiled on two nodes or more: mean compute_ns of its processes, the median of that over the step''s nodes, and ratio = node / median';
