-- jobscreen schema, migration 029: the kernel's I/O counts per slice (profile format 5).
--
-- Beside the wrappers' per-slice metrics a profile of format 5 carries, per slice, the kernel's
-- own counts of the process (/proc/self/task/<tid>/io: rchar, wchar, syscr, syscw, read_bytes,
-- write_bytes; docs/profile-format.md). They are stored per step-node only (not folded into the
-- background totals): a step's page shows them, and the I/O the kernel counted beyond the
-- wrappers ("unattributed") per slice. Older profiles and processes whose kernel counts are
-- unknown add nothing (NULL series: zeros).

ALTER TABLE js_data.series_step_node
    ADD COLUMN kernel_rchar bytea COMPRESSION lz4,
    ADD COLUMN kernel_wchar bytea COMPRESSION lz4,
    ADD COLUMN kernel_syscr bytea COMPRESSION lz4,
    ADD COLUMN kernel_syscw bytea COMPRESSION lz4,
    ADD COLUMN kernel_read_bytes bytea COMPRESSION lz4,
    ADD COLUMN kernel_write_bytes bytea COMPRESSION lz4;
COMMENT ON COLUMN js_data.series_step_node.kernel_rchar IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: bytes returned by read-like system calls on anything (files, pipes, sockets, terminals) (bytes); NULL when zero throughout or before profile format 5';
COMMENT ON COLUMN js_data.series_step_node.kernel_wchar IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: bytes passed to write-like system calls on anything (bytes); NULL when zero throughout or before profile format 5';
COMMENT ON COLUMN js_data.series_step_node.kernel_syscr IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: read-like system calls (calls); NULL when zero throughout or before profile format 5';
COMMENT ON COLUMN js_data.series_step_node.kernel_syscw IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: write-like system calls (calls); NULL when zero throughout or before profile format 5';
COMMENT ON COLUMN js_data.series_step_node.kernel_read_bytes IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: bytes the processes caused to be fetched from storage (bytes); NULL when zero throughout or before profile format 5';
COMMENT ON COLUMN js_data.series_step_node.kernel_write_bytes IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: bytes the processes caused to be sent to storage (dirtied page cache) (bytes); NULL when zero throughout or before profile format 5';

ALTER TABLE js_data.live_slice_metrics
    ADD COLUMN kernel_rchar bigint NOT NULL DEFAULT 0,
    ADD COLUMN kernel_wchar bigint NOT NULL DEFAULT 0,
    ADD COLUMN kernel_syscr bigint NOT NULL DEFAULT 0,
    ADD COLUMN kernel_syscw bigint NOT NULL DEFAULT 0,
    ADD COLUMN kernel_read_bytes bigint NOT NULL DEFAULT 0,
    ADD COLUMN kernel_write_bytes bigint NOT NULL DEFAULT 0;
COMMENT ON COLUMN js_data.live_slice_metrics.kernel_rchar IS 'the kernel''s count in the slice, summed over the processes whose counts are known: bytes returned by read-like system calls on anything (files, pipes, sockets, terminals) (bytes); 0 before profile format 5';
COMMENT ON COLUMN js_data.live_slice_metrics.kernel_wchar IS 'the kernel''s count in the slice, summed over the processes whose counts are known: bytes passed to write-like system calls on anything (bytes); 0 before profile format 5';
COMMENT ON COLUMN js_data.live_slice_metrics.kernel_syscr IS 'the kernel''s count in the slice, summed over the processes whose counts are known: read-like system calls (calls); 0 before profile format 5';
COMMENT ON COLUMN js_data.live_slice_metrics.kernel_syscw IS 'the kernel''s count in the slice, summed over the processes whose counts are known: write-like system calls (calls); 0 before profile format 5';
COMMENT ON COLUMN js_data.live_slice_metrics.kernel_read_bytes IS 'the kernel''s count in the slice, summed over the processes whose counts are known: bytes the processes caused to be fetched from storage (bytes); 0 before profile format 5';
COMMENT ON COLUMN js_data.live_slice_metrics.kernel_write_bytes IS 'the kernel''s count in the slice, summed over the processes whose counts are known: bytes the processes caused to be sent to storage (dirtied page cache) (bytes); 0 before profile format 5';

-- series_load carries the kernel's counts too (a table shaped like js_data.live_slice_metrics).
CREATE OR REPLACE FUNCTION js_data.series_load(p_table regclass, p_queue boolean DEFAULT true) RETURNS bigint
LANGUAGE plpgsql
-- a merge join would pair a step-node's slices with its rows on the step-node alone and filter on
-- the slice: quadratic in the slices of a step-node (44 min instead of 2 for 64 nodes x 21600)
SET enable_mergejoin = off
AS $f$
DECLARE
    n bigint;
BEGIN
    EXECUTE format($q$INSERT INTO js_data.series_step_node (cluster_id, job_id, step_id, node, chunk, first_slice, slices, processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes)
SELECT k.cluster_id, k.job_id, k.step_id, k.node, k.chunk, k.lo, (k.hi - k.lo + 1)::smallint,
       js_data.series_encode(array_agg(coalesce(o.processes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_read_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_read_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_write_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_write_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_open_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_meta_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.posix_ns, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_read_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_read_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_write_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_write_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_open_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_meta_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.stdio_ns, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.lower_read_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.lower_write_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_send_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_send_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_recv_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_recv_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_p2p_ns, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_coll_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_coll_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpi_coll_ns, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_read_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_read_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_write_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_write_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_coll_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_meta_calls, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.mpiio_ns, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.cpu_ns, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.kernel_rchar, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.kernel_wchar, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.kernel_syscr, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.kernel_syscw, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.kernel_read_bytes, 0) ORDER BY g.s)),
       js_data.series_encode(array_agg(coalesce(o.kernel_write_bytes, 0) ORDER BY g.s))
FROM (SELECT cluster_id, job_id, step_id, node, js_data.series_chunk_of(slice) AS chunk, min(slice) AS lo, max(slice) AS hi FROM %1$s GROUP BY cluster_id, job_id, step_id, node, chunk) k
CROSS JOIN generate_series(k.lo, k.hi) g(s)
LEFT JOIN (SELECT cluster_id, job_id, step_id, node, slice, sum(processes) AS processes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns, sum(kernel_rchar)::bigint AS kernel_rchar, sum(kernel_wchar)::bigint AS kernel_wchar, sum(kernel_syscr)::bigint AS kernel_syscr, sum(kernel_syscw)::bigint AS kernel_syscw, sum(kernel_read_bytes)::bigint AS kernel_read_bytes, sum(kernel_write_bytes)::bigint AS kernel_write_bytes FROM %1$s GROUP BY cluster_id, job_id, step_id, node, slice) o ON o.cluster_id = k.cluster_id AND o.job_id = k.job_id AND o.step_id = k.step_id AND o.node = k.node AND o.slice = g.s
GROUP BY k.cluster_id, k.job_id, k.step_id, k.node, k.chunk, k.lo, k.hi$q$, p_table);
    GET DIAGNOSTICS n = ROW_COUNT;
    IF p_queue THEN
        EXECUTE format('INSERT INTO js_data.totals_pending (cluster_id, job_id, step_id, node) '
                       'SELECT DISTINCT cluster_id, job_id, step_id, node FROM %s ON CONFLICT DO NOTHING', p_table);
    END IF;
    RETURN n;
END $f$;

-- The running step-nodes' provisional vectors with the kernel's counts (columns appended).
CREATE OR REPLACE VIEW js.live_slices AS
    SELECT m.cluster_id, m.job_id, m.step_id, m.node, m.slice, m.processes, m.posix_read_calls, m.posix_read_bytes, m.posix_write_calls, m.posix_write_bytes, m.posix_open_calls, m.posix_meta_calls, m.posix_ns, m.stdio_read_calls, m.stdio_read_bytes, m.stdio_write_calls, m.stdio_write_bytes, m.stdio_open_calls, m.stdio_meta_calls, m.stdio_ns, m.lower_read_bytes, m.lower_write_bytes, m.mpi_send_calls, m.mpi_send_bytes, m.mpi_recv_calls, m.mpi_recv_bytes, m.mpi_p2p_ns, m.mpi_coll_calls, m.mpi_coll_bytes, m.mpi_coll_ns, m.mpiio_read_calls, m.mpiio_read_bytes, m.mpiio_write_calls, m.mpiio_write_bytes, m.mpiio_coll_calls, m.mpiio_meta_calls, m.mpiio_ns, m.cpu_ns, m.kernel_rchar, m.kernel_wchar, m.kernel_syscr, m.kernel_syscw, m.kernel_read_bytes, m.kernel_write_bytes
    FROM js_data.live_slice_metrics m;

-- The CGI's reading of them: the encoded series of a step's step-nodes.
CREATE VIEW js.series_step_node_kernel AS
    SELECT cluster_id, job_id, step_id, node, chunk, first_slice, slices, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes
    FROM js_data.series_step_node;
COMMENT ON VIEW js.series_step_node_kernel IS 'per step, node and chunk, the encoded series (js.series_decode; NULL: zeros) of the kernel''s I/O counts in each slice (profile format 5): filter by job and step';

-- Decoded, per step and slice summed over its nodes (provisional rows of running step-nodes
-- included), with the wrappers' bytes beside them and what the kernel counted beyond them.
CREATE VIEW js.step_kernel_slices AS
    SELECT x.cluster_id, x.job_id, x.step_id, x.slice, js_data.slice_start(x.cluster_id, x.slice) AS slice_start,
           sum(x.kernel_rchar)::bigint AS kernel_rchar, sum(x.kernel_wchar)::bigint AS kernel_wchar, sum(x.kernel_syscr)::bigint AS kernel_syscr, sum(x.kernel_syscw)::bigint AS kernel_syscw, sum(x.kernel_read_bytes)::bigint AS kernel_read_bytes, sum(x.kernel_write_bytes)::bigint AS kernel_write_bytes,
           sum(x.wrapped_read_bytes)::bigint AS wrapped_read_bytes, sum(x.wrapped_write_bytes)::bigint AS wrapped_write_bytes,
           greatest(sum(x.kernel_rchar) - sum(x.wrapped_read_bytes), 0)::bigint AS unattributed_read_bytes,
           greatest(sum(x.kernel_wchar) - sum(x.wrapped_write_bytes), 0)::bigint AS unattributed_write_bytes
    FROM (SELECT r.cluster_id, r.job_id, r.step_id, r.first_slice + u.i - 1 AS slice, u.kernel_rchar, u.kernel_wchar, u.kernel_syscr, u.kernel_syscw, u.kernel_read_bytes, u.kernel_write_bytes,
                 u.prb + u.srb + u.lrb AS wrapped_read_bytes, u.pwb + u.swb + u.lwb AS wrapped_write_bytes
          FROM js_data.series_step_node r
          CROSS JOIN LATERAL unnest(js_data.series_decode(r.kernel_rchar, r.slices), js_data.series_decode(r.kernel_wchar, r.slices), js_data.series_decode(r.kernel_syscr, r.slices), js_data.series_decode(r.kernel_syscw, r.slices), js_data.series_decode(r.kernel_read_bytes, r.slices), js_data.series_decode(r.kernel_write_bytes, r.slices),
                                    js_data.series_decode(r.posix_read_bytes, r.slices), js_data.series_decode(r.stdio_read_bytes, r.slices),
                                    js_data.series_decode(r.lower_read_bytes, r.slices), js_data.series_decode(r.posix_write_bytes, r.slices),
                                    js_data.series_decode(r.stdio_write_bytes, r.slices), js_data.series_decode(r.lower_write_bytes, r.slices),
                                    js_data.series_decode(r.processes, r.slices))
               WITH ORDINALITY AS u(kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes, prb, srb, lrb, pwb, swb, lwb, processes, i)
          WHERE u.processes > 0
          UNION ALL
          SELECT m.cluster_id, m.job_id, m.step_id, m.slice, m.kernel_rchar, m.kernel_wchar, m.kernel_syscr, m.kernel_syscw, m.kernel_read_bytes, m.kernel_write_bytes,
                 m.posix_read_bytes + m.stdio_read_bytes + m.lower_read_bytes, m.posix_write_bytes + m.stdio_write_bytes + m.lower_write_bytes
          FROM js_data.live_slice_metrics m) x
    GROUP BY x.cluster_id, x.job_id, x.step_id, x.slice;
COMMENT ON VIEW js.step_kernel_slices IS 'per step and slice with activity, summed over its nodes (running step-nodes'' provisional rows included): the kernel''s I/O counts of its processes in the slice (kernel_*: /proc/<pid>/task/<tid>/io, profile format 5; 0 for older profiles and processes whose counts are unknown), the bytes the wrappers saw (wrapped_*_bytes: posix + stdio + lower), and unattributed_*_bytes: the kernel''s bytes beyond the wrappers'' in the slice, at least 0. The kernel''s counts are read at the profiler''s folds and spread over the slices since the fold before by wall-clock overlap; filter by job and step';
