-- SPDX-License-Identifier: GPL-2.0-or-later
-- The views compute slice start times with js_data.slice_start(), which reads
-- js_data.clusters; a view's functions run with the privileges of the caller, so it runs as
-- its owner instead, to let a role without access to js_data read those views.
CREATE FUNCTION js_data.slice_start(p_cluster smallint, p_slice bigint) RETURNS timestamptz
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT to_timestamp(p_slice * slice_seconds) FROM js_data.clusters WHERE cluster_id = p_cluster $$;
COMMENT ON FUNCTION js_data.slice_start(smallint, bigint) IS 'wall-clock start of a slice of a cluster';
