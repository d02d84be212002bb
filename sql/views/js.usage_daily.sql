-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.usage_daily AS
    SELECT d.cluster_id, c.name AS cluster, d.day, d.uid, u.name AS user_name, d.jobs_started, d.steps_started,
           d.steps_failed, d.steps_opted_out, d.cpu_seconds, d.node_seconds, d.read_bytes, d.write_bytes,
           d.meta_ops, d.mpi_bytes, d.io_ns, d.mpi_ns, d.process_cpu_ns, d.node_slices, d.computed_at
    FROM js_data.usage_daily d
    JOIN js_data.clusters c USING (cluster_id)
    LEFT JOIN js_data.users u ON u.cluster_id = d.cluster_id AND u.uid = d.uid;
COMMENT ON VIEW js.usage_daily IS 'daily usage per user (UTC days), from js_data.rollup_usage(); kept after the per-slice detail is dropped';
