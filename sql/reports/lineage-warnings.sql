-- SPDX-License-Identifier: GPL-2.0-or-later
-- lineage-warnings: what file edges and scheduler edges tell together (js.lineage_warnings,
-- docs/dependencies.md "Warnings"): jobs that read a file another job of the user was still
-- writing (race: it may have read a partial file), and file edges that only luck ordered (the
-- reader was queued before the writer ended and waits for it by no dependency: add
-- --dependency=afterok:WRITER). One row per pair of jobs and kind, with the number of files and
-- one of them; a pair counts in the window when the reader started (or was submitted) in
-- [since, until). Then the pairs per user and kind.
--   psql -f sql/reports/lineage-warnings.sql -v since=... -v until=... [-v limit=100]
\ir window.psql
\if :{?limit}
\else
\set limit 100
\endif

CREATE TEMP VIEW warned AS
SELECT w.cluster_id, w.kind, w.writer_job, w.reader_job, count(DISTINCT w.file_id) AS files, min(w.path) AS example_path,
       max(w.writer_last) AS last_write, min(w.reader_first) AS first_read,
       round(extract(epoch FROM max(w.writer_last) - min(w.reader_first))::numeric, 1) AS read_before_last_write_s,
       b.user_name AS "user", a.name AS writer_name, b.name AS reader_name, b.workflow_name AS workflow,
       format('--dependency=afterok:%s', w.writer_job) AS fix
FROM js.lineage_warnings w
JOIN js.jobs a ON a.cluster_id = w.cluster_id AND a.job_id = w.writer_job
JOIN js.jobs b ON b.cluster_id = w.cluster_id AND b.job_id = w.reader_job
WHERE coalesce(b.start_time, b.submit_time) >= :'since' AND coalesce(b.start_time, b.submit_time) < :'until'
GROUP BY w.cluster_id, w.kind, w.writer_job, w.reader_job, b.user_name, a.name, b.name, b.workflow_name;

\echo '== reads of a file another job was still writing (race), and file edges that work by luck'
SELECT kind, writer_job, writer_name, reader_job, reader_name, "user", workflow, files, example_path,
       CASE WHEN kind = 'read_while_written' THEN read_before_last_write_s END AS read_before_last_write_s, fix
FROM warned
ORDER BY kind DESC, first_read, writer_job, reader_job LIMIT :limit;

\echo '== per user'
SELECT "user", count(*) FILTER (WHERE kind = 'read_while_written') AS races,
       count(*) FILTER (WHERE kind = 'no_dependency') AS by_luck, sum(files)::bigint AS files
FROM warned
GROUP BY "user"
ORDER BY count(*) DESC, "user" LIMIT :limit;
