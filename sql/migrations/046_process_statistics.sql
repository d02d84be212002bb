-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 046: no planner statistics for the processes' measured columns
-- (issue 37, PostgreSQL's CPU at 128 processes a node). No statement filters, joins or groups
-- on them: they are summed and shown. Yet every ANALYZE of the table (profile_ingest's after
-- 64, 256, 1024, ... step records, and autovacuum's as it grows) sampled 30,000 rows and built
-- statistics for each of its 73 columns, fetching each value past the variable-width columns
-- before it: 1.06 s of CPU for the 73,422 processes of a 100-node 2 h cluster at 128 processes
-- a node, about what their COPY costs; 0.24 s with these columns left out. The keys,
-- identities, end state, times and missing parts (an index's predicate) keep theirs.
DO $$
DECLARE
    v_col name;
BEGIN
    FOR v_col IN
        SELECT attname FROM pg_attribute
        WHERE attrelid = 'js_data.processes'::regclass AND attnum > 0 AND NOT attisdropped
          AND attname NOT IN ('cluster_id', 'job_id', 'step_id', 'node', 'pid', 'image', 'ppid', 'task_id',
                              'mpi_rank', 'mpi_size', 'origin', 'ended_by', 'exe', 'start_time', 'end_time',
                              'exit_code', 'signal', 'missing')
        ORDER BY attnum
    LOOP
        EXECUTE format('ALTER TABLE js_data.processes ALTER COLUMN %I SET STATISTICS 0', v_col);
    END LOOP;
END $$;
