-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.time_edges AS
    SELECT d.cluster_id, d.from_job, d.to_job, d.from_time, d.to_time
    FROM js_data.dependencies d WHERE d.kind = 'time';
COMMENT ON VIEW js.time_edges IS 'time edges (stored by js_data.link_by_time): the latest job of the same user and workflow tag (or both untagged, submitted by one command) that ended at most js.time_edge_window() before this one started and before it was submitted (in the same second counts: Slurm''s submit times are whole seconds), for jobs with no scheduler dependency and no incoming file edge';
