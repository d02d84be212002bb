-- beside: what ran beside a given job.  For every slice of each of the job's steps, the other
-- steps that were active in that slice (anywhere on the cluster; same_node when they shared
-- one of the step's nodes), ranked by the bytes they moved, with their share of the
-- background's I/O in that slice: the contributors to the job's background, slice by slice.
-- Then the same summed per other job over the whole span.  Needs the per-slice detail, so
-- only for jobs younger than the retention age.
--   psql -f sql/reports/beside.sql -v job=JOBID [-v cluster=NAME] [-v per_slice=5] [-v limit=500]
\set ON_ERROR_STOP on
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

\echo '== contributors to the background, slice by slice (top' :per_slice 'per slice)'
SELECT step_id, slice, slice_start, rank, other_job, other_step, other_user, other_job_name, other_node, same_node,
       read_bytes + write_bytes AS io_bytes, meta_ops, mpi_bytes, round((cpu_ns / 1e9)::numeric, 2) AS cpu_s,
       round((read_bytes + write_bytes)::numeric / nullif(slice_io, 0), 3) AS io_share
FROM (
    SELECT n.*, row_number() OVER (PARTITION BY n.step_id, n.slice
                                   ORDER BY n.read_bytes + n.write_bytes DESC, n.meta_ops DESC, n.cpu_ns DESC,
                                            n.other_job, n.other_step, n.other_node) AS rank,
           sum(n.read_bytes + n.write_bytes) OVER (PARTITION BY n.step_id, n.slice) AS slice_io
    FROM js.step_neighbours n WHERE n.cluster_id = :cid AND n.job_id = :job
) x
WHERE rank <= :per_slice
ORDER BY slice, step_id, rank LIMIT :limit;

\echo '== other jobs over the whole span'
SELECT other_job, other_user, other_job_name, bool_or(same_node) AS same_node, count(DISTINCT slice) AS slices,
       sum(read_bytes + write_bytes)::bigint AS io_bytes, sum(meta_ops)::bigint AS meta_ops,
       sum(mpi_bytes)::bigint AS mpi_bytes, round((sum(cpu_ns) / 1e9)::numeric, 2) AS cpu_s
FROM js.step_neighbours n WHERE n.cluster_id = :cid AND n.job_id = :job
GROUP BY other_job, other_user, other_job_name
ORDER BY sum(read_bytes + write_bytes) DESC, sum(meta_ops) DESC, other_job LIMIT :limit;
