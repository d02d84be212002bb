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

CREATE FUNCTION js_data.insight_queue_step() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO js_data.insight_pending (cluster_id, job_id, step_id)
    VALUES (NEW.cluster_id, NEW.job_id, NEW.step_id)
    ON CONFLICT (cluster_id, job_id, step_id) DO UPDATE SET queued_at = now();
    RETURN NULL;
END $$;
COMMENT ON FUNCTION js_data.insight_queue_step() IS 'trigger: queue the step of an ingested step record for its insight';
CREATE TRIGGER step_nodes_insight AFTER INSERT OR UPDATE ON js_data.step_nodes
    FOR EACH ROW EXECUTE FUNCTION js_data.insight_queue_step();

-- the steps due: rested p_settle (NULL: every queued step, due or not), at most p_limit, taken
-- from the queue (the caller computes them in its transaction; another daemon skips the rows it
-- holds). The choice is a MATERIALIZED CTE, made once: as a subquery of the DELETE the planner
-- may rescan it in a nested-loop semi-join, and each rescan skips the rows the DELETE has
-- already taken (its own locks on deleted rows) and returns the next, so that LIMIT 1 took the
-- whole queue.
CREATE FUNCTION js_data.insight_take(p_settle interval, p_limit integer)
RETURNS TABLE (cluster_id smallint, job_id bigint, step_id text) LANGUAGE sql AS $$
    WITH due AS MATERIALIZED (
        SELECT p.cluster_id, p.job_id, p.step_id FROM js_data.insight_pending p
        WHERE p_settle IS NULL OR p.queued_at <= now() - p_settle
        ORDER BY p.queued_at LIMIT p_limit FOR UPDATE SKIP LOCKED)
    DELETE FROM js_data.insight_pending q USING due
    WHERE q.cluster_id = due.cluster_id AND q.job_id = due.job_id AND q.step_id = due.step_id
    RETURNING q.cluster_id, q.job_id, q.step_id $$;
COMMENT ON FUNCTION js_data.insight_take(interval, integer) IS 'take up to p_limit steps that rested p_settle in js_data.insight_pending (NULL: every one), oldest first';

-- The steps whose slices overlap a span, found by a range index (a B-tree on first_slice would
-- walk every step that started before the span's end).
CREATE INDEX steps_span ON js_data.steps USING gist (int8range(first_slice, last_slice, '[]'))
    WHERE first_slice <= last_slice;

-- Having computed step (p_cluster, p_job, p_step): its neighbours (steps of the cluster whose
-- slices overlap its own) with an insight older than the step's last record were computed
-- without it in their background. Each is queued again, due after a back-off: as long after
-- its last insight as that insight came after its end, at most a day. A neighbour already
-- queued keeps its turn.
CREATE FUNCTION js_data.insight_requeue_neighbours(p_cluster smallint, p_job bigint, p_step text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    s record;
    n integer;
BEGIN
    SELECT st.first_slice, st.last_slice,
           (SELECT max(sn.ingested_at) FROM js_data.step_nodes sn
            WHERE sn.cluster_id = st.cluster_id AND sn.job_id = st.job_id AND sn.step_id = st.step_id) AS arrived
    INTO s
    FROM js_data.steps st
    WHERE st.cluster_id = p_cluster AND st.job_id = p_job AND st.step_id = p_step;
    IF NOT s.first_slice <= s.last_slice THEN
        RETURN 0;
    END IF;
    INSERT INTO js_data.insight_pending (cluster_id, job_id, step_id, queued_at)
    SELECT o.cluster_id, o.job_id, o.step_id,
           greatest(now(), i.computed_at + least(greatest(i.computed_at - o.end_time, '0'::interval), '1 day'::interval))
    FROM js_data.steps o
    -- one lookup by key per neighbour (OFFSET 0 keeps it one): as a join, a young table's
    -- statistics made the plan read every insight of the cluster for each neighbour
    CROSS JOIN LATERAL (SELECT i.computed_at FROM js_data.step_insights i
                        WHERE i.cluster_id = o.cluster_id AND i.job_id = o.job_id AND i.step_id = o.step_id OFFSET 0) i
    WHERE int8range(o.first_slice, o.last_slice, '[]') && int8range(s.first_slice, s.last_slice, '[]')
      AND o.first_slice <= o.last_slice
      AND o.cluster_id = p_cluster
      AND NOT (o.job_id = p_job AND o.step_id = p_step)
      AND i.computed_at < s.arrived
    ON CONFLICT ON CONSTRAINT insight_pending_pkey DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END $$;
COMMENT ON FUNCTION js_data.insight_requeue_neighbours(smallint, bigint, text) IS 'queue again the steps overlapping the given one whose insight was computed before its records arrived (their background lacked it), each due after a back-off (as long after its last insight as that came after its end, at most a day); returns how many';

-- ---- the views of the contract --------------------------------------------------------------

CREATE VIEW js.step_insights AS
    SELECT c.name AS cluster, i.cluster_id, i.job_id, i.step_id, u.name AS user_name, i.computed_at,
           i.light, i.disturbed, i.cause, i.lost_s, i.lost_pct, i.slices, i.dented_slices, i.disturbed_slices,
           i.evidence, i.segments, i.segment_groups, i.segments_flagged, i.segment_excess_s,
           i.interference_pct, i.interference_class, i.io_period_s, i.io_period_z, i.io_sigma_vol,
           i.io_sigma_time, i.io_time_share, i.io_phase_bandwidth, i.write_pattern, i.incomplete
    FROM js_data.step_insights i
    JOIN js_data.clusters c ON c.cluster_id = i.cluster_id
    JOIN js_data.jobs j ON j.cluster_id = i.cluster_id AND j.job_id = i.job_id
    LEFT JOIN js_data.users u ON u.cluster_id = j.cluster_id AND u.uid = j.uid;
COMMENT ON VIEW js.step_insights IS 'insight of each step (docs/insight.md): traffic light, disturbed, cause, time lost and the evidence; the MPI interference estimate; I/O periodicity and write pattern';

CREATE VIEW js.step_advice AS
    SELECT c.name AS cluster, a.cluster_id, a.job_id, a.step_id, u.name AS user_name,
           a.code, a.severity, a.message, a.figures
    FROM js_data.step_advice a
    JOIN js_data.clusters c ON c.cluster_id = a.cluster_id
    JOIN js_data.jobs j ON j.cluster_id = a.cluster_id AND j.job_id = a.job_id
    LEFT JOIN js_data.users u ON u.cluster_id = j.cluster_id AND u.uid = j.uid;
COMMENT ON VIEW js.step_advice IS 'advice codes of each step (docs/insight.md "Advice"): code, severity, a plain sentence and the figures that triggered it';

-- the worst light first: red, yellow, green, grey. In js, so that the web's queries (which roll
-- the lights up per job and workflow) rank them the same way; inlined by the planner.
CREATE FUNCTION js.light_rank(p_light text) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT CASE p_light WHEN 'red' THEN 3 WHEN 'yellow' THEN 2 WHEN 'green' THEN 1 ELSE 0 END $$;
COMMENT ON FUNCTION js.light_rank(text) IS 'order of the traffic lights, worst highest: red 3, yellow 2, green 1, grey 0';

CREATE VIEW js.job_insights AS
    SELECT i.cluster, i.cluster_id, i.job_id, i.user_name, count(*)::integer AS steps,
           (array_agg(i.light ORDER BY js.light_rank(i.light) DESC))[1] AS light,
           count(*) FILTER (WHERE i.disturbed)::integer AS disturbed_steps,
           sum(i.lost_s) AS lost_s,
           (array_agg(i.cause ORDER BY i.lost_s DESC NULLS LAST) FILTER (WHERE i.cause IS NOT NULL))[1] AS cause,
           max(i.interference_pct) AS interference_pct
    FROM js.step_insights i
    GROUP BY i.cluster, i.cluster_id, i.job_id, i.user_name;
COMMENT ON VIEW js.job_insights IS 'insight rolled up per job: the worst light of its steps, how many were disturbed, the time they lost, the cause of the largest loss, the largest interference estimate';

CREATE VIEW js.workflow_insights AS
    SELECT j.cluster, j.cluster_id, j.workflow_id, j.user_name, count(*)::integer AS jobs,
           (array_agg(i.light ORDER BY js.light_rank(i.light) DESC))[1] AS light,
           sum(i.disturbed_steps)::integer AS disturbed_steps, sum(i.lost_s) AS lost_s,
           (array_agg(i.cause ORDER BY i.lost_s DESC NULLS LAST) FILTER (WHERE i.cause IS NOT NULL))[1] AS cause
    FROM js.job_insights i
    JOIN js.jobs j ON j.cluster_id = i.cluster_id AND j.job_id = i.job_id
    WHERE j.workflow_id IS NOT NULL
    GROUP BY j.cluster, j.cluster_id, j.workflow_id, j.user_name;
COMMENT ON VIEW js.workflow_insights IS 'insight rolled up per workflow: the worst light of its jobs, their disturbed steps, the time lost, the cause of the largest loss';

-- the web role reads through jobscreen_report (as 034)
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'jobscreen_report') THEN
        GRANT EXECUTE ON FUNCTION js.light_rank(text) TO jobscreen_report;
    END IF;
END $$;
