-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 048: a file's identity across its names (issue 36). Since profile
-- format 9 an access keeps the file's birth time (statx) beside the device and inode of its first
-- open; inode and birth time together survive inode reuse (a file system gives a freed inode to
-- the next file it creates, with a new birth time), so a hard link or a bind mount, another name
-- of the same inode, is one file for the last-writer rule (the device too for a node-local file;
-- docs/dependencies.md, "Hard links"). A file edge into a read by another name keeps the name
-- its writer used.
ALTER TABLE js_data.file_accesses ADD COLUMN btime bigint;
ALTER TABLE js_data.dependencies ADD COLUMN from_file_id bigint;
COMMENT ON COLUMN js_data.file_accesses.btime IS 'the file''s birth time at the first open (statx), ns since the epoch; with dev and ino its identity across names (hard links, bind mounts); NULL: unknown (the file system does not say, or a profile before format 9)';
COMMENT ON COLUMN js_data.dependencies.from_file_id IS 'file edges: the file (js_data.files) under the name its writer used, when another name of the same file (dev, ino, btime) than file_id, the reader''s; NULL: the same name';
-- the accesses of a file under any name, by identity and last write: the last writer of a read
-- in one backward probe (js_data.last_writer), the readers of a write by the prefix; not the
-- device, which a shared file system's clients number each their own way
CREATE INDEX file_accesses_identity ON js_data.file_accesses USING btree (cluster_id, ino, btime, last_write)
    WHERE (btime IS NOT NULL);
COMMENT ON INDEX js_data.file_accesses_identity IS 'file edges by identity (hard links): the accesses of an (ino, btime) by last write';
