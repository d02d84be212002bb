-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.usage_monthly AS
    SELECT cluster_id, cluster, date_trunc('month', day)::date AS month, uid, user_name,
           sum(jobs_started)::integer AS jobs_started, sum(steps_started)::integer AS steps_started,
           sum(steps_failed)::integer AS steps_failed, sum(steps_opted_out)::integer AS steps_opted_out,
           sum(cpu_seconds) AS cpu_seconds, sum(node_seconds) AS node_seconds,
           js.saturated(sum(read_bytes)) AS read_bytes, js.saturated(sum(write_bytes)) AS write_bytes,
           js.saturated(sum(meta_ops)) AS meta_ops, js.saturated(sum(mpi_bytes)) AS mpi_bytes, js.saturated(sum(io_ns)) AS io_ns,
           js.saturated(sum(mpi_ns)) AS mpi_ns, js.saturated(sum(process_cpu_ns)) AS process_cpu_ns,
           js.saturated(sum(node_slices)) AS node_slices, count(*)::integer AS days, max(computed_at) AS computed_at
    FROM js.usage_daily
    GROUP BY cluster_id, cluster, date_trunc('month', day), uid, user_name;
COMMENT ON VIEW js.usage_monthly IS 'monthly usage per user: the sums of js.usage_daily over the UTC month (days = days with usage)';
