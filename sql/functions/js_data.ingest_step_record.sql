-- SPDX-License-Identifier: GPL-2.0-or-later
-- The step record of one node: its step-node row, and the step's row merged over its nodes.
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
    INSERT INTO js_data.steps AS s (cluster_id, job_id, step_id, name, start_time, end_time, state, exit_code,
            num_nodes, num_tasks, num_cpus, nodelist, profiled, first_slice, last_slice, nodes_ingested, incomplete)
        VALUES (p_cluster, p.job_id, p.step, p.executable, js_data.ns_to_time(p.start_ns), js_data.ns_to_time(p.end_ns),
            p.state, p.exit_code, p.nodes, p.tasks, p.cpus, p.node_list, p.profiled, v_first, v_last, 1, v_incomplete)
        ON CONFLICT (cluster_id, job_id, step_id) DO UPDATE SET
            start_time = least(s.start_time, excluded.start_time),
            end_time = greatest(s.end_time, excluded.end_time),
            state = CASE WHEN s.state = 'COMPLETED' THEN excluded.state ELSE s.state END,
            exit_code = greatest(s.exit_code, excluded.exit_code),
            num_cpus = coalesce(s.num_cpus, 0) + coalesce(excluded.num_cpus, 0),
            profiled = s.profiled OR excluded.profiled,
            first_slice = least(s.first_slice, excluded.first_slice),
            last_slice = greatest(s.last_slice, excluded.last_slice),
            nodes_ingested = s.nodes_ingested + 1,
            incomplete = s.incomplete OR excluded.incomplete;
    RETURN true;
END $$;
COMMENT ON FUNCTION js_data.ingest_step_record(smallint, js_data.step_record_values, integer, integer, text, integer) IS 'insert the exactly-once key of a step record from the values of the validated record and merge the step; false when already ingested';
