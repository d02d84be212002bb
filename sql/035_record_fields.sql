-- 035: job and step records parsed in one place (issue 19, item 4). profile_ingest validates a
-- record against common/record_format.c's field tables and hands its values over typed, one
-- attribute per field (below); these functions no longer read fields out of the JSON they
-- receive. The record is still stored whole (js_data.jobs.record, js_data.step_nodes.record)
-- for the export and the viewer. Same effects as the functions they replace (003, 008, 009).

-- The values of a job record: its scalar fields in js_job_record_fields' order (integers as
-- bigint), the dependency list as one array per js_dependency_fields field, then the record.
-- profile_ingest fills it as ROW($n, ...) in that order: a field added to the table is added here.
CREATE TYPE js_data.job_record_values AS (
    format text, version bigint, cluster text, job_id bigint, array_job_id bigint, array_task_id bigint,
    name text, "user" text, uid bigint, "group" text, gid bigint, account text, partition text, qos text,
    submit_ns bigint, eligible_ns bigint, start_ns bigint, end_ns bigint, nodes bigint, node_list text,
    cpus bigint, tasks bigint, dependency text,
    dependencies_type text[], dependencies_job_id bigint[], dependencies_array_task_id bigint[],
    dependencies_delay_minutes bigint[],
    dependency_any boolean, dependency_parse_error boolean, exit_code bigint, signal bigint, state text,
    final boolean, workflow text, work_dir text, batch_script text, batch boolean, source text,
    writer_version text, written_ns bigint, truncated boolean, submitter text,
    reason text,
    record jsonb
);
COMMENT ON TYPE js_data.job_record_values IS 'the values of a validated job record as profile_ingest hands them over: its scalar fields in js_job_record_fields'' order, the dependency list as one array per field, the record itself (docs/record-format.md)';

-- The values of a step record: its scalar fields in js_step_record_fields' order (argv and
-- task_list stay in the record), then the record.
CREATE TYPE js_data.step_record_values AS (
    format text, version bigint, cluster text, job_id bigint, step text, step_id bigint,
    array_job_id bigint, array_task_id bigint, node text, node_index bigint, nodes bigint, node_list text,
    cpus bigint, tasks bigint, local_tasks bigint, uid bigint, gid bigint, "user" text,
    start_ns bigint, end_ns bigint, elapsed_ns bigint, executable text, work_dir text,
    exit_code bigint, signal bigint, state text, profiled boolean, profile_reason text, profiler text,
    profiler_version text, slice_seconds bigint, workflow text, source text, writer_version text,
    written_ns bigint, truncated boolean,
    record jsonb
);
COMMENT ON TYPE js_data.step_record_values IS 'the values of a validated step record as profile_ingest hands them over: its scalar fields in js_step_record_fields'' order, the record itself (docs/record-format.md)';

-- The job record: as 009's ingest_job. The newer record (written_ns) wins; the fields an older
-- one captured and the newer lacks (job_record_keep's) are kept, from the stored row's columns
-- (the ingest writes them from the record it stores) and in the stored record by job_record_keep.
CREATE FUNCTION js_data.ingest_job_record(p_cluster smallint, p js_data.job_record_values) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    o js_data.jobs%ROWTYPE;    -- the stored row
    n js_data.jobs%ROWTYPE;    -- the row from p
    w js_data.jobs%ROWTYPE;    -- the winner, with the loser's kept fields
    l js_data.jobs%ROWTYPE;
    v_stale boolean := false;  -- the stored record is newer than p
    v_record jsonb := p.record;
    v_user text := p."user";
    v_new_deps boolean := true; -- the kept dependency list is p's (else the stored one's, in dependency_refs already)
    v_wf bigint;
BEGIN
    n.uid := p.uid; n.gid := p.gid; n.name := p.name; n.partition := p.partition; n.account := p.account;
    n.workflow_tag := p.workflow; n.submit_time := js_data.ns_to_time(p.submit_ns);
    n.start_time := js_data.ns_to_time(p.start_ns); n.end_time := js_data.ns_to_time(p.end_ns);
    n.state := p.state; n.exit_code := p.exit_code; n.num_nodes := p.nodes; n.num_cpus := p.cpus;
    n.num_tasks := p.tasks; n.nodelist := p.node_list; n.dependency := p.dependency; n.work_dir := p.work_dir;
    n.array_job_id := p.array_job_id; n.array_task_id := p.array_task_id; n.reason := p.reason;
    w := n;
    SELECT * INTO o FROM js_data.jobs WHERE cluster_id = p_cluster AND job_id = p.job_id FOR UPDATE;
    IF FOUND THEN
        v_stale := (o.record->>'written_ns')::bigint > p.written_ns;
        IF v_stale THEN
            v_record := js_data.job_record_keep(o.record, p.record);
            w := o; l := n;
            v_user := o.record->>'user';
            v_new_deps := o.dependency IS NULL AND p.dependency IS NOT NULL;
        ELSE
            v_record := js_data.job_record_keep(p.record, o.record);
            l := o;
            v_new_deps := p.dependency IS NOT NULL OR o.dependency IS NULL;
        END IF;
        w.account := coalesce(w.account, l.account); w.workflow_tag := coalesce(w.workflow_tag, l.workflow_tag);
        w.work_dir := coalesce(w.work_dir, l.work_dir); w.submit_time := coalesce(w.submit_time, l.submit_time);
        w.array_job_id := coalesce(w.array_job_id, l.array_job_id);
        w.array_task_id := coalesce(w.array_task_id, l.array_task_id);
        w.dependency := coalesce(w.dependency, l.dependency);
    END IF;
    w.uid := p.uid;  -- as 009: the uid of the record received, whichever record wins
    IF v_user IS NOT NULL THEN
        INSERT INTO js_data.users (cluster_id, uid, name) VALUES (p_cluster, w.uid, v_user)
            ON CONFLICT (cluster_id, uid) DO UPDATE SET name = excluded.name
            WHERE users.name IS DISTINCT FROM excluded.name;
    END IF;
    IF w.workflow_tag IS NOT NULL THEN
        INSERT INTO js_data.workflows (cluster_id, uid, tag, name) VALUES (p_cluster, w.uid, w.workflow_tag, w.workflow_tag)
            ON CONFLICT (cluster_id, uid, tag) WHERE tag IS NOT NULL DO NOTHING;
        SELECT workflow_id INTO v_wf FROM js_data.workflows
            WHERE cluster_id = p_cluster AND uid = w.uid AND tag = w.workflow_tag;
    ELSE
        v_wf := o.workflow_id;
        IF v_wf IS NULL THEN
            INSERT INTO js_data.workflows (cluster_id, uid, tag, name)
                VALUES (p_cluster, w.uid, NULL, coalesce(w.name, 'job ' || p.job_id))
                RETURNING workflow_id INTO v_wf;
        END IF;
    END IF;
    INSERT INTO js_data.jobs AS j (cluster_id, job_id, uid, gid, name, partition, account, workflow_tag,
            workflow_id, submit_time, start_time, end_time, state, exit_code, num_nodes, num_cpus,
            num_tasks, nodelist, dependency, work_dir, record, updated, array_job_id, array_task_id, reason)
        VALUES (p_cluster, p.job_id, w.uid, w.gid, w.name, w.partition, w.account, w.workflow_tag, v_wf,
            w.submit_time, w.start_time, w.end_time, w.state, w.exit_code, w.num_nodes, w.num_cpus, w.num_tasks,
            w.nodelist, w.dependency, w.work_dir, v_record, now(), w.array_job_id, w.array_task_id, w.reason)
        ON CONFLICT (cluster_id, job_id) DO UPDATE SET
            uid = excluded.uid, gid = excluded.gid, name = excluded.name, partition = excluded.partition,
            account = excluded.account, workflow_tag = excluded.workflow_tag,
            workflow_id = CASE WHEN excluded.workflow_tag IS NULL THEN j.workflow_id ELSE excluded.workflow_id END,
            submit_time = excluded.submit_time, start_time = excluded.start_time, end_time = excluded.end_time,
            state = excluded.state, exit_code = excluded.exit_code, num_nodes = excluded.num_nodes,
            num_cpus = excluded.num_cpus, num_tasks = excluded.num_tasks, nodelist = excluded.nodelist,
            dependency = excluded.dependency, work_dir = excluded.work_dir, record = excluded.record,
            updated = now(), array_job_id = excluded.array_job_id, array_task_id = excluded.array_task_id,
            reason = excluded.reason
        WHERE j.record IS DISTINCT FROM excluded.record;
    -- the workflow made above is not needed when the job already had one
    DELETE FROM js_data.workflows wf WHERE wf.cluster_id = p_cluster AND wf.workflow_id = v_wf AND wf.tag IS NULL
        AND NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = p_cluster AND j.workflow_id = v_wf);
    IF v_new_deps THEN
        INSERT INTO js_data.dependency_refs (cluster_id, to_job, ref_job, ref_task, condition)
            SELECT p_cluster, p.job_id, d.ref_job, d.ref_task, d.condition
            FROM unnest(p.dependencies_job_id, p.dependencies_array_task_id::integer[], p.dependencies_type)
                AS d(ref_job, ref_task, condition)
            WHERE d.ref_job IS NOT NULL
            ON CONFLICT DO NOTHING;
    END IF;
    PERFORM js_data.link_scheduler_edges(p_cluster, p.job_id);
    PERFORM js_data.merge_workflows(p_cluster, p.job_id);
END $$;
COMMENT ON FUNCTION js_data.ingest_job_record(smallint, js_data.job_record_values) IS 'upsert a job from the values of its validated record (the newer record wins, what the older one captured is kept): user, workflow, dependency references and scheduler edges';

-- The step record of one node: as 003's ingest_step_node.
CREATE FUNCTION js_data.ingest_step_record(p_cluster smallint, p js_data.step_record_values, p_profiles integer,
        p_quarantined integer, p_by text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    v_first bigint := floor(p.start_ns::numeric / 1e9 / p.slice_seconds);
    v_last bigint := floor(p.end_ns::numeric / 1e9 / p.slice_seconds);
    v_incomplete boolean := p_quarantined > 0;
BEGIN
    INSERT INTO js_data.step_nodes (cluster_id, job_id, step_id, node, start_time, end_time, state,
            exit_code, num_tasks, profiles, quarantined, incomplete, record, ingested_by)
        VALUES (p_cluster, p.job_id, p.step, p.node, js_data.ns_to_time(p.start_ns), js_data.ns_to_time(p.end_ns),
            p.state, p.exit_code, p.local_tasks, p_profiles, p_quarantined, v_incomplete, p.record, p_by)
        ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO js_data.steps AS s (cluster_id, job_id, step_id, name, start_time, end_time, state, exit_code,
            num_nodes, num_tasks, num_cpus, nodelist, profiled, first_slice, last_slice, nodes_ingested, incomplete)
        VALUES (p_cluster, p.job_id, p.step, p.executable, js_data.ns_to_time(p.start_ns), js_data.ns_to_time(p.end_ns),
            p.state, p.exit_code, p.nodes, p.tasks, p.cpus, p.node_list, p.profiled, v_first, v_last, 1, v_incomplete)
        ON CONFLICT (cluster_id, job_id, step_id) DO UPDATE SET
            start_time = least(s.start_time, excluded.start_time),
            end_time = greatest(s.end_time, excluded.end_time),
            state = CASE WHEN s.state = 'COMPLETED' THEN excluded.state ELSE s.state END,
            exit_code = greatest(s.exit_code, excluded.exit_code),
            num_cpus = coalesce(s.num_cpus, 0) + coalesce(excluded.num_cpus, 0),
            profiled = s.profiled OR excluded.profiled,
            first_slice = least(s.first_slice, excluded.first_slice),
            last_slice = greatest(s.last_slice, excluded.last_slice),
            nodes_ingested = s.nodes_ingested + 1,
            incomplete = s.incomplete OR excluded.incomplete;
    RETURN true;
END $$;
COMMENT ON FUNCTION js_data.ingest_step_record(smallint, js_data.step_record_values, integer, integer, text) IS 'insert the exactly-once key of a step record from the values of the validated record and merge the step; false when already ingested';

-- The start of a step record's transaction: as 008's ingest_begin, with the records' values
-- (p_job's job_id NULL: the job record is unchanged since this session wrote it).
DROP FUNCTION js_data.ingest_begin(smallint, jsonb, jsonb, integer, integer, text);
DROP FUNCTION js_data.ingest_step_node(smallint, jsonb, integer, integer, text);
CREATE FUNCTION js_data.ingest_begin(p_cluster smallint, p_job js_data.job_record_values,
        p_step js_data.step_record_values, p_profiles integer, p_quarantined integer, p_by text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    -- the key of live_begin's lock too
    IF NOT pg_try_advisory_xact_lock(hashtext(p_cluster || '/' || p_step.job_id::text),
                                     hashtext(p_step.step || '/' || p_step.node)) THEN
        RETURN 'busy';
    END IF;
    IF p_job.job_id IS NOT NULL THEN
        PERFORM js_data.ingest_job_record(p_cluster, p_job);
    END IF;
    IF NOT js_data.ingest_step_record(p_cluster, p_step, p_profiles, p_quarantined, p_by) THEN
        RETURN 'done';
    END IF;
    PERFORM js_data.live_clear(p_cluster, p_step.job_id, p_step.step, p_step.node);
    RETURN 'ok';
END $$;
COMMENT ON FUNCTION js_data.ingest_begin(smallint, js_data.job_record_values, js_data.step_record_values, integer, integer, text) IS 'claim a step record, upsert its job, insert its exactly-once key (and delete the step-node''s provisional rows), from the values of the validated records: ok, busy or done';

-- A live snapshot's transaction: as 008's live_begin, with the job record's values.
DROP FUNCTION js_data.live_begin(smallint, jsonb, bigint, text, text, bigint, bigint, integer, integer, text);
CREATE FUNCTION js_data.live_begin(p_cluster smallint, p_job js_data.job_record_values, p_job_id bigint, p_step text,
        p_node text, p_snapshot_ns bigint, p_start_ns bigint, p_profiles integer, p_running integer, p_by text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext(p_cluster || '/' || p_job_id::text), hashtext(p_step || '/' || p_node)) THEN
        RETURN 'busy';
    END IF;
    IF EXISTS (SELECT 1 FROM js_data.step_nodes WHERE cluster_id = p_cluster AND job_id = p_job_id
               AND step_id = p_step AND node = p_node) THEN
        RETURN 'done';
    END IF;
    IF EXISTS (SELECT 1 FROM js_data.live_step_nodes WHERE cluster_id = p_cluster AND job_id = p_job_id
               AND step_id = p_step AND node = p_node AND snapshot_time = js_data.ns_to_time(p_snapshot_ns)) THEN
        RETURN 'same';
    END IF;
    IF p_job.job_id IS NOT NULL THEN
        PERFORM js_data.ingest_job_record(p_cluster, p_job);
    END IF;
    PERFORM js_data.live_clear(p_cluster, p_job_id, p_step, p_node);
    INSERT INTO js_data.live_step_nodes (cluster_id, job_id, step_id, node, start_time, snapshot_time, profiles,
            running, ingested_by)
        VALUES (p_cluster, p_job_id, p_step, p_node, js_data.ns_to_time(p_start_ns), js_data.ns_to_time(p_snapshot_ns),
            p_profiles, p_running, p_by);
    RETURN 'ok';
END $$;
COMMENT ON FUNCTION js_data.live_begin(smallint, js_data.job_record_values, bigint, text, text, bigint, bigint, integer, integer, text) IS 'claim a running step-node and replace its provisional row from a live snapshot (and the job record''s values): ok, busy, done (step record ingested) or same (snapshot stored already)';

-- The JSON form is gone: records are parsed once, in profile_ingest (dbrecord.c).
DROP FUNCTION js_data.ingest_job(smallint, jsonb);
