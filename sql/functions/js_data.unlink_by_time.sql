-- SPDX-License-Identifier: GPL-2.0-or-later
-- a file edge into a job explains its start: its time edge goes (ingest_finish calls this), and
-- with it the merge of workflows it made where nothing else joins the two jobs
CREATE FUNCTION js_data.unlink_by_time(p_cluster smallint, p_jobs bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    e record;
BEGIN
    FOR e IN
        DELETE FROM js_data.dependencies t
        WHERE t.cluster_id = p_cluster AND t.kind = 'time' AND t.to_job = ANY (p_jobs)
          AND EXISTS (SELECT 1 FROM js_data.dependencies d WHERE d.cluster_id = p_cluster AND d.to_job = t.to_job
                      AND d.kind <> 'time' AND d.from_job <> t.to_job)
        RETURNING t.from_job, t.to_job
    LOOP
        PERFORM js_data.unmerge_time_edge(p_cluster, e.from_job, e.to_job);
    END LOOP;
END $$;
COMMENT ON FUNCTION js_data.unlink_by_time(smallint, bigint[]) IS 'remove the time edges of jobs that have a scheduler or file edge now, and the merges they made (js_data.unmerge_time_edge)';
