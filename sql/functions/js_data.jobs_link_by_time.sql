-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.jobs_link_by_time() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM js_data.link_by_time(NEW.cluster_id, NEW.job_id);
    RETURN NULL;
END $$;
CREATE TRIGGER jobs_time_edge AFTER INSERT OR UPDATE OF submit_time, start_time, end_time, work_dir, workflow_tag, dependency
    ON js_data.jobs FOR EACH ROW EXECUTE FUNCTION js_data.jobs_link_by_time();
COMMENT ON TRIGGER jobs_time_edge ON js_data.jobs IS 'a job''s time edge follows its times (js_data.link_by_time)';
