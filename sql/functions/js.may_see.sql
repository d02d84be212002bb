-- SPDX-License-Identifier: GPL-2.0-or-later
-- Which jobs a viewer may see, stated once (issue 19).
--
-- Every query of the web CGI (web/queries.sql) takes the viewer: $1 the user name, $2 admin,
-- $3 a cluster or NULL. Each calls js.may_see on the row that owns what it reads (a job, a
-- workflow or, for the lists, a user of a cluster); the jobs of an export, which four queries
-- read, are js.exported_jobs.
--
-- Both are plain SQL of one statement, neither STRICT nor SECURITY DEFINER, without SET, so
-- the planner inlines them into the calling query: its plan is the plan of the rule written
-- out (the lists still walk their index in order and stop at the limit, a lookup by key stays
-- an index seek), for custom and generic plans alike (FastCGI prepares once, docs/web.md).
-- A predicate rather than a set-returning js.visible_jobs(): the same function serves jobs,
-- workflows and users (each has an owner and a cluster) and leaves each query its own
-- access path.
CREATE FUNCTION js.may_see(p_viewer text, p_admin boolean, p_cluster_filter text, p_owner text, p_cluster text)
    RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS 'SELECT (p_admin OR p_owner = p_viewer) AND (p_cluster_filter IS NULL OR p_cluster = p_cluster_filter)';
COMMENT ON FUNCTION js.may_see(text, boolean, text, text, text) IS 'the web''s access rule: may viewer p_viewer (an admin when p_admin) see a row owned by p_owner on cluster p_cluster, when restricted to cluster p_cluster_filter (NULL: any)? Inlined by the planner; web/queries.sql calls it for every job, workflow and user it reads (docs/web.md)';
