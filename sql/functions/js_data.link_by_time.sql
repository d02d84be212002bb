-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.link_by_time(p_cluster smallint, p_job bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    a record;
    v_was bigint;
    v_new bigint;
BEGIN
    DELETE FROM js_data.dependencies WHERE cluster_id = p_cluster AND kind = 'time' AND to_job = p_job
        RETURNING from_job INTO v_was;
    IF EXISTS (SELECT 1 FROM js_data.dependencies d
               WHERE d.cluster_id = p_cluster AND d.to_job = p_job AND d.from_job <> p_job) THEN
        IF v_was IS NOT NULL THEN
            PERFORM js_data.unmerge_time_edge(p_cluster, v_was, p_job);
        END IF;
        RETURN;
    END IF;
    SELECT x.job_id, x.end_time, b.start_time INTO a
        FROM js_data.jobs b
        JOIN LATERAL (
            SELECT x.job_id, x.end_time FROM js_data.jobs x
            WHERE x.cluster_id = b.cluster_id AND x.uid = b.uid AND x.workflow_tag IS NOT DISTINCT FROM b.workflow_tag
              AND (b.workflow_tag IS NOT NULL OR
                   CASE WHEN b.record->>'submitter' IS NOT NULL AND x.record->>'submitter' IS NOT NULL
                        THEN x.record->>'submitter' = b.record->>'submitter'
                        ELSE x.work_dir = b.work_dir END)
              AND x.job_id <> b.job_id AND x.end_time <= b.start_time
              AND x.end_time >= b.start_time - js.time_edge_window()
              -- Slurm's submit time is whole seconds: B's submission in the second A ended counts
              -- as after it, one in the second before does not (no slack beyond the truncation)
              AND b.submit_time >= date_trunc('second', x.end_time)
            ORDER BY x.end_time DESC LIMIT 1
        ) x ON true
        WHERE b.cluster_id = p_cluster AND b.job_id = p_job AND coalesce(b.dependency, '') = '';
    IF FOUND THEN
        INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, from_time, to_time)
            VALUES (p_cluster, 'time', a.job_id, p_job, a.end_time, a.start_time)
            ON CONFLICT DO NOTHING;
        v_new := a.job_id;
    END IF;
    -- the edge that went takes its merge with it (the one made now merges again)
    IF v_was IS NOT NULL AND v_was IS DISTINCT FROM v_new THEN
        PERFORM js_data.unmerge_time_edge(p_cluster, v_was, p_job);
    END IF;
    IF v_new IS NOT NULL THEN
        PERFORM js_data.merge_workflows(p_cluster, p_job);
    END IF;
END $$;
COMMENT ON FUNCTION js_data.link_by_time(smallint, bigint) IS 'the time edge into a job by the rule of docs/dependencies.md (removed first, with the merge it made, and made again when it holds)';
