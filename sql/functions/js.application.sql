-- SPDX-License-Identifier: GPL-2.0-or-later
-- The application a step ran: the base name of its executable; the batch step runs the
-- job's script (a spool path), so it is named by the job.
CREATE FUNCTION js.application(p_step_id text, p_executable text, p_job_name text) RETURNS text
    LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN p_step_id = 'batch' THEN 'batch:' || coalesce(p_job_name, '?')
                ELSE coalesce(nullif(regexp_replace(p_executable, '^.*/', ''), ''), 'step ' || p_step_id) END $$;
COMMENT ON FUNCTION js.application(text, text, text) IS 'application of a step: base name of its executable, or batch:<job name> for the batch step';
