-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 045: a batch step that waits for its sruns has no verdict of its
-- own (issue 36). Its shell only waits; whatever slowed the sruns showed in it a second time,
-- and a job read "2 disturbed steps" for one (test 58c) or a calm job's batch step was called
-- disturbed while its srun was green. profile_ingest writes such a step's insight without a
-- verdict (light grey, disturbed NULL) and says why in judged_by_sruns; the job's rollups count
-- its real steps. The insight already computed is converted here the same way.
ALTER TABLE js_data.step_insights ADD COLUMN judged_by_sruns boolean NOT NULL DEFAULT false;
COMMENT ON COLUMN js_data.step_insights.judged_by_sruns IS 'true for the batch step of a job that ran sruns: it waits for them and has no verdict of its own (light grey, disturbed NULL, no DISTURBED advice); the job is judged by its srun steps (docs/insight.md)';
COMMENT ON COLUMN js_data.step_insights.light IS 'traffic light: green (time lost below 7.5 % of the run), yellow (7.5-15 %), red (above 15 %), grey (too little data to tell, or judged_by_sruns)';
COMMENT ON COLUMN js_data.step_insights.disturbed IS 'true when the step lost at least 2 % of its run in slices where other jobs peaked, or the segments estimate at least 5 %; NULL when neither method could judge, or judged_by_sruns (docs/insight.md)';

UPDATE js_data.step_insights i
SET judged_by_sruns = true, light = 'grey', disturbed = NULL, cause = NULL, lost_s = NULL, lost_pct = NULL,
    dented_slices = 0, disturbed_slices = 0, evidence = '[]', segment_groups = NULL, segments_flagged = NULL,
    segment_excess_s = NULL, interference_pct = NULL, interference_class = NULL
WHERE i.step_id = 'batch'
  AND EXISTS (SELECT 1 FROM js_data.steps o WHERE o.cluster_id = i.cluster_id AND o.job_id = i.job_id
                AND o.step_id NOT IN ('batch', 'extern'));
DELETE FROM js_data.step_advice a
WHERE a.step_id = 'batch' AND a.code = 'DISTURBED'
  AND EXISTS (SELECT 1 FROM js_data.steps o WHERE o.cluster_id = a.cluster_id AND o.job_id = a.job_id
                AND o.step_id NOT IN ('batch', 'extern'));
