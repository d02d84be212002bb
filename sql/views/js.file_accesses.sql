-- SPDX-License-Identifier: GPL-2.0-or-later
-- The job's name and owner ride along with its uid (the users join is on their key, a LEFT
-- JOIN the planner drops for a reader that asks for neither): the file tab reads each access's
-- job once (web/queries.sql, file_accesses).
CREATE VIEW js.file_accesses AS
    SELECT a.cluster_id, a.job_id, a.step_id, a.node, j.uid, a.file_id, f.path, f.scope, f.node AS file_node,
           a.mode, CASE a.mode WHEN 'r' THEN 'read-only' WHEN 'w' THEN 'write-only' ELSE 'read-write' END AS access,
           a.processes, a.opens, a.reads, a.writes, a.bytes_read, a.bytes_written, a.first_access, a.last_access,
           a.first_read, a.last_write, a.interfaces, a.dev, a.ino, a.mapped_bytes, a.btime,
           j.name AS job_name, u.name AS user_name
    FROM js_data.file_accesses a
    JOIN js_data.files f ON f.cluster_id = a.cluster_id AND f.file_id = a.file_id
    JOIN js_data.jobs j ON j.cluster_id = a.cluster_id AND j.job_id = a.job_id
    LEFT JOIN js_data.users u ON u.cluster_id = j.cluster_id AND u.uid = j.uid;
COMMENT ON VIEW js.file_accesses IS 'what each step did to each file on each node; access = read-only, write-only or read-write; interfaces posix, stdio, mpiio, rename (the step renamed it to or from this name); dev, ino and btime (birth time, ns; the identity across names) of the file at the first open; mapped_bytes: bytes of it mapped into memory; job_name and user_name: the job''s name and its owner''s (NULL: no user row)';
