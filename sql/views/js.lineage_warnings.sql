-- SPDX-License-Identifier: GPL-2.0-or-later
-- What file edges and scheduler edges tell together (docs/dependencies.md, "Warnings"): a job
-- that read a file another job of its user was still writing (its first read after the writer
-- began and before its last write: it may have read a partial file; no file edge says so, the
-- last write being after the read), and a file edge that nothing but luck ordered (the reader
-- was queued before the writer ended, and no chain of scheduler dependencies that wait for the
-- writer's end leads to it: had it started earlier it would have read nothing, or half).
-- System paths (no_edge_prefixes' defaults) are left out. One row per pair of steps and file.
CREATE VIEW js.lineage_warnings AS
    SELECT r.cluster_id, 'read_while_written'::text AS kind, w.job_id AS writer_job, w.step_id AS writer_step,
           r.job_id AS reader_job, r.step_id AS reader_step, r.file_id, f.path,
           min(w.first_access) AS writer_first, max(w.last_write) AS writer_last, min(r.first_read) AS reader_first,
           jr.uid
    FROM js_data.file_accesses r
    JOIN js_data.file_accesses w ON w.cluster_id = r.cluster_id AND w.file_id = r.file_id AND w.last_write IS NOT NULL
                                AND w.job_id <> r.job_id
    JOIN js_data.jobs jr ON jr.cluster_id = r.cluster_id AND jr.job_id = r.job_id
    JOIN js_data.jobs jw ON jw.cluster_id = w.cluster_id AND jw.job_id = w.job_id AND jw.uid = jr.uid
    JOIN js_data.files f ON f.cluster_id = r.cluster_id AND f.file_id = r.file_id
    WHERE r.first_read IS NOT NULL AND r.first_read >= w.first_access AND r.first_read < w.last_write
      AND NOT f.path ~ '^/(dev|proc|sys|run|etc|usr|lib|lib64|bin|sbin|var/lib|var/cache)/'
    GROUP BY r.cluster_id, w.job_id, w.step_id, r.job_id, r.step_id, r.file_id, f.path, jr.uid
    UNION ALL
    SELECT d.cluster_id, 'no_dependency'::text, d.from_job, d.from_step, d.to_job, d.to_step, d.file_id, f.path,
           NULL::timestamptz, d.from_time, d.to_time, b.uid
    FROM js_data.dependencies d
    JOIN js_data.jobs a ON a.cluster_id = d.cluster_id AND a.job_id = d.from_job
    JOIN js_data.jobs b ON b.cluster_id = d.cluster_id AND b.job_id = d.to_job AND b.uid = a.uid
    JOIN js_data.files f ON f.cluster_id = d.cluster_id AND f.file_id = d.file_id
    WHERE d.kind = 'file'
      -- queued before the writer ended (Slurm's whole seconds: in its last second counts as after)
      AND b.submit_time < date_trunc('second', a.end_time)
      -- a direct dependency first, one index probe (an OR is evaluated in its order): the walk
      -- up costs each file edge its own (a gather job's 900 file edges, 0.15 ms each)
      AND NOT (EXISTS (
          SELECT 1 FROM js_data.dependencies s
          WHERE s.cluster_id = d.cluster_id AND s.to_job = d.to_job AND s.kind = 'scheduler'
            AND s.from_job = d.from_job AND s.condition <> 'after') OR EXISTS (
          WITH RECURSIVE up (job_id, depth) AS (
              SELECT s.from_job, 1 FROM js_data.dependencies s
              WHERE s.cluster_id = d.cluster_id AND s.to_job = d.to_job AND s.kind = 'scheduler' AND s.condition <> 'after'
              UNION
              SELECT s.from_job, u.depth + 1 FROM up u
              JOIN js_data.dependencies s ON s.cluster_id = d.cluster_id AND s.to_job = u.job_id AND s.kind = 'scheduler'
                                         AND s.condition <> 'after'
              WHERE u.depth < 50)
          SELECT 1 FROM up WHERE up.job_id = d.from_job));
COMMENT ON VIEW js.lineage_warnings IS 'file edges and scheduler edges together (docs/dependencies.md, "Warnings"): kind read_while_written (reader_step first read path at reader_first while writer_step, of another job of the same user, wrote it from writer_first to writer_last) or no_dependency (a file edge whose reader was queued before the writer ended and waits for it by no chain of scheduler dependencies: it works by luck; writer_last the last write, reader_first the first read); uid the reader''s';
