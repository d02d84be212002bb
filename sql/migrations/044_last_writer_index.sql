-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 044: the last writer of a file before a read in one index probe
-- (issue 37, PostgreSQL's side of the ingest at 128 processes a node). The writers of a file
-- ordered by their last write (and job, step: the rule's tie-break, docs/dependencies.md), so
-- that js_data.last_writer reads one entry backwards from the read's time instead of fetching
-- and sorting every writer of the file: a file written by every job of a long chain (a log, a
-- checkpoint rewritten each run) costs each of its reads O(log writers), not O(writers).
DROP INDEX js_data.file_accesses_writers;
CREATE INDEX file_accesses_writers ON js_data.file_accesses USING btree (cluster_id, file_id, last_write, job_id, step_id)
    WHERE (last_write IS NOT NULL);
COMMENT ON INDEX js_data.file_accesses_writers IS 'file edges: the writers of a file by last write, job and step (js_data.last_writer: the latest at or before a read, one probe)';
