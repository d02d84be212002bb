-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.create_staging() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    -- the file accesses of a transaction's step records, each row with its step-node
    CREATE TEMP TABLE IF NOT EXISTS ingest_batch_files (
        job_id bigint NOT NULL,
        step_id text NOT NULL,
        node text NOT NULL,
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
        ino bigint,
        btime bigint
    );  -- emptied by ingest_finish: ON COMMIT DELETE ROWS would truncate it at every commit (1-2 ms)
    -- the step values of a transaction's step records (ingest_step_record), in the order of
    -- their claims (ord), merged into js_data.steps by ingest_step_sums, emptied by ingest_finish
    CREATE TEMP TABLE IF NOT EXISTS ingest_batch_steps (
        ord bigint GENERATED ALWAYS AS IDENTITY,
        job_id bigint NOT NULL,
        step_id text NOT NULL,
        name text,
        start_time timestamptz,
        end_time timestamptz,
        state text,
        exit_code integer,
        num_nodes integer,
        num_tasks integer,
        num_cpus integer,
        nodelist text,
        profiled boolean NOT NULL,
        first_slice bigint,
        last_slice bigint,
        incomplete boolean NOT NULL
    );
    -- the reads whose last writer a step-node of the transaction now is (ingest_finish), made
    -- once a session
    CREATE TEMP TABLE IF NOT EXISTS finish_readers (from_job bigint, from_step text, job_id bigint, step_id text,
        file_id bigint, first_read timestamptz, last_write timestamptz, from_file_id bigint);
    -- the accesses ingest_finish inserted, with what its file edges need (their times as stored,
    -- and whether the file gives edges): read twice, joined to the staged rows once
    CREATE TEMP TABLE IF NOT EXISTS finish_accesses (job_id bigint, step_id text, file_id bigint,
        first_read timestamptz, last_write timestamptz, edges boolean, node text, fs_type text,
        dev bigint, ino bigint, btime bigint);
    -- the transaction's files, each once: its id, whether it can give edges (not under a
    -- no_edge_prefix), its file system type (a hard link's readers are of the same); keyed, so
    -- that any plan joins it by a probe, never by a scan per row
    CREATE TEMP TABLE IF NOT EXISTS finish_files (path text NOT NULL, node text NOT NULL, file_id bigint NOT NULL,
        edges boolean NOT NULL, fs_type text, PRIMARY KEY (path, node));
END $$;
COMMENT ON FUNCTION js_data.create_staging() IS 'create the per-session staging tables: ingest_batch_files, that profile_ingest fills by COPY, ingest_batch_steps, that ingest_step_record fills, finish_readers, finish_accesses and finish_files';
