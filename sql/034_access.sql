-- jobscreen schema, migration 034: which jobs a viewer may see, stated once (issue 19).
--
-- Every query of the web CGI (web/queries.sql) takes the viewer: $1 the user name, $2 admin,
-- $3 a cluster or NULL. Each used to spell the rule itself, some twice; one forgotten clause
-- would show another user's jobs. They now call js.may_see on the row that owns what they
-- read (a job, a workflow or, for the lists, a user of a cluster), and the jobs of an export,
-- which four queries read, are js.exported_jobs.
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

-- the jobs an export holds: those of workflow p_workflow_id or the job p_job_id that the viewer
-- may see, in the export's order, at most p_limit. Rows of js.jobs, so that export_jobs reads
-- each job once and the queries of its steps, files and digest take the keys alone (the
-- planner drops the columns a caller does not use); CREATE OR REPLACE VIEW js.jobs may still
-- add columns, and the function follows.
CREATE FUNCTION js.exported_jobs(p_viewer text, p_admin boolean, p_cluster_filter text,
                                 p_workflow_id bigint, p_job_id bigint, p_limit integer)
    RETURNS SETOF js.jobs LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT j.* FROM js.jobs j
    WHERE js.may_see(p_viewer, p_admin, p_cluster_filter, j.user_name, j.cluster)
      AND j.cluster_id = ANY (ARRAY(SELECT c.cluster_id FROM js.clusters c
                                    WHERE p_cluster_filter IS NULL OR c.cluster = p_cluster_filter))
      AND (j.workflow_id = p_workflow_id OR j.job_id = p_job_id)
    ORDER BY j.start_time NULLS LAST, j.job_id
    LIMIT p_limit
$$;
COMMENT ON FUNCTION js.exported_jobs(text, boolean, text, bigint, bigint, integer) IS 'the jobs of an export of the web (docs/api.md, export): workflow p_workflow_id or job p_job_id, those js.may_see lets the viewer see, by start time, at most p_limit; inlined by the planner';

-- the web role reads through jobscreen_report: 023's default privileges grant it EXECUTE on
-- what the role that ran 023 adds to js; granted by name too (as 032), whoever runs this
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'jobscreen_report') THEN
        GRANT EXECUTE ON FUNCTION js.may_see(text, boolean, text, text, text),
                                  js.exported_jobs(text, boolean, text, bigint, bigint, integer) TO jobscreen_report;
    END IF;
END $$;
