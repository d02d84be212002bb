-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.create_staging() RETURNS void
LANGUAGE plpgsql AS $$
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
COMMENT ON FUNCTION js_data.create_staging() IS 'create the per-session staging table ingest_files that profile_ingest fills by COPY';
