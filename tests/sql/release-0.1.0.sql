-- The schema of release 0.1.0 (schema version 33: migrations 001-033 of commit c136c83), as
-- pg_dump --no-owner --no-privileges wrote it: tests/integration/51 upgrades a database loaded
-- from it and compares it with one migrated from nothing. History: never edited.
--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: js; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA js;


--
-- Name: SCHEMA js; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON SCHEMA js IS 'jobscreen views: the contract for the web CGI, admins and reports';


--
-- Name: js_data; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA js_data;


--
-- Name: SCHEMA js_data; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON SCHEMA js_data IS 'jobscreen tables, written by profile_ingest; read through the views in schema js';


--
-- Name: application(text, text, text); Type: FUNCTION; Schema: js; Owner: -
--

CREATE FUNCTION js.application(p_step_id text, p_executable text, p_job_name text) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $$
    SELECT CASE WHEN p_step_id = 'batch' THEN 'batch:' || coalesce(p_job_name, '?')
                ELSE coalesce(nullif(regexp_replace(p_executable, '^.*/', ''), ''), 'step ' || p_step_id) END $$;


--
-- Name: FUNCTION application(p_step_id text, p_executable text, p_job_name text); Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON FUNCTION js.application(p_step_id text, p_executable text, p_job_name text) IS 'application of a step: base name of its executable, or batch:<job name> for the batch step';


--
-- Name: series_chunk_of(bigint); Type: FUNCTION; Schema: js; Owner: -
--

CREATE FUNCTION js.series_chunk_of(p_slice bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$SELECT p_slice - ((p_slice % 900) + 900) % 900$$;


--
-- Name: FUNCTION series_chunk_of(p_slice bigint); Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON FUNCTION js.series_chunk_of(p_slice bigint) IS 'first slice of the chunk (of 900 slices) that holds a slice, as js_data.series_chunk_of: for readers without access to js_data (the web CGI)';


--
-- Name: series_decode(bytea, integer); Type: FUNCTION; Schema: js; Owner: -
--

CREATE FUNCTION js.series_decode(p bytea, p_n integer) RETURNS bigint[]
    LANGUAGE sql IMMUTABLE SECURITY DEFINER PARALLEL SAFE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$SELECT js_data.series_decode(p, p_n)$$;


--
-- Name: FUNCTION series_decode(p bytea, p_n integer); Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON FUNCTION js.series_decode(p bytea, p_n integer) IS 'the p_n values of an encoded series of the js.series_* views (docs/schema.md, "Series")';


--
-- Name: small_file_bytes(); Type: FUNCTION; Schema: js; Owner: -
--

CREATE FUNCTION js.small_file_bytes() RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $$ SELECT 65536::bigint $$;


--
-- Name: FUNCTION small_file_bytes(); Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON FUNCTION js.small_file_bytes() IS 'a file a step moved fewer bytes of than this (read + written, per node) is a small file';


--
-- Name: time_edge_window(); Type: FUNCTION; Schema: js; Owner: -
--

CREATE FUNCTION js.time_edge_window() RETURNS interval
    LANGUAGE sql IMMUTABLE
    AS $$ SELECT interval '60 seconds' $$;


--
-- Name: FUNCTION time_edge_window(); Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON FUNCTION js.time_edge_window() IS 'longest gap between the end of one job and the start of the next that makes a time edge';


--
-- Name: add_quarantine(smallint, bigint, text, text, text, text, text); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.add_quarantine(p_cluster smallint, p_job bigint, p_step text, p_node text, p_file text, p_moved_to text, p_reason text) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO js_data.quarantine (cluster_id, job_id, step_id, node, file, moved_to, reason)
        VALUES (p_cluster, p_job, p_step, p_node, p_file, p_moved_to, p_reason)
        ON CONFLICT (cluster_id, job_id, step_id, node, file) DO UPDATE SET
            moved_to = excluded.moved_to, reason = excluded.reason, at = now() $$;


--
-- Name: FUNCTION add_quarantine(p_cluster smallint, p_job bigint, p_step text, p_node text, p_file text, p_moved_to text, p_reason text); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.add_quarantine(p_cluster smallint, p_job bigint, p_step text, p_node text, p_file text, p_moved_to text, p_reason text) IS 'log a quarantined file';


--
-- Name: apply_job_retention(interval, boolean, timestamp with time zone); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.apply_job_retention(p_keep interval DEFAULT NULL::interval, p_dry_run boolean DEFAULT false, p_now timestamp with time zone DEFAULT now()) RETURNS TABLE(item text, rows bigint)
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_keep interval := coalesce(p_keep, (SELECT job_keep FROM js_data.retention_settings));
    t record;
    n bigint;
BEGIN
    IF v_keep IS NULL THEN
        RETURN; /* kept forever */
    END IF;
    IF v_keep < interval '1 day' THEN
        RAISE EXCEPTION 'apply_job_retention: keep % is shorter than a day', v_keep;
    END IF;
    CREATE TEMP TABLE IF NOT EXISTS retention_old_jobs (cluster_id smallint, job_id bigint, PRIMARY KEY (cluster_id, job_id))
        ON COMMIT DROP;
    TRUNCATE retention_old_jobs;
    INSERT INTO retention_old_jobs
        SELECT j.cluster_id, j.job_id FROM js_data.jobs j WHERE j.end_time < p_now - v_keep;
    ANALYZE retention_old_jobs;
    FOR t IN SELECT c.table_name::text AS name
             FROM information_schema.columns c
             JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
             WHERE c.table_schema = 'js_data' AND c.column_name = 'job_id' AND tb.table_type = 'BASE TABLE'
               AND c.table_name <> 'jobs' AND c.table_name <> 'quarantine'
               AND NOT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class k ON k.oid = i.inhrelid
                               WHERE k.relname = c.table_name AND k.relnamespace = 'js_data'::regnamespace)
               AND EXISTS (SELECT 1 FROM information_schema.columns c2 WHERE c2.table_schema = 'js_data'
                           AND c2.table_name = c.table_name AND c2.column_name = 'cluster_id')
             ORDER BY 1 LOOP
        IF p_dry_run THEN
            EXECUTE format('SELECT count(*) FROM js_data.%I x JOIN retention_old_jobs o USING (cluster_id, job_id)', t.name) INTO n;
        ELSE
            EXECUTE format('DELETE FROM js_data.%I x USING retention_old_jobs o WHERE x.cluster_id = o.cluster_id AND x.job_id = o.job_id', t.name);
            GET DIAGNOSTICS n = ROW_COUNT;
        END IF;
        item := t.name; rows := n;
        IF n > 0 THEN RETURN NEXT; END IF;
    END LOOP;
    /* the tables keyed by two jobs: an edge or a reference goes with either end */
    IF p_dry_run THEN
        SELECT count(*) INTO n FROM js_data.dependencies d WHERE EXISTS (SELECT 1 FROM retention_old_jobs o
            WHERE o.cluster_id = d.cluster_id AND o.job_id IN (d.from_job, d.to_job));
    ELSE
        DELETE FROM js_data.dependencies d USING retention_old_jobs o
            WHERE o.cluster_id = d.cluster_id AND o.job_id IN (d.from_job, d.to_job);
        GET DIAGNOSTICS n = ROW_COUNT;
    END IF;
    item := 'dependencies'; rows := n;
    IF n > 0 THEN RETURN NEXT; END IF;
    IF p_dry_run THEN
        SELECT count(*) INTO n FROM js_data.dependency_refs d WHERE EXISTS (SELECT 1 FROM retention_old_jobs o
            WHERE o.cluster_id = d.cluster_id AND o.job_id = d.to_job);
    ELSE
        DELETE FROM js_data.dependency_refs d USING retention_old_jobs o WHERE o.cluster_id = d.cluster_id AND o.job_id = d.to_job;
        GET DIAGNOSTICS n = ROW_COUNT;
    END IF;
    item := 'dependency_refs'; rows := n;
    IF n > 0 THEN RETURN NEXT; END IF;
    /* the jobs themselves (their trigger summarises their workflows again) */
    IF p_dry_run THEN
        SELECT count(*) INTO n FROM retention_old_jobs;
    ELSE
        DELETE FROM js_data.jobs j USING retention_old_jobs o WHERE j.cluster_id = o.cluster_id AND j.job_id = o.job_id;
        GET DIAGNOSTICS n = ROW_COUNT;
    END IF;
    item := 'jobs'; rows := n;
    IF n > 0 THEN RETURN NEXT; END IF;
    IF p_dry_run THEN
        RETURN; /* what the deletions would leave behind is not counted ahead */
    END IF;
    /* what no job holds any more */
    DELETE FROM js_data.workflows w
        WHERE NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = w.cluster_id AND j.workflow_id = w.workflow_id);
    GET DIAGNOSTICS n = ROW_COUNT;
    item := 'workflows'; rows := n;
    IF n > 0 THEN RETURN NEXT; END IF;
    DELETE FROM js_data.files f
        WHERE NOT EXISTS (SELECT 1 FROM js_data.file_accesses a WHERE a.cluster_id = f.cluster_id AND a.file_id = f.file_id)
          AND NOT EXISTS (SELECT 1 FROM js_data.dependencies d WHERE d.cluster_id = f.cluster_id AND d.file_id = f.file_id);
    GET DIAGNOSTICS n = ROW_COUNT;
    item := 'files'; rows := n;
    IF n > 0 THEN RETURN NEXT; END IF;
END $$;


--
-- Name: FUNCTION apply_job_retention(p_keep interval, p_dry_run boolean, p_now timestamp with time zone); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.apply_job_retention(p_keep interval, p_dry_run boolean, p_now timestamp with time zone) IS 'remove the jobs that ended before p_now minus the kept age (default js_data.retention_settings.job_keep; NULL: none) with everything they hold, then the workflows and files left without them; p_dry_run: count only';


--
-- Name: apply_retention(interval, boolean, timestamp with time zone); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.apply_retention(p_keep interval DEFAULT NULL::interval, p_dry_run boolean DEFAULT false, p_now timestamp with time zone DEFAULT now()) RETURNS TABLE(partition text, parent text, first_slice bigint, end_slice bigint, rows_dropped bigint, action text)
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_keep interval := coalesce(p_keep, (SELECT slice_keep FROM js_data.retention_settings));
    v_cutoff double precision;
    v_min_len integer := (SELECT coalesce(min(slice_seconds), 4) FROM js_data.clusters);
    v_max_len integer := (SELECT coalesce(max(slice_seconds), 4) FROM js_data.clusters);
    v_horizon bigint;
    r record;
BEGIN
    IF v_keep IS NULL OR v_keep < interval '1 day' THEN
        RAISE EXCEPTION 'apply_retention: keep % is shorter than a day', v_keep;
    END IF;
    v_cutoff := extract(epoch FROM p_now - v_keep);
    PERFORM pg_advisory_xact_lock(hashtext('jobscreen partitions'));
    FOR r IN SELECT p.first_slice AS lo, p.end_slice AS hi
             FROM js.slice_partitions p
             WHERE p.end_slice::double precision * v_max_len <= v_cutoff
             GROUP BY p.first_slice, p.end_slice ORDER BY p.first_slice LOOP
        IF NOT p_dry_run THEN
            -- the rollup of every day this range touches, while its detail is still here
            PERFORM js_data.rollup_usage((to_timestamp(r.lo * v_min_len) AT TIME ZONE 'UTC')::date,
                                         (to_timestamp(r.hi * v_max_len - 1) AT TIME ZONE 'UTC')::date);
        END IF;
        FOR partition, parent IN SELECT p.partition, p.parent FROM js.slice_partitions p
                WHERE p.first_slice = r.lo AND p.end_slice = r.hi ORDER BY p.parent LOOP
            first_slice := r.lo;
            end_slice := r.hi;
            EXECUTE format('SELECT count(*) FROM js_data.%I', partition) INTO rows_dropped;
            IF p_dry_run THEN
                action := 'would drop';
            ELSE
                EXECUTE format('DROP TABLE js_data.%I', partition);
                INSERT INTO js_data.retention_log (partition, parent, first_slice, end_slice, rows_dropped)
                    VALUES (partition, parent, r.lo, r.hi, rows_dropped);
                action := 'dropped';
            END IF;
            RETURN NEXT;
        END LOOP;
        v_horizon := greatest(v_horizon, r.hi);
    END LOOP;
    IF v_horizon IS NOT NULL AND NOT p_dry_run THEN
        INSERT INTO js_data.slice_horizon (slice) VALUES (v_horizon)
            ON CONFLICT (only_row) DO UPDATE SET slice = greatest(slice_horizon.slice, excluded.slice), updated = now();
    END IF;
END $$;


--
-- Name: FUNCTION apply_retention(p_keep interval, p_dry_run boolean, p_now timestamp with time zone); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.apply_retention(p_keep interval, p_dry_run boolean, p_now timestamp with time zone) IS 'drop the per-slice partitions older than p_now minus the kept age (default js_data.retention_settings.slice_keep) after rolling up their days; p_dry_run: only list them';


--
-- Name: apply_retention_all(boolean, timestamp with time zone); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.apply_retention_all(p_dry_run boolean DEFAULT false, p_now timestamp with time zone DEFAULT now()) RETURNS TABLE(class text, item text, rows bigint, action text)
    LANGUAGE plpgsql
    AS $$
DECLARE
    s js_data.retention_settings;
    r record;
BEGIN
    SELECT * INTO s FROM js_data.retention_settings;
    action := CASE WHEN p_dry_run THEN 'would remove' ELSE 'removed' END;
    FOR r IN SELECT * FROM js_data.apply_retention(NULL, p_dry_run, p_now) LOOP
        class := 'slices'; item := r.partition; rows := r.rows_dropped;
        PERFORM js_data.retention_note(p_dry_run, class, item, rows, p_now - s.slice_keep);
        RETURN NEXT;
    END LOOP;
    FOR r IN SELECT * FROM js_data.apply_job_retention(NULL, p_dry_run, p_now) LOOP
        class := 'jobs'; item := r.item; rows := r.rows;
        PERFORM js_data.retention_note(p_dry_run, class, item, rows, p_now - s.job_keep);
        RETURN NEXT;
    END LOOP;
    IF s.quarantine_keep IS NOT NULL THEN
        class := 'quarantine'; item := 'quarantine';
        IF p_dry_run THEN
            SELECT count(*) INTO rows FROM js_data.quarantine q WHERE q.at < p_now - s.quarantine_keep;
        ELSE
            DELETE FROM js_data.quarantine q WHERE q.at < p_now - s.quarantine_keep;
            GET DIAGNOSTICS rows = ROW_COUNT;
        END IF;
        IF rows > 0 THEN
            PERFORM js_data.retention_note(p_dry_run, class, item, rows, p_now - s.quarantine_keep);
            RETURN NEXT;
        END IF;
    END IF;
    IF s.rollup_keep IS NOT NULL THEN
        class := 'rollups'; item := 'usage_daily';
        IF p_dry_run THEN
            SELECT count(*) INTO rows FROM js_data.usage_daily u WHERE u.day < (p_now - s.rollup_keep)::date;
        ELSE
            DELETE FROM js_data.usage_daily u WHERE u.day < (p_now - s.rollup_keep)::date;
            GET DIAGNOSTICS rows = ROW_COUNT;
        END IF;
        IF rows > 0 THEN
            PERFORM js_data.retention_note(p_dry_run, class, item, rows, p_now - s.rollup_keep);
            RETURN NEXT;
        END IF;
    END IF;
END $$;


--
-- Name: FUNCTION apply_retention_all(p_dry_run boolean, p_now timestamp with time zone); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.apply_retention_all(p_dry_run boolean, p_now timestamp with time zone) IS 'apply every retention setting of js_data.retention_settings (slices, jobs, quarantine, rollups); p_dry_run: count only; profile_ingest --retention runs it and logs the result in js_data.retention_runs';


--
-- Name: cluster_id(text, integer); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.cluster_id(p_name text, p_slice_seconds integer) RETURNS smallint
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: FUNCTION cluster_id(p_name text, p_slice_seconds integer); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.cluster_id(p_name text, p_slice_seconds integer) IS 'id of a cluster by name, inserted on first sight';


--
-- Name: create_staging(); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.create_staging() RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS ingest_files (
        path text NOT NULL,
        scope text NOT NULL,
        fs_type text,
        mode text NOT NULL,
        processes integer NOT NULL,
        opens bigint NOT NULL,
        reads bigint NOT NULL,
        writes bigint NOT NULL,
        bytes_read bigint NOT NULL,
        bytes_written bigint NOT NULL,
        first_access_ns bigint NOT NULL,
        last_access_ns bigint NOT NULL,
        first_read_ns bigint,
        last_write_ns bigint,
        interfaces text NOT NULL,
        dev bigint,
        ino bigint
    );  -- emptied by ingest_finish: ON COMMIT DELETE ROWS would truncate it at every commit (1-2 ms)
END $$;


--
-- Name: FUNCTION create_staging(); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.create_staging() IS 'create the per-session staging table ingest_files that profile_ingest fills by COPY';


--
-- Name: ensure_slice_partitions(bigint, bigint); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.ensure_slice_partitions(first bigint, last bigint) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    w bigint := js_data.slice_partition_width();
    p bigint;
    made integer := 0;
    t text;
BEGIN
    IF last < first OR last - first > 100 * w THEN
        RAISE EXCEPTION 'slice range % .. % is not plausible', first, last;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('jobscreen partitions'));
    p := first - (((first % w) + w) % w);
    WHILE p <= last LOOP
        FOREACH t IN ARRAY ARRAY['series_step_node', 'series_step', 'series_node', 'series_cluster'] LOOP
            IF to_regclass(format('js_data.%I', t || '_p' || replace(p::text, '-', 'm'))) IS NULL THEN
                EXECUTE format('CREATE TABLE js_data.%I PARTITION OF js_data.%I FOR VALUES FROM (%s) TO (%s)',
                               t || '_p' || replace(p::text, '-', 'm'), t, p, p + w);
                made := made + 1;
            END IF;
        END LOOP;
        p := p + w;
    END LOOP;
    RETURN made;
END $$;


--
-- Name: FUNCTION ensure_slice_partitions(first bigint, last bigint); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.ensure_slice_partitions(first bigint, last bigint) IS 'create the missing partitions (named TABLE_p<first slice>) of the per-slice tables for a slice range';


--
-- Name: grant_reporting(name); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.grant_reporting(p_role name) RETURNS void
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: FUNCTION grant_reporting(p_role name); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.grant_reporting(p_role name) IS 'grant a role read access to the views and functions of schema js (now and for later migrations), and nothing in js_data';


--
-- Name: incomplete_reason(smallint, bigint, text, text); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.incomplete_reason(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS text
    LANGUAGE sql STABLE
    AS $$
    WITH parts AS (
        SELECT 0 AS kind, count(*) AS n, q.reason AS what FROM js_data.quarantine q
        WHERE q.cluster_id = p_cluster AND q.job_id = p_job AND q.step_id = p_step AND (p_node IS NULL OR q.node = p_node)
        GROUP BY q.reason
        UNION ALL
        SELECT 1, sum(sn.unrecorded), sn.unrecorded_reason FROM js_data.step_nodes sn
        WHERE sn.cluster_id = p_cluster AND sn.job_id = p_job AND sn.step_id = p_step AND (p_node IS NULL OR sn.node = p_node)
          AND sn.unrecorded > 0
        GROUP BY sn.unrecorded_reason
        UNION ALL
        SELECT 2, count(*), p.missing FROM js_data.processes p
        WHERE p.cluster_id = p_cluster AND p.job_id = p_job AND p.step_id = p_step AND (p_node IS NULL OR p.node = p_node)
          AND p.missing <> ''
        GROUP BY p.missing
    ), ranked AS (
        SELECT kind, n, what, row_number() OVER (ORDER BY kind, n DESC, what) AS i, count(*) OVER () AS total FROM parts
    )
    SELECT nullif(concat_ws('; ',
               string_agg(n || CASE kind
                                   WHEN 0 THEN CASE WHEN n = 1 THEN ' profile quarantined: ' ELSE ' profiles quarantined: ' END || what
                                   WHEN 1 THEN CASE WHEN n = 1 THEN ' process not recorded' ELSE ' processes not recorded' END
                                               || coalesce(': ' || nullif(what, ''), '')
                                   ELSE CASE WHEN n = 1 THEN ' process: ' ELSE ' processes: ' END || what END,
                          '; ' ORDER BY i) FILTER (WHERE i <= 5),
               CASE WHEN max(total) > 5 THEN (max(total) - 5) || ' more reasons' END), '')
    FROM ranked $$;


--
-- Name: FUNCTION incomplete_reason(p_cluster smallint, p_job bigint, p_step text, p_node text); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.incomplete_reason(p_cluster smallint, p_job bigint, p_step text, p_node text) IS 'what is missing of a step on a node (or of the whole step: node NULL), in words: profiles quarantined, processes not recorded, processes with something missing; NULL when nothing';


--
-- Name: ingest_begin(smallint, jsonb, jsonb, integer, integer, text); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.ingest_begin(p_cluster smallint, p_job jsonb, p_step jsonb, p_profiles integer, p_quarantined integer, p_by text) RETURNS text
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext(p_cluster || '/' || (p_step->>'job_id')),
                                     hashtext((p_step->>'step') || '/' || (p_step->>'node'))) THEN
        RETURN 'busy';
    END IF;
    IF p_job IS NOT NULL THEN
        PERFORM js_data.ingest_job(p_cluster, p_job);
    END IF;
    IF NOT js_data.ingest_step_node(p_cluster, p_step, p_profiles, p_quarantined, p_by) THEN
        RETURN 'done';
    END IF;
    PERFORM js_data.live_clear(p_cluster, (p_step->>'job_id')::bigint, p_step->>'step', p_step->>'node');
    RETURN 'ok';
END $$;


--
-- Name: FUNCTION ingest_begin(p_cluster smallint, p_job jsonb, p_step jsonb, p_profiles integer, p_quarantined integer, p_by text); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.ingest_begin(p_cluster smallint, p_job jsonb, p_step jsonb, p_profiles integer, p_quarantined integer, p_by text) IS 'claim a step record, upsert its job, insert its exactly-once key (and delete the step-node''s provisional rows): ok, busy or done';


--
-- Name: ingest_finish(smallint, bigint, text, text, text[]); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.ingest_finish(p_cluster smallint, p_job bigint, p_step text, p_node text, p_no_edge_prefixes text[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO js_data.files (cluster_id, path, node, scope, fs_type)
        SELECT DISTINCT ON (f.path, n) p_cluster, f.path, n, f.scope, f.fs_type
        FROM ingest_files f, LATERAL (SELECT CASE WHEN f.scope = 'local' THEN p_node ELSE '' END AS n) x
        ORDER BY f.path, n
        ON CONFLICT (cluster_id, path, node) DO NOTHING;
    INSERT INTO js_data.file_accesses (cluster_id, job_id, step_id, node, file_id, mode, processes, opens,
            reads, writes, bytes_read, bytes_written, first_access, last_access, first_read, last_write, interfaces, dev, ino)
        SELECT p_cluster, p_job, p_step, p_node, fi.file_id, f.mode, f.processes, f.opens, f.reads, f.writes,
            f.bytes_read, f.bytes_written, js_data.ns_to_time(f.first_access_ns), js_data.ns_to_time(f.last_access_ns),
            js_data.ns_to_time(f.first_read_ns), js_data.ns_to_time(f.last_write_ns), f.interfaces, f.dev, f.ino
        FROM ingest_files f
        CROSS JOIN LATERAL (
            SELECT fi.file_id FROM js_data.files fi
            WHERE fi.cluster_id = p_cluster AND fi.path = f.path
              AND fi.node = CASE WHEN f.scope = 'local' THEN p_node ELSE '' END
            LIMIT 1) fi;

    -- what this step read: an edge from the last writer before each read, when another job's
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, from_step, to_job, to_step, file_id, from_time, to_time)
        SELECT p_cluster, 'file', w.job_id, w.step_id, r.job_id, r.step_id, r.file_id, max(w.last_write), min(r.first_read)
        FROM js_data.file_accesses r
        JOIN js_data.files fi ON fi.cluster_id = r.cluster_id AND fi.file_id = r.file_id
        CROSS JOIN LATERAL js_data.last_writer(r.cluster_id, r.file_id, r.first_read) w
        WHERE r.cluster_id = p_cluster AND r.job_id = p_job AND r.step_id = p_step AND r.node = p_node
          AND r.first_read IS NOT NULL AND w.job_id <> r.job_id
          AND NOT EXISTS (SELECT 1 FROM unnest(p_no_edge_prefixes) pre WHERE starts_with(fi.path, pre))
        GROUP BY w.job_id, w.step_id, r.job_id, r.step_id, r.file_id
        ON CONFLICT (cluster_id, to_job, kind, from_job, from_step, to_step, file_id) DO UPDATE SET
            from_time = greatest(dependencies.from_time, excluded.from_time),
            to_time = least(dependencies.to_time, excluded.to_time);

    -- what this step wrote: the reads after it whose last writer it now is (a writer ingested
    -- after its readers) get their edge from it, and the edges from the writers it supersedes go
    CREATE TEMP TABLE IF NOT EXISTS finish_readers (job_id bigint, step_id text, file_id bigint,
        first_read timestamptz, last_write timestamptz);
    DELETE FROM finish_readers;
    INSERT INTO finish_readers
        SELECT r.job_id, r.step_id, r.file_id, r.first_read, w.last_write
        FROM js_data.file_accesses w
        JOIN js_data.files fi ON fi.cluster_id = w.cluster_id AND fi.file_id = w.file_id
        JOIN js_data.file_accesses r ON r.cluster_id = w.cluster_id AND r.file_id = w.file_id
        CROSS JOIN LATERAL js_data.last_writer(r.cluster_id, r.file_id, r.first_read) lw
        WHERE w.cluster_id = p_cluster AND w.job_id = p_job AND w.step_id = p_step AND w.node = p_node
          AND w.last_write IS NOT NULL AND r.first_read IS NOT NULL AND w.last_write <= r.first_read
          AND lw.job_id = w.job_id AND lw.step_id = w.step_id
          AND NOT (r.job_id = w.job_id AND r.step_id = w.step_id)
          AND NOT EXISTS (SELECT 1 FROM unnest(p_no_edge_prefixes) pre WHERE starts_with(fi.path, pre));
    -- usually none (readers come after their writer): then the edges are left alone (the
    -- delete's plan, made for a temporary table without statistics, read every file edge)
    IF FOUND THEN
        DELETE FROM js_data.dependencies d USING finish_readers f
            WHERE d.cluster_id = p_cluster AND d.to_job = f.job_id AND d.kind = 'file' AND d.file_id = f.file_id
              AND d.to_step = f.step_id AND d.from_time < f.last_write
              AND NOT (d.from_job = p_job AND d.from_step = p_step);
        INSERT INTO js_data.dependencies (cluster_id, kind, from_job, from_step, to_job, to_step, file_id, from_time, to_time)
            SELECT p_cluster, 'file', p_job, p_step, f.job_id, f.step_id, f.file_id, max(f.last_write), min(f.first_read)
            FROM finish_readers f
            WHERE f.job_id <> p_job
            GROUP BY f.job_id, f.step_id, f.file_id
            ON CONFLICT (cluster_id, to_job, kind, from_job, from_step, to_step, file_id) DO UPDATE SET
                from_time = greatest(dependencies.from_time, excluded.from_time),
                to_time = least(dependencies.to_time, excluded.to_time);
    END IF;

    -- a file edge explains a start: the time edges of the jobs that have one now go
    PERFORM js_data.unlink_by_time(p_cluster, array_append(ARRAY(SELECT DISTINCT job_id FROM finish_readers), p_job));

    -- the slice totals: queued, folded in batches by js_data.rollup_totals()
    INSERT INTO js_data.totals_pending (cluster_id, job_id, step_id, node) VALUES (p_cluster, p_job, p_step, p_node);
    DELETE FROM ingest_files;

    PERFORM js_data.merge_workflows(p_cluster, d.from_job)
        FROM js_data.dependencies d
        WHERE d.cluster_id = p_cluster AND d.kind = 'file' AND d.to_job = p_job AND d.to_step = p_step;
    PERFORM js_data.merge_workflows(p_cluster, p_job);
END $$;


--
-- Name: FUNCTION ingest_finish(p_cluster smallint, p_job bigint, p_step text, p_node text, p_no_edge_prefixes text[]); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.ingest_finish(p_cluster smallint, p_job bigint, p_step text, p_node text, p_no_edge_prefixes text[]) IS 'after the COPYs of one step record: files, accesses, file edges (from the last write before each read), queue for the slice totals, workflow merges';


--
-- Name: ingest_incomplete(smallint, bigint, text, text); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.ingest_incomplete(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_reason text := js_data.incomplete_reason(p_cluster, p_job, p_step, p_node);
BEGIN
    IF v_reason IS NULL THEN
        RETURN;
    END IF;
    UPDATE js_data.step_nodes SET incomplete = true, incomplete_reason = v_reason
        WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
    UPDATE js_data.steps SET incomplete = true, incomplete_reason = js_data.incomplete_reason(p_cluster, p_job, p_step, NULL)
        WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step;
END $$;


--
-- Name: FUNCTION ingest_incomplete(p_cluster smallint, p_job bigint, p_step text, p_node text); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.ingest_incomplete(p_cluster smallint, p_job bigint, p_step text, p_node text) IS 'mark a step-node and its step incomplete with the reason, when a profile was refused, has something missing, or processes were not recorded';


--
-- Name: ingest_job(smallint, jsonb); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.ingest_job(p_cluster smallint, r jsonb) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_job bigint := (r->>'job_id')::bigint;
    v_uid integer := (r->>'uid')::integer;
    v_old jsonb;
    v_tag text;
    v_wf bigint;
    d jsonb;
BEGIN
    SELECT record INTO v_old FROM js_data.jobs WHERE cluster_id = p_cluster AND job_id = v_job FOR UPDATE;
    IF v_old IS NOT NULL THEN
        IF (v_old->>'written_ns')::bigint > (r->>'written_ns')::bigint THEN
            r := js_data.job_record_keep(v_old, r);
        ELSE
            r := js_data.job_record_keep(r, v_old);
        END IF;
    END IF;
    v_tag := r->>'workflow';
    IF r->>'user' IS NOT NULL THEN
        INSERT INTO js_data.users (cluster_id, uid, name) VALUES (p_cluster, v_uid, r->>'user')
            ON CONFLICT (cluster_id, uid) DO UPDATE SET name = excluded.name
            WHERE users.name IS DISTINCT FROM excluded.name;
    END IF;
    IF v_tag IS NOT NULL THEN
        INSERT INTO js_data.workflows (cluster_id, uid, tag, name) VALUES (p_cluster, v_uid, v_tag, v_tag)
            ON CONFLICT (cluster_id, uid, tag) WHERE tag IS NOT NULL DO NOTHING;
        SELECT workflow_id INTO v_wf FROM js_data.workflows
            WHERE cluster_id = p_cluster AND uid = v_uid AND tag = v_tag;
    ELSE
        SELECT workflow_id INTO v_wf FROM js_data.jobs WHERE cluster_id = p_cluster AND job_id = v_job;
        IF v_wf IS NULL THEN
            INSERT INTO js_data.workflows (cluster_id, uid, tag, name)
                VALUES (p_cluster, v_uid, NULL, coalesce(r->>'name', 'job ' || v_job))
                RETURNING workflow_id INTO v_wf;
        END IF;
    END IF;
    INSERT INTO js_data.jobs AS j (cluster_id, job_id, uid, gid, name, partition, account, workflow_tag,
            workflow_id, submit_time, start_time, end_time, state, exit_code, num_nodes, num_cpus,
            num_tasks, nodelist, dependency, work_dir, record, updated, array_job_id, array_task_id, reason)
        VALUES (p_cluster, v_job, v_uid, (r->>'gid')::integer, r->>'name', r->>'partition', r->>'account',
            v_tag, v_wf, js_data.ns_to_time((r->>'submit_ns')::bigint), js_data.ns_to_time((r->>'start_ns')::bigint),
            js_data.ns_to_time((r->>'end_ns')::bigint), r->>'state', (r->>'exit_code')::integer,
            (r->>'nodes')::integer, (r->>'cpus')::integer, (r->>'tasks')::integer, r->>'node_list',
            r->>'dependency', r->>'work_dir', r, now(), (r->>'array_job_id')::bigint,
            (r->>'array_task_id')::integer, r->>'reason')
        ON CONFLICT (cluster_id, job_id) DO UPDATE SET
            uid = excluded.uid, gid = excluded.gid, name = excluded.name, partition = excluded.partition,
            account = excluded.account, workflow_tag = excluded.workflow_tag,
            workflow_id = CASE WHEN excluded.workflow_tag IS NULL THEN j.workflow_id ELSE excluded.workflow_id END,
            submit_time = excluded.submit_time, start_time = excluded.start_time, end_time = excluded.end_time,
            state = excluded.state, exit_code = excluded.exit_code, num_nodes = excluded.num_nodes,
            num_cpus = excluded.num_cpus, num_tasks = excluded.num_tasks, nodelist = excluded.nodelist,
            dependency = excluded.dependency, work_dir = excluded.work_dir, record = excluded.record,
            updated = now(), array_job_id = excluded.array_job_id, array_task_id = excluded.array_task_id,
            reason = excluded.reason
        WHERE j.record IS DISTINCT FROM excluded.record;
    -- the workflow made above is not needed when the job already had one
    DELETE FROM js_data.workflows w WHERE w.cluster_id = p_cluster AND w.workflow_id = v_wf AND w.tag IS NULL
        AND NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = p_cluster AND j.workflow_id = v_wf);
    FOR d IN SELECT * FROM jsonb_array_elements(coalesce(r->'dependencies', '[]'::jsonb)) LOOP
        IF d->>'job_id' IS NOT NULL THEN
            INSERT INTO js_data.dependency_refs (cluster_id, to_job, ref_job, ref_task, condition)
                VALUES (p_cluster, v_job, (d->>'job_id')::bigint, (d->>'array_task_id')::integer, d->>'type')
                ON CONFLICT DO NOTHING;
        END IF;
    END LOOP;
    PERFORM js_data.link_scheduler_edges(p_cluster, v_job);
    PERFORM js_data.merge_workflows(p_cluster, v_job);
END $$;


--
-- Name: FUNCTION ingest_job(p_cluster smallint, r jsonb); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.ingest_job(p_cluster smallint, r jsonb) IS 'upsert a job from its record: user, workflow, scheduler edges';


--
-- Name: ingest_mapped(smallint, bigint, text, text, text[], boolean[], bigint[]); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.ingest_mapped(p_cluster smallint, p_job bigint, p_step text, p_node text, p_paths text[], p_local boolean[], p_bytes bigint[]) RETURNS void
    LANGUAGE sql
    AS $$
    UPDATE js_data.file_accesses a SET mapped_bytes = m.bytes
    FROM unnest(p_paths, p_local, p_bytes) AS m(path, is_local, bytes)
    JOIN js_data.files fi ON fi.cluster_id = p_cluster AND fi.path = m.path
        AND fi.node = CASE WHEN m.is_local THEN p_node ELSE '' END
    WHERE a.cluster_id = p_cluster AND a.job_id = p_job AND a.step_id = p_step AND a.node = p_node
      AND a.file_id = fi.file_id
$$;


--
-- Name: FUNCTION ingest_mapped(p_cluster smallint, p_job bigint, p_step text, p_node text, p_paths text[], p_local boolean[], p_bytes bigint[]); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.ingest_mapped(p_cluster smallint, p_job bigint, p_step text, p_node text, p_paths text[], p_local boolean[], p_bytes bigint[]) IS 'the mapped bytes of a step record''s files, in its transaction after ingest_finish (profile_ingest)';


--
-- Name: ingest_step_node(smallint, jsonb, integer, integer, text); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.ingest_step_node(p_cluster smallint, r jsonb, p_profiles integer, p_quarantined integer, p_by text) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
DECLARE
    v_job bigint := (r->>'job_id')::bigint;
    v_step text := r->>'step';
    v_node text := r->>'node';
    v_len bigint := (r->>'slice_seconds')::bigint;
    v_first bigint := floor((r->>'start_ns')::numeric / 1e9 / v_len);
    v_last bigint := floor((r->>'end_ns')::numeric / 1e9 / v_len);
    v_incomplete boolean := p_quarantined > 0;
BEGIN
    INSERT INTO js_data.step_nodes (cluster_id, job_id, step_id, node, start_time, end_time, state,
            exit_code, num_tasks, profiles, quarantined, incomplete, record, ingested_by)
        VALUES (p_cluster, v_job, v_step, v_node, js_data.ns_to_time((r->>'start_ns')::bigint),
            js_data.ns_to_time((r->>'end_ns')::bigint), r->>'state', (r->>'exit_code')::integer,
            (r->>'local_tasks')::integer, p_profiles, p_quarantined, v_incomplete, r, p_by)
        ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO js_data.steps AS s (cluster_id, job_id, step_id, name, start_time, end_time, state, exit_code,
            num_nodes, num_tasks, num_cpus, nodelist, profiled, first_slice, last_slice, nodes_ingested, incomplete)
        VALUES (p_cluster, v_job, v_step, r->>'executable', js_data.ns_to_time((r->>'start_ns')::bigint),
            js_data.ns_to_time((r->>'end_ns')::bigint), r->>'state', (r->>'exit_code')::integer,
            (r->>'nodes')::integer, (r->>'tasks')::integer, (r->>'cpus')::integer, r->>'node_list',
            (r->>'profiled')::boolean, v_first, v_last, 1, v_incomplete)
        ON CONFLICT (cluster_id, job_id, step_id) DO UPDATE SET
            start_time = least(s.start_time, excluded.start_time),
            end_time = greatest(s.end_time, excluded.end_time),
            state = CASE WHEN s.state = 'COMPLETED' THEN excluded.state ELSE s.state END,
            exit_code = greatest(s.exit_code, excluded.exit_code),
            num_cpus = coalesce(s.num_cpus, 0) + coalesce(excluded.num_cpus, 0),
            profiled = s.profiled OR excluded.profiled,
            first_slice = least(s.first_slice, excluded.first_slice),
            last_slice = greatest(s.last_slice, excluded.last_slice),
            nodes_ingested = s.nodes_ingested + 1,
            incomplete = s.incomplete OR excluded.incomplete;
    RETURN true;
END $$;


--
-- Name: FUNCTION ingest_step_node(p_cluster smallint, r jsonb, p_profiles integer, p_quarantined integer, p_by text); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.ingest_step_node(p_cluster smallint, r jsonb, p_profiles integer, p_quarantined integer, p_by text) IS 'insert the exactly-once key of a step record and merge the step; false when already ingested';


--
-- Name: ingest_step_sums(smallint, bigint, text, text); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.ingest_step_sums(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS void
    LANGUAGE sql
    AS $$
    UPDATE js_data.steps s SET
        processes = s.processes + a.processes,
        wall_ns = s.wall_ns + a.wall_ns,
        compute_ns = s.compute_ns + a.compute_ns,
        mpi_p2p_ns = s.mpi_p2p_ns + a.mpi_p2p_ns,
        mpi_coll_ns = s.mpi_coll_ns + a.mpi_coll_ns,
        io_posix_ns = s.io_posix_ns + a.io_posix_ns,
        io_stdio_ns = s.io_stdio_ns + a.io_stdio_ns,
        io_mpiio_ns = s.io_mpiio_ns + a.io_mpiio_ns,
        read_bytes = s.read_bytes + a.read_bytes,
        write_bytes = s.write_bytes + a.write_bytes,
        meta_calls = s.meta_calls + a.meta_calls,
        cpu_ns = s.cpu_ns + a.cpu_ns,
        killed_processes = s.killed_processes + a.killed_processes,
        files_dropped = s.files_dropped + a.files_dropped,
        idle_ns = CASE WHEN a.idle_ns IS NULL THEN s.idle_ns ELSE coalesce(s.idle_ns, 0) + a.idle_ns END,
        mpi_setup_ns = CASE WHEN a.mpi_setup_ns IS NULL THEN s.mpi_setup_ns ELSE coalesce(s.mpi_setup_ns, 0) + a.mpi_setup_ns END,
        cpu_wait_ns = CASE WHEN a.cpu_wait_ns IS NULL THEN s.cpu_wait_ns ELSE coalesce(s.cpu_wait_ns, 0) + a.cpu_wait_ns END,
        max_rss_kib = greatest(s.max_rss_kib, a.max_rss_kib),
        unattributed_read_bytes = CASE WHEN a.unattributed_read_bytes IS NULL THEN s.unattributed_read_bytes ELSE coalesce(s.unattributed_read_bytes, 0) + a.unattributed_read_bytes END,
        unattributed_write_bytes = CASE WHEN a.unattributed_write_bytes IS NULL THEN s.unattributed_write_bytes ELSE coalesce(s.unattributed_write_bytes, 0) + a.unattributed_write_bytes END,
        kernel_io_unknown = s.kernel_io_unknown + a.kernel_io_unknown
    FROM js_data.step_node_process_sums a
    WHERE a.cluster_id = p_cluster AND a.job_id = p_job AND a.step_id = p_step AND a.node = p_node
      AND s.cluster_id = p_cluster AND s.job_id = p_job AND s.step_id = p_step
$$;


--
-- Name: FUNCTION ingest_step_sums(p_cluster smallint, p_job bigint, p_step text, p_node text); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.ingest_step_sums(p_cluster smallint, p_job bigint, p_step text, p_node text) IS 'add a step record''s processes (js_data.processes of the step on the node) into the sums of its step, once, in the record''s transaction';


--
-- Name: ingest_trees(smallint, bigint, text, text, jsonb); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.ingest_trees(p_cluster smallint, p_job bigint, p_step text, p_node text, p_trees jsonb) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO js_data.step_trees (cluster_id, job_id, step_id, node, tree, processes, opens, read_bytes, write_bytes)
        SELECT p_cluster, p_job, p_step, p_node, t.path, t.processes, t.opens, t.read_bytes, t.write_bytes
        FROM jsonb_to_recordset(p_trees) AS t(path text, processes integer, opens bigint, read_bytes bigint, write_bytes bigint)
$$;


--
-- Name: FUNCTION ingest_trees(p_cluster smallint, p_job bigint, p_step text, p_node text, p_trees jsonb); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.ingest_trees(p_cluster smallint, p_job bigint, p_step text, p_node text, p_trees jsonb) IS 'the software trees of a step record, in its transaction (profile_ingest)';


--
-- Name: ingest_unrecorded(smallint, bigint, text, text, integer, text); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.ingest_unrecorded(p_cluster smallint, p_job bigint, p_step text, p_node text, p_processes integer, p_reason text) RETURNS void
    LANGUAGE sql
    AS $$
    UPDATE js_data.step_nodes SET unrecorded = p_processes, unrecorded_reason = nullif(p_reason, '')
        WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node $$;


--
-- Name: FUNCTION ingest_unrecorded(p_cluster smallint, p_job bigint, p_step text, p_node text, p_processes integer, p_reason text); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.ingest_unrecorded(p_cluster smallint, p_job bigint, p_step text, p_node text, p_processes integer, p_reason text) IS 'store how many processes of a step-node were not recorded, and why (then js_data.ingest_incomplete says so)';


--
-- Name: job_record_keep(jsonb, jsonb); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.job_record_keep(newer jsonb, older jsonb) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE
    AS $$
DECLARE k text;
BEGIN
    FOREACH k IN ARRAY ARRAY['workflow', 'batch_script', 'work_dir', 'account', 'qos', 'submit_ns', 'eligible_ns',
                             'array_job_id', 'array_task_id'] LOOP
        IF jsonb_typeof(newer->k) IS DISTINCT FROM 'string' AND jsonb_typeof(newer->k) IS DISTINCT FROM 'number'
           AND older ? k AND jsonb_typeof(older->k) <> 'null' THEN
            newer := jsonb_set(newer, ARRAY[k], older->k);
        END IF;
    END LOOP;
    IF jsonb_typeof(newer->'dependency') IS DISTINCT FROM 'string' AND jsonb_typeof(older->'dependency') = 'string' THEN
        newer := newer || jsonb_build_object('dependency', older->'dependency', 'dependencies', older->'dependencies',
                                             'dependency_any', older->'dependency_any',
                                             'dependency_parse_error', older->'dependency_parse_error');
    END IF;
    IF (older->>'batch')::boolean THEN
        newer := jsonb_set(newer, '{batch}', 'true');
    END IF;
    RETURN newer;
END $$;


--
-- Name: FUNCTION job_record_keep(newer jsonb, older jsonb); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.job_record_keep(newer jsonb, older jsonb) IS 'the newer job record, with what the older one captured and the newer lacks (dependency, workflow, batch script, ...)';


--
-- Name: jobs_link_by_time(); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.jobs_link_by_time() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM js_data.link_by_time(NEW.cluster_id, NEW.job_id);
    RETURN NULL;
END $$;


--
-- Name: jobs_summarise_workflows(); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.jobs_summarise_workflows() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM js_data.workflow_summarise(x.cluster_id, array_agg(DISTINCT x.workflow_id))
            FROM new_jobs x WHERE x.workflow_id IS NOT NULL GROUP BY x.cluster_id;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM js_data.workflow_summarise(x.cluster_id, array_agg(DISTINCT x.workflow_id))
            FROM old_jobs x WHERE x.workflow_id IS NOT NULL GROUP BY x.cluster_id;
    ELSE
        PERFORM js_data.workflow_summarise(x.cluster_id, array_agg(DISTINCT x.workflow_id))
            FROM (SELECT cluster_id, workflow_id FROM old_jobs UNION ALL SELECT cluster_id, workflow_id FROM new_jobs) x
            WHERE x.workflow_id IS NOT NULL GROUP BY x.cluster_id;
    END IF;
    RETURN NULL;
END $$;


--
-- Name: last_writer(smallint, bigint, timestamp with time zone); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.last_writer(p_cluster smallint, p_file bigint, p_read timestamp with time zone, OUT job_id bigint, OUT step_id text, OUT last_write timestamp with time zone) RETURNS record
    LANGUAGE sql STABLE
    AS $$
    SELECT w.job_id, w.step_id, w.last_write FROM js_data.file_accesses w
    WHERE w.cluster_id = p_cluster AND w.file_id = p_file AND w.last_write IS NOT NULL AND w.last_write <= p_read
    ORDER BY w.last_write DESC, w.job_id DESC, w.step_id DESC LIMIT 1
$$;


--
-- Name: FUNCTION last_writer(p_cluster smallint, p_file bigint, p_read timestamp with time zone, OUT job_id bigint, OUT step_id text, OUT last_write timestamp with time zone); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.last_writer(p_cluster smallint, p_file bigint, p_read timestamp with time zone, OUT job_id bigint, OUT step_id text, OUT last_write timestamp with time zone) IS 'the access that wrote the file last at or before a read (file edges)';


--
-- Name: link_by_time(smallint, bigint); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.link_by_time(p_cluster smallint, p_job bigint) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    a record;
BEGIN
    DELETE FROM js_data.dependencies WHERE cluster_id = p_cluster AND kind = 'time' AND to_job = p_job;
    IF EXISTS (SELECT 1 FROM js_data.dependencies d
               WHERE d.cluster_id = p_cluster AND d.to_job = p_job AND d.from_job <> p_job) THEN
        RETURN;
    END IF;
    SELECT x.job_id, x.end_time, b.start_time INTO a
        FROM js_data.jobs b
        JOIN LATERAL (
            SELECT x.job_id, x.end_time FROM js_data.jobs x
            WHERE x.cluster_id = b.cluster_id AND x.uid = b.uid AND x.workflow_tag IS NOT DISTINCT FROM b.workflow_tag
              AND (b.workflow_tag IS NOT NULL OR
                   CASE WHEN b.record->>'submitter' IS NOT NULL AND x.record->>'submitter' IS NOT NULL
                        THEN x.record->>'submitter' = b.record->>'submitter'
                        ELSE x.work_dir = b.work_dir END)
              AND x.job_id <> b.job_id AND x.end_time <= b.start_time
              AND x.end_time >= b.start_time - js.time_edge_window()
              -- Slurm's submit time is whole seconds: B's submission in the second A ended counts
              -- as after it, one in the second before does not (no slack beyond the truncation)
              AND b.submit_time >= date_trunc('second', x.end_time)
            ORDER BY x.end_time DESC LIMIT 1
        ) x ON true
        WHERE b.cluster_id = p_cluster AND b.job_id = p_job AND coalesce(b.dependency, '') = '';
    IF FOUND THEN
        INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, from_time, to_time)
            VALUES (p_cluster, 'time', a.job_id, p_job, a.end_time, a.start_time)
            ON CONFLICT DO NOTHING;
        PERFORM js_data.merge_workflows(p_cluster, p_job);
    END IF;
END $$;


--
-- Name: FUNCTION link_by_time(p_cluster smallint, p_job bigint); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.link_by_time(p_cluster smallint, p_job bigint) IS 'the time edge into a job by the rule of docs/dependencies.md (removed first, made again when it holds)';


--
-- Name: link_scheduler_edges(smallint, bigint); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.link_scheduler_edges(p_cluster smallint, p_job bigint) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, condition)
        SELECT p_cluster, 'scheduler', r.ref_job, r.to_job, r.condition
        FROM js_data.dependency_refs r
        WHERE r.cluster_id = p_cluster AND r.to_job = p_job AND r.ref_task IS NULL
        ON CONFLICT DO NOTHING;
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, condition)
        SELECT p_cluster, 'scheduler', j.job_id, r.to_job, r.condition
        FROM js_data.dependency_refs r
        JOIN js_data.jobs j ON j.cluster_id = r.cluster_id AND j.array_job_id = r.ref_job
             AND (r.ref_task IS NULL OR r.ref_task = j.array_task_id)
        WHERE r.cluster_id = p_cluster AND r.to_job = p_job
        ON CONFLICT DO NOTHING;
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, condition)
        SELECT p_cluster, 'scheduler', j.job_id, r.to_job, r.condition
        FROM js_data.jobs j
        JOIN js_data.dependency_refs r ON r.cluster_id = j.cluster_id AND r.ref_job = j.array_job_id
             AND (r.ref_task IS NULL OR r.ref_task = j.array_task_id)
        WHERE j.cluster_id = p_cluster AND j.job_id = p_job
        ON CONFLICT DO NOTHING;
$$;


--
-- Name: FUNCTION link_scheduler_edges(p_cluster smallint, p_job bigint); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.link_scheduler_edges(p_cluster smallint, p_job bigint) IS 'the scheduler edges of a job as dependant and as upstream (array tasks included) from js_data.dependency_refs';


--
-- Name: live_begin(smallint, jsonb, bigint, text, text, bigint, bigint, integer, integer, text); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.live_begin(p_cluster smallint, p_job jsonb, p_job_id bigint, p_step text, p_node text, p_snapshot_ns bigint, p_start_ns bigint, p_profiles integer, p_running integer, p_by text) RETURNS text
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext(p_cluster || '/' || p_job_id::text), hashtext(p_step || '/' || p_node)) THEN
        RETURN 'busy';
    END IF;
    IF EXISTS (SELECT 1 FROM js_data.step_nodes WHERE cluster_id = p_cluster AND job_id = p_job_id
               AND step_id = p_step AND node = p_node) THEN
        RETURN 'done';
    END IF;
    IF EXISTS (SELECT 1 FROM js_data.live_step_nodes WHERE cluster_id = p_cluster AND job_id = p_job_id
               AND step_id = p_step AND node = p_node AND snapshot_time = js_data.ns_to_time(p_snapshot_ns)) THEN
        RETURN 'same';
    END IF;
    IF p_job IS NOT NULL THEN
        PERFORM js_data.ingest_job(p_cluster, p_job);
    END IF;
    PERFORM js_data.live_clear(p_cluster, p_job_id, p_step, p_node);
    INSERT INTO js_data.live_step_nodes (cluster_id, job_id, step_id, node, start_time, snapshot_time, profiles,
            running, ingested_by)
        VALUES (p_cluster, p_job_id, p_step, p_node, js_data.ns_to_time(p_start_ns), js_data.ns_to_time(p_snapshot_ns),
            p_profiles, p_running, p_by);
    RETURN 'ok';
END $$;


--
-- Name: FUNCTION live_begin(p_cluster smallint, p_job jsonb, p_job_id bigint, p_step text, p_node text, p_snapshot_ns bigint, p_start_ns bigint, p_profiles integer, p_running integer, p_by text); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.live_begin(p_cluster smallint, p_job jsonb, p_job_id bigint, p_step text, p_node text, p_snapshot_ns bigint, p_start_ns bigint, p_profiles integer, p_running integer, p_by text) IS 'claim a running step-node and replace its provisional row from a live snapshot: ok, busy, done (step record ingested) or same (snapshot stored already)';


--
-- Name: live_clear(smallint, bigint, text, text); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.live_clear(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS void
    LANGUAGE sql
    AS $$
    DELETE FROM js_data.live_processes WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
    DELETE FROM js_data.live_slice_metrics WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
    DELETE FROM js_data.live_step_nodes WHERE cluster_id = p_cluster AND job_id = p_job AND step_id = p_step AND node = p_node;
$$;


--
-- Name: FUNCTION live_clear(p_cluster smallint, p_job bigint, p_step text, p_node text); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.live_clear(p_cluster smallint, p_job bigint, p_step text, p_node text) IS 'delete the provisional rows of a step on a node';


--
-- Name: merge_workflows(smallint, bigint); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.merge_workflows(p_cluster smallint, p_job bigint) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    pair record;
    keep bigint;
    gone bigint;
    merged integer := 0;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM js_data.jobs WHERE cluster_id = p_cluster AND job_id = p_job AND workflow_tag IS NULL) THEN
        RETURN 0;   -- a tagged job keeps its workflow
    END IF;
    LOOP
        WITH d AS MATERIALIZED (
            SELECT from_job, to_job FROM js_data.dependencies WHERE cluster_id = p_cluster AND from_job = p_job
            UNION ALL
            SELECT from_job, to_job FROM js_data.dependencies WHERE cluster_id = p_cluster AND to_job = p_job
            UNION ALL
            SELECT t.job_id, p_job FROM js_data.jobs me
            JOIN js_data.jobs t ON t.cluster_id = me.cluster_id AND t.array_job_id = me.array_job_id
            WHERE me.cluster_id = p_cluster AND me.job_id = p_job AND t.job_id <> p_job)
        SELECT a.workflow_id AS wa, b.workflow_id AS wb INTO pair
            FROM d
            JOIN js_data.jobs a ON a.cluster_id = p_cluster AND a.job_id = d.from_job
            JOIN js_data.jobs b ON b.cluster_id = p_cluster AND b.job_id = d.to_job
            WHERE a.uid = b.uid AND a.workflow_tag IS NULL AND b.workflow_tag IS NULL
              AND a.workflow_id <> b.workflow_id
            LIMIT 1;
        EXIT WHEN NOT FOUND;
        keep := least(pair.wa, pair.wb);
        gone := greatest(pair.wa, pair.wb);
        UPDATE js_data.jobs SET workflow_id = keep WHERE cluster_id = p_cluster AND workflow_id = gone;
        DELETE FROM js_data.workflows WHERE cluster_id = p_cluster AND workflow_id = gone;
        merged := merged + 1;
    END LOOP;
    RETURN merged;
END $$;


--
-- Name: FUNCTION merge_workflows(p_cluster smallint, p_job bigint); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.merge_workflows(p_cluster smallint, p_job bigint) IS 'merge the derived workflows of untagged jobs of one user joined to the job by an edge';


--
-- Name: ns_to_time(bigint); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.ns_to_time(ns bigint) RETURNS timestamp with time zone
    LANGUAGE sql IMMUTABLE
    AS $$ SELECT to_timestamp(ns / 1000000000.0) $$;


--
-- Name: FUNCTION ns_to_time(ns bigint); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.ns_to_time(ns bigint) IS 'nanoseconds since the epoch (the record and profile formats) to timestamptz (microseconds)';


--
-- Name: retention_note(boolean, text, text, bigint, timestamp with time zone); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.retention_note(p_dry_run boolean, p_class text, p_item text, p_rows bigint, p_cutoff timestamp with time zone) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO js_data.retention_runs (class, item, rows, cutoff)
    SELECT p_class, p_item, p_rows, p_cutoff WHERE NOT p_dry_run
    ON CONFLICT (run_at, class, item) DO UPDATE SET rows = retention_runs.rows + excluded.rows $$;


--
-- Name: FUNCTION retention_note(p_dry_run boolean, p_class text, p_item text, p_rows bigint, p_cutoff timestamp with time zone); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.retention_note(p_dry_run boolean, p_class text, p_item text, p_rows bigint, p_cutoff timestamp with time zone) IS 'log what a retention run removed (nothing for a dry run)';


--
-- Name: rollup_totals(integer); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.rollup_totals(p_limit integer) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    n integer;
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('jobscreen totals')) THEN
        RETURN 0;
    END IF;
    CREATE TEMP TABLE IF NOT EXISTS rollup_batch (cluster_id smallint, job_id bigint, step_id text, node text);
    DELETE FROM rollup_batch;
    INSERT INTO rollup_batch
        SELECT cluster_id, job_id, step_id, node FROM js_data.totals_pending
        ORDER BY queued_at LIMIT p_limit FOR UPDATE SKIP LOCKED;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
        RETURN 0;
    END IF;
    DELETE FROM js_data.totals_pending p USING rollup_batch b
        WHERE p.cluster_id = b.cluster_id AND p.job_id = b.job_id AND p.step_id = b.step_id AND p.node = b.node;
    CREATE TEMP TABLE IF NOT EXISTS rollup_slices AS SELECT * FROM js_data.slice_metrics WITH NO DATA;
    DELETE FROM rollup_slices;
    INSERT INTO rollup_slices
        SELECT m.* FROM rollup_batch b
        JOIN js_data.slice_metrics m ON m.cluster_id = b.cluster_id AND m.job_id = b.job_id AND m.step_id = b.step_id AND m.node = b.node;
    INSERT INTO js_data.series_step AS t (cluster_id, job_id, step_id, chunk, first_slice, slices, nodes, processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes)
    SELECT k.cluster_id, k.job_id, k.step_id, k.chunk, k.lo, (k.hi - k.lo + 1)::smallint,
           js_data.series_encode(array_agg(coalesce(v.nodes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.processes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_open_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_open_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.lower_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.lower_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_send_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_send_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_recv_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_recv_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_p2p_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_coll_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.cpu_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.kernel_rchar, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.kernel_wchar, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.kernel_syscr, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.kernel_syscw, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.kernel_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.kernel_write_bytes, 0) ORDER BY g.s))
    FROM (SELECT cluster_id, job_id, step_id, chunk, min(s) AS lo, max(s) AS hi FROM (
              SELECT cluster_id, job_id, step_id, chunk, slice AS s FROM rollup_slices
              UNION ALL
              SELECT t.cluster_id, t.job_id, t.step_id, t.chunk, x.s FROM js_data.series_step t
              JOIN (SELECT DISTINCT cluster_id, job_id, step_id, chunk FROM rollup_slices) a USING (cluster_id, job_id, step_id, chunk)
              CROSS JOIN LATERAL (VALUES (t.first_slice), (t.first_slice + t.slices - 1)) x(s)) e
          GROUP BY cluster_id, job_id, step_id, chunk) k
    CROSS JOIN generate_series(k.lo, k.hi) g(s)
    LEFT JOIN (SELECT cluster_id, job_id, step_id, slice, sum(nodes)::bigint AS nodes, sum(processes)::bigint AS processes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns, sum(kernel_rchar)::bigint AS kernel_rchar, sum(kernel_wchar)::bigint AS kernel_wchar, sum(kernel_syscr)::bigint AS kernel_syscr, sum(kernel_syscw)::bigint AS kernel_syscw, sum(kernel_read_bytes)::bigint AS kernel_read_bytes, sum(kernel_write_bytes)::bigint AS kernel_write_bytes FROM (
                   SELECT cluster_id, job_id, step_id, slice, 1 AS nodes, processes AS processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes FROM rollup_slices
                   UNION ALL
                   SELECT o.cluster_id, o.job_id, o.step_id, slice, o.nodes, o.processes, o.posix_read_calls, o.posix_read_bytes, o.posix_write_calls, o.posix_write_bytes, o.posix_open_calls, o.posix_meta_calls, o.posix_ns, o.stdio_read_calls, o.stdio_read_bytes, o.stdio_write_calls, o.stdio_write_bytes, o.stdio_open_calls, o.stdio_meta_calls, o.stdio_ns, o.lower_read_bytes, o.lower_write_bytes, o.mpi_send_calls, o.mpi_send_bytes, o.mpi_recv_calls, o.mpi_recv_bytes, o.mpi_p2p_ns, o.mpi_coll_calls, o.mpi_coll_bytes, o.mpi_coll_ns, o.mpiio_read_calls, o.mpiio_read_bytes, o.mpiio_write_calls, o.mpiio_write_bytes, o.mpiio_coll_calls, o.mpiio_meta_calls, o.mpiio_ns, o.cpu_ns, o.kernel_rchar, o.kernel_wchar, o.kernel_syscr, o.kernel_syscw, o.kernel_read_bytes, o.kernel_write_bytes FROM js_data.step_series_slices o
                   WHERE (o.cluster_id, o.job_id, o.step_id, o.chunk) IN (SELECT DISTINCT cluster_id, job_id, step_id, chunk FROM rollup_slices)) z
               GROUP BY cluster_id, job_id, step_id, slice) v ON v.cluster_id = k.cluster_id AND v.job_id = k.job_id AND v.step_id = k.step_id AND v.slice = g.s
    GROUP BY k.cluster_id, k.job_id, k.step_id, k.chunk, k.lo, k.hi
    ON CONFLICT (cluster_id, job_id, step_id, chunk) DO UPDATE SET first_slice = excluded.first_slice, slices = excluded.slices,
        nodes = excluded.nodes,
        processes = excluded.processes,
        posix_read_calls = excluded.posix_read_calls,
        posix_read_bytes = excluded.posix_read_bytes,
        posix_write_calls = excluded.posix_write_calls,
        posix_write_bytes = excluded.posix_write_bytes,
        posix_open_calls = excluded.posix_open_calls,
        posix_meta_calls = excluded.posix_meta_calls,
        posix_ns = excluded.posix_ns,
        stdio_read_calls = excluded.stdio_read_calls,
        stdio_read_bytes = excluded.stdio_read_bytes,
        stdio_write_calls = excluded.stdio_write_calls,
        stdio_write_bytes = excluded.stdio_write_bytes,
        stdio_open_calls = excluded.stdio_open_calls,
        stdio_meta_calls = excluded.stdio_meta_calls,
        stdio_ns = excluded.stdio_ns,
        lower_read_bytes = excluded.lower_read_bytes,
        lower_write_bytes = excluded.lower_write_bytes,
        mpi_send_calls = excluded.mpi_send_calls,
        mpi_send_bytes = excluded.mpi_send_bytes,
        mpi_recv_calls = excluded.mpi_recv_calls,
        mpi_recv_bytes = excluded.mpi_recv_bytes,
        mpi_p2p_ns = excluded.mpi_p2p_ns,
        mpi_coll_calls = excluded.mpi_coll_calls,
        mpi_coll_bytes = excluded.mpi_coll_bytes,
        mpi_coll_ns = excluded.mpi_coll_ns,
        mpiio_read_calls = excluded.mpiio_read_calls,
        mpiio_read_bytes = excluded.mpiio_read_bytes,
        mpiio_write_calls = excluded.mpiio_write_calls,
        mpiio_write_bytes = excluded.mpiio_write_bytes,
        mpiio_coll_calls = excluded.mpiio_coll_calls,
        mpiio_meta_calls = excluded.mpiio_meta_calls,
        mpiio_ns = excluded.mpiio_ns,
        cpu_ns = excluded.cpu_ns,
        kernel_rchar = excluded.kernel_rchar,
        kernel_wchar = excluded.kernel_wchar,
        kernel_syscr = excluded.kernel_syscr,
        kernel_syscw = excluded.kernel_syscw,
        kernel_read_bytes = excluded.kernel_read_bytes,
        kernel_write_bytes = excluded.kernel_write_bytes;
    INSERT INTO js_data.series_node AS t (cluster_id, node, chunk, first_slice, slices, step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns)
    SELECT k.cluster_id, k.node, k.chunk, k.lo, (k.hi - k.lo + 1)::smallint,
           js_data.series_encode(array_agg(coalesce(v.step_nodes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_open_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_open_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.lower_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.lower_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_send_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_send_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_recv_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_recv_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_p2p_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_coll_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.cpu_ns, 0) ORDER BY g.s))
    FROM (SELECT cluster_id, node, chunk, min(s) AS lo, max(s) AS hi FROM (
              SELECT cluster_id, node, chunk, slice AS s FROM rollup_slices
              UNION ALL
              SELECT t.cluster_id, t.node, t.chunk, x.s FROM js_data.series_node t
              JOIN (SELECT DISTINCT cluster_id, node, chunk FROM rollup_slices) a USING (cluster_id, node, chunk)
              CROSS JOIN LATERAL (VALUES (t.first_slice), (t.first_slice + t.slices - 1)) x(s)) e
          GROUP BY cluster_id, node, chunk) k
    CROSS JOIN generate_series(k.lo, k.hi) g(s)
    LEFT JOIN (SELECT cluster_id, node, slice, sum(step_nodes)::bigint AS step_nodes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns FROM (
                   SELECT cluster_id, node, slice, 1 AS step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns FROM rollup_slices
                   UNION ALL
                   SELECT o.cluster_id, o.node, slice, o.step_nodes, o.posix_read_calls, o.posix_read_bytes, o.posix_write_calls, o.posix_write_bytes, o.posix_open_calls, o.posix_meta_calls, o.posix_ns, o.stdio_read_calls, o.stdio_read_bytes, o.stdio_write_calls, o.stdio_write_bytes, o.stdio_open_calls, o.stdio_meta_calls, o.stdio_ns, o.lower_read_bytes, o.lower_write_bytes, o.mpi_send_calls, o.mpi_send_bytes, o.mpi_recv_calls, o.mpi_recv_bytes, o.mpi_p2p_ns, o.mpi_coll_calls, o.mpi_coll_bytes, o.mpi_coll_ns, o.mpiio_read_calls, o.mpiio_read_bytes, o.mpiio_write_calls, o.mpiio_write_bytes, o.mpiio_coll_calls, o.mpiio_meta_calls, o.mpiio_ns, o.cpu_ns FROM js_data.slice_totals_node o
                   WHERE (o.cluster_id, o.node, o.chunk) IN (SELECT DISTINCT cluster_id, node, chunk FROM rollup_slices)) z
               GROUP BY cluster_id, node, slice) v ON v.cluster_id = k.cluster_id AND v.node = k.node AND v.slice = g.s
    GROUP BY k.cluster_id, k.node, k.chunk, k.lo, k.hi
    ON CONFLICT (cluster_id, node, chunk) DO UPDATE SET first_slice = excluded.first_slice, slices = excluded.slices,
        step_nodes = excluded.step_nodes,
        posix_read_calls = excluded.posix_read_calls,
        posix_read_bytes = excluded.posix_read_bytes,
        posix_write_calls = excluded.posix_write_calls,
        posix_write_bytes = excluded.posix_write_bytes,
        posix_open_calls = excluded.posix_open_calls,
        posix_meta_calls = excluded.posix_meta_calls,
        posix_ns = excluded.posix_ns,
        stdio_read_calls = excluded.stdio_read_calls,
        stdio_read_bytes = excluded.stdio_read_bytes,
        stdio_write_calls = excluded.stdio_write_calls,
        stdio_write_bytes = excluded.stdio_write_bytes,
        stdio_open_calls = excluded.stdio_open_calls,
        stdio_meta_calls = excluded.stdio_meta_calls,
        stdio_ns = excluded.stdio_ns,
        lower_read_bytes = excluded.lower_read_bytes,
        lower_write_bytes = excluded.lower_write_bytes,
        mpi_send_calls = excluded.mpi_send_calls,
        mpi_send_bytes = excluded.mpi_send_bytes,
        mpi_recv_calls = excluded.mpi_recv_calls,
        mpi_recv_bytes = excluded.mpi_recv_bytes,
        mpi_p2p_ns = excluded.mpi_p2p_ns,
        mpi_coll_calls = excluded.mpi_coll_calls,
        mpi_coll_bytes = excluded.mpi_coll_bytes,
        mpi_coll_ns = excluded.mpi_coll_ns,
        mpiio_read_calls = excluded.mpiio_read_calls,
        mpiio_read_bytes = excluded.mpiio_read_bytes,
        mpiio_write_calls = excluded.mpiio_write_calls,
        mpiio_write_bytes = excluded.mpiio_write_bytes,
        mpiio_coll_calls = excluded.mpiio_coll_calls,
        mpiio_meta_calls = excluded.mpiio_meta_calls,
        mpiio_ns = excluded.mpiio_ns,
        cpu_ns = excluded.cpu_ns;
    INSERT INTO js_data.series_cluster AS t (cluster_id, chunk, first_slice, slices, step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns)
    SELECT k.cluster_id, k.chunk, k.lo, (k.hi - k.lo + 1)::smallint,
           js_data.series_encode(array_agg(coalesce(v.step_nodes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_open_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_open_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.lower_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.lower_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_send_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_send_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_recv_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_recv_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_p2p_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_coll_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.cpu_ns, 0) ORDER BY g.s))
    FROM (SELECT cluster_id, chunk, min(s) AS lo, max(s) AS hi FROM (
              SELECT cluster_id, chunk, slice AS s FROM rollup_slices
              UNION ALL
              SELECT t.cluster_id, t.chunk, x.s FROM js_data.series_cluster t
              JOIN (SELECT DISTINCT cluster_id, chunk FROM rollup_slices) a USING (cluster_id, chunk)
              CROSS JOIN LATERAL (VALUES (t.first_slice), (t.first_slice + t.slices - 1)) x(s)) e
          GROUP BY cluster_id, chunk) k
    CROSS JOIN generate_series(k.lo, k.hi) g(s)
    LEFT JOIN (SELECT cluster_id, slice, sum(step_nodes)::bigint AS step_nodes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns FROM (
                   SELECT cluster_id, slice, 1 AS step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns FROM rollup_slices
                   UNION ALL
                   SELECT o.cluster_id, slice, o.step_nodes, o.posix_read_calls, o.posix_read_bytes, o.posix_write_calls, o.posix_write_bytes, o.posix_open_calls, o.posix_meta_calls, o.posix_ns, o.stdio_read_calls, o.stdio_read_bytes, o.stdio_write_calls, o.stdio_write_bytes, o.stdio_open_calls, o.stdio_meta_calls, o.stdio_ns, o.lower_read_bytes, o.lower_write_bytes, o.mpi_send_calls, o.mpi_send_bytes, o.mpi_recv_calls, o.mpi_recv_bytes, o.mpi_p2p_ns, o.mpi_coll_calls, o.mpi_coll_bytes, o.mpi_coll_ns, o.mpiio_read_calls, o.mpiio_read_bytes, o.mpiio_write_calls, o.mpiio_write_bytes, o.mpiio_coll_calls, o.mpiio_meta_calls, o.mpiio_ns, o.cpu_ns FROM js_data.slice_totals_cluster o
                   WHERE (o.cluster_id, o.chunk) IN (SELECT DISTINCT cluster_id, chunk FROM rollup_slices)) z
               GROUP BY cluster_id, slice) v ON v.cluster_id = k.cluster_id AND v.slice = g.s
    GROUP BY k.cluster_id, k.chunk, k.lo, k.hi
    ON CONFLICT (cluster_id, chunk) DO UPDATE SET first_slice = excluded.first_slice, slices = excluded.slices,
        step_nodes = excluded.step_nodes,
        posix_read_calls = excluded.posix_read_calls,
        posix_read_bytes = excluded.posix_read_bytes,
        posix_write_calls = excluded.posix_write_calls,
        posix_write_bytes = excluded.posix_write_bytes,
        posix_open_calls = excluded.posix_open_calls,
        posix_meta_calls = excluded.posix_meta_calls,
        posix_ns = excluded.posix_ns,
        stdio_read_calls = excluded.stdio_read_calls,
        stdio_read_bytes = excluded.stdio_read_bytes,
        stdio_write_calls = excluded.stdio_write_calls,
        stdio_write_bytes = excluded.stdio_write_bytes,
        stdio_open_calls = excluded.stdio_open_calls,
        stdio_meta_calls = excluded.stdio_meta_calls,
        stdio_ns = excluded.stdio_ns,
        lower_read_bytes = excluded.lower_read_bytes,
        lower_write_bytes = excluded.lower_write_bytes,
        mpi_send_calls = excluded.mpi_send_calls,
        mpi_send_bytes = excluded.mpi_send_bytes,
        mpi_recv_calls = excluded.mpi_recv_calls,
        mpi_recv_bytes = excluded.mpi_recv_bytes,
        mpi_p2p_ns = excluded.mpi_p2p_ns,
        mpi_coll_calls = excluded.mpi_coll_calls,
        mpi_coll_bytes = excluded.mpi_coll_bytes,
        mpi_coll_ns = excluded.mpi_coll_ns,
        mpiio_read_calls = excluded.mpiio_read_calls,
        mpiio_read_bytes = excluded.mpiio_read_bytes,
        mpiio_write_calls = excluded.mpiio_write_calls,
        mpiio_write_bytes = excluded.mpiio_write_bytes,
        mpiio_coll_calls = excluded.mpiio_coll_calls,
        mpiio_meta_calls = excluded.mpiio_meta_calls,
        mpiio_ns = excluded.mpiio_ns,
        cpu_ns = excluded.cpu_ns;
    DELETE FROM rollup_batch;
    DELETE FROM rollup_slices;
    RETURN n;
END $$;


--
-- Name: FUNCTION rollup_totals(p_limit integer); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.rollup_totals(p_limit integer) IS 'fold up to N queued step records (js_data.totals_pending) into the slice totals; returns how many';


--
-- Name: rollup_usage(date, date); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.rollup_usage(p_from date, p_to date) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    c record;
    v_horizon bigint := (SELECT slice FROM js_data.slice_horizon);
    v_from date;
    v_lo bigint;
    v_hi bigint;
    n integer;
    total integer := 0;
BEGIN
    IF p_to < p_from OR p_to - p_from > 3660 THEN
        RAISE EXCEPTION 'rollup_usage: day range % .. % is not plausible', p_from, p_to;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('jobscreen rollup'));
    FOR c IN SELECT cluster_id, slice_seconds AS len FROM js_data.clusters LOOP
        v_from := p_from;
        IF v_horizon IS NOT NULL THEN
            -- first day that starts at or after the horizon
            v_from := greatest(p_from, (to_timestamp(v_horizon * c.len - 1) AT TIME ZONE 'UTC')::date + 1);
        END IF;
        CONTINUE WHEN v_from > p_to;
        v_lo := floor(extract(epoch FROM v_from::timestamp AT TIME ZONE 'UTC') / c.len);
        v_hi := ceil(extract(epoch FROM (p_to + 1)::timestamp AT TIME ZONE 'UTC') / c.len) - 1;
        DELETE FROM js_data.usage_daily WHERE cluster_id = c.cluster_id AND day BETWEEN v_from AND p_to;
        INSERT INTO js_data.usage_daily (cluster_id, day, uid, jobs_started, steps_started, steps_failed,
                steps_opted_out, cpu_seconds, node_seconds, read_bytes, write_bytes, meta_ops, mpi_bytes, io_ns,
                mpi_ns, process_cpu_ns, node_slices)
        SELECT c.cluster_id, x.day, x.uid, sum(x.jobs_started), sum(x.steps_started), sum(x.steps_failed),
               sum(x.steps_opted_out), sum(x.cpu_seconds), sum(x.node_seconds), sum(x.read_bytes), sum(x.write_bytes),
               sum(x.meta_ops), sum(x.mpi_bytes), sum(x.io_ns), sum(x.mpi_ns), sum(x.process_cpu_ns), sum(x.node_slices)
        FROM (
            SELECT (coalesce(j.start_time, j.submit_time) AT TIME ZONE 'UTC')::date AS day, j.uid,
                   1 AS jobs_started, 0 AS steps_started, 0 AS steps_failed, 0 AS steps_opted_out,
                   0::double precision AS cpu_seconds, 0::double precision AS node_seconds, 0::bigint AS read_bytes,
                   0::bigint AS write_bytes, 0::bigint AS meta_ops, 0::bigint AS mpi_bytes, 0::bigint AS io_ns,
                   0::bigint AS mpi_ns, 0::bigint AS process_cpu_ns, 0::bigint AS node_slices
            FROM js_data.jobs j
            WHERE j.cluster_id = c.cluster_id
              AND (coalesce(j.start_time, j.submit_time) AT TIME ZONE 'UTC')::date BETWEEN v_from AND p_to
            UNION ALL
            SELECT d.day, j.uid,
                   0, (d.day = (s.start_time AT TIME ZONE 'UTC')::date)::integer,
                   (d.day = (s.start_time AT TIME ZONE 'UTC')::date AND s.state IS DISTINCT FROM 'COMPLETED')::integer,
                   (d.day = (s.start_time AT TIME ZONE 'UTC')::date AND NOT s.profiled)::integer,
                   coalesce(s.num_cpus, 0) * d.seconds, coalesce(s.num_nodes, 1) * d.seconds,
                   0, 0, 0, 0, 0, 0, 0, 0
            FROM js_data.steps s
            JOIN js_data.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id
            CROSS JOIN LATERAL (
                SELECT g::date AS day,
                       greatest(0, extract(epoch FROM
                           least(coalesce(s.end_time, s.start_time), (g::date + 1)::timestamp AT TIME ZONE 'UTC')
                           - greatest(s.start_time, g::date::timestamp AT TIME ZONE 'UTC')))::double precision AS seconds
                FROM generate_series((s.start_time AT TIME ZONE 'UTC')::date,
                                     (coalesce(s.end_time, s.start_time) AT TIME ZONE 'UTC')::date, interval '1 day') g
            ) d
            WHERE s.cluster_id = c.cluster_id AND s.start_time IS NOT NULL
              AND s.start_time < (p_to + 1)::timestamp AT TIME ZONE 'UTC'
              AND coalesce(s.end_time, s.start_time) >= v_from::timestamp AT TIME ZONE 'UTC'
              AND d.day BETWEEN v_from AND p_to
            UNION ALL
            SELECT (to_timestamp(m.slice * c.len) AT TIME ZONE 'UTC')::date, j.uid, 0, 0, 0, 0, 0, 0,
                   sum(m.posix_read_bytes + m.stdio_read_bytes + m.mpiio_read_bytes + m.lower_read_bytes)::bigint,
                   sum(m.posix_write_bytes + m.stdio_write_bytes + m.mpiio_write_bytes + m.lower_write_bytes)::bigint,
                   sum(m.posix_open_calls + m.posix_meta_calls + m.stdio_open_calls + m.mpiio_meta_calls)::bigint,
                   sum(m.mpi_send_bytes + m.mpi_coll_bytes)::bigint,
                   sum(m.posix_ns + m.stdio_ns + m.mpiio_ns)::bigint,
                   sum(m.mpi_p2p_ns + m.mpi_coll_ns)::bigint,
                   sum(m.cpu_ns)::bigint, count(*)
            FROM js_data.slice_metrics m
            JOIN js_data.jobs j ON j.cluster_id = m.cluster_id AND j.job_id = m.job_id
            WHERE m.cluster_id = c.cluster_id AND m.slice BETWEEN v_lo AND v_hi
              AND m.chunk BETWEEN js_data.series_chunk_of(v_lo) AND v_hi
            GROUP BY 1, 2
        ) x
        WHERE x.day BETWEEN v_from AND p_to
        GROUP BY x.day, x.uid;
        GET DIAGNOSTICS n = ROW_COUNT;
        total := total + n;
    END LOOP;
    RETURN total;
END $$;


--
-- Name: FUNCTION rollup_usage(p_from date, p_to date); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.rollup_usage(p_from date, p_to date) IS 'recompute js_data.usage_daily for the UTC days p_from .. p_to (days whose detail retention dropped are left as they are); returns the rows written';


--
-- Name: series_chunk_of(bigint); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.series_chunk_of(p_slice bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$SELECT p_slice - ((p_slice % 900) + 900) % 900$$;


--
-- Name: FUNCTION series_chunk_of(p_slice bigint); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.series_chunk_of(p_slice bigint) IS 'first slice of the chunk that holds a slice';


--
-- Name: series_chunk_width(); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.series_chunk_width() RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$SELECT 900::bigint$$;


--
-- Name: FUNCTION series_chunk_width(); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.series_chunk_width() IS 'slices per stored chunk of a series (900 = one hour of 4 s slices); a divisor of js_data.slice_partition_width()';


--
-- Name: series_decode(bytea, integer); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.series_decode(p bytea, p_n integer) RETURNS bigint[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT CASE
        WHEN p IS NULL THEN array_fill(0::bigint, ARRAY[p_n])
        WHEN get_byte(p, 0) = 0 THEN array_fill(('x' || encode(substring(p FROM 2 FOR 8), 'hex'))::bit(64)::bigint, ARRAY[p_n])
        ELSE ARRAY(SELECT ('x' || encode(substring(p FROM 2 FOR 8), 'hex'))::bit(64)::bigint
                          + ('x' || lpad(r.m[1], 16, '0'))::bit(64)::bigint
                   FROM regexp_matches(encode(substring(p FROM 10), 'hex'), '.{' || (2 * get_byte(p, 0)) || '}', 'g')
                        WITH ORDINALITY AS r(m, i)
                   ORDER BY r.i)
    END $$;


--
-- Name: FUNCTION series_decode(p bytea, p_n integer); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.series_decode(p bytea, p_n integer) IS 'the p_n values of an encoded series (common/series.h); NULL decodes to zeros';


--
-- Name: series_encode(bigint[]); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.series_encode(p bigint[]) RETURNS bytea
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT CASE WHEN coalesce(s.lo, 0) = 0 AND coalesce(s.hi, 0) = 0 THEN NULL::bytea
                ELSE set_byte('\x00'::bytea, 0, s.w) || int8send(s.lo) ||
                     CASE WHEN s.w = 0 THEN ''::bytea
                          ELSE (SELECT string_agg(substring(int8send(coalesce(x, 0) - s.lo) FROM 9 - s.w), ''::bytea ORDER BY i)
                                FROM unnest(p) WITH ORDINALITY AS u(x, i)) END
           END
    FROM (SELECT m.lo, m.hi, js_data.series_width(m.hi - m.lo) AS w
          FROM (SELECT min(coalesce(x, 0)) AS lo, max(coalesce(x, 0)) AS hi FROM unnest(p) AS x) m) s $$;


--
-- Name: FUNCTION series_encode(p bigint[]); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.series_encode(p bigint[]) IS 'encode values as a series (common/series.h); NULL when all are zero';


--
-- Name: series_load(regclass, boolean); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.series_load(p_table regclass, p_queue boolean DEFAULT true) RETURNS bigint
    LANGUAGE plpgsql
    SET enable_mergejoin TO 'off'
    AS $_$
DECLARE
    n bigint;
BEGIN
    EXECUTE format($q$INSERT INTO js_data.series_step_node (cluster_id, job_id, step_id, node, chunk, first_slice, slices, processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes)
SELECT k.cluster_id, k.job_id, k.step_id, k.node, k.chunk, k.lo, (k.hi - k.lo + 1)::smallint,
       js_data.series_encode(array_agg(coalesce(o.processes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_read_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_read_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_write_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_write_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_open_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_meta_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_ns, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_read_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_read_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_write_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_write_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_open_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_meta_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_ns, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.lower_read_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.lower_write_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_send_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_send_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_recv_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_recv_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_p2p_ns, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_coll_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_coll_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_coll_ns, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_read_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_read_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_write_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_write_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_coll_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_meta_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_ns, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.cpu_ns, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.kernel_rchar, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.kernel_wchar, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.kernel_syscr, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.kernel_syscw, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.kernel_read_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.kernel_write_bytes, 0) ORDER BY g.s))
FROM (SELECT cluster_id, job_id, step_id, node, js_data.series_chunk_of(slice) AS chunk, min(slice) AS lo, max(slice) AS hi FROM %1$s GROUP BY cluster_id, job_id, step_id, node, chunk) k
CROSS JOIN generate_series(k.lo, k.hi) g(s)
LEFT JOIN (SELECT cluster_id, job_id, step_id, node, slice, sum(processes) AS processes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns, sum(kernel_rchar)::bigint AS kernel_rchar, sum(kernel_wchar)::bigint AS kernel_wchar, sum(kernel_syscr)::bigint AS kernel_syscr, sum(kernel_syscw)::bigint AS kernel_syscw, sum(kernel_read_bytes)::bigint AS kernel_read_bytes, sum(kernel_write_bytes)::bigint AS kernel_write_bytes FROM %1$s GROUP BY cluster_id, job_id, step_id, node, slice) o ON o.cluster_id = k.cluster_id AND o.job_id = k.job_id AND o.step_id = k.step_id AND o.node = k.node AND o.slice = g.s
GROUP BY k.cluster_id, k.job_id, k.step_id, k.node, k.chunk, k.lo, k.hi$q$, p_table);
    GET DIAGNOSTICS n = ROW_COUNT;
    IF p_queue THEN
        EXECUTE format('INSERT INTO js_data.totals_pending (cluster_id, job_id, step_id, node) '
                       'SELECT DISTINCT cluster_id, job_id, step_id, node FROM %s ON CONFLICT DO NOTHING', p_table);
    END IF;
    RETURN n;
END $_$;


--
-- Name: FUNCTION series_load(p_table regclass, p_queue boolean); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.series_load(p_table regclass, p_queue boolean) IS 'load per-slice rows (the columns of js_data.live_slice_metrics) into js_data.series_step_node as series, and queue their step-nodes for the fold; returns the rows written';


--
-- Name: series_width(bigint); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.series_width(p_span bigint) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT CASE WHEN p_span = 0 THEN 0 WHEN p_span < 256 THEN 1 WHEN p_span < 65536 THEN 2
                WHEN p_span < 16777216 THEN 3 WHEN p_span < 4294967296 THEN 4 WHEN p_span < 1099511627776 THEN 5
                WHEN p_span < 281474976710656 THEN 6 WHEN p_span < 72057594037927936 THEN 7 ELSE 8 END $$;


--
-- Name: FUNCTION series_width(p_span bigint); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.series_width(p_span bigint) IS 'bytes per value of an encoded series whose values span p_span';


--
-- Name: slice_partition_width(); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.slice_partition_width() RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $$SELECT 21600::bigint$$;


--
-- Name: FUNCTION slice_partition_width(); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.slice_partition_width() IS 'slices per partition of the per-slice tables (21600 = one day of 4 s slices)';


--
-- Name: slice_start(smallint, bigint); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.slice_start(p_cluster smallint, p_slice bigint) RETURNS timestamp with time zone
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    SELECT to_timestamp(p_slice * slice_seconds) FROM js_data.clusters WHERE cluster_id = p_cluster $$;


--
-- Name: FUNCTION slice_start(p_cluster smallint, p_slice bigint); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.slice_start(p_cluster smallint, p_slice bigint) IS 'wall-clock start of a slice of a cluster';


--
-- Name: steps_resum(); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.steps_resum() RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
    n bigint;
BEGIN
    UPDATE js_data.steps s SET (processes, wall_ns, compute_ns, mpi_p2p_ns, mpi_coll_ns, io_posix_ns, io_stdio_ns, io_mpiio_ns, read_bytes, write_bytes, meta_calls, cpu_ns, killed_processes, files_dropped, idle_ns, mpi_setup_ns, cpu_wait_ns, max_rss_kib, unattributed_read_bytes, unattributed_write_bytes, kernel_io_unknown) =
        (t.processes, t.wall_ns, t.compute_ns, t.mpi_p2p_ns, t.mpi_coll_ns, t.io_posix_ns, t.io_stdio_ns, t.io_mpiio_ns, t.read_bytes, t.write_bytes, t.meta_calls, t.cpu_ns, t.killed_processes, t.files_dropped, t.idle_ns, t.mpi_setup_ns, t.cpu_wait_ns, t.max_rss_kib, t.unattributed_read_bytes, t.unattributed_write_bytes, t.kernel_io_unknown)
    FROM (SELECT a.cluster_id, a.job_id, a.step_id,
                 sum(a.processes)::integer AS processes,
                 sum(a.wall_ns)::bigint AS wall_ns,
                 sum(a.compute_ns)::bigint AS compute_ns,
                 sum(a.mpi_p2p_ns)::bigint AS mpi_p2p_ns,
                 sum(a.mpi_coll_ns)::bigint AS mpi_coll_ns,
                 sum(a.io_posix_ns)::bigint AS io_posix_ns,
                 sum(a.io_stdio_ns)::bigint AS io_stdio_ns,
                 sum(a.io_mpiio_ns)::bigint AS io_mpiio_ns,
                 sum(a.read_bytes)::bigint AS read_bytes,
                 sum(a.write_bytes)::bigint AS write_bytes,
                 sum(a.meta_calls)::bigint AS meta_calls,
                 sum(a.cpu_ns)::bigint AS cpu_ns,
                 sum(a.killed_processes)::integer AS killed_processes,
                 sum(a.files_dropped)::bigint AS files_dropped,
                 sum(a.idle_ns)::bigint AS idle_ns,
                 sum(a.mpi_setup_ns)::bigint AS mpi_setup_ns,
                 sum(a.cpu_wait_ns)::bigint AS cpu_wait_ns,
                 max(a.max_rss_kib)::bigint AS max_rss_kib,
                 sum(a.unattributed_read_bytes)::bigint AS unattributed_read_bytes,
                 sum(a.unattributed_write_bytes)::bigint AS unattributed_write_bytes,
                 sum(a.kernel_io_unknown)::integer AS kernel_io_unknown
          FROM js_data.step_node_process_sums a
          GROUP BY a.cluster_id, a.job_id, a.step_id) t
    WHERE s.cluster_id = t.cluster_id AND s.job_id = t.job_id AND s.step_id = t.step_id AND s.processes = 0;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END $$;


--
-- Name: FUNCTION steps_resum(); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.steps_resum() IS 'sum the processes of every step whose sums are still empty (js_data.steps.processes = 0) into it; returns the steps';


--
-- Name: unattributed(bigint, bigint); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.unattributed(p_kernel bigint, p_seen bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $$ SELECT greatest(p_kernel - p_seen, 0) $$;


--
-- Name: FUNCTION unattributed(p_kernel bigint, p_seen bigint); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.unattributed(p_kernel bigint, p_seen bigint) IS 'kernel count minus the wrappers'' count, at least 0; NULL when the kernel count is unknown';


--
-- Name: unlink_by_time(smallint, bigint[]); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.unlink_by_time(p_cluster smallint, p_jobs bigint[]) RETURNS void
    LANGUAGE sql
    AS $$
    DELETE FROM js_data.dependencies t
    WHERE t.cluster_id = p_cluster AND t.kind = 'time' AND t.to_job = ANY (p_jobs)
      AND EXISTS (SELECT 1 FROM js_data.dependencies d WHERE d.cluster_id = p_cluster AND d.to_job = t.to_job
                  AND d.kind <> 'time' AND d.from_job <> t.to_job)
$$;


--
-- Name: FUNCTION unlink_by_time(p_cluster smallint, p_jobs bigint[]); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.unlink_by_time(p_cluster smallint, p_jobs bigint[]) IS 'remove the time edges of jobs that have a scheduler or file edge now';


--
-- Name: workflow_summarise(smallint, bigint[]); Type: FUNCTION; Schema: js_data; Owner: -
--

CREATE FUNCTION js_data.workflow_summarise(p_cluster smallint, p_ids bigint[]) RETURNS void
    LANGUAGE sql
    AS $$
    UPDATE js_data.workflows w
    SET jobs = s.jobs, jobs_not_ok = s.jobs_not_ok, first_submit = s.first_submit,
        first_start = s.first_start, last_end = s.last_end
    FROM (SELECT i.id, count(j.job_id)::integer AS jobs,
                 count(*) FILTER (WHERE j.state NOT IN ('COMPLETED', 'RUNNING'))::integer AS jobs_not_ok,
                 min(j.submit_time) AS first_submit, min(j.start_time) AS first_start, max(j.end_time) AS last_end
          FROM unnest(p_ids) AS i(id)
          LEFT JOIN js_data.jobs j ON j.cluster_id = p_cluster AND j.workflow_id = i.id
          GROUP BY i.id) s
    WHERE w.cluster_id = p_cluster AND w.workflow_id = s.id
      AND (w.jobs, w.jobs_not_ok, w.first_submit, w.first_start, w.last_end)
          IS DISTINCT FROM (s.jobs, s.jobs_not_ok, s.first_submit, s.first_start, s.last_end)
$$;


--
-- Name: FUNCTION workflow_summarise(p_cluster smallint, p_ids bigint[]); Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON FUNCTION js_data.workflow_summarise(p_cluster smallint, p_ids bigint[]) IS 'the kept summary of workflows (jobs, jobs_not_ok, first_submit, first_start, last_end) from their jobs';


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: clusters; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.clusters (
    cluster_id smallint NOT NULL,
    name text NOT NULL,
    slice_seconds integer DEFAULT 4 NOT NULL,
    first_seen timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT clusters_slice_seconds_check CHECK (((slice_seconds >= 1) AND (slice_seconds <= 3600)))
);


--
-- Name: TABLE clusters; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.clusters IS 'Slurm clusters (ClusterName) whose spools are ingested';


--
-- Name: COLUMN clusters.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.clusters.cluster_id IS 'small surrogate key used in every other table';


--
-- Name: COLUMN clusters.name; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.clusters.name IS 'Slurm ClusterName as the job record names it';


--
-- Name: COLUMN clusters.slice_seconds; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.clusters.slice_seconds IS 'slice length L in seconds: slice = floor(epoch seconds / L)';


--
-- Name: COLUMN clusters.first_seen; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.clusters.first_seen IS 'when the first record of this cluster was ingested';


--
-- Name: clusters; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.clusters AS
 SELECT clusters.cluster_id,
    clusters.name AS cluster,
    clusters.slice_seconds
   FROM js_data.clusters;


--
-- Name: VIEW clusters; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.clusters IS 'clusters and their slice length';


--
-- Name: dependencies; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.dependencies (
    cluster_id smallint NOT NULL,
    kind text NOT NULL,
    from_job bigint NOT NULL,
    from_step text DEFAULT ''::text NOT NULL,
    to_job bigint NOT NULL,
    to_step text DEFAULT ''::text NOT NULL,
    file_id bigint DEFAULT 0 NOT NULL,
    condition text,
    from_time timestamp with time zone,
    to_time timestamp with time zone,
    created timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT dependencies_kind_check CHECK ((kind = ANY (ARRAY['scheduler'::text, 'file'::text, 'time'::text])))
);


--
-- Name: TABLE dependencies; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.dependencies IS 'stored dependency edges: scheduler (from the job record''s dependency string) and file (a step wrote a file a step of another job read later); time edges are derived in view js.dependencies';


--
-- Name: COLUMN dependencies.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependencies.cluster_id IS 'cluster';


--
-- Name: COLUMN dependencies.kind; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependencies.kind IS 'scheduler or file';


--
-- Name: COLUMN dependencies.from_job; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependencies.from_job IS 'upstream job';


--
-- Name: COLUMN dependencies.from_step; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependencies.from_step IS 'upstream step (file edges), empty for a job-level edge';


--
-- Name: COLUMN dependencies.to_job; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependencies.to_job IS 'downstream job';


--
-- Name: COLUMN dependencies.to_step; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependencies.to_step IS 'downstream step (file edges), empty for a job-level edge';


--
-- Name: COLUMN dependencies.file_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependencies.file_id IS 'file edges: the file written then read; 0 for scheduler edges';


--
-- Name: COLUMN dependencies.condition; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependencies.condition IS 'scheduler edges: the condition (afterok, afterany, afternotok, after, aftercorr, singleton)';


--
-- Name: COLUMN dependencies.from_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependencies.from_time IS 'file edges: the writer''s last write';


--
-- Name: COLUMN dependencies.to_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependencies.to_time IS 'file edges: the reader''s first read';


--
-- Name: COLUMN dependencies.created; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependencies.created IS 'when the ingest derived the edge';


--
-- Name: files; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.files (
    cluster_id smallint NOT NULL,
    file_id bigint NOT NULL,
    path text NOT NULL,
    node text DEFAULT ''::text NOT NULL,
    scope text NOT NULL,
    fs_type text,
    CONSTRAINT files_scope_check CHECK ((scope = ANY (ARRAY['shared'::text, 'local'::text])))
);


--
-- Name: TABLE files; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.files IS 'file identities: a path on a shared file system is one file cluster-wide, a node-local path is one file per node';


--
-- Name: COLUMN files.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.files.cluster_id IS 'cluster';


--
-- Name: COLUMN files.file_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.files.file_id IS 'surrogate key';


--
-- Name: COLUMN files.path; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.files.path IS 'absolute path as the profiler resolved it';


--
-- Name: COLUMN files.node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.files.node IS 'node name for a node-local file, empty for a shared one';


--
-- Name: COLUMN files.scope; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.files.scope IS 'shared or local, from the file system type the profiler saw';


--
-- Name: COLUMN files.fs_type; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.files.fs_type IS 'file system type name (nfs, lustre, ext4, tmpfs, ...) when known';


--
-- Name: jobs; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.jobs (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    uid integer NOT NULL,
    gid integer,
    name text,
    partition text,
    account text,
    workflow_tag text,
    workflow_id bigint,
    submit_time timestamp with time zone,
    start_time timestamp with time zone,
    end_time timestamp with time zone,
    state text,
    exit_code integer,
    num_nodes integer,
    num_cpus integer,
    num_tasks integer,
    nodelist text,
    dependency text,
    work_dir text,
    record jsonb NOT NULL,
    updated timestamp with time zone DEFAULT now() NOT NULL,
    array_job_id bigint,
    array_task_id integer,
    reason text
);


--
-- Name: TABLE jobs; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.jobs IS 'Slurm jobs, from the root-written job record (docs/record-format.md)';


--
-- Name: COLUMN jobs.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.cluster_id IS 'cluster the job ran on';


--
-- Name: COLUMN jobs.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.job_id IS 'Slurm job id (distribution column for Citus)';


--
-- Name: COLUMN jobs.uid; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.uid IS 'job user (profiles are accepted only from files this uid owns)';


--
-- Name: COLUMN jobs.gid; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.gid IS 'job group';


--
-- Name: COLUMN jobs.name; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.name IS 'job name (--job-name)';


--
-- Name: COLUMN jobs.partition; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.partition IS 'Slurm partition';


--
-- Name: COLUMN jobs.account; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.account IS 'Slurm account';


--
-- Name: COLUMN jobs.workflow_tag; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.workflow_tag IS 'the --workflow tag given at submission, NULL if none';


--
-- Name: COLUMN jobs.workflow_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.workflow_id IS 'workflow the job belongs to (js_data.workflows)';


--
-- Name: COLUMN jobs.submit_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.submit_time IS 'submission time';


--
-- Name: COLUMN jobs.start_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.start_time IS 'start time';


--
-- Name: COLUMN jobs.end_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.end_time IS 'end time, NULL while the record was written before the job ended';


--
-- Name: COLUMN jobs.state; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.state IS 'job state as the record gives it (RUNNING, COMPLETED, FAILED, ...)';


--
-- Name: COLUMN jobs.exit_code; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.exit_code IS 'job exit code';


--
-- Name: COLUMN jobs.num_nodes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.num_nodes IS 'number of nodes allocated';


--
-- Name: COLUMN jobs.num_cpus; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.num_cpus IS 'number of CPUs allocated';


--
-- Name: COLUMN jobs.num_tasks; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.num_tasks IS 'number of tasks requested';


--
-- Name: COLUMN jobs.nodelist; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.nodelist IS 'Slurm node list expression of the allocation';


--
-- Name: COLUMN jobs.dependency; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.dependency IS 'the dependency string captured while the job was alive (e.g. afterok:12:13)';


--
-- Name: COLUMN jobs.work_dir; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.work_dir IS 'working directory of the job';


--
-- Name: COLUMN jobs.record; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.record IS 'the whole job record as ingested, for fields without a column';


--
-- Name: COLUMN jobs.updated; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.updated IS 'when the ingest last wrote this row';


--
-- Name: COLUMN jobs.array_job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.array_job_id IS 'job id of the array this job is a task of (Slurm''s ArrayJobId), NULL if none';


--
-- Name: COLUMN jobs.array_task_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.array_task_id IS 'index of this task in its array (35_1: 1), NULL if none';


--
-- Name: COLUMN jobs.reason; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.jobs.reason IS 'Slurm''s reason for the job''s state: why a job that never started waited (DependencyNeverSatisfied, JobHeldUser), why one ended (TimeLimit, NonZeroExitCode); NULL when Slurm gave none';


--
-- Name: dependencies; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.dependencies AS
 SELECT d.cluster_id,
    d.kind,
    d.from_job,
    d.from_step,
    d.to_job,
    d.to_step,
    ja.uid AS from_uid,
    jb.uid AS to_uid,
    d.condition,
    NULLIF(d.file_id, 0) AS file_id,
    f.path,
    d.from_time,
    d.to_time
   FROM (((js_data.dependencies d
     LEFT JOIN js_data.jobs ja ON (((ja.cluster_id = d.cluster_id) AND (ja.job_id = d.from_job))))
     LEFT JOIN js_data.jobs jb ON (((jb.cluster_id = d.cluster_id) AND (jb.job_id = d.to_job))))
     LEFT JOIN js_data.files f ON (((f.cluster_id = d.cluster_id) AND (f.file_id = d.file_id))));


--
-- Name: VIEW dependencies; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.dependencies IS 'all dependency edges: kind scheduler (condition), file (from_step wrote file_id/path, last write from_time; to_step first read it at to_time) and time (from_time: the end of from_job; to_time: the start of to_job); from_uid may differ from to_uid for file edges';


--
-- Name: file_accesses; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.file_accesses (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    file_id bigint NOT NULL,
    mode text NOT NULL,
    processes integer NOT NULL,
    opens bigint DEFAULT 0 NOT NULL,
    reads bigint DEFAULT 0 NOT NULL,
    writes bigint DEFAULT 0 NOT NULL,
    bytes_read bigint DEFAULT 0 NOT NULL,
    bytes_written bigint DEFAULT 0 NOT NULL,
    first_access timestamp with time zone,
    last_access timestamp with time zone,
    first_read timestamp with time zone,
    last_write timestamp with time zone,
    parent_file_id bigint,
    interfaces text,
    dev bigint,
    ino bigint,
    mapped_bytes bigint DEFAULT 0 NOT NULL,
    CONSTRAINT file_accesses_mode_check CHECK ((mode = ANY (ARRAY['r'::text, 'w'::text, 'rw'::text])))
);


--
-- Name: TABLE file_accesses; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.file_accesses IS 'what a step did to a file on one node, summed over its processes';


--
-- Name: COLUMN file_accesses.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.cluster_id IS 'cluster';


--
-- Name: COLUMN file_accesses.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.job_id IS 'Slurm job id';


--
-- Name: COLUMN file_accesses.step_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.step_id IS 'step id in words';


--
-- Name: COLUMN file_accesses.node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.node IS 'node the processes ran on';


--
-- Name: COLUMN file_accesses.file_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.file_id IS 'the file (js_data.files)';


--
-- Name: COLUMN file_accesses.mode; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.mode IS 'r read-only, w write-only, rw read and written by the step';


--
-- Name: COLUMN file_accesses.processes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.processes IS 'number of processes that accessed the file';


--
-- Name: COLUMN file_accesses.opens; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.opens IS 'open calls';


--
-- Name: COLUMN file_accesses.reads; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.reads IS 'read calls';


--
-- Name: COLUMN file_accesses.writes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.writes IS 'write calls';


--
-- Name: COLUMN file_accesses.bytes_read; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.bytes_read IS 'bytes read';


--
-- Name: COLUMN file_accesses.bytes_written; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.bytes_written IS 'bytes written';


--
-- Name: COLUMN file_accesses.first_access; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.first_access IS 'first access by any process';


--
-- Name: COLUMN file_accesses.last_access; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.last_access IS 'last access by any process';


--
-- Name: COLUMN file_accesses.first_read; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.first_read IS 'first read by any process (NULL if never read)';


--
-- Name: COLUMN file_accesses.last_write; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.last_write IS 'last write by any process (NULL if never written)';


--
-- Name: COLUMN file_accesses.parent_file_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.parent_file_id IS 'for a lower-layer access, the file of the upper layer it served (e.g. the HDF5 file of a POSIX access)';


--
-- Name: COLUMN file_accesses.interfaces; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.interfaces IS 'comma-separated I/O interfaces used (posix, stdio, mpiio, ...)';


--
-- Name: COLUMN file_accesses.dev; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.dev IS 'st_dev of the file at the step''s first open of it on the node (NULL: unknown)';


--
-- Name: COLUMN file_accesses.ino; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.ino IS 'st_ino of the file at that open (NULL: unknown; above 2^63 it reads negative)';


--
-- Name: COLUMN file_accesses.mapped_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.file_accesses.mapped_bytes IS 'bytes of the file mapped into memory (mmap) by the step''s processes on the node';


--
-- Name: file_accesses; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.file_accesses AS
 SELECT a.cluster_id,
    a.job_id,
    a.step_id,
    a.node,
    j.uid,
    a.file_id,
    f.path,
    f.scope,
    f.node AS file_node,
    a.mode,
        CASE a.mode
            WHEN 'r'::text THEN 'read-only'::text
            WHEN 'w'::text THEN 'write-only'::text
            ELSE 'read-write'::text
        END AS access,
    a.processes,
    a.opens,
    a.reads,
    a.writes,
    a.bytes_read,
    a.bytes_written,
    a.first_access,
    a.last_access,
    a.first_read,
    a.last_write,
    a.interfaces,
    a.dev,
    a.ino,
    a.mapped_bytes
   FROM ((js_data.file_accesses a
     JOIN js_data.files f ON (((f.cluster_id = a.cluster_id) AND (f.file_id = a.file_id))))
     JOIN js_data.jobs j ON (((j.cluster_id = a.cluster_id) AND (j.job_id = a.job_id))));


--
-- Name: VIEW file_accesses; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.file_accesses IS 'what each step did to each file on each node; access = read-only, write-only or read-write; interfaces posix, stdio, mpiio, rename (the step renamed it to or from this name); dev and ino of the file at the first open; mapped_bytes: bytes of it mapped into memory';


--
-- Name: files; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.files AS
 SELECT files.cluster_id,
    files.file_id,
    files.path,
    files.node,
    files.scope,
    files.fs_type
   FROM js_data.files;


--
-- Name: VIEW files; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.files IS 'file identities (path + node for node-local files)';


--
-- Name: step_nodes; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.step_nodes (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    start_time timestamp with time zone,
    end_time timestamp with time zone,
    state text,
    exit_code integer,
    num_tasks integer,
    profiles integer DEFAULT 0 NOT NULL,
    quarantined integer DEFAULT 0 NOT NULL,
    incomplete boolean DEFAULT false NOT NULL,
    record jsonb NOT NULL,
    ingested_at timestamp with time zone DEFAULT now() NOT NULL,
    ingested_by text,
    incomplete_reason text,
    unrecorded integer DEFAULT 0 NOT NULL,
    unrecorded_reason text
);


--
-- Name: TABLE step_nodes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.step_nodes IS 'one row per ingested step record (a step on one node): the unit and exactly-once key of the ingest';


--
-- Name: COLUMN step_nodes.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.cluster_id IS 'cluster';


--
-- Name: COLUMN step_nodes.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.job_id IS 'Slurm job id';


--
-- Name: COLUMN step_nodes.step_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.step_id IS 'step id in words';


--
-- Name: COLUMN step_nodes.node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.node IS 'Slurm node name';


--
-- Name: COLUMN step_nodes.start_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.start_time IS 'step start on this node';


--
-- Name: COLUMN step_nodes.end_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.end_time IS 'step end on this node';


--
-- Name: COLUMN step_nodes.state; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.state IS 'step state on this node';


--
-- Name: COLUMN step_nodes.exit_code; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.exit_code IS 'exit code on this node';


--
-- Name: COLUMN step_nodes.num_tasks; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.num_tasks IS 'tasks of the step on this node';


--
-- Name: COLUMN step_nodes.profiles; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.profiles IS 'profiles accepted for this step on this node';


--
-- Name: COLUMN step_nodes.quarantined; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.quarantined IS 'profiles of this step on this node that were quarantined';


--
-- Name: COLUMN step_nodes.incomplete; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.incomplete IS 'true when a profile was quarantined, a profile says part of it is missing, or processes were not recorded: the step''s data on this node is partial';


--
-- Name: COLUMN step_nodes.record; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.record IS 'the step record as ingested';


--
-- Name: COLUMN step_nodes.ingested_at; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.ingested_at IS 'commit time of the ingest transaction';


--
-- Name: COLUMN step_nodes.ingested_by; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.ingested_by IS 'host:pid of the profile_ingest that ingested it';


--
-- Name: COLUMN step_nodes.incomplete_reason; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.incomplete_reason IS 'what is missing when incomplete, in words (e.g. 2 processes: CPU time after the kill); NULL when complete';


--
-- Name: COLUMN step_nodes.unrecorded; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.unrecorded IS 'processes of the step on this node the profiler refused to record (the job''s spool quota was reached), summed over its bundles; 0: none';


--
-- Name: COLUMN step_nodes.unrecorded_reason; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_nodes.unrecorded_reason IS 'why processes were not recorded, as the first bundle that said so gave it; NULL when none were refused or no reason was given';


--
-- Name: ingest_rate; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.ingest_rate AS
 SELECT date_trunc('minute'::text, step_nodes.ingested_at) AS minute,
    (count(*))::integer AS step_nodes,
    (sum(step_nodes.profiles))::integer AS profiles,
    (sum(step_nodes.quarantined))::integer AS quarantined
   FROM js_data.step_nodes
  GROUP BY (date_trunc('minute'::text, step_nodes.ingested_at));


--
-- Name: VIEW ingest_rate; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.ingest_rate IS 'step records ingested per minute (profile_ingest --status reads it)';


--
-- Name: live_step_nodes; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.live_step_nodes (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    start_time timestamp with time zone,
    snapshot_time timestamp with time zone NOT NULL,
    profiles integer DEFAULT 0 NOT NULL,
    running integer DEFAULT 0 NOT NULL,
    ingested_at timestamp with time zone DEFAULT now() NOT NULL,
    ingested_by text
);


--
-- Name: TABLE live_step_nodes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.live_step_nodes IS 'provisional: a step on a node that is still running, from its newest live snapshot; deleted when its step record is ingested';


--
-- Name: COLUMN live_step_nodes.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_step_nodes.cluster_id IS 'cluster';


--
-- Name: COLUMN live_step_nodes.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_step_nodes.job_id IS 'Slurm job id';


--
-- Name: COLUMN live_step_nodes.step_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_step_nodes.step_id IS 'step id in words';


--
-- Name: COLUMN live_step_nodes.node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_step_nodes.node IS 'Slurm node name';


--
-- Name: COLUMN live_step_nodes.start_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_step_nodes.start_time IS 'earliest start of the snapshot''s processes';


--
-- Name: COLUMN live_step_nodes.snapshot_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_step_nodes.snapshot_time IS 'modification time of the snapshot file stored (a snapshot of the same time is not stored again)';


--
-- Name: COLUMN live_step_nodes.profiles; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_step_nodes.profiles IS 'profiles (processes) in the snapshot';


--
-- Name: COLUMN live_step_nodes.running; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_step_nodes.running IS 'of them, processes still running (end "running")';


--
-- Name: COLUMN live_step_nodes.ingested_at; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_step_nodes.ingested_at IS 'commit time of the transaction that stored the snapshot';


--
-- Name: COLUMN live_step_nodes.ingested_by; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_step_nodes.ingested_by IS 'host:pid of the profile_ingest that stored it';


--
-- Name: steps; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.steps (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    name text,
    start_time timestamp with time zone,
    end_time timestamp with time zone,
    state text,
    exit_code integer,
    num_nodes integer,
    num_tasks integer,
    num_cpus integer,
    nodelist text,
    profiled boolean DEFAULT true NOT NULL,
    first_slice bigint,
    last_slice bigint,
    nodes_ingested integer DEFAULT 0 NOT NULL,
    incomplete boolean DEFAULT false NOT NULL,
    incomplete_reason text,
    processes integer DEFAULT 0 NOT NULL,
    wall_ns bigint DEFAULT 0 NOT NULL,
    compute_ns bigint DEFAULT 0 NOT NULL,
    mpi_p2p_ns bigint DEFAULT 0 NOT NULL,
    mpi_coll_ns bigint DEFAULT 0 NOT NULL,
    io_posix_ns bigint DEFAULT 0 NOT NULL,
    io_stdio_ns bigint DEFAULT 0 NOT NULL,
    io_mpiio_ns bigint DEFAULT 0 NOT NULL,
    read_bytes bigint DEFAULT 0 NOT NULL,
    write_bytes bigint DEFAULT 0 NOT NULL,
    meta_calls bigint DEFAULT 0 NOT NULL,
    cpu_ns bigint DEFAULT 0 NOT NULL,
    killed_processes integer DEFAULT 0 NOT NULL,
    files_dropped bigint DEFAULT 0 NOT NULL,
    idle_ns bigint,
    mpi_setup_ns bigint,
    cpu_wait_ns bigint,
    max_rss_kib bigint,
    unattributed_read_bytes bigint,
    unattributed_write_bytes bigint,
    kernel_io_unknown integer DEFAULT 0 NOT NULL
);


--
-- Name: TABLE steps; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.steps IS 'job steps (one srun, or the batch/extern/interactive step), merged over the step''s nodes';


--
-- Name: COLUMN steps.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.cluster_id IS 'cluster';


--
-- Name: COLUMN steps.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.job_id IS 'Slurm job id';


--
-- Name: COLUMN steps.step_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.step_id IS 'step id in words: a number, or batch, extern, interactive';


--
-- Name: COLUMN steps.name; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.name IS 'executable or step name from the step record';


--
-- Name: COLUMN steps.start_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.start_time IS 'earliest start over the step''s nodes';


--
-- Name: COLUMN steps.end_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.end_time IS 'latest end over the step''s nodes';


--
-- Name: COLUMN steps.state; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.state IS 'step state from the step record (of the last node ingested)';


--
-- Name: COLUMN steps.exit_code; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.exit_code IS 'largest exit code over the step''s nodes';


--
-- Name: COLUMN steps.num_nodes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.num_nodes IS 'number of nodes of the step';


--
-- Name: COLUMN steps.num_tasks; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.num_tasks IS 'number of tasks of the step';


--
-- Name: COLUMN steps.num_cpus; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.num_cpus IS 'number of CPUs of the step';


--
-- Name: COLUMN steps.nodelist; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.nodelist IS 'node list expression of the step';


--
-- Name: COLUMN steps.profiled; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.profiled IS 'false when the step opted out (--no-profile)';


--
-- Name: COLUMN steps.first_slice; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.first_slice IS 'first slice with metrics of this step (any node)';


--
-- Name: COLUMN steps.last_slice; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.last_slice IS 'last slice with metrics of this step (any node)';


--
-- Name: COLUMN steps.nodes_ingested; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.nodes_ingested IS 'how many of the step''s nodes have been ingested';


--
-- Name: COLUMN steps.incomplete; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.incomplete IS 'true when a node of the step is incomplete (a quarantined profile, a profile with something missing, processes not recorded)';


--
-- Name: COLUMN steps.incomplete_reason; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.incomplete_reason IS 'what is missing when incomplete, in words, counted over the step''s nodes; NULL when complete';


--
-- Name: COLUMN steps.processes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.processes IS 'over the step''s ingested processes: count(*) (js.steps)';


--
-- Name: COLUMN steps.wall_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.wall_ns IS 'over the step''s ingested processes: sum(p.wall_ns) (js.steps)';


--
-- Name: COLUMN steps.compute_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.compute_ns IS 'over the step''s ingested processes: sum(p.compute_ns) (js.steps)';


--
-- Name: COLUMN steps.mpi_p2p_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.mpi_p2p_ns IS 'over the step''s ingested processes: sum(p.mpi_p2p_ns) (js.steps)';


--
-- Name: COLUMN steps.mpi_coll_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.mpi_coll_ns IS 'over the step''s ingested processes: sum(p.mpi_coll_ns) (js.steps)';


--
-- Name: COLUMN steps.io_posix_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.io_posix_ns IS 'over the step''s ingested processes: sum(p.posix_ns) (js.steps)';


--
-- Name: COLUMN steps.io_stdio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.io_stdio_ns IS 'over the step''s ingested processes: sum(p.stdio_ns) (js.steps)';


--
-- Name: COLUMN steps.io_mpiio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.io_mpiio_ns IS 'over the step''s ingested processes: sum(p.mpiio_ns) (js.steps)';


--
-- Name: COLUMN steps.read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.read_bytes IS 'over the step''s ingested processes: sum(p.posix_read_bytes) + sum(p.stdio_read_bytes) + sum(p.mpiio_read_bytes) (js.steps)';


--
-- Name: COLUMN steps.write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.write_bytes IS 'over the step''s ingested processes: sum(p.posix_write_bytes) + sum(p.stdio_write_bytes) + sum(p.mpiio_write_bytes) (js.steps)';


--
-- Name: COLUMN steps.meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.meta_calls IS 'over the step''s ingested processes: sum(p.posix_open_calls) + sum(p.posix_meta_calls) + sum(p.stdio_open_calls) + sum(p.stdio_meta_calls) + sum(p.mpiio_meta_calls) (js.steps)';


--
-- Name: COLUMN steps.cpu_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.cpu_ns IS 'over the step''s ingested processes: sum(p.cpu_ns) (js.steps)';


--
-- Name: COLUMN steps.killed_processes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.killed_processes IS 'over the step''s ingested processes: count(*) FILTER (WHERE p.ended_by = ''signal'') (js.steps)';


--
-- Name: COLUMN steps.files_dropped; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.files_dropped IS 'over the step''s ingested processes: sum(p.files_dropped) (js.steps)';


--
-- Name: COLUMN steps.idle_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.idle_ns IS 'over the step''s ingested processes: sum(p.idle_ns) (js.steps)';


--
-- Name: COLUMN steps.mpi_setup_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.mpi_setup_ns IS 'over the step''s ingested processes: sum(p.mpi_setup_ns) (js.steps)';


--
-- Name: COLUMN steps.cpu_wait_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.cpu_wait_ns IS 'over the step''s ingested processes: sum(p.cpu_wait_ns) (js.steps)';


--
-- Name: COLUMN steps.max_rss_kib; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.max_rss_kib IS 'over the step''s ingested processes: max(p.max_rss_kib) (js.steps)';


--
-- Name: COLUMN steps.unattributed_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.unattributed_read_bytes IS 'over the step''s ingested processes: sum(js_data.unattributed(p.kernel_rchar, p.posix_read_bytes + p.stdio_read_bytes + p.lower_read_bytes)) (js.steps)';


--
-- Name: COLUMN steps.unattributed_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.unattributed_write_bytes IS 'over the step''s ingested processes: sum(js_data.unattributed(p.kernel_wchar, p.posix_write_bytes + p.stdio_write_bytes + p.lower_write_bytes)) (js.steps)';


--
-- Name: COLUMN steps.kernel_io_unknown; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.steps.kernel_io_unknown IS 'over the step''s ingested processes: count(*) FILTER (WHERE p.kernel_rchar IS NULL) (js.steps)';


--
-- Name: users; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.users (
    cluster_id smallint NOT NULL,
    uid integer NOT NULL,
    name text NOT NULL
);


--
-- Name: TABLE users; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.users IS 'job owners as the root-written job records name them';


--
-- Name: COLUMN users.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.users.cluster_id IS 'cluster the uid belongs to';


--
-- Name: COLUMN users.uid; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.users.uid IS 'numeric Unix uid of the job user';


--
-- Name: COLUMN users.name; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.users.name IS 'user name (the name the web server authenticates)';


--
-- Name: workflows; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.workflows (
    cluster_id smallint NOT NULL,
    workflow_id bigint NOT NULL,
    uid integer NOT NULL,
    tag text,
    name text NOT NULL,
    created timestamp with time zone DEFAULT now() NOT NULL,
    jobs integer DEFAULT 0 NOT NULL,
    jobs_not_ok integer DEFAULT 0 NOT NULL,
    first_submit timestamp with time zone,
    first_start timestamp with time zone,
    last_end timestamp with time zone
);


--
-- Name: TABLE workflows; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.workflows IS 'workflows: one per (user, --workflow tag), else one per connected component of scheduler and file edges among a user''s untagged jobs';


--
-- Name: COLUMN workflows.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.workflows.cluster_id IS 'cluster of the workflow''s jobs';


--
-- Name: COLUMN workflows.workflow_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.workflows.workflow_id IS 'surrogate key; a derived workflow keeps the smallest id when two merge';


--
-- Name: COLUMN workflows.uid; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.workflows.uid IS 'owner of every job in the workflow';


--
-- Name: COLUMN workflows.tag; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.workflows.tag IS 'the explicit --workflow tag, NULL for a derived workflow';


--
-- Name: COLUMN workflows.name; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.workflows.name IS 'the tag, or the name of the first job of a derived workflow';


--
-- Name: COLUMN workflows.created; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.workflows.created IS 'when the ingest created the workflow';


--
-- Name: COLUMN workflows.jobs; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.workflows.jobs IS 'its jobs (kept by js_data.workflow_summarise)';


--
-- Name: COLUMN workflows.jobs_not_ok; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.workflows.jobs_not_ok IS 'its jobs in a state other than COMPLETED or RUNNING';


--
-- Name: COLUMN workflows.first_submit; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.workflows.first_submit IS 'the first submit time of its jobs';


--
-- Name: COLUMN workflows.first_start; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.workflows.first_start IS 'the first start time of its jobs';


--
-- Name: COLUMN workflows.last_end; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.workflows.last_end IS 'the last end time of its jobs';


--
-- Name: jobs; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.jobs AS
 SELECT j.cluster_id,
    c.name AS cluster,
    j.job_id,
    j.uid,
    u.name AS user_name,
    j.gid,
    j.name,
    j.partition,
    j.account,
    j.workflow_id,
    ( SELECT w.name
           FROM js_data.workflows w
          WHERE ((w.cluster_id = j.cluster_id) AND (w.workflow_id = j.workflow_id))) AS workflow_name,
    j.workflow_tag,
    j.submit_time,
    j.start_time,
    j.end_time,
    (EXTRACT(epoch FROM (j.end_time - j.start_time)))::double precision AS elapsed_s,
    j.state,
    j.exit_code,
    j.num_nodes,
    j.num_cpus,
    j.num_tasks,
    j.nodelist,
    j.dependency,
    j.work_dir,
    ((j.record ->> 'final'::text))::boolean AS final,
    (( SELECT count(*) AS count
           FROM js_data.steps s
          WHERE ((s.cluster_id = j.cluster_id) AND (s.job_id = j.job_id))))::integer AS steps,
    (EXISTS ( SELECT 1
           FROM js_data.steps s
          WHERE ((s.cluster_id = j.cluster_id) AND (s.job_id = j.job_id) AND s.incomplete))) AS incomplete,
    (( SELECT count(DISTINCT l.step_id) AS count
           FROM js_data.live_step_nodes l
          WHERE ((l.cluster_id = j.cluster_id) AND (l.job_id = j.job_id))))::integer AS running_steps,
    j.array_job_id,
    j.array_task_id,
    j.reason,
    (j.record ->> 'qos'::text) AS qos,
    to_timestamp(((NULLIF(((j.record ->> 'eligible_ns'::text))::numeric, (0)::numeric) / '1000000000'::numeric))::double precision) AS eligible_time,
    (j.record ->> 'batch_script'::text) AS batch_script
   FROM ((js_data.jobs j
     JOIN js_data.clusters c USING (cluster_id))
     LEFT JOIN js_data.users u ON (((u.cluster_id = j.cluster_id) AND (u.uid = j.uid))));


--
-- Name: VIEW jobs; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.jobs IS 'jobs with user and workflow names; final is false while the record was written before the job ended; running_steps counts the steps with provisional data (running); array_job_id/array_task_id name an array task (35_1); reason is Slurm''s state reason (a job that never started: why it waited); qos, eligible_time (when it became eligible to run) and batch_script (its path as submitted; NULL for srun jobs and --wrap) as the job record gave them';


--
-- Name: live_processes; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.live_processes (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    pid integer NOT NULL,
    image integer DEFAULT 0 NOT NULL,
    ppid integer,
    task_id integer,
    mpi_rank integer,
    mpi_size integer,
    origin text,
    ended_by text,
    exe text,
    args text,
    start_time timestamp with time zone NOT NULL,
    end_time timestamp with time zone NOT NULL,
    wall_ns bigint NOT NULL,
    cpu_user_ns bigint NOT NULL,
    cpu_sys_ns bigint NOT NULL,
    max_rss_kib bigint NOT NULL,
    threads_peak integer NOT NULL,
    threads_seen integer NOT NULL,
    compute_ns bigint NOT NULL,
    slices_truncated boolean NOT NULL,
    files_dropped bigint NOT NULL,
    mpi_collectives jsonb,
    posix_read_calls bigint DEFAULT 0 NOT NULL,
    posix_read_bytes bigint DEFAULT 0 NOT NULL,
    posix_write_calls bigint DEFAULT 0 NOT NULL,
    posix_write_bytes bigint DEFAULT 0 NOT NULL,
    posix_open_calls bigint DEFAULT 0 NOT NULL,
    posix_meta_calls bigint DEFAULT 0 NOT NULL,
    posix_ns bigint DEFAULT 0 NOT NULL,
    stdio_read_calls bigint DEFAULT 0 NOT NULL,
    stdio_read_bytes bigint DEFAULT 0 NOT NULL,
    stdio_write_calls bigint DEFAULT 0 NOT NULL,
    stdio_write_bytes bigint DEFAULT 0 NOT NULL,
    stdio_open_calls bigint DEFAULT 0 NOT NULL,
    stdio_meta_calls bigint DEFAULT 0 NOT NULL,
    stdio_ns bigint DEFAULT 0 NOT NULL,
    lower_read_bytes bigint DEFAULT 0 NOT NULL,
    lower_write_bytes bigint DEFAULT 0 NOT NULL,
    mpi_send_calls bigint DEFAULT 0 NOT NULL,
    mpi_send_bytes bigint DEFAULT 0 NOT NULL,
    mpi_recv_calls bigint DEFAULT 0 NOT NULL,
    mpi_recv_bytes bigint DEFAULT 0 NOT NULL,
    mpi_p2p_ns bigint DEFAULT 0 NOT NULL,
    mpi_coll_calls bigint DEFAULT 0 NOT NULL,
    mpi_coll_bytes bigint DEFAULT 0 NOT NULL,
    mpi_coll_ns bigint DEFAULT 0 NOT NULL,
    mpiio_read_calls bigint DEFAULT 0 NOT NULL,
    mpiio_read_bytes bigint DEFAULT 0 NOT NULL,
    mpiio_write_calls bigint DEFAULT 0 NOT NULL,
    mpiio_write_bytes bigint DEFAULT 0 NOT NULL,
    mpiio_coll_calls bigint DEFAULT 0 NOT NULL,
    mpiio_meta_calls bigint DEFAULT 0 NOT NULL,
    mpiio_ns bigint DEFAULT 0 NOT NULL,
    cpu_ns bigint DEFAULT 0 NOT NULL,
    exit_code integer,
    signal integer DEFAULT 0 NOT NULL,
    missing text DEFAULT ''::text NOT NULL,
    idle_ns bigint,
    mpi_setup_ns bigint,
    cpu_wait_ns bigint,
    kernel_rchar bigint,
    kernel_wchar bigint,
    kernel_syscr bigint,
    kernel_syscw bigint,
    kernel_read_bytes bigint,
    kernel_write_bytes bigint
);


--
-- Name: TABLE live_processes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.live_processes IS 'provisional per-process totals of running step-nodes (js_data.processes'' columns; ended_by running for a process still running, end_time then the snapshot''s time of it)';


--
-- Name: COLUMN live_processes.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.cluster_id IS 'cluster';


--
-- Name: COLUMN live_processes.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.job_id IS 'Slurm job id';


--
-- Name: COLUMN live_processes.step_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.step_id IS 'step id in words';


--
-- Name: COLUMN live_processes.node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.node IS 'node the process ran on';


--
-- Name: COLUMN live_processes.pid; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.pid IS 'process id';


--
-- Name: COLUMN live_processes.image; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.image IS 'number of the image among the profiles of this pid (exec keeps the pid), in start order from 0';


--
-- Name: COLUMN live_processes.ppid; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.ppid IS 'parent process id';


--
-- Name: COLUMN live_processes.task_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.task_id IS 'Slurm global task id (rank), NULL when unset';


--
-- Name: COLUMN live_processes.mpi_rank; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpi_rank IS 'rank in MPI_COMM_WORLD, NULL when not an MPI process';


--
-- Name: COLUMN live_processes.mpi_size; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpi_size IS 'size of MPI_COMM_WORLD, NULL when not an MPI process';


--
-- Name: COLUMN live_processes.origin; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.origin IS 'start (new image) or fork (forked child)';


--
-- Name: COLUMN live_processes.ended_by; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.ended_by IS 'how the image ended: exit, _exit, exec, signal (killed by one) or unknown (gone, its end not seen)';


--
-- Name: COLUMN live_processes.exe; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.exe IS 'executable (/proc/self/exe)';


--
-- Name: COLUMN live_processes.args; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.args IS 'command line, arguments separated by spaces (truncated by the profiler)';


--
-- Name: COLUMN live_processes.start_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.start_time IS 'when recording began';


--
-- Name: COLUMN live_processes.end_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.end_time IS 'when the profile was written; for a killed process when its death was seen (or its last recorded activity)';


--
-- Name: COLUMN live_processes.wall_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.wall_ns IS 'wall time of the image (ns)';


--
-- Name: COLUMN live_processes.cpu_user_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.cpu_user_ns IS 'user CPU time of all threads (ns)';


--
-- Name: COLUMN live_processes.cpu_sys_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.cpu_sys_ns IS 'system CPU time of all threads (ns)';


--
-- Name: COLUMN live_processes.max_rss_kib; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.max_rss_kib IS 'peak resident set size (KiB)';


--
-- Name: COLUMN live_processes.threads_peak; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.threads_peak IS 'most threads doing I/O or MPI at once, plus the main thread';


--
-- Name: COLUMN live_processes.threads_seen; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.threads_seen IS 'threads that made a recorded call, plus the main thread';


--
-- Name: COLUMN live_processes.compute_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.compute_ns IS 'runtime share: wall time minus the time in I/O and MPI (posix_ns, stdio_ns, mpiio_ns, mpi_p2p_ns, mpi_coll_ns), at least 0 (ns)';


--
-- Name: COLUMN live_processes.slices_truncated; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.slices_truncated IS 'true when the profiler''s slice budget ran out: later slices are missing';


--
-- Name: COLUMN live_processes.files_dropped; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.files_dropped IS 'files the profiler did not list because its list was full';


--
-- Name: COLUMN live_processes.mpi_collectives; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpi_collectives IS 'per collective kind {calls, bytes, ns}, as the profile gives it';


--
-- Name: COLUMN live_processes.posix_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application (calls)';


--
-- Name: COLUMN live_processes.posix_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.posix_read_bytes IS 'bytes returned by those reads (bytes)';


--
-- Name: COLUMN live_processes.posix_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application (calls)';


--
-- Name: COLUMN live_processes.posix_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.posix_write_bytes IS 'bytes accepted by those writes (bytes)';


--
-- Name: COLUMN live_processes.posix_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.posix_open_calls IS 'open, openat, creat (and 64-bit variants) (calls)';


--
-- Name: COLUMN live_processes.posix_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir (calls)';


--
-- Name: COLUMN live_processes.posix_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.posix_ns IS 'time in POSIX I/O calls (sampled estimate) (ns)';


--
-- Name: COLUMN live_processes.stdio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.stdio_read_calls IS 'fread, fgets, fgetc/getc, fscanf family on file streams (calls)';


--
-- Name: COLUMN live_processes.stdio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.stdio_read_bytes IS 'bytes returned to the application by those calls (bytes)';


--
-- Name: COLUMN live_processes.stdio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family on file streams (calls)';


--
-- Name: COLUMN live_processes.stdio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.stdio_write_bytes IS 'bytes handed to the stream by those calls (bytes)';


--
-- Name: COLUMN live_processes.stdio_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.stdio_open_calls IS 'fopen, fdopen, freopen (and 64-bit variants) (calls)';


--
-- Name: COLUMN live_processes.stdio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.stdio_meta_calls IS 'fclose, fflush, fseek family (calls)';


--
-- Name: COLUMN live_processes.stdio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.stdio_ns IS 'time in stdio calls (sampled estimate) (ns)';


--
-- Name: COLUMN live_processes.lower_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.lower_read_bytes IS 'POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';


--
-- Name: COLUMN live_processes.lower_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.lower_write_bytes IS 'POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';


--
-- Name: COLUMN live_processes.mpi_send_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpi_send_calls IS 'point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';


--
-- Name: COLUMN live_processes.mpi_send_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpi_send_bytes IS 'bytes of those sends (count x type size) (bytes)';


--
-- Name: COLUMN live_processes.mpi_recv_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpi_recv_calls IS 'point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';


--
-- Name: COLUMN live_processes.mpi_recv_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpi_recv_bytes IS 'bytes of those receives as posted (count x type size) (bytes)';


--
-- Name: COLUMN live_processes.mpi_p2p_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpi_p2p_ns IS 'time in point-to-point calls, including wait and test (ns)';


--
-- Name: COLUMN live_processes.mpi_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives) (calls)';


--
-- Name: COLUMN live_processes.mpi_coll_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpi_coll_bytes IS 'send-side bytes of those collectives on this rank (bytes)';


--
-- Name: COLUMN live_processes.mpi_coll_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpi_coll_ns IS 'time in collective calls (ns)';


--
-- Name: COLUMN live_processes.mpiio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpiio_read_calls IS 'MPI_File_read* calls (calls)';


--
-- Name: COLUMN live_processes.mpiio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpiio_read_bytes IS 'bytes of those reads (count x type size) (bytes)';


--
-- Name: COLUMN live_processes.mpiio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpiio_write_calls IS 'MPI_File_write* calls (calls)';


--
-- Name: COLUMN live_processes.mpiio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpiio_write_bytes IS 'bytes of those writes (count x type size) (bytes)';


--
-- Name: COLUMN live_processes.mpiio_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpiio_coll_calls IS 'the collective ones (_all) among the MPI-IO reads and writes (calls)';


--
-- Name: COLUMN live_processes.mpiio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpiio_meta_calls IS 'MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';


--
-- Name: COLUMN live_processes.mpiio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpiio_ns IS 'time in MPI-IO calls (ns)';


--
-- Name: COLUMN live_processes.cpu_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.cpu_ns IS 'CPU time (user + system) of the process in the slice (ns)';


--
-- Name: COLUMN live_processes.exit_code; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.exit_code IS 'exit status 0-255 when known, NULL otherwise (killed, not seen, or a version 1 profile)';


--
-- Name: COLUMN live_processes.signal; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.signal IS 'number of the signal that killed the process, 0 otherwise';


--
-- Name: COLUMN live_processes.missing; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.missing IS 'empty when the profile is complete, else what is missing of it, in words (e.g. slices after the 1 MiB slice budget)';


--
-- Name: COLUMN live_processes.idle_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.idle_ns IS 'as in js_data.processes';


--
-- Name: COLUMN live_processes.mpi_setup_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.mpi_setup_ns IS 'as in js_data.processes';


--
-- Name: COLUMN live_processes.cpu_wait_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.cpu_wait_ns IS 'as in js_data.processes';


--
-- Name: COLUMN live_processes.kernel_rchar; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.kernel_rchar IS 'as in js_data.processes';


--
-- Name: COLUMN live_processes.kernel_wchar; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.kernel_wchar IS 'as in js_data.processes';


--
-- Name: COLUMN live_processes.kernel_syscr; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.kernel_syscr IS 'as in js_data.processes';


--
-- Name: COLUMN live_processes.kernel_syscw; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.kernel_syscw IS 'as in js_data.processes';


--
-- Name: COLUMN live_processes.kernel_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.kernel_read_bytes IS 'as in js_data.processes';


--
-- Name: COLUMN live_processes.kernel_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_processes.kernel_write_bytes IS 'as in js_data.processes';


--
-- Name: live_slice_metrics; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.live_slice_metrics (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    slice bigint NOT NULL,
    processes integer NOT NULL,
    posix_read_calls bigint DEFAULT 0 NOT NULL,
    posix_read_bytes bigint DEFAULT 0 NOT NULL,
    posix_write_calls bigint DEFAULT 0 NOT NULL,
    posix_write_bytes bigint DEFAULT 0 NOT NULL,
    posix_open_calls bigint DEFAULT 0 NOT NULL,
    posix_meta_calls bigint DEFAULT 0 NOT NULL,
    posix_ns bigint DEFAULT 0 NOT NULL,
    stdio_read_calls bigint DEFAULT 0 NOT NULL,
    stdio_read_bytes bigint DEFAULT 0 NOT NULL,
    stdio_write_calls bigint DEFAULT 0 NOT NULL,
    stdio_write_bytes bigint DEFAULT 0 NOT NULL,
    stdio_open_calls bigint DEFAULT 0 NOT NULL,
    stdio_meta_calls bigint DEFAULT 0 NOT NULL,
    stdio_ns bigint DEFAULT 0 NOT NULL,
    lower_read_bytes bigint DEFAULT 0 NOT NULL,
    lower_write_bytes bigint DEFAULT 0 NOT NULL,
    mpi_send_calls bigint DEFAULT 0 NOT NULL,
    mpi_send_bytes bigint DEFAULT 0 NOT NULL,
    mpi_recv_calls bigint DEFAULT 0 NOT NULL,
    mpi_recv_bytes bigint DEFAULT 0 NOT NULL,
    mpi_p2p_ns bigint DEFAULT 0 NOT NULL,
    mpi_coll_calls bigint DEFAULT 0 NOT NULL,
    mpi_coll_bytes bigint DEFAULT 0 NOT NULL,
    mpi_coll_ns bigint DEFAULT 0 NOT NULL,
    mpiio_read_calls bigint DEFAULT 0 NOT NULL,
    mpiio_read_bytes bigint DEFAULT 0 NOT NULL,
    mpiio_write_calls bigint DEFAULT 0 NOT NULL,
    mpiio_write_bytes bigint DEFAULT 0 NOT NULL,
    mpiio_coll_calls bigint DEFAULT 0 NOT NULL,
    mpiio_meta_calls bigint DEFAULT 0 NOT NULL,
    mpiio_ns bigint DEFAULT 0 NOT NULL,
    cpu_ns bigint DEFAULT 0 NOT NULL,
    kernel_rchar bigint DEFAULT 0 NOT NULL,
    kernel_wchar bigint DEFAULT 0 NOT NULL,
    kernel_syscr bigint DEFAULT 0 NOT NULL,
    kernel_syscw bigint DEFAULT 0 NOT NULL,
    kernel_read_bytes bigint DEFAULT 0 NOT NULL,
    kernel_write_bytes bigint DEFAULT 0 NOT NULL
);


--
-- Name: TABLE live_slice_metrics; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.live_slice_metrics IS 'provisional per-slice metric vectors of running step-nodes (js_data.slice_metrics'' columns); never folded into the slice totals';


--
-- Name: COLUMN live_slice_metrics.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.cluster_id IS 'cluster';


--
-- Name: COLUMN live_slice_metrics.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.job_id IS 'Slurm job id';


--
-- Name: COLUMN live_slice_metrics.step_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.step_id IS 'step id in words';


--
-- Name: COLUMN live_slice_metrics.node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.node IS 'node';


--
-- Name: COLUMN live_slice_metrics.slice; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.slice IS 'slice index: floor(epoch seconds / slice length)';


--
-- Name: COLUMN live_slice_metrics.processes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.processes IS 'processes of the step on this node with activity in this slice';


--
-- Name: COLUMN live_slice_metrics.posix_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application (calls)';


--
-- Name: COLUMN live_slice_metrics.posix_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.posix_read_bytes IS 'bytes returned by those reads (bytes)';


--
-- Name: COLUMN live_slice_metrics.posix_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application (calls)';


--
-- Name: COLUMN live_slice_metrics.posix_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.posix_write_bytes IS 'bytes accepted by those writes (bytes)';


--
-- Name: COLUMN live_slice_metrics.posix_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.posix_open_calls IS 'open, openat, creat (and 64-bit variants) (calls)';


--
-- Name: COLUMN live_slice_metrics.posix_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir (calls)';


--
-- Name: COLUMN live_slice_metrics.posix_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.posix_ns IS 'time in POSIX I/O calls (sampled estimate) (ns)';


--
-- Name: COLUMN live_slice_metrics.stdio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_read_calls IS 'fread, fgets, fgetc/getc, fscanf family on file streams (calls)';


--
-- Name: COLUMN live_slice_metrics.stdio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_read_bytes IS 'bytes returned to the application by those calls (bytes)';


--
-- Name: COLUMN live_slice_metrics.stdio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family on file streams (calls)';


--
-- Name: COLUMN live_slice_metrics.stdio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_write_bytes IS 'bytes handed to the stream by those calls (bytes)';


--
-- Name: COLUMN live_slice_metrics.stdio_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_open_calls IS 'fopen, fdopen, freopen (and 64-bit variants) (calls)';


--
-- Name: COLUMN live_slice_metrics.stdio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_meta_calls IS 'fclose, fflush, fseek family (calls)';


--
-- Name: COLUMN live_slice_metrics.stdio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_ns IS 'time in stdio calls (sampled estimate) (ns)';


--
-- Name: COLUMN live_slice_metrics.lower_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.lower_read_bytes IS 'POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';


--
-- Name: COLUMN live_slice_metrics.lower_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.lower_write_bytes IS 'POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';


--
-- Name: COLUMN live_slice_metrics.mpi_send_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_send_calls IS 'point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';


--
-- Name: COLUMN live_slice_metrics.mpi_send_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_send_bytes IS 'bytes of those sends (count x type size) (bytes)';


--
-- Name: COLUMN live_slice_metrics.mpi_recv_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_recv_calls IS 'point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';


--
-- Name: COLUMN live_slice_metrics.mpi_recv_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_recv_bytes IS 'bytes of those receives as posted (count x type size) (bytes)';


--
-- Name: COLUMN live_slice_metrics.mpi_p2p_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_p2p_ns IS 'time in point-to-point calls, including wait and test (ns)';


--
-- Name: COLUMN live_slice_metrics.mpi_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives) (calls)';


--
-- Name: COLUMN live_slice_metrics.mpi_coll_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_coll_bytes IS 'send-side bytes of those collectives on this rank (bytes)';


--
-- Name: COLUMN live_slice_metrics.mpi_coll_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_coll_ns IS 'time in collective calls (ns)';


--
-- Name: COLUMN live_slice_metrics.mpiio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_read_calls IS 'MPI_File_read* calls (calls)';


--
-- Name: COLUMN live_slice_metrics.mpiio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_read_bytes IS 'bytes of those reads (count x type size) (bytes)';


--
-- Name: COLUMN live_slice_metrics.mpiio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_write_calls IS 'MPI_File_write* calls (calls)';


--
-- Name: COLUMN live_slice_metrics.mpiio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_write_bytes IS 'bytes of those writes (count x type size) (bytes)';


--
-- Name: COLUMN live_slice_metrics.mpiio_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_coll_calls IS 'the collective ones (_all) among the MPI-IO reads and writes (calls)';


--
-- Name: COLUMN live_slice_metrics.mpiio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_meta_calls IS 'MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';


--
-- Name: COLUMN live_slice_metrics.mpiio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_ns IS 'time in MPI-IO calls (ns)';


--
-- Name: COLUMN live_slice_metrics.cpu_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.cpu_ns IS 'CPU time (user + system) of the process in the slice (ns)';


--
-- Name: COLUMN live_slice_metrics.kernel_rchar; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.kernel_rchar IS 'the kernel''s count in the slice, summed over the processes whose counts are known: bytes returned by read-like system calls on anything (files, pipes, sockets, terminals) (bytes); 0 before profile format 5';


--
-- Name: COLUMN live_slice_metrics.kernel_wchar; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.kernel_wchar IS 'the kernel''s count in the slice, summed over the processes whose counts are known: bytes passed to write-like system calls on anything (bytes); 0 before profile format 5';


--
-- Name: COLUMN live_slice_metrics.kernel_syscr; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.kernel_syscr IS 'the kernel''s count in the slice, summed over the processes whose counts are known: read-like system calls (calls); 0 before profile format 5';


--
-- Name: COLUMN live_slice_metrics.kernel_syscw; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.kernel_syscw IS 'the kernel''s count in the slice, summed over the processes whose counts are known: write-like system calls (calls); 0 before profile format 5';


--
-- Name: COLUMN live_slice_metrics.kernel_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.kernel_read_bytes IS 'the kernel''s count in the slice, summed over the processes whose counts are known: bytes the processes caused to be fetched from storage (bytes); 0 before profile format 5';


--
-- Name: COLUMN live_slice_metrics.kernel_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.live_slice_metrics.kernel_write_bytes IS 'the kernel''s count in the slice, summed over the processes whose counts are known: bytes the processes caused to be sent to storage (dirtied page cache) (bytes); 0 before profile format 5';


--
-- Name: steps; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.steps AS
 SELECT s.cluster_id,
    s.job_id,
    s.step_id,
    j.uid,
    s.name,
    s.start_time,
    s.end_time,
    (EXTRACT(epoch FROM (s.end_time - s.start_time)))::double precision AS elapsed_s,
    s.state,
    s.exit_code,
    s.num_nodes,
    s.num_tasks,
    s.num_cpus,
    s.nodelist,
    s.profiled,
    s.first_slice,
    s.last_slice,
    s.nodes_ingested,
    s.incomplete,
    s.processes,
    s.wall_ns,
    s.compute_ns,
    s.mpi_p2p_ns,
    s.mpi_coll_ns,
    s.io_posix_ns,
    s.io_stdio_ns,
    s.io_mpiio_ns,
    s.read_bytes,
    s.write_bytes,
    s.meta_calls,
    s.cpu_ns,
    s.incomplete_reason,
    s.killed_processes,
    ( SELECT (COALESCE(sum(sn.unrecorded), (0)::bigint))::integer AS "coalesce"
           FROM js_data.step_nodes sn
          WHERE ((sn.cluster_id = s.cluster_id) AND (sn.job_id = s.job_id) AND (sn.step_id = s.step_id))) AS unrecorded_processes,
    (EXISTS ( SELECT 1
           FROM js_data.live_step_nodes l
          WHERE ((l.cluster_id = s.cluster_id) AND (l.job_id = s.job_id) AND (l.step_id = s.step_id)))) AS live,
    s.files_dropped,
    s.idle_ns,
    s.mpi_setup_ns,
    s.cpu_wait_ns,
    s.max_rss_kib,
    s.unattributed_read_bytes,
    s.unattributed_write_bytes,
    s.kernel_io_unknown
   FROM (js_data.steps s
     JOIN js_data.jobs j ON (((j.cluster_id = s.cluster_id) AND (j.job_id = s.job_id))))
UNION ALL
 SELECT l.cluster_id,
    l.job_id,
    l.step_id,
    j.uid,
    NULL::text AS name,
    l.start_time,
    l.end_time,
    (EXTRACT(epoch FROM (l.end_time - l.start_time)))::double precision AS elapsed_s,
    'RUNNING'::text AS state,
    NULL::integer AS exit_code,
    l.num_nodes,
    NULL::integer AS num_tasks,
    NULL::integer AS num_cpus,
    l.nodelist,
    true AS profiled,
    sl.first_slice,
    sl.last_slice,
    0 AS nodes_ingested,
    false AS incomplete,
    (COALESCE(p.processes, (0)::bigint))::integer AS processes,
    (COALESCE(p.wall_ns, (0)::numeric))::bigint AS wall_ns,
    (COALESCE(p.compute_ns, (0)::numeric))::bigint AS compute_ns,
    (COALESCE(p.mpi_p2p_ns, (0)::numeric))::bigint AS mpi_p2p_ns,
    (COALESCE(p.mpi_coll_ns, (0)::numeric))::bigint AS mpi_coll_ns,
    (COALESCE(p.posix_ns, (0)::numeric))::bigint AS io_posix_ns,
    (COALESCE(p.stdio_ns, (0)::numeric))::bigint AS io_stdio_ns,
    (COALESCE(p.mpiio_ns, (0)::numeric))::bigint AS io_mpiio_ns,
    (COALESCE(((p.posix_read_bytes + p.stdio_read_bytes) + p.mpiio_read_bytes), (0)::numeric))::bigint AS read_bytes,
    (COALESCE(((p.posix_write_bytes + p.stdio_write_bytes) + p.mpiio_write_bytes), (0)::numeric))::bigint AS write_bytes,
    (COALESCE(((((p.posix_open_calls + p.posix_meta_calls) + p.stdio_open_calls) + p.stdio_meta_calls) + p.mpiio_meta_calls), (0)::numeric))::bigint AS meta_calls,
    (COALESCE(p.cpu_ns, (0)::numeric))::bigint AS cpu_ns,
    NULL::text AS incomplete_reason,
    (COALESCE(p.killed_processes, (0)::bigint))::integer AS killed_processes,
    0 AS unrecorded_processes,
    true AS live,
    (COALESCE(p.files_dropped, (0)::numeric))::bigint AS files_dropped,
    (p.idle_ns)::bigint AS idle_ns,
    (p.mpi_setup_ns)::bigint AS mpi_setup_ns,
    (p.cpu_wait_ns)::bigint AS cpu_wait_ns,
    p.max_rss_kib,
    (p.unattributed_read_bytes)::bigint AS unattributed_read_bytes,
    (p.unattributed_write_bytes)::bigint AS unattributed_write_bytes,
    (COALESCE(p.kernel_io_unknown, (0)::bigint))::integer AS kernel_io_unknown
   FROM (((( SELECT live_step_nodes.cluster_id,
            live_step_nodes.job_id,
            live_step_nodes.step_id,
            min(live_step_nodes.start_time) AS start_time,
            max(live_step_nodes.snapshot_time) AS end_time,
            (count(*))::integer AS num_nodes,
            string_agg(live_step_nodes.node, ','::text ORDER BY live_step_nodes.node) AS nodelist
           FROM js_data.live_step_nodes
          GROUP BY live_step_nodes.cluster_id, live_step_nodes.job_id, live_step_nodes.step_id) l
     JOIN js_data.jobs j ON (((j.cluster_id = l.cluster_id) AND (j.job_id = l.job_id))))
     LEFT JOIN LATERAL ( SELECT min(m.slice) AS first_slice,
            max(m.slice) AS last_slice
           FROM js_data.live_slice_metrics m
          WHERE ((m.cluster_id = l.cluster_id) AND (m.job_id = l.job_id) AND (m.step_id = l.step_id))) sl ON (true))
     LEFT JOIN LATERAL ( SELECT count(*) AS processes,
            sum(p_1.wall_ns) AS wall_ns,
            sum(p_1.compute_ns) AS compute_ns,
            sum(p_1.mpi_p2p_ns) AS mpi_p2p_ns,
            sum(p_1.mpi_coll_ns) AS mpi_coll_ns,
            sum(p_1.posix_ns) AS posix_ns,
            sum(p_1.stdio_ns) AS stdio_ns,
            sum(p_1.mpiio_ns) AS mpiio_ns,
            sum(p_1.posix_read_bytes) AS posix_read_bytes,
            sum(p_1.stdio_read_bytes) AS stdio_read_bytes,
            sum(p_1.mpiio_read_bytes) AS mpiio_read_bytes,
            sum(p_1.posix_write_bytes) AS posix_write_bytes,
            sum(p_1.stdio_write_bytes) AS stdio_write_bytes,
            sum(p_1.mpiio_write_bytes) AS mpiio_write_bytes,
            sum(p_1.posix_open_calls) AS posix_open_calls,
            sum(p_1.posix_meta_calls) AS posix_meta_calls,
            sum(p_1.stdio_open_calls) AS stdio_open_calls,
            sum(p_1.stdio_meta_calls) AS stdio_meta_calls,
            sum(p_1.mpiio_meta_calls) AS mpiio_meta_calls,
            sum(p_1.cpu_ns) AS cpu_ns,
            count(*) FILTER (WHERE (p_1.ended_by = 'signal'::text)) AS killed_processes,
            sum(p_1.files_dropped) AS files_dropped,
            sum(p_1.idle_ns) AS idle_ns,
            sum(p_1.mpi_setup_ns) AS mpi_setup_ns,
            sum(p_1.cpu_wait_ns) AS cpu_wait_ns,
            max(p_1.max_rss_kib) AS max_rss_kib,
            sum(js_data.unattributed(p_1.kernel_rchar, ((p_1.posix_read_bytes + p_1.stdio_read_bytes) + p_1.lower_read_bytes))) AS unattributed_read_bytes,
            sum(js_data.unattributed(p_1.kernel_wchar, ((p_1.posix_write_bytes + p_1.stdio_write_bytes) + p_1.lower_write_bytes))) AS unattributed_write_bytes,
            count(*) FILTER (WHERE (p_1.kernel_rchar IS NULL)) AS kernel_io_unknown
           FROM js_data.live_processes p_1
          WHERE ((p_1.cluster_id = l.cluster_id) AND (p_1.job_id = l.job_id) AND (p_1.step_id = l.step_id))) p ON (true))
  WHERE (NOT (EXISTS ( SELECT 1
           FROM js_data.steps s
          WHERE ((s.cluster_id = l.cluster_id) AND (s.job_id = l.job_id) AND (s.step_id = l.step_id)))));


--
-- Name: VIEW steps; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.steps IS 'steps merged over their nodes, with the runtime share summed over their processes (compute_ns + mpi_p2p_ns + mpi_coll_ns + mpi_setup_ns + io_*_ns + cpu_wait_ns + idle_ns = the processes'' time budgets: wall time, or more for processes with busy threads; before profile format 4 idle and setup are NULL and compute is the rest of wall_ns), I/O volume and metadata calls; incomplete_reason says what is missing, killed_processes counts processes killed by a signal, unrecorded_processes those the profiler did not record (spool quota), summed over the nodes; live: some node still runs (provisional data); a step with no step record ingested yet has state RUNNING, its data so far, end_time its newest snapshot; files_dropped: files its processes did not list (their lists were full); max_rss_kib: the largest peak resident set of its processes; unattributed_*_bytes: what the kernel counted beyond the wrappers, summed over the processes whose kernel counts are known (NULL: none), kernel_io_unknown: the processes whose kernel counts are unknown (killed before their first slice boundary, or profiles before format 4)';


--
-- Name: processes; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.processes (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    pid integer NOT NULL,
    image integer DEFAULT 0 NOT NULL,
    ppid integer,
    task_id integer,
    mpi_rank integer,
    mpi_size integer,
    origin text,
    ended_by text,
    exe text,
    args text,
    start_time timestamp with time zone NOT NULL,
    end_time timestamp with time zone NOT NULL,
    wall_ns bigint NOT NULL,
    cpu_user_ns bigint NOT NULL,
    cpu_sys_ns bigint NOT NULL,
    max_rss_kib bigint NOT NULL,
    threads_peak integer NOT NULL,
    threads_seen integer NOT NULL,
    compute_ns bigint NOT NULL,
    slices_truncated boolean NOT NULL,
    files_dropped bigint NOT NULL,
    mpi_collectives jsonb,
    posix_read_calls bigint DEFAULT 0 NOT NULL,
    posix_read_bytes bigint DEFAULT 0 NOT NULL,
    posix_write_calls bigint DEFAULT 0 NOT NULL,
    posix_write_bytes bigint DEFAULT 0 NOT NULL,
    posix_open_calls bigint DEFAULT 0 NOT NULL,
    posix_meta_calls bigint DEFAULT 0 NOT NULL,
    posix_ns bigint DEFAULT 0 NOT NULL,
    stdio_read_calls bigint DEFAULT 0 NOT NULL,
    stdio_read_bytes bigint DEFAULT 0 NOT NULL,
    stdio_write_calls bigint DEFAULT 0 NOT NULL,
    stdio_write_bytes bigint DEFAULT 0 NOT NULL,
    stdio_open_calls bigint DEFAULT 0 NOT NULL,
    stdio_meta_calls bigint DEFAULT 0 NOT NULL,
    stdio_ns bigint DEFAULT 0 NOT NULL,
    lower_read_bytes bigint DEFAULT 0 NOT NULL,
    lower_write_bytes bigint DEFAULT 0 NOT NULL,
    mpi_send_calls bigint DEFAULT 0 NOT NULL,
    mpi_send_bytes bigint DEFAULT 0 NOT NULL,
    mpi_recv_calls bigint DEFAULT 0 NOT NULL,
    mpi_recv_bytes bigint DEFAULT 0 NOT NULL,
    mpi_p2p_ns bigint DEFAULT 0 NOT NULL,
    mpi_coll_calls bigint DEFAULT 0 NOT NULL,
    mpi_coll_bytes bigint DEFAULT 0 NOT NULL,
    mpi_coll_ns bigint DEFAULT 0 NOT NULL,
    mpiio_read_calls bigint DEFAULT 0 NOT NULL,
    mpiio_read_bytes bigint DEFAULT 0 NOT NULL,
    mpiio_write_calls bigint DEFAULT 0 NOT NULL,
    mpiio_write_bytes bigint DEFAULT 0 NOT NULL,
    mpiio_coll_calls bigint DEFAULT 0 NOT NULL,
    mpiio_meta_calls bigint DEFAULT 0 NOT NULL,
    mpiio_ns bigint DEFAULT 0 NOT NULL,
    cpu_ns bigint DEFAULT 0 NOT NULL,
    exit_code integer,
    signal integer DEFAULT 0 NOT NULL,
    missing text DEFAULT ''::text NOT NULL,
    idle_ns bigint,
    mpi_setup_ns bigint,
    cpu_wait_ns bigint,
    kernel_rchar bigint,
    kernel_wchar bigint,
    kernel_syscr bigint,
    kernel_syscw bigint,
    kernel_read_bytes bigint,
    kernel_write_bytes bigint
);


--
-- Name: TABLE processes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.processes IS 'per-process totals: one row per profile (one process image) of a step on a node';


--
-- Name: COLUMN processes.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.cluster_id IS 'cluster';


--
-- Name: COLUMN processes.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.job_id IS 'Slurm job id';


--
-- Name: COLUMN processes.step_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.step_id IS 'step id in words';


--
-- Name: COLUMN processes.node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.node IS 'node the process ran on';


--
-- Name: COLUMN processes.pid; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.pid IS 'process id';


--
-- Name: COLUMN processes.image; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.image IS 'number of the image among the profiles of this pid (exec keeps the pid), in start order from 0';


--
-- Name: COLUMN processes.ppid; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.ppid IS 'parent process id';


--
-- Name: COLUMN processes.task_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.task_id IS 'Slurm global task id (rank), NULL when unset';


--
-- Name: COLUMN processes.mpi_rank; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpi_rank IS 'rank in MPI_COMM_WORLD, NULL when not an MPI process';


--
-- Name: COLUMN processes.mpi_size; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpi_size IS 'size of MPI_COMM_WORLD, NULL when not an MPI process';


--
-- Name: COLUMN processes.origin; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.origin IS 'start (new image) or fork (forked child)';


--
-- Name: COLUMN processes.ended_by; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.ended_by IS 'how the image ended: exit, _exit, exec, signal (killed by one) or unknown (gone, its end not seen)';


--
-- Name: COLUMN processes.exe; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.exe IS 'executable (/proc/self/exe)';


--
-- Name: COLUMN processes.args; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.args IS 'command line, arguments separated by spaces (truncated by the profiler)';


--
-- Name: COLUMN processes.start_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.start_time IS 'when recording began';


--
-- Name: COLUMN processes.end_time; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.end_time IS 'when the profile was written; for a killed process when its death was seen (or its last recorded activity)';


--
-- Name: COLUMN processes.wall_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.wall_ns IS 'wall time of the image (ns)';


--
-- Name: COLUMN processes.cpu_user_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.cpu_user_ns IS 'user CPU time of all threads (ns)';


--
-- Name: COLUMN processes.cpu_sys_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.cpu_sys_ns IS 'system CPU time of all threads (ns)';


--
-- Name: COLUMN processes.max_rss_kib; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.max_rss_kib IS 'peak resident set size (KiB)';


--
-- Name: COLUMN processes.threads_peak; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.threads_peak IS 'most threads doing I/O or MPI at once, plus the main thread';


--
-- Name: COLUMN processes.threads_seen; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.threads_seen IS 'threads that made a recorded call, plus the main thread';


--
-- Name: COLUMN processes.compute_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.compute_ns IS 'runtime share: CPU time outside I/O and MPI calls (profile format 4; before: wall time minus the time in I/O and MPI, at least 0) (ns)';


--
-- Name: COLUMN processes.slices_truncated; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.slices_truncated IS 'true when the profiler''s slice budget ran out: later slices are missing';


--
-- Name: COLUMN processes.files_dropped; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.files_dropped IS 'files the profiler did not list because its list was full';


--
-- Name: COLUMN processes.mpi_collectives; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpi_collectives IS 'per collective kind {calls, bytes, ns}, as the profile gives it';


--
-- Name: COLUMN processes.posix_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';


--
-- Name: COLUMN processes.posix_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.posix_read_bytes IS 'bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';


--
-- Name: COLUMN processes.posix_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';


--
-- Name: COLUMN processes.posix_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.posix_write_bytes IS 'bytes accepted by those writes (asynchronous: as for reads) (bytes)';


--
-- Name: COLUMN processes.posix_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.posix_open_calls IS 'open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';


--
-- Name: COLUMN processes.posix_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';


--
-- Name: COLUMN processes.posix_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.posix_ns IS 'time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';


--
-- Name: COLUMN processes.stdio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.stdio_read_calls IS 'fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';


--
-- Name: COLUMN processes.stdio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.stdio_read_bytes IS 'bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';


--
-- Name: COLUMN processes.stdio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';


--
-- Name: COLUMN processes.stdio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.stdio_write_bytes IS 'bytes handed to the stream by those calls (wide forms: one per character) (bytes)';


--
-- Name: COLUMN processes.stdio_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.stdio_open_calls IS 'fopen, fdopen, freopen (and 64-bit variants) (calls)';


--
-- Name: COLUMN processes.stdio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.stdio_meta_calls IS 'fclose, fflush, fseek family, ungetc/ungetwc (calls)';


--
-- Name: COLUMN processes.stdio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.stdio_ns IS 'time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';


--
-- Name: COLUMN processes.lower_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.lower_read_bytes IS 'POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';


--
-- Name: COLUMN processes.lower_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.lower_write_bytes IS 'POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';


--
-- Name: COLUMN processes.mpi_send_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpi_send_calls IS 'point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';


--
-- Name: COLUMN processes.mpi_send_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpi_send_bytes IS 'bytes of those sends (count x type size) (bytes)';


--
-- Name: COLUMN processes.mpi_recv_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpi_recv_calls IS 'point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';


--
-- Name: COLUMN processes.mpi_recv_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpi_recv_bytes IS 'bytes of those receives as posted (count x type size) (bytes)';


--
-- Name: COLUMN processes.mpi_p2p_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpi_p2p_ns IS 'time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';


--
-- Name: COLUMN processes.mpi_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';


--
-- Name: COLUMN processes.mpi_coll_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpi_coll_bytes IS 'send-side bytes of those collectives on this rank (bytes)';


--
-- Name: COLUMN processes.mpi_coll_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpi_coll_ns IS 'time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';


--
-- Name: COLUMN processes.mpiio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpiio_read_calls IS 'MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';


--
-- Name: COLUMN processes.mpiio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpiio_read_bytes IS 'bytes of those reads (count x type size) (bytes)';


--
-- Name: COLUMN processes.mpiio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpiio_write_calls IS 'MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';


--
-- Name: COLUMN processes.mpiio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpiio_write_bytes IS 'bytes of those writes (count x type size) (bytes)';


--
-- Name: COLUMN processes.mpiio_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpiio_coll_calls IS 'the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';


--
-- Name: COLUMN processes.mpiio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpiio_meta_calls IS 'MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';


--
-- Name: COLUMN processes.mpiio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpiio_ns IS 'time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';


--
-- Name: COLUMN processes.cpu_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.cpu_ns IS 'CPU time (user + system) of the process in the slice (ns)';


--
-- Name: COLUMN processes.exit_code; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.exit_code IS 'exit status 0-255 when known, NULL otherwise (killed, not seen, or a version 1 profile)';


--
-- Name: COLUMN processes.signal; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.signal IS 'number of the signal that killed the process, 0 otherwise';


--
-- Name: COLUMN processes.missing; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.missing IS 'empty when the profile is complete, else what is missing of it, in words (e.g. slices after the 1 MiB slice budget)';


--
-- Name: COLUMN processes.idle_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.idle_ns IS 'runtime share: time neither computing, nor waiting for a CPU, nor in a recorded call (sleep, waiting for children, locks or pages); NULL before profile format 4 (ns)';


--
-- Name: COLUMN processes.mpi_setup_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.mpi_setup_ns IS 'time in MPI_Init, MPI_Init_thread and MPI_Finalize; NULL before profile format 4 (ns)';


--
-- Name: COLUMN processes.cpu_wait_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.cpu_wait_ns IS 'runtime share: time runnable but waiting for a CPU outside the calls (the scheduler''s run delay); NULL before profile format 4 (ns)';


--
-- Name: COLUMN processes.kernel_rchar; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.kernel_rchar IS 'the kernel''s count of bytes returned by read-like system calls of the image, on anything (/proc/self/io rchar); NULL: unknown';


--
-- Name: COLUMN processes.kernel_wchar; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.kernel_wchar IS 'bytes passed to write-like system calls (/proc/self/io wchar); NULL: unknown';


--
-- Name: COLUMN processes.kernel_syscr; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.kernel_syscr IS 'read-like system calls (/proc/self/io syscr); NULL: unknown';


--
-- Name: COLUMN processes.kernel_syscw; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.kernel_syscw IS 'write-like system calls (/proc/self/io syscw); NULL: unknown';


--
-- Name: COLUMN processes.kernel_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.kernel_read_bytes IS 'bytes the image caused to be fetched from storage (/proc/self/io read_bytes); NULL: unknown';


--
-- Name: COLUMN processes.kernel_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.processes.kernel_write_bytes IS 'bytes the image caused to be sent to storage (/proc/self/io write_bytes); NULL: unknown';


--
-- Name: step_report; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.step_report AS
 SELECT s.cluster_id,
    s.job_id,
    s.step_id,
    s.uid,
    j.user_name,
    j.name AS job_name,
    j.account,
    j.partition,
    j.workflow_id,
    j.workflow_name,
    js.application(s.step_id, s.name, j.name) AS application,
    s.name AS executable,
    s.start_time,
    s.end_time,
    s.elapsed_s,
    s.state,
    s.exit_code,
    s.num_nodes,
    s.num_tasks,
    s.num_cpus,
    s.nodelist,
    s.profiled,
    r.profile_reason,
    s.incomplete,
    s.processes,
    s.wall_ns,
    s.compute_ns,
    (s.mpi_p2p_ns + s.mpi_coll_ns) AS mpi_ns,
    ((s.io_posix_ns + s.io_stdio_ns) + s.io_mpiio_ns) AS io_ns,
        CASE
            WHEN (s.wall_ns > 0) THEN (((s.mpi_p2p_ns + s.mpi_coll_ns))::double precision / (s.wall_ns)::double precision)
            ELSE NULL::double precision
        END AS mpi_share,
        CASE
            WHEN (s.wall_ns > 0) THEN ((((s.io_posix_ns + s.io_stdio_ns) + s.io_mpiio_ns))::double precision / (s.wall_ns)::double precision)
            ELSE NULL::double precision
        END AS io_share,
    s.read_bytes,
    s.write_bytes,
    (s.read_bytes + s.write_bytes) AS io_bytes,
    s.meta_calls,
    (COALESCE(m.meta_ops, (0)::numeric))::bigint AS meta_ops,
    s.cpu_ns,
    (COALESCE(f.files, (0)::bigint))::integer AS files,
    (COALESCE(f.small_files, (0)::bigint))::integer AS small_files,
    s.idle_ns,
    s.mpi_setup_ns,
    s.cpu_wait_ns,
        CASE
            WHEN (b.budget_ns > 0) THEN ((s.compute_ns)::double precision / (b.budget_ns)::double precision)
            ELSE NULL::double precision
        END AS compute_share,
        CASE
            WHEN (b.budget_ns > 0) THEN ((s.idle_ns)::double precision / (b.budget_ns)::double precision)
            ELSE NULL::double precision
        END AS idle_share,
        CASE
            WHEN (b.budget_ns > 0) THEN ((s.cpu_wait_ns)::double precision / (b.budget_ns)::double precision)
            ELSE NULL::double precision
        END AS cpu_wait_share,
    s.max_rss_kib,
    s.unattributed_read_bytes,
    s.unattributed_write_bytes
   FROM (((((js.steps s
     CROSS JOIN LATERAL ( SELECT
                CASE
                    WHEN (s.idle_ns IS NOT NULL) THEN ((((((((s.compute_ns + s.mpi_p2p_ns) + s.mpi_coll_ns) + s.mpi_setup_ns) + s.io_posix_ns) + s.io_stdio_ns) + s.io_mpiio_ns) + s.cpu_wait_ns) + s.idle_ns)
                    ELSE NULL::bigint
                END AS budget_ns) b)
     JOIN js.jobs j ON (((j.cluster_id = s.cluster_id) AND (j.job_id = s.job_id))))
     LEFT JOIN LATERAL ( SELECT string_agg(DISTINCT (sn.record ->> 'profile_reason'::text), ','::text) AS profile_reason
           FROM js_data.step_nodes sn
          WHERE ((sn.cluster_id = s.cluster_id) AND (sn.job_id = s.job_id) AND (sn.step_id = s.step_id))) r ON (true))
     LEFT JOIN LATERAL ( SELECT sum((((p.posix_open_calls + p.posix_meta_calls) + p.stdio_open_calls) + p.mpiio_meta_calls)) AS meta_ops
           FROM js_data.processes p
          WHERE ((p.cluster_id = s.cluster_id) AND (p.job_id = s.job_id) AND (p.step_id = s.step_id))) m ON (true))
     LEFT JOIN LATERAL ( SELECT count(DISTINCT a.file_id) AS files,
            count(DISTINCT a.file_id) FILTER (WHERE ((a.bytes_read + a.bytes_written) < js.small_file_bytes())) AS small_files
           FROM js_data.file_accesses a
          WHERE ((a.cluster_id = s.cluster_id) AND (a.job_id = s.job_id) AND (a.step_id = s.step_id))) f ON (true));


--
-- Name: VIEW step_report; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.step_report IS 'steps for the reports: application, runtime shares (mpi_share, io_share of the summed process wall time; compute_share, idle_share, cpu_wait_share of the processes'' time budget, NULL before profile format 4), I/O volume, meta_ops (file system metadata: POSIX open and metadata calls, fopen, MPI-IO open/close/sync/seek; not stdio fflush/fseek/fclose, which bash alone calls once per builtin), files and small files, profile_reason from the step records, peak memory (max_rss_kib, the largest process) and unattributed_*_bytes (what the kernel counted beyond the wrappers)';


--
-- Name: job_report; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.job_report AS
 SELECT j.cluster_id,
    j.cluster,
    j.job_id,
    j.uid,
    j.user_name,
    j.name,
    j.account,
    j.partition,
    j.workflow_id,
    j.workflow_name,
    j.workflow_tag,
    j.state,
    j.exit_code,
    j.final,
    j.dependency,
    j.submit_time,
    j.start_time,
    COALESCE(j.end_time, s.last_step_end) AS end_time,
    j.num_nodes,
    j.num_cpus,
    j.nodelist,
    (COALESCE(s.steps, (0)::bigint))::integer AS steps,
    (COALESCE(s.failed_steps, (0)::bigint))::integer AS failed_steps,
    (COALESCE(s.profiled_steps, (0)::bigint))::integer AS profiled_steps,
    (COALESCE(s.processes, (0)::bigint))::integer AS processes,
    (COALESCE(s.wall_ns, (0)::numeric))::bigint AS wall_ns,
    (COALESCE(s.compute_ns, (0)::numeric))::bigint AS compute_ns,
    (COALESCE(s.mpi_ns, (0)::numeric))::bigint AS mpi_ns,
    (COALESCE(s.io_ns, (0)::numeric))::bigint AS io_ns,
    (COALESCE(s.read_bytes, (0)::numeric))::bigint AS read_bytes,
    (COALESCE(s.write_bytes, (0)::numeric))::bigint AS write_bytes,
    (COALESCE((s.read_bytes + s.write_bytes), (0)::numeric))::bigint AS io_bytes,
    (COALESCE(s.meta_calls, (0)::numeric))::bigint AS meta_calls,
    (COALESCE(s.meta_ops, (0)::numeric))::bigint AS meta_ops,
    (COALESCE(s.files, (0)::bigint))::integer AS files,
    (COALESCE(s.small_files, (0)::bigint))::integer AS small_files,
    (COALESCE(s.cpu_ns, (0)::numeric))::bigint AS cpu_ns
   FROM (js.jobs j
     LEFT JOIN LATERAL ( SELECT count(*) AS steps,
            count(*) FILTER (WHERE (r.state IS DISTINCT FROM 'COMPLETED'::text)) AS failed_steps,
            count(*) FILTER (WHERE r.profiled) AS profiled_steps,
            sum(r.processes) AS processes,
            sum(r.wall_ns) AS wall_ns,
            sum(r.compute_ns) AS compute_ns,
            sum(r.mpi_ns) AS mpi_ns,
            sum(r.io_ns) AS io_ns,
            sum(r.read_bytes) AS read_bytes,
            sum(r.write_bytes) AS write_bytes,
            sum(r.meta_calls) AS meta_calls,
            sum(r.meta_ops) AS meta_ops,
            sum(r.files) AS files,
            sum(r.small_files) AS small_files,
            sum(r.cpu_ns) AS cpu_ns,
            max(r.end_time) AS last_step_end
           FROM js.step_report r
          WHERE ((r.cluster_id = j.cluster_id) AND (r.job_id = j.job_id))) s ON (true));


--
-- Name: VIEW job_report; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.job_report IS 'jobs for the reports: the sums of js.step_report over their steps (files and small_files summed per step); end_time falls back to the last step end while the job record is not final';


--
-- Name: live_slices; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.live_slices AS
 SELECT m.cluster_id,
    m.job_id,
    m.step_id,
    m.node,
    m.slice,
    m.processes,
    m.posix_read_calls,
    m.posix_read_bytes,
    m.posix_write_calls,
    m.posix_write_bytes,
    m.posix_open_calls,
    m.posix_meta_calls,
    m.posix_ns,
    m.stdio_read_calls,
    m.stdio_read_bytes,
    m.stdio_write_calls,
    m.stdio_write_bytes,
    m.stdio_open_calls,
    m.stdio_meta_calls,
    m.stdio_ns,
    m.lower_read_bytes,
    m.lower_write_bytes,
    m.mpi_send_calls,
    m.mpi_send_bytes,
    m.mpi_recv_calls,
    m.mpi_recv_bytes,
    m.mpi_p2p_ns,
    m.mpi_coll_calls,
    m.mpi_coll_bytes,
    m.mpi_coll_ns,
    m.mpiio_read_calls,
    m.mpiio_read_bytes,
    m.mpiio_write_calls,
    m.mpiio_write_bytes,
    m.mpiio_coll_calls,
    m.mpiio_meta_calls,
    m.mpiio_ns,
    m.cpu_ns,
    m.kernel_rchar,
    m.kernel_wchar,
    m.kernel_syscr,
    m.kernel_syscw,
    m.kernel_read_bytes,
    m.kernel_write_bytes
   FROM js_data.live_slice_metrics m;


--
-- Name: VIEW live_slices; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.live_slices IS 'the provisional per-slice vectors of running step-nodes (replaced at every snapshot, gone when the step-node is ingested)';


--
-- Name: live_step_nodes; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.live_step_nodes AS
 SELECT l.cluster_id,
    l.job_id,
    l.step_id,
    l.node,
    l.start_time,
    l.snapshot_time,
    l.profiles,
    l.running,
    l.ingested_at,
    j.uid
   FROM (js_data.live_step_nodes l
     JOIN js_data.jobs j ON (((j.cluster_id = l.cluster_id) AND (j.job_id = l.job_id))));


--
-- Name: VIEW live_step_nodes; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.live_step_nodes IS 'the running step-nodes: a step on a node of which only a live snapshot is stored (provisional data), with the time of that snapshot';


--
-- Name: processes; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.processes AS
 SELECT p.cluster_id,
    p.job_id,
    p.step_id,
    p.node,
    p.pid,
    p.image,
    p.ppid,
    p.task_id,
    p.mpi_rank,
    p.mpi_size,
    p.origin,
    p.ended_by,
    p.exe,
    p.args,
    p.start_time,
    p.end_time,
    p.wall_ns,
    p.cpu_user_ns,
    p.cpu_sys_ns,
    p.max_rss_kib,
    p.threads_peak,
    p.threads_seen,
    p.compute_ns,
    p.slices_truncated,
    p.files_dropped,
    p.mpi_collectives,
    p.posix_read_calls,
    p.posix_read_bytes,
    p.posix_write_calls,
    p.posix_write_bytes,
    p.posix_open_calls,
    p.posix_meta_calls,
    p.posix_ns,
    p.stdio_read_calls,
    p.stdio_read_bytes,
    p.stdio_write_calls,
    p.stdio_write_bytes,
    p.stdio_open_calls,
    p.stdio_meta_calls,
    p.stdio_ns,
    p.lower_read_bytes,
    p.lower_write_bytes,
    p.mpi_send_calls,
    p.mpi_send_bytes,
    p.mpi_recv_calls,
    p.mpi_recv_bytes,
    p.mpi_p2p_ns,
    p.mpi_coll_calls,
    p.mpi_coll_bytes,
    p.mpi_coll_ns,
    p.mpiio_read_calls,
    p.mpiio_read_bytes,
    p.mpiio_write_calls,
    p.mpiio_write_bytes,
    p.mpiio_coll_calls,
    p.mpiio_meta_calls,
    p.mpiio_ns,
    p.cpu_ns,
    j.uid,
    p.exit_code,
    p.signal,
    p.missing,
    p.idle_ns,
    p.mpi_setup_ns,
    p.cpu_wait_ns,
    p.kernel_rchar,
    p.kernel_wchar,
    p.kernel_syscr,
    p.kernel_syscw,
    p.kernel_read_bytes,
    p.kernel_write_bytes,
    js_data.unattributed(p.kernel_rchar, ((p.posix_read_bytes + p.stdio_read_bytes) + p.lower_read_bytes)) AS unattributed_read_bytes,
    js_data.unattributed(p.kernel_wchar, ((p.posix_write_bytes + p.stdio_write_bytes) + p.lower_write_bytes)) AS unattributed_write_bytes
   FROM (js_data.processes p
     JOIN js_data.jobs j ON (((j.cluster_id = p.cluster_id) AND (j.job_id = p.job_id))));


--
-- Name: VIEW processes; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.processes IS 'per-process totals (one row per profile) with the job''s uid, then how each process ended (exit_code, signal) and what its profile misses; idle_ns, mpi_setup_ns, cpu_wait_ns and the kernel''s I/O counts (kernel_*, /proc/self/io; NULL before profile format 4), and unattributed_*_bytes: what the kernel counted beyond the wrappers';


--
-- Name: quarantine; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.quarantine (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    file text NOT NULL,
    moved_to text NOT NULL,
    reason text NOT NULL,
    at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: TABLE quarantine; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.quarantine IS 'files the ingest refused, moved to the quarantine directory with a .reason file beside them';


--
-- Name: COLUMN quarantine.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.quarantine.cluster_id IS 'cluster';


--
-- Name: COLUMN quarantine.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.quarantine.job_id IS 'job whose spool held the file';


--
-- Name: COLUMN quarantine.step_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.quarantine.step_id IS 'step the file belonged to';


--
-- Name: COLUMN quarantine.node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.quarantine.node IS 'node the step ran on';


--
-- Name: COLUMN quarantine.file; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.quarantine.file IS 'the file''s path relative to the spool';


--
-- Name: COLUMN quarantine.moved_to; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.quarantine.moved_to IS 'where the file was moved (absolute path in the quarantine directory)';


--
-- Name: COLUMN quarantine.reason; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.quarantine.reason IS 'why it was refused (the same text as the .reason file)';


--
-- Name: COLUMN quarantine.at; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.quarantine.at IS 'when it was refused';


--
-- Name: quarantine; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.quarantine AS
 SELECT q.cluster_id,
    q.job_id,
    q.step_id,
    q.node,
    q.file,
    q.moved_to,
    q.reason,
    q.at,
    j.uid
   FROM (js_data.quarantine q
     LEFT JOIN js_data.jobs j ON (((j.cluster_id = q.cluster_id) AND (j.job_id = q.job_id))));


--
-- Name: VIEW quarantine; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.quarantine IS 'files the ingest refused and why';


--
-- Name: slice_partitions; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.slice_partitions AS
 SELECT (c.relname)::text AS partition,
    (pc.relname)::text AS parent,
    (b.b[1])::bigint AS first_slice,
    (b.b[2])::bigint AS end_slice,
    to_timestamp((((b.b[1])::bigint * ( SELECT COALESCE(min(clusters.slice_seconds), 4) AS "coalesce"
           FROM js_data.clusters)))::double precision) AS oldest,
    to_timestamp((((b.b[2])::bigint * ( SELECT COALESCE(max(clusters.slice_seconds), 4) AS "coalesce"
           FROM js_data.clusters)))::double precision) AS newest
   FROM ((((pg_inherits i
     JOIN pg_class c ON ((c.oid = i.inhrelid)))
     JOIN pg_class pc ON ((pc.oid = i.inhparent)))
     JOIN pg_namespace n ON (((n.oid = pc.relnamespace) AND (n.nspname = 'js_data'::name))))
     CROSS JOIN LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''?(-?[0-9]+)''?\) TO \(''?(-?[0-9]+)''?\)'::text) b(b))
  WHERE (pc.relname = ANY (ARRAY['series_step_node'::name, 'series_step'::name, 'series_node'::name, 'series_cluster'::name]));


--
-- Name: VIEW slice_partitions; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.slice_partitions IS 'partitions of the per-slice tables: slice range [first_slice, end_slice) and the time span it can hold (oldest, newest over the clusters'' slice lengths)';


--
-- Name: retention_log; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.retention_log (
    partition text NOT NULL,
    parent text NOT NULL,
    first_slice bigint NOT NULL,
    end_slice bigint NOT NULL,
    rows_dropped bigint NOT NULL,
    dropped_at timestamp with time zone DEFAULT now() NOT NULL,
    dropped_by text DEFAULT CURRENT_USER NOT NULL
);


--
-- Name: TABLE retention_log; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.retention_log IS 'partitions of the per-slice tables that retention dropped';


--
-- Name: COLUMN retention_log.partition; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_log.partition IS 'name of the dropped partition (schema js_data)';


--
-- Name: COLUMN retention_log.parent; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_log.parent IS 'the per-slice table it belonged to';


--
-- Name: COLUMN retention_log.first_slice; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_log.first_slice IS 'first slice of its range';


--
-- Name: COLUMN retention_log.end_slice; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_log.end_slice IS 'end of its range (exclusive)';


--
-- Name: COLUMN retention_log.rows_dropped; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_log.rows_dropped IS 'rows it held when dropped';


--
-- Name: COLUMN retention_log.dropped_at; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_log.dropped_at IS 'when it was dropped';


--
-- Name: COLUMN retention_log.dropped_by; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_log.dropped_by IS 'database role that dropped it';


--
-- Name: retention_settings; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.retention_settings (
    only_row boolean DEFAULT true NOT NULL,
    slice_keep interval DEFAULT '180 days'::interval NOT NULL,
    updated timestamp with time zone DEFAULT now() NOT NULL,
    job_keep interval,
    quarantine_keep interval,
    rollup_keep interval,
    CONSTRAINT retention_settings_job_keep_check CHECK (((job_keep IS NULL) OR (job_keep >= '1 day'::interval))),
    CONSTRAINT retention_settings_only_row_check CHECK (only_row),
    CONSTRAINT retention_settings_quarantine_keep_check CHECK (((quarantine_keep IS NULL) OR (quarantine_keep >= '1 day'::interval))),
    CONSTRAINT retention_settings_rollup_keep_check CHECK (((rollup_keep IS NULL) OR (rollup_keep >= '1 day'::interval))),
    CONSTRAINT retention_settings_slice_keep_check CHECK ((slice_keep >= '1 day'::interval))
);


--
-- Name: TABLE retention_settings; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.retention_settings IS 'one row: how long the per-slice detail is kept (change with UPDATE)';


--
-- Name: COLUMN retention_settings.only_row; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_settings.only_row IS 'always true: the table has exactly one row';


--
-- Name: COLUMN retention_settings.slice_keep; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_settings.slice_keep IS 'per-slice partitions whose newest slice is older than now() minus this are dropped';


--
-- Name: COLUMN retention_settings.updated; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_settings.updated IS 'when the setting was last changed';


--
-- Name: COLUMN retention_settings.job_keep; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_settings.job_keep IS 'jobs that ended before now() minus this go with everything they hold (NULL: kept forever)';


--
-- Name: COLUMN retention_settings.quarantine_keep; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_settings.quarantine_keep IS 'quarantine rows older than this are removed (NULL: kept forever)';


--
-- Name: COLUMN retention_settings.rollup_keep; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_settings.rollup_keep IS 'daily usage rollups of days before now() minus this are removed (NULL: kept forever)';


--
-- Name: slice_horizon; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.slice_horizon (
    only_row boolean DEFAULT true NOT NULL,
    slice bigint NOT NULL,
    updated timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT slice_horizon_only_row_check CHECK (only_row)
);


--
-- Name: TABLE slice_horizon; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.slice_horizon IS 'one row: slices below this were dropped by retention; rollups of days that start below it are final';


--
-- Name: COLUMN slice_horizon.only_row; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.slice_horizon.only_row IS 'always true: the table has at most one row';


--
-- Name: COLUMN slice_horizon.slice; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.slice_horizon.slice IS 'first slice that may still be present in the per-slice tables';


--
-- Name: COLUMN slice_horizon.updated; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.slice_horizon.updated IS 'when retention last moved it';


--
-- Name: retention; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.retention AS
 SELECT s.slice_keep,
    (now() - s.slice_keep) AS cutoff,
    h.slice AS horizon_slice,
    to_timestamp(((h.slice * ( SELECT COALESCE(max(clusters.slice_seconds), 4) AS "coalesce"
           FROM js_data.clusters)))::double precision) AS horizon,
    ( SELECT max(retention_log.dropped_at) AS max
           FROM js_data.retention_log) AS last_drop,
    (( SELECT count(*) AS count
           FROM js.slice_partitions))::integer AS partitions
   FROM (js_data.retention_settings s
     LEFT JOIN js_data.slice_horizon h ON (true));


--
-- Name: VIEW retention; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.retention IS 'retention: how long per-slice detail is kept, the cutoff, the horizon below which it was dropped, the partitions left';


--
-- Name: series_cluster; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.series_cluster (
    cluster_id smallint NOT NULL,
    chunk bigint NOT NULL,
    first_slice bigint NOT NULL,
    slices smallint NOT NULL,
    step_nodes bytea,
    posix_read_calls bytea,
    posix_read_bytes bytea,
    posix_write_calls bytea,
    posix_write_bytes bytea,
    posix_open_calls bytea,
    posix_meta_calls bytea,
    posix_ns bytea,
    stdio_read_calls bytea,
    stdio_read_bytes bytea,
    stdio_write_calls bytea,
    stdio_write_bytes bytea,
    stdio_open_calls bytea,
    stdio_meta_calls bytea,
    stdio_ns bytea,
    lower_read_bytes bytea,
    lower_write_bytes bytea,
    mpi_send_calls bytea,
    mpi_send_bytes bytea,
    mpi_recv_calls bytea,
    mpi_recv_bytes bytea,
    mpi_p2p_ns bytea,
    mpi_coll_calls bytea,
    mpi_coll_bytes bytea,
    mpi_coll_ns bytea,
    mpiio_read_calls bytea,
    mpiio_read_bytes bytea,
    mpiio_write_calls bytea,
    mpiio_write_bytes bytea,
    mpiio_coll_calls bytea,
    mpiio_meta_calls bytea,
    mpiio_ns bytea,
    cpu_ns bytea,
    CONSTRAINT series_cluster_check CHECK (((chunk = js_data.series_chunk_of(first_slice)) AND ((slices >= 1) AND (slices <= 900)) AND ((first_slice + slices) <= (chunk + 900))))
)
PARTITION BY RANGE (chunk);
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN step_nodes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN lower_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN lower_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_send_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_send_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_recv_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_recv_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_p2p_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_coll_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_coll_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN cpu_ns SET COMPRESSION lz4;


--
-- Name: TABLE series_cluster; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.series_cluster IS 'pre-aggregated: per chunk, the per-slice sums over the whole cluster (but the step-nodes still in js_data.totals_pending)';


--
-- Name: COLUMN series_cluster.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.cluster_id IS 'cluster';


--
-- Name: COLUMN series_cluster.chunk; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.chunk IS 'first slice of the chunk (a multiple of js_data.series_chunk_width())';


--
-- Name: COLUMN series_cluster.first_slice; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.first_slice IS 'first slice the series cover';


--
-- Name: COLUMN series_cluster.slices; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.slices IS 'slices the series cover: first_slice .. first_slice + slices - 1, within the chunk';


--
-- Name: COLUMN series_cluster.step_nodes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.step_nodes IS 'series: how many (step, node) series were added into the slice';


--
-- Name: COLUMN series_cluster.posix_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.posix_read_calls IS 'series: read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';


--
-- Name: COLUMN series_cluster.posix_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.posix_read_bytes IS 'series: bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';


--
-- Name: COLUMN series_cluster.posix_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.posix_write_calls IS 'series: write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';


--
-- Name: COLUMN series_cluster.posix_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.posix_write_bytes IS 'series: bytes accepted by those writes (asynchronous: as for reads) (bytes)';


--
-- Name: COLUMN series_cluster.posix_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.posix_open_calls IS 'series: open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';


--
-- Name: COLUMN series_cluster.posix_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.posix_meta_calls IS 'series: close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';


--
-- Name: COLUMN series_cluster.posix_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.posix_ns IS 'series: time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';


--
-- Name: COLUMN series_cluster.stdio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.stdio_read_calls IS 'series: fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';


--
-- Name: COLUMN series_cluster.stdio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.stdio_read_bytes IS 'series: bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';


--
-- Name: COLUMN series_cluster.stdio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.stdio_write_calls IS 'series: fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';


--
-- Name: COLUMN series_cluster.stdio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.stdio_write_bytes IS 'series: bytes handed to the stream by those calls (wide forms: one per character) (bytes)';


--
-- Name: COLUMN series_cluster.stdio_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.stdio_open_calls IS 'series: fopen, fdopen, freopen (and 64-bit variants) (calls)';


--
-- Name: COLUMN series_cluster.stdio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.stdio_meta_calls IS 'series: fclose, fflush, fseek family, ungetc/ungetwc (calls)';


--
-- Name: COLUMN series_cluster.stdio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.stdio_ns IS 'series: time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';


--
-- Name: COLUMN series_cluster.lower_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.lower_read_bytes IS 'series: POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';


--
-- Name: COLUMN series_cluster.lower_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.lower_write_bytes IS 'series: POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';


--
-- Name: COLUMN series_cluster.mpi_send_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpi_send_calls IS 'series: point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';


--
-- Name: COLUMN series_cluster.mpi_send_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpi_send_bytes IS 'series: bytes of those sends (count x type size) (bytes)';


--
-- Name: COLUMN series_cluster.mpi_recv_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpi_recv_calls IS 'series: point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';


--
-- Name: COLUMN series_cluster.mpi_recv_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpi_recv_bytes IS 'series: bytes of those receives as posted (count x type size) (bytes)';


--
-- Name: COLUMN series_cluster.mpi_p2p_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpi_p2p_ns IS 'series: time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';


--
-- Name: COLUMN series_cluster.mpi_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpi_coll_calls IS 'series: collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';


--
-- Name: COLUMN series_cluster.mpi_coll_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpi_coll_bytes IS 'series: send-side bytes of those collectives on this rank (bytes)';


--
-- Name: COLUMN series_cluster.mpi_coll_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpi_coll_ns IS 'series: time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';


--
-- Name: COLUMN series_cluster.mpiio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpiio_read_calls IS 'series: MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';


--
-- Name: COLUMN series_cluster.mpiio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpiio_read_bytes IS 'series: bytes of those reads (count x type size) (bytes)';


--
-- Name: COLUMN series_cluster.mpiio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpiio_write_calls IS 'series: MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';


--
-- Name: COLUMN series_cluster.mpiio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpiio_write_bytes IS 'series: bytes of those writes (count x type size) (bytes)';


--
-- Name: COLUMN series_cluster.mpiio_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpiio_coll_calls IS 'series: the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';


--
-- Name: COLUMN series_cluster.mpiio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpiio_meta_calls IS 'series: MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';


--
-- Name: COLUMN series_cluster.mpiio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.mpiio_ns IS 'series: time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';


--
-- Name: COLUMN series_cluster.cpu_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_cluster.cpu_ns IS 'series: CPU time (user + system) of the process in the slice (ns)';


--
-- Name: series_cluster; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.series_cluster AS
 SELECT s.cluster_id,
    s.chunk,
    s.first_slice,
    s.slices,
    s.step_nodes,
    s.posix_read_calls,
    s.posix_read_bytes,
    s.posix_write_calls,
    s.posix_write_bytes,
    s.posix_open_calls,
    s.posix_meta_calls,
    s.posix_ns,
    s.stdio_read_calls,
    s.stdio_read_bytes,
    s.stdio_write_calls,
    s.stdio_write_bytes,
    s.stdio_open_calls,
    s.stdio_meta_calls,
    s.stdio_ns,
    s.lower_read_bytes,
    s.lower_write_bytes,
    s.mpi_send_calls,
    s.mpi_send_bytes,
    s.mpi_recv_calls,
    s.mpi_recv_bytes,
    s.mpi_p2p_ns,
    s.mpi_coll_calls,
    s.mpi_coll_bytes,
    s.mpi_coll_ns,
    s.mpiio_read_calls,
    s.mpiio_read_bytes,
    s.mpiio_write_calls,
    s.mpiio_write_bytes,
    s.mpiio_coll_calls,
    s.mpiio_meta_calls,
    s.mpiio_ns,
    s.cpu_ns
   FROM js_data.series_cluster s;


--
-- Name: VIEW series_cluster; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.series_cluster IS 'per chunk, the encoded series summed over the folded step-nodes of the cluster (js.series_decode)';


--
-- Name: series_node; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.series_node (
    cluster_id smallint NOT NULL,
    node text NOT NULL,
    chunk bigint NOT NULL,
    first_slice bigint NOT NULL,
    slices smallint NOT NULL,
    step_nodes bytea,
    posix_read_calls bytea,
    posix_read_bytes bytea,
    posix_write_calls bytea,
    posix_write_bytes bytea,
    posix_open_calls bytea,
    posix_meta_calls bytea,
    posix_ns bytea,
    stdio_read_calls bytea,
    stdio_read_bytes bytea,
    stdio_write_calls bytea,
    stdio_write_bytes bytea,
    stdio_open_calls bytea,
    stdio_meta_calls bytea,
    stdio_ns bytea,
    lower_read_bytes bytea,
    lower_write_bytes bytea,
    mpi_send_calls bytea,
    mpi_send_bytes bytea,
    mpi_recv_calls bytea,
    mpi_recv_bytes bytea,
    mpi_p2p_ns bytea,
    mpi_coll_calls bytea,
    mpi_coll_bytes bytea,
    mpi_coll_ns bytea,
    mpiio_read_calls bytea,
    mpiio_read_bytes bytea,
    mpiio_write_calls bytea,
    mpiio_write_bytes bytea,
    mpiio_coll_calls bytea,
    mpiio_meta_calls bytea,
    mpiio_ns bytea,
    cpu_ns bytea,
    CONSTRAINT series_node_check CHECK (((chunk = js_data.series_chunk_of(first_slice)) AND ((slices >= 1) AND (slices <= 900)) AND ((first_slice + slices) <= (chunk + 900))))
)
PARTITION BY RANGE (chunk);
ALTER TABLE ONLY js_data.series_node ALTER COLUMN step_nodes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN lower_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN lower_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_send_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_send_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_recv_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_recv_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_p2p_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_coll_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_coll_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN cpu_ns SET COMPRESSION lz4;


--
-- Name: TABLE series_node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.series_node IS 'pre-aggregated: per node and chunk, the per-slice sums over every step on the node (but those still in js_data.totals_pending)';


--
-- Name: COLUMN series_node.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.cluster_id IS 'cluster';


--
-- Name: COLUMN series_node.node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.node IS 'node';


--
-- Name: COLUMN series_node.chunk; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.chunk IS 'first slice of the chunk (a multiple of js_data.series_chunk_width())';


--
-- Name: COLUMN series_node.first_slice; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.first_slice IS 'first slice the series cover';


--
-- Name: COLUMN series_node.slices; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.slices IS 'slices the series cover: first_slice .. first_slice + slices - 1, within the chunk';


--
-- Name: COLUMN series_node.step_nodes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.step_nodes IS 'series: how many (step, node) series were added into the slice';


--
-- Name: COLUMN series_node.posix_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.posix_read_calls IS 'series: read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';


--
-- Name: COLUMN series_node.posix_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.posix_read_bytes IS 'series: bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';


--
-- Name: COLUMN series_node.posix_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.posix_write_calls IS 'series: write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';


--
-- Name: COLUMN series_node.posix_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.posix_write_bytes IS 'series: bytes accepted by those writes (asynchronous: as for reads) (bytes)';


--
-- Name: COLUMN series_node.posix_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.posix_open_calls IS 'series: open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';


--
-- Name: COLUMN series_node.posix_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.posix_meta_calls IS 'series: close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';


--
-- Name: COLUMN series_node.posix_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.posix_ns IS 'series: time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';


--
-- Name: COLUMN series_node.stdio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.stdio_read_calls IS 'series: fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';


--
-- Name: COLUMN series_node.stdio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.stdio_read_bytes IS 'series: bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';


--
-- Name: COLUMN series_node.stdio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.stdio_write_calls IS 'series: fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';


--
-- Name: COLUMN series_node.stdio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.stdio_write_bytes IS 'series: bytes handed to the stream by those calls (wide forms: one per character) (bytes)';


--
-- Name: COLUMN series_node.stdio_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.stdio_open_calls IS 'series: fopen, fdopen, freopen (and 64-bit variants) (calls)';


--
-- Name: COLUMN series_node.stdio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.stdio_meta_calls IS 'series: fclose, fflush, fseek family, ungetc/ungetwc (calls)';


--
-- Name: COLUMN series_node.stdio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.stdio_ns IS 'series: time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';


--
-- Name: COLUMN series_node.lower_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.lower_read_bytes IS 'series: POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';


--
-- Name: COLUMN series_node.lower_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.lower_write_bytes IS 'series: POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';


--
-- Name: COLUMN series_node.mpi_send_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpi_send_calls IS 'series: point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';


--
-- Name: COLUMN series_node.mpi_send_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpi_send_bytes IS 'series: bytes of those sends (count x type size) (bytes)';


--
-- Name: COLUMN series_node.mpi_recv_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpi_recv_calls IS 'series: point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';


--
-- Name: COLUMN series_node.mpi_recv_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpi_recv_bytes IS 'series: bytes of those receives as posted (count x type size) (bytes)';


--
-- Name: COLUMN series_node.mpi_p2p_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpi_p2p_ns IS 'series: time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';


--
-- Name: COLUMN series_node.mpi_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpi_coll_calls IS 'series: collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';


--
-- Name: COLUMN series_node.mpi_coll_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpi_coll_bytes IS 'series: send-side bytes of those collectives on this rank (bytes)';


--
-- Name: COLUMN series_node.mpi_coll_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpi_coll_ns IS 'series: time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';


--
-- Name: COLUMN series_node.mpiio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpiio_read_calls IS 'series: MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';


--
-- Name: COLUMN series_node.mpiio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpiio_read_bytes IS 'series: bytes of those reads (count x type size) (bytes)';


--
-- Name: COLUMN series_node.mpiio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpiio_write_calls IS 'series: MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';


--
-- Name: COLUMN series_node.mpiio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpiio_write_bytes IS 'series: bytes of those writes (count x type size) (bytes)';


--
-- Name: COLUMN series_node.mpiio_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpiio_coll_calls IS 'series: the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';


--
-- Name: COLUMN series_node.mpiio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpiio_meta_calls IS 'series: MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';


--
-- Name: COLUMN series_node.mpiio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.mpiio_ns IS 'series: time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';


--
-- Name: COLUMN series_node.cpu_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_node.cpu_ns IS 'series: CPU time (user + system) of the process in the slice (ns)';


--
-- Name: series_node; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.series_node AS
 SELECT s.cluster_id,
    s.node,
    s.chunk,
    s.first_slice,
    s.slices,
    s.step_nodes,
    s.posix_read_calls,
    s.posix_read_bytes,
    s.posix_write_calls,
    s.posix_write_bytes,
    s.posix_open_calls,
    s.posix_meta_calls,
    s.posix_ns,
    s.stdio_read_calls,
    s.stdio_read_bytes,
    s.stdio_write_calls,
    s.stdio_write_bytes,
    s.stdio_open_calls,
    s.stdio_meta_calls,
    s.stdio_ns,
    s.lower_read_bytes,
    s.lower_write_bytes,
    s.mpi_send_calls,
    s.mpi_send_bytes,
    s.mpi_recv_calls,
    s.mpi_recv_bytes,
    s.mpi_p2p_ns,
    s.mpi_coll_calls,
    s.mpi_coll_bytes,
    s.mpi_coll_ns,
    s.mpiio_read_calls,
    s.mpiio_read_bytes,
    s.mpiio_write_calls,
    s.mpiio_write_bytes,
    s.mpiio_coll_calls,
    s.mpiio_meta_calls,
    s.mpiio_ns,
    s.cpu_ns
   FROM js_data.series_node s;


--
-- Name: VIEW series_node; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.series_node IS 'per node and chunk, the encoded series summed over the folded steps on the node (js.series_decode)';


--
-- Name: series_step; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.series_step (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    chunk bigint NOT NULL,
    first_slice bigint NOT NULL,
    slices smallint NOT NULL,
    nodes bytea,
    processes bytea,
    posix_read_calls bytea,
    posix_read_bytes bytea,
    posix_write_calls bytea,
    posix_write_bytes bytea,
    posix_open_calls bytea,
    posix_meta_calls bytea,
    posix_ns bytea,
    stdio_read_calls bytea,
    stdio_read_bytes bytea,
    stdio_write_calls bytea,
    stdio_write_bytes bytea,
    stdio_open_calls bytea,
    stdio_meta_calls bytea,
    stdio_ns bytea,
    lower_read_bytes bytea,
    lower_write_bytes bytea,
    mpi_send_calls bytea,
    mpi_send_bytes bytea,
    mpi_recv_calls bytea,
    mpi_recv_bytes bytea,
    mpi_p2p_ns bytea,
    mpi_coll_calls bytea,
    mpi_coll_bytes bytea,
    mpi_coll_ns bytea,
    mpiio_read_calls bytea,
    mpiio_read_bytes bytea,
    mpiio_write_calls bytea,
    mpiio_write_bytes bytea,
    mpiio_coll_calls bytea,
    mpiio_meta_calls bytea,
    mpiio_ns bytea,
    cpu_ns bytea,
    kernel_rchar bytea,
    kernel_wchar bytea,
    kernel_syscr bytea,
    kernel_syscw bytea,
    kernel_read_bytes bytea,
    kernel_write_bytes bytea,
    CONSTRAINT series_step_check CHECK (((chunk = js_data.series_chunk_of(first_slice)) AND ((slices >= 1) AND (slices <= 900)) AND ((first_slice + slices) <= (chunk + 900))))
)
PARTITION BY RANGE (chunk);
ALTER TABLE ONLY js_data.series_step ALTER COLUMN nodes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN processes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN lower_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN lower_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_send_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_send_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_recv_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_recv_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_p2p_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_coll_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_coll_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN cpu_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN kernel_rchar SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN kernel_wchar SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN kernel_syscr SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN kernel_syscw SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN kernel_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN kernel_write_bytes SET COMPRESSION lz4;


--
-- Name: TABLE series_step; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.series_step IS 'per-slice series of a step summed over its nodes, one row per step and chunk; kept by js_data.rollup_totals() (the step-nodes still in js_data.totals_pending are added by the views)';


--
-- Name: COLUMN series_step.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.cluster_id IS 'cluster';


--
-- Name: COLUMN series_step.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.job_id IS 'Slurm job id';


--
-- Name: COLUMN series_step.step_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.step_id IS 'step id in words';


--
-- Name: COLUMN series_step.chunk; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.chunk IS 'first slice of the chunk (a multiple of js_data.series_chunk_width())';


--
-- Name: COLUMN series_step.first_slice; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.first_slice IS 'first slice the series cover';


--
-- Name: COLUMN series_step.slices; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.slices IS 'slices the series cover: first_slice .. first_slice + slices - 1, within the chunk';


--
-- Name: COLUMN series_step.nodes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.nodes IS 'series: nodes of the step with activity in the slice';


--
-- Name: COLUMN series_step.processes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.processes IS 'series: processes with activity in the slice';


--
-- Name: COLUMN series_step.posix_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.posix_read_calls IS 'series: read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';


--
-- Name: COLUMN series_step.posix_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.posix_read_bytes IS 'series: bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';


--
-- Name: COLUMN series_step.posix_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.posix_write_calls IS 'series: write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';


--
-- Name: COLUMN series_step.posix_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.posix_write_bytes IS 'series: bytes accepted by those writes (asynchronous: as for reads) (bytes)';


--
-- Name: COLUMN series_step.posix_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.posix_open_calls IS 'series: open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';


--
-- Name: COLUMN series_step.posix_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.posix_meta_calls IS 'series: close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';


--
-- Name: COLUMN series_step.posix_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.posix_ns IS 'series: time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';


--
-- Name: COLUMN series_step.stdio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.stdio_read_calls IS 'series: fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';


--
-- Name: COLUMN series_step.stdio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.stdio_read_bytes IS 'series: bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';


--
-- Name: COLUMN series_step.stdio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.stdio_write_calls IS 'series: fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';


--
-- Name: COLUMN series_step.stdio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.stdio_write_bytes IS 'series: bytes handed to the stream by those calls (wide forms: one per character) (bytes)';


--
-- Name: COLUMN series_step.stdio_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.stdio_open_calls IS 'series: fopen, fdopen, freopen (and 64-bit variants) (calls)';


--
-- Name: COLUMN series_step.stdio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.stdio_meta_calls IS 'series: fclose, fflush, fseek family, ungetc/ungetwc (calls)';


--
-- Name: COLUMN series_step.stdio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.stdio_ns IS 'series: time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';


--
-- Name: COLUMN series_step.lower_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.lower_read_bytes IS 'series: POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';


--
-- Name: COLUMN series_step.lower_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.lower_write_bytes IS 'series: POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';


--
-- Name: COLUMN series_step.mpi_send_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpi_send_calls IS 'series: point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';


--
-- Name: COLUMN series_step.mpi_send_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpi_send_bytes IS 'series: bytes of those sends (count x type size) (bytes)';


--
-- Name: COLUMN series_step.mpi_recv_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpi_recv_calls IS 'series: point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';


--
-- Name: COLUMN series_step.mpi_recv_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpi_recv_bytes IS 'series: bytes of those receives as posted (count x type size) (bytes)';


--
-- Name: COLUMN series_step.mpi_p2p_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpi_p2p_ns IS 'series: time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';


--
-- Name: COLUMN series_step.mpi_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpi_coll_calls IS 'series: collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';


--
-- Name: COLUMN series_step.mpi_coll_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpi_coll_bytes IS 'series: send-side bytes of those collectives on this rank (bytes)';


--
-- Name: COLUMN series_step.mpi_coll_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpi_coll_ns IS 'series: time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';


--
-- Name: COLUMN series_step.mpiio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpiio_read_calls IS 'series: MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';


--
-- Name: COLUMN series_step.mpiio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpiio_read_bytes IS 'series: bytes of those reads (count x type size) (bytes)';


--
-- Name: COLUMN series_step.mpiio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpiio_write_calls IS 'series: MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';


--
-- Name: COLUMN series_step.mpiio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpiio_write_bytes IS 'series: bytes of those writes (count x type size) (bytes)';


--
-- Name: COLUMN series_step.mpiio_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpiio_coll_calls IS 'series: the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';


--
-- Name: COLUMN series_step.mpiio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpiio_meta_calls IS 'series: MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';


--
-- Name: COLUMN series_step.mpiio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.mpiio_ns IS 'series: time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';


--
-- Name: COLUMN series_step.cpu_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.cpu_ns IS 'series: CPU time (user + system) of the process in the slice (ns)';


--
-- Name: COLUMN series_step.kernel_rchar; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.kernel_rchar IS 'series: js_data.series_step_node.kernel_rchar summed over the step''s folded step-nodes';


--
-- Name: COLUMN series_step.kernel_wchar; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.kernel_wchar IS 'series: js_data.series_step_node.kernel_wchar summed over the step''s folded step-nodes';


--
-- Name: COLUMN series_step.kernel_syscr; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.kernel_syscr IS 'series: js_data.series_step_node.kernel_syscr summed over the step''s folded step-nodes';


--
-- Name: COLUMN series_step.kernel_syscw; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.kernel_syscw IS 'series: js_data.series_step_node.kernel_syscw summed over the step''s folded step-nodes';


--
-- Name: COLUMN series_step.kernel_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.kernel_read_bytes IS 'series: js_data.series_step_node.kernel_read_bytes summed over the step''s folded step-nodes';


--
-- Name: COLUMN series_step.kernel_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step.kernel_write_bytes IS 'series: js_data.series_step_node.kernel_write_bytes summed over the step''s folded step-nodes';


--
-- Name: series_step; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.series_step AS
 SELECT s.cluster_id,
    s.job_id,
    s.step_id,
    s.chunk,
    s.first_slice,
    s.slices,
    s.nodes,
    s.processes,
    s.posix_read_calls,
    s.posix_read_bytes,
    s.posix_write_calls,
    s.posix_write_bytes,
    s.posix_open_calls,
    s.posix_meta_calls,
    s.posix_ns,
    s.stdio_read_calls,
    s.stdio_read_bytes,
    s.stdio_write_calls,
    s.stdio_write_bytes,
    s.stdio_open_calls,
    s.stdio_meta_calls,
    s.stdio_ns,
    s.lower_read_bytes,
    s.lower_write_bytes,
    s.mpi_send_calls,
    s.mpi_send_bytes,
    s.mpi_recv_calls,
    s.mpi_recv_bytes,
    s.mpi_p2p_ns,
    s.mpi_coll_calls,
    s.mpi_coll_bytes,
    s.mpi_coll_ns,
    s.mpiio_read_calls,
    s.mpiio_read_bytes,
    s.mpiio_write_calls,
    s.mpiio_write_bytes,
    s.mpiio_coll_calls,
    s.mpiio_meta_calls,
    s.mpiio_ns,
    s.cpu_ns,
    s.kernel_rchar,
    s.kernel_wchar,
    s.kernel_syscr,
    s.kernel_syscw,
    s.kernel_read_bytes,
    s.kernel_write_bytes
   FROM js_data.series_step s;


--
-- Name: VIEW series_step; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.series_step IS 'per step and chunk, the encoded series (one per metric, NULL when zero; js.series_decode) of the step summed over its folded step-nodes; add js.series_step_pending for the rest';


--
-- Name: series_step_node; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.series_step_node (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    chunk bigint NOT NULL,
    first_slice bigint NOT NULL,
    slices smallint NOT NULL,
    processes bytea,
    posix_read_calls bytea,
    posix_read_bytes bytea,
    posix_write_calls bytea,
    posix_write_bytes bytea,
    posix_open_calls bytea,
    posix_meta_calls bytea,
    posix_ns bytea,
    stdio_read_calls bytea,
    stdio_read_bytes bytea,
    stdio_write_calls bytea,
    stdio_write_bytes bytea,
    stdio_open_calls bytea,
    stdio_meta_calls bytea,
    stdio_ns bytea,
    lower_read_bytes bytea,
    lower_write_bytes bytea,
    mpi_send_calls bytea,
    mpi_send_bytes bytea,
    mpi_recv_calls bytea,
    mpi_recv_bytes bytea,
    mpi_p2p_ns bytea,
    mpi_coll_calls bytea,
    mpi_coll_bytes bytea,
    mpi_coll_ns bytea,
    mpiio_read_calls bytea,
    mpiio_read_bytes bytea,
    mpiio_write_calls bytea,
    mpiio_write_bytes bytea,
    mpiio_coll_calls bytea,
    mpiio_meta_calls bytea,
    mpiio_ns bytea,
    cpu_ns bytea,
    kernel_rchar bytea,
    kernel_wchar bytea,
    kernel_syscr bytea,
    kernel_syscw bytea,
    kernel_read_bytes bytea,
    kernel_write_bytes bytea,
    CONSTRAINT series_step_node_check CHECK (((chunk = js_data.series_chunk_of(first_slice)) AND ((slices >= 1) AND (slices <= 900)) AND ((first_slice + slices) <= (chunk + 900))))
)
PARTITION BY RANGE (chunk);
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN processes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN lower_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN lower_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_send_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_send_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_recv_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_recv_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_p2p_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_coll_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_coll_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN cpu_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN kernel_rchar SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN kernel_wchar SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN kernel_syscr SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN kernel_syscw SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN kernel_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN kernel_write_bytes SET COMPRESSION lz4;


--
-- Name: TABLE series_step_node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.series_step_node IS 'per-slice series of a step on a node, summed over its processes: one row per step, node and chunk of js_data.series_chunk_width() slices; one encoded series (common/series.h) per metric, NULL when zero throughout; partitioned by chunk';


--
-- Name: COLUMN series_step_node.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.cluster_id IS 'cluster';


--
-- Name: COLUMN series_step_node.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.job_id IS 'Slurm job id';


--
-- Name: COLUMN series_step_node.step_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.step_id IS 'step id in words';


--
-- Name: COLUMN series_step_node.node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.node IS 'node';


--
-- Name: COLUMN series_step_node.chunk; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.chunk IS 'first slice of the chunk (a multiple of js_data.series_chunk_width())';


--
-- Name: COLUMN series_step_node.first_slice; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.first_slice IS 'first slice the series cover';


--
-- Name: COLUMN series_step_node.slices; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.slices IS 'slices the series cover: first_slice .. first_slice + slices - 1, within the chunk';


--
-- Name: COLUMN series_step_node.processes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.processes IS 'series: processes with activity in the slice';


--
-- Name: COLUMN series_step_node.posix_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.posix_read_calls IS 'series: read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';


--
-- Name: COLUMN series_step_node.posix_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.posix_read_bytes IS 'series: bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';


--
-- Name: COLUMN series_step_node.posix_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.posix_write_calls IS 'series: write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';


--
-- Name: COLUMN series_step_node.posix_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.posix_write_bytes IS 'series: bytes accepted by those writes (asynchronous: as for reads) (bytes)';


--
-- Name: COLUMN series_step_node.posix_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.posix_open_calls IS 'series: open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';


--
-- Name: COLUMN series_step_node.posix_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.posix_meta_calls IS 'series: close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';


--
-- Name: COLUMN series_step_node.posix_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.posix_ns IS 'series: time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';


--
-- Name: COLUMN series_step_node.stdio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.stdio_read_calls IS 'series: fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';


--
-- Name: COLUMN series_step_node.stdio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.stdio_read_bytes IS 'series: bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';


--
-- Name: COLUMN series_step_node.stdio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.stdio_write_calls IS 'series: fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';


--
-- Name: COLUMN series_step_node.stdio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.stdio_write_bytes IS 'series: bytes handed to the stream by those calls (wide forms: one per character) (bytes)';


--
-- Name: COLUMN series_step_node.stdio_open_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.stdio_open_calls IS 'series: fopen, fdopen, freopen (and 64-bit variants) (calls)';


--
-- Name: COLUMN series_step_node.stdio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.stdio_meta_calls IS 'series: fclose, fflush, fseek family, ungetc/ungetwc (calls)';


--
-- Name: COLUMN series_step_node.stdio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.stdio_ns IS 'series: time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';


--
-- Name: COLUMN series_step_node.lower_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.lower_read_bytes IS 'series: POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';


--
-- Name: COLUMN series_step_node.lower_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.lower_write_bytes IS 'series: POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';


--
-- Name: COLUMN series_step_node.mpi_send_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpi_send_calls IS 'series: point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';


--
-- Name: COLUMN series_step_node.mpi_send_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpi_send_bytes IS 'series: bytes of those sends (count x type size) (bytes)';


--
-- Name: COLUMN series_step_node.mpi_recv_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpi_recv_calls IS 'series: point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';


--
-- Name: COLUMN series_step_node.mpi_recv_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpi_recv_bytes IS 'series: bytes of those receives as posted (count x type size) (bytes)';


--
-- Name: COLUMN series_step_node.mpi_p2p_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpi_p2p_ns IS 'series: time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';


--
-- Name: COLUMN series_step_node.mpi_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpi_coll_calls IS 'series: collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';


--
-- Name: COLUMN series_step_node.mpi_coll_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpi_coll_bytes IS 'series: send-side bytes of those collectives on this rank (bytes)';


--
-- Name: COLUMN series_step_node.mpi_coll_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpi_coll_ns IS 'series: time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';


--
-- Name: COLUMN series_step_node.mpiio_read_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpiio_read_calls IS 'series: MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';


--
-- Name: COLUMN series_step_node.mpiio_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpiio_read_bytes IS 'series: bytes of those reads (count x type size) (bytes)';


--
-- Name: COLUMN series_step_node.mpiio_write_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpiio_write_calls IS 'series: MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';


--
-- Name: COLUMN series_step_node.mpiio_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpiio_write_bytes IS 'series: bytes of those writes (count x type size) (bytes)';


--
-- Name: COLUMN series_step_node.mpiio_coll_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpiio_coll_calls IS 'series: the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';


--
-- Name: COLUMN series_step_node.mpiio_meta_calls; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpiio_meta_calls IS 'series: MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';


--
-- Name: COLUMN series_step_node.mpiio_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.mpiio_ns IS 'series: time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';


--
-- Name: COLUMN series_step_node.cpu_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.cpu_ns IS 'series: CPU time (user + system) of the process in the slice (ns)';


--
-- Name: COLUMN series_step_node.kernel_rchar; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.kernel_rchar IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: bytes returned by read-like system calls on anything (files, pipes, sockets, terminals) (bytes); NULL when zero throughout or before profile format 5';


--
-- Name: COLUMN series_step_node.kernel_wchar; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.kernel_wchar IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: bytes passed to write-like system calls on anything (bytes); NULL when zero throughout or before profile format 5';


--
-- Name: COLUMN series_step_node.kernel_syscr; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.kernel_syscr IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: read-like system calls (calls); NULL when zero throughout or before profile format 5';


--
-- Name: COLUMN series_step_node.kernel_syscw; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.kernel_syscw IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: write-like system calls (calls); NULL when zero throughout or before profile format 5';


--
-- Name: COLUMN series_step_node.kernel_read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.kernel_read_bytes IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: bytes the processes caused to be fetched from storage (bytes); NULL when zero throughout or before profile format 5';


--
-- Name: COLUMN series_step_node.kernel_write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.series_step_node.kernel_write_bytes IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: bytes the processes caused to be sent to storage (dirtied page cache) (bytes); NULL when zero throughout or before profile format 5';


--
-- Name: series_step_node; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.series_step_node AS
 SELECT s.cluster_id,
    s.job_id,
    s.step_id,
    s.node,
    s.chunk,
    s.first_slice,
    s.slices,
    s.processes,
    s.posix_read_calls,
    s.posix_read_bytes,
    s.posix_write_calls,
    s.posix_write_bytes,
    s.posix_open_calls,
    s.posix_meta_calls,
    s.posix_ns,
    s.stdio_read_calls,
    s.stdio_read_bytes,
    s.stdio_write_calls,
    s.stdio_write_bytes,
    s.stdio_open_calls,
    s.stdio_meta_calls,
    s.stdio_ns,
    s.lower_read_bytes,
    s.lower_write_bytes,
    s.mpi_send_calls,
    s.mpi_send_bytes,
    s.mpi_recv_calls,
    s.mpi_recv_bytes,
    s.mpi_p2p_ns,
    s.mpi_coll_calls,
    s.mpi_coll_bytes,
    s.mpi_coll_ns,
    s.mpiio_read_calls,
    s.mpiio_read_bytes,
    s.mpiio_write_calls,
    s.mpiio_write_bytes,
    s.mpiio_coll_calls,
    s.mpiio_meta_calls,
    s.mpiio_ns,
    s.cpu_ns
   FROM js_data.series_step_node s;


--
-- Name: VIEW series_step_node; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.series_step_node IS 'per step, node and chunk, the encoded series of the step on the node (js.series_decode)';


--
-- Name: totals_pending; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.totals_pending (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    queued_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: TABLE totals_pending; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.totals_pending IS 'step records whose slice vectors are in js_data.slice_metrics but not yet added into the slice totals; js_data.rollup_totals() folds them in batches (the views js.slice_totals_* add them meanwhile, so readers see exact sums)';


--
-- Name: COLUMN totals_pending.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.totals_pending.cluster_id IS 'cluster';


--
-- Name: COLUMN totals_pending.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.totals_pending.job_id IS 'Slurm job id';


--
-- Name: COLUMN totals_pending.step_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.totals_pending.step_id IS 'step id in words';


--
-- Name: COLUMN totals_pending.node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.totals_pending.node IS 'node';


--
-- Name: COLUMN totals_pending.queued_at; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.totals_pending.queued_at IS 'commit of the ingest transaction that queued it';


--
-- Name: series_step_pending; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.series_step_pending AS
 SELECT s.cluster_id,
    s.job_id,
    s.step_id,
    s.node,
    s.chunk,
    s.first_slice,
    s.slices,
    s.processes,
    s.posix_read_calls,
    s.posix_read_bytes,
    s.posix_write_calls,
    s.posix_write_bytes,
    s.posix_open_calls,
    s.posix_meta_calls,
    s.posix_ns,
    s.stdio_read_calls,
    s.stdio_read_bytes,
    s.stdio_write_calls,
    s.stdio_write_bytes,
    s.stdio_open_calls,
    s.stdio_meta_calls,
    s.stdio_ns,
    s.lower_read_bytes,
    s.lower_write_bytes,
    s.mpi_send_calls,
    s.mpi_send_bytes,
    s.mpi_recv_calls,
    s.mpi_recv_bytes,
    s.mpi_p2p_ns,
    s.mpi_coll_calls,
    s.mpi_coll_bytes,
    s.mpi_coll_ns,
    s.mpiio_read_calls,
    s.mpiio_read_bytes,
    s.mpiio_write_calls,
    s.mpiio_write_bytes,
    s.mpiio_coll_calls,
    s.mpiio_meta_calls,
    s.mpiio_ns,
    s.cpu_ns,
    s.kernel_rchar,
    s.kernel_wchar,
    s.kernel_syscr,
    s.kernel_syscw,
    s.kernel_read_bytes,
    s.kernel_write_bytes
   FROM (js_data.series_step_node s
     JOIN js_data.totals_pending p ON (((p.cluster_id = s.cluster_id) AND (p.job_id = s.job_id) AND (p.step_id = s.step_id) AND (p.node = s.node))));


--
-- Name: VIEW series_step_pending; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.series_step_pending IS 'per step-node and chunk, the encoded series of the step-nodes not yet folded into js.series_step, js.series_node and js.series_cluster';


--
-- Name: slice_totals_cluster; Type: VIEW; Schema: js_data; Owner: -
--

CREATE VIEW js_data.slice_totals_cluster AS
 SELECT r.cluster_id,
    r.chunk,
    ((r.first_slice + u.i) - 1) AS slice,
    (u.step_nodes)::integer AS step_nodes,
    u.posix_read_calls,
    u.posix_read_bytes,
    u.posix_write_calls,
    u.posix_write_bytes,
    u.posix_open_calls,
    u.posix_meta_calls,
    u.posix_ns,
    u.stdio_read_calls,
    u.stdio_read_bytes,
    u.stdio_write_calls,
    u.stdio_write_bytes,
    u.stdio_open_calls,
    u.stdio_meta_calls,
    u.stdio_ns,
    u.lower_read_bytes,
    u.lower_write_bytes,
    u.mpi_send_calls,
    u.mpi_send_bytes,
    u.mpi_recv_calls,
    u.mpi_recv_bytes,
    u.mpi_p2p_ns,
    u.mpi_coll_calls,
    u.mpi_coll_bytes,
    u.mpi_coll_ns,
    u.mpiio_read_calls,
    u.mpiio_read_bytes,
    u.mpiio_write_calls,
    u.mpiio_write_bytes,
    u.mpiio_coll_calls,
    u.mpiio_meta_calls,
    u.mpiio_ns,
    u.cpu_ns
   FROM (js_data.series_cluster r
     CROSS JOIN LATERAL UNNEST(js_data.series_decode(r.step_nodes, (r.slices)::integer), js_data.series_decode(r.posix_read_calls, (r.slices)::integer), js_data.series_decode(r.posix_read_bytes, (r.slices)::integer), js_data.series_decode(r.posix_write_calls, (r.slices)::integer), js_data.series_decode(r.posix_write_bytes, (r.slices)::integer), js_data.series_decode(r.posix_open_calls, (r.slices)::integer), js_data.series_decode(r.posix_meta_calls, (r.slices)::integer), js_data.series_decode(r.posix_ns, (r.slices)::integer), js_data.series_decode(r.stdio_read_calls, (r.slices)::integer), js_data.series_decode(r.stdio_read_bytes, (r.slices)::integer), js_data.series_decode(r.stdio_write_calls, (r.slices)::integer), js_data.series_decode(r.stdio_write_bytes, (r.slices)::integer), js_data.series_decode(r.stdio_open_calls, (r.slices)::integer), js_data.series_decode(r.stdio_meta_calls, (r.slices)::integer), js_data.series_decode(r.stdio_ns, (r.slices)::integer), js_data.series_decode(r.lower_read_bytes, (r.slices)::integer), js_data.series_decode(r.lower_write_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_send_calls, (r.slices)::integer), js_data.series_decode(r.mpi_send_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_recv_calls, (r.slices)::integer), js_data.series_decode(r.mpi_recv_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_p2p_ns, (r.slices)::integer), js_data.series_decode(r.mpi_coll_calls, (r.slices)::integer), js_data.series_decode(r.mpi_coll_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_coll_ns, (r.slices)::integer), js_data.series_decode(r.mpiio_read_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_read_bytes, (r.slices)::integer), js_data.series_decode(r.mpiio_write_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_write_bytes, (r.slices)::integer), js_data.series_decode(r.mpiio_coll_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_meta_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_ns, (r.slices)::integer), js_data.series_decode(r.cpu_ns, (r.slices)::integer)) WITH ORDINALITY u(step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, i))
  WHERE (u.step_nodes > 0);


--
-- Name: VIEW slice_totals_cluster; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON VIEW js_data.slice_totals_cluster IS 'js_data.series_cluster decoded: per slice, the sums over the folded step-nodes of the cluster';


--
-- Name: slice_totals_cluster; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.slice_totals_cluster AS
 SELECT t.cluster_id,
    t.slice,
    t.step_nodes,
    t.posix_read_calls,
    t.posix_read_bytes,
    t.posix_write_calls,
    t.posix_write_bytes,
    t.posix_open_calls,
    t.posix_meta_calls,
    t.posix_ns,
    t.stdio_read_calls,
    t.stdio_read_bytes,
    t.stdio_write_calls,
    t.stdio_write_bytes,
    t.stdio_open_calls,
    t.stdio_meta_calls,
    t.stdio_ns,
    t.lower_read_bytes,
    t.lower_write_bytes,
    t.mpi_send_calls,
    t.mpi_send_bytes,
    t.mpi_recv_calls,
    t.mpi_recv_bytes,
    t.mpi_p2p_ns,
    t.mpi_coll_calls,
    t.mpi_coll_bytes,
    t.mpi_coll_ns,
    t.mpiio_read_calls,
    t.mpiio_read_bytes,
    t.mpiio_write_calls,
    t.mpiio_write_bytes,
    t.mpiio_coll_calls,
    t.mpiio_meta_calls,
    t.mpiio_ns,
    t.cpu_ns,
    js_data.slice_start(t.cluster_id, t.slice) AS slice_start
   FROM js_data.slice_totals_cluster t;


--
-- Name: VIEW slice_totals_cluster; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.slice_totals_cluster IS 'pre-aggregated per-slice sums over the whole cluster (all jobs), decoded from js_data.series_cluster; lags the step records still in js_data.totals_pending';


--
-- Name: slice_totals_node; Type: VIEW; Schema: js_data; Owner: -
--

CREATE VIEW js_data.slice_totals_node AS
 SELECT r.cluster_id,
    r.node,
    r.chunk,
    ((r.first_slice + u.i) - 1) AS slice,
    (u.step_nodes)::integer AS step_nodes,
    u.posix_read_calls,
    u.posix_read_bytes,
    u.posix_write_calls,
    u.posix_write_bytes,
    u.posix_open_calls,
    u.posix_meta_calls,
    u.posix_ns,
    u.stdio_read_calls,
    u.stdio_read_bytes,
    u.stdio_write_calls,
    u.stdio_write_bytes,
    u.stdio_open_calls,
    u.stdio_meta_calls,
    u.stdio_ns,
    u.lower_read_bytes,
    u.lower_write_bytes,
    u.mpi_send_calls,
    u.mpi_send_bytes,
    u.mpi_recv_calls,
    u.mpi_recv_bytes,
    u.mpi_p2p_ns,
    u.mpi_coll_calls,
    u.mpi_coll_bytes,
    u.mpi_coll_ns,
    u.mpiio_read_calls,
    u.mpiio_read_bytes,
    u.mpiio_write_calls,
    u.mpiio_write_bytes,
    u.mpiio_coll_calls,
    u.mpiio_meta_calls,
    u.mpiio_ns,
    u.cpu_ns
   FROM (js_data.series_node r
     CROSS JOIN LATERAL UNNEST(js_data.series_decode(r.step_nodes, (r.slices)::integer), js_data.series_decode(r.posix_read_calls, (r.slices)::integer), js_data.series_decode(r.posix_read_bytes, (r.slices)::integer), js_data.series_decode(r.posix_write_calls, (r.slices)::integer), js_data.series_decode(r.posix_write_bytes, (r.slices)::integer), js_data.series_decode(r.posix_open_calls, (r.slices)::integer), js_data.series_decode(r.posix_meta_calls, (r.slices)::integer), js_data.series_decode(r.posix_ns, (r.slices)::integer), js_data.series_decode(r.stdio_read_calls, (r.slices)::integer), js_data.series_decode(r.stdio_read_bytes, (r.slices)::integer), js_data.series_decode(r.stdio_write_calls, (r.slices)::integer), js_data.series_decode(r.stdio_write_bytes, (r.slices)::integer), js_data.series_decode(r.stdio_open_calls, (r.slices)::integer), js_data.series_decode(r.stdio_meta_calls, (r.slices)::integer), js_data.series_decode(r.stdio_ns, (r.slices)::integer), js_data.series_decode(r.lower_read_bytes, (r.slices)::integer), js_data.series_decode(r.lower_write_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_send_calls, (r.slices)::integer), js_data.series_decode(r.mpi_send_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_recv_calls, (r.slices)::integer), js_data.series_decode(r.mpi_recv_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_p2p_ns, (r.slices)::integer), js_data.series_decode(r.mpi_coll_calls, (r.slices)::integer), js_data.series_decode(r.mpi_coll_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_coll_ns, (r.slices)::integer), js_data.series_decode(r.mpiio_read_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_read_bytes, (r.slices)::integer), js_data.series_decode(r.mpiio_write_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_write_bytes, (r.slices)::integer), js_data.series_decode(r.mpiio_coll_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_meta_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_ns, (r.slices)::integer), js_data.series_decode(r.cpu_ns, (r.slices)::integer)) WITH ORDINALITY u(step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, i))
  WHERE (u.step_nodes > 0);


--
-- Name: VIEW slice_totals_node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON VIEW js_data.slice_totals_node IS 'js_data.series_node decoded: per node and slice, the sums over the folded steps on it';


--
-- Name: slice_totals_node; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.slice_totals_node AS
 SELECT t.cluster_id,
    t.node,
    t.slice,
    t.step_nodes,
    t.posix_read_calls,
    t.posix_read_bytes,
    t.posix_write_calls,
    t.posix_write_bytes,
    t.posix_open_calls,
    t.posix_meta_calls,
    t.posix_ns,
    t.stdio_read_calls,
    t.stdio_read_bytes,
    t.stdio_write_calls,
    t.stdio_write_bytes,
    t.stdio_open_calls,
    t.stdio_meta_calls,
    t.stdio_ns,
    t.lower_read_bytes,
    t.lower_write_bytes,
    t.mpi_send_calls,
    t.mpi_send_bytes,
    t.mpi_recv_calls,
    t.mpi_recv_bytes,
    t.mpi_p2p_ns,
    t.mpi_coll_calls,
    t.mpi_coll_bytes,
    t.mpi_coll_ns,
    t.mpiio_read_calls,
    t.mpiio_read_bytes,
    t.mpiio_write_calls,
    t.mpiio_write_bytes,
    t.mpiio_coll_calls,
    t.mpiio_meta_calls,
    t.mpiio_ns,
    t.cpu_ns,
    js_data.slice_start(t.cluster_id, t.slice) AS slice_start
   FROM js_data.slice_totals_node t;


--
-- Name: VIEW slice_totals_node; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.slice_totals_node IS 'pre-aggregated per-slice sums per node (all jobs), decoded from js_data.series_node; lags the step records still in js_data.totals_pending';


--
-- Name: slice_metrics; Type: VIEW; Schema: js_data; Owner: -
--

CREATE VIEW js_data.slice_metrics AS
 SELECT r.cluster_id,
    r.job_id,
    r.step_id,
    r.node,
    r.chunk,
    ((r.first_slice + u.i) - 1) AS slice,
    (u.processes)::integer AS processes,
    u.posix_read_calls,
    u.posix_read_bytes,
    u.posix_write_calls,
    u.posix_write_bytes,
    u.posix_open_calls,
    u.posix_meta_calls,
    u.posix_ns,
    u.stdio_read_calls,
    u.stdio_read_bytes,
    u.stdio_write_calls,
    u.stdio_write_bytes,
    u.stdio_open_calls,
    u.stdio_meta_calls,
    u.stdio_ns,
    u.lower_read_bytes,
    u.lower_write_bytes,
    u.mpi_send_calls,
    u.mpi_send_bytes,
    u.mpi_recv_calls,
    u.mpi_recv_bytes,
    u.mpi_p2p_ns,
    u.mpi_coll_calls,
    u.mpi_coll_bytes,
    u.mpi_coll_ns,
    u.mpiio_read_calls,
    u.mpiio_read_bytes,
    u.mpiio_write_calls,
    u.mpiio_write_bytes,
    u.mpiio_coll_calls,
    u.mpiio_meta_calls,
    u.mpiio_ns,
    u.cpu_ns,
    u.kernel_rchar,
    u.kernel_wchar,
    u.kernel_syscr,
    u.kernel_syscw,
    u.kernel_read_bytes,
    u.kernel_write_bytes
   FROM (js_data.series_step_node r
     CROSS JOIN LATERAL UNNEST(js_data.series_decode(r.processes, (r.slices)::integer), js_data.series_decode(r.posix_read_calls, (r.slices)::integer), js_data.series_decode(r.posix_read_bytes, (r.slices)::integer), js_data.series_decode(r.posix_write_calls, (r.slices)::integer), js_data.series_decode(r.posix_write_bytes, (r.slices)::integer), js_data.series_decode(r.posix_open_calls, (r.slices)::integer), js_data.series_decode(r.posix_meta_calls, (r.slices)::integer), js_data.series_decode(r.posix_ns, (r.slices)::integer), js_data.series_decode(r.stdio_read_calls, (r.slices)::integer), js_data.series_decode(r.stdio_read_bytes, (r.slices)::integer), js_data.series_decode(r.stdio_write_calls, (r.slices)::integer), js_data.series_decode(r.stdio_write_bytes, (r.slices)::integer), js_data.series_decode(r.stdio_open_calls, (r.slices)::integer), js_data.series_decode(r.stdio_meta_calls, (r.slices)::integer), js_data.series_decode(r.stdio_ns, (r.slices)::integer), js_data.series_decode(r.lower_read_bytes, (r.slices)::integer), js_data.series_decode(r.lower_write_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_send_calls, (r.slices)::integer), js_data.series_decode(r.mpi_send_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_recv_calls, (r.slices)::integer), js_data.series_decode(r.mpi_recv_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_p2p_ns, (r.slices)::integer), js_data.series_decode(r.mpi_coll_calls, (r.slices)::integer), js_data.series_decode(r.mpi_coll_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_coll_ns, (r.slices)::integer), js_data.series_decode(r.mpiio_read_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_read_bytes, (r.slices)::integer), js_data.series_decode(r.mpiio_write_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_write_bytes, (r.slices)::integer), js_data.series_decode(r.mpiio_coll_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_meta_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_ns, (r.slices)::integer), js_data.series_decode(r.cpu_ns, (r.slices)::integer), js_data.series_decode(r.kernel_rchar, (r.slices)::integer), js_data.series_decode(r.kernel_wchar, (r.slices)::integer), js_data.series_decode(r.kernel_syscr, (r.slices)::integer), js_data.series_decode(r.kernel_syscw, (r.slices)::integer), js_data.series_decode(r.kernel_read_bytes, (r.slices)::integer), js_data.series_decode(r.kernel_write_bytes, (r.slices)::integer)) WITH ORDINALITY u(processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes, i))
  WHERE (u.processes > 0);


--
-- Name: VIEW slice_metrics; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON VIEW js_data.slice_metrics IS 'js_data.series_step_node decoded: the per-slice metric vector of a step on a node, one row per slice with activity (filter by step, or by chunk: it decodes what it reads)';


--
-- Name: step_series_slices; Type: VIEW; Schema: js_data; Owner: -
--

CREATE VIEW js_data.step_series_slices AS
 SELECT r.cluster_id,
    r.job_id,
    r.step_id,
    r.chunk,
    ((r.first_slice + u.i) - 1) AS slice,
    (u.nodes)::integer AS nodes,
    (u.processes)::integer AS processes,
    u.posix_read_calls,
    u.posix_read_bytes,
    u.posix_write_calls,
    u.posix_write_bytes,
    u.posix_open_calls,
    u.posix_meta_calls,
    u.posix_ns,
    u.stdio_read_calls,
    u.stdio_read_bytes,
    u.stdio_write_calls,
    u.stdio_write_bytes,
    u.stdio_open_calls,
    u.stdio_meta_calls,
    u.stdio_ns,
    u.lower_read_bytes,
    u.lower_write_bytes,
    u.mpi_send_calls,
    u.mpi_send_bytes,
    u.mpi_recv_calls,
    u.mpi_recv_bytes,
    u.mpi_p2p_ns,
    u.mpi_coll_calls,
    u.mpi_coll_bytes,
    u.mpi_coll_ns,
    u.mpiio_read_calls,
    u.mpiio_read_bytes,
    u.mpiio_write_calls,
    u.mpiio_write_bytes,
    u.mpiio_coll_calls,
    u.mpiio_meta_calls,
    u.mpiio_ns,
    u.cpu_ns,
    u.kernel_rchar,
    u.kernel_wchar,
    u.kernel_syscr,
    u.kernel_syscw,
    u.kernel_read_bytes,
    u.kernel_write_bytes
   FROM (js_data.series_step r
     CROSS JOIN LATERAL UNNEST(js_data.series_decode(r.nodes, (r.slices)::integer), js_data.series_decode(r.processes, (r.slices)::integer), js_data.series_decode(r.posix_read_calls, (r.slices)::integer), js_data.series_decode(r.posix_read_bytes, (r.slices)::integer), js_data.series_decode(r.posix_write_calls, (r.slices)::integer), js_data.series_decode(r.posix_write_bytes, (r.slices)::integer), js_data.series_decode(r.posix_open_calls, (r.slices)::integer), js_data.series_decode(r.posix_meta_calls, (r.slices)::integer), js_data.series_decode(r.posix_ns, (r.slices)::integer), js_data.series_decode(r.stdio_read_calls, (r.slices)::integer), js_data.series_decode(r.stdio_read_bytes, (r.slices)::integer), js_data.series_decode(r.stdio_write_calls, (r.slices)::integer), js_data.series_decode(r.stdio_write_bytes, (r.slices)::integer), js_data.series_decode(r.stdio_open_calls, (r.slices)::integer), js_data.series_decode(r.stdio_meta_calls, (r.slices)::integer), js_data.series_decode(r.stdio_ns, (r.slices)::integer), js_data.series_decode(r.lower_read_bytes, (r.slices)::integer), js_data.series_decode(r.lower_write_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_send_calls, (r.slices)::integer), js_data.series_decode(r.mpi_send_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_recv_calls, (r.slices)::integer), js_data.series_decode(r.mpi_recv_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_p2p_ns, (r.slices)::integer), js_data.series_decode(r.mpi_coll_calls, (r.slices)::integer), js_data.series_decode(r.mpi_coll_bytes, (r.slices)::integer), js_data.series_decode(r.mpi_coll_ns, (r.slices)::integer), js_data.series_decode(r.mpiio_read_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_read_bytes, (r.slices)::integer), js_data.series_decode(r.mpiio_write_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_write_bytes, (r.slices)::integer), js_data.series_decode(r.mpiio_coll_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_meta_calls, (r.slices)::integer), js_data.series_decode(r.mpiio_ns, (r.slices)::integer), js_data.series_decode(r.cpu_ns, (r.slices)::integer), js_data.series_decode(r.kernel_rchar, (r.slices)::integer), js_data.series_decode(r.kernel_wchar, (r.slices)::integer), js_data.series_decode(r.kernel_syscr, (r.slices)::integer), js_data.series_decode(r.kernel_syscw, (r.slices)::integer), js_data.series_decode(r.kernel_read_bytes, (r.slices)::integer), js_data.series_decode(r.kernel_write_bytes, (r.slices)::integer)) WITH ORDINALITY u(nodes, processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes, i))
  WHERE (u.nodes > 0);


--
-- Name: VIEW step_series_slices; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON VIEW js_data.step_series_slices IS 'js_data.series_step decoded: per slice with activity, the sums over the folded step-nodes of the step';


--
-- Name: step_sums; Type: VIEW; Schema: js_data; Owner: -
--

CREATE VIEW js_data.step_sums AS
 SELECT step_series_slices.cluster_id,
    step_series_slices.job_id,
    step_series_slices.step_id,
    step_series_slices.chunk,
    step_series_slices.slice,
    step_series_slices.nodes,
    step_series_slices.processes,
    step_series_slices.posix_read_calls,
    step_series_slices.posix_read_bytes,
    step_series_slices.posix_write_calls,
    step_series_slices.posix_write_bytes,
    step_series_slices.posix_open_calls,
    step_series_slices.posix_meta_calls,
    step_series_slices.posix_ns,
    step_series_slices.stdio_read_calls,
    step_series_slices.stdio_read_bytes,
    step_series_slices.stdio_write_calls,
    step_series_slices.stdio_write_bytes,
    step_series_slices.stdio_open_calls,
    step_series_slices.stdio_meta_calls,
    step_series_slices.stdio_ns,
    step_series_slices.lower_read_bytes,
    step_series_slices.lower_write_bytes,
    step_series_slices.mpi_send_calls,
    step_series_slices.mpi_send_bytes,
    step_series_slices.mpi_recv_calls,
    step_series_slices.mpi_recv_bytes,
    step_series_slices.mpi_p2p_ns,
    step_series_slices.mpi_coll_calls,
    step_series_slices.mpi_coll_bytes,
    step_series_slices.mpi_coll_ns,
    step_series_slices.mpiio_read_calls,
    step_series_slices.mpiio_read_bytes,
    step_series_slices.mpiio_write_calls,
    step_series_slices.mpiio_write_bytes,
    step_series_slices.mpiio_coll_calls,
    step_series_slices.mpiio_meta_calls,
    step_series_slices.mpiio_ns,
    step_series_slices.cpu_ns,
    false AS live
   FROM js_data.step_series_slices
UNION ALL
 SELECT m.cluster_id,
    m.job_id,
    m.step_id,
    m.chunk,
    m.slice,
    1 AS nodes,
    m.processes,
    m.posix_read_calls,
    m.posix_read_bytes,
    m.posix_write_calls,
    m.posix_write_bytes,
    m.posix_open_calls,
    m.posix_meta_calls,
    m.posix_ns,
    m.stdio_read_calls,
    m.stdio_read_bytes,
    m.stdio_write_calls,
    m.stdio_write_bytes,
    m.stdio_open_calls,
    m.stdio_meta_calls,
    m.stdio_ns,
    m.lower_read_bytes,
    m.lower_write_bytes,
    m.mpi_send_calls,
    m.mpi_send_bytes,
    m.mpi_recv_calls,
    m.mpi_recv_bytes,
    m.mpi_p2p_ns,
    m.mpi_coll_calls,
    m.mpi_coll_bytes,
    m.mpi_coll_ns,
    m.mpiio_read_calls,
    m.mpiio_read_bytes,
    m.mpiio_write_calls,
    m.mpiio_write_bytes,
    m.mpiio_coll_calls,
    m.mpiio_meta_calls,
    m.mpiio_ns,
    m.cpu_ns,
    false AS live
   FROM (js_data.slice_metrics m
     JOIN js_data.totals_pending p ON (((p.cluster_id = m.cluster_id) AND (p.job_id = m.job_id) AND (p.step_id = m.step_id) AND (p.node = m.node))))
UNION ALL
 SELECT m.cluster_id,
    m.job_id,
    m.step_id,
    js_data.series_chunk_of(m.slice) AS chunk,
    m.slice,
    1 AS nodes,
    m.processes,
    m.posix_read_calls,
    m.posix_read_bytes,
    m.posix_write_calls,
    m.posix_write_bytes,
    m.posix_open_calls,
    m.posix_meta_calls,
    m.posix_ns,
    m.stdio_read_calls,
    m.stdio_read_bytes,
    m.stdio_write_calls,
    m.stdio_write_bytes,
    m.stdio_open_calls,
    m.stdio_meta_calls,
    m.stdio_ns,
    m.lower_read_bytes,
    m.lower_write_bytes,
    m.mpi_send_calls,
    m.mpi_send_bytes,
    m.mpi_recv_calls,
    m.mpi_recv_bytes,
    m.mpi_p2p_ns,
    m.mpi_coll_calls,
    m.mpi_coll_bytes,
    m.mpi_coll_ns,
    m.mpiio_read_calls,
    m.mpiio_read_bytes,
    m.mpiio_write_calls,
    m.mpiio_write_bytes,
    m.mpiio_coll_calls,
    m.mpiio_meta_calls,
    m.mpiio_ns,
    m.cpu_ns,
    true AS live
   FROM js_data.live_slice_metrics m;


--
-- Name: VIEW step_sums; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON VIEW js_data.step_sums IS 'per step and slice, the parts whose sum is the step''s vector: the folded series, the step-nodes queued for the fold, the provisional rows of running step-nodes (live)';


--
-- Name: step_background_cluster; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.step_background_cluster AS
 SELECT s.cluster_id,
    s.job_id,
    s.step_id,
    x.slice,
    js_data.slice_start(s.cluster_id, x.slice) AS slice_start,
    x.bg_step_nodes,
    x.posix_read_calls,
    x.bg_posix_read_calls,
    x.posix_read_bytes,
    x.bg_posix_read_bytes,
    x.posix_write_calls,
    x.bg_posix_write_calls,
    x.posix_write_bytes,
    x.bg_posix_write_bytes,
    x.posix_open_calls,
    x.bg_posix_open_calls,
    x.posix_meta_calls,
    x.bg_posix_meta_calls,
    x.posix_ns,
    x.bg_posix_ns,
    x.stdio_read_calls,
    x.bg_stdio_read_calls,
    x.stdio_read_bytes,
    x.bg_stdio_read_bytes,
    x.stdio_write_calls,
    x.bg_stdio_write_calls,
    x.stdio_write_bytes,
    x.bg_stdio_write_bytes,
    x.stdio_open_calls,
    x.bg_stdio_open_calls,
    x.stdio_meta_calls,
    x.bg_stdio_meta_calls,
    x.stdio_ns,
    x.bg_stdio_ns,
    x.lower_read_bytes,
    x.bg_lower_read_bytes,
    x.lower_write_bytes,
    x.bg_lower_write_bytes,
    x.mpi_send_calls,
    x.bg_mpi_send_calls,
    x.mpi_send_bytes,
    x.bg_mpi_send_bytes,
    x.mpi_recv_calls,
    x.bg_mpi_recv_calls,
    x.mpi_recv_bytes,
    x.bg_mpi_recv_bytes,
    x.mpi_p2p_ns,
    x.bg_mpi_p2p_ns,
    x.mpi_coll_calls,
    x.bg_mpi_coll_calls,
    x.mpi_coll_bytes,
    x.bg_mpi_coll_bytes,
    x.mpi_coll_ns,
    x.bg_mpi_coll_ns,
    x.mpiio_read_calls,
    x.bg_mpiio_read_calls,
    x.mpiio_read_bytes,
    x.bg_mpiio_read_bytes,
    x.mpiio_write_calls,
    x.bg_mpiio_write_calls,
    x.mpiio_write_bytes,
    x.bg_mpiio_write_bytes,
    x.mpiio_coll_calls,
    x.bg_mpiio_coll_calls,
    x.mpiio_meta_calls,
    x.bg_mpiio_meta_calls,
    x.mpiio_ns,
    x.bg_mpiio_ns,
    x.cpu_ns,
    x.bg_cpu_ns
   FROM (js_data.steps s
     CROSS JOIN LATERAL ( SELECT g.slice,
            (COALESCE(t.step_nodes, 0) - COALESCE(o.nodes, (0)::bigint)) AS bg_step_nodes,
            COALESCE(o.posix_read_calls, (0)::bigint) AS posix_read_calls,
            (COALESCE(t.posix_read_calls, (0)::bigint) - COALESCE(o.posix_read_calls, (0)::bigint)) AS bg_posix_read_calls,
            COALESCE(o.posix_read_bytes, (0)::bigint) AS posix_read_bytes,
            (COALESCE(t.posix_read_bytes, (0)::bigint) - COALESCE(o.posix_read_bytes, (0)::bigint)) AS bg_posix_read_bytes,
            COALESCE(o.posix_write_calls, (0)::bigint) AS posix_write_calls,
            (COALESCE(t.posix_write_calls, (0)::bigint) - COALESCE(o.posix_write_calls, (0)::bigint)) AS bg_posix_write_calls,
            COALESCE(o.posix_write_bytes, (0)::bigint) AS posix_write_bytes,
            (COALESCE(t.posix_write_bytes, (0)::bigint) - COALESCE(o.posix_write_bytes, (0)::bigint)) AS bg_posix_write_bytes,
            COALESCE(o.posix_open_calls, (0)::bigint) AS posix_open_calls,
            (COALESCE(t.posix_open_calls, (0)::bigint) - COALESCE(o.posix_open_calls, (0)::bigint)) AS bg_posix_open_calls,
            COALESCE(o.posix_meta_calls, (0)::bigint) AS posix_meta_calls,
            (COALESCE(t.posix_meta_calls, (0)::bigint) - COALESCE(o.posix_meta_calls, (0)::bigint)) AS bg_posix_meta_calls,
            COALESCE(o.posix_ns, (0)::bigint) AS posix_ns,
            (COALESCE(t.posix_ns, (0)::bigint) - COALESCE(o.posix_ns, (0)::bigint)) AS bg_posix_ns,
            COALESCE(o.stdio_read_calls, (0)::bigint) AS stdio_read_calls,
            (COALESCE(t.stdio_read_calls, (0)::bigint) - COALESCE(o.stdio_read_calls, (0)::bigint)) AS bg_stdio_read_calls,
            COALESCE(o.stdio_read_bytes, (0)::bigint) AS stdio_read_bytes,
            (COALESCE(t.stdio_read_bytes, (0)::bigint) - COALESCE(o.stdio_read_bytes, (0)::bigint)) AS bg_stdio_read_bytes,
            COALESCE(o.stdio_write_calls, (0)::bigint) AS stdio_write_calls,
            (COALESCE(t.stdio_write_calls, (0)::bigint) - COALESCE(o.stdio_write_calls, (0)::bigint)) AS bg_stdio_write_calls,
            COALESCE(o.stdio_write_bytes, (0)::bigint) AS stdio_write_bytes,
            (COALESCE(t.stdio_write_bytes, (0)::bigint) - COALESCE(o.stdio_write_bytes, (0)::bigint)) AS bg_stdio_write_bytes,
            COALESCE(o.stdio_open_calls, (0)::bigint) AS stdio_open_calls,
            (COALESCE(t.stdio_open_calls, (0)::bigint) - COALESCE(o.stdio_open_calls, (0)::bigint)) AS bg_stdio_open_calls,
            COALESCE(o.stdio_meta_calls, (0)::bigint) AS stdio_meta_calls,
            (COALESCE(t.stdio_meta_calls, (0)::bigint) - COALESCE(o.stdio_meta_calls, (0)::bigint)) AS bg_stdio_meta_calls,
            COALESCE(o.stdio_ns, (0)::bigint) AS stdio_ns,
            (COALESCE(t.stdio_ns, (0)::bigint) - COALESCE(o.stdio_ns, (0)::bigint)) AS bg_stdio_ns,
            COALESCE(o.lower_read_bytes, (0)::bigint) AS lower_read_bytes,
            (COALESCE(t.lower_read_bytes, (0)::bigint) - COALESCE(o.lower_read_bytes, (0)::bigint)) AS bg_lower_read_bytes,
            COALESCE(o.lower_write_bytes, (0)::bigint) AS lower_write_bytes,
            (COALESCE(t.lower_write_bytes, (0)::bigint) - COALESCE(o.lower_write_bytes, (0)::bigint)) AS bg_lower_write_bytes,
            COALESCE(o.mpi_send_calls, (0)::bigint) AS mpi_send_calls,
            (COALESCE(t.mpi_send_calls, (0)::bigint) - COALESCE(o.mpi_send_calls, (0)::bigint)) AS bg_mpi_send_calls,
            COALESCE(o.mpi_send_bytes, (0)::bigint) AS mpi_send_bytes,
            (COALESCE(t.mpi_send_bytes, (0)::bigint) - COALESCE(o.mpi_send_bytes, (0)::bigint)) AS bg_mpi_send_bytes,
            COALESCE(o.mpi_recv_calls, (0)::bigint) AS mpi_recv_calls,
            (COALESCE(t.mpi_recv_calls, (0)::bigint) - COALESCE(o.mpi_recv_calls, (0)::bigint)) AS bg_mpi_recv_calls,
            COALESCE(o.mpi_recv_bytes, (0)::bigint) AS mpi_recv_bytes,
            (COALESCE(t.mpi_recv_bytes, (0)::bigint) - COALESCE(o.mpi_recv_bytes, (0)::bigint)) AS bg_mpi_recv_bytes,
            COALESCE(o.mpi_p2p_ns, (0)::bigint) AS mpi_p2p_ns,
            (COALESCE(t.mpi_p2p_ns, (0)::bigint) - COALESCE(o.mpi_p2p_ns, (0)::bigint)) AS bg_mpi_p2p_ns,
            COALESCE(o.mpi_coll_calls, (0)::bigint) AS mpi_coll_calls,
            (COALESCE(t.mpi_coll_calls, (0)::bigint) - COALESCE(o.mpi_coll_calls, (0)::bigint)) AS bg_mpi_coll_calls,
            COALESCE(o.mpi_coll_bytes, (0)::bigint) AS mpi_coll_bytes,
            (COALESCE(t.mpi_coll_bytes, (0)::bigint) - COALESCE(o.mpi_coll_bytes, (0)::bigint)) AS bg_mpi_coll_bytes,
            COALESCE(o.mpi_coll_ns, (0)::bigint) AS mpi_coll_ns,
            (COALESCE(t.mpi_coll_ns, (0)::bigint) - COALESCE(o.mpi_coll_ns, (0)::bigint)) AS bg_mpi_coll_ns,
            COALESCE(o.mpiio_read_calls, (0)::bigint) AS mpiio_read_calls,
            (COALESCE(t.mpiio_read_calls, (0)::bigint) - COALESCE(o.mpiio_read_calls, (0)::bigint)) AS bg_mpiio_read_calls,
            COALESCE(o.mpiio_read_bytes, (0)::bigint) AS mpiio_read_bytes,
            (COALESCE(t.mpiio_read_bytes, (0)::bigint) - COALESCE(o.mpiio_read_bytes, (0)::bigint)) AS bg_mpiio_read_bytes,
            COALESCE(o.mpiio_write_calls, (0)::bigint) AS mpiio_write_calls,
            (COALESCE(t.mpiio_write_calls, (0)::bigint) - COALESCE(o.mpiio_write_calls, (0)::bigint)) AS bg_mpiio_write_calls,
            COALESCE(o.mpiio_write_bytes, (0)::bigint) AS mpiio_write_bytes,
            (COALESCE(t.mpiio_write_bytes, (0)::bigint) - COALESCE(o.mpiio_write_bytes, (0)::bigint)) AS bg_mpiio_write_bytes,
            COALESCE(o.mpiio_coll_calls, (0)::bigint) AS mpiio_coll_calls,
            (COALESCE(t.mpiio_coll_calls, (0)::bigint) - COALESCE(o.mpiio_coll_calls, (0)::bigint)) AS bg_mpiio_coll_calls,
            COALESCE(o.mpiio_meta_calls, (0)::bigint) AS mpiio_meta_calls,
            (COALESCE(t.mpiio_meta_calls, (0)::bigint) - COALESCE(o.mpiio_meta_calls, (0)::bigint)) AS bg_mpiio_meta_calls,
            COALESCE(o.mpiio_ns, (0)::bigint) AS mpiio_ns,
            (COALESCE(t.mpiio_ns, (0)::bigint) - COALESCE(o.mpiio_ns, (0)::bigint)) AS bg_mpiio_ns,
            COALESCE(o.cpu_ns, (0)::bigint) AS cpu_ns,
            (COALESCE(t.cpu_ns, (0)::bigint) - COALESCE(o.cpu_ns, (0)::bigint)) AS bg_cpu_ns
           FROM ((generate_series(s.first_slice, s.last_slice) g(slice)
             LEFT JOIN ( SELECT m.slice,
                    sum(m.nodes) AS nodes,
                    (sum(m.posix_read_calls))::bigint AS posix_read_calls,
                    (sum(m.posix_read_bytes))::bigint AS posix_read_bytes,
                    (sum(m.posix_write_calls))::bigint AS posix_write_calls,
                    (sum(m.posix_write_bytes))::bigint AS posix_write_bytes,
                    (sum(m.posix_open_calls))::bigint AS posix_open_calls,
                    (sum(m.posix_meta_calls))::bigint AS posix_meta_calls,
                    (sum(m.posix_ns))::bigint AS posix_ns,
                    (sum(m.stdio_read_calls))::bigint AS stdio_read_calls,
                    (sum(m.stdio_read_bytes))::bigint AS stdio_read_bytes,
                    (sum(m.stdio_write_calls))::bigint AS stdio_write_calls,
                    (sum(m.stdio_write_bytes))::bigint AS stdio_write_bytes,
                    (sum(m.stdio_open_calls))::bigint AS stdio_open_calls,
                    (sum(m.stdio_meta_calls))::bigint AS stdio_meta_calls,
                    (sum(m.stdio_ns))::bigint AS stdio_ns,
                    (sum(m.lower_read_bytes))::bigint AS lower_read_bytes,
                    (sum(m.lower_write_bytes))::bigint AS lower_write_bytes,
                    (sum(m.mpi_send_calls))::bigint AS mpi_send_calls,
                    (sum(m.mpi_send_bytes))::bigint AS mpi_send_bytes,
                    (sum(m.mpi_recv_calls))::bigint AS mpi_recv_calls,
                    (sum(m.mpi_recv_bytes))::bigint AS mpi_recv_bytes,
                    (sum(m.mpi_p2p_ns))::bigint AS mpi_p2p_ns,
                    (sum(m.mpi_coll_calls))::bigint AS mpi_coll_calls,
                    (sum(m.mpi_coll_bytes))::bigint AS mpi_coll_bytes,
                    (sum(m.mpi_coll_ns))::bigint AS mpi_coll_ns,
                    (sum(m.mpiio_read_calls))::bigint AS mpiio_read_calls,
                    (sum(m.mpiio_read_bytes))::bigint AS mpiio_read_bytes,
                    (sum(m.mpiio_write_calls))::bigint AS mpiio_write_calls,
                    (sum(m.mpiio_write_bytes))::bigint AS mpiio_write_bytes,
                    (sum(m.mpiio_coll_calls))::bigint AS mpiio_coll_calls,
                    (sum(m.mpiio_meta_calls))::bigint AS mpiio_meta_calls,
                    (sum(m.mpiio_ns))::bigint AS mpiio_ns,
                    (sum(m.cpu_ns))::bigint AS cpu_ns
                   FROM js_data.step_sums m
                  WHERE ((m.cluster_id = s.cluster_id) AND (m.job_id = s.job_id) AND (m.step_id = s.step_id) AND (NOT m.live) AND ((m.chunk >= js_data.series_chunk_of(s.first_slice)) AND (m.chunk <= s.last_slice)))
                  GROUP BY m.slice) o ON ((o.slice = g.slice)))
             LEFT JOIN js_data.slice_totals_cluster t ON (((t.cluster_id = s.cluster_id) AND (t.slice = g.slice) AND ((t.chunk >= js_data.series_chunk_of(s.first_slice)) AND (t.chunk <= s.last_slice)))))) x);


--
-- Name: VIEW step_background_cluster; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.step_background_cluster IS 'background of a step, scope whole cluster: per slice of the step, own metrics and bg_<metric> = cluster total minus own';


--
-- Name: step_background_nodes; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.step_background_nodes AS
 SELECT s.cluster_id,
    s.job_id,
    s.step_id,
    x.slice,
    js_data.slice_start(s.cluster_id, x.slice) AS slice_start,
    x.bg_step_nodes,
    x.posix_read_calls,
    x.bg_posix_read_calls,
    x.posix_read_bytes,
    x.bg_posix_read_bytes,
    x.posix_write_calls,
    x.bg_posix_write_calls,
    x.posix_write_bytes,
    x.bg_posix_write_bytes,
    x.posix_open_calls,
    x.bg_posix_open_calls,
    x.posix_meta_calls,
    x.bg_posix_meta_calls,
    x.posix_ns,
    x.bg_posix_ns,
    x.stdio_read_calls,
    x.bg_stdio_read_calls,
    x.stdio_read_bytes,
    x.bg_stdio_read_bytes,
    x.stdio_write_calls,
    x.bg_stdio_write_calls,
    x.stdio_write_bytes,
    x.bg_stdio_write_bytes,
    x.stdio_open_calls,
    x.bg_stdio_open_calls,
    x.stdio_meta_calls,
    x.bg_stdio_meta_calls,
    x.stdio_ns,
    x.bg_stdio_ns,
    x.lower_read_bytes,
    x.bg_lower_read_bytes,
    x.lower_write_bytes,
    x.bg_lower_write_bytes,
    x.mpi_send_calls,
    x.bg_mpi_send_calls,
    x.mpi_send_bytes,
    x.bg_mpi_send_bytes,
    x.mpi_recv_calls,
    x.bg_mpi_recv_calls,
    x.mpi_recv_bytes,
    x.bg_mpi_recv_bytes,
    x.mpi_p2p_ns,
    x.bg_mpi_p2p_ns,
    x.mpi_coll_calls,
    x.bg_mpi_coll_calls,
    x.mpi_coll_bytes,
    x.bg_mpi_coll_bytes,
    x.mpi_coll_ns,
    x.bg_mpi_coll_ns,
    x.mpiio_read_calls,
    x.bg_mpiio_read_calls,
    x.mpiio_read_bytes,
    x.bg_mpiio_read_bytes,
    x.mpiio_write_calls,
    x.bg_mpiio_write_calls,
    x.mpiio_write_bytes,
    x.bg_mpiio_write_bytes,
    x.mpiio_coll_calls,
    x.bg_mpiio_coll_calls,
    x.mpiio_meta_calls,
    x.bg_mpiio_meta_calls,
    x.mpiio_ns,
    x.bg_mpiio_ns,
    x.cpu_ns,
    x.bg_cpu_ns
   FROM (js_data.steps s
     CROSS JOIN LATERAL ( SELECT g.slice,
            (COALESCE(t.step_nodes, (0)::bigint) - COALESCE(o.nodes, (0)::bigint)) AS bg_step_nodes,
            COALESCE(o.posix_read_calls, (0)::bigint) AS posix_read_calls,
            (COALESCE(t.posix_read_calls, (0)::bigint) - COALESCE(o.posix_read_calls, (0)::bigint)) AS bg_posix_read_calls,
            COALESCE(o.posix_read_bytes, (0)::bigint) AS posix_read_bytes,
            (COALESCE(t.posix_read_bytes, (0)::bigint) - COALESCE(o.posix_read_bytes, (0)::bigint)) AS bg_posix_read_bytes,
            COALESCE(o.posix_write_calls, (0)::bigint) AS posix_write_calls,
            (COALESCE(t.posix_write_calls, (0)::bigint) - COALESCE(o.posix_write_calls, (0)::bigint)) AS bg_posix_write_calls,
            COALESCE(o.posix_write_bytes, (0)::bigint) AS posix_write_bytes,
            (COALESCE(t.posix_write_bytes, (0)::bigint) - COALESCE(o.posix_write_bytes, (0)::bigint)) AS bg_posix_write_bytes,
            COALESCE(o.posix_open_calls, (0)::bigint) AS posix_open_calls,
            (COALESCE(t.posix_open_calls, (0)::bigint) - COALESCE(o.posix_open_calls, (0)::bigint)) AS bg_posix_open_calls,
            COALESCE(o.posix_meta_calls, (0)::bigint) AS posix_meta_calls,
            (COALESCE(t.posix_meta_calls, (0)::bigint) - COALESCE(o.posix_meta_calls, (0)::bigint)) AS bg_posix_meta_calls,
            COALESCE(o.posix_ns, (0)::bigint) AS posix_ns,
            (COALESCE(t.posix_ns, (0)::bigint) - COALESCE(o.posix_ns, (0)::bigint)) AS bg_posix_ns,
            COALESCE(o.stdio_read_calls, (0)::bigint) AS stdio_read_calls,
            (COALESCE(t.stdio_read_calls, (0)::bigint) - COALESCE(o.stdio_read_calls, (0)::bigint)) AS bg_stdio_read_calls,
            COALESCE(o.stdio_read_bytes, (0)::bigint) AS stdio_read_bytes,
            (COALESCE(t.stdio_read_bytes, (0)::bigint) - COALESCE(o.stdio_read_bytes, (0)::bigint)) AS bg_stdio_read_bytes,
            COALESCE(o.stdio_write_calls, (0)::bigint) AS stdio_write_calls,
            (COALESCE(t.stdio_write_calls, (0)::bigint) - COALESCE(o.stdio_write_calls, (0)::bigint)) AS bg_stdio_write_calls,
            COALESCE(o.stdio_write_bytes, (0)::bigint) AS stdio_write_bytes,
            (COALESCE(t.stdio_write_bytes, (0)::bigint) - COALESCE(o.stdio_write_bytes, (0)::bigint)) AS bg_stdio_write_bytes,
            COALESCE(o.stdio_open_calls, (0)::bigint) AS stdio_open_calls,
            (COALESCE(t.stdio_open_calls, (0)::bigint) - COALESCE(o.stdio_open_calls, (0)::bigint)) AS bg_stdio_open_calls,
            COALESCE(o.stdio_meta_calls, (0)::bigint) AS stdio_meta_calls,
            (COALESCE(t.stdio_meta_calls, (0)::bigint) - COALESCE(o.stdio_meta_calls, (0)::bigint)) AS bg_stdio_meta_calls,
            COALESCE(o.stdio_ns, (0)::bigint) AS stdio_ns,
            (COALESCE(t.stdio_ns, (0)::bigint) - COALESCE(o.stdio_ns, (0)::bigint)) AS bg_stdio_ns,
            COALESCE(o.lower_read_bytes, (0)::bigint) AS lower_read_bytes,
            (COALESCE(t.lower_read_bytes, (0)::bigint) - COALESCE(o.lower_read_bytes, (0)::bigint)) AS bg_lower_read_bytes,
            COALESCE(o.lower_write_bytes, (0)::bigint) AS lower_write_bytes,
            (COALESCE(t.lower_write_bytes, (0)::bigint) - COALESCE(o.lower_write_bytes, (0)::bigint)) AS bg_lower_write_bytes,
            COALESCE(o.mpi_send_calls, (0)::bigint) AS mpi_send_calls,
            (COALESCE(t.mpi_send_calls, (0)::bigint) - COALESCE(o.mpi_send_calls, (0)::bigint)) AS bg_mpi_send_calls,
            COALESCE(o.mpi_send_bytes, (0)::bigint) AS mpi_send_bytes,
            (COALESCE(t.mpi_send_bytes, (0)::bigint) - COALESCE(o.mpi_send_bytes, (0)::bigint)) AS bg_mpi_send_bytes,
            COALESCE(o.mpi_recv_calls, (0)::bigint) AS mpi_recv_calls,
            (COALESCE(t.mpi_recv_calls, (0)::bigint) - COALESCE(o.mpi_recv_calls, (0)::bigint)) AS bg_mpi_recv_calls,
            COALESCE(o.mpi_recv_bytes, (0)::bigint) AS mpi_recv_bytes,
            (COALESCE(t.mpi_recv_bytes, (0)::bigint) - COALESCE(o.mpi_recv_bytes, (0)::bigint)) AS bg_mpi_recv_bytes,
            COALESCE(o.mpi_p2p_ns, (0)::bigint) AS mpi_p2p_ns,
            (COALESCE(t.mpi_p2p_ns, (0)::bigint) - COALESCE(o.mpi_p2p_ns, (0)::bigint)) AS bg_mpi_p2p_ns,
            COALESCE(o.mpi_coll_calls, (0)::bigint) AS mpi_coll_calls,
            (COALESCE(t.mpi_coll_calls, (0)::bigint) - COALESCE(o.mpi_coll_calls, (0)::bigint)) AS bg_mpi_coll_calls,
            COALESCE(o.mpi_coll_bytes, (0)::bigint) AS mpi_coll_bytes,
            (COALESCE(t.mpi_coll_bytes, (0)::bigint) - COALESCE(o.mpi_coll_bytes, (0)::bigint)) AS bg_mpi_coll_bytes,
            COALESCE(o.mpi_coll_ns, (0)::bigint) AS mpi_coll_ns,
            (COALESCE(t.mpi_coll_ns, (0)::bigint) - COALESCE(o.mpi_coll_ns, (0)::bigint)) AS bg_mpi_coll_ns,
            COALESCE(o.mpiio_read_calls, (0)::bigint) AS mpiio_read_calls,
            (COALESCE(t.mpiio_read_calls, (0)::bigint) - COALESCE(o.mpiio_read_calls, (0)::bigint)) AS bg_mpiio_read_calls,
            COALESCE(o.mpiio_read_bytes, (0)::bigint) AS mpiio_read_bytes,
            (COALESCE(t.mpiio_read_bytes, (0)::bigint) - COALESCE(o.mpiio_read_bytes, (0)::bigint)) AS bg_mpiio_read_bytes,
            COALESCE(o.mpiio_write_calls, (0)::bigint) AS mpiio_write_calls,
            (COALESCE(t.mpiio_write_calls, (0)::bigint) - COALESCE(o.mpiio_write_calls, (0)::bigint)) AS bg_mpiio_write_calls,
            COALESCE(o.mpiio_write_bytes, (0)::bigint) AS mpiio_write_bytes,
            (COALESCE(t.mpiio_write_bytes, (0)::bigint) - COALESCE(o.mpiio_write_bytes, (0)::bigint)) AS bg_mpiio_write_bytes,
            COALESCE(o.mpiio_coll_calls, (0)::bigint) AS mpiio_coll_calls,
            (COALESCE(t.mpiio_coll_calls, (0)::bigint) - COALESCE(o.mpiio_coll_calls, (0)::bigint)) AS bg_mpiio_coll_calls,
            COALESCE(o.mpiio_meta_calls, (0)::bigint) AS mpiio_meta_calls,
            (COALESCE(t.mpiio_meta_calls, (0)::bigint) - COALESCE(o.mpiio_meta_calls, (0)::bigint)) AS bg_mpiio_meta_calls,
            COALESCE(o.mpiio_ns, (0)::bigint) AS mpiio_ns,
            (COALESCE(t.mpiio_ns, (0)::bigint) - COALESCE(o.mpiio_ns, (0)::bigint)) AS bg_mpiio_ns,
            COALESCE(o.cpu_ns, (0)::bigint) AS cpu_ns,
            (COALESCE(t.cpu_ns, (0)::bigint) - COALESCE(o.cpu_ns, (0)::bigint)) AS bg_cpu_ns
           FROM ((generate_series(s.first_slice, s.last_slice) g(slice)
             LEFT JOIN ( SELECT m.slice,
                    sum(m.nodes) AS nodes,
                    (sum(m.posix_read_calls))::bigint AS posix_read_calls,
                    (sum(m.posix_read_bytes))::bigint AS posix_read_bytes,
                    (sum(m.posix_write_calls))::bigint AS posix_write_calls,
                    (sum(m.posix_write_bytes))::bigint AS posix_write_bytes,
                    (sum(m.posix_open_calls))::bigint AS posix_open_calls,
                    (sum(m.posix_meta_calls))::bigint AS posix_meta_calls,
                    (sum(m.posix_ns))::bigint AS posix_ns,
                    (sum(m.stdio_read_calls))::bigint AS stdio_read_calls,
                    (sum(m.stdio_read_bytes))::bigint AS stdio_read_bytes,
                    (sum(m.stdio_write_calls))::bigint AS stdio_write_calls,
                    (sum(m.stdio_write_bytes))::bigint AS stdio_write_bytes,
                    (sum(m.stdio_open_calls))::bigint AS stdio_open_calls,
                    (sum(m.stdio_meta_calls))::bigint AS stdio_meta_calls,
                    (sum(m.stdio_ns))::bigint AS stdio_ns,
                    (sum(m.lower_read_bytes))::bigint AS lower_read_bytes,
                    (sum(m.lower_write_bytes))::bigint AS lower_write_bytes,
                    (sum(m.mpi_send_calls))::bigint AS mpi_send_calls,
                    (sum(m.mpi_send_bytes))::bigint AS mpi_send_bytes,
                    (sum(m.mpi_recv_calls))::bigint AS mpi_recv_calls,
                    (sum(m.mpi_recv_bytes))::bigint AS mpi_recv_bytes,
                    (sum(m.mpi_p2p_ns))::bigint AS mpi_p2p_ns,
                    (sum(m.mpi_coll_calls))::bigint AS mpi_coll_calls,
                    (sum(m.mpi_coll_bytes))::bigint AS mpi_coll_bytes,
                    (sum(m.mpi_coll_ns))::bigint AS mpi_coll_ns,
                    (sum(m.mpiio_read_calls))::bigint AS mpiio_read_calls,
                    (sum(m.mpiio_read_bytes))::bigint AS mpiio_read_bytes,
                    (sum(m.mpiio_write_calls))::bigint AS mpiio_write_calls,
                    (sum(m.mpiio_write_bytes))::bigint AS mpiio_write_bytes,
                    (sum(m.mpiio_coll_calls))::bigint AS mpiio_coll_calls,
                    (sum(m.mpiio_meta_calls))::bigint AS mpiio_meta_calls,
                    (sum(m.mpiio_ns))::bigint AS mpiio_ns,
                    (sum(m.cpu_ns))::bigint AS cpu_ns
                   FROM js_data.step_sums m
                  WHERE ((m.cluster_id = s.cluster_id) AND (m.job_id = s.job_id) AND (m.step_id = s.step_id) AND (NOT m.live) AND ((m.chunk >= js_data.series_chunk_of(s.first_slice)) AND (m.chunk <= s.last_slice)))
                  GROUP BY m.slice) o ON ((o.slice = g.slice)))
             LEFT JOIN ( SELECT tn.slice,
                    sum(tn.step_nodes) AS step_nodes,
                    (sum(tn.posix_read_calls))::bigint AS posix_read_calls,
                    (sum(tn.posix_read_bytes))::bigint AS posix_read_bytes,
                    (sum(tn.posix_write_calls))::bigint AS posix_write_calls,
                    (sum(tn.posix_write_bytes))::bigint AS posix_write_bytes,
                    (sum(tn.posix_open_calls))::bigint AS posix_open_calls,
                    (sum(tn.posix_meta_calls))::bigint AS posix_meta_calls,
                    (sum(tn.posix_ns))::bigint AS posix_ns,
                    (sum(tn.stdio_read_calls))::bigint AS stdio_read_calls,
                    (sum(tn.stdio_read_bytes))::bigint AS stdio_read_bytes,
                    (sum(tn.stdio_write_calls))::bigint AS stdio_write_calls,
                    (sum(tn.stdio_write_bytes))::bigint AS stdio_write_bytes,
                    (sum(tn.stdio_open_calls))::bigint AS stdio_open_calls,
                    (sum(tn.stdio_meta_calls))::bigint AS stdio_meta_calls,
                    (sum(tn.stdio_ns))::bigint AS stdio_ns,
                    (sum(tn.lower_read_bytes))::bigint AS lower_read_bytes,
                    (sum(tn.lower_write_bytes))::bigint AS lower_write_bytes,
                    (sum(tn.mpi_send_calls))::bigint AS mpi_send_calls,
                    (sum(tn.mpi_send_bytes))::bigint AS mpi_send_bytes,
                    (sum(tn.mpi_recv_calls))::bigint AS mpi_recv_calls,
                    (sum(tn.mpi_recv_bytes))::bigint AS mpi_recv_bytes,
                    (sum(tn.mpi_p2p_ns))::bigint AS mpi_p2p_ns,
                    (sum(tn.mpi_coll_calls))::bigint AS mpi_coll_calls,
                    (sum(tn.mpi_coll_bytes))::bigint AS mpi_coll_bytes,
                    (sum(tn.mpi_coll_ns))::bigint AS mpi_coll_ns,
                    (sum(tn.mpiio_read_calls))::bigint AS mpiio_read_calls,
                    (sum(tn.mpiio_read_bytes))::bigint AS mpiio_read_bytes,
                    (sum(tn.mpiio_write_calls))::bigint AS mpiio_write_calls,
                    (sum(tn.mpiio_write_bytes))::bigint AS mpiio_write_bytes,
                    (sum(tn.mpiio_coll_calls))::bigint AS mpiio_coll_calls,
                    (sum(tn.mpiio_meta_calls))::bigint AS mpiio_meta_calls,
                    (sum(tn.mpiio_ns))::bigint AS mpiio_ns,
                    (sum(tn.cpu_ns))::bigint AS cpu_ns
                   FROM js_data.slice_totals_node tn
                  WHERE ((tn.cluster_id = s.cluster_id) AND ((tn.chunk >= js_data.series_chunk_of(s.first_slice)) AND (tn.chunk <= s.last_slice)) AND (tn.node IN ( SELECT sn.node
                           FROM js_data.step_nodes sn
                          WHERE ((sn.cluster_id = s.cluster_id) AND (sn.job_id = s.job_id) AND (sn.step_id = s.step_id)))))
                  GROUP BY tn.slice) t ON ((t.slice = g.slice)))) x);


--
-- Name: VIEW step_background_nodes; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.step_background_nodes IS 'background of a step, scope same nodes: per slice of the step, own metrics and bg_<metric> = sum over the step''s nodes of the node totals minus own';


--
-- Name: step_digest; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.step_digest AS
 SELECT p.cluster_id,
    p.job_id,
    p.step_id,
    m.metric,
    min(m.value) AS min,
    (avg(m.value))::double precision AS avg,
    max(m.value) AS max,
    (sum(m.value))::bigint AS sum,
    (count(m.value))::integer AS processes
   FROM js_data.processes p,
    LATERAL ( VALUES ('posix_read_calls'::text,p.posix_read_calls), ('posix_read_bytes'::text,p.posix_read_bytes), ('posix_write_calls'::text,p.posix_write_calls), ('posix_write_bytes'::text,p.posix_write_bytes), ('posix_open_calls'::text,p.posix_open_calls), ('posix_meta_calls'::text,p.posix_meta_calls), ('posix_ns'::text,p.posix_ns), ('stdio_read_calls'::text,p.stdio_read_calls), ('stdio_read_bytes'::text,p.stdio_read_bytes), ('stdio_write_calls'::text,p.stdio_write_calls), ('stdio_write_bytes'::text,p.stdio_write_bytes), ('stdio_open_calls'::text,p.stdio_open_calls), ('stdio_meta_calls'::text,p.stdio_meta_calls), ('stdio_ns'::text,p.stdio_ns), ('lower_read_bytes'::text,p.lower_read_bytes), ('lower_write_bytes'::text,p.lower_write_bytes), ('mpi_send_calls'::text,p.mpi_send_calls), ('mpi_send_bytes'::text,p.mpi_send_bytes), ('mpi_recv_calls'::text,p.mpi_recv_calls), ('mpi_recv_bytes'::text,p.mpi_recv_bytes), ('mpi_p2p_ns'::text,p.mpi_p2p_ns), ('mpi_coll_calls'::text,p.mpi_coll_calls), ('mpi_coll_bytes'::text,p.mpi_coll_bytes), ('mpi_coll_ns'::text,p.mpi_coll_ns), ('mpiio_read_calls'::text,p.mpiio_read_calls), ('mpiio_read_bytes'::text,p.mpiio_read_bytes), ('mpiio_write_calls'::text,p.mpiio_write_calls), ('mpiio_write_bytes'::text,p.mpiio_write_bytes), ('mpiio_coll_calls'::text,p.mpiio_coll_calls), ('mpiio_meta_calls'::text,p.mpiio_meta_calls), ('mpiio_ns'::text,p.mpiio_ns), ('cpu_ns'::text,p.cpu_ns), ('compute_ns'::text,p.compute_ns), ('cpu_wait_ns'::text,p.cpu_wait_ns), ('idle_ns'::text,p.idle_ns), ('mpi_setup_ns'::text,p.mpi_setup_ns), ('max_rss_kib'::text,p.max_rss_kib), ('kernel_rchar'::text,p.kernel_rchar), ('kernel_wchar'::text,p.kernel_wchar), ('unattributed_read_bytes'::text,js_data.unattributed(p.kernel_rchar, ((p.posix_read_bytes + p.stdio_read_bytes) + p.lower_read_bytes))), ('unattributed_write_bytes'::text,js_data.unattributed(p.kernel_wchar, ((p.posix_write_bytes + p.stdio_write_bytes) + p.lower_write_bytes)))) m(metric, value)
  GROUP BY p.cluster_id, p.job_id, p.step_id, m.metric;


--
-- Name: VIEW step_digest; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.step_digest IS 'digest of a step: per metric, min/avg/max/sum of the per-process totals (filter by cluster_id, job_id, step_id); besides the profile metrics the runtime share (compute_ns, cpu_wait_ns, idle_ns, mpi_setup_ns), peak memory (max_rss_kib), the kernel''s counts (kernel_rchar, kernel_wchar) and unattributed_*_bytes; processes: those with a value (profiles before format 4 have none of the new ones)';


--
-- Name: step_kernel_slices; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.step_kernel_slices AS
 SELECT x.cluster_id,
    x.job_id,
    x.step_id,
    x.slice,
    js_data.slice_start(x.cluster_id, x.slice) AS slice_start,
    (sum(x.kernel_rchar))::bigint AS kernel_rchar,
    (sum(x.kernel_wchar))::bigint AS kernel_wchar,
    (sum(x.kernel_syscr))::bigint AS kernel_syscr,
    (sum(x.kernel_syscw))::bigint AS kernel_syscw,
    (sum(x.kernel_read_bytes))::bigint AS kernel_read_bytes,
    (sum(x.kernel_write_bytes))::bigint AS kernel_write_bytes,
    (sum(x.wrapped_read_bytes))::bigint AS wrapped_read_bytes,
    (sum(x.wrapped_write_bytes))::bigint AS wrapped_write_bytes,
    (GREATEST((sum(x.kernel_rchar) - sum(x.wrapped_read_bytes)), (0)::numeric))::bigint AS unattributed_read_bytes,
    (GREATEST((sum(x.kernel_wchar) - sum(x.wrapped_write_bytes)), (0)::numeric))::bigint AS unattributed_write_bytes
   FROM ( SELECT m.cluster_id,
            m.job_id,
            m.step_id,
            m.slice,
            m.kernel_rchar,
            m.kernel_wchar,
            m.kernel_syscr,
            m.kernel_syscw,
            m.kernel_read_bytes,
            m.kernel_write_bytes,
            ((m.posix_read_bytes + m.stdio_read_bytes) + m.lower_read_bytes) AS wrapped_read_bytes,
            ((m.posix_write_bytes + m.stdio_write_bytes) + m.lower_write_bytes) AS wrapped_write_bytes
           FROM js_data.slice_metrics m
        UNION ALL
         SELECT m.cluster_id,
            m.job_id,
            m.step_id,
            m.slice,
            m.kernel_rchar,
            m.kernel_wchar,
            m.kernel_syscr,
            m.kernel_syscw,
            m.kernel_read_bytes,
            m.kernel_write_bytes,
            ((m.posix_read_bytes + m.stdio_read_bytes) + m.lower_read_bytes),
            ((m.posix_write_bytes + m.stdio_write_bytes) + m.lower_write_bytes)
           FROM js_data.live_slice_metrics m) x
  GROUP BY x.cluster_id, x.job_id, x.step_id, x.slice;


--
-- Name: VIEW step_kernel_slices; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.step_kernel_slices IS 'per step and slice with activity, summed over its nodes (running step-nodes'' provisional rows included): the kernel''s I/O counts of its processes in the slice (kernel_*: /proc/<pid>/task/<tid>/io, profile format 5; 0 for older profiles and processes whose counts are unknown), the bytes the wrappers saw (wrapped_*_bytes: posix + stdio + lower), and unattributed_*_bytes: the kernel''s bytes beyond the wrappers'' in the slice, at least 0. The kernel''s counts are read at the profiler''s folds and spread over the slices since the fold before by wall-clock overlap; filter by job and step';


--
-- Name: step_neighbours; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.step_neighbours AS
 SELECT s.cluster_id,
    s.job_id,
    s.step_id,
    m.slice,
    js_data.slice_start(s.cluster_id, m.slice) AS slice_start,
    m.job_id AS other_job,
    m.step_id AS other_step,
    m.node AS other_node,
    o.uid AS other_uid,
    u.name AS other_user,
    o.name AS other_job_name,
    (EXISTS ( SELECT 1
           FROM js_data.step_nodes sn
          WHERE ((sn.cluster_id = s.cluster_id) AND (sn.job_id = s.job_id) AND (sn.step_id = s.step_id) AND (sn.node = m.node)))) AS same_node,
    m.processes,
    (((m.posix_read_bytes + m.stdio_read_bytes) + m.mpiio_read_bytes) + m.lower_read_bytes) AS read_bytes,
    (((m.posix_write_bytes + m.stdio_write_bytes) + m.mpiio_write_bytes) + m.lower_write_bytes) AS write_bytes,
    (((m.posix_open_calls + m.posix_meta_calls) + m.stdio_open_calls) + m.mpiio_meta_calls) AS meta_ops,
    (m.mpi_send_bytes + m.mpi_coll_bytes) AS mpi_bytes,
    ((m.posix_ns + m.stdio_ns) + m.mpiio_ns) AS io_ns,
    m.cpu_ns
   FROM (((js_data.steps s
     JOIN js_data.slice_metrics m ON (((m.cluster_id = s.cluster_id) AND ((m.slice >= s.first_slice) AND (m.slice <= s.last_slice)) AND ((m.chunk >= js_data.series_chunk_of(s.first_slice)) AND (m.chunk <= s.last_slice)) AND (NOT ((m.job_id = s.job_id) AND (m.step_id = s.step_id))))))
     LEFT JOIN js_data.jobs o ON (((o.cluster_id = m.cluster_id) AND (o.job_id = m.job_id))))
     LEFT JOIN js_data.users u ON (((u.cluster_id = o.cluster_id) AND (u.uid = o.uid))));


--
-- Name: VIEW step_neighbours; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.step_neighbours IS 'contributors to a step''s background: per slice of the step, each other step and node with activity in it (read_bytes and write_bytes include the lower layer), meta_ops as in js.step_report, same_node when it shared a node with the step; filter by cluster_id and job_id';


--
-- Name: step_node_balance; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.step_node_balance AS
 WITH per_node AS (
         SELECT p.cluster_id,
            p.job_id,
            p.step_id,
            p.node,
            (count(*))::integer AS processes,
            (avg(p.compute_ns))::double precision AS compute_ns,
            (avg(p.wall_ns))::double precision AS wall_ns
           FROM (js_data.processes p
             JOIN js_data.steps s ON (((s.cluster_id = p.cluster_id) AND (s.job_id = p.job_id) AND (s.step_id = p.step_id))))
          WHERE (s.nodes_ingested >= 2)
          GROUP BY p.cluster_id, p.job_id, p.step_id, p.node
        ), med AS (
         SELECT per_node.cluster_id,
            per_node.job_id,
            per_node.step_id,
            (count(*))::integer AS nodes,
            percentile_cont((0.5)::double precision) WITHIN GROUP (ORDER BY per_node.compute_ns) AS median_compute_ns
           FROM per_node
          GROUP BY per_node.cluster_id, per_node.job_id, per_node.step_id
         HAVING (count(*) >= 2)
        )
 SELECT n.cluster_id,
    n.job_id,
    n.step_id,
    n.node,
    m.nodes AS step_nodes,
    n.processes,
    (n.compute_ns)::bigint AS compute_ns,
    (m.median_compute_ns)::bigint AS median_compute_ns,
        CASE
            WHEN (m.median_compute_ns > (0)::double precision) THEN (n.compute_ns / m.median_compute_ns)
            ELSE NULL::double precision
        END AS ratio,
    (n.wall_ns)::bigint AS wall_ns
   FROM (per_node n
     JOIN med m USING (cluster_id, job_id, step_id));


--
-- Name: VIEW step_node_balance; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.step_node_balance IS 'per node of a step profiled on two nodes or more: mean compute_ns of its processes, the median of that over the step''s nodes, and ratio = node / median';


--
-- Name: step_node_slices; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.step_node_slices AS
 SELECT m.cluster_id,
    m.job_id,
    m.step_id,
    m.node,
    m.slice,
    m.processes,
    m.posix_read_calls,
    m.posix_read_bytes,
    m.posix_write_calls,
    m.posix_write_bytes,
    m.posix_open_calls,
    m.posix_meta_calls,
    m.posix_ns,
    m.stdio_read_calls,
    m.stdio_read_bytes,
    m.stdio_write_calls,
    m.stdio_write_bytes,
    m.stdio_open_calls,
    m.stdio_meta_calls,
    m.stdio_ns,
    m.lower_read_bytes,
    m.lower_write_bytes,
    m.mpi_send_calls,
    m.mpi_send_bytes,
    m.mpi_recv_calls,
    m.mpi_recv_bytes,
    m.mpi_p2p_ns,
    m.mpi_coll_calls,
    m.mpi_coll_bytes,
    m.mpi_coll_ns,
    m.mpiio_read_calls,
    m.mpiio_read_bytes,
    m.mpiio_write_calls,
    m.mpiio_write_bytes,
    m.mpiio_coll_calls,
    m.mpiio_meta_calls,
    m.mpiio_ns,
    m.cpu_ns,
    js_data.slice_start(m.cluster_id, m.slice) AS slice_start,
    m.chunk
   FROM js_data.slice_metrics m
UNION ALL
 SELECT m.cluster_id,
    m.job_id,
    m.step_id,
    m.node,
    m.slice,
    m.processes,
    m.posix_read_calls,
    m.posix_read_bytes,
    m.posix_write_calls,
    m.posix_write_bytes,
    m.posix_open_calls,
    m.posix_meta_calls,
    m.posix_ns,
    m.stdio_read_calls,
    m.stdio_read_bytes,
    m.stdio_write_calls,
    m.stdio_write_bytes,
    m.stdio_open_calls,
    m.stdio_meta_calls,
    m.stdio_ns,
    m.lower_read_bytes,
    m.lower_write_bytes,
    m.mpi_send_calls,
    m.mpi_send_bytes,
    m.mpi_recv_calls,
    m.mpi_recv_bytes,
    m.mpi_p2p_ns,
    m.mpi_coll_calls,
    m.mpi_coll_bytes,
    m.mpi_coll_ns,
    m.mpiio_read_calls,
    m.mpiio_read_bytes,
    m.mpiio_write_calls,
    m.mpiio_write_bytes,
    m.mpiio_coll_calls,
    m.mpiio_meta_calls,
    m.mpiio_ns,
    m.cpu_ns,
    js_data.slice_start(m.cluster_id, m.slice) AS slice_start,
    js_data.series_chunk_of(m.slice) AS chunk
   FROM js_data.live_slice_metrics m;


--
-- Name: VIEW step_node_slices; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.step_node_slices IS 'per-slice metric vectors of a step on one node (only slices with activity), provisional ones (a running step-node) included; decoded from js_data.series_step_node, so filter by job and step, or by chunk (the first slice of the stored chunk: js_data.series_chunk_of(slice)) as well as by slice';


--
-- Name: step_nodes; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.step_nodes AS
 SELECT sn.cluster_id,
    sn.job_id,
    sn.step_id,
    sn.node,
    sn.start_time,
    sn.end_time,
    sn.state,
    sn.exit_code,
    sn.num_tasks,
    sn.profiles,
    sn.quarantined,
    sn.incomplete,
    sn.ingested_at,
    sn.ingested_by,
    sn.incomplete_reason,
    sn.unrecorded,
    sn.unrecorded_reason,
    ( SELECT max(p.max_rss_kib) AS max
           FROM js_data.processes p
          WHERE ((p.cluster_id = sn.cluster_id) AND (p.job_id = sn.job_id) AND (p.step_id = sn.step_id) AND (p.node = sn.node))) AS max_rss_kib
   FROM js_data.step_nodes sn;


--
-- Name: VIEW step_nodes; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.step_nodes IS 'one row per step and node ingested (the ingest''s unit); incomplete_reason says what is missing; unrecorded counts the processes the profiler did not record (spool quota), unrecorded_reason why; max_rss_kib the largest peak resident set of its processes on the node (a lower bound of the node''s peak: processes that ran at once add up)';


--
-- Name: step_slices; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.step_slices AS
 SELECT step_sums.cluster_id,
    step_sums.job_id,
    step_sums.step_id,
    step_sums.slice,
    js_data.slice_start(step_sums.cluster_id, step_sums.slice) AS slice_start,
    (sum(step_sums.nodes))::integer AS nodes,
    (sum(step_sums.processes))::integer AS processes,
    (sum(step_sums.posix_read_calls))::bigint AS posix_read_calls,
    (sum(step_sums.posix_read_bytes))::bigint AS posix_read_bytes,
    (sum(step_sums.posix_write_calls))::bigint AS posix_write_calls,
    (sum(step_sums.posix_write_bytes))::bigint AS posix_write_bytes,
    (sum(step_sums.posix_open_calls))::bigint AS posix_open_calls,
    (sum(step_sums.posix_meta_calls))::bigint AS posix_meta_calls,
    (sum(step_sums.posix_ns))::bigint AS posix_ns,
    (sum(step_sums.stdio_read_calls))::bigint AS stdio_read_calls,
    (sum(step_sums.stdio_read_bytes))::bigint AS stdio_read_bytes,
    (sum(step_sums.stdio_write_calls))::bigint AS stdio_write_calls,
    (sum(step_sums.stdio_write_bytes))::bigint AS stdio_write_bytes,
    (sum(step_sums.stdio_open_calls))::bigint AS stdio_open_calls,
    (sum(step_sums.stdio_meta_calls))::bigint AS stdio_meta_calls,
    (sum(step_sums.stdio_ns))::bigint AS stdio_ns,
    (sum(step_sums.lower_read_bytes))::bigint AS lower_read_bytes,
    (sum(step_sums.lower_write_bytes))::bigint AS lower_write_bytes,
    (sum(step_sums.mpi_send_calls))::bigint AS mpi_send_calls,
    (sum(step_sums.mpi_send_bytes))::bigint AS mpi_send_bytes,
    (sum(step_sums.mpi_recv_calls))::bigint AS mpi_recv_calls,
    (sum(step_sums.mpi_recv_bytes))::bigint AS mpi_recv_bytes,
    (sum(step_sums.mpi_p2p_ns))::bigint AS mpi_p2p_ns,
    (sum(step_sums.mpi_coll_calls))::bigint AS mpi_coll_calls,
    (sum(step_sums.mpi_coll_bytes))::bigint AS mpi_coll_bytes,
    (sum(step_sums.mpi_coll_ns))::bigint AS mpi_coll_ns,
    (sum(step_sums.mpiio_read_calls))::bigint AS mpiio_read_calls,
    (sum(step_sums.mpiio_read_bytes))::bigint AS mpiio_read_bytes,
    (sum(step_sums.mpiio_write_calls))::bigint AS mpiio_write_calls,
    (sum(step_sums.mpiio_write_bytes))::bigint AS mpiio_write_bytes,
    (sum(step_sums.mpiio_coll_calls))::bigint AS mpiio_coll_calls,
    (sum(step_sums.mpiio_meta_calls))::bigint AS mpiio_meta_calls,
    (sum(step_sums.mpiio_ns))::bigint AS mpiio_ns,
    (sum(step_sums.cpu_ns))::bigint AS cpu_ns
   FROM js_data.step_sums
  GROUP BY step_sums.cluster_id, step_sums.job_id, step_sums.step_id, step_sums.slice;


--
-- Name: VIEW step_slices; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.step_slices IS 'per-slice metric vectors of a step summed over its nodes (only slices with activity), provisional ones (running step-nodes) included';


--
-- Name: step_trees; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.step_trees (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    tree text NOT NULL,
    processes integer NOT NULL,
    opens bigint NOT NULL,
    read_bytes bigint NOT NULL,
    write_bytes bigint NOT NULL
);


--
-- Name: TABLE step_trees; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.step_trees IS 'software trees a step used on a node: the files under each counted together (profile-format.md "trees")';


--
-- Name: COLUMN step_trees.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_trees.cluster_id IS 'cluster of the step';


--
-- Name: COLUMN step_trees.job_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_trees.job_id IS 'job of the step';


--
-- Name: COLUMN step_trees.step_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_trees.step_id IS 'the step';


--
-- Name: COLUMN step_trees.node; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_trees.node IS 'node of the step record';


--
-- Name: COLUMN step_trees.tree; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_trees.tree IS 'the tree: /usr/lib, /etc, a site-packages or lib/pythonX.Y directory, the directory of a shared library, ...';


--
-- Name: COLUMN step_trees.processes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_trees.processes IS 'processes of the step on the node that opened files under it';


--
-- Name: COLUMN step_trees.opens; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_trees.opens IS 'opens of files under it';


--
-- Name: COLUMN step_trees.read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_trees.read_bytes IS 'bytes read from them';


--
-- Name: COLUMN step_trees.write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.step_trees.write_bytes IS 'bytes written to them';


--
-- Name: step_trees; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.step_trees AS
 SELECT t.cluster_id,
    t.job_id,
    t.step_id,
    j.uid,
    t.tree,
    (sum(t.processes))::integer AS processes,
    (sum(t.opens))::bigint AS opens,
    (sum(t.read_bytes))::bigint AS read_bytes,
    (sum(t.write_bytes))::bigint AS write_bytes,
    string_agg(t.node, ','::text ORDER BY t.node) AS nodes
   FROM (js_data.step_trees t
     JOIN js_data.jobs j ON (((j.cluster_id = t.cluster_id) AND (j.job_id = t.job_id))))
  GROUP BY t.cluster_id, t.job_id, t.step_id, j.uid, t.tree;


--
-- Name: VIEW step_trees; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.step_trees IS 'software trees per step, summed over its nodes: the system, package and library directories whose files the profiler counted together instead of listing them';


--
-- Name: time_edges; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.time_edges AS
 SELECT d.cluster_id,
    d.from_job,
    d.to_job,
    d.from_time,
    d.to_time
   FROM js_data.dependencies d
  WHERE (d.kind = 'time'::text);


--
-- Name: VIEW time_edges; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.time_edges IS 'time edges (stored by js_data.link_by_time): the latest job of the same user and workflow tag (or both untagged, submitted by one command) that ended at most js.time_edge_window() before this one started and before it was submitted (in the same second counts: Slurm''s submit times are whole seconds), for jobs with no scheduler dependency and no incoming file edge';


--
-- Name: usage_daily; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.usage_daily (
    cluster_id smallint NOT NULL,
    day date NOT NULL,
    uid integer NOT NULL,
    jobs_started integer DEFAULT 0 NOT NULL,
    steps_started integer DEFAULT 0 NOT NULL,
    steps_failed integer DEFAULT 0 NOT NULL,
    steps_opted_out integer DEFAULT 0 NOT NULL,
    cpu_seconds double precision DEFAULT 0 NOT NULL,
    node_seconds double precision DEFAULT 0 NOT NULL,
    read_bytes bigint DEFAULT 0 NOT NULL,
    write_bytes bigint DEFAULT 0 NOT NULL,
    meta_ops bigint DEFAULT 0 NOT NULL,
    mpi_bytes bigint DEFAULT 0 NOT NULL,
    io_ns bigint DEFAULT 0 NOT NULL,
    mpi_ns bigint DEFAULT 0 NOT NULL,
    process_cpu_ns bigint DEFAULT 0 NOT NULL,
    node_slices bigint DEFAULT 0 NOT NULL,
    computed_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: TABLE usage_daily; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.usage_daily IS 'usage per cluster, UTC day and user, computed by js_data.rollup_usage(); kept when the per-slice detail is dropped';


--
-- Name: COLUMN usage_daily.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.cluster_id IS 'cluster';


--
-- Name: COLUMN usage_daily.day; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.day IS 'UTC day';


--
-- Name: COLUMN usage_daily.uid; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.uid IS 'job user';


--
-- Name: COLUMN usage_daily.jobs_started; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.jobs_started IS 'jobs that started that day (submitted, for jobs that never started)';


--
-- Name: COLUMN usage_daily.steps_started; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.steps_started IS 'steps that started that day';


--
-- Name: COLUMN usage_daily.steps_failed; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.steps_failed IS 'of those, steps whose state is not COMPLETED';


--
-- Name: COLUMN usage_daily.steps_opted_out; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.steps_opted_out IS 'of those, steps that were not profiled';


--
-- Name: COLUMN usage_daily.cpu_seconds; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.cpu_seconds IS 'CPUs of each step x the part of its run time that fell on that day (s)';


--
-- Name: COLUMN usage_daily.node_seconds; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.node_seconds IS 'nodes of each step x the part of its run time that fell on that day (s)';


--
-- Name: COLUMN usage_daily.read_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.read_bytes IS 'bytes read in that day''s slices, all interfaces including the lower layer (bytes)';


--
-- Name: COLUMN usage_daily.write_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.write_bytes IS 'bytes written in that day''s slices, all interfaces including the lower layer (bytes)';


--
-- Name: COLUMN usage_daily.meta_ops; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.meta_ops IS 'file system metadata calls in that day''s slices: POSIX open and metadata, fopen, MPI-IO open/close/sync/seek, as meta_ops of js.step_report (calls)';


--
-- Name: COLUMN usage_daily.mpi_bytes; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.mpi_bytes IS 'MPI point-to-point send and collective bytes in that day''s slices (bytes)';


--
-- Name: COLUMN usage_daily.io_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.io_ns IS 'time in I/O calls in that day''s slices (ns)';


--
-- Name: COLUMN usage_daily.mpi_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.mpi_ns IS 'time in MPI calls in that day''s slices (ns)';


--
-- Name: COLUMN usage_daily.process_cpu_ns; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.process_cpu_ns IS 'CPU time of the profiled processes in that day''s slices (ns)';


--
-- Name: COLUMN usage_daily.node_slices; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.node_slices IS 'per-slice vectors (step x node x slice with activity) of that day';


--
-- Name: COLUMN usage_daily.computed_at; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.usage_daily.computed_at IS 'when js_data.rollup_usage() computed the row';


--
-- Name: usage_daily; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.usage_daily AS
 SELECT d.cluster_id,
    c.name AS cluster,
    d.day,
    d.uid,
    u.name AS user_name,
    d.jobs_started,
    d.steps_started,
    d.steps_failed,
    d.steps_opted_out,
    d.cpu_seconds,
    d.node_seconds,
    d.read_bytes,
    d.write_bytes,
    d.meta_ops,
    d.mpi_bytes,
    d.io_ns,
    d.mpi_ns,
    d.process_cpu_ns,
    d.node_slices,
    d.computed_at
   FROM ((js_data.usage_daily d
     JOIN js_data.clusters c USING (cluster_id))
     LEFT JOIN js_data.users u ON (((u.cluster_id = d.cluster_id) AND (u.uid = d.uid))));


--
-- Name: VIEW usage_daily; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.usage_daily IS 'daily usage per user (UTC days), from js_data.rollup_usage(); kept after the per-slice detail is dropped';


--
-- Name: usage_monthly; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.usage_monthly AS
 SELECT usage_daily.cluster_id,
    usage_daily.cluster,
    (date_trunc('month'::text, (usage_daily.day)::timestamp with time zone))::date AS month,
    usage_daily.uid,
    usage_daily.user_name,
    (sum(usage_daily.jobs_started))::integer AS jobs_started,
    (sum(usage_daily.steps_started))::integer AS steps_started,
    (sum(usage_daily.steps_failed))::integer AS steps_failed,
    (sum(usage_daily.steps_opted_out))::integer AS steps_opted_out,
    sum(usage_daily.cpu_seconds) AS cpu_seconds,
    sum(usage_daily.node_seconds) AS node_seconds,
    (sum(usage_daily.read_bytes))::bigint AS read_bytes,
    (sum(usage_daily.write_bytes))::bigint AS write_bytes,
    (sum(usage_daily.meta_ops))::bigint AS meta_ops,
    (sum(usage_daily.mpi_bytes))::bigint AS mpi_bytes,
    (sum(usage_daily.io_ns))::bigint AS io_ns,
    (sum(usage_daily.mpi_ns))::bigint AS mpi_ns,
    (sum(usage_daily.process_cpu_ns))::bigint AS process_cpu_ns,
    (sum(usage_daily.node_slices))::bigint AS node_slices,
    (count(*))::integer AS days,
    max(usage_daily.computed_at) AS computed_at
   FROM js.usage_daily
  GROUP BY usage_daily.cluster_id, usage_daily.cluster, (date_trunc('month'::text, (usage_daily.day)::timestamp with time zone)), usage_daily.uid, usage_daily.user_name;


--
-- Name: VIEW usage_monthly; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.usage_monthly IS 'monthly usage per user: the sums of js.usage_daily over the UTC month (days = days with usage)';


--
-- Name: users; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.users AS
 SELECT u.cluster_id,
    c.name AS cluster,
    u.uid,
    u.name AS user_name
   FROM (js_data.users u
     JOIN js_data.clusters c USING (cluster_id));


--
-- Name: VIEW users; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.users IS 'user names per cluster and uid, as the job records gave them';


--
-- Name: workflows; Type: VIEW; Schema: js; Owner: -
--

CREATE VIEW js.workflows AS
 SELECT w.cluster_id,
    c.name AS cluster,
    w.workflow_id,
    w.uid,
    u.name AS user_name,
    w.tag,
    w.name,
    (w.tag IS NULL) AS derived,
    w.jobs,
    w.first_submit,
    w.first_start,
    w.last_end,
    w.jobs_not_ok
   FROM ((js_data.workflows w
     JOIN js_data.clusters c USING (cluster_id))
     LEFT JOIN js_data.users u ON (((u.cluster_id = w.cluster_id) AND (u.uid = w.uid))));


--
-- Name: VIEW workflows; Type: COMMENT; Schema: js; Owner: -
--

COMMENT ON VIEW js.workflows IS 'workflows: explicit (--workflow tag) or derived (connected scheduler and file edges of one user''s untagged jobs), with job counts and time span';


--
-- Name: clusters_cluster_id_seq; Type: SEQUENCE; Schema: js_data; Owner: -
--

ALTER TABLE js_data.clusters ALTER COLUMN cluster_id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME js_data.clusters_cluster_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: dependency_refs; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.dependency_refs (
    cluster_id smallint NOT NULL,
    to_job bigint NOT NULL,
    ref_job bigint NOT NULL,
    ref_task integer,
    condition text NOT NULL
);


--
-- Name: TABLE dependency_refs; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.dependency_refs IS 'the jobs a job record''s dependency list names (one row per element with a job id); the scheduler edges are these resolved to jobs';


--
-- Name: COLUMN dependency_refs.cluster_id; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependency_refs.cluster_id IS 'cluster of both jobs';


--
-- Name: COLUMN dependency_refs.to_job; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependency_refs.to_job IS 'the dependant job';


--
-- Name: COLUMN dependency_refs.ref_job; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependency_refs.ref_job IS 'the job id named (afterok:35 and afterok:35_1: 35), a job or an array';


--
-- Name: COLUMN dependency_refs.ref_task; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependency_refs.ref_task IS 'the array task named (35_1: 1); NULL: the whole job, or every task of the array';


--
-- Name: COLUMN dependency_refs.condition; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.dependency_refs.condition IS 'dependency type (afterok, afterany, ...)';


--
-- Name: files_file_id_seq; Type: SEQUENCE; Schema: js_data; Owner: -
--

ALTER TABLE js_data.files ALTER COLUMN file_id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME js_data.files_file_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: ingest_sessions; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.ingest_sessions (
    backend_pid integer NOT NULL,
    who text NOT NULL,
    at timestamp with time zone NOT NULL
);


--
-- Name: TABLE ingest_sessions; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.ingest_sessions IS 'one row per database session of a profile_ingest, updated by its durability barrier (a synchronous commit that writes, so that the log is flushed past the session''s asynchronous step commits)';


--
-- Name: COLUMN ingest_sessions.backend_pid; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.ingest_sessions.backend_pid IS 'pg_backend_pid() of the session';


--
-- Name: COLUMN ingest_sessions.who; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.ingest_sessions.who IS 'host:pid of the profile_ingest';


--
-- Name: COLUMN ingest_sessions.at; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.ingest_sessions.at IS 'its last durability barrier';


--
-- Name: retention_runs; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.retention_runs (
    run_at timestamp with time zone DEFAULT now() NOT NULL,
    class text NOT NULL,
    item text NOT NULL,
    rows bigint NOT NULL,
    cutoff timestamp with time zone,
    run_by text DEFAULT CURRENT_USER NOT NULL
);


--
-- Name: TABLE retention_runs; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.retention_runs IS 'what each run of apply_retention_all removed, per table';


--
-- Name: COLUMN retention_runs.run_at; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_runs.run_at IS 'when the run was (its transaction''s start)';


--
-- Name: COLUMN retention_runs.class; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_runs.class IS 'the setting that applied: slices, jobs, quarantine or rollups';


--
-- Name: COLUMN retention_runs.item; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_runs.item IS 'the table (or partition) rows were removed from';


--
-- Name: COLUMN retention_runs.rows; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_runs.rows IS 'rows removed';


--
-- Name: COLUMN retention_runs.cutoff; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_runs.cutoff IS 'the time before which the class''s data went';


--
-- Name: COLUMN retention_runs.run_by; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.retention_runs.run_by IS 'database role that ran it';


--
-- Name: schema_migrations; Type: TABLE; Schema: js_data; Owner: -
--

CREATE TABLE js_data.schema_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: TABLE schema_migrations; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TABLE js_data.schema_migrations IS 'migrations of sql/ applied to this database (profile_ingest --migrate)';


--
-- Name: COLUMN schema_migrations.version; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.schema_migrations.version IS 'number of the migration file (sql/NNN_name.sql)';


--
-- Name: COLUMN schema_migrations.name; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.schema_migrations.name IS 'name of the migration file';


--
-- Name: COLUMN schema_migrations.applied_at; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON COLUMN js_data.schema_migrations.applied_at IS 'when it was applied';


--
-- Name: step_node_process_sums; Type: VIEW; Schema: js_data; Owner: -
--

CREATE VIEW js_data.step_node_process_sums AS
 SELECT p.cluster_id,
    p.job_id,
    p.step_id,
    p.node,
    (count(*))::integer AS processes,
    (COALESCE(sum(p.wall_ns), (0)::numeric))::bigint AS wall_ns,
    (COALESCE(sum(p.compute_ns), (0)::numeric))::bigint AS compute_ns,
    (COALESCE(sum(p.mpi_p2p_ns), (0)::numeric))::bigint AS mpi_p2p_ns,
    (COALESCE(sum(p.mpi_coll_ns), (0)::numeric))::bigint AS mpi_coll_ns,
    (COALESCE(sum(p.posix_ns), (0)::numeric))::bigint AS io_posix_ns,
    (COALESCE(sum(p.stdio_ns), (0)::numeric))::bigint AS io_stdio_ns,
    (COALESCE(sum(p.mpiio_ns), (0)::numeric))::bigint AS io_mpiio_ns,
    (COALESCE(((sum(p.posix_read_bytes) + sum(p.stdio_read_bytes)) + sum(p.mpiio_read_bytes)), (0)::numeric))::bigint AS read_bytes,
    (COALESCE(((sum(p.posix_write_bytes) + sum(p.stdio_write_bytes)) + sum(p.mpiio_write_bytes)), (0)::numeric))::bigint AS write_bytes,
    (COALESCE(((((sum(p.posix_open_calls) + sum(p.posix_meta_calls)) + sum(p.stdio_open_calls)) + sum(p.stdio_meta_calls)) + sum(p.mpiio_meta_calls)), (0)::numeric))::bigint AS meta_calls,
    (COALESCE(sum(p.cpu_ns), (0)::numeric))::bigint AS cpu_ns,
    (count(*) FILTER (WHERE (p.ended_by = 'signal'::text)))::integer AS killed_processes,
    (COALESCE(sum(p.files_dropped), (0)::numeric))::bigint AS files_dropped,
    (sum(p.idle_ns))::bigint AS idle_ns,
    (sum(p.mpi_setup_ns))::bigint AS mpi_setup_ns,
    (sum(p.cpu_wait_ns))::bigint AS cpu_wait_ns,
    max(p.max_rss_kib) AS max_rss_kib,
    (sum(js_data.unattributed(p.kernel_rchar, ((p.posix_read_bytes + p.stdio_read_bytes) + p.lower_read_bytes))))::bigint AS unattributed_read_bytes,
    (sum(js_data.unattributed(p.kernel_wchar, ((p.posix_write_bytes + p.stdio_write_bytes) + p.lower_write_bytes))))::bigint AS unattributed_write_bytes,
    (count(*) FILTER (WHERE (p.kernel_rchar IS NULL)))::integer AS kernel_io_unknown
   FROM js_data.processes p
  GROUP BY p.cluster_id, p.job_id, p.step_id, p.node;


--
-- Name: VIEW step_node_process_sums; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON VIEW js_data.step_node_process_sums IS 'per step-node, the sums over its processes that js_data.steps keeps per step (filter by the step-node: the filter reaches the processes'' index)';


--
-- Name: workflows_workflow_id_seq; Type: SEQUENCE; Schema: js_data; Owner: -
--

ALTER TABLE js_data.workflows ALTER COLUMN workflow_id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME js_data.workflows_workflow_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Data for Name: clusters; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.clusters (cluster_id, name, slice_seconds, first_seen) FROM stdin;
\.


--
-- Data for Name: dependencies; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.dependencies (cluster_id, kind, from_job, from_step, to_job, to_step, file_id, condition, from_time, to_time, created) FROM stdin;
\.


--
-- Data for Name: dependency_refs; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.dependency_refs (cluster_id, to_job, ref_job, ref_task, condition) FROM stdin;
\.


--
-- Data for Name: file_accesses; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.file_accesses (cluster_id, job_id, step_id, node, file_id, mode, processes, opens, reads, writes, bytes_read, bytes_written, first_access, last_access, first_read, last_write, parent_file_id, interfaces, dev, ino, mapped_bytes) FROM stdin;
\.


--
-- Data for Name: files; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.files (cluster_id, file_id, path, node, scope, fs_type) FROM stdin;
\.


--
-- Data for Name: ingest_sessions; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.ingest_sessions (backend_pid, who, at) FROM stdin;
\.


--
-- Data for Name: jobs; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.jobs (cluster_id, job_id, uid, gid, name, partition, account, workflow_tag, workflow_id, submit_time, start_time, end_time, state, exit_code, num_nodes, num_cpus, num_tasks, nodelist, dependency, work_dir, record, updated, array_job_id, array_task_id, reason) FROM stdin;
\.


--
-- Data for Name: live_processes; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.live_processes (cluster_id, job_id, step_id, node, pid, image, ppid, task_id, mpi_rank, mpi_size, origin, ended_by, exe, args, start_time, end_time, wall_ns, cpu_user_ns, cpu_sys_ns, max_rss_kib, threads_peak, threads_seen, compute_ns, slices_truncated, files_dropped, mpi_collectives, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, exit_code, signal, missing, idle_ns, mpi_setup_ns, cpu_wait_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes) FROM stdin;
\.


--
-- Data for Name: live_slice_metrics; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.live_slice_metrics (cluster_id, job_id, step_id, node, slice, processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes) FROM stdin;
\.


--
-- Data for Name: live_step_nodes; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.live_step_nodes (cluster_id, job_id, step_id, node, start_time, snapshot_time, profiles, running, ingested_at, ingested_by) FROM stdin;
\.


--
-- Data for Name: processes; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.processes (cluster_id, job_id, step_id, node, pid, image, ppid, task_id, mpi_rank, mpi_size, origin, ended_by, exe, args, start_time, end_time, wall_ns, cpu_user_ns, cpu_sys_ns, max_rss_kib, threads_peak, threads_seen, compute_ns, slices_truncated, files_dropped, mpi_collectives, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, exit_code, signal, missing, idle_ns, mpi_setup_ns, cpu_wait_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes) FROM stdin;
\.


--
-- Data for Name: quarantine; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.quarantine (cluster_id, job_id, step_id, node, file, moved_to, reason, at) FROM stdin;
\.


--
-- Data for Name: retention_log; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.retention_log (partition, parent, first_slice, end_slice, rows_dropped, dropped_at, dropped_by) FROM stdin;
\.


--
-- Data for Name: retention_runs; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.retention_runs (run_at, class, item, rows, cutoff, run_by) FROM stdin;
\.


--
-- Data for Name: retention_settings; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.retention_settings (only_row, slice_keep, updated, job_keep, quarantine_keep, rollup_keep) FROM stdin;
t	180 days	2026-11-28 14:38:20.235995+00	\N	\N	\N
\.


--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.schema_migrations (version, name, applied_at) FROM stdin;
1	001_core	2026-11-28 14:38:19.667287+00
2	002_metrics	2026-11-28 14:38:19.739345+00
3	003_ingest	2026-11-28 14:38:19.794246+00
4	004_views	2026-11-28 14:38:19.833056+00
5	005_time_edge_index	2026-11-28 14:38:19.882956+00
6	006_process_end	2026-11-28 14:38:19.909936+00
7	007_unrecorded	2026-11-28 14:38:19.947161+00
8	008_live	2026-11-28 14:38:19.977774+00
9	009_arrays	2026-11-28 14:38:20.027441+00
10	010_lineage	2026-11-28 14:38:20.064613+00
11	011_runtime	2026-11-28 14:38:20.107764+00
20	020_report_views	2026-11-28 14:38:20.157912+00
21	021_usage_rollups	2026-11-28 14:38:20.198302+00
22	022_retention	2026-11-28 14:38:20.235995+00
23	023_roles	2026-11-28 14:38:20.271338+00
24	024_report_runtime	2026-11-28 14:38:20.301794+00
25	025_series	2026-11-28 14:38:20.335483+00
26	026_lists	2026-11-28 14:38:20.457513+00
27	027_workflow_summary	2026-11-28 14:38:20.489135+00
28	028_ingest_lookups	2026-11-28 14:38:20.524056+00
29	029_slice_kernel_io	2026-11-28 14:38:20.551195+00
30	030_step_sums	2026-11-28 14:38:20.594818+00
31	031_job_fields	2026-11-28 14:38:20.640569+00
32	032_web_role	2026-11-28 14:38:20.669339+00
33	033_retention_all	2026-11-28 14:38:20.697584+00
\.


--
-- Data for Name: slice_horizon; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.slice_horizon (only_row, slice, updated) FROM stdin;
\.


--
-- Data for Name: step_nodes; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.step_nodes (cluster_id, job_id, step_id, node, start_time, end_time, state, exit_code, num_tasks, profiles, quarantined, incomplete, record, ingested_at, ingested_by, incomplete_reason, unrecorded, unrecorded_reason) FROM stdin;
\.


--
-- Data for Name: step_trees; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.step_trees (cluster_id, job_id, step_id, node, tree, processes, opens, read_bytes, write_bytes) FROM stdin;
\.


--
-- Data for Name: steps; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.steps (cluster_id, job_id, step_id, name, start_time, end_time, state, exit_code, num_nodes, num_tasks, num_cpus, nodelist, profiled, first_slice, last_slice, nodes_ingested, incomplete, incomplete_reason, processes, wall_ns, compute_ns, mpi_p2p_ns, mpi_coll_ns, io_posix_ns, io_stdio_ns, io_mpiio_ns, read_bytes, write_bytes, meta_calls, cpu_ns, killed_processes, files_dropped, idle_ns, mpi_setup_ns, cpu_wait_ns, max_rss_kib, unattributed_read_bytes, unattributed_write_bytes, kernel_io_unknown) FROM stdin;
\.


--
-- Data for Name: totals_pending; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.totals_pending (cluster_id, job_id, step_id, node, queued_at) FROM stdin;
\.


--
-- Data for Name: usage_daily; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.usage_daily (cluster_id, day, uid, jobs_started, steps_started, steps_failed, steps_opted_out, cpu_seconds, node_seconds, read_bytes, write_bytes, meta_ops, mpi_bytes, io_ns, mpi_ns, process_cpu_ns, node_slices, computed_at) FROM stdin;
\.


--
-- Data for Name: users; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.users (cluster_id, uid, name) FROM stdin;
\.


--
-- Data for Name: workflows; Type: TABLE DATA; Schema: js_data; Owner: -
--

COPY js_data.workflows (cluster_id, workflow_id, uid, tag, name, created, jobs, jobs_not_ok, first_submit, first_start, last_end) FROM stdin;
\.


--
-- Name: clusters_cluster_id_seq; Type: SEQUENCE SET; Schema: js_data; Owner: -
--

SELECT pg_catalog.setval('js_data.clusters_cluster_id_seq', 1, false);


--
-- Name: files_file_id_seq; Type: SEQUENCE SET; Schema: js_data; Owner: -
--

SELECT pg_catalog.setval('js_data.files_file_id_seq', 1, false);


--
-- Name: workflows_workflow_id_seq; Type: SEQUENCE SET; Schema: js_data; Owner: -
--

SELECT pg_catalog.setval('js_data.workflows_workflow_id_seq', 1, false);


--
-- Name: clusters clusters_name_key; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.clusters
    ADD CONSTRAINT clusters_name_key UNIQUE (name);


--
-- Name: clusters clusters_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.clusters
    ADD CONSTRAINT clusters_pkey PRIMARY KEY (cluster_id);


--
-- Name: dependencies dependencies_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.dependencies
    ADD CONSTRAINT dependencies_pkey PRIMARY KEY (cluster_id, to_job, kind, from_job, from_step, to_step, file_id);


--
-- Name: file_accesses file_accesses_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.file_accesses
    ADD CONSTRAINT file_accesses_pkey PRIMARY KEY (cluster_id, job_id, step_id, node, file_id);


--
-- Name: files files_cluster_id_path_node_key; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.files
    ADD CONSTRAINT files_cluster_id_path_node_key UNIQUE (cluster_id, path, node);


--
-- Name: files files_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.files
    ADD CONSTRAINT files_pkey PRIMARY KEY (cluster_id, file_id);


--
-- Name: ingest_sessions ingest_sessions_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.ingest_sessions
    ADD CONSTRAINT ingest_sessions_pkey PRIMARY KEY (backend_pid);


--
-- Name: jobs jobs_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.jobs
    ADD CONSTRAINT jobs_pkey PRIMARY KEY (cluster_id, job_id);


--
-- Name: live_step_nodes live_step_nodes_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.live_step_nodes
    ADD CONSTRAINT live_step_nodes_pkey PRIMARY KEY (cluster_id, job_id, step_id, node);


--
-- Name: processes processes_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.processes
    ADD CONSTRAINT processes_pkey PRIMARY KEY (cluster_id, job_id, step_id, node, pid, image);


--
-- Name: quarantine quarantine_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.quarantine
    ADD CONSTRAINT quarantine_pkey PRIMARY KEY (cluster_id, job_id, step_id, node, file);


--
-- Name: retention_log retention_log_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.retention_log
    ADD CONSTRAINT retention_log_pkey PRIMARY KEY (partition, dropped_at);


--
-- Name: retention_runs retention_runs_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.retention_runs
    ADD CONSTRAINT retention_runs_pkey PRIMARY KEY (run_at, class, item);


--
-- Name: retention_settings retention_settings_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.retention_settings
    ADD CONSTRAINT retention_settings_pkey PRIMARY KEY (only_row);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);


--
-- Name: series_cluster series_cluster_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.series_cluster
    ADD CONSTRAINT series_cluster_pkey PRIMARY KEY (cluster_id, chunk);


--
-- Name: series_node series_node_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.series_node
    ADD CONSTRAINT series_node_pkey PRIMARY KEY (cluster_id, node, chunk);


--
-- Name: series_step_node series_step_node_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.series_step_node
    ADD CONSTRAINT series_step_node_pkey PRIMARY KEY (cluster_id, job_id, step_id, node, chunk);


--
-- Name: series_step series_step_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.series_step
    ADD CONSTRAINT series_step_pkey PRIMARY KEY (cluster_id, job_id, step_id, chunk);


--
-- Name: slice_horizon slice_horizon_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.slice_horizon
    ADD CONSTRAINT slice_horizon_pkey PRIMARY KEY (only_row);


--
-- Name: step_nodes step_nodes_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.step_nodes
    ADD CONSTRAINT step_nodes_pkey PRIMARY KEY (cluster_id, job_id, step_id, node);


--
-- Name: step_trees step_trees_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.step_trees
    ADD CONSTRAINT step_trees_pkey PRIMARY KEY (cluster_id, job_id, step_id, node, tree);


--
-- Name: steps steps_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.steps
    ADD CONSTRAINT steps_pkey PRIMARY KEY (cluster_id, job_id, step_id);


--
-- Name: totals_pending totals_pending_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.totals_pending
    ADD CONSTRAINT totals_pending_pkey PRIMARY KEY (cluster_id, job_id, step_id, node);


--
-- Name: usage_daily usage_daily_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.usage_daily
    ADD CONSTRAINT usage_daily_pkey PRIMARY KEY (cluster_id, day, uid);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (cluster_id, uid);


--
-- Name: workflows workflows_pkey; Type: CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.workflows
    ADD CONSTRAINT workflows_pkey PRIMARY KEY (cluster_id, workflow_id);


--
-- Name: dependencies_from; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX dependencies_from ON js_data.dependencies USING btree (cluster_id, from_job);


--
-- Name: dependency_refs_key; Type: INDEX; Schema: js_data; Owner: -
--

CREATE UNIQUE INDEX dependency_refs_key ON js_data.dependency_refs USING btree (cluster_id, to_job, ref_job, COALESCE(ref_task, '-1'::integer), condition);


--
-- Name: dependency_refs_ref; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX dependency_refs_ref ON js_data.dependency_refs USING btree (cluster_id, ref_job);


--
-- Name: file_accesses_readers; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX file_accesses_readers ON js_data.file_accesses USING btree (cluster_id, file_id) WHERE (first_read IS NOT NULL);


--
-- Name: file_accesses_writers; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX file_accesses_writers ON js_data.file_accesses USING btree (cluster_id, file_id) WHERE (last_write IS NOT NULL);


--
-- Name: jobs_array; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX jobs_array ON js_data.jobs USING btree (cluster_id, array_job_id) WHERE (array_job_id IS NOT NULL);


--
-- Name: jobs_submit; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX jobs_submit ON js_data.jobs USING btree (submit_time DESC NULLS LAST, job_id DESC);


--
-- Name: jobs_user_end; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX jobs_user_end ON js_data.jobs USING btree (cluster_id, uid, end_time);


--
-- Name: INDEX jobs_user_end; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON INDEX js_data.jobs_user_end IS 'time edges: jobs of a user by end time (js.time_edges)';


--
-- Name: jobs_user_submit; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX jobs_user_submit ON js_data.jobs USING btree (cluster_id, uid, submit_time DESC NULLS LAST, job_id DESC);


--
-- Name: jobs_user_time; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX jobs_user_time ON js_data.jobs USING btree (cluster_id, uid, start_time);


--
-- Name: jobs_workflow; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX jobs_workflow ON js_data.jobs USING btree (cluster_id, workflow_id);


--
-- Name: live_processes_step; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX live_processes_step ON js_data.live_processes USING btree (cluster_id, job_id, step_id, node);


--
-- Name: live_slice_metrics_step; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX live_slice_metrics_step ON js_data.live_slice_metrics USING btree (cluster_id, job_id, step_id, node, slice);


--
-- Name: processes_missing; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX processes_missing ON js_data.processes USING btree (cluster_id, job_id, step_id) WHERE (missing <> ''::text);


--
-- Name: INDEX processes_missing; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON INDEX js_data.processes_missing IS 'processes whose profile says something is missing (js_data.incomplete_reason)';


--
-- Name: series_step_node_chunk; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX series_step_node_chunk ON ONLY js_data.series_step_node USING btree (cluster_id, chunk);


--
-- Name: step_nodes_ingested; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX step_nodes_ingested ON js_data.step_nodes USING btree (ingested_at);


--
-- Name: steps_incomplete; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX steps_incomplete ON js_data.steps USING btree (cluster_id, job_id) WHERE incomplete;


--
-- Name: steps_slices; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX steps_slices ON js_data.steps USING btree (cluster_id, first_slice);


--
-- Name: totals_pending_queued; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX totals_pending_queued ON js_data.totals_pending USING btree (queued_at);


--
-- Name: workflows_submit; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX workflows_submit ON js_data.workflows USING btree (first_submit DESC NULLS LAST, workflow_id DESC);


--
-- Name: workflows_tag; Type: INDEX; Schema: js_data; Owner: -
--

CREATE UNIQUE INDEX workflows_tag ON js_data.workflows USING btree (cluster_id, uid, tag) WHERE (tag IS NOT NULL);


--
-- Name: workflows_user_submit; Type: INDEX; Schema: js_data; Owner: -
--

CREATE INDEX workflows_user_submit ON js_data.workflows USING btree (cluster_id, uid, first_submit DESC NULLS LAST, workflow_id DESC);


--
-- Name: jobs jobs_time_edge; Type: TRIGGER; Schema: js_data; Owner: -
--

CREATE TRIGGER jobs_time_edge AFTER INSERT OR UPDATE OF submit_time, start_time, end_time, work_dir, workflow_tag, dependency ON js_data.jobs FOR EACH ROW EXECUTE FUNCTION js_data.jobs_link_by_time();


--
-- Name: TRIGGER jobs_time_edge ON jobs; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TRIGGER jobs_time_edge ON js_data.jobs IS 'a job''s time edge follows its times (js_data.link_by_time)';


--
-- Name: jobs jobs_workflow_summary_delete; Type: TRIGGER; Schema: js_data; Owner: -
--

CREATE TRIGGER jobs_workflow_summary_delete AFTER DELETE ON js_data.jobs REFERENCING OLD TABLE AS old_jobs FOR EACH STATEMENT EXECUTE FUNCTION js_data.jobs_summarise_workflows();


--
-- Name: jobs jobs_workflow_summary_insert; Type: TRIGGER; Schema: js_data; Owner: -
--

CREATE TRIGGER jobs_workflow_summary_insert AFTER INSERT ON js_data.jobs REFERENCING NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION js_data.jobs_summarise_workflows();


--
-- Name: jobs jobs_workflow_summary_update; Type: TRIGGER; Schema: js_data; Owner: -
--

CREATE TRIGGER jobs_workflow_summary_update AFTER UPDATE ON js_data.jobs REFERENCING OLD TABLE AS old_jobs NEW TABLE AS new_jobs FOR EACH STATEMENT EXECUTE FUNCTION js_data.jobs_summarise_workflows();


--
-- Name: TRIGGER jobs_workflow_summary_update ON jobs; Type: COMMENT; Schema: js_data; Owner: -
--

COMMENT ON TRIGGER jobs_workflow_summary_update ON js_data.jobs IS 'a workflow''s kept summary follows its jobs (js_data.workflow_summarise)';


--
-- Name: jobs jobs_cluster_id_fkey; Type: FK CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.jobs
    ADD CONSTRAINT jobs_cluster_id_fkey FOREIGN KEY (cluster_id) REFERENCES js_data.clusters(cluster_id);


--
-- Name: users users_cluster_id_fkey; Type: FK CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.users
    ADD CONSTRAINT users_cluster_id_fkey FOREIGN KEY (cluster_id) REFERENCES js_data.clusters(cluster_id);


--
-- Name: workflows workflows_cluster_id_fkey; Type: FK CONSTRAINT; Schema: js_data; Owner: -
--

ALTER TABLE ONLY js_data.workflows
    ADD CONSTRAINT workflows_cluster_id_fkey FOREIGN KEY (cluster_id) REFERENCES js_data.clusters(cluster_id);


--
-- PostgreSQL database dump complete
--


