-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.step_segment_totals AS
    SELECT n.cluster_id, n.job_id, n.step_id, j.uid, js.saturated(sum(n.segment_boundaries)) AS boundaries,
           js.saturated(sum(n.segment_ungrouped)) AS ungrouped, js.saturated(sum(n.segment_ungrouped_ns)) AS ungrouped_ns,
           sum(n.segment_processes)::integer AS processes
    FROM js_data.step_nodes n
    JOIN js_data.jobs j ON j.cluster_id = n.cluster_id AND j.job_id = n.job_id
    WHERE n.segment_processes IS NOT NULL
    GROUP BY n.cluster_id, n.job_id, n.step_id, j.uid;
COMMENT ON VIEW js.step_segment_totals IS 'MPI segment totals per step over its nodes (steps whose processes recorded any)';
