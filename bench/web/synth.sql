-- SPDX-License-Identifier: GPL-2.0-or-later
-- Synthetic data for the web benchmarks (bench/web/run) and the viewer's scale test: NOT the
-- output of real runs. It writes the js_data tables of sql/ directly, in the shapes the
-- ingest produces, at sizes no test cluster reaches:
--   * :njobs background jobs of 100 users (one step, one node, one process each), in
--     workflows of 10 jobs, one job starting every 3 s;
--   * one workflow of :wfjobs jobs of user :'wfuser' (3 steps each): a wide fan-out into a job
--     array, a gather and a chain, with scheduler and file edges;
--   * one step of :bignodes nodes running :bigslices slices (24 h at 4 s = 21600) with a
--     metric vector on every node and slice, under the per-slice activity of the :overlap
--     background jobs that share its time window. The per-slice rows go into a temporary
--     table shaped like js_data.live_slice_metrics, stored as series by js_data.series_load()
--     (which queues the step-nodes in js_data.totals_pending); the step, node and cluster
--     series are then built by the fold: run profile_ingest --once (an empty spool will do)
--     after this script, as bench/web/run and bench/scale/run do.
--   * the insight (docs/insight.md) of the steps the caller wants computed, said by :insight
--     (no default): "all" leaves every step queued, as the ingest of real records would (that
--     run of profile_ingest then computes them all: at a few hundred steps a second, about an
--     hour for a million);
--     a number N keeps N queued, the big step first, then the workflow's steps, then the
--     background steps from the big step's start on (the first :overlap of them run beside
--     it); 0 none. bench/web/run keeps a sample, bench/scale/run's api phase none, its queue
--     phase all.
-- psql -v njobs=1000000 -v wfjobs=1000 -v bignodes=64 -v bigslices=21600 -v overlap=2000 -v wfuser=jsbench \
--      -v insight=5000 -f synth.sql
\set ON_ERROR_STOP on
\if :{?insight}
\else
DO $$ BEGIN RAISE EXCEPTION 'synth.sql: say which insight to compute: -v insight=all, or the number of steps (0: none)'; END $$;
\endif
BEGIN;
INSERT INTO js_data.clusters (name, slice_seconds) VALUES ('synth', 4) ON CONFLICT (name) DO NOTHING;
SELECT cluster_id AS c FROM js_data.clusters WHERE name = 'synth' \gset
-- the time base: the big step starts here, background jobs spread around it
SELECT (floor(extract(epoch FROM timestamptz '2026-01-05 00:00:00+00') / 4))::bigint AS s0 \gset

INSERT INTO js_data.users (cluster_id, uid, name)
    SELECT :c, 30000 + u, 'synth' || u FROM generate_series(0, 99) u
    UNION ALL SELECT :c, 39999, :'wfuser'
    ON CONFLICT DO NOTHING;

-- background jobs: workflow w = (i-1)/10 + 1 belongs to uid 30000 + w % 100
INSERT INTO js_data.workflows (cluster_id, workflow_id, uid, tag, name)
    SELECT :c, w, 30000 + w % 100, 'wf' || w, 'wf' || w FROM generate_series(1, (:njobs + 9) / 10) w;
INSERT INTO js_data.jobs (cluster_id, job_id, uid, gid, name, partition, account, workflow_tag, workflow_id,
        submit_time, start_time, end_time, state, exit_code, num_nodes, num_cpus, num_tasks, nodelist, record)
    SELECT :c, i, 30000 + ((i - 1) / 10 + 1) % 100, 100, 'job' || (i % 97), 'batch', 'acct', 'wf' || ((i - 1) / 10 + 1),
           (i - 1) / 10 + 1, ts - interval '30 s', ts, ts + interval '600 s',
           CASE WHEN i % 50 = 0 THEN 'FAILED' ELSE 'COMPLETED' END, CASE WHEN i % 50 = 0 THEN 1 ELSE 0 END,
           1, 4, 4, 'n' || (i % 256), '{}'::jsonb
    FROM generate_series(1, :njobs) i,
         LATERAL (SELECT to_timestamp((:s0 * 4) + (i - :njobs / 2) * 3) AS ts) t;
INSERT INTO js_data.steps (cluster_id, job_id, step_id, name, start_time, end_time, state, exit_code, num_nodes,
        num_tasks, num_cpus, nodelist, first_slice, last_slice, nodes_ingested)
    SELECT :c, job_id, '0', 'app', start_time, end_time, 'COMPLETED', 0, 1, 4, 4, nodelist,
           floor(extract(epoch FROM start_time) / 4)::bigint, floor(extract(epoch FROM end_time) / 4)::bigint, 1
    FROM js_data.jobs WHERE cluster_id = :c AND job_id <= :njobs;
INSERT INTO js_data.step_nodes (cluster_id, job_id, step_id, node, start_time, end_time, state, exit_code,
        num_tasks, profiles, record)
    SELECT :c, job_id, '0', nodelist, start_time, end_time, 'COMPLETED', 0, 4, 1, '{}'::jsonb
    FROM js_data.jobs WHERE cluster_id = :c AND job_id <= :njobs;
INSERT INTO js_data.processes (cluster_id, job_id, step_id, node, pid, start_time, end_time, wall_ns, cpu_user_ns,
        cpu_sys_ns, max_rss_kib, threads_peak, threads_seen, compute_ns, slices_truncated, files_dropped,
        posix_read_bytes, posix_write_bytes, posix_ns, mpi_p2p_ns, mpi_coll_ns, cpu_ns)
    SELECT :c, job_id, '0', nodelist, 1000 + job_id % 30000, start_time, end_time, 600e9, 500e9, 10e9, 10000, 1, 1,
           480e9, false, 0, 1e6 * (job_id % 7), 1e6 * (job_id % 5), 60e9, 40e9, 20e9, 510e9
    FROM js_data.jobs WHERE cluster_id = :c AND job_id <= :njobs;

-- the benchmark workflow: jobs W+1 .. W+wfjobs, W = njobs: "prepare" (k = 1) fans out to
-- a job array of wfjobs - 100 "scatter" tasks, "gather" waits for all of them, then a chain of
-- "post" jobs. Each job writes out.<k> in its last step; its successors read it in step 0.
SELECT :njobs AS w0, (:njobs + 9) / 10 + 1 AS wfid, :wfjobs - 99 AS kg \gset
INSERT INTO js_data.workflows (cluster_id, workflow_id, uid, tag, name) VALUES (:c, :wfid, 39999, 'bench', 'bench');
INSERT INTO js_data.jobs (cluster_id, job_id, uid, gid, name, partition, account, workflow_tag, workflow_id,
        submit_time, start_time, end_time, state, exit_code, num_nodes, num_cpus, num_tasks, nodelist, dependency, record)
    SELECT :c, :w0 + k, 39999, 100, x.name, 'batch', 'acct', 'bench', :wfid, x.t0 - interval '20 s', x.t0,
           x.t0 + x.d * interval '1 s', 'COMPLETED', 0, 1 + k % 4, 8, 8, 'n' || (k % 64), x.dep,
           CASE WHEN x.name = 'scatter' THEN jsonb_build_object('array_job_id', :w0 + 2, 'array_task_id', k - 2)
                ELSE '{}'::jsonb END
    FROM generate_series(1, :wfjobs) k,
         LATERAL (SELECT CASE WHEN k = 1 THEN 'prepare' WHEN k < :kg THEN 'scatter' WHEN k = :kg THEN 'gather' ELSE 'post' END AS name,
                         to_timestamp(:s0 * 4 + CASE WHEN k = 1 THEN 0 WHEN k < :kg THEN 200 + (k % 40) * 10
                                                     ELSE 1000 + (k - :kg) * 100 END) AS t0,
                         CASE WHEN k = 1 THEN 180 WHEN k < :kg THEN 300 + k % 17 * 20 ELSE 60 + k % 5 * 10 END AS d,
                         CASE WHEN k = 1 THEN NULL WHEN k < :kg THEN 'afterok:' || (:w0 + 1)
                              WHEN k = :kg THEN 'afterok:' || (:w0 + 2) || '_*' ELSE 'afterok:' || (:w0 + k - 1) END AS dep) x;
INSERT INTO js_data.steps (cluster_id, job_id, step_id, name, start_time, end_time, state, exit_code, num_nodes,
        num_tasks, num_cpus, nodelist, first_slice, last_slice, nodes_ingested)
    SELECT :c, j.job_id, s::text, 'app' || s, t0, t1, 'COMPLETED', 0, j.num_nodes, 8, 8, j.nodelist,
           floor(extract(epoch FROM t0) / 4)::bigint, floor(extract(epoch FROM t1) / 4)::bigint, 1
    FROM js_data.jobs j, generate_series(0, 2) s,
         LATERAL (SELECT j.start_time + (j.end_time - j.start_time) * s / 3 AS t0,
                         j.start_time + (j.end_time - j.start_time) * (s + 1) / 3 AS t1) t
    WHERE j.cluster_id = :c AND j.workflow_id = :wfid;
INSERT INTO js_data.step_nodes (cluster_id, job_id, step_id, node, start_time, end_time, state, exit_code, num_tasks, profiles, record)
    SELECT cluster_id, job_id, step_id, nodelist, start_time, end_time, 'COMPLETED', 0, 8, 1, '{}'::jsonb
    FROM js_data.steps WHERE cluster_id = :c AND job_id > :w0 AND job_id <= :w0 + :wfjobs;
INSERT INTO js_data.processes (cluster_id, job_id, step_id, node, pid, start_time, end_time, wall_ns, cpu_user_ns,
        cpu_sys_ns, max_rss_kib, threads_peak, threads_seen, compute_ns, slices_truncated, files_dropped,
        posix_write_bytes, posix_ns, stdio_ns, mpi_p2p_ns, mpi_coll_ns, cpu_ns)
    SELECT cluster_id, job_id, step_id, nodelist, 2000 + r, start_time, end_time, 100e9, 60e9, 5e9, 20000, 1, 1,
           (100 - (job_id % 5) * 10 - step_id::int * 15)::bigint * 1e9 * 0.5, false, 0,
           1e7, (job_id % 5) * 5e9, step_id::int * 3e9, step_id::int * 7e9, (job_id % 3) * 4e9, 65e9
    FROM js_data.steps, generate_series(0, 3) r
    WHERE cluster_id = :c AND job_id > :w0 AND job_id <= :w0 + :wfjobs;
INSERT INTO js_data.dependencies (cluster_id, kind, from_job, to_job, condition)
    SELECT :c, 'scheduler', :w0 + CASE WHEN k < :kg THEN 1 ELSE k - 1 END, :w0 + k, 'afterok'
    FROM generate_series(2, :wfjobs) k WHERE k <> :kg
    UNION ALL SELECT :c, 'scheduler', :w0 + k, :w0 + :kg, 'afterok' FROM generate_series(2, :kg - 1) k;
INSERT INTO js_data.files (cluster_id, path, node, scope, fs_type)
    SELECT :c, '/scratch/jsbench/out.' || k, '', 'shared', 'lustre' FROM generate_series(1, :wfjobs) k;
INSERT INTO js_data.file_accesses (cluster_id, job_id, step_id, node, file_id, mode, processes, opens, writes,
        bytes_written, first_access, last_access, last_write, interfaces)
    SELECT :c, j.job_id, '2', j.nodelist, f.file_id, 'w', 1, 1, 100, 1e8, j.end_time - interval '5 s', j.end_time, j.end_time, 'posix'
    FROM js_data.jobs j JOIN js_data.files f ON f.cluster_id = :c AND f.path = '/scratch/jsbench/out.' || (j.job_id - :w0)
    WHERE j.cluster_id = :c AND j.workflow_id = :wfid;
INSERT INTO js_data.file_accesses (cluster_id, job_id, step_id, node, file_id, mode, processes, opens, reads,
        bytes_read, first_access, last_access, first_read, interfaces)
    SELECT :c, d.to_job, '0', j.nodelist, f.file_id, 'r', 1, 1, 100, 1e8, j.start_time, j.start_time + interval '5 s', j.start_time, 'stdio'
    FROM js_data.dependencies d
    JOIN js_data.jobs j ON j.cluster_id = d.cluster_id AND j.job_id = d.to_job
    JOIN js_data.files f ON f.cluster_id = :c AND f.path = '/scratch/jsbench/out.' || (d.from_job - :w0)
    WHERE d.cluster_id = :c AND d.kind = 'scheduler' AND d.to_job > :w0;
INSERT INTO js_data.dependencies (cluster_id, kind, from_job, from_step, to_job, to_step, file_id, from_time, to_time)
    SELECT :c, 'file', w.job_id, w.step_id, r.job_id, r.step_id, r.file_id, w.last_write, r.first_read
    FROM js_data.file_accesses r JOIN js_data.file_accesses w ON w.cluster_id = r.cluster_id AND w.file_id = r.file_id
    WHERE r.cluster_id = :c AND r.mode = 'r' AND w.mode = 'w' AND r.job_id > :w0 AND w.job_id <> r.job_id
      AND w.last_write <= r.first_read;

-- the big step: job BIG = w0 + wfjobs + 1, step 0 on :bignodes nodes for :bigslices slices
SELECT :w0 + :wfjobs + 1 AS big \gset
SELECT js_data.ensure_slice_partitions(:s0 - 200, :s0 + :bigslices + 200);
INSERT INTO js_data.workflows (cluster_id, workflow_id, uid, tag, name) VALUES (:c, :wfid + 1, 39999, 'long', 'long');
INSERT INTO js_data.jobs (cluster_id, job_id, uid, gid, name, partition, account, workflow_tag, workflow_id,
        submit_time, start_time, end_time, state, exit_code, num_nodes, num_cpus, num_tasks, nodelist, record)
    VALUES (:c, :big, 39999, 100, 'long-run', 'batch', 'acct', 'long', :wfid + 1, to_timestamp(:s0 * 4 - 60),
            to_timestamp(:s0 * 4), to_timestamp((:s0 + :bigslices) * 4), 'COMPLETED', 0, :bignodes, :bignodes * 64,
            :bignodes * 64, 'n[0-' || (:bignodes - 1) || ']', '{}'::jsonb);
INSERT INTO js_data.steps (cluster_id, job_id, step_id, name, start_time, end_time, state, exit_code, num_nodes,
        num_tasks, num_cpus, nodelist, first_slice, last_slice, nodes_ingested)
    VALUES (:c, :big, '0', 'simulate', to_timestamp(:s0 * 4), to_timestamp((:s0 + :bigslices) * 4), 'COMPLETED', 0,
            :bignodes, :bignodes * 64, :bignodes * 64, 'n[0-' || (:bignodes - 1) || ']', :s0, :s0 + :bigslices - 1, :bignodes);
INSERT INTO js_data.step_nodes (cluster_id, job_id, step_id, node, start_time, end_time, state, exit_code, num_tasks, profiles, record)
    SELECT :c, :big, '0', 'n' || n, to_timestamp(:s0 * 4), to_timestamp((:s0 + :bigslices) * 4), 'COMPLETED', 0, 64, 64, '{}'::jsonb
    FROM generate_series(0, :bignodes - 1) n;
INSERT INTO js_data.processes (cluster_id, job_id, step_id, node, pid, start_time, end_time, wall_ns, cpu_user_ns,
        cpu_sys_ns, max_rss_kib, threads_peak, threads_seen, compute_ns, slices_truncated, files_dropped,
        mpi_p2p_ns, mpi_coll_ns, posix_ns, cpu_ns)
    SELECT :c, :big, '0', 'n' || n, 100 + r, to_timestamp(:s0 * 4), to_timestamp((:s0 + :bigslices) * 4),
           :bigslices * 4e9, :bigslices * 3.5e9, 1e9, 100000, 1, 1, :bigslices * 2.8e9, false, 0,
           :bigslices * 0.6e9, :bigslices * 0.4e9, :bigslices * 0.2e9, :bigslices * 3.6e9
    FROM generate_series(0, :bignodes - 1) n, generate_series(0, 3) r;
CREATE TEMP TABLE synth_slices (LIKE js_data.live_slice_metrics INCLUDING DEFAULTS) ON COMMIT DROP;
INSERT INTO synth_slices (cluster_id, job_id, step_id, node, slice, processes, posix_write_calls,
        posix_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_ns, cpu_ns)
    SELECT :c, :big, '0', 'n' || n, :s0 + s, 64, CASE WHEN s % 450 = 0 THEN 64 ELSE 0 END,
           CASE WHEN s % 450 = 0 THEN 64e6 ELSE 0 END, 1000, 1e8, 1.5e9, 200, 1e9, 230e9 - (s % 97) * 1e8
    FROM generate_series(0, :bignodes - 1) n, generate_series(0, :bigslices - 1) s;
-- the per-slice activity of the background jobs that overlap the big step (one node each)
INSERT INTO synth_slices (cluster_id, job_id, step_id, node, slice, processes, posix_read_calls,
        posix_read_bytes, posix_write_calls, posix_write_bytes, cpu_ns)
    SELECT :c, j.job_id, '0', j.nodelist, s, 1, 10, 1e6 * (j.job_id % 7), 10, 1e6 * (j.job_id % 5), 3.5e9
    FROM js_data.jobs j,
         LATERAL generate_series(floor(extract(epoch FROM j.start_time) / 4)::bigint,
                                 floor(extract(epoch FROM j.end_time) / 4)::bigint) s
    WHERE j.cluster_id = :c AND j.job_id BETWEEN :njobs / 2 AND :njobs / 2 + :overlap - 1;
-- each step's sums over its processes, as the ingest keeps them (js_data.ingest_step_sums)
SELECT js_data.steps_resum() AS steps_summed \gset
-- the kernel's counts of each slice (profile format 5): what the wrappers saw, and a page per
-- process besides (its own reads of /proc, a pipe)
UPDATE synth_slices SET kernel_rchar = posix_read_bytes + stdio_read_bytes + lower_read_bytes + 4096 * processes,
                        kernel_wchar = posix_write_bytes + stdio_write_bytes + lower_write_bytes,
                        kernel_syscr = posix_read_calls + processes, kernel_syscw = posix_write_calls,
                        kernel_write_bytes = posix_write_bytes + stdio_write_bytes;
-- as series (one row per step, node and chunk), the step-nodes queued for the fold
SELECT js_data.series_load('synth_slices'::regclass, true) AS series_rows \gset
\echo synth: series_step_node rows :series_rows
-- the insight wanted: the trigger on js_data.step_nodes queued every step written above
SELECT :'insight' = 'all' AS insight_all \gset
\if :insight_all
\else
DELETE FROM js_data.insight_pending p
WHERE p.cluster_id = :c
  AND NOT EXISTS (SELECT FROM (SELECT s.job_id, s.step_id FROM js_data.steps s WHERE s.cluster_id = :c
                               ORDER BY s.job_id <> :big, s.job_id NOT BETWEEN :w0 + 1 AND :w0 + :wfjobs,
                                        s.job_id < :njobs / 2, s.job_id, s.step_id
                               LIMIT :insight) k
                  WHERE k.job_id = p.job_id AND k.step_id = p.step_id);
\endif
SELECT count(*) AS insight_queued FROM js_data.insight_pending WHERE cluster_id = :c \gset
\echo synth: insight queued :insight_queued
SELECT setval(pg_get_serial_sequence('js_data.workflows', 'workflow_id'), (SELECT max(workflow_id) FROM js_data.workflows));
COMMIT;
-- the sums above rewrote every step row once (as the ingest does: a step record's row, then its
-- sums); autovacuum would mark the pages all-visible again in a running site, here at once, so
-- that the lists' index-only scans of js_data.steps do not fetch every row from the heap
VACUUM js_data.steps;
VACUUM js_data.insight_pending; -- the rows of the steps not wanted, dead
ANALYZE;
SELECT :wfid AS workflow_id, :big AS big_job \gset
\echo synth: workflow :wfid big job :big
