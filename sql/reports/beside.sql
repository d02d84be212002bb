-- SPDX-License-Identifier: GPL-2.0-or-later
-- beside: what ran beside a given job.  For every slice in the span of any of the job's steps,
-- the steps of other jobs that were active in that slice (anywhere on the cluster; same_node
-- when they shared a node with the job's step), ranked by the bytes they moved, with their
-- share of the background's I/O in that slice: the contributors to the job's background,
-- slice by slice.  Then the same summed per other job over the whole span.  Needs the per-slice detail, so
-- only for jobs younger than the retention age.
--   psql -f sql/reports/beside.sql -v job=JOBID [-v cluster=NAME] [-v per_slice=5] [-v limit=500]
\set ON_ERROR_STOP on
\set QUIET on
\if :{?job}
\else
\echo 'beside: give the job: -v job=JOBID'
\quit
\endif
\if :{?cluster}
\else
\set cluster ''
\endif
\if :{?per_slice}
\else
\set per_slice 5
\endif
\if :{?limit}
\else
\set limit 500
\endif
SELECT cluster_id AS cid FROM js.clusters WHERE cluster = :'cluster' OR (:'cluster' = '' AND cluster_id = (SELECT min(cluster_id) FROM js.clusters)) \gset

\echo '== the job''s steps'
SELECT job_id, step_id, application, user_name AS "user", start_time, end_time, round(elapsed_s::numeric, 1) AS elapsed_s,
       nodelist, io_bytes, meta_ops, profiled
FROM js.step_report WHERE cluster_id = :cid AND job_id = :job ORDER BY start_time, step_id;

-- the other jobs' vectors in the slices of any of the job's steps, each once
CREATE TEMP VIEW beside AS
SELECT slice, min(slice_start) AS slice_start, other_job, other_step, other_node, other_user, other_job_name,
       bool_or(same_node) AS same_node, min(read_bytes) AS read_bytes, min(write_bytes) AS write_bytes,
       min(meta_ops) AS meta_ops, min(mpi_bytes) AS mpi_bytes, min(cpu_ns) AS cpu_ns
FROM js.step_neighbours
WHERE cluster_id = :cid AND job_id = :job AND other_job <> :job
GROUP BY slice, other_job, other_step, other_node, other_user, other_job_name;

\echo '== contributors to the background, slice by slice (top' :per_slice 'per slice)'
SELECT slice, slice_start, rank, other_job, other_step, other_user, other_job_name, other_node, same_node,
       read_bytes + write_bytes AS io_bytes, meta_ops, mpi_bytes, round((cpu_ns / 1e9)::numeric, 2) AS cpu_s,
       round((read_bytes + write_bytes)::numeric / nullif(slice_io, 0), 3) AS io_share
FROM (
    SELECT b.*, row_number() OVER (PARTITION BY b.slice
                                   ORDER BY b.read_bytes + b.write_bytes DESC, b.meta_ops DESC, b.cpu_ns DESC,
                                            b.other_job, b.other_step, b.other_node) AS rank,
           sum(b.read_bytes + b.write_bytes) OVER (PARTITION BY b.slice) AS slice_io
    FROM beside b
) x
WHERE rank <= :per_slice
ORDER BY slice, rank LIMIT :limit;

\echo '== other jobs over the whole span'
SELECT other_job, other_user, other_job_name, bool_or(same_node) AS same_node, count(DISTINCT slice) AS slices,
       sum(read_bytes + write_bytes)::bigint AS io_bytes, sum(meta_ops)::bigint AS meta_ops,
       sum(mpi_bytes)::bigint AS mpi_bytes, round((sum(cpu_ns) / 1e9)::numeric, 2) AS cpu_s
FROM beside
GROUP BY other_job, other_user, other_job_name
ORDER BY sum(read_bytes + write_bytes) DESC, sum(meta_ops) DESC, other_job LIMIT :limit;
