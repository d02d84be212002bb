-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.ingest_begin(p_cluster smallint, p_job js_data.job_record_values,
        p_step js_data.step_record_values, p_profiles integer, p_quarantined integer, p_by text, p_seq integer) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    -- the key of live_begin's lock too
    IF NOT pg_try_advisory_xact_lock(hashtext(p_cluster || '/' || p_step.job_id::text),
                                     hashtext(p_step.step || '/' || p_step.node)) THEN
        RETURN 'busy';
    END IF;
    -- the job record, once a transaction (its records each carry it, so that the first one
    -- claimed writes it, in the order of the claims)
    IF p_job.job_id IS NOT NULL AND position('/' || p_job.job_id || ':' || p_job.written_ns || '/' IN
            coalesce(current_setting('js_data.jobs_written', true), '')) = 0 THEN
        PERFORM js_data.ingest_job_record(p_cluster, p_job);
        PERFORM set_config('js_data.jobs_written',
                           coalesce(nullif(current_setting('js_data.jobs_written', true), ''), '/') || p_job.job_id || ':' || p_job.written_ns || '/', true);
    END IF;
    IF NOT js_data.ingest_step_record(p_cluster, p_step, p_profiles, p_quarantined, p_by, p_seq) THEN
        RETURN 'done';
    END IF;
    PERFORM js_data.live_clear(p_cluster, p_step.job_id, p_step.step, p_step.node);
    RETURN 'ok';
END $$;
COMMENT ON FUNCTION js_data.ingest_begin(smallint, js_data.job_record_values, js_data.step_record_values, integer, integer, text, integer) IS 'claim a step record, upsert its job, insert its exactly-once key (and delete the step-node''s provisional rows), from the values of the validated records: ok, busy or done; p_seq: its place in the pass''s order within the transaction';
