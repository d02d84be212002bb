-- SPDX-License-Identifier: GPL-2.0-or-later
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
