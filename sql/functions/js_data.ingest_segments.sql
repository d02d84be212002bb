-- SPDX-License-Identifier: GPL-2.0-or-later
-- A step record's segments, in its transaction (profile_ingest): p_seg is
-- {"processes", "boundaries", "ungrouped", "ungrouped_ns", "groups": [{signature, boundary,
-- processes, count, sum_ns, min_ns, max_ns, bins, counts}], "slowest": [{rank, end_ns, ns, signature}]}.
-- PL/pgSQL for its cached plans (as SQL, its three statements were planned at every call).
CREATE FUNCTION js_data.ingest_segments(p_cluster smallint, p_job bigint, p_step text, p_node text, p_seg jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE js_data.step_nodes SET segment_processes = (p_seg->>'processes')::integer,
           segment_boundaries = (p_seg->>'boundaries')::bigint, segment_ungrouped = (p_seg->>'ungrouped')::bigint,
           segment_ungrouped_ns = (p_seg->>'ungrouped_ns')::bigint
    WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
    INSERT INTO js_data.step_segment_groups (cluster_id, job_id, step_id, node, signature, boundary, processes, count, sum_ns,
                                             min_ns, max_ns, bins, counts)
        SELECT p_cluster, p_job, p_step, p_node, g.signature, g.boundary, g.processes, g.count, g.sum_ns, g.min_ns, g.max_ns,
               ARRAY(SELECT jsonb_array_elements_text(g.bins)::integer),
               ARRAY(SELECT jsonb_array_elements_text(g.counts)::bigint)
        FROM jsonb_to_recordset(p_seg->'groups') AS g(signature text, boundary text, processes integer, count bigint,
                                                      sum_ns bigint, min_ns bigint, max_ns bigint, bins jsonb, counts jsonb);
    INSERT INTO js_data.step_slow_segments (cluster_id, job_id, step_id, node, rank, end_ns, ns, signature)
        SELECT p_cluster, p_job, p_step, p_node, s.rank, s.end_ns, s.ns, nullif(s.signature, '')
        FROM jsonb_to_recordset(p_seg->'slowest') AS s(rank integer, end_ns bigint, ns bigint, signature text);
END $$;
COMMENT ON FUNCTION js_data.ingest_segments(smallint, bigint, text, text, jsonb) IS 'the MPI segments of a step record (groups summed over the node''s processes, the node''s slowest, the totals), in its transaction (profile_ingest)';
