-- SPDX-License-Identifier: GPL-2.0-or-later
-- The public side (js): the same per step, with the job's uid for the viewer's access check.
CREATE VIEW js.step_segment_groups AS
    SELECT s.cluster_id, s.job_id, s.step_id, j.uid, g.*
    FROM js_data.steps s
    JOIN js_data.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id
    CROSS JOIN LATERAL js_data.step_segment_groups(s.cluster_id, s.job_id, s.step_id) g;
COMMENT ON VIEW js.step_segment_groups IS 'MPI segment groups per step, summed over its nodes (js_data.step_segment_groups): filter by cluster, job and step';
