-- jobscreen schema, migration 009: job arrays and how a job ended (issue 14).
-- Jobs keep their array job id and task index and Slurm's state reason; a dependency on a whole
-- array links every task of it, whichever arrives first (docs/dependencies.md); a newer job
-- record no longer wipes what an older one captured and Slurm forgot (dependency, workflow).
-- Views gain columns at their end only (CREATE OR REPLACE VIEW keeps what stands on them).

ALTER TABLE js_data.jobs ADD COLUMN array_job_id bigint, ADD COLUMN array_task_id integer, ADD COLUMN reason text;
COMMENT ON COLUMN js_data.jobs.array_job_id IS 'job id of the array this job is a task of (Slurm''s ArrayJobId), NULL if none';
COMMENT ON COLUMN js_data.jobs.array_task_id IS 'index of this task in its array (35_1: 1), NULL if none';
COMMENT ON COLUMN js_data.jobs.reason IS 'Slurm''s reason for the job''s state: why a job that never started waited (DependencyNeverSatisfied, JobHeldUser), why one ended (TimeLimit, NonZeroExitCode); NULL when Slurm gave none';
CREATE INDEX jobs_array ON js_data.jobs (cluster_id, array_job_id) WHERE array_job_id IS NOT NULL;

-- The references of the job records' dependency lists: what the scheduler edges are made from.
CREATE TABLE js_data.dependency_refs (
    cluster_id  smallint NOT NULL,
    to_job      bigint NOT NULL,
    ref_job     bigint NOT NULL,
    ref_task    integer,
    condition   text NOT NULL
);
CREATE UNIQUE INDEX dependency_refs_key ON js_data.dependency_refs (cluster_id, to_job, ref_job, (coalesce(ref_task, -1)), condition);
CREATE INDEX dependency_refs_ref ON js_data.dependency_refs (cluster_id, ref_job);
COMMENT ON TABLE js_data.dependency_refs IS 'the jobs a job record''s dependency list names (one row per element with a job id); the scheduler edges are these resolved to jobs';
COMMENT ON COLUMN js_data.dependency_refs.cluster_id IS 'cluster of both jobs';
COMMENT ON COLUMN js_data.dependency_refs.to_job IS 'the dependant job';
COMMENT ON COLUMN js_data.dependency_refs.ref_job IS 'the job id named (afterok:35 and afterok:35_1: 35), a job or an array';
COMMENT ON COLUMN js_data.dependency_refs.ref_task IS 'the array task named (35_1: 1); NULL: the whole job, or every task of the array';
COMMENT ON COLUMN js_data.dependency_refs.condition IS 'dependency type (afterok, afterany, ...)';

-- The scheduler edges of one job, as dependant and as upstream, from the references stored so
-- far: a whole reference (ref_task NULL) gives an edge from the job of that id (kept even
-- before that job arrives) and from every task of the array of that id; a task reference only
-- from that task.  Called whenever a job record is ingested, so arrival order does not matter.
CREATE FUNCTION js_data.link_scheduler_edges(p_cluster smallint, p_job bigint) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, condition)
        SELECT p_cluster, 'scheduler', r.ref_job, r.to_job, r.condition
        FROM js_data.dependency_refs r
        WHERE r.cluster_id = p_cluster AND r.to_job = p_job AND r.ref_task IS NULL
        ON CONFLICT DO NOTHING;
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, condition)
        SELECT p_cluster, 'scheduler', j.job_id, r.to_job, r.condition
        FROM js_data.dependency_refs r
        JOIN js_data.jobs j ON j.cluster_id = r.cluster_id AND j.array_job_id = r.ref_job
             AND (r.ref_task IS NULL OR r.ref_task = j.array_task_id)
        WHERE r.cluster_id = p_cluster AND r.to_job = p_job
        ON CONFLICT DO NOTHING;
    INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, condition)
        SELECT p_cluster, 'scheduler', j.job_id, r.to_job, r.condition
        FROM js_data.jobs j
        JOIN js_data.dependency_refs r ON r.cluster_id = j.cluster_id AND r.ref_job = j.array_job_id
             AND (r.ref_task IS NULL OR r.ref_task = j.array_task_id)
        WHERE j.cluster_id = p_cluster AND j.job_id = p_job
        ON CONFLICT DO NOTHING;
$$;
COMMENT ON FUNCTION js_data.link_scheduler_edges(smallint, bigint) IS 'the scheduler edges of a job as dependant and as upstream (array tasks included) from js_data.dependency_refs';

-- What an older record captured while the job was alive and a newer one lacks (a record
-- written where the plugin's was not: another node's epilog, the controller's): kept, as
-- joblog keeps it in one spool (joblog_job_merge_previous).
CREATE FUNCTION js_data.job_record_keep(newer jsonb, older jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE k text;
BEGIN
    FOREACH k IN ARRAY ARRAY['workflow', 'batch_script', 'work_dir', 'account', 'qos', 'submit_ns', 'eligible_ns',
                             'array_job_id', 'array_task_id'] LOOP
        IF jsonb_typeof(newer->k) IS DISTINCT FROM 'string' AND jsonb_typeof(newer->k) IS DISTINCT FROM 'number'
           AND older ? k AND jsonb_typeof(older->k) <> 'null' THEN
            newer := jsonb_set(newer, ARRAY[k], older->k);
        END IF;
    END LOOP;
    IF jsonb_typeof(newer->'dependency') IS DISTINCT FROM 'string' AND jsonb_typeof(older->'dependency') = 'string' THEN
        newer := newer || jsonb_build_object('dependency', older->'dependency', 'dependencies', older->'dependencies',
                                             'dependency_any', older->'dependency_any',
                                             'dependency_parse_error', older->'dependency_parse_error');
    END IF;
    IF (older->>'batch')::boolean THEN
        newer := jsonb_set(newer, '{batch}', 'true');
    END IF;
    RETURN newer;
END $$;
COMMENT ON FUNCTION js_data.job_record_keep(jsonb, jsonb) IS 'the newer job record, with what the older one captured and the newer lacks (dependency, workflow, batch script, ...)';

-- The job record: as in 003, plus the array columns and the reason, records merged
-- (job_record_keep: the newest wins field by field where it knows the field), the dependency
-- list kept as references and resolved by link_scheduler_edges.
CREATE OR REPLACE FUNCTION js_data.ingest_job(p_cluster smallint, r jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_job bigint := (r->>'job_id')::bigint;
    v_uid integer := (r->>'uid')::integer;
    v_old jsonb;
    v_tag text;
    v_wf bigint;
    d jsonb;
BEGIN
    SELECT record INTO v_old FROM js_data.jobs WHERE cluster_id = p_cluster AND job_id = v_job FOR UPDATE;
    IF v_old IS NOT NULL THEN
        IF (v_old->>'written_ns')::bigint > (r->>'written_ns')::bigint THEN
            r := js_data.job_record_keep(v_old, r);
        ELSE
            r := js_data.job_record_keep(r, v_old);
        END IF;
    END IF;
    v_tag := r->>'workflow';
    IF r->>'user' IS NOT NULL THEN
        INSERT INTO js_data.users (cluster_id, uid, name) VALUES (p_cluster, v_uid, r->>'user')
            ON CONFLICT (cluster_id, uid) DO UPDATE SET name = excluded.name
            WHERE users.name IS DISTINCT FROM excluded.name;
    END IF;
    IF v_tag IS NOT NULL THEN
        INSERT INTO js_data.workflows (cluster_id, uid, tag, name) VALUES (p_cluster, v_uid, v_tag, v_tag)
            ON CONFLICT (cluster_id, uid, tag) WHERE tag IS NOT NULL DO NOTHING;
        SELECT workflow_id INTO v_wf FROM js_data.workflows
            WHERE cluster_id = p_cluster AND uid = v_uid AND tag = v_tag;
    ELSE
        SELECT workflow_id INTO v_wf FROM js_data.jobs WHERE cluster_id = p_cluster AND job_id = v_job;
        IF v_wf IS NULL THEN
            INSERT INTO js_data.workflows (cluster_id, uid, tag, name)
                VALUES (p_cluster, v_uid, NULL, coalesce(r->>'name', 'job ' || v_job))
                RETURNING workflow_id INTO v_wf;
        END IF;
    END IF;
    INSERT INTO js_data.jobs AS j (cluster_id, job_id, uid, gid, name, partition, account, workflow_tag,
            workflow_id, submit_time, start_time, end_time, state, exit_code, num_nodes, num_cpus,
            num_tasks, nodelist, dependency, work_dir, record, updated, array_job_id, array_task_id, reason)
        VALUES (p_cluster, v_job, v_uid, (r->>'gid')::integer, r->>'name', r->>'partition', r->>'account',
            v_tag, v_wf, js_data.ns_to_time((r->>'submit_ns')::bigint), js_data.ns_to_time((r->>'start_ns')::bigint),
            js_data.ns_to_time((r->>'end_ns')::bigint), r->>'state', (r->>'exit_code')::integer,
            (r->>'nodes')::integer, (r->>'cpus')::integer, (r->>'tasks')::integer, r->>'node_list',
            r->>'dependency', r->>'work_dir', r, now(), (r->>'array_job_id')::bigint,
            (r->>'array_task_id')::integer, r->>'reason')
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
    DELETE FROM js_data.workflows w WHERE w.cluster_id = p_cluster AND w.workflow_id = v_wf AND w.tag IS NULL
        AND NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = p_cluster AND j.workflow_id = v_wf);
    FOR d IN SELECT * FROM jsonb_array_elements(coalesce(r->'dependencies', '[]'::jsonb)) LOOP
        IF d->>'job_id' IS NOT NULL THEN
            INSERT INTO js_data.dependency_refs (cluster_id, to_job, ref_job, ref_task, condition)
                VALUES (p_cluster, v_job, (d->>'job_id')::bigint, (d->>'array_task_id')::integer, d->>'type')
                ON CONFLICT DO NOTHING;
        END IF;
    END LOOP;
    PERFORM js_data.link_scheduler_edges(p_cluster, v_job);
    PERFORM js_data.merge_workflows(p_cluster, v_job);
END $$;

-- Derived workflows: as in 003, and the tasks of one array are one workflow (one submission).
CREATE OR REPLACE FUNCTION js_data.merge_workflows(p_cluster smallint, p_job bigint) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    pair record;
    keep bigint;
    gone bigint;
    merged integer := 0;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM js_data.jobs WHERE cluster_id = p_cluster AND job_id = p_job AND workflow_tag IS NULL) THEN
        RETURN 0;   -- a tagged job keeps its workflow
    END IF;
    LOOP
        SELECT a.workflow_id AS wa, b.workflow_id AS wb INTO pair
            FROM (SELECT from_job, to_job FROM js_data.dependencies WHERE cluster_id = p_cluster AND from_job = p_job
                  UNION ALL
                  SELECT from_job, to_job FROM js_data.dependencies WHERE cluster_id = p_cluster AND to_job = p_job
                  UNION ALL
                  SELECT t.job_id, p_job FROM js_data.jobs me
                  JOIN js_data.jobs t ON t.cluster_id = me.cluster_id AND t.array_job_id = me.array_job_id
                  WHERE me.cluster_id = p_cluster AND me.job_id = p_job AND t.job_id <> p_job) d
            JOIN js_data.jobs a ON a.cluster_id = p_cluster AND a.job_id = d.from_job
            JOIN js_data.jobs b ON b.cluster_id = p_cluster AND b.job_id = d.to_job
            WHERE a.uid = b.uid AND a.workflow_tag IS NULL AND b.workflow_tag IS NULL
              AND a.workflow_id <> b.workflow_id
            LIMIT 1;
        EXIT WHEN NOT FOUND;
        keep := least(pair.wa, pair.wb);
        gone := greatest(pair.wa, pair.wb);
        UPDATE js_data.jobs SET workflow_id = keep WHERE cluster_id = p_cluster AND workflow_id = gone;
        DELETE FROM js_data.workflows WHERE cluster_id = p_cluster AND workflow_id = gone;
        merged := merged + 1;
    END LOOP;
    RETURN merged;
END $$;

-- Existing databases: the columns from the records kept in js_data.jobs.record, the references
-- from their dependency lists, the scheduler edges of the dependants rebuilt from them (a task
-- reference gave an edge from the array's job id before), and arrays merged.
UPDATE js_data.jobs SET array_job_id = (record->>'array_job_id')::bigint,
                        array_task_id = (record->>'array_task_id')::integer,
                        reason = record->>'reason';
INSERT INTO js_data.dependency_refs (cluster_id, to_job, ref_job, ref_task, condition)
    SELECT j.cluster_id, j.job_id, (d->>'job_id')::bigint, (d->>'array_task_id')::integer, d->>'type'
    FROM js_data.jobs j, jsonb_array_elements(coalesce(j.record->'dependencies', '[]'::jsonb)) d
    WHERE d->>'job_id' IS NOT NULL
    ON CONFLICT DO NOTHING;
DELETE FROM js_data.dependencies e WHERE e.kind = 'scheduler'
    AND EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = e.cluster_id AND j.job_id = e.to_job);
SELECT js_data.link_scheduler_edges(cluster_id, job_id) FROM js_data.jobs
    WHERE EXISTS (SELECT 1 FROM js_data.dependency_refs r WHERE r.cluster_id = jobs.cluster_id AND r.to_job = jobs.job_id);
SELECT js_data.merge_workflows(cluster_id, job_id) FROM js_data.jobs
    WHERE array_job_id IS NOT NULL
       OR EXISTS (SELECT 1 FROM js_data.dependency_refs r WHERE r.cluster_id = jobs.cluster_id AND r.to_job = jobs.job_id);

CREATE OR REPLACE VIEW js.jobs AS
    SELECT j.cluster_id, c.name AS cluster, j.job_id, j.uid, u.name AS user_name, j.gid, j.name, j.partition,
           j.account, j.workflow_id, w.name AS workflow_name, j.workflow_tag, j.submit_time, j.start_time,
           j.end_time, extract(epoch FROM j.end_time - j.start_time)::double precision AS elapsed_s,
           j.state, j.exit_code, j.num_nodes, j.num_cpus, j.num_tasks, j.nodelist, j.dependency, j.work_dir,
           (j.record->>'final')::boolean AS final,
           (SELECT count(*) FROM js_data.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id)::integer AS steps,
           EXISTS (SELECT 1 FROM js_data.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id AND s.incomplete) AS incomplete,
           (SELECT count(DISTINCT l.step_id) FROM js_data.live_step_nodes l
            WHERE l.cluster_id = j.cluster_id AND l.job_id = j.job_id)::integer AS running_steps,
           j.array_job_id, j.array_task_id, j.reason
    FROM js_data.jobs j
    JOIN js_data.clusters c USING (cluster_id)
    LEFT JOIN js_data.users u ON u.cluster_id = j.cluster_id AND u.uid = j.uid
    LEFT JOIN js_data.workflows w ON w.cluster_id = j.cluster_id AND w.workflow_id = j.workflow_id;
COMMENT ON VIEW js.jobs IS 'jobs with user and workflow names; final is false while the record was written before the job ended; running_steps counts the steps with provisional data (running); array_job_id/array_task_id name an array task (35_1); reason is Slurm''s state reason (a job that never started: why it waited)';
