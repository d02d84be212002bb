-- SPDX-License-Identifier: GPL-2.0-or-later
-- The file replies (migration 061) that show jobs whose name or owner changed, or jobs of a user
-- renamed: the files of their accesses noted in js_data.reply_file_changes (by the primary
-- key's (cluster_id, job_id) prefix). Called by js_data.replies_note_change for every job
-- inserted (mostly none of them has an access yet) or renamed. PL/pgSQL keeps its plan for the
-- session; as an SQL function it was planned at each call: 1.2 ms a call, 0.19 s of issue 37's
-- bench at 128 processes a node.
CREATE FUNCTION js_data.replies_file_jobs(p_jobs js_data.replies_job[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO js_data.reply_file_changes (cluster_id, file_id)
        SELECT DISTINCT a.cluster_id, a.file_id
        FROM (SELECT DISTINCT k.cluster_id, k.job_id FROM unnest(p_jobs) k) k
        JOIN js_data.file_accesses a ON a.cluster_id = k.cluster_id AND a.job_id = k.job_id;
END $$;
COMMENT ON FUNCTION js_data.replies_file_jobs(js_data.replies_job[]) IS 'note the files accessed by these jobs in js_data.reply_file_changes (their stored file replies show the jobs'' names and owners)';
