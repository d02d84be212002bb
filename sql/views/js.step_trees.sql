-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.step_trees AS
    SELECT t.cluster_id, t.job_id, t.step_id, j.uid, t.tree, sum(t.processes)::integer AS processes,
           js.saturated(sum(t.opens)) AS opens, js.saturated(sum(t.read_bytes)) AS read_bytes, js.saturated(sum(t.write_bytes)) AS write_bytes,
           string_agg(t.node, ',' ORDER BY t.node) AS nodes
    FROM js_data.step_trees t
    JOIN js_data.jobs j ON j.cluster_id = t.cluster_id AND j.job_id = t.job_id
    GROUP BY t.cluster_id, t.job_id, t.step_id, j.uid, t.tree;
COMMENT ON VIEW js.step_trees IS 'software trees per step, summed over its nodes: the system, package and library directories whose files the profiler counted together instead of listing them';
