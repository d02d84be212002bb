-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 055: the job reply stored (issue 34; docs/web.md, "Stored
-- replies"). A job with hundreds of files and edges costs ~18 ms of CPU a request (its edges,
-- files and warnings); the keeper of the step replies (profile_ingest/replies_step.c) stores it
-- as the owner sees it, under endpoint 'job', current while its job has no change noted in
-- js_data.reply_job_changes. The job reply shows other jobs (the other end of an edge, the
-- other job of a lineage warning): sql/functions/js_data.replies_note_change.sql notes them too.

-- the jobs already here that may be large enough: looked at once by the keeper (a setting of
-- replies_min_job_rows below 100 keeps the smaller ones from their next change on)
INSERT INTO js_data.reply_job_changes (cluster_id, job_id)
    SELECT x.cluster_id, x.job_id FROM (
        SELECT a.cluster_id, a.job_id FROM js_data.file_accesses a GROUP BY 1, 2 HAVING count(*) >= 100
        UNION
        SELECT d.cluster_id, d.from_job FROM js_data.dependencies d GROUP BY 1, 2 HAVING count(*) >= 100
        UNION
        SELECT d.cluster_id, d.to_job FROM js_data.dependencies d GROUP BY 1, 2 HAVING count(*) >= 100) x;

COMMENT ON COLUMN js_data.stored_replies.endpoint IS 'the endpoint of docs/api.md (workflow, step, job)';
COMMENT ON COLUMN js_data.stored_replies.key IS 'what the endpoint was asked for: the workflow id (workflow), the job id (step, job)';
COMMENT ON COLUMN js_data.stored_replies.params IS 'the request''s other parameters, canonical (empty: none, as the workflow graph and the job; a step: step=S&points=P&gpu_series=G&rows=N, N the process list''s limit)';
