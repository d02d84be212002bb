-- jobscreen schema, migration 036: the durations of MPI segments (issue 18, part 2).
--
-- A segment of an MPI process ends at each blocking all-to-all-style collective on a
-- communicator as large as MPI_COMM_WORLD (profile format 6, "mpi_segments"). Segments of one
-- signature (the same communication and I/O) should take the same time; the interference
-- estimate (Shah, Mueller, Wolf) reads their histograms from here. Per step-node the ingest
-- stores the groups summed over the node's processes, the node's slowest segments and the
-- totals, in the step record's transaction; a step's are the sums over its nodes
-- (js_data.step_segment_groups and friends). Retention (033) removes them with their job: both
-- tables carry cluster_id and job_id.

CREATE TABLE js_data.step_segment_groups (
    cluster_id  smallint NOT NULL,
    job_id      bigint NOT NULL,
    step_id     text NOT NULL,
    node        text NOT NULL,
    signature   text NOT NULL,
    boundary    text NOT NULL,
    processes   integer NOT NULL,
    count       bigint NOT NULL,
    sum_ns      bigint NOT NULL,
    min_ns      bigint NOT NULL,
    max_ns      bigint NOT NULL,
    bins        integer[] NOT NULL,
    counts      bigint[] NOT NULL,
    PRIMARY KEY (cluster_id, job_id, step_id, node, signature),
    CHECK (cardinality(bins) = cardinality(counts))
);
COMMENT ON TABLE js_data.step_segment_groups IS 'MPI segments of a step on a node by signature, summed over the node''s processes (profile format 6 mpi_segments.groups)';
COMMENT ON COLUMN js_data.step_segment_groups.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.step_segment_groups.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.step_segment_groups.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.step_segment_groups.node IS 'Slurm node name';
COMMENT ON COLUMN js_data.step_segment_groups.signature IS 'the segments'' signature: 16 hex digits of FNV-1a over their nominal features, the boundary''s kind and bytes';
COMMENT ON COLUMN js_data.step_segment_groups.boundary IS 'kind of the collective that ends them (allreduce, barrier, allgather, alltoall, reduce_scatter)';
COMMENT ON COLUMN js_data.step_segment_groups.processes IS 'processes on the node that had segments of this signature';
COMMENT ON COLUMN js_data.step_segment_groups.count IS 'segments, summed over those processes';
COMMENT ON COLUMN js_data.step_segment_groups.sum_ns IS 'their summed duration (ns)';
COMMENT ON COLUMN js_data.step_segment_groups.min_ns IS 'the shortest (ns)';
COMMENT ON COLUMN js_data.step_segment_groups.max_ns IS 'the longest (ns)';
COMMENT ON COLUMN js_data.step_segment_groups.bins IS 'non-empty histogram bins, ascending: bin b covers [1000 x 10^(9b/1024), 1000 x 10^(9(b+1)/1024)) ns (common/profile_format.c js_seg_bin_lo_ns)';
COMMENT ON COLUMN js_data.step_segment_groups.counts IS 'segments in each bin of bins (same length); they add up to count';

CREATE TABLE js_data.step_slow_segments (
    cluster_id  smallint NOT NULL,
    job_id      bigint NOT NULL,
    step_id     text NOT NULL,
    node        text NOT NULL,
    rank        integer NOT NULL,
    end_ns      bigint NOT NULL,
    ns          bigint NOT NULL,
    signature   text
);
CREATE INDEX step_slow_segments_step ON js_data.step_slow_segments (cluster_id, job_id, step_id, node);
COMMENT ON TABLE js_data.step_slow_segments IS 'the slowest MPI segments of a step on a node (at most 64 per step-node, from its processes'' 16 slowest each): when the interference struck';
COMMENT ON COLUMN js_data.step_slow_segments.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.step_slow_segments.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.step_slow_segments.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.step_slow_segments.node IS 'Slurm node name';
COMMENT ON COLUMN js_data.step_slow_segments.rank IS 'MPI rank (in MPI_COMM_WORLD) of the process';
COMMENT ON COLUMN js_data.step_slow_segments.end_ns IS 'wall clock (ns since the epoch) when the segment ended';
COMMENT ON COLUMN js_data.step_slow_segments.ns IS 'its duration (ns)';
COMMENT ON COLUMN js_data.step_slow_segments.signature IS 'its group''s signature; NULL when the segment was not grouped';

ALTER TABLE js_data.step_nodes
    ADD COLUMN segment_processes integer,
    ADD COLUMN segment_boundaries bigint,
    ADD COLUMN segment_ungrouped bigint,
    ADD COLUMN segment_ungrouped_ns bigint;
COMMENT ON COLUMN js_data.step_nodes.segment_processes IS 'processes that recorded MPI segments (profile format 6); NULL: none did';
COMMENT ON COLUMN js_data.step_nodes.segment_boundaries IS 'MPI segments ended on the node, grouped or not, summed over its processes; NULL: none recorded';
COMMENT ON COLUMN js_data.step_nodes.segment_ungrouped IS 'of those, the segments in no group (a process''s 64 groups were taken, or the node''s 1024 signatures); NULL: none recorded';
COMMENT ON COLUMN js_data.step_nodes.segment_ungrouped_ns IS 'their summed duration (ns); NULL: none recorded';

-- A step record's segments, in its transaction (profile_ingest): p_seg is
-- {"processes", "boundaries", "ungrouped", "ungrouped_ns", "groups": [{signature, boundary,
-- processes, count, sum_ns, min_ns, max_ns, bins, counts}], "slowest": [{rank, end_ns, ns, signature}]}.
CREATE FUNCTION js_data.ingest_segments(p_cluster smallint, p_job bigint, p_step text, p_node text, p_seg jsonb) RETURNS void
LANGUAGE sql AS $$
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
$$;
COMMENT ON FUNCTION js_data.ingest_segments(smallint, bigint, text, text, jsonb) IS 'the MPI segments of a step record (groups summed over the node''s processes, the node''s slowest, the totals), in its transaction (profile_ingest)';

-- A step's segment groups summed over its nodes: the histograms added bin by bin.
CREATE FUNCTION js_data.step_segment_groups(p_cluster smallint, p_job bigint, p_step text)
RETURNS TABLE (signature text, boundary text, processes integer, count bigint, sum_ns bigint, min_ns bigint, max_ns bigint,
               bins integer[], counts bigint[])
LANGUAGE sql STABLE AS $$
    SELECT g.signature, min(g.boundary), sum(g.processes)::integer, sum(g.count)::bigint, sum(g.sum_ns)::bigint,
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

CREATE FUNCTION js_data.step_slow_segments(p_cluster smallint, p_job bigint, p_step text)
RETURNS TABLE (node text, rank integer, end_ns bigint, ns bigint, signature text)
LANGUAGE sql STABLE AS $$
    SELECT s.node, s.rank, s.end_ns, s.ns, s.signature
    FROM js_data.step_slow_segments s
    WHERE s.cluster_id = p_cluster AND s.job_id = p_job AND s.step_id = p_step
    ORDER BY s.ns DESC, s.end_ns
$$;
COMMENT ON FUNCTION js_data.step_slow_segments(smallint, bigint, text) IS 'a step''s slowest MPI segments over its nodes (each node''s 64 slowest), slowest first';

CREATE FUNCTION js_data.step_segment_totals(p_cluster smallint, p_job bigint, p_step text,
        OUT boundaries bigint, OUT ungrouped bigint, OUT ungrouped_ns bigint, OUT processes integer)
LANGUAGE sql STABLE AS $$
    SELECT sum(n.segment_boundaries)::bigint, sum(n.segment_ungrouped)::bigint, sum(n.segment_ungrouped_ns)::bigint,
           sum(n.segment_processes)::integer
    FROM js_data.step_nodes n
    WHERE n.cluster_id = p_cluster AND n.job_id = p_job AND n.step_id = p_step
$$;
COMMENT ON FUNCTION js_data.step_segment_totals(smallint, bigint, text) IS 'a step''s MPI segment totals over its nodes: segments ended, those in no group and their time, processes that recorded any (NULLs: none recorded)';

-- The public side (js): the same per step, with the job's uid for the viewer's access check.
CREATE VIEW js.step_segment_groups AS
    SELECT s.cluster_id, s.job_id, s.step_id, j.uid, g.*
    FROM js_data.steps s
    JOIN js_data.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id
    CROSS JOIN LATERAL js_data.step_segment_groups(s.cluster_id, s.job_id, s.step_id) g;
COMMENT ON VIEW js.step_segment_groups IS 'MPI segment groups per step, summed over its nodes (js_data.step_segment_groups): filter by cluster, job and step';

CREATE VIEW js.step_slow_segments AS
    SELECT s.cluster_id, s.job_id, s.step_id, j.uid, s.node, s.rank, s.end_ns, s.ns, s.signature
    FROM js_data.step_slow_segments s
    JOIN js_data.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id;
COMMENT ON VIEW js.step_slow_segments IS 'the slowest MPI segments of each step-node (at most 64 each): when interference struck';

CREATE VIEW js.step_segment_totals AS
    SELECT n.cluster_id, n.job_id, n.step_id, j.uid, sum(n.segment_boundaries)::bigint AS boundaries,
           sum(n.segment_ungrouped)::bigint AS ungrouped, sum(n.segment_ungrouped_ns)::bigint AS ungrouped_ns,
           sum(n.segment_processes)::integer AS processes
    FROM js_data.step_nodes n
    JOIN js_data.jobs j ON j.cluster_id = n.cluster_id AND j.job_id = n.job_id
    WHERE n.segment_processes IS NOT NULL
    GROUP BY n.cluster_id, n.job_id, n.step_id, j.uid;
COMMENT ON VIEW js.step_segment_totals IS 'MPI segment totals per step over its nodes (steps whose processes recorded any)';
