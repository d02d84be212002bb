-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.step_neighbours AS
    SELECT s.cluster_id, s.job_id, s.step_id, m.slice, js_data.slice_start(s.cluster_id, m.slice) AS slice_start,
           m.job_id AS other_job, m.step_id AS other_step, m.node AS other_node, o.uid AS other_uid,
           u.name AS other_user, o.name AS other_job_name,
           EXISTS (SELECT 1 FROM js_data.step_nodes sn WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id
                     AND sn.step_id = s.step_id AND sn.node = m.node) AS same_node,
           m.processes,
           (m.posix_read_bytes + m.stdio_read_bytes + m.mpiio_read_bytes + m.lower_read_bytes)::bigint AS read_bytes,
           (m.posix_write_bytes + m.stdio_write_bytes + m.mpiio_write_bytes + m.lower_write_bytes)::bigint AS write_bytes,
           (m.posix_open_calls + m.posix_meta_calls + m.stdio_open_calls + m.mpiio_meta_calls)::bigint AS meta_ops,
           (m.mpi_send_bytes + m.mpi_coll_bytes)::bigint AS mpi_bytes,
           (m.posix_ns + m.stdio_ns + m.mpiio_ns)::bigint AS io_ns,
           m.cpu_ns
    FROM js_data.steps s
    JOIN js_data.slice_metrics m ON m.cluster_id = s.cluster_id AND m.slice BETWEEN s.first_slice AND s.last_slice
        AND m.chunk BETWEEN js_data.series_chunk_of(s.first_slice) AND s.last_slice
        AND NOT (m.job_id = s.job_id AND m.step_id = s.step_id)
    LEFT JOIN js_data.jobs o ON o.cluster_id = m.cluster_id AND o.job_id = m.job_id
    LEFT JOIN js_data.users u ON u.cluster_id = o.cluster_id AND u.uid = o.uid;
COMMENT ON VIEW js.step_neighbours IS 'contributors to a step''s background: per slice of the step, each other step and node with activity in it (read_bytes and write_bytes include the lower layer), meta_ops as in js.step_report, same_node when it shared a node with the step; filter by cluster_id and job_id';
