-- jobscreen schema, migration 021: daily usage rollups per user, kept when retention drops the
-- per-slice detail they were computed from (022).  An admin or cron refreshes recent days with
-- js_data.rollup_usage(); js_data.apply_retention() rolls up the days of every partition before
-- it drops it.  Days are UTC days.  docs/reports.md, "Usage rollups".

CREATE TABLE js_data.usage_daily (
    cluster_id      smallint NOT NULL,
    day             date NOT NULL,
    uid             integer NOT NULL,
    jobs_started    integer NOT NULL DEFAULT 0,
    steps_started   integer NOT NULL DEFAULT 0,
    steps_failed    integer NOT NULL DEFAULT 0,
    steps_opted_out integer NOT NULL DEFAULT 0,
    cpu_seconds     double precision NOT NULL DEFAULT 0,
    node_seconds    double precision NOT NULL DEFAULT 0,
    read_bytes      bigint NOT NULL DEFAULT 0,
    write_bytes     bigint NOT NULL DEFAULT 0,
    meta_ops        bigint NOT NULL DEFAULT 0,
    mpi_bytes       bigint NOT NULL DEFAULT 0,
    io_ns           bigint NOT NULL DEFAULT 0,
    mpi_ns          bigint NOT NULL DEFAULT 0,
    process_cpu_ns  bigint NOT NULL DEFAULT 0,
    node_slices     bigint NOT NULL DEFAULT 0,
    computed_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster_id, day, uid)
);
COMMENT ON TABLE js_data.usage_daily IS 'usage per cluster, UTC day and user, computed by js_data.rollup_usage(); kept when the per-slice detail is dropped';
COMMENT ON COLUMN js_data.usage_daily.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.usage_daily.day IS 'UTC day';
COMMENT ON COLUMN js_data.usage_daily.uid IS 'job user';
COMMENT ON COLUMN js_data.usage_daily.jobs_started IS 'jobs that started that day (submitted, for jobs that never started)';
COMMENT ON COLUMN js_data.usage_daily.steps_started IS 'steps that started that day';
COMMENT ON COLUMN js_data.usage_daily.steps_failed IS 'of those, steps whose state is not COMPLETED';
COMMENT ON COLUMN js_data.usage_daily.steps_opted_out IS 'of those, steps that were not profiled';
COMMENT ON COLUMN js_data.usage_daily.cpu_seconds IS 'CPUs of each step x the part of its run time that fell on that day (s)';
COMMENT ON COLUMN js_data.usage_daily.node_seconds IS 'nodes of each step x the part of its run time that fell on that day (s)';
COMMENT ON COLUMN js_data.usage_daily.read_bytes IS 'bytes read in that day''s slices, all interfaces including the lower layer (bytes)';
COMMENT ON COLUMN js_data.usage_daily.write_bytes IS 'bytes written in that day''s slices, all interfaces including the lower layer (bytes)';
COMMENT ON COLUMN js_data.usage_daily.meta_ops IS 'file system metadata calls in that day''s slices: POSIX open and metadata, fopen, MPI-IO open/close/sync/seek, as meta_ops of js.step_report (calls)';
COMMENT ON COLUMN js_data.usage_daily.mpi_bytes IS 'MPI point-to-point send and collective bytes in that day''s slices (bytes)';
COMMENT ON COLUMN js_data.usage_daily.io_ns IS 'time in I/O calls in that day''s slices (ns)';
COMMENT ON COLUMN js_data.usage_daily.mpi_ns IS 'time in MPI calls in that day''s slices (ns)';
COMMENT ON COLUMN js_data.usage_daily.process_cpu_ns IS 'CPU time of the profiled processes in that day''s slices (ns)';
COMMENT ON COLUMN js_data.usage_daily.node_slices IS 'per-slice vectors (step x node x slice with activity) of that day';
COMMENT ON COLUMN js_data.usage_daily.computed_at IS 'when js_data.rollup_usage() computed the row';

-- The first slice still held by the per-slice tables: retention dropped everything below it
-- (NULL when nothing was ever dropped).  Set by js_data.apply_retention() (022).
CREATE TABLE js_data.slice_horizon (
    only_row   boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    slice      bigint NOT NULL,
    updated    timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE js_data.slice_horizon IS 'one row: slices below this were dropped by retention; rollups of days that start below it are final';
COMMENT ON COLUMN js_data.slice_horizon.only_row IS 'always true: the table has at most one row';
COMMENT ON COLUMN js_data.slice_horizon.slice IS 'first slice that may still be present in the per-slice tables';
COMMENT ON COLUMN js_data.slice_horizon.updated IS 'when retention last moved it';

-- (Re)compute the rollup of the UTC days p_from .. p_to (inclusive), for every cluster.  A day
-- whose first slice lies below the horizon keeps its rows: its detail is gone.  Returns the
-- number of rows written.  Idempotent; run it for recent days from cron (docs/reports.md).
CREATE FUNCTION js_data.rollup_usage(p_from date, p_to date) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    c record;
    v_horizon bigint := (SELECT slice FROM js_data.slice_horizon);
    v_from date;
    v_lo bigint;
    v_hi bigint;
    n integer;
    total integer := 0;
BEGIN
    IF p_to < p_from OR p_to - p_from > 3660 THEN
        RAISE EXCEPTION 'rollup_usage: day range % .. % is not plausible', p_from, p_to;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('jobscreen rollup'));
    FOR c IN SELECT cluster_id, slice_seconds AS len FROM js_data.clusters LOOP
        v_from := p_from;
        IF v_horizon IS NOT NULL THEN
            -- first day that starts at or after the horizon
            v_from := greatest(p_from, (to_timestamp(v_horizon * c.len - 1) AT TIME ZONE 'UTC')::date + 1);
        END IF;
        CONTINUE WHEN v_from > p_to;
        v_lo := floor(extract(epoch FROM v_from::timestamp AT TIME ZONE 'UTC') / c.len);
        v_hi := ceil(extract(epoch FROM (p_to + 1)::timestamp AT TIME ZONE 'UTC') / c.len) - 1;
        DELETE FROM js_data.usage_daily WHERE cluster_id = c.cluster_id AND day BETWEEN v_from AND p_to;
        INSERT INTO js_data.usage_daily (cluster_id, day, uid, jobs_started, steps_started, steps_failed,
                steps_opted_out, cpu_seconds, node_seconds, read_bytes, write_bytes, meta_ops, mpi_bytes, io_ns,
                mpi_ns, process_cpu_ns, node_slices)
        SELECT c.cluster_id, x.day, x.uid, sum(x.jobs_started), sum(x.steps_started), sum(x.steps_failed),
               sum(x.steps_opted_out), sum(x.cpu_seconds), sum(x.node_seconds), sum(x.read_bytes), sum(x.write_bytes),
               sum(x.meta_ops), sum(x.mpi_bytes), sum(x.io_ns), sum(x.mpi_ns), sum(x.process_cpu_ns), sum(x.node_slices)
        FROM (
            SELECT (coalesce(j.start_time, j.submit_time) AT TIME ZONE 'UTC')::date AS day, j.uid,
                   1 AS jobs_started, 0 AS steps_started, 0 AS steps_failed, 0 AS steps_opted_out,
                   0::double precision AS cpu_seconds, 0::double precision AS node_seconds, 0::bigint AS read_bytes,
                   0::bigint AS write_bytes, 0::bigint AS meta_ops, 0::bigint AS mpi_bytes, 0::bigint AS io_ns,
                   0::bigint AS mpi_ns, 0::bigint AS process_cpu_ns, 0::bigint AS node_slices
            FROM js_data.jobs j
            WHERE j.cluster_id = c.cluster_id
              AND (coalesce(j.start_time, j.submit_time) AT TIME ZONE 'UTC')::date BETWEEN v_from AND p_to
            UNION ALL
            SELECT d.day, j.uid,
                   0, (d.day = (s.start_time AT TIME ZONE 'UTC')::date)::integer,
                   (d.day = (s.start_time AT TIME ZONE 'UTC')::date AND s.state IS DISTINCT FROM 'COMPLETED')::integer,
                   (d.day = (s.start_time AT TIME ZONE 'UTC')::date AND NOT s.profiled)::integer,
                   coalesce(s.num_cpus, 0) * d.seconds, coalesce(s.num_nodes, 1) * d.seconds,
                   0, 0, 0, 0, 0, 0, 0, 0
            FROM js_data.steps s
            JOIN js_data.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id
            CROSS JOIN LATERAL (
                SELECT g::date AS day,
                       greatest(0, extract(epoch FROM
                           least(coalesce(s.end_time, s.start_time), (g::date + 1)::timestamp AT TIME ZONE 'UTC')
                           - greatest(s.start_time, g::date::timestamp AT TIME ZONE 'UTC')))::double precision AS seconds
                FROM generate_series((s.start_time AT TIME ZONE 'UTC')::date,
                                     (coalesce(s.end_time, s.start_time) AT TIME ZONE 'UTC')::date, interval '1 day') g
            ) d
            WHERE s.cluster_id = c.cluster_id AND s.start_time IS NOT NULL
              AND s.start_time < (p_to + 1)::timestamp AT TIME ZONE 'UTC'
              AND coalesce(s.end_time, s.start_time) >= v_from::timestamp AT TIME ZONE 'UTC'
              AND d.day BETWEEN v_from AND p_to
            UNION ALL
            SELECT (to_timestamp(m.slice * c.len) AT TIME ZONE 'UTC')::date, j.uid, 0, 0, 0, 0, 0, 0,
                   sum(m.posix_read_bytes + m.stdio_read_bytes + m.mpiio_read_bytes + m.lower_read_bytes)::bigint,
                   sum(m.posix_write_bytes + m.stdio_write_bytes + m.mpiio_write_bytes + m.lower_write_bytes)::bigint,
                   sum(m.posix_open_calls + m.posix_meta_calls + m.stdio_open_calls + m.mpiio_meta_calls)::bigint,
                   sum(m.mpi_send_bytes + m.mpi_coll_bytes)::bigint,
                   sum(m.posix_ns + m.stdio_ns + m.mpiio_ns)::bigint,
                   sum(m.mpi_p2p_ns + m.mpi_coll_ns)::bigint,
                   sum(m.cpu_ns)::bigint, count(*)
            FROM js_data.slice_metrics m
            JOIN js_data.jobs j ON j.cluster_id = m.cluster_id AND j.job_id = m.job_id
            WHERE m.cluster_id = c.cluster_id AND m.slice BETWEEN v_lo AND v_hi
            GROUP BY 1, 2
        ) x
        WHERE x.day BETWEEN v_from AND p_to
        GROUP BY x.day, x.uid;
        GET DIAGNOSTICS n = ROW_COUNT;
        total := total + n;
    END LOOP;
    RETURN total;
END $$;
COMMENT ON FUNCTION js_data.rollup_usage(date, date) IS 'recompute js_data.usage_daily for the UTC days p_from .. p_to (days whose detail retention dropped are left as they are); returns the rows written';

CREATE VIEW js.usage_daily AS
    SELECT d.cluster_id, c.name AS cluster, d.day, d.uid, u.name AS user_name, d.jobs_started, d.steps_started,
           d.steps_failed, d.steps_opted_out, d.cpu_seconds, d.node_seconds, d.read_bytes, d.write_bytes,
           d.meta_ops, d.mpi_bytes, d.io_ns, d.mpi_ns, d.process_cpu_ns, d.node_slices, d.computed_at
    FROM js_data.usage_daily d
    JOIN js_data.clusters c USING (cluster_id)
    LEFT JOIN js_data.users u ON u.cluster_id = d.cluster_id AND u.uid = d.uid;
COMMENT ON VIEW js.usage_daily IS 'daily usage per user (UTC days), from js_data.rollup_usage(); kept after the per-slice detail is dropped';

CREATE VIEW js.usage_monthly AS
    SELECT cluster_id, cluster, date_trunc('month', day)::date AS month, uid, user_name,
           sum(jobs_started)::integer AS jobs_started, sum(steps_started)::integer AS steps_started,
           sum(steps_failed)::integer AS steps_failed, sum(steps_opted_out)::integer AS steps_opted_out,
           sum(cpu_seconds) AS cpu_seconds, sum(node_seconds) AS node_seconds,
           sum(read_bytes)::bigint AS read_bytes, sum(write_bytes)::bigint AS write_bytes,
           sum(meta_ops)::bigint AS meta_ops, sum(mpi_bytes)::bigint AS mpi_bytes, sum(io_ns)::bigint AS io_ns,
           sum(mpi_ns)::bigint AS mpi_ns, sum(process_cpu_ns)::bigint AS process_cpu_ns,
           sum(node_slices)::bigint AS node_slices, count(*)::integer AS days, max(computed_at) AS computed_at
    FROM js.usage_daily
    GROUP BY cluster_id, cluster, date_trunc('month', day), uid, user_name;
COMMENT ON VIEW js.usage_monthly IS 'monthly usage per user: the sums of js.usage_daily over the UTC month (days = days with usage)';
