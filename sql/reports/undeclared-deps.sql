-- SPDX-License-Identifier: GPL-2.0-or-later
-- undeclared-deps: jobs that waited on data nobody declared to Slurm.  A pair of jobs where a
-- step of the later one read a file that a step of the earlier one wrote (a file edge) but no
-- chain of scheduler edges leads from the writer to the reader: a workflow engine or a
-- script serialised them by hand.  serialised is true when the reader started only after
-- the writer ended (it waited; wait_s says how long); otherwise they overlapped.  The second
-- part sums the pairs per workflow.  A pair counts in the window when the reader started
-- (or was submitted) in [since, until).
--   psql -f sql/reports/undeclared-deps.sql -v since=... -v until=... [-v limit=100]
\ir window.psql
\if :{?limit}
\else
\set limit 100
\endif

CREATE TEMP VIEW undeclared AS
WITH pairs AS (
    SELECT d.cluster_id, d.from_job, d.to_job, count(DISTINCT d.file_id) AS files, min(d.path) AS example_path,
           max(d.from_time) AS last_write, min(d.to_time) AS first_read
    FROM js.dependencies d
    WHERE d.kind = 'file'
    GROUP BY d.cluster_id, d.from_job, d.to_job
)
SELECT p.*, a.user_name AS writer_user, a.name AS writer_name, a.end_time AS writer_end,
       b.user_name AS reader_user, b.name AS reader_name, b.start_time AS reader_start,
       b.workflow_id, b.workflow_name,
       b.start_time >= a.end_time - interval '1 second' AS serialised,
       round(extract(epoch FROM b.start_time - a.end_time)::numeric, 1) AS wait_s
FROM pairs p
JOIN js.job_report a ON a.cluster_id = p.cluster_id AND a.job_id = p.from_job
JOIN js.job_report b ON b.cluster_id = p.cluster_id AND b.job_id = p.to_job
WHERE coalesce(b.start_time, b.submit_time) >= :'since' AND coalesce(b.start_time, b.submit_time) < :'until'
  AND NOT EXISTS (
      WITH RECURSIVE up (job_id, depth) AS (
          SELECT d.from_job, 1 FROM js.dependencies d
          WHERE d.cluster_id = p.cluster_id AND d.to_job = p.to_job AND d.kind = 'scheduler'
          UNION
          SELECT d.from_job, u.depth + 1 FROM up u
          JOIN js.dependencies d ON d.cluster_id = p.cluster_id AND d.to_job = u.job_id AND d.kind = 'scheduler'
          WHERE u.depth < 50
      )
      SELECT 1 FROM up WHERE up.job_id = p.from_job);

\echo '== file dependencies with no scheduler edge'
SELECT from_job AS writer_job, writer_user, writer_name, to_job AS reader_job, reader_user, reader_name,
       workflow_name AS workflow, files, example_path, serialised, wait_s, writer_end, reader_start
FROM undeclared
ORDER BY serialised DESC, reader_start, from_job, to_job LIMIT :limit;

\echo '== per workflow'
SELECT workflow_id, workflow_name AS workflow, reader_user AS "user", count(*) AS undeclared_pairs,
       count(*) FILTER (WHERE serialised) AS serialised_pairs, sum(files)::bigint AS files,
       round(sum(wait_s) FILTER (WHERE serialised), 1) AS total_wait_s
FROM undeclared
GROUP BY cluster_id, workflow_id, workflow_name, reader_user
ORDER BY count(*) FILTER (WHERE serialised) DESC, workflow_id LIMIT :limit;
