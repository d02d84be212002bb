CREATE FUNCTION js.may_see(p_viewer text, p_admin boolean, p_cluster_filter text, p_owner text, p_cluster text)
    RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS 'SELECT (p_admin OR p_owner = p_viewer) AND (p_cluster_filter IS NULL OR p_cluster = p_cluster_filter)';
COMMENT ON FUNCTION js.may_see(text, boolean, text, text, text) IS 'the web''s access rule: may viewer p_viewer (an admin when p_admin) see a row owned by p_owner on cluster p_cluster, when restricted to cluster p_cluster_filter (NULL: any)? Inlined by the planner; web/queries.sql calls it for every job, workflow and user it reads (docs/web.md)';
