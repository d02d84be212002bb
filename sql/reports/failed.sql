-- SPDX-License-Identifier: GPL-2.0-or-later
-- failed: failed jobs and steps, and the dependent jobs they left waiting.  A job failed when
-- its state is a failure (FAILED, CANCELLED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL,
-- DEADLINE, PREEMPTED) or one of its steps did not complete.  A dependant is left waiting when
-- it needs the failed job to succeed (afterok, aftercorr) and never started; its own
-- dependants wait behind it (any condition), and so on down the chain (depth).  The
-- database knows a job that never started only from a record the joblog command wrote for it
-- (docs/reports.md).  A failed job counts in the window when it started (or was submitted) in
-- [since, until); its waiting dependants are listed whenever they were submitted.
--   psql -f sql/reports/failed.sql -v since=... -v until=... [-v limit=100]
\ir window.psql
\if :{?limit}
\else
\set limit 100
\endif

\echo '== failed jobs and steps'
SELECT j.job_id, j.user_name AS "user", j.name, j.workflow_name AS workflow, j.state, j.exit_code, j.steps,
       j.failed_steps, (SELECT string_agg(s.step_id || ':' || coalesce(s.state, '?') || ':' || coalesce(s.exit_code::text, '?'),
                                          ' ' ORDER BY s.start_time)
                        FROM js.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id
                          AND s.state IS DISTINCT FROM 'COMPLETED') AS failed_step_states,
       j.start_time, j.end_time
FROM js.job_report j
WHERE coalesce(j.start_time, j.submit_time) >= :'since' AND coalesce(j.start_time, j.submit_time) < :'until'
  AND (j.state IN ('FAILED', 'CANCELLED', 'TIMEOUT', 'NODE_FAIL', 'OUT_OF_MEMORY', 'BOOT_FAIL', 'DEADLINE', 'PREEMPTED')
       OR j.failed_steps > 0)
ORDER BY j.start_time, j.job_id LIMIT :limit;

\echo '== dependants left waiting'
WITH RECURSIVE failed AS (
    SELECT j.cluster_id, j.job_id
    FROM js.job_report j
    WHERE coalesce(j.start_time, j.submit_time) >= :'since' AND coalesce(j.start_time, j.submit_time) < :'until'
      AND (j.state IN ('FAILED', 'CANCELLED', 'TIMEOUT', 'NODE_FAIL', 'OUT_OF_MEMORY', 'BOOT_FAIL', 'DEADLINE', 'PREEMPTED')
           OR j.failed_steps > 0)
), waiting (cluster_id, failed_job, via_job, job_id, condition, depth, path) AS (
    SELECT f.cluster_id, f.job_id, f.job_id, d.to_job, d.condition, 1, ARRAY[f.job_id, d.to_job]
    FROM failed f
    JOIN js.dependencies d ON d.cluster_id = f.cluster_id AND d.from_job = f.job_id AND d.kind = 'scheduler'
        AND d.condition IN ('afterok', 'aftercorr')
    JOIN js.jobs w ON w.cluster_id = d.cluster_id AND w.job_id = d.to_job AND w.start_time IS NULL
    UNION ALL
    SELECT x.cluster_id, x.failed_job, x.job_id, d.to_job, d.condition, x.depth + 1, x.path || d.to_job
    FROM waiting x
    JOIN js.dependencies d ON d.cluster_id = x.cluster_id AND d.from_job = x.job_id AND d.kind = 'scheduler'
    JOIN js.jobs w ON w.cluster_id = d.cluster_id AND w.job_id = d.to_job AND w.start_time IS NULL
    WHERE x.depth < 50 AND NOT d.to_job = ANY (x.path)
)
SELECT x.failed_job, x.job_id AS waiting_job, w.user_name AS "user", w.name, x.condition, x.via_job AS waits_on,
       x.depth, w.state, w.submit_time, w.dependency
FROM waiting x
JOIN js.jobs w ON w.cluster_id = x.cluster_id AND w.job_id = x.job_id
ORDER BY x.failed_job, x.depth, x.job_id LIMIT :limit;
