-- SPDX-License-Identifier: GPL-2.0-or-later
-- The daily usage rollups of the days from p_from to p_to (docs/reports.md), read from the
-- series of the days' chunks only.
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
                   js.saturated(sum(m.posix_read_bytes + m.stdio_read_bytes + m.mpiio_read_bytes + m.lower_read_bytes)),
                   js.saturated(sum(m.posix_write_bytes + m.stdio_write_bytes + m.mpiio_write_bytes + m.lower_write_bytes)),
                   js.saturated(sum(m.posix_open_calls + m.posix_meta_calls + m.stdio_open_calls + m.mpiio_meta_calls)),
                   js.saturated(sum(m.mpi_send_bytes + m.mpi_coll_bytes)),
                   js.saturated(sum(m.posix_ns + m.stdio_ns + m.mpiio_ns)),
                   js.saturated(sum(m.mpi_p2p_ns + m.mpi_coll_ns)),
                   js.saturated(sum(m.cpu_ns)), count(*)
            FROM js_data.slice_metrics m
            JOIN js_data.jobs j ON j.cluster_id = m.cluster_id AND j.job_id = m.job_id
            WHERE m.cluster_id = c.cluster_id AND m.slice BETWEEN v_lo AND v_hi
              AND m.chunk BETWEEN js_data.series_chunk_of(v_lo) AND v_hi
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
