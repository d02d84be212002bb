-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.step_nodes AS
    SELECT sn.cluster_id, sn.job_id, sn.step_id, sn.node, sn.start_time, sn.end_time, sn.state, sn.exit_code, sn.num_tasks,
           sn.profiles, sn.quarantined, sn.incomplete, sn.ingested_at, sn.ingested_by, sn.incomplete_reason,
           sn.unrecorded, sn.unrecorded_reason,
           (SELECT max(p.max_rss_kib) FROM js_data.processes p
            WHERE p.cluster_id = sn.cluster_id AND p.job_id = sn.job_id AND p.step_id = sn.step_id AND p.node = sn.node)::bigint AS max_rss_kib
    FROM js_data.step_nodes sn;
COMMENT ON VIEW js.step_nodes IS 'one row per step and node ingested (the ingest''s unit); incomplete_reason says what is missing; unrecorded counts the processes the profiler did not record (spool quota), unrecorded_reason why; max_rss_kib the largest peak resident set of its processes on the node (a lower bound of the node''s peak: processes that ran at once add up)';
