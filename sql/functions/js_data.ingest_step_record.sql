-- SPDX-License-Identifier: GPL-2.0-or-later
-- The step record of one node: its step-node row, and its step's values staged for
-- js_data.ingest_step_sums, which merges each step's row once a transaction over the records
-- (an upsert a record fired the steps' statement triggers, four, at every record: issue 37).
CREATE FUNCTION js_data.ingest_step_record(p_cluster smallint, p js_data.step_record_values, p_profiles integer,
        p_quarantined integer, p_by text, p_seq integer) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    v_first bigint := floor(p.start_ns::numeric / 1e9 / p.slice_seconds);
    v_last bigint := floor(p.end_ns::numeric / 1e9 / p.slice_seconds);
    v_incomplete boolean := p_quarantined > 0;
BEGIN
    -- ingested_at: the transaction's time, a microsecond apart in the order the pass took its
    -- records (p_seq): they are claimed in the order of their keys, so that daemons lock alike
    INSERT INTO js_data.step_nodes (cluster_id, job_id, step_id, node, start_time, end_time, state,
            exit_code, num_tasks, profiles, quarantined, incomplete, record, ingested_by, ingested_at)
        VALUES (p_cluster, p.job_id, p.step, p.node, js_data.ns_to_time(p.start_ns), js_data.ns_to_time(p.end_ns),
            p.state, p.exit_code, p.local_tasks, p_profiles, p_quarantined, v_incomplete, p.record, p_by, now() + p_seq * interval '1 microsecond')
        ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO ingest_batch_steps (job_id, step_id, name, start_time, end_time, state, exit_code, num_nodes,
            num_tasks, num_cpus, nodelist, profiled, first_slice, last_slice, incomplete)
        VALUES (p.job_id, p.step, p.executable, js_data.ns_to_time(p.start_ns), js_data.ns_to_time(p.end_ns),
            p.state, p.exit_code, p.nodes, p.tasks, p.cpus, p.node_list, p.profiled, v_first, v_last, v_incomplete);
    RETURN true;
END $$;
COMMENT ON FUNCTION js_data.ingest_step_record(smallint, js_data.step_record_values, integer, integer, text, integer) IS 'insert the exactly-once key of a step record from the values of the validated record and stage its step''s values (ingest_batch_steps, merged by ingest_step_sums); false when already ingested';
