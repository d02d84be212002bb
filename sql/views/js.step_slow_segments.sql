-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.step_slow_segments AS
    SELECT s.cluster_id, s.job_id, s.step_id, j.uid, s.node, s.rank, s.end_ns, s.ns, s.signature
    FROM js_data.step_slow_segments s
    JOIN js_data.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id;
COMMENT ON VIEW js.step_slow_segments IS 'the slowest MPI segments of each step-node (at most 64 each): when interference struck';
