-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.step_insights AS
    SELECT c.name AS cluster, i.cluster_id, i.job_id, i.step_id, u.name AS user_name, i.computed_at,
           i.light, i.disturbed, i.cause, i.lost_s, i.lost_pct, i.slices, i.dented_slices, i.disturbed_slices,
           i.evidence, i.segments, i.segment_groups, i.segments_flagged, i.segment_excess_s,
           i.interference_pct, i.interference_class, i.io_period_s, i.io_period_z, i.io_sigma_vol,
           i.io_sigma_time, i.io_time_share, i.io_phase_bandwidth, i.write_pattern, i.incomplete,
           i.judged_by_sruns
    FROM js_data.step_insights i
    JOIN js_data.clusters c ON c.cluster_id = i.cluster_id
    JOIN js_data.jobs j ON j.cluster_id = i.cluster_id AND j.job_id = i.job_id
    LEFT JOIN js_data.users u ON u.cluster_id = j.cluster_id AND u.uid = j.uid;
COMMENT ON VIEW js.step_insights IS 'insight of each step (docs/insight.md): traffic light, disturbed, cause, time lost and the evidence; the MPI interference estimate; I/O periodicity and write pattern; judged_by_sruns: a batch step that waits for its sruns, with no verdict of its own';
