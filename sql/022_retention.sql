-- jobscreen schema, migration 022: retention of the per-slice detail.  The per-slice tables
-- (slice_metrics, slice_totals_node, slice_totals_cluster) are partitioned by slice range
-- (002); js_data.apply_retention() drops whole partitions whose every slice is older than the
-- configured age, after rolling up their days (021).  Everything else stays: jobs, steps,
-- step-nodes, per-process totals, files, file accesses, dependencies, workflows, rollups.
-- Run by an admin or cron as the schema's owner (docs/reports.md, "Retention").

CREATE TABLE js_data.retention_settings (
    only_row    boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    slice_keep  interval NOT NULL DEFAULT interval '180 days' CHECK (slice_keep >= interval '1 day'),
    updated     timestamptz NOT NULL DEFAULT now()
);
INSERT INTO js_data.retention_settings DEFAULT VALUES;
COMMENT ON TABLE js_data.retention_settings IS 'one row: how long the per-slice detail is kept (change with UPDATE)';
COMMENT ON COLUMN js_data.retention_settings.only_row IS 'always true: the table has exactly one row';
COMMENT ON COLUMN js_data.retention_settings.slice_keep IS 'per-slice partitions whose newest slice is older than now() minus this are dropped';
COMMENT ON COLUMN js_data.retention_settings.updated IS 'when the setting was last changed';

CREATE TABLE js_data.retention_log (
    partition    text NOT NULL,
    parent       text NOT NULL,
    first_slice  bigint NOT NULL,
    end_slice    bigint NOT NULL,
    rows_dropped bigint NOT NULL,
    dropped_at   timestamptz NOT NULL DEFAULT now(),
    dropped_by   text NOT NULL DEFAULT current_user,
    PRIMARY KEY (partition, dropped_at)
);
COMMENT ON TABLE js_data.retention_log IS 'partitions of the per-slice tables that retention dropped';
COMMENT ON COLUMN js_data.retention_log.partition IS 'name of the dropped partition (schema js_data)';
COMMENT ON COLUMN js_data.retention_log.parent IS 'the per-slice table it belonged to';
COMMENT ON COLUMN js_data.retention_log.first_slice IS 'first slice of its range';
COMMENT ON COLUMN js_data.retention_log.end_slice IS 'end of its range (exclusive)';
COMMENT ON COLUMN js_data.retention_log.rows_dropped IS 'rows it held when dropped';
COMMENT ON COLUMN js_data.retention_log.dropped_at IS 'when it was dropped';
COMMENT ON COLUMN js_data.retention_log.dropped_by IS 'database role that dropped it';

-- The partitions of the per-slice tables with their slice ranges.
CREATE VIEW js.slice_partitions AS
    SELECT c.relname::text AS partition, pc.relname::text AS parent,
           b[1]::bigint AS first_slice, b[2]::bigint AS end_slice,
           to_timestamp(b[1]::bigint * (SELECT coalesce(min(slice_seconds), 4) FROM js_data.clusters)) AS oldest,
           to_timestamp(b[2]::bigint * (SELECT coalesce(max(slice_seconds), 4) FROM js_data.clusters)) AS newest
    FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    JOIN pg_class pc ON pc.oid = i.inhparent
    JOIN pg_namespace n ON n.oid = pc.relnamespace AND n.nspname = 'js_data'
    CROSS JOIN LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid),
                                    'FROM \(''?(-?[0-9]+)''?\) TO \(''?(-?[0-9]+)''?\)') b
    WHERE pc.relname IN ('slice_metrics', 'slice_totals_node', 'slice_totals_cluster');
COMMENT ON VIEW js.slice_partitions IS 'partitions of the per-slice tables: slice range [first_slice, end_slice) and the time span it can hold (oldest, newest over the clusters'' slice lengths)';

CREATE VIEW js.retention AS
    SELECT s.slice_keep, now() - s.slice_keep AS cutoff, h.slice AS horizon_slice,
           to_timestamp(h.slice * (SELECT coalesce(max(slice_seconds), 4) FROM js_data.clusters)) AS horizon,
           (SELECT max(dropped_at) FROM js_data.retention_log) AS last_drop,
           (SELECT count(*) FROM js.slice_partitions)::integer AS partitions
    FROM js_data.retention_settings s LEFT JOIN js_data.slice_horizon h ON true;
COMMENT ON VIEW js.retention IS 'retention: how long per-slice detail is kept, the cutoff, the horizon below which it was dropped, the partitions left';

-- Drop the partitions of the per-slice tables whose every slice ended before p_now - p_keep
-- (default: now() - js_data.retention_settings.slice_keep), after rolling up the UTC days they
-- cover.  With p_dry_run only reports what it would drop; p_now previews a later run (and lets
-- the tests age real data).  One transaction; holds the ingest's partition lock, so the ingest
-- waits (briefly) and never creates a partition while one is being dropped.
CREATE FUNCTION js_data.apply_retention(p_keep interval DEFAULT NULL, p_dry_run boolean DEFAULT false,
        p_now timestamptz DEFAULT now())
RETURNS TABLE (partition text, parent text, first_slice bigint, end_slice bigint, rows_dropped bigint, action text)
LANGUAGE plpgsql AS $$
DECLARE
    v_keep interval := coalesce(p_keep, (SELECT slice_keep FROM js_data.retention_settings));
    v_cutoff double precision;
    v_min_len integer := (SELECT coalesce(min(slice_seconds), 4) FROM js_data.clusters);
    v_max_len integer := (SELECT coalesce(max(slice_seconds), 4) FROM js_data.clusters);
    v_horizon bigint;
    r record;
BEGIN
    IF v_keep IS NULL OR v_keep < interval '1 day' THEN
        RAISE EXCEPTION 'apply_retention: keep % is shorter than a day', v_keep;
    END IF;
    v_cutoff := extract(epoch FROM p_now - v_keep);
    PERFORM pg_advisory_xact_lock(hashtext('jobscreen partitions'));
    FOR r IN SELECT p.first_slice AS lo, p.end_slice AS hi
             FROM js.slice_partitions p
             WHERE p.end_slice::double precision * v_max_len <= v_cutoff
             GROUP BY p.first_slice, p.end_slice ORDER BY p.first_slice LOOP
        IF NOT p_dry_run THEN
            -- the rollup of every day this range touches, while its detail is still here
            PERFORM js_data.rollup_usage((to_timestamp(r.lo * v_min_len) AT TIME ZONE 'UTC')::date,
                                         (to_timestamp(r.hi * v_max_len - 1) AT TIME ZONE 'UTC')::date);
        END IF;
        FOR partition, parent IN SELECT p.partition, p.parent FROM js.slice_partitions p
                WHERE p.first_slice = r.lo AND p.end_slice = r.hi ORDER BY p.parent LOOP
            first_slice := r.lo;
            end_slice := r.hi;
            EXECUTE format('SELECT count(*) FROM js_data.%I', partition) INTO rows_dropped;
            IF p_dry_run THEN
                action := 'would drop';
            ELSE
                EXECUTE format('DROP TABLE js_data.%I', partition);
                INSERT INTO js_data.retention_log (partition, parent, first_slice, end_slice, rows_dropped)
                    VALUES (partition, parent, r.lo, r.hi, rows_dropped);
                action := 'dropped';
            END IF;
            RETURN NEXT;
        END LOOP;
        v_horizon := greatest(v_horizon, r.hi);
    END LOOP;
    IF v_horizon IS NOT NULL AND NOT p_dry_run THEN
        INSERT INTO js_data.slice_horizon (slice) VALUES (v_horizon)
            ON CONFLICT (only_row) DO UPDATE SET slice = greatest(slice_horizon.slice, excluded.slice), updated = now();
    END IF;
END $$;
COMMENT ON FUNCTION js_data.apply_retention(interval, boolean, timestamptz) IS 'drop the per-slice partitions older than p_now minus the kept age (default js_data.retention_settings.slice_keep) after rolling up their days; p_dry_run: only list them';
