-- The SQL of jobscreen.cgi: one named query per "-- name:" line, compiled into the CGI by
-- sql2c.awk. It reads only the views of schema js (sql/004_views.sql, docs/schema.md).
--
-- Every query takes the viewer first:
--   $1  the authenticated user name (REMOTE_USER)
--   $2  't' when the viewer is an admin, else 'f'
--   $3  cluster name to restrict to, or NULL for any
-- and filters by them with js.may_see($1, $2, $3, owner, cluster) on the job, workflow or user
-- that owns what it reads (sql/034_access.sql: the rule, stated once and inlined by the planner;
-- the export's jobs: js.exported_jobs): a non-admin gets rows of their own jobs only. $1
-- appears nowhere else (tests/unit/queries-access.sh). Other parameters are listed per query.
-- Times leave as seconds since the epoch (double precision).
-- Keys of the tables lead with cluster_id: a lookup by job or file id names the clusters
-- (cluster_id = ANY (ARRAY(SELECT ... FROM js.clusters ...))) so that it is an index seek per
-- cluster, not a scan over every job.

-- name: workflows
-- $4 owner (NULL: all users; admins only) $5 from $6 to (epoch s) $7 state $8 job name part
-- $9 workflow name part $10 limit. Newest first submit first, as the job list: every user's
-- through one index, or the owner's per cluster through another (sql/027_workflow_summary.sql),
-- each stopping at the limit; the states of the jobs counted for the rows returned only.
SELECT w.id, w.cluster, w.user, w.workflow, w.tag, w.derived, w.jobs, w.jobs_not_ok, w.submit,
       w.start, w."end",
       (SELECT jsonb_object_agg(coalesce(s.state, 'UNKNOWN'), s.n)
          FROM (SELECT j.state, count(*) AS n FROM js.jobs j
                 WHERE j.cluster_id = w.cluster_id AND j.workflow_id = w.id
                 GROUP BY j.state) s) AS states
FROM (
    (SELECT w.workflow_id AS id, w.cluster, w.user_name AS user, w.name AS workflow, w.tag, w.derived,
            w.jobs, w.jobs_not_ok,
            extract(epoch FROM w.first_submit)::float8 AS submit,
            extract(epoch FROM w.first_start)::float8 AS start,
            extract(epoch FROM w.last_end)::float8 AS "end", w.cluster_id
     FROM js.workflows w
     WHERE $2::boolean AND $4::text IS NULL AND js.may_see($1, $2, $3, w.user_name, w.cluster)
       AND ($5::bigint IS NULL OR coalesce(w.last_end, now()) >= to_timestamp($5::bigint))
       AND ($6::bigint IS NULL OR coalesce(w.first_start, w.first_submit) <= to_timestamp($6::bigint))
       AND ($7::text IS NULL OR EXISTS (SELECT 1 FROM js.jobs j WHERE j.cluster_id = w.cluster_id
                                          AND j.workflow_id = w.workflow_id AND j.state = $7))
       AND ($8::text IS NULL OR EXISTS (SELECT 1 FROM js.jobs j WHERE j.cluster_id = w.cluster_id
                                          AND j.workflow_id = w.workflow_id
                                          AND strpos(lower(j.name), lower($8)) > 0))
       AND ($9::text IS NULL OR strpos(lower(w.name), lower($9)) > 0)
     ORDER BY w.first_submit DESC NULLS LAST, w.workflow_id DESC
     LIMIT $10::integer)
    UNION ALL
    (SELECT x.* FROM js.users u CROSS JOIN LATERAL (
         SELECT w.workflow_id AS id, w.cluster, w.user_name AS user, w.name AS workflow, w.tag, w.derived,
               w.jobs, w.jobs_not_ok,
               extract(epoch FROM w.first_submit)::float8 AS submit,
               extract(epoch FROM w.first_start)::float8 AS start,
               extract(epoch FROM w.last_end)::float8 AS "end", w.cluster_id
         FROM js.workflows w
         WHERE w.cluster_id = u.cluster_id AND w.uid = u.uid
           AND ($5::bigint IS NULL OR coalesce(w.last_end, now()) >= to_timestamp($5::bigint))
           AND ($6::bigint IS NULL OR coalesce(w.first_start, w.first_submit) <= to_timestamp($6::bigint))
           AND ($7::text IS NULL OR EXISTS (SELECT 1 FROM js.jobs j WHERE j.cluster_id = w.cluster_id
                                              AND j.workflow_id = w.workflow_id AND j.state = $7))
           AND ($8::text IS NULL OR EXISTS (SELECT 1 FROM js.jobs j WHERE j.cluster_id = w.cluster_id
                                              AND j.workflow_id = w.workflow_id
                                              AND strpos(lower(j.name), lower($8)) > 0))
           AND ($9::text IS NULL OR strpos(lower(w.name), lower($9)) > 0)
         ORDER BY w.first_submit DESC NULLS LAST, w.workflow_id DESC
         LIMIT $10::integer) x
     WHERE u.user_name = $4::text AND js.may_see($1, $2, $3, u.user_name, u.cluster))
) w
ORDER BY w.submit DESC NULLS LAST, w.id DESC
LIMIT $10::integer

-- name: jobs
-- the same parameters as workflows. Newest first, in one of two ways (the parameters are known
-- when the statement is planned, so the other part is dropped): every user's jobs through the
-- index in this order (admins, no owner), or the owner's, per cluster through the index by
-- user and submit time, each stopping at the limit (sql/026_lists.sql). Each returned job's
-- usage over its steps but extern (CPU time, peak memory, bytes), as the job endpoint's.
SELECT j.id, j.cluster, j.name, j.user, j.workflow_id, j.workflow, j.workflow_tag, j.state, j.exit_code,
       j.submit, j.start, j."end", j.nodes, j.cpus, j.steps, j.incomplete, j.running_steps, j.live,
       j.array_job_id, j.array_task_id, j.reason,
       u.cpu_ns, u.max_rss_kib, u.read_bytes, u.write_bytes, u.profiled_steps
FROM (
    (SELECT j.job_id AS id, j.cluster, j.name, j.user_name AS user, j.workflow_id,
           j.workflow_name AS workflow, j.workflow_tag, j.state, j.exit_code,
           extract(epoch FROM j.submit_time)::float8 AS submit,
           extract(epoch FROM j.start_time)::float8 AS start,
           extract(epoch FROM j.end_time)::float8 AS "end",
           j.num_nodes AS nodes, j.num_cpus AS cpus, j.steps, j.incomplete,
           j.running_steps, j.running_steps > 0 AS live, j.array_job_id, j.array_task_id, j.reason, j.cluster_id
     FROM js.jobs j
     WHERE $2::boolean AND $4::text IS NULL AND js.may_see($1, $2, $3, j.user_name, j.cluster)
       AND ($5::bigint IS NULL OR coalesce(j.end_time, now()) >= to_timestamp($5::bigint))
       AND ($6::bigint IS NULL OR coalesce(j.start_time, j.submit_time) <= to_timestamp($6::bigint))
       AND ($7::text IS NULL OR j.state = $7)
       AND ($8::text IS NULL OR strpos(lower(j.name), lower($8)) > 0)
       AND ($9::text IS NULL OR strpos(lower(j.workflow_name), lower($9)) > 0)
     ORDER BY j.submit_time DESC NULLS LAST, j.job_id DESC
     LIMIT $10::integer)
    UNION ALL
    (SELECT x.* FROM js.users u CROSS JOIN LATERAL (
         SELECT j.job_id AS id, j.cluster, j.name, j.user_name AS user, j.workflow_id,
               j.workflow_name AS workflow, j.workflow_tag, j.state, j.exit_code,
               extract(epoch FROM j.submit_time)::float8 AS submit,
               extract(epoch FROM j.start_time)::float8 AS start,
               extract(epoch FROM j.end_time)::float8 AS "end",
               j.num_nodes AS nodes, j.num_cpus AS cpus, j.steps, j.incomplete,
               j.running_steps, j.running_steps > 0 AS live, j.array_job_id, j.array_task_id, j.reason, j.cluster_id
         FROM js.jobs j
         WHERE j.cluster_id = u.cluster_id AND j.uid = u.uid
           AND ($5::bigint IS NULL OR coalesce(j.end_time, now()) >= to_timestamp($5::bigint))
           AND ($6::bigint IS NULL OR coalesce(j.start_time, j.submit_time) <= to_timestamp($6::bigint))
           AND ($7::text IS NULL OR j.state = $7)
           AND ($8::text IS NULL OR strpos(lower(j.name), lower($8)) > 0)
           AND ($9::text IS NULL OR strpos(lower(j.workflow_name), lower($9)) > 0)
         ORDER BY j.submit_time DESC NULLS LAST, j.job_id DESC
         LIMIT $10::integer) x
     WHERE u.user_name = $4::text AND js.may_see($1, $2, $3, u.user_name, u.cluster))
) j
LEFT JOIN LATERAL (
    SELECT sum(s.cpu_ns)::bigint AS cpu_ns, max(s.max_rss_kib) AS max_rss_kib,
           sum(s.read_bytes)::bigint AS read_bytes, sum(s.write_bytes)::bigint AS write_bytes,
           count(*) FILTER (WHERE s.profiled) AS profiled_steps
    FROM js.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.id AND s.step_id <> 'extern') u ON true
ORDER BY j.submit DESC NULLS LAST, j.id DESC
LIMIT $10::integer

-- name: job_workflow
-- $4 job id: the workflow of a job the viewer may see
SELECT j.workflow_id FROM js.jobs j
WHERE js.may_see($1, $2, $3, j.user_name, j.cluster)
  AND j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
ORDER BY j.cluster_id
LIMIT 1

-- name: workflow
-- $4 workflow id
SELECT w.workflow_id AS id, w.cluster, w.user_name AS user, w.name AS workflow, w.tag, w.derived,
       w.jobs, w.jobs_not_ok,
       extract(epoch FROM w.first_submit)::float8 AS submit,
       extract(epoch FROM w.first_start)::float8 AS start,
       extract(epoch FROM w.last_end)::float8 AS "end"
FROM js.workflows w
WHERE js.may_see($1, $2, $3, w.user_name, w.cluster)
  AND w.workflow_id = $4::bigint
ORDER BY w.cluster_id
LIMIT 1

-- name: workflow_jobs
-- $4 workflow id: its jobs as the graph draws them (the job tab reads the rest through job=).
-- The CGI writes them as arrays (docs/api.md, workflow).
SELECT j.job_id AS id, j.name, j.state,
       extract(epoch FROM j.submit_time)::float8 AS submit,
       extract(epoch FROM j.start_time)::float8 AS start,
       extract(epoch FROM j.end_time)::float8 AS "end",
       j.array_job_id, j.array_task_id
FROM js.jobs j
WHERE js.may_see($1, $2, $3, j.user_name, j.cluster)
  AND j.workflow_id = $4::bigint
ORDER BY j.start_time NULLS LAST, j.job_id

-- name: workflow_steps
-- $4 workflow id: the steps the graph draws, per job: its numbered steps, or the others but
-- extern when it has none (the batch step wraps the numbered ones), each with its runtime
-- share summed over its processes and its files counted per access mode. Running steps
-- (live snapshots, no step record yet) come from js.steps too.
WITH w AS MATERIALIZED (
    SELECT j.cluster_id, j.job_id FROM js.jobs j
    WHERE js.may_see($1, $2, $3, j.user_name, j.cluster)
      AND j.workflow_id = $4::bigint),
k AS MATERIALIZED (SELECT min(cluster_id) AS cluster_id, array_agg(job_id) AS jobs FROM w),
s AS (
    SELECT s.job_id, s.step_id, s.start_time, s.end_time, s.compute_ns, s.mpi_p2p_ns, s.mpi_coll_ns,
           s.io_posix_ns, s.io_stdio_ns, s.io_mpiio_ns, s.mpi_setup_ns, s.cpu_wait_ns, s.idle_ns,
           bool_or(s.step_id ~ '^[0-9]+$') OVER (PARTITION BY s.job_id) AS numbered
    FROM js.steps s
    WHERE s.cluster_id = (SELECT cluster_id FROM k) AND s.job_id = ANY ((SELECT jobs FROM k)::bigint[])
      AND s.step_id <> 'extern'),
f AS (
    SELECT a.job_id, a.step_id,
           count(DISTINCT a.file_id) FILTER (WHERE a.mode = 'r') AS r,
           count(DISTINCT a.file_id) FILTER (WHERE a.mode = 'rw') AS rw,
           count(DISTINCT a.file_id) FILTER (WHERE a.mode = 'w') AS w
    FROM js.file_accesses a
    WHERE a.cluster_id = (SELECT cluster_id FROM k) AND a.job_id = ANY ((SELECT jobs FROM k)::bigint[])
      AND a.step_id <> 'extern'
    GROUP BY a.job_id, a.step_id)
SELECT s.job_id, s.step_id AS step,
       extract(epoch FROM s.start_time)::float8 AS start,
       extract(epoch FROM s.end_time)::float8 AS "end",
       s.compute_ns, s.mpi_p2p_ns, s.mpi_coll_ns, s.io_posix_ns, s.io_stdio_ns, s.io_mpiio_ns,
       coalesce(s.mpi_setup_ns, 0) AS mpi_setup_ns, coalesce(s.cpu_wait_ns, 0) AS cpu_wait_ns,
       coalesce(s.idle_ns, 0) AS idle_ns,
       coalesce(f.r, 0) AS r, coalesce(f.rw, 0) AS rw, coalesce(f.w, 0) AS w
FROM s LEFT JOIN f ON f.job_id = s.job_id AND f.step_id = s.step_id
WHERE s.numbered IS NOT TRUE OR s.step_id ~ '^[0-9]+$'
ORDER BY s.job_id, s.start_time, s.step_id

-- name: workflow_step_names
-- $4 workflow id: the steps the graph draws (numbered steps, or the others but extern where a job
-- has none), summed per job name and step name: how many jobs and steps, how many did not
-- complete, wall time, CPU time and what the CPUs allowed (CPUs x elapsed), the largest peak
-- memory, bytes read and written, the runtime share (ns per category, summed over processes).
-- Most wall time first. The steps are read by key (cluster,
-- job ids), then joined to their jobs' names.
WITH w AS MATERIALIZED (
    SELECT j.cluster_id, j.job_id, j.name FROM js.jobs j
    WHERE js.may_see($1, $2, $3, j.user_name, j.cluster)
      AND j.workflow_id = $4::bigint),
k AS MATERIALIZED (SELECT min(cluster_id) AS cluster_id, array_agg(job_id) AS jobs FROM w),
s AS MATERIALIZED (
    SELECT s.job_id, s.name AS step_name, s.state, s.profiled,
           extract(epoch FROM s.end_time - s.start_time) AS elapsed, s.num_cpus, s.cpu_ns, s.max_rss_kib,
           s.read_bytes, s.write_bytes, s.compute_ns, s.mpi_p2p_ns + s.mpi_coll_ns + coalesce(s.mpi_setup_ns, 0) AS mpi_ns,
           s.io_posix_ns + s.io_stdio_ns + s.io_mpiio_ns AS io_ns, s.cpu_wait_ns, s.idle_ns,
           bool_or(s.step_id ~ '^[0-9]+$') OVER (PARTITION BY s.job_id) = (s.step_id ~ '^[0-9]+$') AS drawn
    FROM js.steps s
    WHERE s.cluster_id = (SELECT cluster_id FROM k) AND s.job_id = ANY ((SELECT jobs FROM k)::bigint[])
      AND s.step_id <> 'extern')
SELECT w.name AS job_name, s.step_name, count(DISTINCT s.job_id) AS jobs, count(*) AS steps,
       count(*) FILTER (WHERE s.state IS DISTINCT FROM 'COMPLETED') AS not_completed,
       count(*) FILTER (WHERE s.profiled) AS profiled,
       sum(s.elapsed)::float8 AS elapsed_s,
       sum(s.cpu_ns) FILTER (WHERE s.profiled)::bigint AS cpu_ns,
       sum(s.elapsed * s.num_cpus) FILTER (WHERE s.profiled)::float8 AS cpu_alloc_s,
       max(s.max_rss_kib) AS max_rss_kib,
       sum(s.read_bytes)::bigint AS read_bytes, sum(s.write_bytes)::bigint AS write_bytes,
       jsonb_build_object('compute_ns', coalesce(sum(s.compute_ns), 0), 'mpi_ns', coalesce(sum(s.mpi_ns), 0),
                          'io_ns', coalesce(sum(s.io_ns), 0), 'cpu_wait_ns', coalesce(sum(s.cpu_wait_ns), 0),
                          'idle_ns', coalesce(sum(s.idle_ns), 0)) AS runtime
FROM s JOIN w ON w.job_id = s.job_id AND w.cluster_id = (SELECT cluster_id FROM k)
WHERE s.drawn
GROUP BY w.name, s.step_name
ORDER BY sum(s.elapsed) DESC NULLS LAST, w.name, s.step_name

-- name: workflow_edges
-- $4 workflow id: scheduler, time and file edges between its jobs, file edges per pair of steps
-- with the number of files (their names: workflow_edge_files). Both ends must be jobs of the
-- workflow, so an edge from another user's job (a file they wrote) never shows.
WITH w AS MATERIALIZED (
    SELECT j.cluster_id, j.job_id FROM js.jobs j
    WHERE js.may_see($1, $2, $3, j.user_name, j.cluster)
      AND j.workflow_id = $4::bigint)
SELECT d.kind, d.from_job, d.to_job, nullif(d.from_step, '') AS from_step, nullif(d.to_step, '') AS to_step,
       count(DISTINCT d.file_id) AS files
FROM js.dependencies d
WHERE d.cluster_id = (SELECT min(cluster_id) FROM w)
  AND d.from_job IN (SELECT job_id FROM w) AND d.to_job IN (SELECT job_id FROM w)
GROUP BY d.kind, d.from_job, d.from_step, d.to_job, d.to_step
ORDER BY d.from_job, d.to_job, d.kind

-- name: workflow_edge_detail
-- $4 workflow id, $5 from job, $6 to job: the edges from one job of the workflow to another,
-- with their evidence (file edges per pair of steps, up to 20 files named), as the viewer
-- shows them when an edge is clicked.
WITH w AS MATERIALIZED (
    SELECT j.cluster_id, j.job_id FROM js.jobs j
    WHERE js.may_see($1, $2, $3, j.user_name, j.cluster)
      AND j.workflow_id = $4::bigint)
SELECT d.kind, d.from_job, nullif(d.from_step, '') AS from_step, d.to_job, nullif(d.to_step, '') AS to_step,
       CASE d.kind
         WHEN 'scheduler' THEN jsonb_build_object('type', min(d.condition))
         WHEN 'time' THEN jsonb_build_object('gap_seconds', extract(epoch FROM min(d.to_time) - max(d.from_time)))
         ELSE jsonb_build_object('files', count(DISTINCT d.file_id),
                                 'file_ids', to_jsonb((array_agg(d.file_id ORDER BY d.path))[1:20]),
                                 'paths', to_jsonb((array_agg(d.path ORDER BY d.path))[1:20]),
                                 'last_write', extract(epoch FROM max(d.from_time)),
                                 'first_read', extract(epoch FROM min(d.to_time)))
       END AS evidence
FROM js.dependencies d
WHERE d.cluster_id = (SELECT min(cluster_id) FROM w)
  AND d.from_job = $5::bigint AND d.to_job = $6::bigint
  AND EXISTS (SELECT 1 FROM w WHERE w.cluster_id = d.cluster_id AND w.job_id = d.from_job)
  AND EXISTS (SELECT 1 FROM w WHERE w.cluster_id = d.cluster_id AND w.job_id = d.to_job)
GROUP BY d.kind, d.from_job, d.from_step, d.to_job, d.to_step
ORDER BY d.kind, d.from_step, d.to_step

-- name: job
-- $4 job id
SELECT j.job_id AS id, j.cluster, j.name, j.user_name AS user, j.workflow_id,
       j.workflow_name AS workflow, j.workflow_tag, j.partition, j.account, j.state, j.exit_code,
       extract(epoch FROM j.submit_time)::float8 AS submit,
       extract(epoch FROM j.start_time)::float8 AS start,
       extract(epoch FROM j.end_time)::float8 AS "end",
       j.num_nodes AS nodes, j.num_cpus AS cpus, j.num_tasks AS tasks, j.nodelist AS node_list,
       j.dependency, j.work_dir, j.final, j.incomplete, j.running_steps, j.running_steps > 0 AS live,
       j.array_job_id, j.array_task_id, j.reason, j.qos,
       extract(epoch FROM j.eligible_time)::float8 AS eligible, j.batch_script,
       coalesce((SELECT jsonb_agg(jsonb_build_object(
               'step', s.step_id, 'name', s.name, 'state', s.state, 'exit_code', s.exit_code,
               'start', extract(epoch FROM s.start_time), 'end', extract(epoch FROM s.end_time),
               'nodes', s.num_nodes, 'tasks', s.num_tasks, 'cpus', s.num_cpus,
               'node_list', s.nodelist, 'profiled', s.profiled, 'processes', s.processes,
               'incomplete', s.incomplete, 'incomplete_reason', s.incomplete_reason,
               'killed_processes', s.killed_processes, 'unrecorded_processes', s.unrecorded_processes,
               'read_bytes', s.read_bytes, 'write_bytes', s.write_bytes, 'live', s.live,
               'elapsed', s.elapsed_s, 'cpu_ns', s.cpu_ns, 'max_rss_kib', s.max_rss_kib,
               'runtime', jsonb_build_object('compute_ns', s.compute_ns, 'mpi_p2p_ns', s.mpi_p2p_ns,
                   'mpi_coll_ns', s.mpi_coll_ns, 'io_posix_ns', s.io_posix_ns,
                   'io_stdio_ns', s.io_stdio_ns, 'io_mpiio_ns', s.io_mpiio_ns,
                   'mpi_setup_ns', coalesce(s.mpi_setup_ns, 0), 'cpu_wait_ns', coalesce(s.cpu_wait_ns, 0),
                   'idle_ns', coalesce(s.idle_ns, 0)))
             ORDER BY s.start_time, s.step_id)
          FROM js.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id), '[]'::jsonb) AS steps,
       (SELECT jsonb_build_object('compute_ns', coalesce(sum(s.compute_ns), 0),
                   'mpi_p2p_ns', coalesce(sum(s.mpi_p2p_ns), 0), 'mpi_coll_ns', coalesce(sum(s.mpi_coll_ns), 0),
                   'io_posix_ns', coalesce(sum(s.io_posix_ns), 0), 'io_stdio_ns', coalesce(sum(s.io_stdio_ns), 0),
                   'io_mpiio_ns', coalesce(sum(s.io_mpiio_ns), 0), 'mpi_setup_ns', coalesce(sum(s.mpi_setup_ns), 0),
                   'cpu_wait_ns', coalesce(sum(s.cpu_wait_ns), 0), 'idle_ns', coalesce(sum(s.idle_ns), 0))
          FROM js.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id
            AND (s.step_id ~ '^[0-9]+$' OR NOT EXISTS (SELECT 1 FROM js.steps n WHERE n.cluster_id = j.cluster_id
                                                       AND n.job_id = j.job_id AND n.step_id ~ '^[0-9]+$'))
            AND s.step_id <> 'extern') AS runtime,
       j.elapsed_s AS elapsed,
       (SELECT jsonb_build_object('cpu_ns', sum(s.cpu_ns)::bigint, 'max_rss_kib', max(s.max_rss_kib),
                                  'read_bytes', sum(s.read_bytes)::bigint, 'write_bytes', sum(s.write_bytes)::bigint,
                                  'profiled_steps', count(*) FILTER (WHERE s.profiled))
          FROM js.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id
            AND s.step_id <> 'extern') AS usage
FROM js.jobs j
WHERE js.may_see($1, $2, $3, j.user_name, j.cluster)
  AND j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
ORDER BY j.cluster_id
LIMIT 1

-- name: job_edges
-- $4 job id: its edges to and from other jobs (never between its own steps), one row per other
-- job, direction and kind: the scheduler's condition, file edges with their number of files and
-- up to 3 of their paths. The other end must be a job the viewer may see, so another user's
-- job never shows.
WITH me AS MATERIALIZED (
    SELECT j.cluster_id, j.job_id FROM js.jobs j
    WHERE js.may_see($1, $2, $3, j.user_name, j.cluster)
      AND j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3))
      AND j.job_id = $4::bigint
    ORDER BY j.cluster_id LIMIT 1),
e AS (
    SELECT d.kind, 'in' AS direction, d.from_job AS other, d.cluster_id, d.condition, d.file_id, d.path
    FROM me JOIN js.dependencies d ON d.cluster_id = me.cluster_id AND d.to_job = me.job_id
    WHERE d.from_job <> me.job_id
    UNION ALL
    SELECT d.kind, 'out', d.to_job, d.cluster_id, d.condition, d.file_id, d.path
    FROM me JOIN js.dependencies d ON d.cluster_id = me.cluster_id AND d.from_job = me.job_id
    WHERE d.to_job <> me.job_id)
SELECT e.direction, e.kind, e.other AS job, o.name, o.state,
       min(e.condition) AS condition,
       count(DISTINCT e.file_id) AS files,
       to_jsonb((array_agg(DISTINCT e.path) FILTER (WHERE e.path IS NOT NULL))[1:3]) AS paths
FROM e
JOIN js.jobs o ON o.cluster_id = e.cluster_id AND o.job_id = e.other
WHERE js.may_see($1, $2, $3, o.user_name, o.cluster)
GROUP BY e.direction, e.kind, e.other, o.name, o.state
ORDER BY e.direction, e.other, e.kind

-- name: export_jobs
-- $4 workflow id or NULL, $5 job id or NULL, $6 limit: the jobs to export (docs/api.md, export),
-- the viewer's own only, with the JobLog fields of the reference's Table 4.1 and the others the
-- record has; times as ISO 8601 UTC.
SELECT j.job_id AS id, j.cluster, j.name, j.user_name AS user, j.workflow_id, j.workflow_name AS workflow,
       j.state, j.exit_code, j.reason,
       to_char(j.submit_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS submit,
       to_char(j.eligible_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS eligible,
       to_char(j.start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS start,
       to_char(j.end_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "end",
       j.num_nodes AS nodes, j.num_cpus AS cpus, j.num_tasks AS tasks, j.nodelist AS node_list, j.dependency,
       j.partition, j.account, j.qos, j.work_dir, j.batch_script, j.array_job_id, j.array_task_id
FROM js.exported_jobs($1, $2, $3, $4::bigint, $5::bigint, $6::integer) j
ORDER BY j.start_time NULLS LAST, j.job_id

-- name: export_steps
-- $4 $5 $6 as export_jobs: their steps but extern, with Table 4.2's fields, the runtime share
-- (ns per category, summed over the processes) and the step's sums
WITH e AS MATERIALIZED (
    SELECT x.cluster_id, x.job_id FROM js.exported_jobs($1, $2, $3, $4::bigint, $5::bigint, $6::integer) x)
SELECT s.job_id, s.step_id AS step, s.name, s.state, s.exit_code, s.num_nodes AS nodes, s.num_cpus AS cpus,
       s.num_tasks AS tasks, s.nodelist AS node_list,
       to_char(s.start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS start,
       to_char(s.end_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "end",
       s.elapsed_s AS elapsed, s.profiled, s.processes, s.incomplete_reason,
       s.compute_ns, s.mpi_p2p_ns, s.mpi_coll_ns, s.mpi_setup_ns, s.io_posix_ns, s.io_stdio_ns, s.io_mpiio_ns,
       s.cpu_wait_ns, s.idle_ns, s.cpu_ns, s.max_rss_kib, s.read_bytes, s.write_bytes
FROM e JOIN js.steps s ON s.cluster_id = e.cluster_id AND s.job_id = e.job_id
WHERE s.step_id <> 'extern'
ORDER BY s.job_id, s.start_time NULLS LAST, s.step_id

-- name: export_files
-- $4 $5 $6 as export_jobs: per job, step and file, merged over nodes: the I/O handles of the
-- reference's profile (the file, its access mode, the layers (paradigms) it was used through,
-- processes, calls, bytes)
WITH e AS MATERIALIZED (
    SELECT x.cluster_id, x.job_id FROM js.exported_jobs($1, $2, $3, $4::bigint, $5::bigint, $6::integer) x)
SELECT a.job_id, a.step_id AS step, a.path, a.scope,
       CASE WHEN bool_or(a.mode = 'rw') OR (bool_or(a.mode = 'r') AND bool_or(a.mode = 'w')) THEN 'rw'
            WHEN bool_or(a.mode = 'w') THEN 'w' ELSE 'r' END AS mode,
       string_agg(DISTINCT a.interfaces, ',') AS layers, sum(a.processes)::integer AS processes,
       sum(a.opens)::bigint AS opens, sum(a.reads)::bigint AS reads, sum(a.writes)::bigint AS writes,
       sum(a.bytes_read)::bigint AS read_bytes, sum(a.bytes_written)::bigint AS write_bytes
FROM e JOIN js.file_accesses a ON a.cluster_id = e.cluster_id AND a.job_id = e.job_id
WHERE a.step_id <> 'extern'
GROUP BY a.job_id, a.step_id, a.file_id, a.path, a.scope
ORDER BY a.job_id, a.step_id, a.path

-- name: export_summary
-- $4 $5 $6 as export_jobs: per job and step, each metric summed over its processes (calls,
-- bytes, time): the reference's summary of function calls
WITH e AS MATERIALIZED (
    SELECT x.cluster_id, x.job_id FROM js.exported_jobs($1, $2, $3, $4::bigint, $5::bigint, $6::integer) x)
SELECT d.job_id, d.step_id AS step, d.metric, d.sum
FROM e JOIN js.step_digest d ON d.cluster_id = e.cluster_id AND d.job_id = e.job_id
WHERE d.step_id <> 'extern' AND d.processes > 0
ORDER BY d.job_id, d.step_id, d.metric

-- name: job_files
-- $4 job id: the files its steps accessed, merged over steps and nodes
SELECT a.file_id AS id, a.path, a.scope, a.file_node,
       CASE WHEN bool_or(a.mode = 'rw') OR (bool_or(a.mode = 'r') AND bool_or(a.mode = 'w')) THEN 'rw'
            WHEN bool_or(a.mode = 'w') THEN 'w' ELSE 'r' END AS mode,
       jsonb_agg(DISTINCT a.step_id) AS steps,
       string_agg(DISTINCT a.interfaces, ',') AS layer,
       sum(a.bytes_read)::bigint AS read_bytes, sum(a.bytes_written)::bigint AS write_bytes,
       extract(epoch FROM min(a.first_access))::float8 AS first_access,
       extract(epoch FROM max(a.last_access))::float8 AS last_access
FROM js.file_accesses a
JOIN js.jobs j ON j.cluster_id = a.cluster_id AND j.job_id = a.job_id
WHERE js.may_see($1, $2, $3, j.user_name, j.cluster)
  AND a.job_id = $4::bigint
  AND j.cluster_id = (SELECT min(k.cluster_id) FROM js.jobs k WHERE k.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND k.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, k.user_name, k.cluster))
GROUP BY a.file_id, a.path, a.scope, a.file_node
ORDER BY a.path

-- name: step
-- $4 job id $5 step
SELECT s.job_id AS job, s.step_id AS step, j.cluster, c.slice_seconds, s.name, s.state, s.exit_code,
       extract(epoch FROM s.start_time)::float8 AS start,
       extract(epoch FROM s.end_time)::float8 AS "end",
       s.num_nodes AS nodes, s.num_tasks AS tasks, s.num_cpus AS cpus, s.nodelist AS node_list,
       s.profiled, s.incomplete, s.incomplete_reason, s.processes, s.killed_processes, s.unrecorded_processes,
       s.first_slice, s.last_slice,
       s.read_bytes, s.write_bytes, s.meta_calls, s.cpu_ns, s.wall_ns, s.max_rss_kib,
       s.unattributed_read_bytes, s.unattributed_write_bytes, s.kernel_io_unknown,
       jsonb_build_object('compute_ns', s.compute_ns, 'mpi_p2p_ns', s.mpi_p2p_ns,
           'mpi_coll_ns', s.mpi_coll_ns, 'io_posix_ns', s.io_posix_ns,
           'io_stdio_ns', s.io_stdio_ns, 'io_mpiio_ns', s.io_mpiio_ns,
                   'mpi_setup_ns', coalesce(s.mpi_setup_ns, 0), 'cpu_wait_ns', coalesce(s.cpu_wait_ns, 0),
                   'idle_ns', coalesce(s.idle_ns, 0)) AS runtime,
       coalesce((SELECT jsonb_agg(n.node ORDER BY n.node) FROM (
                   SELECT sn.node FROM js.step_nodes sn
                   WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id AND sn.step_id = s.step_id
                   UNION
                   SELECT ln.node FROM js.live_step_nodes ln
                   WHERE ln.cluster_id = s.cluster_id AND ln.job_id = s.job_id AND ln.step_id = s.step_id) n),
                '[]'::jsonb) AS node_names,
       s.live,
       (SELECT extract(epoch FROM max(ln.snapshot_time))::float8 FROM js.live_step_nodes ln
         WHERE ln.cluster_id = s.cluster_id AND ln.job_id = s.job_id AND ln.step_id = s.step_id) AS snapshot,
       s.files_dropped,
       coalesce((SELECT jsonb_agg(jsonb_build_object('tree', t.tree, 'processes', t.processes, 'opens', t.opens,
                                                     'read_bytes', t.read_bytes, 'write_bytes', t.write_bytes)
                                  ORDER BY t.read_bytes + t.write_bytes DESC, t.tree)
                 FROM js.step_trees t
                 WHERE t.cluster_id = s.cluster_id AND t.job_id = s.job_id AND t.step_id = s.step_id), '[]'::jsonb) AS software
FROM js.steps s
JOIN js.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id
JOIN js.clusters c ON c.cluster_id = s.cluster_id
WHERE js.may_see($1, $2, $3, j.user_name, j.cluster)
  AND s.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND s.job_id = $4::bigint AND s.step_id = $5
ORDER BY s.cluster_id
LIMIT 1

-- name: step_node_slices
-- $4 job id $5 step $6 node: the same on one node
SELECT s.slice, extract(epoch FROM s.slice_start)::float8 AS t, s.node, s.processes,
       to_jsonb(s) - ARRAY['cluster_id', 'job_id', 'step_id', 'slice', 'slice_start', 'node', 'processes'] AS m
FROM js.step_node_slices s
WHERE s.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND s.job_id = $4::bigint AND s.step_id = $5 AND s.node = $6
ORDER BY s.slice

-- name: step_digest
-- $4 job id $5 step: min/avg/max of each metric over the step's processes (those that have it:
-- profiles before format 4 lack the runtime and kernel figures)
SELECT d.metric, d.min, d.avg, d.max, d.sum, d.processes AS n
FROM js.step_digest d
WHERE d.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND d.job_id = $4::bigint AND d.step_id = $5 AND d.processes > 0
ORDER BY d.metric

-- name: step_processes
-- $4 job id $5 step $6 limit: the step's processes and how each ended; those that did not end
-- well (killed, end not seen, a non-zero exit status, something missing) first
SELECT p.node, p.pid, p.image, p.ppid, p.task_id AS task, p.mpi_rank AS rank, p.exe, p.origin,
       p.ended_by, p.exit_code, p.signal, p.missing,
       extract(epoch FROM p.start_time)::float8 AS start,
       extract(epoch FROM p.end_time)::float8 AS "end",
       p.wall_ns, (p.cpu_user_ns + p.cpu_sys_ns)::bigint AS cpu_ns, p.max_rss_kib
FROM js.processes p
WHERE p.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND p.job_id = $4::bigint AND p.step_id = $5
ORDER BY (p.ended_by IN ('signal', 'unknown') OR coalesce(p.exit_code, 0) <> 0 OR p.missing <> '') DESC,
         p.node, p.start_time, p.pid, p.image
LIMIT $6::integer

-- name: step_files
-- $4 job id $5 step: the files the step accessed, merged over its nodes
SELECT a.file_id AS id, a.path, a.scope, a.file_node,
       CASE WHEN bool_or(a.mode = 'rw') OR (bool_or(a.mode = 'r') AND bool_or(a.mode = 'w')) THEN 'rw'
            WHEN bool_or(a.mode = 'w') THEN 'w' ELSE 'r' END AS mode,
       string_agg(DISTINCT a.interfaces, ',') AS layer, sum(a.processes)::integer AS processes,
       sum(a.opens)::bigint AS opens, sum(a.reads)::bigint AS reads, sum(a.writes)::bigint AS writes,
       sum(a.bytes_read)::bigint AS read_bytes, sum(a.bytes_written)::bigint AS write_bytes,
       extract(epoch FROM min(a.first_access))::float8 AS first_access,
       extract(epoch FROM max(a.last_access))::float8 AS last_access
FROM js.file_accesses a
WHERE a.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND a.job_id = $4::bigint AND a.step_id = $5
GROUP BY a.file_id, a.path, a.scope, a.file_node
ORDER BY a.path

-- name: series_own
-- $4 job id $5 step $6 metric (NULL: every metric): the step's own encoded series (docs/schema.md,
-- "Series"; decoded by the CGI), summed over its folded step-nodes (count: nodes) and, pending,
-- those of its step-nodes still queued for the fold (count: processes, a node where above 0).
-- Every query named series_* returns these columns.
SELECT false AS pending, x.chunk, x.first_slice, x.slices, x.nodes AS count, x.processes,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_read_calls' THEN x.posix_read_calls END AS posix_read_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_read_bytes' THEN x.posix_read_bytes END AS posix_read_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_write_calls' THEN x.posix_write_calls END AS posix_write_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_write_bytes' THEN x.posix_write_bytes END AS posix_write_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_open_calls' THEN x.posix_open_calls END AS posix_open_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_meta_calls' THEN x.posix_meta_calls END AS posix_meta_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_ns' THEN x.posix_ns END AS posix_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_read_calls' THEN x.stdio_read_calls END AS stdio_read_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_read_bytes' THEN x.stdio_read_bytes END AS stdio_read_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_write_calls' THEN x.stdio_write_calls END AS stdio_write_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_write_bytes' THEN x.stdio_write_bytes END AS stdio_write_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_open_calls' THEN x.stdio_open_calls END AS stdio_open_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_meta_calls' THEN x.stdio_meta_calls END AS stdio_meta_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_ns' THEN x.stdio_ns END AS stdio_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'lower_read_bytes' THEN x.lower_read_bytes END AS lower_read_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'lower_write_bytes' THEN x.lower_write_bytes END AS lower_write_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_send_calls' THEN x.mpi_send_calls END AS mpi_send_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_send_bytes' THEN x.mpi_send_bytes END AS mpi_send_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_recv_calls' THEN x.mpi_recv_calls END AS mpi_recv_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_recv_bytes' THEN x.mpi_recv_bytes END AS mpi_recv_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_p2p_ns' THEN x.mpi_p2p_ns END AS mpi_p2p_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_coll_calls' THEN x.mpi_coll_calls END AS mpi_coll_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_coll_bytes' THEN x.mpi_coll_bytes END AS mpi_coll_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_coll_ns' THEN x.mpi_coll_ns END AS mpi_coll_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_read_calls' THEN x.mpiio_read_calls END AS mpiio_read_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_read_bytes' THEN x.mpiio_read_bytes END AS mpiio_read_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_write_calls' THEN x.mpiio_write_calls END AS mpiio_write_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_write_bytes' THEN x.mpiio_write_bytes END AS mpiio_write_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_coll_calls' THEN x.mpiio_coll_calls END AS mpiio_coll_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_meta_calls' THEN x.mpiio_meta_calls END AS mpiio_meta_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_ns' THEN x.mpiio_ns END AS mpiio_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'cpu_ns' THEN x.cpu_ns END AS cpu_ns
FROM js.series_step x
WHERE x.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND x.job_id = $4::bigint AND x.step_id = $5
UNION ALL
SELECT true, x.chunk, x.first_slice, x.slices, x.processes, x.processes,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_read_calls' THEN x.posix_read_calls END AS posix_read_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_read_bytes' THEN x.posix_read_bytes END AS posix_read_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_write_calls' THEN x.posix_write_calls END AS posix_write_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_write_bytes' THEN x.posix_write_bytes END AS posix_write_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_open_calls' THEN x.posix_open_calls END AS posix_open_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_meta_calls' THEN x.posix_meta_calls END AS posix_meta_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_ns' THEN x.posix_ns END AS posix_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_read_calls' THEN x.stdio_read_calls END AS stdio_read_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_read_bytes' THEN x.stdio_read_bytes END AS stdio_read_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_write_calls' THEN x.stdio_write_calls END AS stdio_write_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_write_bytes' THEN x.stdio_write_bytes END AS stdio_write_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_open_calls' THEN x.stdio_open_calls END AS stdio_open_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_meta_calls' THEN x.stdio_meta_calls END AS stdio_meta_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_ns' THEN x.stdio_ns END AS stdio_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'lower_read_bytes' THEN x.lower_read_bytes END AS lower_read_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'lower_write_bytes' THEN x.lower_write_bytes END AS lower_write_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_send_calls' THEN x.mpi_send_calls END AS mpi_send_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_send_bytes' THEN x.mpi_send_bytes END AS mpi_send_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_recv_calls' THEN x.mpi_recv_calls END AS mpi_recv_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_recv_bytes' THEN x.mpi_recv_bytes END AS mpi_recv_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_p2p_ns' THEN x.mpi_p2p_ns END AS mpi_p2p_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_coll_calls' THEN x.mpi_coll_calls END AS mpi_coll_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_coll_bytes' THEN x.mpi_coll_bytes END AS mpi_coll_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_coll_ns' THEN x.mpi_coll_ns END AS mpi_coll_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_read_calls' THEN x.mpiio_read_calls END AS mpiio_read_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_read_bytes' THEN x.mpiio_read_bytes END AS mpiio_read_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_write_calls' THEN x.mpiio_write_calls END AS mpiio_write_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_write_bytes' THEN x.mpiio_write_bytes END AS mpiio_write_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_coll_calls' THEN x.mpiio_coll_calls END AS mpiio_coll_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_meta_calls' THEN x.mpiio_meta_calls END AS mpiio_meta_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_ns' THEN x.mpiio_ns END AS mpiio_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'cpu_ns' THEN x.cpu_ns END AS cpu_ns
FROM js.series_step_pending x
WHERE x.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND x.job_id = $4::bigint AND x.step_id = $5

-- name: series_cluster
-- $4 job id $5 step $5 metric (NULL: every metric) $6 first slice $7 last slice (of the step):
-- the cluster's encoded series (every folded step-node; count: step-nodes) in their chunks.
-- Sums only: no job of anyone else is named.
SELECT false AS pending, x.chunk, x.first_slice, x.slices, x.step_nodes AS count, NULL::bytea AS processes,
       CASE WHEN $5::text IS NULL OR $5 = 'posix_read_calls' THEN x.posix_read_calls END AS posix_read_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'posix_read_bytes' THEN x.posix_read_bytes END AS posix_read_bytes,
       CASE WHEN $5::text IS NULL OR $5 = 'posix_write_calls' THEN x.posix_write_calls END AS posix_write_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'posix_write_bytes' THEN x.posix_write_bytes END AS posix_write_bytes,
       CASE WHEN $5::text IS NULL OR $5 = 'posix_open_calls' THEN x.posix_open_calls END AS posix_open_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'posix_meta_calls' THEN x.posix_meta_calls END AS posix_meta_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'posix_ns' THEN x.posix_ns END AS posix_ns,
       CASE WHEN $5::text IS NULL OR $5 = 'stdio_read_calls' THEN x.stdio_read_calls END AS stdio_read_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'stdio_read_bytes' THEN x.stdio_read_bytes END AS stdio_read_bytes,
       CASE WHEN $5::text IS NULL OR $5 = 'stdio_write_calls' THEN x.stdio_write_calls END AS stdio_write_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'stdio_write_bytes' THEN x.stdio_write_bytes END AS stdio_write_bytes,
       CASE WHEN $5::text IS NULL OR $5 = 'stdio_open_calls' THEN x.stdio_open_calls END AS stdio_open_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'stdio_meta_calls' THEN x.stdio_meta_calls END AS stdio_meta_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'stdio_ns' THEN x.stdio_ns END AS stdio_ns,
       CASE WHEN $5::text IS NULL OR $5 = 'lower_read_bytes' THEN x.lower_read_bytes END AS lower_read_bytes,
       CASE WHEN $5::text IS NULL OR $5 = 'lower_write_bytes' THEN x.lower_write_bytes END AS lower_write_bytes,
       CASE WHEN $5::text IS NULL OR $5 = 'mpi_send_calls' THEN x.mpi_send_calls END AS mpi_send_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'mpi_send_bytes' THEN x.mpi_send_bytes END AS mpi_send_bytes,
       CASE WHEN $5::text IS NULL OR $5 = 'mpi_recv_calls' THEN x.mpi_recv_calls END AS mpi_recv_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'mpi_recv_bytes' THEN x.mpi_recv_bytes END AS mpi_recv_bytes,
       CASE WHEN $5::text IS NULL OR $5 = 'mpi_p2p_ns' THEN x.mpi_p2p_ns END AS mpi_p2p_ns,
       CASE WHEN $5::text IS NULL OR $5 = 'mpi_coll_calls' THEN x.mpi_coll_calls END AS mpi_coll_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'mpi_coll_bytes' THEN x.mpi_coll_bytes END AS mpi_coll_bytes,
       CASE WHEN $5::text IS NULL OR $5 = 'mpi_coll_ns' THEN x.mpi_coll_ns END AS mpi_coll_ns,
       CASE WHEN $5::text IS NULL OR $5 = 'mpiio_read_calls' THEN x.mpiio_read_calls END AS mpiio_read_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'mpiio_read_bytes' THEN x.mpiio_read_bytes END AS mpiio_read_bytes,
       CASE WHEN $5::text IS NULL OR $5 = 'mpiio_write_calls' THEN x.mpiio_write_calls END AS mpiio_write_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'mpiio_write_bytes' THEN x.mpiio_write_bytes END AS mpiio_write_bytes,
       CASE WHEN $5::text IS NULL OR $5 = 'mpiio_coll_calls' THEN x.mpiio_coll_calls END AS mpiio_coll_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'mpiio_meta_calls' THEN x.mpiio_meta_calls END AS mpiio_meta_calls,
       CASE WHEN $5::text IS NULL OR $5 = 'mpiio_ns' THEN x.mpiio_ns END AS mpiio_ns,
       CASE WHEN $5::text IS NULL OR $5 = 'cpu_ns' THEN x.cpu_ns END AS cpu_ns
FROM js.series_cluster x
WHERE x.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND x.chunk BETWEEN js.series_chunk_of($6::bigint) AND $7::bigint

-- name: series_nodes
-- $4 job id $5 step $6 metric $7 first slice $8 last slice: the same for scope "same nodes":
-- the encoded series of the nodes the step ran on (every folded step on them)
SELECT false AS pending, x.chunk, x.first_slice, x.slices, x.step_nodes AS count, NULL::bytea AS processes,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_read_calls' THEN x.posix_read_calls END AS posix_read_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_read_bytes' THEN x.posix_read_bytes END AS posix_read_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_write_calls' THEN x.posix_write_calls END AS posix_write_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_write_bytes' THEN x.posix_write_bytes END AS posix_write_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_open_calls' THEN x.posix_open_calls END AS posix_open_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_meta_calls' THEN x.posix_meta_calls END AS posix_meta_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'posix_ns' THEN x.posix_ns END AS posix_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_read_calls' THEN x.stdio_read_calls END AS stdio_read_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_read_bytes' THEN x.stdio_read_bytes END AS stdio_read_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_write_calls' THEN x.stdio_write_calls END AS stdio_write_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_write_bytes' THEN x.stdio_write_bytes END AS stdio_write_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_open_calls' THEN x.stdio_open_calls END AS stdio_open_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_meta_calls' THEN x.stdio_meta_calls END AS stdio_meta_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'stdio_ns' THEN x.stdio_ns END AS stdio_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'lower_read_bytes' THEN x.lower_read_bytes END AS lower_read_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'lower_write_bytes' THEN x.lower_write_bytes END AS lower_write_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_send_calls' THEN x.mpi_send_calls END AS mpi_send_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_send_bytes' THEN x.mpi_send_bytes END AS mpi_send_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_recv_calls' THEN x.mpi_recv_calls END AS mpi_recv_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_recv_bytes' THEN x.mpi_recv_bytes END AS mpi_recv_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_p2p_ns' THEN x.mpi_p2p_ns END AS mpi_p2p_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_coll_calls' THEN x.mpi_coll_calls END AS mpi_coll_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_coll_bytes' THEN x.mpi_coll_bytes END AS mpi_coll_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpi_coll_ns' THEN x.mpi_coll_ns END AS mpi_coll_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_read_calls' THEN x.mpiio_read_calls END AS mpiio_read_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_read_bytes' THEN x.mpiio_read_bytes END AS mpiio_read_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_write_calls' THEN x.mpiio_write_calls END AS mpiio_write_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_write_bytes' THEN x.mpiio_write_bytes END AS mpiio_write_bytes,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_coll_calls' THEN x.mpiio_coll_calls END AS mpiio_coll_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_meta_calls' THEN x.mpiio_meta_calls END AS mpiio_meta_calls,
       CASE WHEN $6::text IS NULL OR $6 = 'mpiio_ns' THEN x.mpiio_ns END AS mpiio_ns,
       CASE WHEN $6::text IS NULL OR $6 = 'cpu_ns' THEN x.cpu_ns END AS cpu_ns
FROM js.series_node x
WHERE x.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND x.chunk BETWEEN js.series_chunk_of($7::bigint) AND $8::bigint
  AND x.node IN (SELECT sn.node FROM js.step_nodes sn
                 WHERE sn.cluster_id = x.cluster_id AND sn.job_id = $4::bigint AND sn.step_id = $5)

-- name: series_kernel
-- $4 job id $5 step: the encoded series of the kernel's I/O counts per slice (profile format 5)
-- of the step (NULL: zeros): its folded sum per chunk, and its step-nodes still queued for the
-- fold; the CGI adds them up
SELECT x.chunk, x.first_slice, x.slices, x.kernel_rchar, x.kernel_wchar, x.kernel_syscr, x.kernel_syscw, x.kernel_read_bytes, x.kernel_write_bytes
FROM js.series_step x
WHERE x.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND x.job_id = $4::bigint AND x.step_id = $5
UNION ALL
SELECT x.chunk, x.first_slice, x.slices, x.kernel_rchar, x.kernel_wchar, x.kernel_syscr, x.kernel_syscw, x.kernel_read_bytes, x.kernel_write_bytes
FROM js.series_step_pending x
WHERE x.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND x.job_id = $4::bigint AND x.step_id = $5

-- name: series_live
-- $4 job id $5 step: the provisional per-slice vectors of the step's running step-nodes, the
-- kernel's counts after the metrics
SELECT x.slice, x.processes, x.posix_read_calls, x.posix_read_bytes, x.posix_write_calls, x.posix_write_bytes, x.posix_open_calls, x.posix_meta_calls, x.posix_ns, x.stdio_read_calls, x.stdio_read_bytes, x.stdio_write_calls, x.stdio_write_bytes, x.stdio_open_calls, x.stdio_meta_calls, x.stdio_ns, x.lower_read_bytes, x.lower_write_bytes, x.mpi_send_calls, x.mpi_send_bytes, x.mpi_recv_calls, x.mpi_recv_bytes, x.mpi_p2p_ns, x.mpi_coll_calls, x.mpi_coll_bytes, x.mpi_coll_ns, x.mpiio_read_calls, x.mpiio_read_bytes, x.mpiio_write_calls, x.mpiio_write_bytes, x.mpiio_coll_calls, x.mpiio_meta_calls, x.mpiio_ns, x.cpu_ns, x.kernel_rchar, x.kernel_wchar, x.kernel_syscr, x.kernel_syscw, x.kernel_read_bytes, x.kernel_write_bytes
FROM js.live_slices x
WHERE x.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND x.job_id = $4::bigint AND x.step_id = $5

-- name: background_rank
-- $4 job id $5 step $6 scope (cluster|nodes) $7 metric $8 first slice $9 last slice: admins only
-- ($2): the encoded series of the metric (series) and of the activity (nodes or processes) of
-- every other step in the chunks of those slices: summed over its nodes (folded, and its
-- step-nodes still queued) for the whole cluster; its step-nodes on the step's nodes for
-- "nodes". The CGI sums them in the slices and ranks the jobs (background&top=).
SELECT x.job_id, x.step_id, x.chunk, x.first_slice, x.slices, x.nodes AS activity,
       CASE $7 WHEN 'posix_read_calls' THEN x.posix_read_calls
           WHEN 'posix_read_bytes' THEN x.posix_read_bytes
           WHEN 'posix_write_calls' THEN x.posix_write_calls
           WHEN 'posix_write_bytes' THEN x.posix_write_bytes
           WHEN 'posix_open_calls' THEN x.posix_open_calls
           WHEN 'posix_meta_calls' THEN x.posix_meta_calls WHEN 'posix_ns' THEN x.posix_ns
           WHEN 'stdio_read_calls' THEN x.stdio_read_calls
           WHEN 'stdio_read_bytes' THEN x.stdio_read_bytes
           WHEN 'stdio_write_calls' THEN x.stdio_write_calls
           WHEN 'stdio_write_bytes' THEN x.stdio_write_bytes
           WHEN 'stdio_open_calls' THEN x.stdio_open_calls
           WHEN 'stdio_meta_calls' THEN x.stdio_meta_calls WHEN 'stdio_ns' THEN x.stdio_ns
           WHEN 'lower_read_bytes' THEN x.lower_read_bytes
           WHEN 'lower_write_bytes' THEN x.lower_write_bytes
           WHEN 'mpi_send_calls' THEN x.mpi_send_calls WHEN 'mpi_send_bytes' THEN x.mpi_send_bytes
           WHEN 'mpi_recv_calls' THEN x.mpi_recv_calls WHEN 'mpi_recv_bytes' THEN x.mpi_recv_bytes
           WHEN 'mpi_p2p_ns' THEN x.mpi_p2p_ns WHEN 'mpi_coll_calls' THEN x.mpi_coll_calls
           WHEN 'mpi_coll_bytes' THEN x.mpi_coll_bytes WHEN 'mpi_coll_ns' THEN x.mpi_coll_ns
           WHEN 'mpiio_read_calls' THEN x.mpiio_read_calls
           WHEN 'mpiio_read_bytes' THEN x.mpiio_read_bytes
           WHEN 'mpiio_write_calls' THEN x.mpiio_write_calls
           WHEN 'mpiio_write_bytes' THEN x.mpiio_write_bytes
           WHEN 'mpiio_coll_calls' THEN x.mpiio_coll_calls
           WHEN 'mpiio_meta_calls' THEN x.mpiio_meta_calls WHEN 'mpiio_ns' THEN x.mpiio_ns
           WHEN 'cpu_ns' THEN x.cpu_ns END AS series
FROM js.series_step x
WHERE $2::boolean AND $6 = 'cluster' AND x.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND x.chunk BETWEEN js.series_chunk_of($8::bigint) AND $9::bigint AND NOT (x.job_id = $4::bigint AND x.step_id = $5)
UNION ALL
SELECT x.job_id, x.step_id, x.chunk, x.first_slice, x.slices, x.processes,
       CASE $7 WHEN 'posix_read_calls' THEN x.posix_read_calls
           WHEN 'posix_read_bytes' THEN x.posix_read_bytes
           WHEN 'posix_write_calls' THEN x.posix_write_calls
           WHEN 'posix_write_bytes' THEN x.posix_write_bytes
           WHEN 'posix_open_calls' THEN x.posix_open_calls
           WHEN 'posix_meta_calls' THEN x.posix_meta_calls WHEN 'posix_ns' THEN x.posix_ns
           WHEN 'stdio_read_calls' THEN x.stdio_read_calls
           WHEN 'stdio_read_bytes' THEN x.stdio_read_bytes
           WHEN 'stdio_write_calls' THEN x.stdio_write_calls
           WHEN 'stdio_write_bytes' THEN x.stdio_write_bytes
           WHEN 'stdio_open_calls' THEN x.stdio_open_calls
           WHEN 'stdio_meta_calls' THEN x.stdio_meta_calls WHEN 'stdio_ns' THEN x.stdio_ns
           WHEN 'lower_read_bytes' THEN x.lower_read_bytes
           WHEN 'lower_write_bytes' THEN x.lower_write_bytes
           WHEN 'mpi_send_calls' THEN x.mpi_send_calls WHEN 'mpi_send_bytes' THEN x.mpi_send_bytes
           WHEN 'mpi_recv_calls' THEN x.mpi_recv_calls WHEN 'mpi_recv_bytes' THEN x.mpi_recv_bytes
           WHEN 'mpi_p2p_ns' THEN x.mpi_p2p_ns WHEN 'mpi_coll_calls' THEN x.mpi_coll_calls
           WHEN 'mpi_coll_bytes' THEN x.mpi_coll_bytes WHEN 'mpi_coll_ns' THEN x.mpi_coll_ns
           WHEN 'mpiio_read_calls' THEN x.mpiio_read_calls
           WHEN 'mpiio_read_bytes' THEN x.mpiio_read_bytes
           WHEN 'mpiio_write_calls' THEN x.mpiio_write_calls
           WHEN 'mpiio_write_bytes' THEN x.mpiio_write_bytes
           WHEN 'mpiio_coll_calls' THEN x.mpiio_coll_calls
           WHEN 'mpiio_meta_calls' THEN x.mpiio_meta_calls WHEN 'mpiio_ns' THEN x.mpiio_ns
           WHEN 'cpu_ns' THEN x.cpu_ns END
FROM js.series_step_pending x
WHERE $2::boolean AND $6 = 'cluster' AND x.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND x.chunk BETWEEN js.series_chunk_of($8::bigint) AND $9::bigint AND NOT (x.job_id = $4::bigint AND x.step_id = $5)
UNION ALL
SELECT x.job_id, x.step_id, x.chunk, x.first_slice, x.slices, x.processes,
       CASE $7 WHEN 'posix_read_calls' THEN x.posix_read_calls
           WHEN 'posix_read_bytes' THEN x.posix_read_bytes
           WHEN 'posix_write_calls' THEN x.posix_write_calls
           WHEN 'posix_write_bytes' THEN x.posix_write_bytes
           WHEN 'posix_open_calls' THEN x.posix_open_calls
           WHEN 'posix_meta_calls' THEN x.posix_meta_calls WHEN 'posix_ns' THEN x.posix_ns
           WHEN 'stdio_read_calls' THEN x.stdio_read_calls
           WHEN 'stdio_read_bytes' THEN x.stdio_read_bytes
           WHEN 'stdio_write_calls' THEN x.stdio_write_calls
           WHEN 'stdio_write_bytes' THEN x.stdio_write_bytes
           WHEN 'stdio_open_calls' THEN x.stdio_open_calls
           WHEN 'stdio_meta_calls' THEN x.stdio_meta_calls WHEN 'stdio_ns' THEN x.stdio_ns
           WHEN 'lower_read_bytes' THEN x.lower_read_bytes
           WHEN 'lower_write_bytes' THEN x.lower_write_bytes
           WHEN 'mpi_send_calls' THEN x.mpi_send_calls WHEN 'mpi_send_bytes' THEN x.mpi_send_bytes
           WHEN 'mpi_recv_calls' THEN x.mpi_recv_calls WHEN 'mpi_recv_bytes' THEN x.mpi_recv_bytes
           WHEN 'mpi_p2p_ns' THEN x.mpi_p2p_ns WHEN 'mpi_coll_calls' THEN x.mpi_coll_calls
           WHEN 'mpi_coll_bytes' THEN x.mpi_coll_bytes WHEN 'mpi_coll_ns' THEN x.mpi_coll_ns
           WHEN 'mpiio_read_calls' THEN x.mpiio_read_calls
           WHEN 'mpiio_read_bytes' THEN x.mpiio_read_bytes
           WHEN 'mpiio_write_calls' THEN x.mpiio_write_calls
           WHEN 'mpiio_write_bytes' THEN x.mpiio_write_bytes
           WHEN 'mpiio_coll_calls' THEN x.mpiio_coll_calls
           WHEN 'mpiio_meta_calls' THEN x.mpiio_meta_calls WHEN 'mpiio_ns' THEN x.mpiio_ns
           WHEN 'cpu_ns' THEN x.cpu_ns END
FROM js.series_step_node x
WHERE $2::boolean AND $6 = 'nodes' AND x.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND x.chunk BETWEEN js.series_chunk_of($8::bigint) AND $9::bigint AND NOT (x.job_id = $4::bigint AND x.step_id = $5)
  AND x.node IN (SELECT sn.node FROM js.step_nodes sn
                 WHERE sn.cluster_id = x.cluster_id AND sn.job_id = $4::bigint AND sn.step_id = $5)

-- name: background_top
-- $4 job id $5 step $6 scope (cluster|nodes) $7 first slice $8 last slice $9 job ids
-- (bigint[], those background_rank put first): each job's user and name and its sums in the
-- step's slices and scope. Admins only, also here in SQL ($2).
SELECT m.job_id AS job, j.user_name AS user, j.name, count(DISTINCT m.slice)::integer AS slices,
       count(DISTINCT m.step_id)::integer AS steps,
       sum(m.posix_read_bytes + m.posix_write_bytes + m.stdio_read_bytes + m.stdio_write_bytes
           + m.mpiio_read_bytes + m.mpiio_write_bytes)::bigint AS io_bytes,
       sum(m.mpi_send_bytes + m.mpi_coll_bytes)::bigint AS mpi_bytes,
       sum(m.cpu_ns)::bigint AS cpu_ns
FROM js.step_node_slices m
JOIN js.jobs j ON j.cluster_id = m.cluster_id AND j.job_id = m.job_id
WHERE $2::boolean AND m.cluster_id = (SELECT min(j.cluster_id) FROM js.jobs j WHERE j.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND j.job_id = $4::bigint
                        AND js.may_see($1, $2, $3, j.user_name, j.cluster))
  AND m.job_id = ANY ($9::bigint[]) AND NOT (m.job_id = $4::bigint AND m.step_id = $5)
  AND m.chunk BETWEEN js.series_chunk_of($7::bigint) AND $8::bigint AND m.slice BETWEEN $7::bigint AND $8::bigint
  AND ($6 = 'cluster' OR m.node IN (SELECT sn.node FROM js.step_nodes sn
                                    WHERE sn.cluster_id = m.cluster_id AND sn.job_id = $4::bigint AND sn.step_id = $5))
GROUP BY m.job_id, j.user_name, j.name

-- name: file
-- $4 file id: a file at least one of the viewer's jobs accessed (any file for an admin)
SELECT f.file_id AS id, c.cluster, f.path, f.scope, nullif(f.node, '') AS node, f.fs_type AS fstype
FROM js.files f
JOIN js.clusters c ON c.cluster_id = f.cluster_id
WHERE f.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND f.file_id = $4::bigint
  AND ($2::boolean OR EXISTS (
        SELECT 1 FROM js.file_accesses a JOIN js.jobs j ON j.cluster_id = a.cluster_id AND j.job_id = a.job_id
        WHERE a.cluster_id = f.cluster_id AND a.file_id = f.file_id
          AND js.may_see($1, $2, $3, j.user_name, j.cluster)))
ORDER BY f.cluster_id
LIMIT 1

-- name: file_accesses
-- $4 file id: which steps read and wrote it, when; only the viewer's jobs unless admin
SELECT a.job_id AS job, a.step_id AS step, j.name AS job_name, j.user_name AS user,
       CASE WHEN bool_or(a.mode = 'rw') OR (bool_or(a.mode = 'r') AND bool_or(a.mode = 'w')) THEN 'rw'
            WHEN bool_or(a.mode = 'w') THEN 'w' ELSE 'r' END AS mode,
       sum(a.bytes_read)::bigint AS read_bytes, sum(a.bytes_written)::bigint AS write_bytes,
       extract(epoch FROM min(a.first_access))::float8 AS first_access,
       extract(epoch FROM max(a.last_access))::float8 AS last_access,
       extract(epoch FROM min(s.start_time))::float8 AS start,
       extract(epoch FROM max(s.end_time))::float8 AS "end"
FROM js.file_accesses a
JOIN js.jobs j ON j.cluster_id = a.cluster_id AND j.job_id = a.job_id
LEFT JOIN js.steps s ON s.cluster_id = a.cluster_id AND s.job_id = a.job_id AND s.step_id = a.step_id
WHERE a.cluster_id = ANY (ARRAY(SELECT c0.cluster_id FROM js.clusters c0 WHERE $3::text IS NULL OR c0.cluster = $3)) AND a.file_id = $4::bigint
  AND js.may_see($1, $2, $3, j.user_name, j.cluster)
GROUP BY a.job_id, a.step_id, j.name, j.user_name
ORDER BY min(s.start_time) NULLS LAST, a.job_id, a.step_id
