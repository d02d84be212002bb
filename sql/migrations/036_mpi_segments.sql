-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 036: the durations of MPI segments (issue 18, part 2).
--
-- A segment of an MPI process ends at each blocking all-to-all-style collective on a
-- communicator as large as MPI_COMM_WORLD (profile format 6, "mpi_segments"). Segments of one
-- signature (the same communication and I/O) should take the same time; the interference
-- estimate (Shah, Mueller, Wolf) reads their histograms from here. Per step-node the ingest
-- stores the groups summed over the node's processes, the node's slowest segments and the
-- totals, in the step record's transaction; a step's are the sums over its nodes
-- (the functions js_data.step_segment_groups and friends, sql/functions/). Retention (033) removes them with their job: both
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
