-- SPDX-License-Identifier: GPL-2.0-or-later
-- Called by profile_ingest in a step record's transaction, after its processes and
-- quarantine rows, when a profile was refused or says something is missing: marks the
-- step-node and the step incomplete and says why (the step counted over all its nodes; the
-- step row is locked since ingest_step_sums, so the nodes of one step take turns here).
CREATE FUNCTION js_data.ingest_incomplete(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_reason text := js_data.incomplete_reason(p_cluster, p_job, p_step, p_node);
BEGIN
    IF v_reason IS NULL THEN
        RETURN;
    END IF;
    UPDATE js_data.step_nodes SET incomplete = true, incomplete_reason = v_reason
        WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
    UPDATE js_data.steps SET incomplete = true, incomplete_reason = js_data.incomplete_reason(p_cluster, p_job, p_step, NULL)
        WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step;
END $$;
COMMENT ON FUNCTION js_data.ingest_incomplete(smallint, bigint, text, text) IS 'mark a step-node and its step incomplete with the reason, when a profile was refused, has something missing, or processes were not recorded';
