-- SPDX-License-Identifier: GPL-2.0-or-later
-- Having computed step (p_cluster, p_job, p_step): its neighbours (steps of the cluster whose
-- slices overlap its own) with an insight older than the step's last record were computed
-- without it in their background. Each is queued again, due after a back-off: as long after
-- its last insight as that insight came after its end, at most a day. A neighbour already
-- queued keeps its turn.
CREATE FUNCTION js_data.insight_requeue_neighbours(p_cluster smallint, p_job bigint, p_step text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    s record;
    n integer;
BEGIN
    SELECT st.first_slice, st.last_slice,
           (SELECT max(sn.ingested_at) FROM js_data.step_nodes sn
            WHERE sn.cluster_id = st.cluster_id AND sn.job_id = st.job_id AND sn.step_id = st.step_id) AS arrived
    INTO s
    FROM js_data.steps st
    WHERE st.cluster_id = p_cluster AND st.job_id = p_job AND st.step_id = p_step;
    IF NOT s.first_slice <= s.last_slice THEN
        RETURN 0;
    END IF;
    INSERT INTO js_data.insight_pending (cluster_id, job_id, step_id, queued_at)
    SELECT o.cluster_id, o.job_id, o.step_id,
           greatest(now(), i.computed_at + least(greatest(i.computed_at - o.end_time, '0'::interval), '1 day'::interval))
    FROM js_data.steps o
    -- one lookup by key per neighbour (OFFSET 0 keeps it one): as a join, a young table's
    -- statistics made the plan read every insight of the cluster for each neighbour
    CROSS JOIN LATERAL (SELECT i.computed_at FROM js_data.step_insights i
                        WHERE i.cluster_id = o.cluster_id AND i.job_id = o.job_id AND i.step_id = o.step_id OFFSET 0) i
    WHERE int8range(o.first_slice, o.last_slice, '[]') && int8range(s.first_slice, s.last_slice, '[]')
      AND o.first_slice <= o.last_slice
      AND o.cluster_id = p_cluster
      AND NOT (o.job_id = p_job AND o.step_id = p_step)
      AND i.computed_at < s.arrived
    ON CONFLICT ON CONSTRAINT insight_pending_pkey DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END $$;
COMMENT ON FUNCTION js_data.insight_requeue_neighbours(smallint, bigint, text) IS 'queue again the steps overlapping the given one whose insight was computed before its records arrived (their background lacked it), each due after a back-off (as long after its last insight as that came after its end, at most a day); returns how many';
