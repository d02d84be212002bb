-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.live_begin(p_cluster smallint, p_job js_data.job_record_values, p_job_id bigint, p_step text,
        p_node text, p_snapshot_ns bigint, p_start_ns bigint, p_profiles integer, p_running integer, p_by text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext(p_cluster || '/' || p_job_id::text), hashtext(p_step || '/' || p_node)) THEN
        RETURN 'busy';
    END IF;
    IF EXISTS (SELECT 1 FROM js_data.step_nodes WHERE cluster_id = p_cluster AND job_id = p_job_id
               AND step_id = p_step AND node = p_node) THEN
        RETURN 'done';
    END IF;
    IF EXISTS (SELECT 1 FROM js_data.live_step_nodes WHERE cluster_id = p_cluster AND job_id = p_job_id
               AND step_id = p_step AND node = p_node AND snapshot_time = js_data.ns_to_time(p_snapshot_ns)) THEN
        RETURN 'same';
    END IF;
    IF p_job.job_id IS NOT NULL THEN
        PERFORM js_data.ingest_job_record(p_cluster, p_job);
    END IF;
    PERFORM js_data.live_clear(p_cluster, p_job_id, p_step, p_node);
    INSERT INTO js_data.live_step_nodes (cluster_id, job_id, step_id, node, start_time, snapshot_time, profiles,
            running, ingested_by)
        VALUES (p_cluster, p_job_id, p_step, p_node, js_data.ns_to_time(p_start_ns), js_data.ns_to_time(p_snapshot_ns),
            p_profiles, p_running, p_by);
    RETURN 'ok';
END $$;
COMMENT ON FUNCTION js_data.live_begin(smallint, js_data.job_record_values, bigint, text, text, bigint, bigint, integer, integer, text) IS 'claim a running step-node and replace its provisional row from a live snapshot (and the job record''s values): ok, busy, done (step record ingested) or same (snapshot stored already)';
