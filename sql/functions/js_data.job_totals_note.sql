-- SPDX-License-Identifier: GPL-2.0-or-later
-- The job list's totals (migrations 053, 060; js.job_totals): the statement triggers of the steps, their
-- insights and the jobs sum again, in the writing transaction, every job a statement touched
-- (the rows before, old_rows, and after, new_rows), whoever writes (the ingest, merges, the
-- fold, retention); a deleted job's row goes with it. A job's few steps are read by key: the
-- cost is a row per job and statement. A job's record rewritten changes only its workflow's
-- name, where it moved to another workflow (a merge, a split; a workflow's name is never
-- rewritten, and it is stored before a job names it).
CREATE FUNCTION js_data.job_totals_note() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_jobs js_data.replies_job[] := '{}';
BEGIN
    IF TG_TABLE_NAME = 'jobs' AND TG_OP = 'UPDATE' THEN
        UPDATE js_data.job_totals t SET workflow = w.name
        FROM new_rows n JOIN old_rows o ON o.cluster_id = n.cluster_id AND o.job_id = n.job_id
        LEFT JOIN js_data.workflows w ON w.cluster_id = n.cluster_id AND w.workflow_id = n.workflow_id
        WHERE n.workflow_id IS DISTINCT FROM o.workflow_id
          AND t.cluster_id = n.cluster_id AND t.job_id = n.job_id AND t.workflow IS DISTINCT FROM w.name;
        RETURN NULL;
    END IF;
    -- a transition table exists only for the events that have it: each read in its branch
    IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'steps' THEN
        -- only the steps whose summed or counted columns changed: the ingest merges a step's
        -- row at every step-node record (its span, nodes and CPUs), its sums once a transaction
        v_jobs := ARRAY(SELECT DISTINCT ROW(n.cluster_id, n.job_id)::js_data.replies_job FROM new_rows n
                        JOIN old_rows o ON o.cluster_id = n.cluster_id AND o.job_id = n.job_id AND o.step_id = n.step_id
                        WHERE (o.cpu_ns, o.max_rss_kib, o.read_bytes, o.write_bytes, o.profiled, o.incomplete)
                              IS DISTINCT FROM (n.cpu_ns, n.max_rss_kib, n.read_bytes, n.write_bytes, n.profiled, n.incomplete));
        IF cardinality(v_jobs) = 0 THEN
            RETURN NULL;
        END IF;
    ELSIF TG_OP <> 'INSERT' THEN
        v_jobs := ARRAY(SELECT DISTINCT ROW(r.cluster_id, r.job_id)::js_data.replies_job FROM old_rows r);
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND TG_TABLE_NAME <> 'steps') THEN
        v_jobs := v_jobs || ARRAY(SELECT DISTINCT ROW(r.cluster_id, r.job_id)::js_data.replies_job FROM new_rows r);
    END IF;
    IF TG_TABLE_NAME = 'jobs' AND TG_OP = 'DELETE' THEN
        DELETE FROM js_data.job_totals t USING unnest(v_jobs) k
        WHERE t.cluster_id = k.cluster_id AND t.job_id = k.job_id;
        RETURN NULL;
    END IF;
    -- the jobs that have a row: a step ingested before its job's record is summed when the
    -- record comes (the jobs' insert trigger), one deleted after its job leaves nothing behind
    INSERT INTO js_data.job_totals AS t (cluster_id, job_id, cpu_ns, max_rss_kib, read_bytes, write_bytes,
                                         profiled_steps, light, lost_s, steps, incomplete, workflow)
    SELECT k.cluster_id, k.job_id, u.cpu_ns, u.max_rss_kib, u.read_bytes, u.write_bytes, u.profiled_steps, i.light, i.lost_s,
           u.steps, u.incomplete,
           (SELECT w.name FROM js_data.workflows w WHERE w.cluster_id = j.cluster_id AND w.workflow_id = j.workflow_id)
    FROM (SELECT DISTINCT k.cluster_id, k.job_id FROM unnest(v_jobs) k) k
    JOIN js_data.jobs j ON j.cluster_id = k.cluster_id AND j.job_id = k.job_id
    CROSS JOIN LATERAL (
        -- the sums over its steps but extern; the count and the incomplete check over all (js.jobs')
        SELECT js.saturated(sum(s.cpu_ns) FILTER (WHERE s.step_id <> 'extern')) AS cpu_ns,
               max(s.max_rss_kib) FILTER (WHERE s.step_id <> 'extern') AS max_rss_kib,
               js.saturated(sum(s.read_bytes) FILTER (WHERE s.step_id <> 'extern')) AS read_bytes,
               js.saturated(sum(s.write_bytes) FILTER (WHERE s.step_id <> 'extern')) AS write_bytes,
               count(*) FILTER (WHERE s.profiled AND s.step_id <> 'extern')::integer AS profiled_steps,
               count(*)::integer AS steps, coalesce(bool_or(s.incomplete), false) AS incomplete
        FROM js_data.steps s WHERE s.cluster_id = k.cluster_id AND s.job_id = k.job_id) u
    CROSS JOIN LATERAL (
        SELECT (array_agg(i.light ORDER BY js.light_rank(i.light) DESC))[1] AS light, sum(i.lost_s) AS lost_s
        FROM js_data.step_insights i WHERE i.cluster_id = k.cluster_id AND i.job_id = k.job_id) i
    ORDER BY k.cluster_id, k.job_id -- one order for every writer: concurrent ingests lock rows alike
    ON CONFLICT (cluster_id, job_id) DO UPDATE
        SET cpu_ns = excluded.cpu_ns, max_rss_kib = excluded.max_rss_kib, read_bytes = excluded.read_bytes,
            write_bytes = excluded.write_bytes, profiled_steps = excluded.profiled_steps, light = excluded.light,
            lost_s = excluded.lost_s, steps = excluded.steps, incomplete = excluded.incomplete,
            workflow = excluded.workflow
        WHERE (t.cpu_ns, t.max_rss_kib, t.read_bytes, t.write_bytes, t.profiled_steps, t.light, t.lost_s,
               t.steps, t.incomplete, t.workflow)
              IS DISTINCT FROM (excluded.cpu_ns, excluded.max_rss_kib, excluded.read_bytes, excluded.write_bytes,
                                excluded.profiled_steps, excluded.light, excluded.lost_s, excluded.steps,
                                excluded.incomplete, excluded.workflow);
    RETURN NULL;
END $$;
COMMENT ON FUNCTION js_data.job_totals_note() IS 'trigger: sum again the totals (js_data.job_totals) of the jobs whose steps or insights a statement wrote; drop those of deleted jobs; a job moved to another workflow: its workflow''s name';
-- the triggers: steps_totals_insert, _update, _delete; the same on step_insights and on jobs
DO $$ BEGIN PERFORM js_data.create_statement_triggers('js_data.job_totals_note', 'totals', ARRAY['steps', 'step_insights', 'jobs'],
        '{}', 'the job list''s totals follow the steps, their insights and the jobs (js_data.job_totals_note)'); END $$;
