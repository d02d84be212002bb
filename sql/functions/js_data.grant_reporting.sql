-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.grant_reporting(p_role name) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('GRANT USAGE ON SCHEMA js TO %I', p_role);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA js TO %I', p_role);
    EXECUTE format('GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA js TO %I', p_role);
    -- what a later migrate (run by the same owner) creates in js is granted too
    EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA js GRANT SELECT ON TABLES TO %I', p_role);
    EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA js GRANT EXECUTE ON FUNCTIONS TO %I', p_role);
    EXECUTE format('REVOKE ALL ON SCHEMA js_data FROM %I', p_role);
    EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA js_data FROM %I', p_role);
END $$;
COMMENT ON FUNCTION js_data.grant_reporting(name) IS 'grant a role read access to the views and functions of schema js (now and for later migrations), and nothing in js_data';
