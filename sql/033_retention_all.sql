-- 033: retention for every table class (issue 17). 022 drops the per-slice detail after
-- slice_keep; everything else was kept forever. Now, beside slice_keep, a setting per class
-- (NULL: kept forever, the default, as before):
--   job_keep         a job that ended before now() - job_keep goes with all it holds: its steps,
--                    step-nodes, processes, per-step series, file accesses, trees, dependencies
--                    (either end), queued folds and live rows; then the workflows left without
--                    jobs and the files no access or dependency names any more. The background
--                    totals (series_node, series_cluster) are per-slice detail: slice_keep's.
--   quarantine_keep  the rows of js_data.quarantine older than that (the files themselves:
--                    the ingest's quarantine_days)
--   rollup_keep      the daily usage rollups of days before that
-- js_data.apply_retention_all() applies every class (the slices through apply_retention) and
-- logs what it removed in js_data.retention_runs; profile_ingest --retention runs it, and the
-- systemd timer jobscreen-retention.timer runs that daily (contrib/systemd).

ALTER TABLE js_data.retention_settings
    ADD COLUMN job_keep interval CHECK (job_keep IS NULL OR job_keep >= interval '1 day'),
    ADD COLUMN quarantine_keep interval CHECK (quarantine_keep IS NULL OR quarantine_keep >= interval '1 day'),
    ADD COLUMN rollup_keep interval CHECK (rollup_keep IS NULL OR rollup_keep >= interval '1 day');
COMMENT ON COLUMN js_data.retention_settings.job_keep IS 'jobs that ended before now() minus this go with everything they hold (NULL: kept forever)';
COMMENT ON COLUMN js_data.retention_settings.quarantine_keep IS 'quarantine rows older than this are removed (NULL: kept forever)';
COMMENT ON COLUMN js_data.retention_settings.rollup_keep IS 'daily usage rollups of days before now() minus this are removed (NULL: kept forever)';

CREATE TABLE js_data.retention_runs (
    run_at     timestamptz NOT NULL DEFAULT now(),
    class      text NOT NULL,
    item       text NOT NULL,
    rows       bigint NOT NULL,
    cutoff     timestamptz,
    run_by     text NOT NULL DEFAULT current_user,
    PRIMARY KEY (run_at, class, item)
);
COMMENT ON TABLE js_data.retention_runs IS 'what each run of apply_retention_all removed, per table';
COMMENT ON COLUMN js_data.retention_runs.run_at IS 'when the run was (its transaction''s start)';
COMMENT ON COLUMN js_data.retention_runs.class IS 'the setting that applied: slices, jobs, quarantine or rollups';
COMMENT ON COLUMN js_data.retention_runs.item IS 'the table (or partition) rows were removed from';
COMMENT ON COLUMN js_data.retention_runs.rows IS 'rows removed';
COMMENT ON COLUMN js_data.retention_runs.cutoff IS 'the time before which the class''s data went';
COMMENT ON COLUMN js_data.retention_runs.run_by IS 'database role that ran it';

-- Jobs that ended before p_now - keep, and everything they hold. Tables are found by their
-- columns, so that one added later with (cluster_id, job_id) is covered too; dependencies by
-- either end. With p_dry_run only counts.
CREATE FUNCTION js_data.apply_job_retention(p_keep interval DEFAULT NULL, p_dry_run boolean DEFAULT false,
        p_now timestamptz DEFAULT now())
RETURNS TABLE (item text, rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
    v_keep interval := coalesce(p_keep, (SELECT job_keep FROM js_data.retention_settings));
    t record;
    n bigint;
BEGIN
    IF v_keep IS NULL THEN
        RETURN; /* kept forever */
    END IF;
    IF v_keep < interval '1 day' THEN
        RAISE EXCEPTION 'apply_job_retention: keep % is shorter than a day', v_keep;
    END IF;
    CREATE TEMP TABLE IF NOT EXISTS retention_old_jobs (cluster_id smallint, job_id bigint, PRIMARY KEY (cluster_id, job_id))
        ON COMMIT DROP;
    TRUNCATE retention_old_jobs;
    INSERT INTO retention_old_jobs
        SELECT j.cluster_id, j.job_id FROM js_data.jobs j WHERE j.end_time < p_now - v_keep;
    ANALYZE retention_old_jobs;
    FOR t IN SELECT c.table_name::text AS name
             FROM information_schema.columns c
             JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
             WHERE c.table_schema = 'js_data' AND c.column_name = 'job_id' AND tb.table_type = 'BASE TABLE'
               AND c.table_name <> 'jobs' AND c.table_name <> 'quarantine'
               AND NOT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class k ON k.oid = i.inhrelid
                               WHERE k.relname = c.table_name AND k.relnamespace = 'js_data'::regnamespace)
               AND EXISTS (SELECT 1 FROM information_schema.columns c2 WHERE c2.table_schema = 'js_data'
                           AND c2.table_name = c.table_name AND c2.column_name = 'cluster_id')
             ORDER BY 1 LOOP
        IF p_dry_run THEN
            EXECUTE format('SELECT count(*) FROM js_data.%I x JOIN retention_old_jobs o USING (cluster_id, job_id)', t.name) INTO n;
        ELSE
            EXECUTE format('DELETE FROM js_data.%I x USING retention_old_jobs o WHERE x.cluster_id = o.cluster_id AND x.job_id = o.job_id', t.name);
            GET DIAGNOSTICS n = ROW_COUNT;
        END IF;
        item := t.name; rows := n;
        IF n > 0 THEN RETURN NEXT; END IF;
    END LOOP;
    /* the tables keyed by two jobs: an edge or a reference goes with either end */
    IF p_dry_run THEN
        SELECT count(*) INTO n FROM js_data.dependencies d WHERE EXISTS (SELECT 1 FROM retention_old_jobs o
            WHERE o.cluster_id = d.cluster_id AND o.job_id IN (d.from_job, d.to_job));
    ELSE
        DELETE FROM js_data.dependencies d USING retention_old_jobs o
            WHERE o.cluster_id = d.cluster_id AND o.job_id IN (d.from_job, d.to_job);
        GET DIAGNOSTICS n = ROW_COUNT;
    END IF;
    item := 'dependencies'; rows := n;
    IF n > 0 THEN RETURN NEXT; END IF;
    IF p_dry_run THEN
        SELECT count(*) INTO n FROM js_data.dependency_refs d WHERE EXISTS (SELECT 1 FROM retention_old_jobs o
            WHERE o.cluster_id = d.cluster_id AND o.job_id = d.to_job);
    ELSE
        DELETE FROM js_data.dependency_refs d USING retention_old_jobs o WHERE o.cluster_id = d.cluster_id AND o.job_id = d.to_job;
        GET DIAGNOSTICS n = ROW_COUNT;
    END IF;
    item := 'dependency_refs'; rows := n;
    IF n > 0 THEN RETURN NEXT; END IF;
    /* the jobs themselves (their trigger summarises their workflows again) */
    IF p_dry_run THEN
        SELECT count(*) INTO n FROM retention_old_jobs;
    ELSE
        DELETE FROM js_data.jobs j USING retention_old_jobs o WHERE j.cluster_id = o.cluster_id AND j.job_id = o.job_id;
        GET DIAGNOSTICS n = ROW_COUNT;
    END IF;
    item := 'jobs'; rows := n;
    IF n > 0 THEN RETURN NEXT; END IF;
    IF p_dry_run THEN
        RETURN; /* what the deletions would leave behind is not counted ahead */
    END IF;
    /* what no job holds any more */
    DELETE FROM js_data.workflows w
        WHERE NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = w.cluster_id AND j.workflow_id = w.workflow_id);
    GET DIAGNOSTICS n = ROW_COUNT;
    item := 'workflows'; rows := n;
    IF n > 0 THEN RETURN NEXT; END IF;
    DELETE FROM js_data.files f
        WHERE NOT EXISTS (SELECT 1 FROM js_data.file_accesses a WHERE a.cluster_id = f.cluster_id AND a.file_id = f.file_id)
          AND NOT EXISTS (SELECT 1 FROM js_data.dependencies d WHERE d.cluster_id = f.cluster_id AND d.file_id = f.file_id);
    GET DIAGNOSTICS n = ROW_COUNT;
    item := 'files'; rows := n;
    IF n > 0 THEN RETURN NEXT; END IF;
END $$;
COMMENT ON FUNCTION js_data.apply_job_retention(interval, boolean, timestamptz) IS 'remove the jobs that ended before p_now minus the kept age (default js_data.retention_settings.job_keep; NULL: none) with everything they hold, then the workflows and files left without them; p_dry_run: count only';

-- a row of js_data.retention_runs, unless it is a dry run
CREATE FUNCTION js_data.retention_note(p_dry_run boolean, p_class text, p_item text, p_rows bigint, p_cutoff timestamptz)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO js_data.retention_runs (class, item, rows, cutoff)
    SELECT p_class, p_item, p_rows, p_cutoff WHERE NOT p_dry_run
    ON CONFLICT (run_at, class, item) DO UPDATE SET rows = retention_runs.rows + excluded.rows $$;
COMMENT ON FUNCTION js_data.retention_note(boolean, text, text, bigint, timestamptz) IS 'log what a retention run removed (nothing for a dry run)';

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
