-- SPDX-License-Identifier: GPL-2.0-or-later
-- A step's segment groups summed over its nodes: the histograms added bin by bin.
CREATE FUNCTION js_data.step_segment_groups(p_cluster smallint, p_job bigint, p_step text)
RETURNS TABLE (signature text, boundary text, processes integer, count bigint, sum_ns bigint, min_ns bigint, max_ns bigint,
               bins integer[], counts bigint[])
LANGUAGE sql STABLE AS $$
    SELECT g.signature, min(g.boundary), sum(g.processes)::integer, js.saturated(sum(g.count)), js.saturated(sum(g.sum_ns)),
           min(g.min_ns), max(g.max_ns),
           (SELECT array_agg(b.bin ORDER BY b.bin) FROM (
                SELECT x.bin, sum(x.n) AS n FROM js_data.step_segment_groups h, unnest(h.bins, h.counts) AS x(bin, n)
                WHERE h.cluster_id = p_cluster AND h.job_id = p_job AND h.step_id = p_step AND h.signature = g.signature
                GROUP BY x.bin) b),
           (SELECT array_agg(b.n::bigint ORDER BY b.bin) FROM (
                SELECT x.bin, sum(x.n) AS n FROM js_data.step_segment_groups h, unnest(h.bins, h.counts) AS x(bin, n)
                WHERE h.cluster_id = p_cluster AND h.job_id = p_job AND h.step_id = p_step AND h.signature = g.signature
                GROUP BY x.bin) b)
    FROM js_data.step_segment_groups g
    WHERE g.cluster_id = p_cluster AND g.job_id = p_job AND g.step_id = p_step
    GROUP BY g.signature
    ORDER BY sum(g.count) DESC, g.signature
$$;
COMMENT ON FUNCTION js_data.step_segment_groups(smallint, bigint, text) IS 'a step''s MPI segment groups by signature, summed over its nodes (histogram bins added bin by bin; bins ascending), most segments first';
