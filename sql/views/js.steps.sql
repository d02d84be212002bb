-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.steps AS
    -- the batch step is named batch: its executable is the job's script, a spool path of the
    -- node (.../job00042/slurm_script) that differs for every job of one rule (script keeps it)
    SELECT s.cluster_id, s.job_id, s.step_id, j.uid, CASE WHEN s.step_id = 'batch' THEN 'batch' ELSE s.name END AS name,
           s.start_time, s.end_time,
           extract(epoch FROM s.end_time - s.start_time)::double precision AS elapsed_s,
           s.state, s.exit_code, s.num_nodes, s.num_tasks, s.num_cpus, s.nodelist, s.profiled,
           s.first_slice, s.last_slice, s.nodes_ingested, s.incomplete,
           s.processes, s.wall_ns, s.compute_ns, s.mpi_p2p_ns, s.mpi_coll_ns, s.io_posix_ns, s.io_stdio_ns,
           s.io_mpiio_ns, s.read_bytes, s.write_bytes, s.meta_calls, s.cpu_ns,
           s.incomplete_reason,
           s.killed_processes,
           (SELECT coalesce(sum(sn.unrecorded), 0)::integer FROM js_data.step_nodes sn
            WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id AND sn.step_id = s.step_id) AS unrecorded_processes,
           EXISTS (SELECT 1 FROM js_data.live_step_nodes l
                   WHERE l.cluster_id = s.cluster_id AND l.job_id = s.job_id AND l.step_id = s.step_id) AS live,
           s.files_dropped,
           s.idle_ns, s.mpi_setup_ns, s.cpu_wait_ns, s.max_rss_kib,
           s.unattributed_read_bytes, s.unattributed_write_bytes, s.kernel_io_unknown,
           CASE WHEN s.step_id = 'batch' THEN s.name END AS script,
           e.gpus, e.gpu_energy_j, e.cpu_energy_j, e.node_cpu_energy_j,
           CASE WHEN e.gpu_energy_j IS NOT NULL OR e.cpu_energy_j IS NOT NULL
                THEN coalesce(e.gpu_energy_j, 0) + coalesce(e.cpu_energy_j, 0) END AS energy_j,
           e.gpu_note
    FROM js_data.steps s
    JOIN js_data.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id
    LEFT JOIN LATERAL (
        SELECT sum(sn.gpus)::integer AS gpus, sum(sn.gpu_energy_j) AS gpu_energy_j, sum(sn.cpu_energy_j) AS cpu_energy_j,
               sum(sn.node_cpu_energy_j) AS node_cpu_energy_j,
               string_agg(sn.node || ': ' || sn.gpu_note, '; ' ORDER BY sn.node) AS gpu_note
        FROM js_data.step_node_energy sn
        WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id AND sn.step_id = s.step_id) e ON true
    UNION ALL
    SELECT l.cluster_id, l.job_id, l.step_id, j.uid, NULL::text AS name, l.start_time, l.end_time,
           extract(epoch FROM l.end_time - l.start_time)::double precision AS elapsed_s,
           'RUNNING'::text AS state, NULL::integer AS exit_code, l.num_nodes, NULL::integer AS num_tasks,
           NULL::integer AS num_cpus, l.nodelist, true AS profiled, sl.first_slice, sl.last_slice,
           0 AS nodes_ingested, false AS incomplete,
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
           coalesce(p.cpu_ns, 0)::bigint AS cpu_ns,
           NULL::text AS incomplete_reason,
           coalesce(p.killed_processes, 0)::integer AS killed_processes,
           0 AS unrecorded_processes,
           true AS live,
           coalesce(p.files_dropped, 0)::bigint AS files_dropped,
           p.idle_ns::bigint AS idle_ns, p.mpi_setup_ns::bigint AS mpi_setup_ns, p.cpu_wait_ns::bigint AS cpu_wait_ns,
           p.max_rss_kib::bigint AS max_rss_kib,
           p.unattributed_read_bytes::bigint AS unattributed_read_bytes,
           p.unattributed_write_bytes::bigint AS unattributed_write_bytes,
           coalesce(p.kernel_io_unknown, 0)::integer AS kernel_io_unknown,
           NULL::text AS script,
           NULL::integer AS gpus, NULL::double precision AS gpu_energy_j, NULL::double precision AS cpu_energy_j,
           NULL::double precision AS node_cpu_energy_j, NULL::double precision AS energy_j, NULL::text AS gpu_note
    FROM (SELECT cluster_id, job_id, step_id, min(start_time) AS start_time, max(snapshot_time) AS end_time,
                 count(*)::integer AS num_nodes, string_agg(node, ',' ORDER BY node) AS nodelist
          FROM js_data.live_step_nodes GROUP BY cluster_id, job_id, step_id) l
    JOIN js_data.jobs j ON j.cluster_id = l.cluster_id AND j.job_id = l.job_id
    LEFT JOIN LATERAL (
        SELECT min(m.slice) AS first_slice, max(m.slice) AS last_slice FROM js_data.live_slice_metrics m
        WHERE m.cluster_id = l.cluster_id AND m.job_id = l.job_id AND m.step_id = l.step_id) sl ON true
    LEFT JOIN LATERAL (
        SELECT count(*) AS processes, sum(wall_ns) AS wall_ns, sum(compute_ns) AS compute_ns,
               sum(mpi_p2p_ns) AS mpi_p2p_ns, sum(mpi_coll_ns) AS mpi_coll_ns, sum(posix_ns) AS posix_ns,
               sum(stdio_ns) AS stdio_ns, sum(mpiio_ns) AS mpiio_ns, sum(posix_read_bytes) AS posix_read_bytes,
               sum(stdio_read_bytes) AS stdio_read_bytes, sum(mpiio_read_bytes) AS mpiio_read_bytes,
               sum(posix_write_bytes) AS posix_write_bytes, sum(stdio_write_bytes) AS stdio_write_bytes,
               sum(mpiio_write_bytes) AS mpiio_write_bytes, sum(posix_open_calls) AS posix_open_calls,
               sum(posix_meta_calls) AS posix_meta_calls, sum(stdio_open_calls) AS stdio_open_calls,
               sum(stdio_meta_calls) AS stdio_meta_calls, sum(mpiio_meta_calls) AS mpiio_meta_calls,
               sum(cpu_ns) AS cpu_ns, count(*) FILTER (WHERE ended_by = 'signal') AS killed_processes,
               sum(files_dropped) AS files_dropped,
               sum(idle_ns) AS idle_ns, sum(mpi_setup_ns) AS mpi_setup_ns, sum(cpu_wait_ns) AS cpu_wait_ns,
               max(max_rss_kib) AS max_rss_kib,
               sum(js_data.unattributed(kernel_rchar, posix_read_bytes + stdio_read_bytes + lower_read_bytes)) AS unattributed_read_bytes,
               sum(js_data.unattributed(kernel_wchar, posix_write_bytes + stdio_write_bytes + lower_write_bytes)) AS unattributed_write_bytes,
               count(*) FILTER (WHERE kernel_rchar IS NULL) AS kernel_io_unknown
        FROM js_data.live_processes p
        WHERE p.cluster_id = l.cluster_id AND p.job_id = l.job_id AND p.step_id = l.step_id) p ON true
    WHERE NOT EXISTS (SELECT 1 FROM js_data.steps s
                      WHERE s.cluster_id = l.cluster_id AND s.job_id = l.job_id AND s.step_id = l.step_id);
COMMENT ON VIEW js.steps IS 'steps merged over their nodes, with the runtime share summed over their processes (compute_ns + mpi_p2p_ns + mpi_coll_ns + mpi_setup_ns + io_*_ns + cpu_wait_ns + idle_ns = the processes'' time budgets: wall time, or more for processes with busy threads; before profile format 4 idle and setup are NULL and compute is the rest of wall_ns), I/O volume and metadata calls; incomplete_reason says what is missing, killed_processes counts processes killed by a signal, unrecorded_processes those the profiler did not record (spool quota), summed over the nodes; live: some node still runs (provisional data); a step with no step record ingested yet has state RUNNING, its data so far, end_time its newest snapshot; files_dropped: files its processes did not list (their lists were full); max_rss_kib: the largest peak resident set of its processes; unattributed_*_bytes: what the kernel counted beyond the wrappers, summed over the processes whose kernel counts are known (NULL: none), kernel_io_unknown: the processes whose kernel counts are unknown (killed before their first slice boundary, or profiles before format 4); name: the executable, batch for the batch step, whose script (a spool path of its node) is in script; gpus: the GPUs read over its nodes (NULL: none asked for and no powercap), gpu_energy_j their energy, cpu_energy_j its share of its nodes'' CPU energy (powercap; NULL: not known), node_cpu_energy_j its nodes'' whole CPU energy while it ran, energy_j = GPU + CPU (J; js.step_gpus per GPU), gpu_note what the readings lack per node (docs/gpu.md)';
