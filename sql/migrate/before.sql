-- SPDX-License-Identifier: GPL-2.0-or-later
-- What migrate runs first, in the transaction of the whole migrate (docs/schema.md, "Migrations").
--
-- The views, functions and types of sql/views/, sql/functions/ and sql/types/ hold no data:
-- migrate drops them all here, applies the pending migrations (tables, indexes and data), then
-- creates them again from their one definition each, and runs migrate/after.sql. A view is
-- therefore never copied into a migration to change it, and a migration may alter any column a
-- view reads. Triggers go with their functions. A function a table depends on (a CHECK
-- constraint calls js_data.series_chunk_of) belongs to the table's migration and stays.
DO $$
DECLARE
    blocker text;
    names text[];
    x text;
BEGIN
    -- An object outside js and js_data built on ours (an admin's own view on js.jobs) would go
    -- with them: refuse, naming it, and leave the database as it was.
    SELECT string_agg(DISTINCT format('%I.%I (on %I.%I)', dn.nspname, dep.relname, rn.nspname, ref.relname), ', ') INTO blocker
    FROM pg_depend d
    JOIN pg_rewrite rw ON d.classid = 'pg_rewrite'::regclass AND rw.oid = d.objid
    JOIN pg_class dep ON dep.oid = rw.ev_class
    JOIN pg_namespace dn ON dn.oid = dep.relnamespace
    JOIN pg_class ref ON d.refclassid = 'pg_class'::regclass AND ref.oid = d.refobjid AND ref.relkind = 'v'
    JOIN pg_namespace rn ON rn.oid = ref.relnamespace
    WHERE rn.nspname IN ('js', 'js_data') AND dn.nspname NOT IN ('js', 'js_data');
    IF blocker IS NOT NULL THEN
        RAISE EXCEPTION 'jobscreen: migrate re-creates the views of schemas js and js_data, and % depend on them: drop them, migrate, and create them again', blocker;
    END IF;

    SELECT array_agg(format('%I.%I', n.nspname, c.relname)) INTO names
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname IN ('js', 'js_data') AND c.relkind = 'v';
    FOREACH x IN ARRAY coalesce(names, '{}') LOOP
        EXECUTE 'DROP VIEW IF EXISTS ' || x || ' CASCADE';
    END LOOP;

    SELECT array_agg(p.oid::regprocedure::text) INTO names
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname IN ('js', 'js_data')
      AND NOT EXISTS (SELECT 1 FROM pg_depend d
                      WHERE d.refclassid = 'pg_proc'::regclass AND d.refobjid = p.oid
                        AND d.classid IN ('pg_constraint'::regclass, 'pg_attrdef'::regclass, 'pg_class'::regclass));
    FOREACH x IN ARRAY coalesce(names, '{}') LOOP
        EXECUTE 'DROP FUNCTION IF EXISTS ' || x || ' CASCADE';
    END LOOP;

    SELECT array_agg(format('%I.%I', n.nspname, t.typname)) INTO names
    FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace JOIN pg_class c ON c.oid = t.typrelid
    WHERE n.nspname IN ('js', 'js_data') AND c.relkind = 'c';
    FOREACH x IN ARRAY coalesce(names, '{}') LOOP
        EXECUTE 'DROP TYPE IF EXISTS ' || x || ' CASCADE';
    END LOOP;
END $$;
