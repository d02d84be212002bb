-- SPDX-License-Identifier: GPL-2.0-or-later
-- The stored replies' changes (migrations 051, 052, 055; docs/web.md, "Stored replies"): one
-- function for the statement triggers of every table a stored reply reads, noting from the rows
-- before (old_rows) and after (new_rows) the statement the workflows whose graph they change in
-- js_data.reply_changes and the jobs whose step or job replies they change in
-- js_data.reply_job_changes. A row per workflow or job and statement, insert only: no row lock
-- that concurrent ingest daemons would wait on.
-- The graph reads workflows, jobs, users, steps, running steps, file accesses and edges: a
-- workflow is named by workflows' and jobs' workflow_id, a user's name by all of the user's,
-- the others by their job's (edges: both ends'). A step reply reads its job, step, step-nodes,
-- processes, running step-nodes' vectors, energy, software trees, GPUs and their processes and
-- series, file accesses, insight and advice, and its series folded and queued: all keyed by job.
-- The job reply (055) reads its job's rows and other jobs': the other end of each edge (name,
-- state, times), the other job of a lineage warning (a read while written: the file accesses
-- paired by js_data.replies_file_partners; an edge no dependency orders: the scheduler edges up
-- from the reader), its workflow's name and its user's. So an edge notes both ends, the jobs
-- waiting below a scheduler edge and the writers of their file edges; a job's row the jobs
-- linked to it by edges (and, inserted, deleted or renamed, by file accesses); a workflow or a
-- user renamed all of their jobs.
-- The file reply (061) reads the file's row and its accesses with their jobs' names and owners
-- and their steps' spans: in js_data.reply_file_changes, a file is noted when its row or an
-- access of it is written (inserted: only a file with another access) or deleted, and the
-- files of the accesses of a step whose row or running state (not each live snapshot: a
-- running step's file is not kept) changed, of a job renamed or given to another user, of a
-- user renamed.
-- (Statement triggers with transition tables: a single event each, hence three per table.)
CREATE FUNCTION js_data.replies_note_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_jobs js_data.replies_job[] := '{}';
    -- the job reply's others (055): jobs shown by another's reply; jobs below a scheduler edge;
    -- jobs whose name or user others' replies show, changed
    v_others js_data.replies_job[] := '{}';
    v_waiting js_data.replies_job[] := '{}';
    v_named js_data.replies_job[] := '{}';
    -- a user's or workflow's rows only name jobs through their renaming (below)
    v_note_jobs boolean := TG_TABLE_NAME NOT IN ('workflows', 'users');
    -- the graph reads none of the step reply's own tables
    v_note_workflows boolean := TG_TABLE_NAME IN ('steps', 'live_step_nodes', 'file_accesses', 'dependencies');
BEGIN
    -- a statement that wrote no row notes nothing (the ingest clears a step's running rows for
    -- each record, mostly none: 5,481 of the 9,444 calls in issue 37's bench at 128 processes)
    IF TG_OP = 'INSERT' THEN
        PERFORM FROM new_rows LIMIT 1;
    ELSE
        PERFORM FROM old_rows LIMIT 1;
    END IF;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    -- a file's row (updated or deleted; a new file has no access yet): only its file reply
    IF TG_TABLE_NAME = 'files' THEN
        INSERT INTO js_data.reply_file_changes (cluster_id, file_id)
            SELECT DISTINCT r.cluster_id, r.file_id FROM old_rows r;
        RETURN NULL;
    END IF;
    -- a transition table exists only for the events that have it: each read in its branch
    IF TG_OP <> 'INSERT' THEN
        IF TG_TABLE_NAME IN ('workflows', 'jobs') THEN
            INSERT INTO js_data.reply_changes (cluster_id, workflow_id)
                SELECT DISTINCT r.cluster_id, r.workflow_id FROM old_rows r WHERE r.workflow_id IS NOT NULL;
        END IF;
        IF TG_TABLE_NAME = 'users' THEN
            INSERT INTO js_data.reply_changes (cluster_id, workflow_id)
                SELECT w.cluster_id, w.workflow_id FROM (SELECT DISTINCT r.cluster_id, r.uid FROM old_rows r) u
                JOIN js_data.workflows w ON w.cluster_id = u.cluster_id AND w.uid = u.uid;
        ELSIF TG_TABLE_NAME = 'dependencies' THEN
            v_jobs := ARRAY(SELECT DISTINCT ROW(r.cluster_id, x.job_id)::js_data.replies_job
                            FROM old_rows r CROSS JOIN LATERAL (VALUES (r.from_job), (r.to_job)) x(job_id));
            v_waiting := ARRAY(SELECT DISTINCT ROW(r.cluster_id, r.to_job)::js_data.replies_job
                               FROM old_rows r WHERE r.kind = 'scheduler');
        ELSIF TG_TABLE_NAME <> 'workflows' THEN
            v_jobs := ARRAY(SELECT DISTINCT ROW(r.cluster_id, r.job_id)::js_data.replies_job FROM old_rows r);
        END IF;
        IF TG_TABLE_NAME = 'file_accesses' THEN
            INSERT INTO js_data.reply_file_changes (cluster_id, file_id)
                SELECT DISTINCT r.cluster_id, r.file_id FROM old_rows r;
        ELSIF (TG_TABLE_NAME = 'steps' AND TG_OP = 'DELETE') OR (TG_TABLE_NAME = 'live_step_nodes' AND TG_OP = 'DELETE') THEN
            INSERT INTO js_data.reply_file_changes (cluster_id, file_id)
                SELECT DISTINCT a.cluster_id, a.file_id FROM (SELECT DISTINCT r.cluster_id, r.job_id, r.step_id FROM old_rows r) r
                JOIN js_data.file_accesses a ON a.cluster_id = r.cluster_id AND a.job_id = r.job_id AND a.step_id = r.step_id;
        ELSIF TG_TABLE_NAME = 'steps' THEN
            -- a step's row rewritten: the file reply shows only its span. Its sums are rewritten
            -- by every step-node record (ingest_step_sums), and noting all its files each time
            -- grew with the square of its nodes (a 100-node, 128-process step: ~1.3 million
            -- notes; issue 37's bench, 2026-11-29)
            INSERT INTO js_data.reply_file_changes (cluster_id, file_id)
                SELECT DISTINCT a.cluster_id, a.file_id
                FROM (SELECT DISTINCT o.cluster_id, o.job_id, o.step_id FROM old_rows o
                      JOIN new_rows n ON n.cluster_id = o.cluster_id AND n.job_id = o.job_id AND n.step_id = o.step_id
                      WHERE (o.start_time, o.end_time) IS DISTINCT FROM (n.start_time, n.end_time)) r
                JOIN js_data.file_accesses a ON a.cluster_id = r.cluster_id AND a.job_id = r.job_id AND a.step_id = r.step_id;
        END IF;
        IF TG_TABLE_NAME = 'file_accesses' THEN
            v_others := (SELECT js_data.replies_file_partners(
                array_agg(r.cluster_id), array_agg(r.file_id), array_agg(r.job_id), array_agg(r.first_access),
                array_agg(r.first_read), array_agg(r.last_write)) FROM old_rows r
                WHERE r.first_read IS NOT NULL OR r.last_write IS NOT NULL);
        END IF;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        IF TG_TABLE_NAME IN ('workflows', 'jobs') THEN
            INSERT INTO js_data.reply_changes (cluster_id, workflow_id)
                SELECT DISTINCT r.cluster_id, r.workflow_id FROM new_rows r WHERE r.workflow_id IS NOT NULL;
        END IF;
        IF TG_TABLE_NAME = 'users' THEN
            INSERT INTO js_data.reply_changes (cluster_id, workflow_id)
                SELECT w.cluster_id, w.workflow_id FROM (SELECT DISTINCT r.cluster_id, r.uid FROM new_rows r) u
                JOIN js_data.workflows w ON w.cluster_id = u.cluster_id AND w.uid = u.uid;
        ELSIF TG_TABLE_NAME = 'dependencies' THEN
            v_jobs := v_jobs || ARRAY(SELECT DISTINCT ROW(r.cluster_id, x.job_id)::js_data.replies_job
                            FROM new_rows r CROSS JOIN LATERAL (VALUES (r.from_job), (r.to_job)) x(job_id));
            v_waiting := v_waiting || ARRAY(SELECT DISTINCT ROW(r.cluster_id, r.to_job)::js_data.replies_job
                                            FROM new_rows r WHERE r.kind = 'scheduler');
        ELSIF TG_TABLE_NAME <> 'workflows' THEN
            v_jobs := v_jobs || ARRAY(SELECT DISTINCT ROW(r.cluster_id, r.job_id)::js_data.replies_job FROM new_rows r);
        END IF;
        IF TG_TABLE_NAME = 'file_accesses' AND TG_OP = 'INSERT' THEN
            -- a file's first access is no file reply's (one is kept from 2 accesses on, and
            -- the deletes that left it none were noted): only the files with another access,
            -- committed or in this statement (an index probe each; most files one job wrote)
            INSERT INTO js_data.reply_file_changes (cluster_id, file_id)
                SELECT DISTINCT r.cluster_id, r.file_id FROM new_rows r
                WHERE EXISTS (SELECT 1 FROM js_data.file_accesses a
                              WHERE a.cluster_id = r.cluster_id AND a.file_id = r.file_id AND a.last_write IS NOT NULL
                                AND (a.job_id, a.step_id, a.node) <> (r.job_id, r.step_id, r.node))
                   OR EXISTS (SELECT 1 FROM js_data.file_accesses a
                              WHERE a.cluster_id = r.cluster_id AND a.file_id = r.file_id
                                AND (a.first_read IS NOT NULL OR a.last_write IS NULL)
                                AND (a.job_id, a.step_id, a.node) <> (r.job_id, r.step_id, r.node));
        ELSIF TG_TABLE_NAME = 'file_accesses' THEN
            -- updated: the files not noted from old_rows above
            INSERT INTO js_data.reply_file_changes (cluster_id, file_id)
                SELECT DISTINCT r.cluster_id, r.file_id FROM new_rows r
                EXCEPT SELECT o.cluster_id, o.file_id FROM old_rows o;
        ELSIF (TG_TABLE_NAME = 'steps' AND TG_OP = 'INSERT') OR (TG_TABLE_NAME = 'live_step_nodes' AND TG_OP = 'INSERT') THEN
            INSERT INTO js_data.reply_file_changes (cluster_id, file_id)
                SELECT DISTINCT a.cluster_id, a.file_id FROM (SELECT DISTINCT r.cluster_id, r.job_id, r.step_id FROM new_rows r) r
                JOIN js_data.file_accesses a ON a.cluster_id = r.cluster_id AND a.job_id = r.job_id AND a.step_id = r.step_id;
        END IF;
        IF TG_TABLE_NAME = 'file_accesses' THEN
            v_others := v_others || (SELECT js_data.replies_file_partners(
                array_agg(r.cluster_id), array_agg(r.file_id), array_agg(r.job_id), array_agg(r.first_access),
                array_agg(r.first_read), array_agg(r.last_write)) FROM new_rows r
                WHERE r.first_read IS NOT NULL OR r.last_write IS NOT NULL);
        END IF;
    END IF;
    -- what other jobs' replies show of a job, a workflow or a user: changed by the statement
    IF TG_TABLE_NAME = 'jobs' AND TG_OP <> 'UPDATE' THEN
        v_named := v_jobs;
    ELSIF TG_TABLE_NAME = 'jobs' THEN
        v_named := ARRAY(SELECT ROW(n.cluster_id, n.job_id)::js_data.replies_job FROM new_rows n
                         JOIN old_rows o ON o.cluster_id = n.cluster_id AND o.job_id = n.job_id
                         WHERE (o.name, o.uid) IS DISTINCT FROM (n.name, n.uid));
    ELSIF TG_TABLE_NAME = 'workflows' AND TG_OP = 'UPDATE' THEN
        v_others := ARRAY(SELECT ROW(j.cluster_id, j.job_id)::js_data.replies_job FROM new_rows n
                          JOIN old_rows o ON o.cluster_id = n.cluster_id AND o.workflow_id = n.workflow_id
                          JOIN js_data.jobs j ON j.cluster_id = n.cluster_id AND j.workflow_id = n.workflow_id
                          WHERE o.name IS DISTINCT FROM n.name);
    ELSIF TG_TABLE_NAME = 'users' AND TG_OP = 'UPDATE' THEN
        v_others := ARRAY(SELECT ROW(j.cluster_id, j.job_id)::js_data.replies_job FROM new_rows n
                          JOIN old_rows o ON o.cluster_id = n.cluster_id AND o.uid = n.uid
                          JOIN js_data.jobs j ON j.cluster_id = n.cluster_id AND j.uid = n.uid
                          WHERE o.name IS DISTINCT FROM n.name);
    END IF;
    -- the file replies showing those jobs (a user renamed: v_others holds all of the user's jobs)
    IF cardinality(v_named) > 0 THEN
        PERFORM js_data.replies_file_jobs(v_named);
    ELSIF TG_TABLE_NAME = 'users' AND cardinality(v_others) > 0 THEN
        PERFORM js_data.replies_file_jobs(v_others);
    END IF;
    IF (TG_TABLE_NAME = 'jobs' AND cardinality(v_jobs) > 0) OR cardinality(v_waiting) > 0 THEN
        v_others := v_others || js_data.replies_job_others(TG_TABLE_NAME, v_jobs, v_waiting, v_named);
    END IF;
    IF cardinality(v_others) > 0 THEN
        INSERT INTO js_data.reply_job_changes (cluster_id, job_id)
            SELECT DISTINCT k.cluster_id, k.job_id FROM unnest(v_others) k;
    END IF;
    IF cardinality(v_jobs) = 0 THEN
        RETURN NULL;
    END IF;
    -- the workflows of the jobs named (steps, running steps, file accesses, edges)
    IF v_note_workflows THEN
        INSERT INTO js_data.reply_changes (cluster_id, workflow_id)
            SELECT DISTINCT j.cluster_id, j.workflow_id
            FROM (SELECT DISTINCT k.cluster_id, k.job_id FROM unnest(v_jobs) k) k
            JOIN js_data.jobs j ON j.cluster_id = k.cluster_id AND j.job_id = k.job_id
            WHERE j.workflow_id IS NOT NULL;
    END IF;
    IF v_note_jobs THEN
        INSERT INTO js_data.reply_job_changes (cluster_id, job_id)
            SELECT DISTINCT k.cluster_id, k.job_id FROM unnest(v_jobs) k;
    END IF;
    RETURN NULL;
END $$;
COMMENT ON FUNCTION js_data.replies_note_change() IS 'trigger: note the workflows and jobs whose stored replies a statement made out of date (js_data.reply_changes, js_data.reply_job_changes, js_data.reply_file_changes)';
-- the triggers: TABLE_replies_insert, _update, _delete on each table (a user is never deleted)
DO $$ BEGIN PERFORM js_data.create_statement_triggers('js_data.replies_note_change', 'replies',
        ARRAY['workflows', 'jobs', 'users', 'steps', 'live_step_nodes', 'file_accesses', 'dependencies',
              -- the step reply's own (migration 052)
              'step_nodes', 'processes', 'live_processes', 'live_slice_metrics', 'step_node_energy', 'step_trees',
              'step_node_gpus', 'step_node_gpu_processes', 'series_step_node_gpu', 'step_insights', 'step_advice',
              'series_step', 'series_step_node', 'totals_pending',
              -- the file reply's own (migration 061)
              'files'],
        ARRAY['users.DELETE', 'files.INSERT'], 'stored replies follow the rows they were computed from (js_data.replies_note_change)'); END $$;
