-- SPDX-License-Identifier: GPL-2.0-or-later
-- a file edge into a job explains its start: its time edge goes (ingest_finish calls this)
CREATE FUNCTION js_data.unlink_by_time(p_cluster smallint, p_jobs bigint[]) RETURNS void
LANGUAGE sql AS $$
    DELETE FROM js_data.dependencies t
    WHERE t.cluster_id = p_cluster AND t.kind = 'time' AND t.to_job = ANY (p_jobs)
      AND EXISTS (SELECT 1 FROM js_data.dependencies d WHERE d.cluster_id = p_cluster AND d.to_job = t.to_job
                  AND d.kind <> 'time' AND d.from_job <> t.to_job)
$$;
COMMENT ON FUNCTION js_data.unlink_by_time(smallint, bigint[]) IS 'remove the time edges of jobs that have a scheduler or file edge now';
