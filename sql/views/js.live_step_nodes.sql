-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.live_step_nodes AS
    SELECT l.cluster_id, l.job_id, l.step_id, l.node, l.start_time, l.snapshot_time, l.profiles, l.running,
           l.ingested_at, j.uid
    FROM js_data.live_step_nodes l
    JOIN js_data.jobs j ON j.cluster_id = l.cluster_id AND j.job_id = l.job_id;
COMMENT ON VIEW js.live_step_nodes IS 'the running step-nodes: a step on a node of which only a live snapshot is stored (provisional data), with the time of that snapshot';
