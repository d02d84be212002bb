-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 051: replies kept ahead (issue 34; docs/web.md, "Stored
-- replies"). The ingest stores the web's reply of a costly request (the workflow graph) when
-- what it is computed from changed, and the CGI serves it as stored while it is current.
-- Current means: no change to the workflow noted since it was computed. The triggers of
-- sql/functions/js_data.replies_note_change.sql note every change to the rows the reply reads
-- (its workflow, jobs, steps, running steps, file accesses, edges, the owner's name) in
-- reply_changes, in the writing transaction; the keeper (web/keep.c, run by profile_ingest after
-- its pass) computes a due workflow's reply and, in one transaction, stores it and deletes the
-- change rows it saw before computing. A change committed meanwhile stays, and the stored reply
-- is not served until the keeper computed it again: never stale, whatever the commit order.

CREATE TABLE js_data.reply_changes (
    change_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cluster_id smallint NOT NULL,
    workflow_id bigint NOT NULL,
    noted timestamp with time zone DEFAULT now() NOT NULL
);
CREATE INDEX reply_changes_workflow ON js_data.reply_changes (cluster_id, workflow_id);

COMMENT ON TABLE js_data.reply_changes IS 'changes to what a stored reply was computed from, noted by triggers, not yet taken in by the keeper: while a workflow has one, its stored replies are not served';
COMMENT ON COLUMN js_data.reply_changes.change_id IS 'in the order noted';
COMMENT ON COLUMN js_data.reply_changes.cluster_id IS 'cluster of the workflow';
COMMENT ON COLUMN js_data.reply_changes.workflow_id IS 'the workflow whose rows changed';
COMMENT ON COLUMN js_data.reply_changes.noted IS 'when the change was written (the writing transaction''s start)';

CREATE TABLE js_data.stored_replies (
    cluster_id smallint NOT NULL,
    endpoint text NOT NULL,
    key bigint NOT NULL,
    params text NOT NULL,
    etag text NOT NULL,
    body text NOT NULL,
    body_gz bytea NOT NULL,
    computed timestamp with time zone DEFAULT now() NOT NULL,
    compute_ms real NOT NULL,
    PRIMARY KEY (cluster_id, endpoint, key, params)
);

COMMENT ON TABLE js_data.stored_replies IS 'web replies computed ahead by the ingest (docs/web.md, "Stored replies"), served by the CGI through js.stored_replies while current';
COMMENT ON COLUMN js_data.stored_replies.cluster_id IS 'cluster of the workflow';
COMMENT ON COLUMN js_data.stored_replies.endpoint IS 'the endpoint of docs/api.md (workflow)';
COMMENT ON COLUMN js_data.stored_replies.key IS 'what the endpoint was asked for: the workflow id';
COMMENT ON COLUMN js_data.stored_replies.params IS 'the request''s other parameters, canonical (empty: none; the workflow graph has none)';
COMMENT ON COLUMN js_data.stored_replies.etag IS 'the reply''s ETag, as the CGI tags the same reply computed';
COMMENT ON COLUMN js_data.stored_replies.body IS 'the reply, JSON text as the CGI writes it';
COMMENT ON COLUMN js_data.stored_replies.body_gz IS 'the same gzipped (RFC 1952), sent as it is to a client that accepts gzip';
COMMENT ON COLUMN js_data.stored_replies.computed IS 'when the keeper computed it';
COMMENT ON COLUMN js_data.stored_replies.compute_ms IS 'how long the keeper took to compute it (ms, wall)';
