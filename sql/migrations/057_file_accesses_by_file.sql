-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 057: every access of a file found by index (issue 34). The file
-- tab (web/queries.sql.in, file and file_accesses) asks for all accesses of one file, but the
-- two indexes on (cluster_id, file_id) were partial, for the lineage (readers: first_read IS NOT
-- NULL; writers: last_write IS NOT NULL): an access with neither (opened, never read or written)
-- is in neither, so the planner scanned the whole table (or the primary key, file_id not its
-- leading column) for each request: seconds on a site's tens of millions of accesses; the
-- bench's 2,897 accesses hid it. The readers' index now also holds the accesses that wrote
-- nothing: with the writers' it covers every access (the file tab asks for "last_write IS NOT
-- NULL OR last_write IS NULL", a BitmapOr of the two), and the lineage's probes of readers
-- (first_read IS NOT NULL) still imply its predicate. No index more for the ingest to write:
-- the read-only accesses were in it already, only the opened-only ones are added.
DROP INDEX js_data.file_accesses_readers;
CREATE INDEX file_accesses_readers ON js_data.file_accesses (cluster_id, file_id)
    WHERE first_read IS NOT NULL OR last_write IS NULL;
COMMENT ON INDEX js_data.file_accesses_readers IS 'the readers of a file (lineage) and every access that wrote nothing: with file_accesses_writers, every access of a file (the file tab)';
