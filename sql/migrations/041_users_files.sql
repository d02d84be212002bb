-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 041: what users read must be right (issue 36, part A).
-- Sync calls (fsync, fdatasync, sync_file_range, syncfs, sync, msync, writes on O_SYNC/O_DSYNC
-- descriptors) are counted apart from the metadata calls since profile format 8: per process
-- their calls and time (NULL: a profile before format 8, whose fsync and fdatasync are in
-- posix_meta_calls). Code files the tree list had no room for are counted (code_dropped).

ALTER TABLE js_data.processes
    ADD COLUMN sync_calls bigint,
    ADD COLUMN sync_ns bigint,
    ADD COLUMN code_dropped bigint DEFAULT 0 NOT NULL;
ALTER TABLE js_data.live_processes
    ADD COLUMN sync_calls bigint,
    ADD COLUMN sync_ns bigint,
    ADD COLUMN code_dropped bigint DEFAULT 0 NOT NULL;

COMMENT ON COLUMN js_data.processes.sync_calls IS 'fsync, fdatasync, sync_file_range, syncfs, sync, msync and writes on O_SYNC/O_DSYNC descriptors (calls; NULL: profile before format 8, its fsync and fdatasync counted in posix_meta_calls)';
COMMENT ON COLUMN js_data.processes.sync_ns IS 'time in those calls, part of posix_ns (ns; NULL: profile before format 8)';
COMMENT ON COLUMN js_data.processes.code_dropped IS 'opens of code files (modules, bytecode, shared objects) that the profiler did not count in any software tree because its list of trees was full (data files keep their room)';
COMMENT ON COLUMN js_data.live_processes.sync_calls IS 'fsync, fdatasync, sync_file_range, syncfs, sync, msync and writes on O_SYNC/O_DSYNC descriptors (calls; NULL: profile before format 8)';
COMMENT ON COLUMN js_data.live_processes.sync_ns IS 'time in those calls, part of posix_ns (ns; NULL: profile before format 8)';
COMMENT ON COLUMN js_data.live_processes.code_dropped IS 'opens of code files not counted in any software tree (its list of trees was full)';
