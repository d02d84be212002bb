-- SPDX-License-Identifier: GPL-2.0-or-later
-- PL/pgSQL for its cached plans: as a SQL function its three statements were planned at every
-- call, once per step record ingested (0.12 ms).
CREATE FUNCTION js_data.live_clear(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM js_data.live_processes WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
    DELETE FROM js_data.live_slice_metrics WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
    DELETE FROM js_data.live_step_nodes WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
END $$;
COMMENT ON FUNCTION js_data.live_clear(smallint, bigint, text, text) IS 'delete the provisional rows of a step on a node';
