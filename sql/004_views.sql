-- jobscreen schema, migration 004: the views in schema js.  They are the contract for the web
-- CGI (web/), the admin reports (sql/reports/) and admins at psql: columns are only ever added
-- to them.  Documented in docs/schema.md.  Times are timestamptz; durations and metrics are
-- integers in the units of docs/profile-format.md (ns, bytes, calls).

CREATE VIEW js.clusters AS
    SELECT cluster_id, name AS cluster, slice_seconds FROM js_data.clusters;
COMMENT ON VIEW js.clusters IS 'clusters and their slice length';

CREATE VIEW js.workflows AS
    SELECT w.cluster_id, c.name AS cluster, w.workflow_id, w.uid, u.name AS user_name, w.tag, w.name,
           w.tag IS NULL AS derived, count(j.job_id)::integer AS jobs,
           min(j.submit_time) AS first_submit, min(j.start_time) AS first_start, max(j.end_time) AS last_end,
           count(*) FILTER (WHERE j.state NOT IN ('COMPLETED', 'RUNNING'))::integer AS jobs_not_ok
    FROM js_data.workflows w
    JOIN js_data.clusters c USING (cluster_id)
    LEFT JOIN js_data.users u ON u.cluster_id = w.cluster_id AND u.uid = w.uid
    LEFT JOIN js_data.jobs j ON j.cluster_id = w.cluster_id AND j.workflow_id = w.workflow_id
    GROUP BY w.cluster_id, c.name, w.workflow_id, w.uid, u.name, w.tag, w.name;
COMMENT ON VIEW js.workflows IS 'workflows: explicit (--workflow tag) or derived (connected scheduler and file edges of one user''s untagged jobs), with job counts and time span';

CREATE VIEW js.jobs AS
    SELECT j.cluster_id, c.name AS cluster, j.job_id, j.uid, u.name AS user_name, j.gid, j.name, j.partition,
           j.account, j.workflow_id, w.name AS workflow_name, j.workflow_tag, j.submit_time, j.start_time,
           j.end_time, extract(epoch FROM j.end_time - j.start_time)::double precision AS elapsed_s,
           j.state, j.exit_code, j.num_nodes, j.num_cpus, j.num_tasks, j.nodelist, j.dependency, j.work_dir,
           (j.record->>'final')::boolean AS final,
           (SELECT count(*) FROM js_data.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id)::integer AS steps,
           EXISTS (SELECT 1 FROM js_data.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id AND s.incomplete) AS incomplete
    FROM js_data.jobs j
    JOIN js_data.clusters c USING (cluster_id)
    LEFT JOIN js_data.users u ON u.cluster_id = j.cluster_id AND u.uid = j.uid
    LEFT JOIN js_data.workflows w ON w.cluster_id = j.cluster_id AND w.workflow_id = j.workflow_id;
COMMENT ON VIEW js.jobs IS 'jobs with user and workflow names; final is false while the record was written before the job ended';

CREATE VIEW js.steps AS
    SELECT s.cluster_id, s.job_id, s.step_id, j.uid, s.name, s.start_time, s.end_time,
           extract(epoch FROM s.end_time - s.start_time)::double precision AS elapsed_s,
           s.state, s.exit_code, s.num_nodes, s.num_tasks, s.num_cpus, s.nodelist, s.profiled,
           s.first_slice, s.last_slice, s.nodes_ingested, s.incomplete,
           coalesce(p.processes, 0)::integer AS processes,
           coalesce(p.wall_ns, 0)::bigint AS wall_ns,
           coalesce(p.compute_ns, 0)::bigint AS compute_ns,
           coalesce(p.mpi_p2p_ns, 0)::bigint AS mpi_p2p_ns,
           coalesce(p.mpi_coll_ns, 0)::bigint AS mpi_coll_ns,
           coalesce(p.posix_ns, 0)::bigint AS io_posix_ns,
           coalesce(p.stdio_ns, 0)::bigint AS io_stdio_ns,
           coalesce(p.mpiio_ns, 0)::bigint AS io_mpiio_ns,
           coalesce(p.posix_read_bytes + p.stdio_read_bytes + p.mpiio_read_bytes, 0)::bigint AS read_bytes,
           coalesce(p.posix_write_bytes + p.stdio_write_bytes + p.mpiio_write_bytes, 0)::bigint AS write_bytes,
           coalesce(p.posix_open_calls + p.posix_meta_calls + p.stdio_open_calls + p.stdio_meta_calls + p.mpiio_meta_calls, 0)::bigint AS meta_calls,
           coalesce(p.cpu_ns, 0)::bigint AS cpu_ns
    FROM js_data.steps s
    JOIN js_data.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id
    LEFT JOIN LATERAL (
        SELECT count(*) AS processes, sum(wall_ns) AS wall_ns, sum(compute_ns) AS compute_ns,
               sum(mpi_p2p_ns) AS mpi_p2p_ns, sum(mpi_coll_ns) AS mpi_coll_ns, sum(posix_ns) AS posix_ns,
               sum(stdio_ns) AS stdio_ns, sum(mpiio_ns) AS mpiio_ns, sum(posix_read_bytes) AS posix_read_bytes,
               sum(stdio_read_bytes) AS stdio_read_bytes, sum(mpiio_read_bytes) AS mpiio_read_bytes,
               sum(posix_write_bytes) AS posix_write_bytes, sum(stdio_write_bytes) AS stdio_write_bytes,
               sum(mpiio_write_bytes) AS mpiio_write_bytes, sum(posix_open_calls) AS posix_open_calls,
               sum(posix_meta_calls) AS posix_meta_calls, sum(stdio_open_calls) AS stdio_open_calls,
               sum(stdio_meta_calls) AS stdio_meta_calls, sum(mpiio_meta_calls) AS mpiio_meta_calls,
               sum(cpu_ns) AS cpu_ns
        FROM js_data.processes p
        WHERE p.cluster_id = s.cluster_id AND p.job_id = s.job_id AND p.step_id = s.step_id) p ON true;
COMMENT ON VIEW js.steps IS 'steps merged over their nodes, with the runtime share summed over their processes (wall_ns = compute_ns + mpi_p2p_ns + mpi_coll_ns + io_*_ns), I/O volume and metadata calls';

CREATE VIEW js.step_nodes AS
    SELECT cluster_id, job_id, step_id, node, start_time, end_time, state, exit_code, num_tasks,
           profiles, quarantined, incomplete, ingested_at, ingested_by
    FROM js_data.step_nodes;
COMMENT ON VIEW js.step_nodes IS 'one row per step and node ingested (the ingest''s unit)';

CREATE VIEW js.processes AS
    SELECT p.*, j.uid FROM js_data.processes p
    JOIN js_data.jobs j ON j.cluster_id = p.cluster_id AND j.job_id = p.job_id;
COMMENT ON VIEW js.processes IS 'per-process totals (one row per profile) with the job''s uid';

CREATE VIEW js.step_digest AS
    SELECT p.cluster_id, p.job_id, p.step_id, m.metric, min(m.value)::bigint AS min,
           avg(m.value)::double precision AS avg, max(m.value)::bigint AS max, sum(m.value)::bigint AS sum,
           count(*)::integer AS processes
    FROM js_data.processes p,
    LATERAL (VALUES
        ('posix_read_calls', p.posix_read_calls),
        ('posix_read_bytes', p.posix_read_bytes),
        ('posix_write_calls', p.posix_write_calls),
        ('posix_write_bytes', p.posix_write_bytes),
        ('posix_open_calls', p.posix_open_calls),
        ('posix_meta_calls', p.posix_meta_calls),
        ('posix_ns', p.posix_ns),
        ('stdio_read_calls', p.stdio_read_calls),
        ('stdio_read_bytes', p.stdio_read_bytes),
        ('stdio_write_calls', p.stdio_write_calls),
        ('stdio_write_bytes', p.stdio_write_bytes),
        ('stdio_open_calls', p.stdio_open_calls),
        ('stdio_meta_calls', p.stdio_meta_calls),
        ('stdio_ns', p.stdio_ns),
        ('lower_read_bytes', p.lower_read_bytes),
        ('lower_write_bytes', p.lower_write_bytes),
        ('mpi_send_calls', p.mpi_send_calls),
        ('mpi_send_bytes', p.mpi_send_bytes),
        ('mpi_recv_calls', p.mpi_recv_calls),
        ('mpi_recv_bytes', p.mpi_recv_bytes),
        ('mpi_p2p_ns', p.mpi_p2p_ns),
        ('mpi_coll_calls', p.mpi_coll_calls),
        ('mpi_coll_bytes', p.mpi_coll_bytes),
        ('mpi_coll_ns', p.mpi_coll_ns),
        ('mpiio_read_calls', p.mpiio_read_calls),
        ('mpiio_read_bytes', p.mpiio_read_bytes),
        ('mpiio_write_calls', p.mpiio_write_calls),
        ('mpiio_write_bytes', p.mpiio_write_bytes),
        ('mpiio_coll_calls', p.mpiio_coll_calls),
        ('mpiio_meta_calls', p.mpiio_meta_calls),
        ('mpiio_ns', p.mpiio_ns),
        ('cpu_ns', p.cpu_ns)
    ) AS m(metric, value)
    GROUP BY p.cluster_id, p.job_id, p.step_id, m.metric;
COMMENT ON VIEW js.step_digest IS 'digest of a step: per metric, min/avg/max/sum of the per-process totals (filter by cluster_id, job_id, step_id)';

CREATE VIEW js.step_node_slices AS
    SELECT m.*, js_data.slice_start(m.cluster_id, m.slice) AS slice_start
    FROM js_data.slice_metrics m;
COMMENT ON VIEW js.step_node_slices IS 'per-slice metric vectors of a step on one node (only slices with activity)';

CREATE VIEW js.step_slices AS
    SELECT cluster_id, job_id, step_id, slice, js_data.slice_start(cluster_id, slice) AS slice_start,
           count(*)::integer AS nodes, sum(processes)::integer AS processes,
    sum(posix_read_calls)::bigint AS posix_read_calls,
    sum(posix_read_bytes)::bigint AS posix_read_bytes,
    sum(posix_write_calls)::bigint AS posix_write_calls,
    sum(posix_write_bytes)::bigint AS posix_write_bytes,
    sum(posix_open_calls)::bigint AS posix_open_calls,
    sum(posix_meta_calls)::bigint AS posix_meta_calls,
    sum(posix_ns)::bigint AS posix_ns,
    sum(stdio_read_calls)::bigint AS stdio_read_calls,
    sum(stdio_read_bytes)::bigint AS stdio_read_bytes,
    sum(stdio_write_calls)::bigint AS stdio_write_calls,
    sum(stdio_write_bytes)::bigint AS stdio_write_bytes,
    sum(stdio_open_calls)::bigint AS stdio_open_calls,
    sum(stdio_meta_calls)::bigint AS stdio_meta_calls,
    sum(stdio_ns)::bigint AS stdio_ns,
    sum(lower_read_bytes)::bigint AS lower_read_bytes,
    sum(lower_write_bytes)::bigint AS lower_write_bytes,
    sum(mpi_send_calls)::bigint AS mpi_send_calls,
    sum(mpi_send_bytes)::bigint AS mpi_send_bytes,
    sum(mpi_recv_calls)::bigint AS mpi_recv_calls,
    sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes,
    sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns,
    sum(mpi_coll_calls)::bigint AS mpi_coll_calls,
    sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes,
    sum(mpi_coll_ns)::bigint AS mpi_coll_ns,
    sum(mpiio_read_calls)::bigint AS mpiio_read_calls,
    sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes,
    sum(mpiio_write_calls)::bigint AS mpiio_write_calls,
    sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes,
    sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls,
    sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls,
    sum(mpiio_ns)::bigint AS mpiio_ns,
    sum(cpu_ns)::bigint AS cpu_ns
    FROM js_data.slice_metrics
    GROUP BY cluster_id, job_id, step_id, slice;
COMMENT ON VIEW js.step_slices IS 'per-slice metric vectors of a step summed over its nodes (only slices with activity)';

-- The slice totals: plain range reads by (cluster_id, slice[, node]) on the pre-aggregated
-- tables.  They lag the newest step records until profile_ingest folds its queue
-- (js_data.totals_pending, after every pass of the daemon and before --once exits).
CREATE VIEW js.slice_totals_cluster AS
    SELECT t.*, js_data.slice_start(t.cluster_id, t.slice) AS slice_start FROM js_data.slice_totals_cluster t;
COMMENT ON VIEW js.slice_totals_cluster IS 'pre-aggregated per-slice sums over the whole cluster (all jobs); a range read by slice; lags the step records still in js_data.totals_pending';

CREATE VIEW js.slice_totals_node AS
    SELECT t.*, js_data.slice_start(t.cluster_id, t.slice) AS slice_start FROM js_data.slice_totals_node t;
COMMENT ON VIEW js.slice_totals_node IS 'pre-aggregated per-slice sums per node (all jobs); a range read by slice and node; lags the step records still in js_data.totals_pending';

-- The performance background of every step: for each slice of its time span, its own
-- metrics (summed over its nodes; 0 where it had no activity) and bg_<metric> = the sum over
-- all other steps in that slice.  Always filter by (cluster_id, job_id, step_id): each part
-- is then one range read (the step's vectors, the totals of its slice range).
CREATE VIEW js.step_background_cluster AS
    SELECT s.cluster_id, s.job_id, s.step_id, x.slice, js_data.slice_start(s.cluster_id, x.slice) AS slice_start,
           x.bg_step_nodes, x.posix_read_calls, x.bg_posix_read_calls, x.posix_read_bytes, x.bg_posix_read_bytes, x.posix_write_calls, x.bg_posix_write_calls, x.posix_write_bytes, x.bg_posix_write_bytes, x.posix_open_calls, x.bg_posix_open_calls, x.posix_meta_calls, x.bg_posix_meta_calls, x.posix_ns, x.bg_posix_ns, x.stdio_read_calls, x.bg_stdio_read_calls, x.stdio_read_bytes, x.bg_stdio_read_bytes, x.stdio_write_calls, x.bg_stdio_write_calls, x.stdio_write_bytes, x.bg_stdio_write_bytes, x.stdio_open_calls, x.bg_stdio_open_calls, x.stdio_meta_calls, x.bg_stdio_meta_calls, x.stdio_ns, x.bg_stdio_ns, x.lower_read_bytes, x.bg_lower_read_bytes, x.lower_write_bytes, x.bg_lower_write_bytes, x.mpi_send_calls, x.bg_mpi_send_calls, x.mpi_send_bytes, x.bg_mpi_send_bytes, x.mpi_recv_calls, x.bg_mpi_recv_calls, x.mpi_recv_bytes, x.bg_mpi_recv_bytes, x.mpi_p2p_ns, x.bg_mpi_p2p_ns, x.mpi_coll_calls, x.bg_mpi_coll_calls, x.mpi_coll_bytes, x.bg_mpi_coll_bytes, x.mpi_coll_ns, x.bg_mpi_coll_ns, x.mpiio_read_calls, x.bg_mpiio_read_calls, x.mpiio_read_bytes, x.bg_mpiio_read_bytes, x.mpiio_write_calls, x.bg_mpiio_write_calls, x.mpiio_write_bytes, x.bg_mpiio_write_bytes, x.mpiio_coll_calls, x.bg_mpiio_coll_calls, x.mpiio_meta_calls, x.bg_mpiio_meta_calls, x.mpiio_ns, x.bg_mpiio_ns, x.cpu_ns, x.bg_cpu_ns
    FROM js_data.steps s
    CROSS JOIN LATERAL (
        SELECT g.slice, coalesce(t.step_nodes, 0) - coalesce(o.nodes, 0) AS bg_step_nodes,
           coalesce(o.posix_read_calls, 0) AS posix_read_calls, coalesce(t.posix_read_calls, 0) - coalesce(o.posix_read_calls, 0) AS bg_posix_read_calls,
           coalesce(o.posix_read_bytes, 0) AS posix_read_bytes, coalesce(t.posix_read_bytes, 0) - coalesce(o.posix_read_bytes, 0) AS bg_posix_read_bytes,
           coalesce(o.posix_write_calls, 0) AS posix_write_calls, coalesce(t.posix_write_calls, 0) - coalesce(o.posix_write_calls, 0) AS bg_posix_write_calls,
           coalesce(o.posix_write_bytes, 0) AS posix_write_bytes, coalesce(t.posix_write_bytes, 0) - coalesce(o.posix_write_bytes, 0) AS bg_posix_write_bytes,
           coalesce(o.posix_open_calls, 0) AS posix_open_calls, coalesce(t.posix_open_calls, 0) - coalesce(o.posix_open_calls, 0) AS bg_posix_open_calls,
           coalesce(o.posix_meta_calls, 0) AS posix_meta_calls, coalesce(t.posix_meta_calls, 0) - coalesce(o.posix_meta_calls, 0) AS bg_posix_meta_calls,
           coalesce(o.posix_ns, 0) AS posix_ns, coalesce(t.posix_ns, 0) - coalesce(o.posix_ns, 0) AS bg_posix_ns,
           coalesce(o.stdio_read_calls, 0) AS stdio_read_calls, coalesce(t.stdio_read_calls, 0) - coalesce(o.stdio_read_calls, 0) AS bg_stdio_read_calls,
           coalesce(o.stdio_read_bytes, 0) AS stdio_read_bytes, coalesce(t.stdio_read_bytes, 0) - coalesce(o.stdio_read_bytes, 0) AS bg_stdio_read_bytes,
           coalesce(o.stdio_write_calls, 0) AS stdio_write_calls, coalesce(t.stdio_write_calls, 0) - coalesce(o.stdio_write_calls, 0) AS bg_stdio_write_calls,
           coalesce(o.stdio_write_bytes, 0) AS stdio_write_bytes, coalesce(t.stdio_write_bytes, 0) - coalesce(o.stdio_write_bytes, 0) AS bg_stdio_write_bytes,
           coalesce(o.stdio_open_calls, 0) AS stdio_open_calls, coalesce(t.stdio_open_calls, 0) - coalesce(o.stdio_open_calls, 0) AS bg_stdio_open_calls,
           coalesce(o.stdio_meta_calls, 0) AS stdio_meta_calls, coalesce(t.stdio_meta_calls, 0) - coalesce(o.stdio_meta_calls, 0) AS bg_stdio_meta_calls,
           coalesce(o.stdio_ns, 0) AS stdio_ns, coalesce(t.stdio_ns, 0) - coalesce(o.stdio_ns, 0) AS bg_stdio_ns,
           coalesce(o.lower_read_bytes, 0) AS lower_read_bytes, coalesce(t.lower_read_bytes, 0) - coalesce(o.lower_read_bytes, 0) AS bg_lower_read_bytes,
           coalesce(o.lower_write_bytes, 0) AS lower_write_bytes, coalesce(t.lower_write_bytes, 0) - coalesce(o.lower_write_bytes, 0) AS bg_lower_write_bytes,
           coalesce(o.mpi_send_calls, 0) AS mpi_send_calls, coalesce(t.mpi_send_calls, 0) - coalesce(o.mpi_send_calls, 0) AS bg_mpi_send_calls,
           coalesce(o.mpi_send_bytes, 0) AS mpi_send_bytes, coalesce(t.mpi_send_bytes, 0) - coalesce(o.mpi_send_bytes, 0) AS bg_mpi_send_bytes,
           coalesce(o.mpi_recv_calls, 0) AS mpi_recv_calls, coalesce(t.mpi_recv_calls, 0) - coalesce(o.mpi_recv_calls, 0) AS bg_mpi_recv_calls,
           coalesce(o.mpi_recv_bytes, 0) AS mpi_recv_bytes, coalesce(t.mpi_recv_bytes, 0) - coalesce(o.mpi_recv_bytes, 0) AS bg_mpi_recv_bytes,
           coalesce(o.mpi_p2p_ns, 0) AS mpi_p2p_ns, coalesce(t.mpi_p2p_ns, 0) - coalesce(o.mpi_p2p_ns, 0) AS bg_mpi_p2p_ns,
           coalesce(o.mpi_coll_calls, 0) AS mpi_coll_calls, coalesce(t.mpi_coll_calls, 0) - coalesce(o.mpi_coll_calls, 0) AS bg_mpi_coll_calls,
           coalesce(o.mpi_coll_bytes, 0) AS mpi_coll_bytes, coalesce(t.mpi_coll_bytes, 0) - coalesce(o.mpi_coll_bytes, 0) AS bg_mpi_coll_bytes,
           coalesce(o.mpi_coll_ns, 0) AS mpi_coll_ns, coalesce(t.mpi_coll_ns, 0) - coalesce(o.mpi_coll_ns, 0) AS bg_mpi_coll_ns,
           coalesce(o.mpiio_read_calls, 0) AS mpiio_read_calls, coalesce(t.mpiio_read_calls, 0) - coalesce(o.mpiio_read_calls, 0) AS bg_mpiio_read_calls,
           coalesce(o.mpiio_read_bytes, 0) AS mpiio_read_bytes, coalesce(t.mpiio_read_bytes, 0) - coalesce(o.mpiio_read_bytes, 0) AS bg_mpiio_read_bytes,
           coalesce(o.mpiio_write_calls, 0) AS mpiio_write_calls, coalesce(t.mpiio_write_calls, 0) - coalesce(o.mpiio_write_calls, 0) AS bg_mpiio_write_calls,
           coalesce(o.mpiio_write_bytes, 0) AS mpiio_write_bytes, coalesce(t.mpiio_write_bytes, 0) - coalesce(o.mpiio_write_bytes, 0) AS bg_mpiio_write_bytes,
           coalesce(o.mpiio_coll_calls, 0) AS mpiio_coll_calls, coalesce(t.mpiio_coll_calls, 0) - coalesce(o.mpiio_coll_calls, 0) AS bg_mpiio_coll_calls,
           coalesce(o.mpiio_meta_calls, 0) AS mpiio_meta_calls, coalesce(t.mpiio_meta_calls, 0) - coalesce(o.mpiio_meta_calls, 0) AS bg_mpiio_meta_calls,
           coalesce(o.mpiio_ns, 0) AS mpiio_ns, coalesce(t.mpiio_ns, 0) - coalesce(o.mpiio_ns, 0) AS bg_mpiio_ns,
           coalesce(o.cpu_ns, 0) AS cpu_ns, coalesce(t.cpu_ns, 0) - coalesce(o.cpu_ns, 0) AS bg_cpu_ns
        FROM generate_series(s.first_slice, s.last_slice) AS g(slice)
        LEFT JOIN (
            SELECT m.slice, count(*)::integer AS nodes, sum(m.posix_read_calls)::bigint AS posix_read_calls, sum(m.posix_read_bytes)::bigint AS posix_read_bytes, sum(m.posix_write_calls)::bigint AS posix_write_calls, sum(m.posix_write_bytes)::bigint AS posix_write_bytes, sum(m.posix_open_calls)::bigint AS posix_open_calls, sum(m.posix_meta_calls)::bigint AS posix_meta_calls, sum(m.posix_ns)::bigint AS posix_ns, sum(m.stdio_read_calls)::bigint AS stdio_read_calls, sum(m.stdio_read_bytes)::bigint AS stdio_read_bytes, sum(m.stdio_write_calls)::bigint AS stdio_write_calls, sum(m.stdio_write_bytes)::bigint AS stdio_write_bytes, sum(m.stdio_open_calls)::bigint AS stdio_open_calls, sum(m.stdio_meta_calls)::bigint AS stdio_meta_calls, sum(m.stdio_ns)::bigint AS stdio_ns, sum(m.lower_read_bytes)::bigint AS lower_read_bytes, sum(m.lower_write_bytes)::bigint AS lower_write_bytes, sum(m.mpi_send_calls)::bigint AS mpi_send_calls, sum(m.mpi_send_bytes)::bigint AS mpi_send_bytes, sum(m.mpi_recv_calls)::bigint AS mpi_recv_calls, sum(m.mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(m.mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(m.mpi_coll_calls)::bigint AS mpi_coll_calls, sum(m.mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(m.mpi_coll_ns)::bigint AS mpi_coll_ns, sum(m.mpiio_read_calls)::bigint AS mpiio_read_calls, sum(m.mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(m.mpiio_write_calls)::bigint AS mpiio_write_calls, sum(m.mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(m.mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(m.mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(m.mpiio_ns)::bigint AS mpiio_ns, sum(m.cpu_ns)::bigint AS cpu_ns
            FROM js_data.slice_metrics m
            WHERE m.cluster_id = s.cluster_id AND m.job_id = s.job_id AND m.step_id = s.step_id
              AND m.slice BETWEEN s.first_slice AND s.last_slice
            GROUP BY m.slice
        ) o ON o.slice = g.slice
        LEFT JOIN (
            SELECT tc.* FROM js_data.slice_totals_cluster tc
            WHERE tc.cluster_id = s.cluster_id AND tc.slice BETWEEN s.first_slice AND s.last_slice
        ) t ON t.slice = g.slice
    ) x;
COMMENT ON VIEW js.step_background_cluster IS 'background of a step, scope whole cluster: per slice of the step, own metrics and bg_<metric> = cluster total minus own';

CREATE VIEW js.step_background_nodes AS
    SELECT s.cluster_id, s.job_id, s.step_id, x.slice, js_data.slice_start(s.cluster_id, x.slice) AS slice_start,
           x.bg_step_nodes, x.posix_read_calls, x.bg_posix_read_calls, x.posix_read_bytes, x.bg_posix_read_bytes, x.posix_write_calls, x.bg_posix_write_calls, x.posix_write_bytes, x.bg_posix_write_bytes, x.posix_open_calls, x.bg_posix_open_calls, x.posix_meta_calls, x.bg_posix_meta_calls, x.posix_ns, x.bg_posix_ns, x.stdio_read_calls, x.bg_stdio_read_calls, x.stdio_read_bytes, x.bg_stdio_read_bytes, x.stdio_write_calls, x.bg_stdio_write_calls, x.stdio_write_bytes, x.bg_stdio_write_bytes, x.stdio_open_calls, x.bg_stdio_open_calls, x.stdio_meta_calls, x.bg_stdio_meta_calls, x.stdio_ns, x.bg_stdio_ns, x.lower_read_bytes, x.bg_lower_read_bytes, x.lower_write_bytes, x.bg_lower_write_bytes, x.mpi_send_calls, x.bg_mpi_send_calls, x.mpi_send_bytes, x.bg_mpi_send_bytes, x.mpi_recv_calls, x.bg_mpi_recv_calls, x.mpi_recv_bytes, x.bg_mpi_recv_bytes, x.mpi_p2p_ns, x.bg_mpi_p2p_ns, x.mpi_coll_calls, x.bg_mpi_coll_calls, x.mpi_coll_bytes, x.bg_mpi_coll_bytes, x.mpi_coll_ns, x.bg_mpi_coll_ns, x.mpiio_read_calls, x.bg_mpiio_read_calls, x.mpiio_read_bytes, x.bg_mpiio_read_bytes, x.mpiio_write_calls, x.bg_mpiio_write_calls, x.mpiio_write_bytes, x.bg_mpiio_write_bytes, x.mpiio_coll_calls, x.bg_mpiio_coll_calls, x.mpiio_meta_calls, x.bg_mpiio_meta_calls, x.mpiio_ns, x.bg_mpiio_ns, x.cpu_ns, x.bg_cpu_ns
    FROM js_data.steps s
    CROSS JOIN LATERAL (
        SELECT g.slice, coalesce(t.step_nodes, 0) - coalesce(o.nodes, 0) AS bg_step_nodes,
           coalesce(o.posix_read_calls, 0) AS posix_read_calls, coalesce(t.posix_read_calls, 0) - coalesce(o.posix_read_calls, 0) AS bg_posix_read_calls,
           coalesce(o.posix_read_bytes, 0) AS posix_read_bytes, coalesce(t.posix_read_bytes, 0) - coalesce(o.posix_read_bytes, 0) AS bg_posix_read_bytes,
           coalesce(o.posix_write_calls, 0) AS posix_write_calls, coalesce(t.posix_write_calls, 0) - coalesce(o.posix_write_calls, 0) AS bg_posix_write_calls,
           coalesce(o.posix_write_bytes, 0) AS posix_write_bytes, coalesce(t.posix_write_bytes, 0) - coalesce(o.posix_write_bytes, 0) AS bg_posix_write_bytes,
           coalesce(o.posix_open_calls, 0) AS posix_open_calls, coalesce(t.posix_open_calls, 0) - coalesce(o.posix_open_calls, 0) AS bg_posix_open_calls,
           coalesce(o.posix_meta_calls, 0) AS posix_meta_calls, coalesce(t.posix_meta_calls, 0) - coalesce(o.posix_meta_calls, 0) AS bg_posix_meta_calls,
           coalesce(o.posix_ns, 0) AS posix_ns, coalesce(t.posix_ns, 0) - coalesce(o.posix_ns, 0) AS bg_posix_ns,
           coalesce(o.stdio_read_calls, 0) AS stdio_read_calls, coalesce(t.stdio_read_calls, 0) - coalesce(o.stdio_read_calls, 0) AS bg_stdio_read_calls,
           coalesce(o.stdio_read_bytes, 0) AS stdio_read_bytes, coalesce(t.stdio_read_bytes, 0) - coalesce(o.stdio_read_bytes, 0) AS bg_stdio_read_bytes,
           coalesce(o.stdio_write_calls, 0) AS stdio_write_calls, coalesce(t.stdio_write_calls, 0) - coalesce(o.stdio_write_calls, 0) AS bg_stdio_write_calls,
           coalesce(o.stdio_write_bytes, 0) AS stdio_write_bytes, coalesce(t.stdio_write_bytes, 0) - coalesce(o.stdio_write_bytes, 0) AS bg_stdio_write_bytes,
           coalesce(o.stdio_open_calls, 0) AS stdio_open_calls, coalesce(t.stdio_open_calls, 0) - coalesce(o.stdio_open_calls, 0) AS bg_stdio_open_calls,
           coalesce(o.stdio_meta_calls, 0) AS stdio_meta_calls, coalesce(t.stdio_meta_calls, 0) - coalesce(o.stdio_meta_calls, 0) AS bg_stdio_meta_calls,
           coalesce(o.stdio_ns, 0) AS stdio_ns, coalesce(t.stdio_ns, 0) - coalesce(o.stdio_ns, 0) AS bg_stdio_ns,
           coalesce(o.lower_read_bytes, 0) AS lower_read_bytes, coalesce(t.lower_read_bytes, 0) - coalesce(o.lower_read_bytes, 0) AS bg_lower_read_bytes,
           coalesce(o.lower_write_bytes, 0) AS lower_write_bytes, coalesce(t.lower_write_bytes, 0) - coalesce(o.lower_write_bytes, 0) AS bg_lower_write_bytes,
           coalesce(o.mpi_send_calls, 0) AS mpi_send_calls, coalesce(t.mpi_send_calls, 0) - coalesce(o.mpi_send_calls, 0) AS bg_mpi_send_calls,
           coalesce(o.mpi_send_bytes, 0) AS mpi_send_bytes, coalesce(t.mpi_send_bytes, 0) - coalesce(o.mpi_send_bytes, 0) AS bg_mpi_send_bytes,
           coalesce(o.mpi_recv_calls, 0) AS mpi_recv_calls, coalesce(t.mpi_recv_calls, 0) - coalesce(o.mpi_recv_calls, 0) AS bg_mpi_recv_calls,
           coalesce(o.mpi_recv_bytes, 0) AS mpi_recv_bytes, coalesce(t.mpi_recv_bytes, 0) - coalesce(o.mpi_recv_bytes, 0) AS bg_mpi_recv_bytes,
           coalesce(o.mpi_p2p_ns, 0) AS mpi_p2p_ns, coalesce(t.mpi_p2p_ns, 0) - coalesce(o.mpi_p2p_ns, 0) AS bg_mpi_p2p_ns,
           coalesce(o.mpi_coll_calls, 0) AS mpi_coll_calls, coalesce(t.mpi_coll_calls, 0) - coalesce(o.mpi_coll_calls, 0) AS bg_mpi_coll_calls,
           coalesce(o.mpi_coll_bytes, 0) AS mpi_coll_bytes, coalesce(t.mpi_coll_bytes, 0) - coalesce(o.mpi_coll_bytes, 0) AS bg_mpi_coll_bytes,
           coalesce(o.mpi_coll_ns, 0) AS mpi_coll_ns, coalesce(t.mpi_coll_ns, 0) - coalesce(o.mpi_coll_ns, 0) AS bg_mpi_coll_ns,
           coalesce(o.mpiio_read_calls, 0) AS mpiio_read_calls, coalesce(t.mpiio_read_calls, 0) - coalesce(o.mpiio_read_calls, 0) AS bg_mpiio_read_calls,
           coalesce(o.mpiio_read_bytes, 0) AS mpiio_read_bytes, coalesce(t.mpiio_read_bytes, 0) - coalesce(o.mpiio_read_bytes, 0) AS bg_mpiio_read_bytes,
           coalesce(o.mpiio_write_calls, 0) AS mpiio_write_calls, coalesce(t.mpiio_write_calls, 0) - coalesce(o.mpiio_write_calls, 0) AS bg_mpiio_write_calls,
           coalesce(o.mpiio_write_bytes, 0) AS mpiio_write_bytes, coalesce(t.mpiio_write_bytes, 0) - coalesce(o.mpiio_write_bytes, 0) AS bg_mpiio_write_bytes,
           coalesce(o.mpiio_coll_calls, 0) AS mpiio_coll_calls, coalesce(t.mpiio_coll_calls, 0) - coalesce(o.mpiio_coll_calls, 0) AS bg_mpiio_coll_calls,
           coalesce(o.mpiio_meta_calls, 0) AS mpiio_meta_calls, coalesce(t.mpiio_meta_calls, 0) - coalesce(o.mpiio_meta_calls, 0) AS bg_mpiio_meta_calls,
           coalesce(o.mpiio_ns, 0) AS mpiio_ns, coalesce(t.mpiio_ns, 0) - coalesce(o.mpiio_ns, 0) AS bg_mpiio_ns,
           coalesce(o.cpu_ns, 0) AS cpu_ns, coalesce(t.cpu_ns, 0) - coalesce(o.cpu_ns, 0) AS bg_cpu_ns
        FROM generate_series(s.first_slice, s.last_slice) AS g(slice)
        LEFT JOIN (
            SELECT m.slice, count(*)::integer AS nodes, sum(m.posix_read_calls)::bigint AS posix_read_calls, sum(m.posix_read_bytes)::bigint AS posix_read_bytes, sum(m.posix_write_calls)::bigint AS posix_write_calls, sum(m.posix_write_bytes)::bigint AS posix_write_bytes, sum(m.posix_open_calls)::bigint AS posix_open_calls, sum(m.posix_meta_calls)::bigint AS posix_meta_calls, sum(m.posix_ns)::bigint AS posix_ns, sum(m.stdio_read_calls)::bigint AS stdio_read_calls, sum(m.stdio_read_bytes)::bigint AS stdio_read_bytes, sum(m.stdio_write_calls)::bigint AS stdio_write_calls, sum(m.stdio_write_bytes)::bigint AS stdio_write_bytes, sum(m.stdio_open_calls)::bigint AS stdio_open_calls, sum(m.stdio_meta_calls)::bigint AS stdio_meta_calls, sum(m.stdio_ns)::bigint AS stdio_ns, sum(m.lower_read_bytes)::bigint AS lower_read_bytes, sum(m.lower_write_bytes)::bigint AS lower_write_bytes, sum(m.mpi_send_calls)::bigint AS mpi_send_calls, sum(m.mpi_send_bytes)::bigint AS mpi_send_bytes, sum(m.mpi_recv_calls)::bigint AS mpi_recv_calls, sum(m.mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(m.mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(m.mpi_coll_calls)::bigint AS mpi_coll_calls, sum(m.mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(m.mpi_coll_ns)::bigint AS mpi_coll_ns, sum(m.mpiio_read_calls)::bigint AS mpiio_read_calls, sum(m.mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(m.mpiio_write_calls)::bigint AS mpiio_write_calls, sum(m.mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(m.mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(m.mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(m.mpiio_ns)::bigint AS mpiio_ns, sum(m.cpu_ns)::bigint AS cpu_ns
            FROM js_data.slice_metrics m
            WHERE m.cluster_id = s.cluster_id AND m.job_id = s.job_id AND m.step_id = s.step_id
              AND m.slice BETWEEN s.first_slice AND s.last_slice
            GROUP BY m.slice
        ) o ON o.slice = g.slice
        LEFT JOIN (
            SELECT tn.slice, sum(tn.step_nodes)::integer AS step_nodes,
                   sum(tn.posix_read_calls)::bigint AS posix_read_calls,
                   sum(tn.posix_read_bytes)::bigint AS posix_read_bytes,
                   sum(tn.posix_write_calls)::bigint AS posix_write_calls,
                   sum(tn.posix_write_bytes)::bigint AS posix_write_bytes,
                   sum(tn.posix_open_calls)::bigint AS posix_open_calls,
                   sum(tn.posix_meta_calls)::bigint AS posix_meta_calls,
                   sum(tn.posix_ns)::bigint AS posix_ns,
                   sum(tn.stdio_read_calls)::bigint AS stdio_read_calls,
                   sum(tn.stdio_read_bytes)::bigint AS stdio_read_bytes,
                   sum(tn.stdio_write_calls)::bigint AS stdio_write_calls,
                   sum(tn.stdio_write_bytes)::bigint AS stdio_write_bytes,
                   sum(tn.stdio_open_calls)::bigint AS stdio_open_calls,
                   sum(tn.stdio_meta_calls)::bigint AS stdio_meta_calls,
                   sum(tn.stdio_ns)::bigint AS stdio_ns,
                   sum(tn.lower_read_bytes)::bigint AS lower_read_bytes,
                   sum(tn.lower_write_bytes)::bigint AS lower_write_bytes,
                   sum(tn.mpi_send_calls)::bigint AS mpi_send_calls,
                   sum(tn.mpi_send_bytes)::bigint AS mpi_send_bytes,
                   sum(tn.mpi_recv_calls)::bigint AS mpi_recv_calls,
                   sum(tn.mpi_recv_bytes)::bigint AS mpi_recv_bytes,
                   sum(tn.mpi_p2p_ns)::bigint AS mpi_p2p_ns,
                   sum(tn.mpi_coll_calls)::bigint AS mpi_coll_calls,
                   sum(tn.mpi_coll_bytes)::bigint AS mpi_coll_bytes,
                   sum(tn.mpi_coll_ns)::bigint AS mpi_coll_ns,
                   sum(tn.mpiio_read_calls)::bigint AS mpiio_read_calls,
                   sum(tn.mpiio_read_bytes)::bigint AS mpiio_read_bytes,
                   sum(tn.mpiio_write_calls)::bigint AS mpiio_write_calls,
                   sum(tn.mpiio_write_bytes)::bigint AS mpiio_write_bytes,
                   sum(tn.mpiio_coll_calls)::bigint AS mpiio_coll_calls,
                   sum(tn.mpiio_meta_calls)::bigint AS mpiio_meta_calls,
                   sum(tn.mpiio_ns)::bigint AS mpiio_ns,
                   sum(tn.cpu_ns)::bigint AS cpu_ns
            FROM js_data.slice_totals_node tn
            WHERE tn.cluster_id = s.cluster_id AND tn.slice BETWEEN s.first_slice AND s.last_slice
              AND tn.node IN (SELECT sn.node FROM js_data.step_nodes sn
                              WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id AND sn.step_id = s.step_id)
            GROUP BY tn.slice
        ) t ON t.slice = g.slice
    ) x;
COMMENT ON VIEW js.step_background_nodes IS 'background of a step, scope same nodes: per slice of the step, own metrics and bg_<metric> = sum over the step''s nodes of the node totals minus own';

CREATE VIEW js.files AS
    SELECT cluster_id, file_id, path, node, scope, fs_type FROM js_data.files;
COMMENT ON VIEW js.files IS 'file identities (path + node for node-local files)';

CREATE VIEW js.file_accesses AS
    SELECT a.cluster_id, a.job_id, a.step_id, a.node, j.uid, a.file_id, f.path, f.scope, f.node AS file_node,
           a.mode, CASE a.mode WHEN 'r' THEN 'read-only' WHEN 'w' THEN 'write-only' ELSE 'read-write' END AS access,
           a.processes, a.opens, a.reads, a.writes, a.bytes_read, a.bytes_written, a.first_access, a.last_access,
           a.first_read, a.last_write, a.interfaces
    FROM js_data.file_accesses a
    JOIN js_data.files f ON f.cluster_id = a.cluster_id AND f.file_id = a.file_id
    JOIN js_data.jobs j ON j.cluster_id = a.cluster_id AND j.job_id = a.job_id;
COMMENT ON VIEW js.file_accesses IS 'what each step did to each file on each node; access = read-only, write-only or read-write';

-- Time edges (derived here, not stored, so that the order of ingest does not matter): job B
-- depends in time on job A when both belong to the same user and carry the same workflow tag
-- (or both none), B started at most js.time_edge_window() after A ended (1 s of slack: Slurm's
-- start times are whole seconds), A is the latest such job, and B has no incoming scheduler or
-- file edge (a time edge explains a start that nothing else explains).
CREATE FUNCTION js.time_edge_window() RETURNS interval LANGUAGE sql IMMUTABLE AS $$ SELECT interval '60 seconds' $$;
COMMENT ON FUNCTION js.time_edge_window() IS 'longest gap between the end of one job and the start of the next that makes a time edge';

CREATE VIEW js.time_edges AS
    SELECT b.cluster_id, a.job_id AS from_job, b.job_id AS to_job, a.end_time AS from_time, b.start_time AS to_time
    FROM js_data.jobs b
    JOIN LATERAL (
        SELECT a.job_id, a.end_time FROM js_data.jobs a
        WHERE a.cluster_id = b.cluster_id AND a.uid = b.uid AND a.workflow_tag IS NOT DISTINCT FROM b.workflow_tag
          AND a.job_id <> b.job_id AND a.end_time < b.start_time + interval '1 second'
          AND a.end_time >= b.start_time - js.time_edge_window()
        ORDER BY a.end_time DESC LIMIT 1
    ) a ON true
    WHERE NOT EXISTS (SELECT 1 FROM js_data.dependencies d
                      WHERE d.cluster_id = b.cluster_id AND d.to_job = b.job_id AND d.from_job <> b.job_id);
COMMENT ON VIEW js.time_edges IS 'time edges: the latest job of the same user and workflow tag (or both untagged) that ended at most js.time_edge_window() before this one started, for jobs with no incoming scheduler or file edge';

CREATE VIEW js.dependencies AS
    SELECT d.cluster_id, d.kind, d.from_job, d.from_step, d.to_job, d.to_step, ja.uid AS from_uid, jb.uid AS to_uid,
           d.condition, nullif(d.file_id, 0) AS file_id, f.path, d.from_time, d.to_time
    FROM js_data.dependencies d
    LEFT JOIN js_data.jobs ja ON ja.cluster_id = d.cluster_id AND ja.job_id = d.from_job
    LEFT JOIN js_data.jobs jb ON jb.cluster_id = d.cluster_id AND jb.job_id = d.to_job
    LEFT JOIN js_data.files f ON f.cluster_id = d.cluster_id AND f.file_id = d.file_id
    UNION ALL
    SELECT t.cluster_id, 'time', t.from_job, '', t.to_job, '', j.uid, j.uid, NULL, NULL, NULL, t.from_time, t.to_time
    FROM js.time_edges t JOIN js_data.jobs j ON j.cluster_id = t.cluster_id AND j.job_id = t.to_job;
COMMENT ON VIEW js.dependencies IS 'all dependency edges: kind scheduler (condition), file (from_step wrote file_id/path, last write from_time; to_step first read it at to_time) and time; from_uid may differ from to_uid for file edges';

CREATE VIEW js.quarantine AS
    SELECT q.*, j.uid FROM js_data.quarantine q
    LEFT JOIN js_data.jobs j ON j.cluster_id = q.cluster_id AND j.job_id = q.job_id;
COMMENT ON VIEW js.quarantine IS 'files the ingest refused and why';

CREATE VIEW js.ingest_rate AS
    SELECT date_trunc('minute', ingested_at) AS minute, count(*)::integer AS step_nodes,
           sum(profiles)::integer AS profiles, sum(quarantined)::integer AS quarantined
    FROM js_data.step_nodes GROUP BY 1;
COMMENT ON VIEW js.ingest_rate IS 'step records ingested per minute (profile_ingest --status reads it)';
