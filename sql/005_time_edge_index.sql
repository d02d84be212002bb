-- jobscreen schema, migration 005: an index for the time-edge lookup of js.time_edges (the
-- latest job of the same user that ended shortly before another started). Without it a
-- 1,000-job workflow graph spent most of its time there (docs/web.md, docs/performance.md).
CREATE INDEX jobs_user_end ON js_data.jobs (cluster_id, uid, end_time);
COMMENT ON INDEX js_data.jobs_user_end IS 'time edges: jobs of a user by end time (js.time_edges)';
