CREATE VIEW js.usage_monthly AS
    SELECT cluster_id, cluster, date_trunc('month', day)::date AS month, uid, user_name,
           sum(jobs_started)::integer AS jobs_started, sum(steps_started)::integer AS steps_started,
           sum(steps_failed)::integer AS steps_failed, sum(steps_opted_out)::integer AS steps_opted_out,
           sum(cpu_seconds) AS cpu_seconds, sum(node_seconds) AS node_seconds,
           sum(read_bytes)::bigint AS read_bytes, sum(write_bytes)::bigint AS write_bytes,
           sum(meta_ops)::bigint AS meta_ops, sum(mpi_bytes)::bigint AS mpi_bytes, sum(io_ns)::bigint AS io_ns,
           sum(mpi_ns)::bigint AS mpi_ns, sum(process_cpu_ns)::bigint AS process_cpu_ns,
           sum(node_slices)::bigint AS node_slices, count(*)::integer AS days, max(computed_at) AS computed_at
    FROM js.usage_daily
    GROUP BY cluster_id, cluster, date_trunc('month', day), uid, user_name;
COMMENT ON VIEW js.usage_monthly IS 'monthly usage per user: the sums of js.usage_daily over the UTC month (days = days with usage)';
