-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 052: a finished step's reply stored (issue 34; docs/web.md,
-- "Stored replies"). The step reply (its series at the viewer's points, spread, processes,
-- files, GPUs, insight) reads some twenty tables keyed by job; the triggers of
-- sql/functions/js_data.replies_note_change.sql note the jobs a statement touched there, as
-- reply_changes notes workflows, and js.stored_replies serves a stored step reply only while
-- its job has no change noted: never stale, whatever the commit order.

CREATE TABLE js_data.reply_job_changes (
    change_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    noted timestamp with time zone DEFAULT now() NOT NULL
);
CREATE INDEX reply_job_changes_job ON js_data.reply_job_changes (cluster_id, job_id);

COMMENT ON TABLE js_data.reply_job_changes IS 'changes to the rows a stored step reply reads, noted by triggers per job, not yet taken in by the keeper: while a job has one, its stored step replies are not served';
COMMENT ON COLUMN js_data.reply_job_changes.change_id IS 'in the order noted';
COMMENT ON COLUMN js_data.reply_job_changes.cluster_id IS 'cluster of the job';
COMMENT ON COLUMN js_data.reply_job_changes.job_id IS 'the job whose rows changed';
COMMENT ON COLUMN js_data.reply_job_changes.noted IS 'when the change was written (the writing transaction''s start)';

-- the jobs already here: each with a step that has slices is looked at once by the keeper
-- (those below its threshold only cost the deletion of their row)
INSERT INTO js_data.reply_job_changes (cluster_id, job_id)
    SELECT DISTINCT s.cluster_id, s.job_id FROM js_data.steps s WHERE s.first_slice IS NOT NULL;

COMMENT ON COLUMN js_data.stored_replies.endpoint IS 'the endpoint of docs/api.md (workflow, step)';
COMMENT ON COLUMN js_data.stored_replies.key IS 'what the endpoint was asked for: the workflow id (workflow), the job id (step)';
COMMENT ON COLUMN js_data.stored_replies.params IS 'the request''s other parameters, canonical (empty: none, as the workflow graph; a step: step=S&points=P&gpu_series=G&rows=N, N the process list''s limit)';
