-- jobscreen schema, migration 029: the kernel's I/O counts per slice (profile format 5).
--
-- Beside the wrappers' per-slice metrics a profile of format 5 carries, per slice, the kernel's
-- own counts of the process (/proc/self/task/<tid>/io: rchar, wchar, syscr, syscw, read_bytes,
-- write_bytes; docs/profile-format.md). They are stored per step-node and folded into the step's
-- series (not into the background totals, per node and cluster): a step's page shows them, and
-- the I/O the kernel counted beyond the wrappers ("unattributed") per slice. Older profiles and
-- processes whose kernel counts are unknown add nothing (NULL series: zeros).

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

-- ---- a step's own sums: the fold adds the kernel's counts into js_data.series_step too -------
-- (not into the node and cluster totals: no background has them), so that a step's page reads
-- one row per chunk, not one per node and chunk.
ALTER TABLE js_data.series_step
    ADD COLUMN kernel_rchar bytea COMPRESSION lz4,
    ADD COLUMN kernel_wchar bytea COMPRESSION lz4,
    ADD COLUMN kernel_syscr bytea COMPRESSION lz4,
    ADD COLUMN kernel_syscw bytea COMPRESSION lz4,
    ADD COLUMN kernel_read_bytes bytea COMPRESSION lz4,
    ADD COLUMN kernel_write_bytes bytea COMPRESSION lz4;
COMMENT ON COLUMN js_data.series_step.kernel_rchar IS 'series: js_data.series_step_node.kernel_rchar summed over the step''s folded step-nodes';
COMMENT ON COLUMN js_data.series_step.kernel_wchar IS 'series: js_data.series_step_node.kernel_wchar summed over the step''s folded step-nodes';
COMMENT ON COLUMN js_data.series_step.kernel_syscr IS 'series: js_data.series_step_node.kernel_syscr summed over the step''s folded step-nodes';
COMMENT ON COLUMN js_data.series_step.kernel_syscw IS 'series: js_data.series_step_node.kernel_syscw summed over the step''s folded step-nodes';
COMMENT ON COLUMN js_data.series_step.kernel_read_bytes IS 'series: js_data.series_step_node.kernel_read_bytes summed over the step''s folded step-nodes';
COMMENT ON COLUMN js_data.series_step.kernel_write_bytes IS 'series: js_data.series_step_node.kernel_write_bytes summed over the step''s folded step-nodes';

-- the decoded views carry them (columns appended), and the SQL twin of the fold folds them
CREATE OR REPLACE VIEW js_data.slice_metrics AS
    SELECT r.cluster_id, r.job_id, r.step_id, r.node, r.chunk, r.first_slice + u.i - 1 AS slice,
           u.processes::integer AS processes, u.posix_read_calls, u.posix_read_bytes, u.posix_write_calls, u.posix_write_bytes, u.posix_open_calls, u.posix_meta_calls, u.posix_ns, u.stdio_read_calls, u.stdio_read_bytes, u.stdio_write_calls, u.stdio_write_bytes, u.stdio_open_calls, u.stdio_meta_calls, u.stdio_ns, u.lower_read_bytes, u.lower_write_bytes, u.mpi_send_calls, u.mpi_send_bytes, u.mpi_recv_calls, u.mpi_recv_bytes, u.mpi_p2p_ns, u.mpi_coll_calls, u.mpi_coll_bytes, u.mpi_coll_ns, u.mpiio_read_calls, u.mpiio_read_bytes, u.mpiio_write_calls, u.mpiio_write_bytes, u.mpiio_coll_calls, u.mpiio_meta_calls, u.mpiio_ns, u.cpu_ns,
           u.kernel_rchar, u.kernel_wchar, u.kernel_syscr, u.kernel_syscw, u.kernel_read_bytes, u.kernel_write_bytes
    FROM js_data.series_step_node r
    CROSS JOIN LATERAL unnest(js_data.series_decode(r.processes, r.slices),
        js_data.series_decode(r.posix_read_calls, r.slices),
        js_data.series_decode(r.posix_read_bytes, r.slices),
        js_data.series_decode(r.posix_write_calls, r.slices),
        js_data.series_decode(r.posix_write_bytes, r.slices),
        js_data.series_decode(r.posix_open_calls, r.slices),
        js_data.series_decode(r.posix_meta_calls, r.slices),
        js_data.series_decode(r.posix_ns, r.slices),
        js_data.series_decode(r.stdio_read_calls, r.slices),
        js_data.series_decode(r.stdio_read_bytes, r.slices),
        js_data.series_decode(r.stdio_write_calls, r.slices),
        js_data.series_decode(r.stdio_write_bytes, r.slices),
        js_data.series_decode(r.stdio_open_calls, r.slices),
        js_data.series_decode(r.stdio_meta_calls, r.slices),
        js_data.series_decode(r.stdio_ns, r.slices),
        js_data.series_decode(r.lower_read_bytes, r.slices),
        js_data.series_decode(r.lower_write_bytes, r.slices),
        js_data.series_decode(r.mpi_send_calls, r.slices),
        js_data.series_decode(r.mpi_send_bytes, r.slices),
        js_data.series_decode(r.mpi_recv_calls, r.slices),
        js_data.series_decode(r.mpi_recv_bytes, r.slices),
        js_data.series_decode(r.mpi_p2p_ns, r.slices),
        js_data.series_decode(r.mpi_coll_calls, r.slices),
        js_data.series_decode(r.mpi_coll_bytes, r.slices),
        js_data.series_decode(r.mpi_coll_ns, r.slices),
        js_data.series_decode(r.mpiio_read_calls, r.slices),
        js_data.series_decode(r.mpiio_read_bytes, r.slices),
        js_data.series_decode(r.mpiio_write_calls, r.slices),
        js_data.series_decode(r.mpiio_write_bytes, r.slices),
        js_data.series_decode(r.mpiio_coll_calls, r.slices),
        js_data.series_decode(r.mpiio_meta_calls, r.slices),
        js_data.series_decode(r.mpiio_ns, r.slices),
        js_data.series_decode(r.cpu_ns, r.slices),
        js_data.series_decode(r.kernel_rchar, r.slices),
        js_data.series_decode(r.kernel_wchar, r.slices),
        js_data.series_decode(r.kernel_syscr, r.slices),
        js_data.series_decode(r.kernel_syscw, r.slices),
        js_data.series_decode(r.kernel_read_bytes, r.slices),
        js_data.series_decode(r.kernel_write_bytes, r.slices))
        WITH ORDINALITY AS u(processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes, i)
    WHERE u.processes > 0;

CREATE OR REPLACE VIEW js_data.step_series_slices AS
    SELECT r.cluster_id, r.job_id, r.step_id, r.chunk, r.first_slice + u.i - 1 AS slice,
           u.nodes::integer AS nodes, u.processes::integer AS processes, u.posix_read_calls, u.posix_read_bytes, u.posix_write_calls, u.posix_write_bytes, u.posix_open_calls, u.posix_meta_calls, u.posix_ns, u.stdio_read_calls, u.stdio_read_bytes, u.stdio_write_calls, u.stdio_write_bytes, u.stdio_open_calls, u.stdio_meta_calls, u.stdio_ns, u.lower_read_bytes, u.lower_write_bytes, u.mpi_send_calls, u.mpi_send_bytes, u.mpi_recv_calls, u.mpi_recv_bytes, u.mpi_p2p_ns, u.mpi_coll_calls, u.mpi_coll_bytes, u.mpi_coll_ns, u.mpiio_read_calls, u.mpiio_read_bytes, u.mpiio_write_calls, u.mpiio_write_bytes, u.mpiio_coll_calls, u.mpiio_meta_calls, u.mpiio_ns, u.cpu_ns,
           u.kernel_rchar, u.kernel_wchar, u.kernel_syscr, u.kernel_syscw, u.kernel_read_bytes, u.kernel_write_bytes
    FROM js_data.series_step r
    CROSS JOIN LATERAL unnest(js_data.series_decode(r.nodes, r.slices),
        js_data.series_decode(r.processes, r.slices),
        js_data.series_decode(r.posix_read_calls, r.slices),
        js_data.series_decode(r.posix_read_bytes, r.slices),
        js_data.series_decode(r.posix_write_calls, r.slices),
        js_data.series_decode(r.posix_write_bytes, r.slices),
        js_data.series_decode(r.posix_open_calls, r.slices),
        js_data.series_decode(r.posix_meta_calls, r.slices),
        js_data.series_decode(r.posix_ns, r.slices),
        js_data.series_decode(r.stdio_read_calls, r.slices),
        js_data.series_decode(r.stdio_read_bytes, r.slices),
        js_data.series_decode(r.stdio_write_calls, r.slices),
        js_data.series_decode(r.stdio_write_bytes, r.slices),
        js_data.series_decode(r.stdio_open_calls, r.slices),
        js_data.series_decode(r.stdio_meta_calls, r.slices),
        js_data.series_decode(r.stdio_ns, r.slices),
        js_data.series_decode(r.lower_read_bytes, r.slices),
        js_data.series_decode(r.lower_write_bytes, r.slices),
        js_data.series_decode(r.mpi_send_calls, r.slices),
        js_data.series_decode(r.mpi_send_bytes, r.slices),
        js_data.series_decode(r.mpi_recv_calls, r.slices),
        js_data.series_decode(r.mpi_recv_bytes, r.slices),
        js_data.series_decode(r.mpi_p2p_ns, r.slices),
        js_data.series_decode(r.mpi_coll_calls, r.slices),
        js_data.series_decode(r.mpi_coll_bytes, r.slices),
        js_data.series_decode(r.mpi_coll_ns, r.slices),
        js_data.series_decode(r.mpiio_read_calls, r.slices),
        js_data.series_decode(r.mpiio_read_bytes, r.slices),
        js_data.series_decode(r.mpiio_write_calls, r.slices),
        js_data.series_decode(r.mpiio_write_bytes, r.slices),
        js_data.series_decode(r.mpiio_coll_calls, r.slices),
        js_data.series_decode(r.mpiio_meta_calls, r.slices),
        js_data.series_decode(r.mpiio_ns, r.slices),
        js_data.series_decode(r.cpu_ns, r.slices),
        js_data.series_decode(r.kernel_rchar, r.slices),
        js_data.series_decode(r.kernel_wchar, r.slices),
        js_data.series_decode(r.kernel_syscr, r.slices),
        js_data.series_decode(r.kernel_syscw, r.slices),
        js_data.series_decode(r.kernel_read_bytes, r.slices),
        js_data.series_decode(r.kernel_write_bytes, r.slices))
        WITH ORDINALITY AS u(nodes, processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes, i)
    WHERE u.nodes > 0;

CREATE OR REPLACE FUNCTION js_data.rollup_totals(p_limit integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    n integer;
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('jobscreen totals')) THEN
        RETURN 0;
    END IF;
    CREATE TEMP TABLE IF NOT EXISTS rollup_batch (cluster_id smallint, job_id bigint, step_id text, node text);
    DELETE FROM rollup_batch;
    INSERT INTO rollup_batch
        SELECT cluster_id, job_id, step_id, node FROM js_data.totals_pending
        ORDER BY queued_at LIMIT p_limit FOR UPDATE SKIP LOCKED;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
        RETURN 0;
    END IF;
    DELETE FROM js_data.totals_pending p USING rollup_batch b
        WHERE p.cluster_id = b.cluster_id AND p.job_id = b.job_id AND p.step_id = b.step_id AND p.node = b.node;
    CREATE TEMP TABLE IF NOT EXISTS rollup_slices AS SELECT * FROM js_data.slice_metrics WITH NO DATA;
    DELETE FROM rollup_slices;
    INSERT INTO rollup_slices
        SELECT m.* FROM rollup_batch b
        JOIN js_data.slice_metrics m ON m.cluster_id = b.cluster_id AND m.job_id = b.job_id AND m.step_id = b.step_id AND m.node = b.node;
    INSERT INTO js_data.series_step AS t (cluster_id, job_id, step_id, chunk, first_slice, slices, nodes, processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes)
    SELECT k.cluster_id, k.job_id, k.step_id, k.chunk, k.lo, (k.hi - k.lo + 1)::smallint,
           js_data.series_encode(array_agg(coalesce(v.nodes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.processes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_open_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_open_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.lower_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.lower_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_send_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_send_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_recv_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_recv_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_p2p_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_coll_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.cpu_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.kernel_rchar, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.kernel_wchar, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.kernel_syscr, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.kernel_syscw, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.kernel_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.kernel_write_bytes, 0) ORDER BY g.s))
    FROM (SELECT cluster_id, job_id, step_id, chunk, min(s) AS lo, max(s) AS hi FROM (
              SELECT cluster_id, job_id, step_id, chunk, slice AS s FROM rollup_slices
              UNION ALL
              SELECT t.cluster_id, t.job_id, t.step_id, t.chunk, x.s FROM js_data.series_step t
              JOIN (SELECT DISTINCT cluster_id, job_id, step_id, chunk FROM rollup_slices) a USING (cluster_id, job_id, step_id, chunk)
              CROSS JOIN LATERAL (VALUES (t.first_slice), (t.first_slice + t.slices - 1)) x(s)) e
          GROUP BY cluster_id, job_id, step_id, chunk) k
    CROSS JOIN generate_series(k.lo, k.hi) g(s)
    LEFT JOIN (SELECT cluster_id, job_id, step_id, slice, sum(nodes)::bigint AS nodes, sum(processes)::bigint AS processes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns, sum(kernel_rchar)::bigint AS kernel_rchar, sum(kernel_wchar)::bigint AS kernel_wchar, sum(kernel_syscr)::bigint AS kernel_syscr, sum(kernel_syscw)::bigint AS kernel_syscw, sum(kernel_read_bytes)::bigint AS kernel_read_bytes, sum(kernel_write_bytes)::bigint AS kernel_write_bytes FROM (
                   SELECT cluster_id, job_id, step_id, slice, 1 AS nodes, processes AS processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes FROM rollup_slices
                   UNION ALL
                   SELECT o.cluster_id, o.job_id, o.step_id, slice, o.nodes, o.processes, o.posix_read_calls, o.posix_read_bytes, o.posix_write_calls, o.posix_write_bytes, o.posix_open_calls, o.posix_meta_calls, o.posix_ns, o.stdio_read_calls, o.stdio_read_bytes, o.stdio_write_calls, o.stdio_write_bytes, o.stdio_open_calls, o.stdio_meta_calls, o.stdio_ns, o.lower_read_bytes, o.lower_write_bytes, o.mpi_send_calls, o.mpi_send_bytes, o.mpi_recv_calls, o.mpi_recv_bytes, o.mpi_p2p_ns, o.mpi_coll_calls, o.mpi_coll_bytes, o.mpi_coll_ns, o.mpiio_read_calls, o.mpiio_read_bytes, o.mpiio_write_calls, o.mpiio_write_bytes, o.mpiio_coll_calls, o.mpiio_meta_calls, o.mpiio_ns, o.cpu_ns, o.kernel_rchar, o.kernel_wchar, o.kernel_syscr, o.kernel_syscw, o.kernel_read_bytes, o.kernel_write_bytes FROM js_data.step_series_slices o
                   WHERE (o.cluster_id, o.job_id, o.step_id, o.chunk) IN (SELECT DISTINCT cluster_id, job_id, step_id, chunk FROM rollup_slices)) z
               GROUP BY cluster_id, job_id, step_id, slice) v ON v.cluster_id = k.cluster_id AND v.job_id = k.job_id AND v.step_id = k.step_id AND v.slice = g.s
    GROUP BY k.cluster_id, k.job_id, k.step_id, k.chunk, k.lo, k.hi
    ON CONFLICT (cluster_id, job_id, step_id, chunk) DO UPDATE SET first_slice = excluded.first_slice, slices = excluded.slices,
        nodes = excluded.nodes,
        processes = excluded.processes,
        posix_read_calls = excluded.posix_read_calls,
        posix_read_bytes = excluded.posix_read_bytes,
        posix_write_calls = excluded.posix_write_calls,
        posix_write_bytes = excluded.posix_write_bytes,
        posix_open_calls = excluded.posix_open_calls,
        posix_meta_calls = excluded.posix_meta_calls,
        posix_ns = excluded.posix_ns,
        stdio_read_calls = excluded.stdio_read_calls,
        stdio_read_bytes = excluded.stdio_read_bytes,
        stdio_write_calls = excluded.stdio_write_calls,
        stdio_write_bytes = excluded.stdio_write_bytes,
        stdio_open_calls = excluded.stdio_open_calls,
        stdio_meta_calls = excluded.stdio_meta_calls,
        stdio_ns = excluded.stdio_ns,
        lower_read_bytes = excluded.lower_read_bytes,
        lower_write_bytes = excluded.lower_write_bytes,
        mpi_send_calls = excluded.mpi_send_calls,
        mpi_send_bytes = excluded.mpi_send_bytes,
        mpi_recv_calls = excluded.mpi_recv_calls,
        mpi_recv_bytes = excluded.mpi_recv_bytes,
        mpi_p2p_ns = excluded.mpi_p2p_ns,
        mpi_coll_calls = excluded.mpi_coll_calls,
        mpi_coll_bytes = excluded.mpi_coll_bytes,
        mpi_coll_ns = excluded.mpi_coll_ns,
        mpiio_read_calls = excluded.mpiio_read_calls,
        mpiio_read_bytes = excluded.mpiio_read_bytes,
        mpiio_write_calls = excluded.mpiio_write_calls,
        mpiio_write_bytes = excluded.mpiio_write_bytes,
        mpiio_coll_calls = excluded.mpiio_coll_calls,
        mpiio_meta_calls = excluded.mpiio_meta_calls,
        mpiio_ns = excluded.mpiio_ns,
        cpu_ns = excluded.cpu_ns,
        kernel_rchar = excluded.kernel_rchar,
        kernel_wchar = excluded.kernel_wchar,
        kernel_syscr = excluded.kernel_syscr,
        kernel_syscw = excluded.kernel_syscw,
        kernel_read_bytes = excluded.kernel_read_bytes,
        kernel_write_bytes = excluded.kernel_write_bytes;
    INSERT INTO js_data.series_node AS t (cluster_id, node, chunk, first_slice, slices, step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns)
    SELECT k.cluster_id, k.node, k.chunk, k.lo, (k.hi - k.lo + 1)::smallint,
           js_data.series_encode(array_agg(coalesce(v.step_nodes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_open_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_open_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.lower_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.lower_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_send_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_send_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_recv_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_recv_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_p2p_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_coll_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.cpu_ns, 0) ORDER BY g.s))
    FROM (SELECT cluster_id, node, chunk, min(s) AS lo, max(s) AS hi FROM (
              SELECT cluster_id, node, chunk, slice AS s FROM rollup_slices
              UNION ALL
              SELECT t.cluster_id, t.node, t.chunk, x.s FROM js_data.series_node t
              JOIN (SELECT DISTINCT cluster_id, node, chunk FROM rollup_slices) a USING (cluster_id, node, chunk)
              CROSS JOIN LATERAL (VALUES (t.first_slice), (t.first_slice + t.slices - 1)) x(s)) e
          GROUP BY cluster_id, node, chunk) k
    CROSS JOIN generate_series(k.lo, k.hi) g(s)
    LEFT JOIN (SELECT cluster_id, node, slice, sum(step_nodes)::bigint AS step_nodes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns FROM (
                   SELECT cluster_id, node, slice, 1 AS step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns FROM rollup_slices
                   UNION ALL
                   SELECT o.cluster_id, o.node, slice, o.step_nodes, o.posix_read_calls, o.posix_read_bytes, o.posix_write_calls, o.posix_write_bytes, o.posix_open_calls, o.posix_meta_calls, o.posix_ns, o.stdio_read_calls, o.stdio_read_bytes, o.stdio_write_calls, o.stdio_write_bytes, o.stdio_open_calls, o.stdio_meta_calls, o.stdio_ns, o.lower_read_bytes, o.lower_write_bytes, o.mpi_send_calls, o.mpi_send_bytes, o.mpi_recv_calls, o.mpi_recv_bytes, o.mpi_p2p_ns, o.mpi_coll_calls, o.mpi_coll_bytes, o.mpi_coll_ns, o.mpiio_read_calls, o.mpiio_read_bytes, o.mpiio_write_calls, o.mpiio_write_bytes, o.mpiio_coll_calls, o.mpiio_meta_calls, o.mpiio_ns, o.cpu_ns FROM js_data.slice_totals_node o
                   WHERE (o.cluster_id, o.node, o.chunk) IN (SELECT DISTINCT cluster_id, node, chunk FROM rollup_slices)) z
               GROUP BY cluster_id, node, slice) v ON v.cluster_id = k.cluster_id AND v.node = k.node AND v.slice = g.s
    GROUP BY k.cluster_id, k.node, k.chunk, k.lo, k.hi
    ON CONFLICT (cluster_id, node, chunk) DO UPDATE SET first_slice = excluded.first_slice, slices = excluded.slices,
        step_nodes = excluded.step_nodes,
        posix_read_calls = excluded.posix_read_calls,
        posix_read_bytes = excluded.posix_read_bytes,
        posix_write_calls = excluded.posix_write_calls,
        posix_write_bytes = excluded.posix_write_bytes,
        posix_open_calls = excluded.posix_open_calls,
        posix_meta_calls = excluded.posix_meta_calls,
        posix_ns = excluded.posix_ns,
        stdio_read_calls = excluded.stdio_read_calls,
        stdio_read_bytes = excluded.stdio_read_bytes,
        stdio_write_calls = excluded.stdio_write_calls,
        stdio_write_bytes = excluded.stdio_write_bytes,
        stdio_open_calls = excluded.stdio_open_calls,
        stdio_meta_calls = excluded.stdio_meta_calls,
        stdio_ns = excluded.stdio_ns,
        lower_read_bytes = excluded.lower_read_bytes,
        lower_write_bytes = excluded.lower_write_bytes,
        mpi_send_calls = excluded.mpi_send_calls,
        mpi_send_bytes = excluded.mpi_send_bytes,
        mpi_recv_calls = excluded.mpi_recv_calls,
        mpi_recv_bytes = excluded.mpi_recv_bytes,
        mpi_p2p_ns = excluded.mpi_p2p_ns,
        mpi_coll_calls = excluded.mpi_coll_calls,
        mpi_coll_bytes = excluded.mpi_coll_bytes,
        mpi_coll_ns = excluded.mpi_coll_ns,
        mpiio_read_calls = excluded.mpiio_read_calls,
        mpiio_read_bytes = excluded.mpiio_read_bytes,
        mpiio_write_calls = excluded.mpiio_write_calls,
        mpiio_write_bytes = excluded.mpiio_write_bytes,
        mpiio_coll_calls = excluded.mpiio_coll_calls,
        mpiio_meta_calls = excluded.mpiio_meta_calls,
        mpiio_ns = excluded.mpiio_ns,
        cpu_ns = excluded.cpu_ns;
    INSERT INTO js_data.series_cluster AS t (cluster_id, chunk, first_slice, slices, step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns)
    SELECT k.cluster_id, k.chunk, k.lo, (k.hi - k.lo + 1)::smallint,
           js_data.series_encode(array_agg(coalesce(v.step_nodes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_open_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.posix_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_open_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.stdio_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.lower_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.lower_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_send_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_send_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_recv_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_recv_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_p2p_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpi_coll_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_read_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_read_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_write_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_write_bytes, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_coll_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_meta_calls, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.mpiio_ns, 0) ORDER BY g.s)),
           js_data.series_encode(array_agg(coalesce(v.cpu_ns, 0) ORDER BY g.s))
    FROM (SELECT cluster_id, chunk, min(s) AS lo, max(s) AS hi FROM (
              SELECT cluster_id, chunk, slice AS s FROM rollup_slices
              UNION ALL
              SELECT t.cluster_id, t.chunk, x.s FROM js_data.series_cluster t
              JOIN (SELECT DISTINCT cluster_id, chunk FROM rollup_slices) a USING (cluster_id, chunk)
              CROSS JOIN LATERAL (VALUES (t.first_slice), (t.first_slice + t.slices - 1)) x(s)) e
          GROUP BY cluster_id, chunk) k
    CROSS JOIN generate_series(k.lo, k.hi) g(s)
    LEFT JOIN (SELECT cluster_id, slice, sum(step_nodes)::bigint AS step_nodes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns FROM (
                   SELECT cluster_id, slice, 1 AS step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns FROM rollup_slices
                   UNION ALL
                   SELECT o.cluster_id, slice, o.step_nodes, o.posix_read_calls, o.posix_read_bytes, o.posix_write_calls, o.posix_write_bytes, o.posix_open_calls, o.posix_meta_calls, o.posix_ns, o.stdio_read_calls, o.stdio_read_bytes, o.stdio_write_calls, o.stdio_write_bytes, o.stdio_open_calls, o.stdio_meta_calls, o.stdio_ns, o.lower_read_bytes, o.lower_write_bytes, o.mpi_send_calls, o.mpi_send_bytes, o.mpi_recv_calls, o.mpi_recv_bytes, o.mpi_p2p_ns, o.mpi_coll_calls, o.mpi_coll_bytes, o.mpi_coll_ns, o.mpiio_read_calls, o.mpiio_read_bytes, o.mpiio_write_calls, o.mpiio_write_bytes, o.mpiio_coll_calls, o.mpiio_meta_calls, o.mpiio_ns, o.cpu_ns FROM js_data.slice_totals_cluster o
                   WHERE (o.cluster_id, o.chunk) IN (SELECT DISTINCT cluster_id, chunk FROM rollup_slices)) z
               GROUP BY cluster_id, slice) v ON v.cluster_id = k.cluster_id AND v.slice = g.s
    GROUP BY k.cluster_id, k.chunk, k.lo, k.hi
    ON CONFLICT (cluster_id, chunk) DO UPDATE SET first_slice = excluded.first_slice, slices = excluded.slices,
        step_nodes = excluded.step_nodes,
        posix_read_calls = excluded.posix_read_calls,
        posix_read_bytes = excluded.posix_read_bytes,
        posix_write_calls = excluded.posix_write_calls,
        posix_write_bytes = excluded.posix_write_bytes,
        posix_open_calls = excluded.posix_open_calls,
        posix_meta_calls = excluded.posix_meta_calls,
        posix_ns = excluded.posix_ns,
        stdio_read_calls = excluded.stdio_read_calls,
        stdio_read_bytes = excluded.stdio_read_bytes,
        stdio_write_calls = excluded.stdio_write_calls,
        stdio_write_bytes = excluded.stdio_write_bytes,
        stdio_open_calls = excluded.stdio_open_calls,
        stdio_meta_calls = excluded.stdio_meta_calls,
        stdio_ns = excluded.stdio_ns,
        lower_read_bytes = excluded.lower_read_bytes,
        lower_write_bytes = excluded.lower_write_bytes,
        mpi_send_calls = excluded.mpi_send_calls,
        mpi_send_bytes = excluded.mpi_send_bytes,
        mpi_recv_calls = excluded.mpi_recv_calls,
        mpi_recv_bytes = excluded.mpi_recv_bytes,
        mpi_p2p_ns = excluded.mpi_p2p_ns,
        mpi_coll_calls = excluded.mpi_coll_calls,
        mpi_coll_bytes = excluded.mpi_coll_bytes,
        mpi_coll_ns = excluded.mpi_coll_ns,
        mpiio_read_calls = excluded.mpiio_read_calls,
        mpiio_read_bytes = excluded.mpiio_read_bytes,
        mpiio_write_calls = excluded.mpiio_write_calls,
        mpiio_write_bytes = excluded.mpiio_write_bytes,
        mpiio_coll_calls = excluded.mpiio_coll_calls,
        mpiio_meta_calls = excluded.mpiio_meta_calls,
        mpiio_ns = excluded.mpiio_ns,
        cpu_ns = excluded.cpu_ns;
    DELETE FROM rollup_batch;
    DELETE FROM rollup_slices;
    RETURN n;
END $$;

-- the CGI reads them beside the metrics (columns appended)
CREATE OR REPLACE VIEW js.series_step AS
    SELECT s.cluster_id, s.job_id, s.step_id, s.chunk, s.first_slice, s.slices,
           s.nodes, s.processes, s.posix_read_calls, s.posix_read_bytes, s.posix_write_calls, s.posix_write_bytes, s.posix_open_calls, s.posix_meta_calls, s.posix_ns, s.stdio_read_calls, s.stdio_read_bytes, s.stdio_write_calls, s.stdio_write_bytes, s.stdio_open_calls, s.stdio_meta_calls, s.stdio_ns, s.lower_read_bytes, s.lower_write_bytes, s.mpi_send_calls, s.mpi_send_bytes, s.mpi_recv_calls, s.mpi_recv_bytes, s.mpi_p2p_ns, s.mpi_coll_calls, s.mpi_coll_bytes, s.mpi_coll_ns, s.mpiio_read_calls, s.mpiio_read_bytes, s.mpiio_write_calls, s.mpiio_write_bytes, s.mpiio_coll_calls, s.mpiio_meta_calls, s.mpiio_ns, s.cpu_ns, s.kernel_rchar, s.kernel_wchar, s.kernel_syscr, s.kernel_syscw, s.kernel_read_bytes, s.kernel_write_bytes
    FROM js_data.series_step s;

CREATE OR REPLACE VIEW js.series_step_pending AS
    SELECT s.cluster_id, s.job_id, s.step_id, s.node, s.chunk, s.first_slice, s.slices,
           s.processes, s.posix_read_calls, s.posix_read_bytes, s.posix_write_calls, s.posix_write_bytes, s.posix_open_calls, s.posix_meta_calls, s.posix_ns, s.stdio_read_calls, s.stdio_read_bytes, s.stdio_write_calls, s.stdio_write_bytes, s.stdio_open_calls, s.stdio_meta_calls, s.stdio_ns, s.lower_read_bytes, s.lower_write_bytes, s.mpi_send_calls, s.mpi_send_bytes, s.mpi_recv_calls, s.mpi_recv_bytes, s.mpi_p2p_ns, s.mpi_coll_calls, s.mpi_coll_bytes, s.mpi_coll_ns, s.mpiio_read_calls, s.mpiio_read_bytes, s.mpiio_write_calls, s.mpiio_write_bytes, s.mpiio_coll_calls, s.mpiio_meta_calls, s.mpiio_ns, s.cpu_ns, s.kernel_rchar, s.kernel_wchar, s.kernel_syscr, s.kernel_syscw, s.kernel_read_bytes, s.kernel_write_bytes
    FROM js_data.series_step_node s
    JOIN js_data.totals_pending p ON p.cluster_id = s.cluster_id AND p.job_id = s.job_id AND p.step_id = s.step_id AND p.node = s.node;

-- Decoded, per step and slice summed over its nodes (provisional rows of running step-nodes
-- included), with the wrappers' bytes beside them and what the kernel counted beyond them.
CREATE VIEW js.step_kernel_slices AS
    SELECT x.cluster_id, x.job_id, x.step_id, x.slice, js_data.slice_start(x.cluster_id, x.slice) AS slice_start,
           sum(x.kernel_rchar)::bigint AS kernel_rchar, sum(x.kernel_wchar)::bigint AS kernel_wchar, sum(x.kernel_syscr)::bigint AS kernel_syscr, sum(x.kernel_syscw)::bigint AS kernel_syscw, sum(x.kernel_read_bytes)::bigint AS kernel_read_bytes, sum(x.kernel_write_bytes)::bigint AS kernel_write_bytes,
           sum(x.wrapped_read_bytes)::bigint AS wrapped_read_bytes, sum(x.wrapped_write_bytes)::bigint AS wrapped_write_bytes,
           greatest(sum(x.kernel_rchar) - sum(x.wrapped_read_bytes), 0)::bigint AS unattributed_read_bytes,
           greatest(sum(x.kernel_wchar) - sum(x.wrapped_write_bytes), 0)::bigint AS unattributed_write_bytes
    FROM (SELECT m.cluster_id, m.job_id, m.step_id, m.slice, m.kernel_rchar, m.kernel_wchar, m.kernel_syscr, m.kernel_syscw, m.kernel_read_bytes, m.kernel_write_bytes,
                 m.posix_read_bytes + m.stdio_read_bytes + m.lower_read_bytes AS wrapped_read_bytes,
                 m.posix_write_bytes + m.stdio_write_bytes + m.lower_write_bytes AS wrapped_write_bytes
          FROM js_data.slice_metrics m
          UNION ALL
          SELECT m.cluster_id, m.job_id, m.step_id, m.slice, m.kernel_rchar, m.kernel_wchar, m.kernel_syscr, m.kernel_syscw, m.kernel_read_bytes, m.kernel_write_bytes,
                 m.posix_read_bytes + m.stdio_read_bytes + m.lower_read_bytes, m.posix_write_bytes + m.stdio_write_bytes + m.lower_write_bytes
          FROM js_data.live_slice_metrics m) x
    GROUP BY x.cluster_id, x.job_id, x.step_id, x.slice;
COMMENT ON VIEW js.step_kernel_slices IS 'per step and slice with activity, summed over its nodes (running step-nodes'' provisional rows included): the kernel''s I/O counts of its processes in the slice (kernel_*: /proc/<pid>/task/<tid>/io, profile format 5; 0 for older profiles and processes whose counts are unknown), the bytes the wrappers saw (wrapped_*_bytes: posix + stdio + lower), and unattributed_*_bytes: the kernel''s bytes beyond the wrappers'' in the slice, at least 0. The kernel''s counts are read at the profiler''s folds and spread over the slices since the fold before by wall-clock overlap; filter by job and step';

