-- SPDX-License-Identifier: GPL-2.0-or-later
-- PL/pgSQL for its cached plans: as a SQL function its three statements were planned at every
-- call, once per step record ingested (0.12 ms).
CREATE FUNCTION js_data.live_clear(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    -- live_begin writes a step-node's live rows with its live_step_nodes row, in one
    -- transaction: without that row there is nothing to delete, and three empty DELETEs each
    -- fire the stored replies' statement trigger (2,715 of its 9,444 calls, for each step
    -- record, in issue 37's bench at 128 processes a node)
    IF NOT EXISTS (SELECT 1 FROM js_data.live_step_nodes WHERE cluster_id = p_cluster AND job_id = p_job
                   AND step_id = p_step AND node = p_node) THEN
        RETURN;
    END IF;
    DELETE FROM js_data.live_processes WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
    DELETE FROM js_data.live_slice_metrics WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
    DELETE FROM js_data.live_step_nodes WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
END $$;
COMMENT ON FUNCTION js_data.live_clear(smallint, bigint, text, text) IS 'delete the provisional rows of a step on a node (none without its live_step_nodes row)';
