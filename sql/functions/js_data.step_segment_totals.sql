-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.step_segment_totals(p_cluster smallint, p_job bigint, p_step text,
        OUT boundaries bigint, OUT ungrouped bigint, OUT ungrouped_ns bigint, OUT processes integer)
LANGUAGE sql STABLE AS $$
    SELECT js.saturated(sum(n.segment_boundaries)), js.saturated(sum(n.segment_ungrouped)), js.saturated(sum(n.segment_ungrouped_ns)),
           sum(n.segment_processes)::integer
    FROM js_data.step_nodes n
    WHERE n.cluster_id = p_cluster AND n.job_id = p_job AND n.step_id = p_step
$$;
COMMENT ON FUNCTION js_data.step_segment_totals(smallint, bigint, text) IS 'a step''s MPI segment totals over its nodes: segments ended, those in no group and their time, processes that recorded any (NULLs: none recorded)';
