-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.add_quarantine(p_cluster smallint, p_job bigint, p_step text, p_node text,
        p_file text, p_moved_to text, p_reason text) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO js_data.quarantine (cluster_id, job_id, step_id, node, file, moved_to, reason)
        VALUES (p_cluster, p_job, p_step, p_node, p_file, p_moved_to, p_reason)
        ON CONFLICT (cluster_id, job_id, step_id, node, file) DO UPDATE SET
            moved_to = excluded.moved_to, reason = excluded.reason, at = now() $$;
COMMENT ON FUNCTION js_data.add_quarantine(smallint, bigint, text, text, text, text, text) IS 'log a quarantined file';
