-- SPDX-License-Identifier: GPL-2.0-or-later
-- mmap of files: the (rare) files of a step record that were mapped, after ingest_finish
CREATE FUNCTION js_data.ingest_mapped(p_cluster smallint, p_job bigint, p_step text, p_node text,
        p_paths text[], p_local boolean[], p_bytes bigint[]) RETURNS void
LANGUAGE sql AS $$
    UPDATE js_data.file_accesses a SET mapped_bytes = m.bytes
    FROM unnest(p_paths, p_local, p_bytes) AS m(path, is_local, bytes)
    JOIN js_data.files fi ON fi.cluster_id = p_cluster AND fi.path = m.path
        AND fi.node = CASE WHEN m.is_local THEN p_node ELSE '' END
    WHERE a.cluster_id = p_cluster AND a.job_id = p_job AND a.step_id = p_step AND a.node = p_node
      AND a.file_id = fi.file_id
$$;
COMMENT ON FUNCTION js_data.ingest_mapped(smallint, bigint, text, text, text[], boolean[], bigint[]) IS 'the mapped bytes of a step record''s files, in its transaction after ingest_finish (profile_ingest)';
