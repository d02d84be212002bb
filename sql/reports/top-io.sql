-- top-io: who moves the most data, and who makes the most metadata calls (small-file storms).
-- Users, jobs and workflows ranked by I/O volume (bytes read + written by their profiled
-- processes, all interfaces), then by open and metadata calls (open, close, stat, seek, ...,
-- with the files they touched and how many of those were small).  A job counts in the window
-- when it started (or was submitted, if it never started) in [since, until).
--   psql -f sql/reports/top-io.sql -v since=2026-11-01 -v until=2026-12-01 [-v limit=10]
\ir window.psql
\if :{?limit}
\else
\set limit 10
\endif

\echo '== users by I/O volume'
SELECT user_name AS "user", count(*) AS jobs, sum(io_bytes)::bigint AS io_bytes,
       sum(read_bytes)::bigint AS read_bytes, sum(write_bytes)::bigint AS write_bytes,
       pg_size_pretty(sum(io_bytes)) AS io, sum(meta_calls)::bigint AS meta_calls
FROM js.job_report
WHERE coalesce(start_time, submit_time) >= :'since' AND coalesce(start_time, submit_time) < :'until'
GROUP BY cluster, user_name HAVING sum(io_bytes) > 0
ORDER BY sum(io_bytes) DESC, user_name LIMIT :limit;

\echo '== jobs by I/O volume'
SELECT job_id, user_name AS "user", name, workflow_name AS workflow, state, io_bytes, read_bytes, write_bytes,
       pg_size_pretty(io_bytes) AS io, meta_calls, files
FROM js.job_report
WHERE coalesce(start_time, submit_time) >= :'since' AND coalesce(start_time, submit_time) < :'until' AND io_bytes > 0
ORDER BY io_bytes DESC, job_id LIMIT :limit;

\echo '== workflows by I/O volume'
SELECT workflow_id, workflow_name AS workflow, user_name AS "user", count(*) AS jobs, sum(io_bytes)::bigint AS io_bytes,
       sum(read_bytes)::bigint AS read_bytes, sum(write_bytes)::bigint AS write_bytes, pg_size_pretty(sum(io_bytes)) AS io,
       sum(meta_calls)::bigint AS meta_calls
FROM js.job_report
WHERE coalesce(start_time, submit_time) >= :'since' AND coalesce(start_time, submit_time) < :'until'
GROUP BY cluster, workflow_id, workflow_name, user_name HAVING sum(io_bytes) > 0
ORDER BY sum(io_bytes) DESC, workflow_id LIMIT :limit;

\echo '== users by metadata calls'
SELECT user_name AS "user", count(*) AS jobs, sum(meta_calls)::bigint AS meta_calls, sum(files)::bigint AS files,
       sum(small_files)::bigint AS small_files, (sum(io_bytes) / nullif(sum(meta_calls), 0))::bigint AS bytes_per_meta_call
FROM js.job_report
WHERE coalesce(start_time, submit_time) >= :'since' AND coalesce(start_time, submit_time) < :'until'
GROUP BY cluster, user_name HAVING sum(meta_calls) > 0
ORDER BY sum(meta_calls) DESC, user_name LIMIT :limit;

\echo '== jobs by metadata calls'
SELECT job_id, user_name AS "user", name, workflow_name AS workflow, state, meta_calls, files, small_files,
       (io_bytes / nullif(meta_calls, 0))::bigint AS bytes_per_meta_call
FROM js.job_report
WHERE coalesce(start_time, submit_time) >= :'since' AND coalesce(start_time, submit_time) < :'until' AND meta_calls > 0
ORDER BY meta_calls DESC, job_id LIMIT :limit;

\echo '== workflows by metadata calls'
SELECT workflow_id, workflow_name AS workflow, user_name AS "user", count(*) AS jobs, sum(meta_calls)::bigint AS meta_calls,
       sum(files)::bigint AS files, sum(small_files)::bigint AS small_files,
       (sum(io_bytes) / nullif(sum(meta_calls), 0))::bigint AS bytes_per_meta_call
FROM js.job_report
WHERE coalesce(start_time, submit_time) >= :'since' AND coalesce(start_time, submit_time) < :'until'
GROUP BY cluster, workflow_id, workflow_name, user_name HAVING sum(meta_calls) > 0
ORDER BY sum(meta_calls) DESC, workflow_id LIMIT :limit;
