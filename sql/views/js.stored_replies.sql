-- SPDX-License-Identifier: GPL-2.0-or-later
-- The replies the ingest stored that are current: no change to their workflow noted since they
-- were computed (migration 051; docs/web.md, "Stored replies"). The CGI reads them with the
-- access rule applied to the workflow they belong to (web/queries.sql, stored_workflow).
CREATE VIEW js.stored_replies AS
    SELECT r.cluster_id, r.endpoint, r.key, r.params, r.etag, r.body, r.body_gz, r.computed, r.compute_ms
    FROM js_data.stored_replies r
    WHERE NOT EXISTS (SELECT 1 FROM js_data.reply_changes c
                      WHERE c.cluster_id = r.cluster_id AND c.workflow_id = r.key);
COMMENT ON VIEW js.stored_replies IS 'web replies the ingest computed ahead that are current (no change noted since): endpoint, key (the workflow id), canonical params, etag, body and body_gz; read with the access rule of the workflow they belong to';
