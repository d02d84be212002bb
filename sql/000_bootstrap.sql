-- jobscreen schema bootstrap: run by profile_ingest before every migration check (idempotent).
-- The migrations 001, 002, ... are applied in order, each in one transaction, and recorded here.
CREATE SCHEMA IF NOT EXISTS js_data;
CREATE TABLE IF NOT EXISTS js_data.schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE js_data.schema_migrations IS 'migrations of sql/ applied to this database (profile_ingest --migrate)';
COMMENT ON COLUMN js_data.schema_migrations.version IS 'number of the migration file (sql/NNN_name.sql)';
COMMENT ON COLUMN js_data.schema_migrations.name IS 'name of the migration file';
COMMENT ON COLUMN js_data.schema_migrations.applied_at IS 'when it was applied';
