-- SPDX-License-Identifier: GPL-2.0-or-later
-- The cluster's id, made on first sight.
CREATE FUNCTION js_data.cluster_id(p_name text, p_slice_seconds integer) RETURNS smallint
LANGUAGE plpgsql AS $$
DECLARE id smallint;
BEGIN
    SELECT cluster_id INTO id FROM js_data.clusters WHERE name = p_name;
    IF id IS NULL THEN
        INSERT INTO js_data.clusters (name, slice_seconds) VALUES (p_name, p_slice_seconds)
            ON CONFLICT (name) DO NOTHING;
        SELECT cluster_id INTO id FROM js_data.clusters WHERE name = p_name;
    END IF;
    RETURN id;
END $$;
COMMENT ON FUNCTION js_data.cluster_id(text, integer) IS 'id of a cluster by name, inserted on first sight';
