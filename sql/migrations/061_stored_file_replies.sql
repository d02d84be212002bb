-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 061: the file reply stored (issue 34; docs/web.md, "Stored
-- replies"). A file hundreds of jobs accessed costs ~8 ms of CPU a request (grouping its
-- accesses per step, each step's span); the keeper (profile_ingest/replies_file.c) stores it
-- under endpoint 'file', key the file id, params 'user=NAME' for each user whose jobs accessed
-- it, as that user sees it. Current while the file has no change noted here: a new access by
-- a new job is in no job's changes, so the notes are keyed by file (noted by
-- sql/functions/js_data.replies_note_change.sql: a file's accesses written or deleted, its
-- row, and the jobs, steps, running steps and users its reply shows).
CREATE TABLE js_data.reply_file_changes (
    change_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cluster_id smallint NOT NULL,
    file_id bigint NOT NULL,
    noted timestamp with time zone DEFAULT now() NOT NULL
);
CREATE INDEX reply_file_changes_file ON js_data.reply_file_changes (cluster_id, file_id);

COMMENT ON TABLE js_data.reply_file_changes IS 'changes to what a stored file reply was computed from, noted by triggers, not yet taken in by the keeper: while a file has one, its stored replies are not served';
COMMENT ON COLUMN js_data.reply_file_changes.change_id IS 'in the order noted';
COMMENT ON COLUMN js_data.reply_file_changes.cluster_id IS 'cluster of the file';
COMMENT ON COLUMN js_data.reply_file_changes.file_id IS 'the file whose reply''s rows changed';
COMMENT ON COLUMN js_data.reply_file_changes.noted IS 'when the change was written (the writing transaction''s start)';

-- the files already here that may be busy enough: looked at once by the keeper
INSERT INTO js_data.reply_file_changes (cluster_id, file_id)
    SELECT a.cluster_id, a.file_id FROM js_data.file_accesses a GROUP BY 1, 2 HAVING count(*) >= 100;

COMMENT ON COLUMN js_data.stored_replies.endpoint IS 'the endpoint of docs/api.md (workflow, step, job, file)';
COMMENT ON COLUMN js_data.stored_replies.key IS 'what the endpoint was asked for: the workflow id (workflow), the job id (step, job), the file id (file)';
COMMENT ON COLUMN js_data.stored_replies.params IS 'the request''s other parameters, canonical (empty: none, as the workflow graph and the job; a step: step=S&points=P&gpu_series=G&rows=N, N the process list''s limit; a file: user=NAME, the viewer it was computed for)';
