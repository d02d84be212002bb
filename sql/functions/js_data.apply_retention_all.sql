-- SPDX-License-Identifier: GPL-2.0-or-later
-- Every class at once, logged in js_data.retention_runs: the per-slice detail (slice_keep),
-- jobs (job_keep), quarantine rows (quarantine_keep), daily rollups (rollup_keep).
CREATE FUNCTION js_data.apply_retention_all(p_dry_run boolean DEFAULT false, p_now timestamptz DEFAULT now())
RETURNS TABLE (class text, item text, rows bigint, action text)
LANGUAGE plpgsql AS $$
DECLARE
    s js_data.retention_settings;
    r record;
BEGIN
    SELECT * INTO s FROM js_data.retention_settings;
    action := CASE WHEN p_dry_run THEN 'would remove' ELSE 'removed' END;
    FOR r IN SELECT * FROM js_data.apply_retention(NULL, p_dry_run, p_now) LOOP
        class := 'slices'; item := r.partition; rows := r.rows_dropped;
        PERFORM js_data.retention_note(p_dry_run, class, item, rows, p_now - s.slice_keep);
        RETURN NEXT;
    END LOOP;
    FOR r IN SELECT * FROM js_data.apply_job_retention(NULL, p_dry_run, p_now) LOOP
        class := 'jobs'; item := r.item; rows := r.rows;
        PERFORM js_data.retention_note(p_dry_run, class, item, rows, p_now - s.job_keep);
        RETURN NEXT;
    END LOOP;
    IF s.quarantine_keep IS NOT NULL THEN
        class := 'quarantine'; item := 'quarantine';
        IF p_dry_run THEN
            SELECT count(*) INTO rows FROM js_data.quarantine q WHERE q.at < p_now - s.quarantine_keep;
        ELSE
            DELETE FROM js_data.quarantine q WHERE q.at < p_now - s.quarantine_keep;
            GET DIAGNOSTICS rows = ROW_COUNT;
        END IF;
        IF rows > 0 THEN
            PERFORM js_data.retention_note(p_dry_run, class, item, rows, p_now - s.quarantine_keep);
            RETURN NEXT;
        END IF;
    END IF;
    IF s.rollup_keep IS NOT NULL THEN
        class := 'rollups'; item := 'usage_daily';
        IF p_dry_run THEN
            SELECT count(*) INTO rows FROM js_data.usage_daily u WHERE u.day < (p_now - s.rollup_keep)::date;
        ELSE
            DELETE FROM js_data.usage_daily u WHERE u.day < (p_now - s.rollup_keep)::date;
            GET DIAGNOSTICS rows = ROW_COUNT;
        END IF;
        IF rows > 0 THEN
            PERFORM js_data.retention_note(p_dry_run, class, item, rows, p_now - s.rollup_keep);
            RETURN NEXT;
        END IF;
    END IF;
END $$;
COMMENT ON FUNCTION js_data.apply_retention_all(boolean, timestamptz) IS 'apply every retention setting of js_data.retention_settings (slices, jobs, quarantine, rollups); p_dry_run: count only; profile_ingest --retention runs it and logs the result in js_data.retention_runs';
