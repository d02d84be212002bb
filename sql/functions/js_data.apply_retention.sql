-- SPDX-License-Identifier: GPL-2.0-or-later
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
        -- no trigger sees a partition dropped: the stored step replies that read one are noted
        -- as changed (migration 052; docs/web.md, "Stored replies")
        INSERT INTO js_data.reply_job_changes (cluster_id, job_id)
            SELECT DISTINCT sr.cluster_id, sr.key FROM js_data.stored_replies sr
            JOIN js_data.steps s ON s.cluster_id = sr.cluster_id AND s.job_id = sr.key
            WHERE sr.endpoint = 'step' AND s.first_slice < v_horizon;
    END IF;
END $$;
COMMENT ON FUNCTION js_data.apply_retention(interval, boolean, timestamptz) IS 'drop the per-slice partitions older than p_now minus the kept age (default js_data.retention_settings.slice_keep) after rolling up their days; p_dry_run: only list them';
