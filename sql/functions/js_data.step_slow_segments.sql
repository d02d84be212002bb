-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.step_slow_segments(p_cluster smallint, p_job bigint, p_step text)
RETURNS TABLE (node text, rank integer, end_ns bigint, ns bigint, signature text)
LANGUAGE sql STABLE AS $$
    SELECT s.node, s.rank, s.end_ns, s.ns, s.signature
    FROM js_data.step_slow_segments s
    WHERE s.cluster_id = p_cluster AND s.job_id = p_job AND s.step_id = p_step
    ORDER BY s.ns DESC, s.end_ns
$$;
COMMENT ON FUNCTION js_data.step_slow_segments(smallint, bigint, text) IS 'a step''s slowest MPI segments over its nodes (each node''s 64 slowest), slowest first';
