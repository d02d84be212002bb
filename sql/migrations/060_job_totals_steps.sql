-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 060: the job list's kept totals (migration 053) also keep each
-- job's step count, whether one of its steps is incomplete and its workflow's name (issue 34).
-- The list counted a job's steps, probed them for an incomplete one and looked up its
-- workflow's name per returned job (js.jobs' steps, incomplete, workflow_name): two fifths of
-- its database time at 10^6 jobs, three index probes a job. The triggers of
-- sql/functions/js_data.job_totals_note.sql keep them from here on; every job recorded so far
-- is counted here (a job with no step: 0, false, as js.jobs says).
ALTER TABLE js_data.job_totals
    ADD COLUMN steps integer NOT NULL DEFAULT 0,
    ADD COLUMN incomplete boolean NOT NULL DEFAULT false,
    ADD COLUMN workflow text;
COMMENT ON COLUMN js_data.job_totals.steps IS 'how many steps of the job are recorded (extern and batch included: js.jobs'' steps)';
COMMENT ON COLUMN js_data.job_totals.incomplete IS 'true when one of its recorded steps is incomplete (js.jobs'' incomplete)';
COMMENT ON COLUMN js_data.job_totals.workflow IS 'the name of the job''s workflow (js.jobs'' workflow_name; NULL: none)';
UPDATE js_data.job_totals t
    SET steps = coalesce(s.steps, 0), incomplete = coalesce(s.incomplete, false), workflow = w.name
FROM js_data.jobs j
LEFT JOIN (SELECT s.cluster_id, s.job_id, count(*)::integer AS steps, bool_or(s.incomplete) AS incomplete
           FROM js_data.steps s GROUP BY s.cluster_id, s.job_id) s
  ON s.cluster_id = j.cluster_id AND s.job_id = j.job_id
LEFT JOIN js_data.workflows w ON w.cluster_id = j.cluster_id AND w.workflow_id = j.workflow_id
WHERE j.cluster_id = t.cluster_id AND j.job_id = t.job_id;
