-- SPDX-License-Identifier: GPL-2.0-or-later
-- top-io: who moves the most data, and who makes the most metadata operations (small-file
-- storms).  Users, jobs and workflows ranked by I/O volume (bytes read + written by their
-- profiled processes, all interfaces), then by metadata operations (meta_ops: POSIX open,
-- close, stat, seek, unlink, rename, mkdir, ..., fopen and MPI-IO open/close/sync/seek; not
-- stdio's fflush, which bash alone calls after every builtin), with the files they touched
-- and how many of those were small (js.small_file_bytes()).  A job counts in the window
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
       pg_size_pretty(sum(io_bytes)) AS io, sum(meta_ops)::bigint AS meta_ops
FROM js.job_report
WHERE coalesce(start_time, submit_time) >= :'since' AND coalesce(start_time, submit_time) < :'until'
GROUP BY cluster, user_name HAVING sum(io_bytes) > 0
ORDER BY sum(io_bytes) DESC, user_name LIMIT :limit;

\echo '== jobs by I/O volume'
SELECT job_id, user_name AS "user", name, workflow_name AS workflow, state, io_bytes, read_bytes, write_bytes,
       pg_size_pretty(io_bytes) AS io, meta_ops, files
FROM js.job_report
WHERE coalesce(start_time, submit_time) >= :'since' AND coalesce(start_time, submit_time) < :'until' AND io_bytes > 0
ORDER BY io_bytes DESC, job_id LIMIT :limit;

\echo '== workflows by I/O volume'
SELECT workflow_id, workflow_name AS workflow, user_name AS "user", count(*) AS jobs, sum(io_bytes)::bigint AS io_bytes,
       sum(read_bytes)::bigint AS read_bytes, sum(write_bytes)::bigint AS write_bytes, pg_size_pretty(sum(io_bytes)) AS io,
       sum(meta_ops)::bigint AS meta_ops
FROM js.job_report
WHERE coalesce(start_time, submit_time) >= :'since' AND coalesce(start_time, submit_time) < :'until'
GROUP BY cluster, workflow_id, workflow_name, user_name HAVING sum(io_bytes) > 0
ORDER BY sum(io_bytes) DESC, workflow_id LIMIT :limit;

\echo '== users by metadata operations'
SELECT user_name AS "user", count(*) AS jobs, sum(meta_ops)::bigint AS meta_ops, sum(files)::bigint AS files,
       sum(small_files)::bigint AS small_files, (sum(io_bytes) / nullif(sum(meta_ops), 0))::bigint AS bytes_per_meta_op
FROM js.job_report
WHERE coalesce(start_time, submit_time) >= :'since' AND coalesce(start_time, submit_time) < :'until'
GROUP BY cluster, user_name HAVING sum(meta_ops) > 0
ORDER BY sum(meta_ops) DESC, user_name LIMIT :limit;

\echo '== jobs by metadata operations'
SELECT job_id, user_name AS "user", name, workflow_name AS workflow, state, meta_ops, files, small_files,
       (io_bytes / nullif(meta_ops, 0))::bigint AS bytes_per_meta_op
FROM js.job_report
WHERE coalesce(start_time, submit_time) >= :'since' AND coalesce(start_time, submit_time) < :'until' AND meta_ops > 0
ORDER BY meta_ops DESC, job_id LIMIT :limit;

\echo '== workflows by metadata operations'
SELECT workflow_id, workflow_name AS workflow, user_name AS "user", count(*) AS jobs, sum(meta_ops)::bigint AS meta_ops,
       sum(files)::bigint AS files, sum(small_files)::bigint AS small_files,
       (sum(io_bytes) / nullif(sum(meta_ops), 0))::bigint AS bytes_per_meta_op
FROM js.job_report
WHERE coalesce(start_time, submit_time) >= :'since' AND coalesce(start_time, submit_time) < :'until'
GROUP BY cluster, workflow_id, workflow_name, user_name HAVING sum(meta_ops) > 0
ORDER BY sum(meta_ops) DESC, workflow_id LIMIT :limit;
