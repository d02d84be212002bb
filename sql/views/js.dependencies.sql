-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.dependencies AS
    SELECT d.cluster_id, d.kind, d.from_job, d.from_step, d.to_job, d.to_step, ja.uid AS from_uid, jb.uid AS to_uid,
           d.condition, nullif(d.file_id, 0) AS file_id, f.path, d.from_time, d.to_time,
           coalesce(d.from_file_id, nullif(d.file_id, 0)) AS from_file_id, coalesce(ff.path, f.path) AS from_path
    FROM js_data.dependencies d
    LEFT JOIN js_data.jobs ja ON ja.cluster_id = d.cluster_id AND ja.job_id = d.from_job
    LEFT JOIN js_data.jobs jb ON jb.cluster_id = d.cluster_id AND jb.job_id = d.to_job
    LEFT JOIN js_data.files f ON f.cluster_id = d.cluster_id AND f.file_id = d.file_id
    LEFT JOIN js_data.files ff ON ff.cluster_id = d.cluster_id AND ff.file_id = d.from_file_id;
COMMENT ON VIEW js.dependencies IS 'all dependency edges: kind scheduler (condition), file (to_step first read file_id/path at to_time; from_step last wrote it at from_time, under the name from_file_id/from_path: another name of the same file for a hard link) and time (from_time: the end of from_job; to_time: the start of to_job); from_uid may differ from to_uid for file edges';
