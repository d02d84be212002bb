-- SPDX-License-Identifier: GPL-2.0-or-later
-- The replies the ingest stored that are current: no change noted since they were computed to
-- their workflow (the graph), job (a step's reply, the job reply) or file (the file reply)
-- (migrations 051, 052, 055, 061;
-- docs/web.md, "Stored replies"). The CGI reads them with the access rule applied to the
-- workflow or job they belong to (web/queries.sql, stored_workflow, stored_step, stored_job,
-- stored_file).
CREATE VIEW js.stored_replies AS
    SELECT r.cluster_id, r.endpoint, r.key, r.params, r.etag, r.body, r.body_gz, r.computed, r.compute_ms
    FROM js_data.stored_replies r
    WHERE CASE r.endpoint
              WHEN 'workflow' THEN NOT EXISTS (SELECT 1 FROM js_data.reply_changes c
                                               WHERE c.cluster_id = r.cluster_id AND c.workflow_id = r.key)
              WHEN 'step' THEN NOT EXISTS (SELECT 1 FROM js_data.reply_job_changes c
                                           WHERE c.cluster_id = r.cluster_id AND c.job_id = r.key)
              WHEN 'job' THEN NOT EXISTS (SELECT 1 FROM js_data.reply_job_changes c
                                          WHERE c.cluster_id = r.cluster_id AND c.job_id = r.key)
              WHEN 'file' THEN NOT EXISTS (SELECT 1 FROM js_data.reply_file_changes c
                                           WHERE c.cluster_id = r.cluster_id AND c.file_id = r.key)
              ELSE false END;
COMMENT ON VIEW js.stored_replies IS 'web replies the ingest computed ahead that are current (no change noted since): endpoint, key (the workflow id; a step or job reply: its job id; a file reply: its file id), canonical params, etag, body and body_gz; read with the access rule of the workflow or job they belong to';
