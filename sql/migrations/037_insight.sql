-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 037: insight (issue 18). For every step, after its ingest, an
-- answer to "was this run disturbed, by what, and what should I change": a disturbance verdict
-- with its evidence, the single-run interference estimate of bulk-synchronous MPI codes, the
-- periodicity and write pattern of its I/O, and advice codes. profile_ingest computes them
-- (profile_ingest/insight.c with common/insight.c) and writes them here; the method and its
-- thresholds are in docs/insight.md.
--
-- A step is queued when a record of it is ingested (a trigger on js_data.step_nodes); the
-- ingest computes the queued steps after its fold, once they have rested insight_settle_seconds
-- (the other nodes' records of a step arrive within it). A step's background changes when a
-- neighbour's records arrive later: having computed a step, the ingest queues again the
-- neighbours it overlaps whose insight predates its records (js_data.insight_requeue_neighbours),
-- each due after a back-off as long as its insight was old (at most a day), so that a step is
-- computed again a few times while late neighbours keep arriving, not once per neighbour.
-- The queue's trigger and functions and the views of the contract (js.step_insights,
-- js.step_advice, js.job_insights, js.workflow_insights) are in sql/functions/ and sql/views/.

CREATE TABLE js_data.step_insights (
    cluster_id          smallint NOT NULL,
    job_id              bigint NOT NULL,
    step_id             text NOT NULL,
    computed_at         timestamptz NOT NULL DEFAULT now(),
    light               text NOT NULL CHECK (light IN ('green', 'yellow', 'red', 'grey')),
    disturbed           boolean,
    cause               text CHECK (cause IN ('io', 'metadata', 'mpi', 'cpu')),
    lost_s              double precision,
    lost_pct            double precision,
    slices              integer NOT NULL DEFAULT 0,
    dented_slices       integer NOT NULL DEFAULT 0,
    disturbed_slices    integer NOT NULL DEFAULT 0,
    evidence            jsonb NOT NULL DEFAULT '[]',
    segments            bigint,
    segment_groups      integer,
    segments_flagged    bigint,
    segment_excess_s    double precision,
    interference_pct    double precision,
    interference_class  text CHECK (interference_class IN ('low', 'medium', 'high')),
    io_period_s         double precision,
    io_period_z         double precision,
    io_sigma_vol        double precision,
    io_sigma_time       double precision,
    io_time_share       double precision,
    io_phase_bandwidth  double precision,
    write_pattern       text CHECK (write_pattern IN ('open-write-close', 'write-seek', 'aggregate-write', 'mixed')),
    incomplete          text NOT NULL DEFAULT '',
    PRIMARY KEY (cluster_id, job_id, step_id)
);
COMMENT ON TABLE js_data.step_insights IS 'insight of a step (docs/insight.md): disturbance verdict, interference estimate, I/O periodicity and write pattern; written by profile_ingest after the step''s ingest, again when a neighbour''s records arrive later';
COMMENT ON COLUMN js_data.step_insights.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.step_insights.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.step_insights.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.step_insights.computed_at IS 'when profile_ingest computed it';
COMMENT ON COLUMN js_data.step_insights.light IS 'traffic light: green (time lost below 7.5 % of the run), yellow (7.5-15 %), red (above 15 %), grey (too little data to tell)';
COMMENT ON COLUMN js_data.step_insights.disturbed IS 'true when the step lost at least 2 % of its run in slices where other jobs peaked, or the segments estimate at least 5 %; NULL when neither method could judge (docs/insight.md)';
COMMENT ON COLUMN js_data.step_insights.cause IS 'the background that peaked where the step lost most time: io (bytes of other jobs, whole cluster), metadata (their opens and metadata calls), mpi (their MPI bytes, whole cluster), cpu (their CPU time on the step''s nodes: CPU or memory-bandwidth hogs); NULL when none';
COMMENT ON COLUMN js_data.step_insights.lost_s IS 'seconds the step lost in its disturbed slices: the drop of its progress rate below its undisturbed rate, or the share of its process time its I/O took beyond its usual cost, times the slice length, summed';
COMMENT ON COLUMN js_data.step_insights.lost_pct IS 'lost_s as a percentage of the step''s wall time';
COMMENT ON COLUMN js_data.step_insights.slices IS 'whole slices analysed (the first and last, partial, are not)';
COMMENT ON COLUMN js_data.step_insights.dented_slices IS 'slices where a progress rate of the step fell below its undisturbed band, or its I/O took much longer per byte than usual';
COMMENT ON COLUMN js_data.step_insights.disturbed_slices IS 'of those, the slices where a background peaked at the same time (within one slice)';
COMMENT ON COLUMN js_data.step_insights.evidence IS 'the disturbed stretches: [{first_slice, last_slice, start, own, own_drop_pct, background, scope, background_rate, background_base, lost_s}], at most 16, the largest loss first';
COMMENT ON COLUMN js_data.step_insights.segments IS 'MPI segments between global collectives recorded over the step''s processes; NULL for a step without';
COMMENT ON COLUMN js_data.step_insights.segment_groups IS 'groups of like segments (same communication and I/O per segment) with at least 5 segments, the ones judged';
COMMENT ON COLUMN js_data.step_insights.segments_flagged IS 'segments slower than their group''s median + 4 MAD';
COMMENT ON COLUMN js_data.step_insights.segment_excess_s IS 'their time beyond that threshold, summed over the processes (seconds)';
COMMENT ON COLUMN js_data.step_insights.interference_pct IS 'the single-run interference estimate: segment_excess_s as a percentage of the processes'' wall time';
COMMENT ON COLUMN js_data.step_insights.interference_class IS 'low (below 7.5 %), medium (7.5-15 %), high (above 15 %)';
COMMENT ON COLUMN js_data.step_insights.io_period_s IS 'dominant period of the step''s I/O bandwidth (DFT of the per-slice bytes, Z-score above 3); NULL when none';
COMMENT ON COLUMN js_data.step_insights.io_period_z IS 'Z-score of that period''s amplitude among the spectrum''s';
COMMENT ON COLUMN js_data.step_insights.io_sigma_vol IS 'confidence in the period: the spread of the bytes per period, standard deviation over mean (low: periodic in volume)';
COMMENT ON COLUMN js_data.step_insights.io_sigma_time IS 'confidence in the period: the spread of the share of each period spent in substantial I/O (low: periodic in time)';
COMMENT ON COLUMN js_data.step_insights.io_time_share IS 'share of the step''s slices with substantial I/O (more bytes than the average per slice)';
COMMENT ON COLUMN js_data.step_insights.io_phase_bandwidth IS 'bytes per second in those slices';
COMMENT ON COLUMN js_data.step_insights.write_pattern IS 'how the step writes (thesis of A. Shah, ch. 3): open-write-close, write-seek, aggregate-write, mixed; NULL when it writes little';
COMMENT ON COLUMN js_data.step_insights.incomplete IS 'empty, or what limited the analysis, in words';

CREATE TABLE js_data.step_advice (
    cluster_id  smallint NOT NULL,
    job_id      bigint NOT NULL,
    step_id     text NOT NULL,
    code        text NOT NULL,
    severity    text NOT NULL CHECK (severity IN ('info', 'warning', 'high')),
    message     text NOT NULL,
    figures     jsonb NOT NULL DEFAULT '{}',
    PRIMARY KEY (cluster_id, job_id, step_id, code)
);
COMMENT ON TABLE js_data.step_advice IS 'advice codes of a step (docs/insight.md "Advice"): what to change, with the figures that triggered it';
COMMENT ON COLUMN js_data.step_advice.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.step_advice.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.step_advice.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.step_advice.code IS 'SMALL_WRITES, SMALL_READS, MANY_OPENS, METADATA_STORM, UNBALANCED_RANKS, IDLE_ALLOCATION, MPI_DOMINATED, IO_DOMINATED, CPU_WAIT, DISTURBED (docs/insight.md)';
COMMENT ON COLUMN js_data.step_advice.severity IS 'info, warning or high';
COMMENT ON COLUMN js_data.step_advice.message IS 'one plain sentence with the figures';
COMMENT ON COLUMN js_data.step_advice.figures IS 'the figures that triggered it, by name';

CREATE TABLE js_data.insight_pending (
    cluster_id  smallint NOT NULL,
    job_id      bigint NOT NULL,
    step_id     text NOT NULL,
    queued_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster_id, job_id, step_id)
);
CREATE INDEX insight_pending_queued ON js_data.insight_pending (queued_at);
COMMENT ON TABLE js_data.insight_pending IS 'steps whose insight is to be computed (again): queued when a record of the step is ingested, or when a neighbour''s records arrive after its insight was computed';
COMMENT ON COLUMN js_data.insight_pending.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.insight_pending.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.insight_pending.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.insight_pending.queued_at IS 'when it was queued last, or (queued again for a neighbour) when it is due; computed once it has rested insight_settle_seconds after that';

-- The steps whose slices overlap a span, found by a range index (a B-tree on first_slice would
-- walk every step that started before the span's end).
CREATE INDEX steps_span ON js_data.steps USING gist (int8range(first_slice, last_slice, '[]'))
    WHERE first_slice <= last_slice;
