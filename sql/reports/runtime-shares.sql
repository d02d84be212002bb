-- SPDX-License-Identifier: GPL-2.0-or-later
-- runtime-shares: steps that spent a high share of their time in MPI, in I/O, or idle, by user
-- and application.  A step's MPI or I/O share is the time its processes spent in MPI calls
-- (point-to-point and collectives) or in I/O calls (POSIX, stdio, MPI-IO), over the summed wall
-- time of its processes; its idle share the time they neither computed nor made a recorded call
-- (sleeping, waiting for children or a lock), over their time budget (profiles of format 4 on).
-- Steps with less than min_wall_s seconds of process wall time are left out, and so is the batch
-- step of a job with numbered steps (it wraps them: its srun waits for them).
-- A step counts in the window when it started in [since, until).
--   psql -f sql/reports/runtime-shares.sql -v since=... -v until=... [-v min_share=0.5] [-v min_wall_s=1] [-v limit=50]
\ir window.psql
\if :{?min_share}
\else
\set min_share 0.5
\endif
\if :{?min_wall_s}
\else
\set min_wall_s 1
\endif
\if :{?limit}
\else
\set limit 50
\endif

\echo '== by user and application: steps with an MPI, I/O or idle share of at least' :min_share
SELECT r.user_name AS "user", r.application, k.kind, count(*) AS steps,
       (SELECT count(*) FROM js.step_report a
        WHERE a.cluster_id = r.cluster_id AND a.uid = r.uid AND a.application = r.application
          AND a.start_time >= :'since' AND a.start_time < :'until' AND a.profiled) AS profiled_steps,
       round(avg(k.share)::numeric, 3) AS avg_share, round(max(k.share)::numeric, 3) AS max_share,
       round((sum(r.wall_ns) / 1e9)::numeric, 1) AS wall_s
FROM js.step_report r
CROSS JOIN LATERAL (VALUES ('mpi', r.mpi_share), ('io', r.io_share), ('idle', r.idle_share)) AS k(kind, share)
WHERE r.start_time >= :'since' AND r.start_time < :'until' AND r.profiled
  AND (r.step_id ~ '^[0-9]+$' OR NOT EXISTS (SELECT 1 FROM js.step_report n
       WHERE n.cluster_id = r.cluster_id AND n.job_id = r.job_id AND n.step_id ~ '^[0-9]+$'))
  AND r.wall_ns >= :min_wall_s * 1e9 AND k.share >= :min_share
GROUP BY r.cluster_id, r.uid, r.user_name, r.application, k.kind
ORDER BY sum(r.wall_ns) DESC, r.user_name, r.application, k.kind;

\echo '== steps'
SELECT r.job_id, r.step_id, r.user_name AS "user", r.application, k.kind, round(k.share::numeric, 3) AS share,
       round((r.wall_ns / 1e9)::numeric, 2) AS wall_s, round((r.mpi_ns / 1e9)::numeric, 2) AS mpi_s,
       round((r.io_ns / 1e9)::numeric, 2) AS io_s, r.processes, r.io_bytes, r.start_time
FROM js.step_report r
CROSS JOIN LATERAL (VALUES ('mpi', r.mpi_share), ('io', r.io_share), ('idle', r.idle_share)) AS k(kind, share)
WHERE r.start_time >= :'since' AND r.start_time < :'until' AND r.profiled
  AND (r.step_id ~ '^[0-9]+$' OR NOT EXISTS (SELECT 1 FROM js.step_report n
       WHERE n.cluster_id = r.cluster_id AND n.job_id = r.job_id AND n.step_id ~ '^[0-9]+$'))
  AND r.wall_ns >= :min_wall_s * 1e9 AND k.share >= :min_share
ORDER BY r.wall_ns DESC, r.job_id, r.step_id, k.kind LIMIT :limit;
