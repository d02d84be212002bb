-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.insight_queue_step() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO js_data.insight_pending (cluster_id, job_id, step_id)
    VALUES (NEW.cluster_id, NEW.job_id, NEW.step_id)
    ON CONFLICT (cluster_id, job_id, step_id) DO UPDATE SET queued_at = now();
    RETURN NULL;
END $$;
COMMENT ON FUNCTION js_data.insight_queue_step() IS 'trigger: queue the step of an ingested step record for its insight';
CREATE TRIGGER step_nodes_insight AFTER INSERT OR UPDATE ON js_data.step_nodes
    FOR EACH ROW EXECUTE FUNCTION js_data.insight_queue_step();
