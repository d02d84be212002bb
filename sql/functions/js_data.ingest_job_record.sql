-- SPDX-License-Identifier: GPL-2.0-or-later
-- The job record. The newer record (written_ns) wins; the fields an older
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
    -- two daemons (two receivers) may take records of one job at once: before its row exists,
    -- FOR UPDATE locks nothing, and the upsert of the one that commits last would overwrite the
    -- other's captures (workflow, dependency) whole
    PERFORM pg_advisory_xact_lock(hashtext(p_cluster || '/' || p.job_id::text), hashtext('job record'));
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
        -- a COMPLETING job's record leaves its counts out (joblog: they shrink as nodes finish)
        w.num_nodes := coalesce(w.num_nodes, l.num_nodes); w.nodelist := coalesce(w.nodelist, l.nodelist);
        w.num_cpus := coalesce(w.num_cpus, l.num_cpus);
    END IF;
    w.uid := p.uid;  -- the uid of the record received, whichever record wins
    -- the user's row locked only when it changes: every job of the user upserts it, and two
    -- daemons' transactions of many records each would wait for each other on it
    IF v_user IS NOT NULL AND NOT EXISTS (SELECT 1 FROM js_data.users u
                                          WHERE u.cluster_id = p_cluster AND u.uid = w.uid AND u.name = v_user) THEN
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
