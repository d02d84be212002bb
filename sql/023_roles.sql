-- jobscreen schema, migration 023: the read-only reporting role.  docs/reports.md, "Roles".
--
-- Two kinds of database role use jobscreen:
--   * the ingest's role: the login role profile_ingest connects as.  It runs the migrations
--     (--migrate), so it owns schemas js and js_data and everything in them; it writes
--     js_data, creates the per-slice partitions and runs retention (dropping a partition needs
--     its owner).  Nothing is granted to it here: it owns what it needs.
--   * jobscreen_report (NOLOGIN): reads the views and calls the functions of schema js, and
--     nothing else: no USAGE on js_data, so no table there can be read or written directly,
--     and no INSERT/UPDATE/DELETE on the views.  Admins' login roles, the web CGI's role and
--     report cron jobs are made members: GRANT jobscreen_report TO someone;
--
-- Roles are cluster-wide: the role is created when the migrating role may create roles, else
-- a notice says how to create it; js_data.grant_reporting() grants (again) to any role.

-- The views compute slice start times with js_data.slice_start(), which reads
-- js_data.clusters; a view's functions run with the privileges of the caller, so it runs as
-- its owner instead, to let a role without access to js_data read those views.
ALTER FUNCTION js_data.slice_start(smallint, bigint) SECURITY DEFINER SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION js_data.grant_reporting(p_role name) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('GRANT USAGE ON SCHEMA js TO %I', p_role);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA js TO %I', p_role);
    EXECUTE format('GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA js TO %I', p_role);
    -- what later migrations (run by the same owner) add to js is granted too
    EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA js GRANT SELECT ON TABLES TO %I', p_role);
    EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA js GRANT EXECUTE ON FUNCTIONS TO %I', p_role);
    EXECUTE format('REVOKE ALL ON SCHEMA js_data FROM %I', p_role);
    EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA js_data FROM %I', p_role);
END $$;
COMMENT ON FUNCTION js_data.grant_reporting(name) IS 'grant a role read access to the views and functions of schema js (now and for later migrations), and nothing in js_data';

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'jobscreen_report') THEN
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = current_user AND (rolsuper OR rolcreaterole)) THEN
            CREATE ROLE jobscreen_report NOLOGIN;
            COMMENT ON ROLE jobscreen_report IS 'jobscreen: read-only reporting role (the views of schema js); docs/reports.md';
        ELSE
            RAISE NOTICE 'jobscreen: role jobscreen_report does not exist and % may not create it: as a superuser run CREATE ROLE jobscreen_report NOLOGIN; then, as %, SELECT js_data.grant_reporting(''jobscreen_report'');',
                current_user, current_user;
        END IF;
    END IF;
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'jobscreen_report') THEN
        PERFORM js_data.grant_reporting('jobscreen_report');
    END IF;
END $$;
