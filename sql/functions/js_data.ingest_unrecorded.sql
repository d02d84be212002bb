-- SPDX-License-Identifier: GPL-2.0-or-later
-- Called by profile_ingest in a step record's transaction, before js_data.ingest_incomplete,
-- when the step's bundles on this node said that processes were not recorded.
CREATE FUNCTION js_data.ingest_unrecorded(p_cluster smallint, p_job bigint, p_step text, p_node text,
        p_processes integer, p_reason text) RETURNS void
LANGUAGE sql AS $$
    UPDATE js_data.step_nodes SET unrecorded = p_processes, unrecorded_reason = nullif(p_reason, '')
        WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node $$;
COMMENT ON FUNCTION js_data.ingest_unrecorded(smallint, bigint, text, text, integer, text) IS 'store how many processes of a step-node were not recorded, and why (then js_data.ingest_incomplete says so)';
