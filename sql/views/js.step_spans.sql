-- SPDX-License-Identifier: GPL-2.0-or-later
-- When each step ran, as js.steps has it (a step not yet recorded: its first start and newest
-- snapshot over its live nodes), read by key without the rest of js.steps: the file tab's 900
-- steps each probed here, not through js.steps' branches that join the job again and sum the
-- step's energy (a sixth of the file endpoint's database time at 10^6 jobs). Unlike js.steps it
-- does not join the job: whoever reads it reaches the step from its job.
CREATE VIEW js.step_spans AS
    SELECT s.cluster_id, s.job_id, s.step_id, s.start_time, s.end_time
    FROM js_data.steps s
    UNION ALL
    SELECT l.cluster_id, l.job_id, l.step_id, min(l.start_time) AS start_time, max(l.snapshot_time) AS end_time
    FROM js_data.live_step_nodes l
    WHERE NOT EXISTS (SELECT 1 FROM js_data.steps s
                      WHERE s.cluster_id = l.cluster_id AND s.job_id = l.job_id AND s.step_id = l.step_id)
    GROUP BY l.cluster_id, l.job_id, l.step_id;
COMMENT ON VIEW js.step_spans IS 'start_time and end_time of each step as js.steps gives them (a step still running with no step record: its first start and newest snapshot), its job not joined';
