-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema bootstrap: run by profile_ingest before every migration check (idempotent).
-- The pending migrations of sql/migrations/ are applied in order and recorded here, in the one
-- transaction of a migrate that also creates the definitions anew (docs/schema.md, "Migrations").
CREATE SCHEMA IF NOT EXISTS js_data;
CREATE TABLE IF NOT EXISTS js_data.schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE js_data.schema_migrations IS 'migrations of sql/migrations/ applied to this database (profile_ingest --migrate)';
COMMENT ON COLUMN js_data.schema_migrations.version IS 'number of the migration file (sql/migrations/NNN_name.sql)';
COMMENT ON COLUMN js_data.schema_migrations.name IS 'name of the migration file';
COMMENT ON COLUMN js_data.schema_migrations.applied_at IS 'when it was applied';
CREATE TABLE IF NOT EXISTS js_data.schema_definitions (
    only_row   boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    digest     text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE js_data.schema_definitions IS 'the views, functions and types of sql/ as last created here (profile_ingest --migrate creates them anew when they changed)';
COMMENT ON COLUMN js_data.schema_definitions.only_row IS 'true: the table has one row';
COMMENT ON COLUMN js_data.schema_definitions.digest IS 'FNV-1a digest of the definitions'' text (sql/objects.am, SQL_DEFINITIONS)';
COMMENT ON COLUMN js_data.schema_definitions.created_at IS 'when they were created';
