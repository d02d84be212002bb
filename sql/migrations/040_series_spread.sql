-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 040: the spread of a step-node's processes per slice (issue 37,
-- "Fold on the node"). The node sums its processes' slices into the step-node's series
-- (common/bundle_series.h) and keeps, for the values where imbalance matters, the least and the
-- most one process had in each slice and which process (pid) had the most, so that a slow rank
-- still shows once the processes' own slices no longer travel. Encoded series like the sums
-- (docs/schema.md, "Series"); min and max NULL where at most one process was active in each slice
-- of the chunk (the least and the most are then the sums), all three in rows ingested before it.

ALTER TABLE js_data.series_step_node
    ADD COLUMN min_cpu_ns bytea,
    ADD COLUMN max_cpu_ns bytea,
    ADD COLUMN max_cpu_ns_pid bytea,
    ADD COLUMN min_mpi_ns bytea,
    ADD COLUMN max_mpi_ns bytea,
    ADD COLUMN max_mpi_ns_pid bytea,
    ADD COLUMN min_io_ns bytea,
    ADD COLUMN max_io_ns bytea,
    ADD COLUMN max_io_ns_pid bytea,
    ADD COLUMN min_io_bytes bytea,
    ADD COLUMN max_io_bytes bytea,
    ADD COLUMN max_io_bytes_pid bytea;

COMMENT ON COLUMN js_data.series_step_node.min_cpu_ns IS 'per slice, the least of CPU time (cpu_ns), ns that one active process of the step-node had (encoded series; NULL: at most one process active in each slice of the chunk, whose values are the sums)';
COMMENT ON COLUMN js_data.series_step_node.max_cpu_ns IS 'per slice, the most of CPU time (cpu_ns), ns that one process of the step-node had (encoded series; NULL: at most one process active in each slice)';
COMMENT ON COLUMN js_data.series_step_node.max_cpu_ns_pid IS 'per slice, the pid of the process with max_cpu_ns, or of the one process (the lowest pid among equals; encoded series)';
COMMENT ON COLUMN js_data.series_step_node.min_mpi_ns IS 'per slice, the least of time in MPI calls (mpi_p2p_ns + mpi_coll_ns), ns that one active process of the step-node had (encoded series; NULL: at most one process active in each slice of the chunk, whose values are the sums)';
COMMENT ON COLUMN js_data.series_step_node.max_mpi_ns IS 'per slice, the most of time in MPI calls (mpi_p2p_ns + mpi_coll_ns), ns that one process of the step-node had (encoded series; NULL: at most one process active in each slice)';
COMMENT ON COLUMN js_data.series_step_node.max_mpi_ns_pid IS 'per slice, the pid of the process with max_mpi_ns, or of the one process (the lowest pid among equals; encoded series)';
COMMENT ON COLUMN js_data.series_step_node.min_io_ns IS 'per slice, the least of time in I/O calls (posix_ns + stdio_ns + mpiio_ns), ns that one active process of the step-node had (encoded series; NULL: at most one process active in each slice of the chunk, whose values are the sums)';
COMMENT ON COLUMN js_data.series_step_node.max_io_ns IS 'per slice, the most of time in I/O calls (posix_ns + stdio_ns + mpiio_ns), ns that one process of the step-node had (encoded series; NULL: at most one process active in each slice)';
COMMENT ON COLUMN js_data.series_step_node.max_io_ns_pid IS 'per slice, the pid of the process with max_io_ns, or of the one process (the lowest pid among equals; encoded series)';
COMMENT ON COLUMN js_data.series_step_node.min_io_bytes IS 'per slice, the least of bytes read and written (POSIX, stdio and MPI-IO) that one active process of the step-node had (encoded series; NULL: at most one process active in each slice of the chunk, whose values are the sums)';
COMMENT ON COLUMN js_data.series_step_node.max_io_bytes IS 'per slice, the most of bytes read and written (POSIX, stdio and MPI-IO) that one process of the step-node had (encoded series; NULL: at most one process active in each slice)';
COMMENT ON COLUMN js_data.series_step_node.max_io_bytes_pid IS 'per slice, the pid of the process with max_io_bytes, or of the one process (the lowest pid among equals; encoded series)';
