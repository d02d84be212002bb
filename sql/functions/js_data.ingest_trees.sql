-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.ingest_trees(p_cluster smallint, p_job bigint, p_step text, p_node text, p_trees jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO js_data.step_trees (cluster_id, job_id, step_id, node, tree, processes, opens, read_bytes, write_bytes)
        SELECT p_cluster, p_job, p_step, p_node, t.path, t.processes, t.opens, t.read_bytes, t.write_bytes
        FROM jsonb_to_recordset(p_trees) AS t(path text, processes integer, opens bigint, read_bytes bigint, write_bytes bigint);
END $$;
COMMENT ON FUNCTION js_data.ingest_trees(smallint, bigint, text, text, jsonb) IS 'the software trees of a step record, in its transaction (profile_ingest)';
