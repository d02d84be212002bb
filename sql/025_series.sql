-- jobscreen schema, migration 025: per-slice data as compact series (docs/schema.md, "Series").
--
-- One row per step, node and chunk (js_data.series_chunk_width() = 900 consecutive slices, one
-- hour at 4 s) instead of one row per step, node and slice: each metric is one encoded series
-- (common/series.h: a frame of reference and as many bytes per value as the chunk needs; NULL
-- when the metric is zero throughout), compressed by TOAST with lz4 when a row is long. The
-- pre-aggregated totals have the same shape per step (over its nodes), per node (over its
-- steps) and per cluster. js_data.slice_metrics, js_data.slice_totals_node and
-- js_data.slice_totals_cluster become views that decode them (one row per slice with
-- activity, as before), and every js.* view keeps its columns. An existing database is
-- converted in place.
--
-- Generated with sql/tools/metric-sql's metric list (common/profile_format.h).

CREATE FUNCTION js_data.series_chunk_width() RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT 900::bigint';
COMMENT ON FUNCTION js_data.series_chunk_width() IS 'slices per stored chunk of a series (900 = one hour of 4 s slices); a divisor of js_data.slice_partition_width()';

CREATE FUNCTION js_data.series_chunk_of(p_slice bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT p_slice - ((p_slice % 900) + 900) % 900';
COMMENT ON FUNCTION js_data.series_chunk_of(bigint) IS 'first slice of the chunk that holds a slice';

CREATE FUNCTION js_data.series_width(p_span bigint) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN p_span = 0 THEN 0 WHEN p_span < 256 THEN 1 WHEN p_span < 65536 THEN 2
                WHEN p_span < 16777216 THEN 3 WHEN p_span < 4294967296 THEN 4 WHEN p_span < 1099511627776 THEN 5
                WHEN p_span < 281474976710656 THEN 6 WHEN p_span < 72057594037927936 THEN 7 ELSE 8 END $$;
COMMENT ON FUNCTION js_data.series_width(bigint) IS 'bytes per value of an encoded series whose values span p_span';


-- The SQL twin of common/series.c. Decoding splits the hex text of the values with one
-- regular expression (C speed); get_byte per value would detoast the series at every call.
-- It names no other function: the views inline it, and the reporting role may not use js_data.
CREATE FUNCTION js_data.series_decode(p bytea, p_n integer) RETURNS bigint[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN p IS NULL THEN array_fill(0::bigint, ARRAY[p_n])
        WHEN get_byte(p, 0) = 0 THEN array_fill(('x' || encode(substring(p FROM 2 FOR 8), 'hex'))::bit(64)::bigint, ARRAY[p_n])
        ELSE ARRAY(SELECT ('x' || encode(substring(p FROM 2 FOR 8), 'hex'))::bit(64)::bigint
                          + ('x' || lpad(r.m[1], 16, '0'))::bit(64)::bigint
                   FROM regexp_matches(encode(substring(p FROM 10), 'hex'), '.{' || (2 * get_byte(p, 0)) || '}', 'g')
                        WITH ORDINALITY AS r(m, i)
                   ORDER BY r.i)
    END $$;
COMMENT ON FUNCTION js_data.series_decode(bytea, integer) IS 'the p_n values of an encoded series (common/series.h); NULL decodes to zeros';

CREATE FUNCTION js_data.series_encode(p bigint[]) RETURNS bytea
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN coalesce(s.lo, 0) = 0 AND coalesce(s.hi, 0) = 0 THEN NULL::bytea
                ELSE set_byte('\x00'::bytea, 0, s.w) || int8send(s.lo) ||
                     CASE WHEN s.w = 0 THEN ''::bytea
                          ELSE (SELECT string_agg(substring(int8send(coalesce(x, 0) - s.lo) FROM 9 - s.w), ''::bytea ORDER BY i)
                                FROM unnest(p) WITH ORDINALITY AS u(x, i)) END
           END
    FROM (SELECT m.lo, m.hi, js_data.series_width(m.hi - m.lo) AS w
          FROM (SELECT min(coalesce(x, 0)) AS lo, max(coalesce(x, 0)) AS hi FROM unnest(p) AS x) m) s $$;
COMMENT ON FUNCTION js_data.series_encode(bigint[]) IS 'encode values as a series (common/series.h); NULL when all are zero';

CREATE TABLE js_data.series_step_node (
    cluster_id           smallint NOT NULL,
    job_id               bigint NOT NULL,
    step_id              text NOT NULL,
    node                 text NOT NULL,
    chunk                bigint NOT NULL,
    first_slice          bigint NOT NULL,
    slices               smallint NOT NULL,
    processes            bytea,
    posix_read_calls     bytea,
    posix_read_bytes     bytea,
    posix_write_calls    bytea,
    posix_write_bytes    bytea,
    posix_open_calls     bytea,
    posix_meta_calls     bytea,
    posix_ns             bytea,
    stdio_read_calls     bytea,
    stdio_read_bytes     bytea,
    stdio_write_calls    bytea,
    stdio_write_bytes    bytea,
    stdio_open_calls     bytea,
    stdio_meta_calls     bytea,
    stdio_ns             bytea,
    lower_read_bytes     bytea,
    lower_write_bytes    bytea,
    mpi_send_calls       bytea,
    mpi_send_bytes       bytea,
    mpi_recv_calls       bytea,
    mpi_recv_bytes       bytea,
    mpi_p2p_ns           bytea,
    mpi_coll_calls       bytea,
    mpi_coll_bytes       bytea,
    mpi_coll_ns          bytea,
    mpiio_read_calls     bytea,
    mpiio_read_bytes     bytea,
    mpiio_write_calls    bytea,
    mpiio_write_bytes    bytea,
    mpiio_coll_calls     bytea,
    mpiio_meta_calls     bytea,
    mpiio_ns             bytea,
    cpu_ns               bytea,
    PRIMARY KEY (cluster_id, job_id, step_id, node, chunk),
    CHECK (chunk = js_data.series_chunk_of(first_slice) AND slices BETWEEN 1 AND 900 AND first_slice + slices <= chunk + 900)
) PARTITION BY RANGE (chunk);
ALTER TABLE js_data.series_step_node ALTER COLUMN processes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN posix_read_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN posix_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN posix_write_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN posix_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN posix_open_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN posix_meta_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN posix_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN stdio_read_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN stdio_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN stdio_write_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN stdio_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN stdio_open_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN stdio_meta_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN stdio_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN lower_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN lower_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpi_send_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpi_send_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpi_recv_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpi_recv_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpi_p2p_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpi_coll_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpi_coll_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpi_coll_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpiio_read_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpiio_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpiio_write_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpiio_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpiio_coll_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpiio_meta_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN mpiio_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_step_node ALTER COLUMN cpu_ns SET COMPRESSION lz4;
COMMENT ON TABLE js_data.series_step_node IS 'per-slice series of a step on a node, summed over its processes: one row per step, node and chunk of js_data.series_chunk_width() slices; one encoded series (common/series.h) per metric, NULL when zero throughout; partitioned by chunk';
COMMENT ON COLUMN js_data.series_step_node.chunk IS 'first slice of the chunk (a multiple of js_data.series_chunk_width())';
COMMENT ON COLUMN js_data.series_step_node.first_slice IS 'first slice the series cover';
COMMENT ON COLUMN js_data.series_step_node.slices IS 'slices the series cover: first_slice .. first_slice + slices - 1, within the chunk';
COMMENT ON COLUMN js_data.series_step_node.processes IS 'series: processes with activity in the slice';
COMMENT ON COLUMN js_data.series_step_node.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.series_step_node.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.series_step_node.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.series_step_node.node IS 'node';
COMMENT ON COLUMN js_data.series_step_node.posix_read_calls IS 'series: read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';
COMMENT ON COLUMN js_data.series_step_node.posix_read_bytes IS 'series: bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';
COMMENT ON COLUMN js_data.series_step_node.posix_write_calls IS 'series: write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';
COMMENT ON COLUMN js_data.series_step_node.posix_write_bytes IS 'series: bytes accepted by those writes (asynchronous: as for reads) (bytes)';
COMMENT ON COLUMN js_data.series_step_node.posix_open_calls IS 'series: open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';
COMMENT ON COLUMN js_data.series_step_node.posix_meta_calls IS 'series: close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';
COMMENT ON COLUMN js_data.series_step_node.posix_ns IS 'series: time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';
COMMENT ON COLUMN js_data.series_step_node.stdio_read_calls IS 'series: fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.series_step_node.stdio_read_bytes IS 'series: bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';
COMMENT ON COLUMN js_data.series_step_node.stdio_write_calls IS 'series: fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.series_step_node.stdio_write_bytes IS 'series: bytes handed to the stream by those calls (wide forms: one per character) (bytes)';
COMMENT ON COLUMN js_data.series_step_node.stdio_open_calls IS 'series: fopen, fdopen, freopen (and 64-bit variants) (calls)';
COMMENT ON COLUMN js_data.series_step_node.stdio_meta_calls IS 'series: fclose, fflush, fseek family, ungetc/ungetwc (calls)';
COMMENT ON COLUMN js_data.series_step_node.stdio_ns IS 'series: time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';
COMMENT ON COLUMN js_data.series_step_node.lower_read_bytes IS 'series: POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.series_step_node.lower_write_bytes IS 'series: POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.series_step_node.mpi_send_calls IS 'series: point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';
COMMENT ON COLUMN js_data.series_step_node.mpi_send_bytes IS 'series: bytes of those sends (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_step_node.mpi_recv_calls IS 'series: point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';
COMMENT ON COLUMN js_data.series_step_node.mpi_recv_bytes IS 'series: bytes of those receives as posted (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_step_node.mpi_p2p_ns IS 'series: time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';
COMMENT ON COLUMN js_data.series_step_node.mpi_coll_calls IS 'series: collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';
COMMENT ON COLUMN js_data.series_step_node.mpi_coll_bytes IS 'series: send-side bytes of those collectives on this rank (bytes)';
COMMENT ON COLUMN js_data.series_step_node.mpi_coll_ns IS 'series: time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';
COMMENT ON COLUMN js_data.series_step_node.mpiio_read_calls IS 'series: MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.series_step_node.mpiio_read_bytes IS 'series: bytes of those reads (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_step_node.mpiio_write_calls IS 'series: MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.series_step_node.mpiio_write_bytes IS 'series: bytes of those writes (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_step_node.mpiio_coll_calls IS 'series: the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';
COMMENT ON COLUMN js_data.series_step_node.mpiio_meta_calls IS 'series: MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';
COMMENT ON COLUMN js_data.series_step_node.mpiio_ns IS 'series: time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';
COMMENT ON COLUMN js_data.series_step_node.cpu_ns IS 'series: CPU time (user + system) of the process in the slice (ns)';

CREATE TABLE js_data.series_step (
    cluster_id           smallint NOT NULL,
    job_id               bigint NOT NULL,
    step_id              text NOT NULL,
    chunk                bigint NOT NULL,
    first_slice          bigint NOT NULL,
    slices               smallint NOT NULL,
    nodes                bytea,
    processes            bytea,
    posix_read_calls     bytea,
    posix_read_bytes     bytea,
    posix_write_calls    bytea,
    posix_write_bytes    bytea,
    posix_open_calls     bytea,
    posix_meta_calls     bytea,
    posix_ns             bytea,
    stdio_read_calls     bytea,
    stdio_read_bytes     bytea,
    stdio_write_calls    bytea,
    stdio_write_bytes    bytea,
    stdio_open_calls     bytea,
    stdio_meta_calls     bytea,
    stdio_ns             bytea,
    lower_read_bytes     bytea,
    lower_write_bytes    bytea,
    mpi_send_calls       bytea,
    mpi_send_bytes       bytea,
    mpi_recv_calls       bytea,
    mpi_recv_bytes       bytea,
    mpi_p2p_ns           bytea,
    mpi_coll_calls       bytea,
    mpi_coll_bytes       bytea,
    mpi_coll_ns          bytea,
    mpiio_read_calls     bytea,
    mpiio_read_bytes     bytea,
    mpiio_write_calls    bytea,
    mpiio_write_bytes    bytea,
    mpiio_coll_calls     bytea,
    mpiio_meta_calls     bytea,
    mpiio_ns             bytea,
    cpu_ns               bytea,
    PRIMARY KEY (cluster_id, job_id, step_id, chunk),
    CHECK (chunk = js_data.series_chunk_of(first_slice) AND slices BETWEEN 1 AND 900 AND first_slice + slices <= chunk + 900)
) PARTITION BY RANGE (chunk);
ALTER TABLE js_data.series_step ALTER COLUMN nodes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN processes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN posix_read_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN posix_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN posix_write_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN posix_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN posix_open_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN posix_meta_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN posix_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN stdio_read_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN stdio_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN stdio_write_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN stdio_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN stdio_open_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN stdio_meta_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN stdio_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN lower_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN lower_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpi_send_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpi_send_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpi_recv_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpi_recv_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpi_p2p_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpi_coll_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpi_coll_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpi_coll_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpiio_read_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpiio_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpiio_write_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpiio_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpiio_coll_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpiio_meta_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN mpiio_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_step ALTER COLUMN cpu_ns SET COMPRESSION lz4;
COMMENT ON TABLE js_data.series_step IS 'per-slice series of a step summed over its nodes, one row per step and chunk; kept by js_data.rollup_totals() (the step-nodes still in js_data.totals_pending are added by the views)';
COMMENT ON COLUMN js_data.series_step.chunk IS 'first slice of the chunk (a multiple of js_data.series_chunk_width())';
COMMENT ON COLUMN js_data.series_step.first_slice IS 'first slice the series cover';
COMMENT ON COLUMN js_data.series_step.slices IS 'slices the series cover: first_slice .. first_slice + slices - 1, within the chunk';
COMMENT ON COLUMN js_data.series_step.nodes IS 'series: nodes of the step with activity in the slice';
COMMENT ON COLUMN js_data.series_step.processes IS 'series: processes with activity in the slice';
COMMENT ON COLUMN js_data.series_step.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.series_step.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.series_step.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.series_step.posix_read_calls IS 'series: read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';
COMMENT ON COLUMN js_data.series_step.posix_read_bytes IS 'series: bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';
COMMENT ON COLUMN js_data.series_step.posix_write_calls IS 'series: write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';
COMMENT ON COLUMN js_data.series_step.posix_write_bytes IS 'series: bytes accepted by those writes (asynchronous: as for reads) (bytes)';
COMMENT ON COLUMN js_data.series_step.posix_open_calls IS 'series: open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';
COMMENT ON COLUMN js_data.series_step.posix_meta_calls IS 'series: close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';
COMMENT ON COLUMN js_data.series_step.posix_ns IS 'series: time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';
COMMENT ON COLUMN js_data.series_step.stdio_read_calls IS 'series: fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.series_step.stdio_read_bytes IS 'series: bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';
COMMENT ON COLUMN js_data.series_step.stdio_write_calls IS 'series: fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.series_step.stdio_write_bytes IS 'series: bytes handed to the stream by those calls (wide forms: one per character) (bytes)';
COMMENT ON COLUMN js_data.series_step.stdio_open_calls IS 'series: fopen, fdopen, freopen (and 64-bit variants) (calls)';
COMMENT ON COLUMN js_data.series_step.stdio_meta_calls IS 'series: fclose, fflush, fseek family, ungetc/ungetwc (calls)';
COMMENT ON COLUMN js_data.series_step.stdio_ns IS 'series: time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';
COMMENT ON COLUMN js_data.series_step.lower_read_bytes IS 'series: POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.series_step.lower_write_bytes IS 'series: POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.series_step.mpi_send_calls IS 'series: point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';
COMMENT ON COLUMN js_data.series_step.mpi_send_bytes IS 'series: bytes of those sends (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_step.mpi_recv_calls IS 'series: point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';
COMMENT ON COLUMN js_data.series_step.mpi_recv_bytes IS 'series: bytes of those receives as posted (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_step.mpi_p2p_ns IS 'series: time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';
COMMENT ON COLUMN js_data.series_step.mpi_coll_calls IS 'series: collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';
COMMENT ON COLUMN js_data.series_step.mpi_coll_bytes IS 'series: send-side bytes of those collectives on this rank (bytes)';
COMMENT ON COLUMN js_data.series_step.mpi_coll_ns IS 'series: time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';
COMMENT ON COLUMN js_data.series_step.mpiio_read_calls IS 'series: MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.series_step.mpiio_read_bytes IS 'series: bytes of those reads (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_step.mpiio_write_calls IS 'series: MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.series_step.mpiio_write_bytes IS 'series: bytes of those writes (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_step.mpiio_coll_calls IS 'series: the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';
COMMENT ON COLUMN js_data.series_step.mpiio_meta_calls IS 'series: MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';
COMMENT ON COLUMN js_data.series_step.mpiio_ns IS 'series: time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';
COMMENT ON COLUMN js_data.series_step.cpu_ns IS 'series: CPU time (user + system) of the process in the slice (ns)';

CREATE TABLE js_data.series_node (
    cluster_id           smallint NOT NULL,
    node                 text NOT NULL,
    chunk                bigint NOT NULL,
    first_slice          bigint NOT NULL,
    slices               smallint NOT NULL,
    step_nodes           bytea,
    posix_read_calls     bytea,
    posix_read_bytes     bytea,
    posix_write_calls    bytea,
    posix_write_bytes    bytea,
    posix_open_calls     bytea,
    posix_meta_calls     bytea,
    posix_ns             bytea,
    stdio_read_calls     bytea,
    stdio_read_bytes     bytea,
    stdio_write_calls    bytea,
    stdio_write_bytes    bytea,
    stdio_open_calls     bytea,
    stdio_meta_calls     bytea,
    stdio_ns             bytea,
    lower_read_bytes     bytea,
    lower_write_bytes    bytea,
    mpi_send_calls       bytea,
    mpi_send_bytes       bytea,
    mpi_recv_calls       bytea,
    mpi_recv_bytes       bytea,
    mpi_p2p_ns           bytea,
    mpi_coll_calls       bytea,
    mpi_coll_bytes       bytea,
    mpi_coll_ns          bytea,
    mpiio_read_calls     bytea,
    mpiio_read_bytes     bytea,
    mpiio_write_calls    bytea,
    mpiio_write_bytes    bytea,
    mpiio_coll_calls     bytea,
    mpiio_meta_calls     bytea,
    mpiio_ns             bytea,
    cpu_ns               bytea,
    PRIMARY KEY (cluster_id, node, chunk),
    CHECK (chunk = js_data.series_chunk_of(first_slice) AND slices BETWEEN 1 AND 900 AND first_slice + slices <= chunk + 900)
) PARTITION BY RANGE (chunk);
ALTER TABLE js_data.series_node ALTER COLUMN step_nodes SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN posix_read_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN posix_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN posix_write_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN posix_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN posix_open_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN posix_meta_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN posix_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN stdio_read_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN stdio_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN stdio_write_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN stdio_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN stdio_open_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN stdio_meta_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN stdio_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN lower_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN lower_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpi_send_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpi_send_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpi_recv_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpi_recv_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpi_p2p_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpi_coll_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpi_coll_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpi_coll_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpiio_read_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpiio_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpiio_write_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpiio_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpiio_coll_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpiio_meta_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN mpiio_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_node ALTER COLUMN cpu_ns SET COMPRESSION lz4;
COMMENT ON TABLE js_data.series_node IS 'pre-aggregated: per node and chunk, the per-slice sums over every step on the node (but those still in js_data.totals_pending)';
COMMENT ON COLUMN js_data.series_node.chunk IS 'first slice of the chunk (a multiple of js_data.series_chunk_width())';
COMMENT ON COLUMN js_data.series_node.first_slice IS 'first slice the series cover';
COMMENT ON COLUMN js_data.series_node.slices IS 'slices the series cover: first_slice .. first_slice + slices - 1, within the chunk';
COMMENT ON COLUMN js_data.series_node.step_nodes IS 'series: how many (step, node) series were added into the slice';
COMMENT ON COLUMN js_data.series_node.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.series_node.node IS 'node';
COMMENT ON COLUMN js_data.series_node.posix_read_calls IS 'series: read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';
COMMENT ON COLUMN js_data.series_node.posix_read_bytes IS 'series: bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';
COMMENT ON COLUMN js_data.series_node.posix_write_calls IS 'series: write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';
COMMENT ON COLUMN js_data.series_node.posix_write_bytes IS 'series: bytes accepted by those writes (asynchronous: as for reads) (bytes)';
COMMENT ON COLUMN js_data.series_node.posix_open_calls IS 'series: open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';
COMMENT ON COLUMN js_data.series_node.posix_meta_calls IS 'series: close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';
COMMENT ON COLUMN js_data.series_node.posix_ns IS 'series: time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';
COMMENT ON COLUMN js_data.series_node.stdio_read_calls IS 'series: fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.series_node.stdio_read_bytes IS 'series: bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';
COMMENT ON COLUMN js_data.series_node.stdio_write_calls IS 'series: fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.series_node.stdio_write_bytes IS 'series: bytes handed to the stream by those calls (wide forms: one per character) (bytes)';
COMMENT ON COLUMN js_data.series_node.stdio_open_calls IS 'series: fopen, fdopen, freopen (and 64-bit variants) (calls)';
COMMENT ON COLUMN js_data.series_node.stdio_meta_calls IS 'series: fclose, fflush, fseek family, ungetc/ungetwc (calls)';
COMMENT ON COLUMN js_data.series_node.stdio_ns IS 'series: time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';
COMMENT ON COLUMN js_data.series_node.lower_read_bytes IS 'series: POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.series_node.lower_write_bytes IS 'series: POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.series_node.mpi_send_calls IS 'series: point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';
COMMENT ON COLUMN js_data.series_node.mpi_send_bytes IS 'series: bytes of those sends (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_node.mpi_recv_calls IS 'series: point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';
COMMENT ON COLUMN js_data.series_node.mpi_recv_bytes IS 'series: bytes of those receives as posted (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_node.mpi_p2p_ns IS 'series: time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';
COMMENT ON COLUMN js_data.series_node.mpi_coll_calls IS 'series: collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';
COMMENT ON COLUMN js_data.series_node.mpi_coll_bytes IS 'series: send-side bytes of those collectives on this rank (bytes)';
COMMENT ON COLUMN js_data.series_node.mpi_coll_ns IS 'series: time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';
COMMENT ON COLUMN js_data.series_node.mpiio_read_calls IS 'series: MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.series_node.mpiio_read_bytes IS 'series: bytes of those reads (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_node.mpiio_write_calls IS 'series: MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.series_node.mpiio_write_bytes IS 'series: bytes of those writes (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_node.mpiio_coll_calls IS 'series: the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';
COMMENT ON COLUMN js_data.series_node.mpiio_meta_calls IS 'series: MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';
COMMENT ON COLUMN js_data.series_node.mpiio_ns IS 'series: time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';
COMMENT ON COLUMN js_data.series_node.cpu_ns IS 'series: CPU time (user + system) of the process in the slice (ns)';

CREATE TABLE js_data.series_cluster (
    cluster_id           smallint NOT NULL,
    chunk                bigint NOT NULL,
    first_slice          bigint NOT NULL,
    slices               smallint NOT NULL,
    step_nodes           bytea,
    posix_read_calls     bytea,
    posix_read_bytes     bytea,
    posix_write_calls    bytea,
    posix_write_bytes    bytea,
    posix_open_calls     bytea,
    posix_meta_calls     bytea,
    posix_ns             bytea,
    stdio_read_calls     bytea,
    stdio_read_bytes     bytea,
    stdio_write_calls    bytea,
    stdio_write_bytes    bytea,
    stdio_open_calls     bytea,
    stdio_meta_calls     bytea,
    stdio_ns             bytea,
    lower_read_bytes     bytea,
    lower_write_bytes    bytea,
    mpi_send_calls       bytea,
    mpi_send_bytes       bytea,
    mpi_recv_calls       bytea,
    mpi_recv_bytes       bytea,
    mpi_p2p_ns           bytea,
    mpi_coll_calls       bytea,
    mpi_coll_bytes       bytea,
    mpi_coll_ns          bytea,
    mpiio_read_calls     bytea,
    mpiio_read_bytes     bytea,
    mpiio_write_calls    bytea,
    mpiio_write_bytes    bytea,
    mpiio_coll_calls     bytea,
    mpiio_meta_calls     bytea,
    mpiio_ns             bytea,
    cpu_ns               bytea,
    PRIMARY KEY (cluster_id, chunk),
    CHECK (chunk = js_data.series_chunk_of(first_slice) AND slices BETWEEN 1 AND 900 AND first_slice + slices <= chunk + 900)
) PARTITION BY RANGE (chunk);
ALTER TABLE js_data.series_cluster ALTER COLUMN step_nodes SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN posix_read_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN posix_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN posix_write_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN posix_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN posix_open_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN posix_meta_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN posix_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN stdio_read_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN stdio_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN stdio_write_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN stdio_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN stdio_open_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN stdio_meta_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN stdio_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN lower_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN lower_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpi_send_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpi_send_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpi_recv_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpi_recv_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpi_p2p_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpi_coll_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpi_coll_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpi_coll_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpiio_read_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpiio_read_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpiio_write_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpiio_write_bytes SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpiio_coll_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpiio_meta_calls SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN mpiio_ns SET COMPRESSION lz4;
ALTER TABLE js_data.series_cluster ALTER COLUMN cpu_ns SET COMPRESSION lz4;
COMMENT ON TABLE js_data.series_cluster IS 'pre-aggregated: per chunk, the per-slice sums over the whole cluster (but the step-nodes still in js_data.totals_pending)';
COMMENT ON COLUMN js_data.series_cluster.chunk IS 'first slice of the chunk (a multiple of js_data.series_chunk_width())';
COMMENT ON COLUMN js_data.series_cluster.first_slice IS 'first slice the series cover';
COMMENT ON COLUMN js_data.series_cluster.slices IS 'slices the series cover: first_slice .. first_slice + slices - 1, within the chunk';
COMMENT ON COLUMN js_data.series_cluster.step_nodes IS 'series: how many (step, node) series were added into the slice';
COMMENT ON COLUMN js_data.series_cluster.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.series_cluster.posix_read_calls IS 'series: read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';
COMMENT ON COLUMN js_data.series_cluster.posix_read_bytes IS 'series: bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';
COMMENT ON COLUMN js_data.series_cluster.posix_write_calls IS 'series: write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';
COMMENT ON COLUMN js_data.series_cluster.posix_write_bytes IS 'series: bytes accepted by those writes (asynchronous: as for reads) (bytes)';
COMMENT ON COLUMN js_data.series_cluster.posix_open_calls IS 'series: open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';
COMMENT ON COLUMN js_data.series_cluster.posix_meta_calls IS 'series: close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';
COMMENT ON COLUMN js_data.series_cluster.posix_ns IS 'series: time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';
COMMENT ON COLUMN js_data.series_cluster.stdio_read_calls IS 'series: fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.series_cluster.stdio_read_bytes IS 'series: bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';
COMMENT ON COLUMN js_data.series_cluster.stdio_write_calls IS 'series: fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.series_cluster.stdio_write_bytes IS 'series: bytes handed to the stream by those calls (wide forms: one per character) (bytes)';
COMMENT ON COLUMN js_data.series_cluster.stdio_open_calls IS 'series: fopen, fdopen, freopen (and 64-bit variants) (calls)';
COMMENT ON COLUMN js_data.series_cluster.stdio_meta_calls IS 'series: fclose, fflush, fseek family, ungetc/ungetwc (calls)';
COMMENT ON COLUMN js_data.series_cluster.stdio_ns IS 'series: time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';
COMMENT ON COLUMN js_data.series_cluster.lower_read_bytes IS 'series: POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.series_cluster.lower_write_bytes IS 'series: POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.series_cluster.mpi_send_calls IS 'series: point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';
COMMENT ON COLUMN js_data.series_cluster.mpi_send_bytes IS 'series: bytes of those sends (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_cluster.mpi_recv_calls IS 'series: point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';
COMMENT ON COLUMN js_data.series_cluster.mpi_recv_bytes IS 'series: bytes of those receives as posted (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_cluster.mpi_p2p_ns IS 'series: time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';
COMMENT ON COLUMN js_data.series_cluster.mpi_coll_calls IS 'series: collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';
COMMENT ON COLUMN js_data.series_cluster.mpi_coll_bytes IS 'series: send-side bytes of those collectives on this rank (bytes)';
COMMENT ON COLUMN js_data.series_cluster.mpi_coll_ns IS 'series: time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';
COMMENT ON COLUMN js_data.series_cluster.mpiio_read_calls IS 'series: MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.series_cluster.mpiio_read_bytes IS 'series: bytes of those reads (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_cluster.mpiio_write_calls IS 'series: MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.series_cluster.mpiio_write_bytes IS 'series: bytes of those writes (count x type size) (bytes)';
COMMENT ON COLUMN js_data.series_cluster.mpiio_coll_calls IS 'series: the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';
COMMENT ON COLUMN js_data.series_cluster.mpiio_meta_calls IS 'series: MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';
COMMENT ON COLUMN js_data.series_cluster.mpiio_ns IS 'series: time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';
COMMENT ON COLUMN js_data.series_cluster.cpu_ns IS 'series: CPU time (user + system) of the process in the slice (ns)';

CREATE INDEX series_step_node_chunk ON js_data.series_step_node (cluster_id, chunk);

-- The old per-slice tables, converted below and then dropped (their views go with them and
-- are made again further down). No merge joins while converting (see js_data.series_load).
SET LOCAL enable_mergejoin = off;
ALTER TABLE js_data.slice_metrics RENAME TO slice_metrics_v1;
ALTER TABLE js_data.slice_totals_node RENAME TO slice_totals_node_v1;
ALTER TABLE js_data.slice_totals_cluster RENAME TO slice_totals_cluster_v1;

-- Partitions of the series tables, as before for the per-slice tables.
CREATE OR REPLACE FUNCTION js_data.ensure_slice_partitions(first bigint, last bigint) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    w bigint := js_data.slice_partition_width();
    p bigint;
    made integer := 0;
    t text;
BEGIN
    IF last < first OR last - first > 100 * w THEN
        RAISE EXCEPTION 'slice range % .. % is not plausible', first, last;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('jobscreen partitions'));
    p := first - (((first % w) + w) % w);
    WHILE p <= last LOOP
        FOREACH t IN ARRAY ARRAY['series_step_node', 'series_step', 'series_node', 'series_cluster'] LOOP
            IF to_regclass(format('js_data.%I', t || '_p' || replace(p::text, '-', 'm'))) IS NULL THEN
                EXECUTE format('CREATE TABLE js_data.%I PARTITION OF js_data.%I FOR VALUES FROM (%s) TO (%s)',
                               t || '_p' || replace(p::text, '-', 'm'), t, p, p + w);
                made := made + 1;
            END IF;
        END LOOP;
        p := p + w;
    END LOOP;
    RETURN made;
END $$;

SELECT js_data.ensure_slice_partitions(min(lo), max(hi)) FROM (
    SELECT min(slice) AS lo, max(slice) AS hi FROM js_data.slice_metrics_v1
    UNION ALL SELECT min(slice), max(slice) FROM js_data.slice_totals_node_v1) x HAVING min(lo) IS NOT NULL;

-- Load per-slice rows of a table shaped like js_data.live_slice_metrics (cluster_id, job_id,
-- step_id, node, slice, processes, the metrics; one row per step, node and slice) into
-- js_data.series_step_node, and queue the step-nodes for the fold (profile_ingest folds them;
-- js_data.rollup_totals() does in SQL). For conversions and synthetic data; the ingest
-- writes series itself.
CREATE FUNCTION js_data.series_load(p_table regclass, p_queue boolean DEFAULT true) RETURNS bigint
LANGUAGE plpgsql
-- a merge join would pair a step-node's slices with its rows on the step-node alone and filter on
-- the slice: quadratic in the slices of a step-node (44 min instead of 2 for 64 nodes x 21600)
SET enable_mergejoin = off
AS $f$
DECLARE
    n bigint;
BEGIN
    EXECUTE format($q$INSERT INTO js_data.series_step_node (cluster_id, job_id, step_id, node, chunk, first_slice, slices, processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns)
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
       js_data.series_encode(array_agg(coalesce(o.cpu_ns, 0) ORDER BY g.s))
FROM (SELECT cluster_id, job_id, step_id, node, js_data.series_chunk_of(slice) AS chunk, min(slice) AS lo, max(slice) AS hi FROM %1$s GROUP BY cluster_id, job_id, step_id, node, chunk) k
CROSS JOIN generate_series(k.lo, k.hi) g(s)
LEFT JOIN (SELECT cluster_id, job_id, step_id, node, slice, sum(processes) AS processes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns FROM %1$s GROUP BY cluster_id, job_id, step_id, node, slice) o ON o.cluster_id = k.cluster_id AND o.job_id = k.job_id AND o.step_id = k.step_id AND o.node = k.node AND o.slice = g.s
GROUP BY k.cluster_id, k.job_id, k.step_id, k.node, k.chunk, k.lo, k.hi$q$, p_table);
    GET DIAGNOSTICS n = ROW_COUNT;
    IF p_queue THEN
        EXECUTE format('INSERT INTO js_data.totals_pending (cluster_id, job_id, step_id, node) '
                       'SELECT DISTINCT cluster_id, job_id, step_id, node FROM %s ON CONFLICT DO NOTHING', p_table);
    END IF;
    RETURN n;
END $f$;
COMMENT ON FUNCTION js_data.series_load(regclass, boolean) IS 'load per-slice rows (the columns of js_data.live_slice_metrics) into js_data.series_step_node as series, and queue their step-nodes for the fold; returns the rows written';

SELECT js_data.series_load('js_data.slice_metrics_v1', false);

INSERT INTO js_data.series_step (cluster_id, job_id, step_id, chunk, first_slice, slices, nodes, processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns)
SELECT k.cluster_id, k.job_id, k.step_id, k.chunk, k.lo, (k.hi - k.lo + 1)::smallint,
       js_data.series_encode(array_agg(coalesce(o.nodes, 0) ORDER BY g.s)),
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
       js_data.series_encode(array_agg(coalesce(o.cpu_ns, 0) ORDER BY g.s))
FROM (SELECT cluster_id, job_id, step_id, js_data.series_chunk_of(slice) AS chunk, min(slice) AS lo, max(slice) AS hi FROM js_data.slice_metrics_v1 m WHERE NOT EXISTS (SELECT 1 FROM js_data.totals_pending p WHERE p.cluster_id = m.cluster_id AND p.job_id = m.job_id AND p.step_id = m.step_id AND p.node = m.node) GROUP BY cluster_id, job_id, step_id, chunk) k
CROSS JOIN generate_series(k.lo, k.hi) g(s)
LEFT JOIN (SELECT cluster_id, job_id, step_id, slice, count(*) AS nodes, sum(processes) AS processes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns FROM js_data.slice_metrics_v1 m WHERE NOT EXISTS (SELECT 1 FROM js_data.totals_pending p WHERE p.cluster_id = m.cluster_id AND p.job_id = m.job_id AND p.step_id = m.step_id AND p.node = m.node) GROUP BY cluster_id, job_id, step_id, slice) o ON o.cluster_id = k.cluster_id AND o.job_id = k.job_id AND o.step_id = k.step_id AND o.slice = g.s
GROUP BY k.cluster_id, k.job_id, k.step_id, k.chunk, k.lo, k.hi;

INSERT INTO js_data.series_node (cluster_id, node, chunk, first_slice, slices, step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns)
SELECT k.cluster_id, k.node, k.chunk, k.lo, (k.hi - k.lo + 1)::smallint,
       js_data.series_encode(array_agg(coalesce(o.step_nodes, 0) ORDER BY g.s)),
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
       js_data.series_encode(array_agg(coalesce(o.cpu_ns, 0) ORDER BY g.s))
FROM (SELECT cluster_id, node, js_data.series_chunk_of(slice) AS chunk, min(slice) AS lo, max(slice) AS hi FROM js_data.slice_totals_node_v1 GROUP BY cluster_id, node, chunk) k
CROSS JOIN generate_series(k.lo, k.hi) g(s)
LEFT JOIN (SELECT cluster_id, node, slice, sum(step_nodes) AS step_nodes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns FROM js_data.slice_totals_node_v1 GROUP BY cluster_id, node, slice) o ON o.cluster_id = k.cluster_id AND o.node = k.node AND o.slice = g.s
GROUP BY k.cluster_id, k.node, k.chunk, k.lo, k.hi;

INSERT INTO js_data.series_cluster (cluster_id, chunk, first_slice, slices, step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns)
SELECT k.cluster_id, k.chunk, k.lo, (k.hi - k.lo + 1)::smallint,
       js_data.series_encode(array_agg(coalesce(o.step_nodes, 0) ORDER BY g.s)),
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
       js_data.series_encode(array_agg(coalesce(o.cpu_ns, 0) ORDER BY g.s))
FROM (SELECT cluster_id, js_data.series_chunk_of(slice) AS chunk, min(slice) AS lo, max(slice) AS hi FROM js_data.slice_totals_cluster_v1 GROUP BY cluster_id, chunk) k
CROSS JOIN generate_series(k.lo, k.hi) g(s)
LEFT JOIN (SELECT cluster_id, slice, sum(step_nodes) AS step_nodes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns FROM js_data.slice_totals_cluster_v1 GROUP BY cluster_id, slice) o ON o.cluster_id = k.cluster_id AND o.slice = g.s
GROUP BY k.cluster_id, k.chunk, k.lo, k.hi;

DROP TABLE js_data.slice_metrics_v1, js_data.slice_totals_node_v1, js_data.slice_totals_cluster_v1 CASCADE;

CREATE VIEW js_data.slice_metrics AS
    SELECT r.cluster_id, r.job_id, r.step_id, r.node, r.chunk, r.first_slice + u.i - 1 AS slice,
           u.processes::integer AS processes, u.posix_read_calls, u.posix_read_bytes, u.posix_write_calls, u.posix_write_bytes, u.posix_open_calls, u.posix_meta_calls, u.posix_ns, u.stdio_read_calls, u.stdio_read_bytes, u.stdio_write_calls, u.stdio_write_bytes, u.stdio_open_calls, u.stdio_meta_calls, u.stdio_ns, u.lower_read_bytes, u.lower_write_bytes, u.mpi_send_calls, u.mpi_send_bytes, u.mpi_recv_calls, u.mpi_recv_bytes, u.mpi_p2p_ns, u.mpi_coll_calls, u.mpi_coll_bytes, u.mpi_coll_ns, u.mpiio_read_calls, u.mpiio_read_bytes, u.mpiio_write_calls, u.mpiio_write_bytes, u.mpiio_coll_calls, u.mpiio_meta_calls, u.mpiio_ns, u.cpu_ns
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
        js_data.series_decode(r.cpu_ns, r.slices))
        WITH ORDINALITY AS u(processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, i)
    WHERE u.processes > 0;
COMMENT ON VIEW js_data.slice_metrics IS 'js_data.series_step_node decoded: the per-slice metric vector of a step on a node, one row per slice with activity (filter by step, or by chunk: it decodes what it reads)';

CREATE VIEW js_data.step_series_slices AS
    SELECT r.cluster_id, r.job_id, r.step_id, r.chunk, r.first_slice + u.i - 1 AS slice,
           u.nodes::integer AS nodes, u.processes::integer AS processes, u.posix_read_calls, u.posix_read_bytes, u.posix_write_calls, u.posix_write_bytes, u.posix_open_calls, u.posix_meta_calls, u.posix_ns, u.stdio_read_calls, u.stdio_read_bytes, u.stdio_write_calls, u.stdio_write_bytes, u.stdio_open_calls, u.stdio_meta_calls, u.stdio_ns, u.lower_read_bytes, u.lower_write_bytes, u.mpi_send_calls, u.mpi_send_bytes, u.mpi_recv_calls, u.mpi_recv_bytes, u.mpi_p2p_ns, u.mpi_coll_calls, u.mpi_coll_bytes, u.mpi_coll_ns, u.mpiio_read_calls, u.mpiio_read_bytes, u.mpiio_write_calls, u.mpiio_write_bytes, u.mpiio_coll_calls, u.mpiio_meta_calls, u.mpiio_ns, u.cpu_ns
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
        js_data.series_decode(r.cpu_ns, r.slices))
        WITH ORDINALITY AS u(nodes, processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, i)
    WHERE u.nodes > 0;
COMMENT ON VIEW js_data.step_series_slices IS 'js_data.series_step decoded: per slice with activity, the sums over the folded step-nodes of the step';

CREATE VIEW js_data.slice_totals_node AS
    SELECT r.cluster_id, r.node, r.chunk, r.first_slice + u.i - 1 AS slice,
           u.step_nodes::integer AS step_nodes, u.posix_read_calls, u.posix_read_bytes, u.posix_write_calls, u.posix_write_bytes, u.posix_open_calls, u.posix_meta_calls, u.posix_ns, u.stdio_read_calls, u.stdio_read_bytes, u.stdio_write_calls, u.stdio_write_bytes, u.stdio_open_calls, u.stdio_meta_calls, u.stdio_ns, u.lower_read_bytes, u.lower_write_bytes, u.mpi_send_calls, u.mpi_send_bytes, u.mpi_recv_calls, u.mpi_recv_bytes, u.mpi_p2p_ns, u.mpi_coll_calls, u.mpi_coll_bytes, u.mpi_coll_ns, u.mpiio_read_calls, u.mpiio_read_bytes, u.mpiio_write_calls, u.mpiio_write_bytes, u.mpiio_coll_calls, u.mpiio_meta_calls, u.mpiio_ns, u.cpu_ns
    FROM js_data.series_node r
    CROSS JOIN LATERAL unnest(js_data.series_decode(r.step_nodes, r.slices),
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
        js_data.series_decode(r.cpu_ns, r.slices))
        WITH ORDINALITY AS u(step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, i)
    WHERE u.step_nodes > 0;
COMMENT ON VIEW js_data.slice_totals_node IS 'js_data.series_node decoded: per node and slice, the sums over the folded steps on it';

CREATE VIEW js_data.slice_totals_cluster AS
    SELECT r.cluster_id, r.chunk, r.first_slice + u.i - 1 AS slice,
           u.step_nodes::integer AS step_nodes, u.posix_read_calls, u.posix_read_bytes, u.posix_write_calls, u.posix_write_bytes, u.posix_open_calls, u.posix_meta_calls, u.posix_ns, u.stdio_read_calls, u.stdio_read_bytes, u.stdio_write_calls, u.stdio_write_bytes, u.stdio_open_calls, u.stdio_meta_calls, u.stdio_ns, u.lower_read_bytes, u.lower_write_bytes, u.mpi_send_calls, u.mpi_send_bytes, u.mpi_recv_calls, u.mpi_recv_bytes, u.mpi_p2p_ns, u.mpi_coll_calls, u.mpi_coll_bytes, u.mpi_coll_ns, u.mpiio_read_calls, u.mpiio_read_bytes, u.mpiio_write_calls, u.mpiio_write_bytes, u.mpiio_coll_calls, u.mpiio_meta_calls, u.mpiio_ns, u.cpu_ns
    FROM js_data.series_cluster r
    CROSS JOIN LATERAL unnest(js_data.series_decode(r.step_nodes, r.slices),
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
        js_data.series_decode(r.cpu_ns, r.slices))
        WITH ORDINALITY AS u(step_nodes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, i)
    WHERE u.step_nodes > 0;
COMMENT ON VIEW js_data.slice_totals_cluster IS 'js_data.series_cluster decoded: per slice, the sums over the folded step-nodes of the cluster';

-- Fold up to p_limit queued step-nodes into the step, node and cluster series, in one
-- transaction: the series of the chunks they touch are decoded, added to and encoded again.
-- One fold at a time (an advisory lock; a daemon that finds it taken returns 0 and leaves the
-- queue to the one folding): a series is rewritten whole, so two folds must not interleave.
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
    INSERT INTO js_data.series_step AS t (cluster_id, job_id, step_id, chunk, first_slice, slices, nodes, processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns)
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
           js_data.series_encode(array_agg(coalesce(v.cpu_ns, 0) ORDER BY g.s))
    FROM (SELECT cluster_id, job_id, step_id, chunk, min(s) AS lo, max(s) AS hi FROM (
              SELECT cluster_id, job_id, step_id, chunk, slice AS s FROM rollup_slices
              UNION ALL
              SELECT t.cluster_id, t.job_id, t.step_id, t.chunk, x.s FROM js_data.series_step t
              JOIN (SELECT DISTINCT cluster_id, job_id, step_id, chunk FROM rollup_slices) a USING (cluster_id, job_id, step_id, chunk)
              CROSS JOIN LATERAL (VALUES (t.first_slice), (t.first_slice + t.slices - 1)) x(s)) e
          GROUP BY cluster_id, job_id, step_id, chunk) k
    CROSS JOIN generate_series(k.lo, k.hi) g(s)
    LEFT JOIN (SELECT cluster_id, job_id, step_id, slice, sum(nodes)::bigint AS nodes, sum(processes)::bigint AS processes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns FROM (
                   SELECT cluster_id, job_id, step_id, slice, 1 AS nodes, processes AS processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns FROM rollup_slices
                   UNION ALL
                   SELECT o.cluster_id, o.job_id, o.step_id, slice, o.nodes, o.processes, o.posix_read_calls, o.posix_read_bytes, o.posix_write_calls, o.posix_write_bytes, o.posix_open_calls, o.posix_meta_calls, o.posix_ns, o.stdio_read_calls, o.stdio_read_bytes, o.stdio_write_calls, o.stdio_write_bytes, o.stdio_open_calls, o.stdio_meta_calls, o.stdio_ns, o.lower_read_bytes, o.lower_write_bytes, o.mpi_send_calls, o.mpi_send_bytes, o.mpi_recv_calls, o.mpi_recv_bytes, o.mpi_p2p_ns, o.mpi_coll_calls, o.mpi_coll_bytes, o.mpi_coll_ns, o.mpiio_read_calls, o.mpiio_read_bytes, o.mpiio_write_calls, o.mpiio_write_bytes, o.mpiio_coll_calls, o.mpiio_meta_calls, o.mpiio_ns, o.cpu_ns FROM js_data.step_series_slices o
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
        cpu_ns = excluded.cpu_ns;
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

-- ---- the views of the contract, on the series ----------------------------------------------

CREATE VIEW js.step_node_slices AS
    SELECT m.cluster_id, m.job_id, m.step_id, m.node, m.slice, m.processes, m.posix_read_calls, m.posix_read_bytes, m.posix_write_calls, m.posix_write_bytes, m.posix_open_calls, m.posix_meta_calls, m.posix_ns, m.stdio_read_calls, m.stdio_read_bytes, m.stdio_write_calls, m.stdio_write_bytes, m.stdio_open_calls, m.stdio_meta_calls, m.stdio_ns, m.lower_read_bytes, m.lower_write_bytes, m.mpi_send_calls, m.mpi_send_bytes, m.mpi_recv_calls, m.mpi_recv_bytes, m.mpi_p2p_ns, m.mpi_coll_calls, m.mpi_coll_bytes, m.mpi_coll_ns, m.mpiio_read_calls, m.mpiio_read_bytes, m.mpiio_write_calls, m.mpiio_write_bytes, m.mpiio_coll_calls, m.mpiio_meta_calls, m.mpiio_ns, m.cpu_ns,
           js_data.slice_start(m.cluster_id, m.slice) AS slice_start, m.chunk
    FROM js_data.slice_metrics m
    UNION ALL
    SELECT m.cluster_id, m.job_id, m.step_id, m.node, m.slice, m.processes, m.posix_read_calls, m.posix_read_bytes, m.posix_write_calls, m.posix_write_bytes, m.posix_open_calls, m.posix_meta_calls, m.posix_ns, m.stdio_read_calls, m.stdio_read_bytes, m.stdio_write_calls, m.stdio_write_bytes, m.stdio_open_calls, m.stdio_meta_calls, m.stdio_ns, m.lower_read_bytes, m.lower_write_bytes, m.mpi_send_calls, m.mpi_send_bytes, m.mpi_recv_calls, m.mpi_recv_bytes, m.mpi_p2p_ns, m.mpi_coll_calls, m.mpi_coll_bytes, m.mpi_coll_ns, m.mpiio_read_calls, m.mpiio_read_bytes, m.mpiio_write_calls, m.mpiio_write_bytes, m.mpiio_coll_calls, m.mpiio_meta_calls, m.mpiio_ns, m.cpu_ns,
           js_data.slice_start(m.cluster_id, m.slice) AS slice_start, js_data.series_chunk_of(m.slice)
    FROM js_data.live_slice_metrics m;
COMMENT ON VIEW js.step_node_slices IS 'per-slice metric vectors of a step on one node (only slices with activity), provisional ones (a running step-node) included; decoded from js_data.series_step_node, so filter by job and step, or by chunk (the first slice of the stored chunk: js_data.series_chunk_of(slice)) as well as by slice';

-- A step's sums per slice: its folded series, its step-nodes still queued for the fold, and
-- (for js.step_slices) the provisional ones of running step-nodes.
CREATE VIEW js_data.step_sums AS
    SELECT cluster_id, job_id, step_id, chunk, slice, nodes, processes, posix_read_calls, posix_read_bytes, posix_write_calls, posix_write_bytes, posix_open_calls, posix_meta_calls, posix_ns, stdio_read_calls, stdio_read_bytes, stdio_write_calls, stdio_write_bytes, stdio_open_calls, stdio_meta_calls, stdio_ns, lower_read_bytes, lower_write_bytes, mpi_send_calls, mpi_send_bytes, mpi_recv_calls, mpi_recv_bytes, mpi_p2p_ns, mpi_coll_calls, mpi_coll_bytes, mpi_coll_ns, mpiio_read_calls, mpiio_read_bytes, mpiio_write_calls, mpiio_write_bytes, mpiio_coll_calls, mpiio_meta_calls, mpiio_ns, cpu_ns, false AS live
    FROM js_data.step_series_slices
    UNION ALL
    SELECT m.cluster_id, m.job_id, m.step_id, m.chunk, m.slice, 1, m.processes, m.posix_read_calls, m.posix_read_bytes, m.posix_write_calls, m.posix_write_bytes, m.posix_open_calls, m.posix_meta_calls, m.posix_ns, m.stdio_read_calls, m.stdio_read_bytes, m.stdio_write_calls, m.stdio_write_bytes, m.stdio_open_calls, m.stdio_meta_calls, m.stdio_ns, m.lower_read_bytes, m.lower_write_bytes, m.mpi_send_calls, m.mpi_send_bytes, m.mpi_recv_calls, m.mpi_recv_bytes, m.mpi_p2p_ns, m.mpi_coll_calls, m.mpi_coll_bytes, m.mpi_coll_ns, m.mpiio_read_calls, m.mpiio_read_bytes, m.mpiio_write_calls, m.mpiio_write_bytes, m.mpiio_coll_calls, m.mpiio_meta_calls, m.mpiio_ns, m.cpu_ns, false
    FROM js_data.slice_metrics m
    JOIN js_data.totals_pending p ON p.cluster_id = m.cluster_id AND p.job_id = m.job_id AND p.step_id = m.step_id AND p.node = m.node
    UNION ALL
    SELECT m.cluster_id, m.job_id, m.step_id, js_data.series_chunk_of(m.slice), m.slice, 1, m.processes, m.posix_read_calls, m.posix_read_bytes, m.posix_write_calls, m.posix_write_bytes, m.posix_open_calls, m.posix_meta_calls, m.posix_ns, m.stdio_read_calls, m.stdio_read_bytes, m.stdio_write_calls, m.stdio_write_bytes, m.stdio_open_calls, m.stdio_meta_calls, m.stdio_ns, m.lower_read_bytes, m.lower_write_bytes, m.mpi_send_calls, m.mpi_send_bytes, m.mpi_recv_calls, m.mpi_recv_bytes, m.mpi_p2p_ns, m.mpi_coll_calls, m.mpi_coll_bytes, m.mpi_coll_ns, m.mpiio_read_calls, m.mpiio_read_bytes, m.mpiio_write_calls, m.mpiio_write_bytes, m.mpiio_coll_calls, m.mpiio_meta_calls, m.mpiio_ns, m.cpu_ns, true
    FROM js_data.live_slice_metrics m;
COMMENT ON VIEW js_data.step_sums IS 'per step and slice, the parts whose sum is the step''s vector: the folded series, the step-nodes queued for the fold, the provisional rows of running step-nodes (live)';

CREATE VIEW js.step_slices AS
    SELECT cluster_id, job_id, step_id, slice, js_data.slice_start(cluster_id, slice) AS slice_start,
           sum(nodes)::integer AS nodes, sum(processes)::integer AS processes, sum(posix_read_calls)::bigint AS posix_read_calls, sum(posix_read_bytes)::bigint AS posix_read_bytes, sum(posix_write_calls)::bigint AS posix_write_calls, sum(posix_write_bytes)::bigint AS posix_write_bytes, sum(posix_open_calls)::bigint AS posix_open_calls, sum(posix_meta_calls)::bigint AS posix_meta_calls, sum(posix_ns)::bigint AS posix_ns, sum(stdio_read_calls)::bigint AS stdio_read_calls, sum(stdio_read_bytes)::bigint AS stdio_read_bytes, sum(stdio_write_calls)::bigint AS stdio_write_calls, sum(stdio_write_bytes)::bigint AS stdio_write_bytes, sum(stdio_open_calls)::bigint AS stdio_open_calls, sum(stdio_meta_calls)::bigint AS stdio_meta_calls, sum(stdio_ns)::bigint AS stdio_ns, sum(lower_read_bytes)::bigint AS lower_read_bytes, sum(lower_write_bytes)::bigint AS lower_write_bytes, sum(mpi_send_calls)::bigint AS mpi_send_calls, sum(mpi_send_bytes)::bigint AS mpi_send_bytes, sum(mpi_recv_calls)::bigint AS mpi_recv_calls, sum(mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(mpi_coll_calls)::bigint AS mpi_coll_calls, sum(mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(mpi_coll_ns)::bigint AS mpi_coll_ns, sum(mpiio_read_calls)::bigint AS mpiio_read_calls, sum(mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(mpiio_write_calls)::bigint AS mpiio_write_calls, sum(mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(mpiio_ns)::bigint AS mpiio_ns, sum(cpu_ns)::bigint AS cpu_ns
    FROM js_data.step_sums
    GROUP BY cluster_id, job_id, step_id, slice;
COMMENT ON VIEW js.step_slices IS 'per-slice metric vectors of a step summed over its nodes (only slices with activity), provisional ones (running step-nodes) included';

CREATE VIEW js.slice_totals_cluster AS
    SELECT t.cluster_id, t.slice, t.step_nodes, t.posix_read_calls, t.posix_read_bytes, t.posix_write_calls, t.posix_write_bytes, t.posix_open_calls, t.posix_meta_calls, t.posix_ns, t.stdio_read_calls, t.stdio_read_bytes, t.stdio_write_calls, t.stdio_write_bytes, t.stdio_open_calls, t.stdio_meta_calls, t.stdio_ns, t.lower_read_bytes, t.lower_write_bytes, t.mpi_send_calls, t.mpi_send_bytes, t.mpi_recv_calls, t.mpi_recv_bytes, t.mpi_p2p_ns, t.mpi_coll_calls, t.mpi_coll_bytes, t.mpi_coll_ns, t.mpiio_read_calls, t.mpiio_read_bytes, t.mpiio_write_calls, t.mpiio_write_bytes, t.mpiio_coll_calls, t.mpiio_meta_calls, t.mpiio_ns, t.cpu_ns, js_data.slice_start(t.cluster_id, t.slice) AS slice_start
    FROM js_data.slice_totals_cluster t;
COMMENT ON VIEW js.slice_totals_cluster IS 'pre-aggregated per-slice sums over the whole cluster (all jobs), decoded from js_data.series_cluster; lags the step records still in js_data.totals_pending';

CREATE VIEW js.slice_totals_node AS
    SELECT t.cluster_id, t.node, t.slice, t.step_nodes, t.posix_read_calls, t.posix_read_bytes, t.posix_write_calls, t.posix_write_bytes, t.posix_open_calls, t.posix_meta_calls, t.posix_ns, t.stdio_read_calls, t.stdio_read_bytes, t.stdio_write_calls, t.stdio_write_bytes, t.stdio_open_calls, t.stdio_meta_calls, t.stdio_ns, t.lower_read_bytes, t.lower_write_bytes, t.mpi_send_calls, t.mpi_send_bytes, t.mpi_recv_calls, t.mpi_recv_bytes, t.mpi_p2p_ns, t.mpi_coll_calls, t.mpi_coll_bytes, t.mpi_coll_ns, t.mpiio_read_calls, t.mpiio_read_bytes, t.mpiio_write_calls, t.mpiio_write_bytes, t.mpiio_coll_calls, t.mpiio_meta_calls, t.mpiio_ns, t.cpu_ns, js_data.slice_start(t.cluster_id, t.slice) AS slice_start
    FROM js_data.slice_totals_node t;
COMMENT ON VIEW js.slice_totals_node IS 'pre-aggregated per-slice sums per node (all jobs), decoded from js_data.series_node; lags the step records still in js_data.totals_pending';

CREATE VIEW js.step_background_cluster AS
    SELECT s.cluster_id, s.job_id, s.step_id, x.slice, js_data.slice_start(s.cluster_id, x.slice) AS slice_start,
           x.bg_step_nodes, x.posix_read_calls, x.bg_posix_read_calls, x.posix_read_bytes, x.bg_posix_read_bytes, x.posix_write_calls, x.bg_posix_write_calls, x.posix_write_bytes, x.bg_posix_write_bytes, x.posix_open_calls, x.bg_posix_open_calls, x.posix_meta_calls, x.bg_posix_meta_calls, x.posix_ns, x.bg_posix_ns, x.stdio_read_calls, x.bg_stdio_read_calls, x.stdio_read_bytes, x.bg_stdio_read_bytes, x.stdio_write_calls, x.bg_stdio_write_calls, x.stdio_write_bytes, x.bg_stdio_write_bytes, x.stdio_open_calls, x.bg_stdio_open_calls, x.stdio_meta_calls, x.bg_stdio_meta_calls, x.stdio_ns, x.bg_stdio_ns, x.lower_read_bytes, x.bg_lower_read_bytes, x.lower_write_bytes, x.bg_lower_write_bytes, x.mpi_send_calls, x.bg_mpi_send_calls, x.mpi_send_bytes, x.bg_mpi_send_bytes, x.mpi_recv_calls, x.bg_mpi_recv_calls, x.mpi_recv_bytes, x.bg_mpi_recv_bytes, x.mpi_p2p_ns, x.bg_mpi_p2p_ns, x.mpi_coll_calls, x.bg_mpi_coll_calls, x.mpi_coll_bytes, x.bg_mpi_coll_bytes, x.mpi_coll_ns, x.bg_mpi_coll_ns, x.mpiio_read_calls, x.bg_mpiio_read_calls, x.mpiio_read_bytes, x.bg_mpiio_read_bytes, x.mpiio_write_calls, x.bg_mpiio_write_calls, x.mpiio_write_bytes, x.bg_mpiio_write_bytes, x.mpiio_coll_calls, x.bg_mpiio_coll_calls, x.mpiio_meta_calls, x.bg_mpiio_meta_calls, x.mpiio_ns, x.bg_mpiio_ns, x.cpu_ns, x.bg_cpu_ns
    FROM js_data.steps s
    CROSS JOIN LATERAL (
        SELECT g.slice, coalesce(t.step_nodes, 0) - coalesce(o.nodes, 0) AS bg_step_nodes,
               coalesce(o.posix_read_calls, 0)::bigint AS posix_read_calls, (coalesce(t.posix_read_calls, 0) - coalesce(o.posix_read_calls, 0))::bigint AS bg_posix_read_calls,
               coalesce(o.posix_read_bytes, 0)::bigint AS posix_read_bytes, (coalesce(t.posix_read_bytes, 0) - coalesce(o.posix_read_bytes, 0))::bigint AS bg_posix_read_bytes,
               coalesce(o.posix_write_calls, 0)::bigint AS posix_write_calls, (coalesce(t.posix_write_calls, 0) - coalesce(o.posix_write_calls, 0))::bigint AS bg_posix_write_calls,
               coalesce(o.posix_write_bytes, 0)::bigint AS posix_write_bytes, (coalesce(t.posix_write_bytes, 0) - coalesce(o.posix_write_bytes, 0))::bigint AS bg_posix_write_bytes,
               coalesce(o.posix_open_calls, 0)::bigint AS posix_open_calls, (coalesce(t.posix_open_calls, 0) - coalesce(o.posix_open_calls, 0))::bigint AS bg_posix_open_calls,
               coalesce(o.posix_meta_calls, 0)::bigint AS posix_meta_calls, (coalesce(t.posix_meta_calls, 0) - coalesce(o.posix_meta_calls, 0))::bigint AS bg_posix_meta_calls,
               coalesce(o.posix_ns, 0)::bigint AS posix_ns, (coalesce(t.posix_ns, 0) - coalesce(o.posix_ns, 0))::bigint AS bg_posix_ns,
               coalesce(o.stdio_read_calls, 0)::bigint AS stdio_read_calls, (coalesce(t.stdio_read_calls, 0) - coalesce(o.stdio_read_calls, 0))::bigint AS bg_stdio_read_calls,
               coalesce(o.stdio_read_bytes, 0)::bigint AS stdio_read_bytes, (coalesce(t.stdio_read_bytes, 0) - coalesce(o.stdio_read_bytes, 0))::bigint AS bg_stdio_read_bytes,
               coalesce(o.stdio_write_calls, 0)::bigint AS stdio_write_calls, (coalesce(t.stdio_write_calls, 0) - coalesce(o.stdio_write_calls, 0))::bigint AS bg_stdio_write_calls,
               coalesce(o.stdio_write_bytes, 0)::bigint AS stdio_write_bytes, (coalesce(t.stdio_write_bytes, 0) - coalesce(o.stdio_write_bytes, 0))::bigint AS bg_stdio_write_bytes,
               coalesce(o.stdio_open_calls, 0)::bigint AS stdio_open_calls, (coalesce(t.stdio_open_calls, 0) - coalesce(o.stdio_open_calls, 0))::bigint AS bg_stdio_open_calls,
               coalesce(o.stdio_meta_calls, 0)::bigint AS stdio_meta_calls, (coalesce(t.stdio_meta_calls, 0) - coalesce(o.stdio_meta_calls, 0))::bigint AS bg_stdio_meta_calls,
               coalesce(o.stdio_ns, 0)::bigint AS stdio_ns, (coalesce(t.stdio_ns, 0) - coalesce(o.stdio_ns, 0))::bigint AS bg_stdio_ns,
               coalesce(o.lower_read_bytes, 0)::bigint AS lower_read_bytes, (coalesce(t.lower_read_bytes, 0) - coalesce(o.lower_read_bytes, 0))::bigint AS bg_lower_read_bytes,
               coalesce(o.lower_write_bytes, 0)::bigint AS lower_write_bytes, (coalesce(t.lower_write_bytes, 0) - coalesce(o.lower_write_bytes, 0))::bigint AS bg_lower_write_bytes,
               coalesce(o.mpi_send_calls, 0)::bigint AS mpi_send_calls, (coalesce(t.mpi_send_calls, 0) - coalesce(o.mpi_send_calls, 0))::bigint AS bg_mpi_send_calls,
               coalesce(o.mpi_send_bytes, 0)::bigint AS mpi_send_bytes, (coalesce(t.mpi_send_bytes, 0) - coalesce(o.mpi_send_bytes, 0))::bigint AS bg_mpi_send_bytes,
               coalesce(o.mpi_recv_calls, 0)::bigint AS mpi_recv_calls, (coalesce(t.mpi_recv_calls, 0) - coalesce(o.mpi_recv_calls, 0))::bigint AS bg_mpi_recv_calls,
               coalesce(o.mpi_recv_bytes, 0)::bigint AS mpi_recv_bytes, (coalesce(t.mpi_recv_bytes, 0) - coalesce(o.mpi_recv_bytes, 0))::bigint AS bg_mpi_recv_bytes,
               coalesce(o.mpi_p2p_ns, 0)::bigint AS mpi_p2p_ns, (coalesce(t.mpi_p2p_ns, 0) - coalesce(o.mpi_p2p_ns, 0))::bigint AS bg_mpi_p2p_ns,
               coalesce(o.mpi_coll_calls, 0)::bigint AS mpi_coll_calls, (coalesce(t.mpi_coll_calls, 0) - coalesce(o.mpi_coll_calls, 0))::bigint AS bg_mpi_coll_calls,
               coalesce(o.mpi_coll_bytes, 0)::bigint AS mpi_coll_bytes, (coalesce(t.mpi_coll_bytes, 0) - coalesce(o.mpi_coll_bytes, 0))::bigint AS bg_mpi_coll_bytes,
               coalesce(o.mpi_coll_ns, 0)::bigint AS mpi_coll_ns, (coalesce(t.mpi_coll_ns, 0) - coalesce(o.mpi_coll_ns, 0))::bigint AS bg_mpi_coll_ns,
               coalesce(o.mpiio_read_calls, 0)::bigint AS mpiio_read_calls, (coalesce(t.mpiio_read_calls, 0) - coalesce(o.mpiio_read_calls, 0))::bigint AS bg_mpiio_read_calls,
               coalesce(o.mpiio_read_bytes, 0)::bigint AS mpiio_read_bytes, (coalesce(t.mpiio_read_bytes, 0) - coalesce(o.mpiio_read_bytes, 0))::bigint AS bg_mpiio_read_bytes,
               coalesce(o.mpiio_write_calls, 0)::bigint AS mpiio_write_calls, (coalesce(t.mpiio_write_calls, 0) - coalesce(o.mpiio_write_calls, 0))::bigint AS bg_mpiio_write_calls,
               coalesce(o.mpiio_write_bytes, 0)::bigint AS mpiio_write_bytes, (coalesce(t.mpiio_write_bytes, 0) - coalesce(o.mpiio_write_bytes, 0))::bigint AS bg_mpiio_write_bytes,
               coalesce(o.mpiio_coll_calls, 0)::bigint AS mpiio_coll_calls, (coalesce(t.mpiio_coll_calls, 0) - coalesce(o.mpiio_coll_calls, 0))::bigint AS bg_mpiio_coll_calls,
               coalesce(o.mpiio_meta_calls, 0)::bigint AS mpiio_meta_calls, (coalesce(t.mpiio_meta_calls, 0) - coalesce(o.mpiio_meta_calls, 0))::bigint AS bg_mpiio_meta_calls,
               coalesce(o.mpiio_ns, 0)::bigint AS mpiio_ns, (coalesce(t.mpiio_ns, 0) - coalesce(o.mpiio_ns, 0))::bigint AS bg_mpiio_ns,
               coalesce(o.cpu_ns, 0)::bigint AS cpu_ns, (coalesce(t.cpu_ns, 0) - coalesce(o.cpu_ns, 0))::bigint AS bg_cpu_ns
        FROM generate_series(s.first_slice, s.last_slice) g(slice)
        LEFT JOIN (SELECT m.slice, sum(m.nodes) AS nodes, sum(m.posix_read_calls)::bigint AS posix_read_calls, sum(m.posix_read_bytes)::bigint AS posix_read_bytes, sum(m.posix_write_calls)::bigint AS posix_write_calls, sum(m.posix_write_bytes)::bigint AS posix_write_bytes, sum(m.posix_open_calls)::bigint AS posix_open_calls, sum(m.posix_meta_calls)::bigint AS posix_meta_calls, sum(m.posix_ns)::bigint AS posix_ns, sum(m.stdio_read_calls)::bigint AS stdio_read_calls, sum(m.stdio_read_bytes)::bigint AS stdio_read_bytes, sum(m.stdio_write_calls)::bigint AS stdio_write_calls, sum(m.stdio_write_bytes)::bigint AS stdio_write_bytes, sum(m.stdio_open_calls)::bigint AS stdio_open_calls, sum(m.stdio_meta_calls)::bigint AS stdio_meta_calls, sum(m.stdio_ns)::bigint AS stdio_ns, sum(m.lower_read_bytes)::bigint AS lower_read_bytes, sum(m.lower_write_bytes)::bigint AS lower_write_bytes, sum(m.mpi_send_calls)::bigint AS mpi_send_calls, sum(m.mpi_send_bytes)::bigint AS mpi_send_bytes, sum(m.mpi_recv_calls)::bigint AS mpi_recv_calls, sum(m.mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(m.mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(m.mpi_coll_calls)::bigint AS mpi_coll_calls, sum(m.mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(m.mpi_coll_ns)::bigint AS mpi_coll_ns, sum(m.mpiio_read_calls)::bigint AS mpiio_read_calls, sum(m.mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(m.mpiio_write_calls)::bigint AS mpiio_write_calls, sum(m.mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(m.mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(m.mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(m.mpiio_ns)::bigint AS mpiio_ns, sum(m.cpu_ns)::bigint AS cpu_ns
                   FROM js_data.step_sums m
                   WHERE m.cluster_id = s.cluster_id AND m.job_id = s.job_id AND m.step_id = s.step_id AND NOT m.live
                     AND m.chunk BETWEEN js_data.series_chunk_of(s.first_slice) AND s.last_slice
                   GROUP BY m.slice) o ON o.slice = g.slice
        LEFT JOIN js_data.slice_totals_cluster t ON t.cluster_id = s.cluster_id AND t.slice = g.slice
            AND t.chunk BETWEEN js_data.series_chunk_of(s.first_slice) AND s.last_slice) x;
COMMENT ON VIEW js.step_background_cluster IS 'background of a step, scope whole cluster: per slice of the step, own metrics and bg_<metric> = cluster total minus own';

CREATE VIEW js.step_background_nodes AS
    SELECT s.cluster_id, s.job_id, s.step_id, x.slice, js_data.slice_start(s.cluster_id, x.slice) AS slice_start,
           x.bg_step_nodes, x.posix_read_calls, x.bg_posix_read_calls, x.posix_read_bytes, x.bg_posix_read_bytes, x.posix_write_calls, x.bg_posix_write_calls, x.posix_write_bytes, x.bg_posix_write_bytes, x.posix_open_calls, x.bg_posix_open_calls, x.posix_meta_calls, x.bg_posix_meta_calls, x.posix_ns, x.bg_posix_ns, x.stdio_read_calls, x.bg_stdio_read_calls, x.stdio_read_bytes, x.bg_stdio_read_bytes, x.stdio_write_calls, x.bg_stdio_write_calls, x.stdio_write_bytes, x.bg_stdio_write_bytes, x.stdio_open_calls, x.bg_stdio_open_calls, x.stdio_meta_calls, x.bg_stdio_meta_calls, x.stdio_ns, x.bg_stdio_ns, x.lower_read_bytes, x.bg_lower_read_bytes, x.lower_write_bytes, x.bg_lower_write_bytes, x.mpi_send_calls, x.bg_mpi_send_calls, x.mpi_send_bytes, x.bg_mpi_send_bytes, x.mpi_recv_calls, x.bg_mpi_recv_calls, x.mpi_recv_bytes, x.bg_mpi_recv_bytes, x.mpi_p2p_ns, x.bg_mpi_p2p_ns, x.mpi_coll_calls, x.bg_mpi_coll_calls, x.mpi_coll_bytes, x.bg_mpi_coll_bytes, x.mpi_coll_ns, x.bg_mpi_coll_ns, x.mpiio_read_calls, x.bg_mpiio_read_calls, x.mpiio_read_bytes, x.bg_mpiio_read_bytes, x.mpiio_write_calls, x.bg_mpiio_write_calls, x.mpiio_write_bytes, x.bg_mpiio_write_bytes, x.mpiio_coll_calls, x.bg_mpiio_coll_calls, x.mpiio_meta_calls, x.bg_mpiio_meta_calls, x.mpiio_ns, x.bg_mpiio_ns, x.cpu_ns, x.bg_cpu_ns
    FROM js_data.steps s
    CROSS JOIN LATERAL (
        SELECT g.slice, coalesce(t.step_nodes, 0) - coalesce(o.nodes, 0) AS bg_step_nodes,
               coalesce(o.posix_read_calls, 0)::bigint AS posix_read_calls, (coalesce(t.posix_read_calls, 0) - coalesce(o.posix_read_calls, 0))::bigint AS bg_posix_read_calls,
               coalesce(o.posix_read_bytes, 0)::bigint AS posix_read_bytes, (coalesce(t.posix_read_bytes, 0) - coalesce(o.posix_read_bytes, 0))::bigint AS bg_posix_read_bytes,
               coalesce(o.posix_write_calls, 0)::bigint AS posix_write_calls, (coalesce(t.posix_write_calls, 0) - coalesce(o.posix_write_calls, 0))::bigint AS bg_posix_write_calls,
               coalesce(o.posix_write_bytes, 0)::bigint AS posix_write_bytes, (coalesce(t.posix_write_bytes, 0) - coalesce(o.posix_write_bytes, 0))::bigint AS bg_posix_write_bytes,
               coalesce(o.posix_open_calls, 0)::bigint AS posix_open_calls, (coalesce(t.posix_open_calls, 0) - coalesce(o.posix_open_calls, 0))::bigint AS bg_posix_open_calls,
               coalesce(o.posix_meta_calls, 0)::bigint AS posix_meta_calls, (coalesce(t.posix_meta_calls, 0) - coalesce(o.posix_meta_calls, 0))::bigint AS bg_posix_meta_calls,
               coalesce(o.posix_ns, 0)::bigint AS posix_ns, (coalesce(t.posix_ns, 0) - coalesce(o.posix_ns, 0))::bigint AS bg_posix_ns,
               coalesce(o.stdio_read_calls, 0)::bigint AS stdio_read_calls, (coalesce(t.stdio_read_calls, 0) - coalesce(o.stdio_read_calls, 0))::bigint AS bg_stdio_read_calls,
               coalesce(o.stdio_read_bytes, 0)::bigint AS stdio_read_bytes, (coalesce(t.stdio_read_bytes, 0) - coalesce(o.stdio_read_bytes, 0))::bigint AS bg_stdio_read_bytes,
               coalesce(o.stdio_write_calls, 0)::bigint AS stdio_write_calls, (coalesce(t.stdio_write_calls, 0) - coalesce(o.stdio_write_calls, 0))::bigint AS bg_stdio_write_calls,
               coalesce(o.stdio_write_bytes, 0)::bigint AS stdio_write_bytes, (coalesce(t.stdio_write_bytes, 0) - coalesce(o.stdio_write_bytes, 0))::bigint AS bg_stdio_write_bytes,
               coalesce(o.stdio_open_calls, 0)::bigint AS stdio_open_calls, (coalesce(t.stdio_open_calls, 0) - coalesce(o.stdio_open_calls, 0))::bigint AS bg_stdio_open_calls,
               coalesce(o.stdio_meta_calls, 0)::bigint AS stdio_meta_calls, (coalesce(t.stdio_meta_calls, 0) - coalesce(o.stdio_meta_calls, 0))::bigint AS bg_stdio_meta_calls,
               coalesce(o.stdio_ns, 0)::bigint AS stdio_ns, (coalesce(t.stdio_ns, 0) - coalesce(o.stdio_ns, 0))::bigint AS bg_stdio_ns,
               coalesce(o.lower_read_bytes, 0)::bigint AS lower_read_bytes, (coalesce(t.lower_read_bytes, 0) - coalesce(o.lower_read_bytes, 0))::bigint AS bg_lower_read_bytes,
               coalesce(o.lower_write_bytes, 0)::bigint AS lower_write_bytes, (coalesce(t.lower_write_bytes, 0) - coalesce(o.lower_write_bytes, 0))::bigint AS bg_lower_write_bytes,
               coalesce(o.mpi_send_calls, 0)::bigint AS mpi_send_calls, (coalesce(t.mpi_send_calls, 0) - coalesce(o.mpi_send_calls, 0))::bigint AS bg_mpi_send_calls,
               coalesce(o.mpi_send_bytes, 0)::bigint AS mpi_send_bytes, (coalesce(t.mpi_send_bytes, 0) - coalesce(o.mpi_send_bytes, 0))::bigint AS bg_mpi_send_bytes,
               coalesce(o.mpi_recv_calls, 0)::bigint AS mpi_recv_calls, (coalesce(t.mpi_recv_calls, 0) - coalesce(o.mpi_recv_calls, 0))::bigint AS bg_mpi_recv_calls,
               coalesce(o.mpi_recv_bytes, 0)::bigint AS mpi_recv_bytes, (coalesce(t.mpi_recv_bytes, 0) - coalesce(o.mpi_recv_bytes, 0))::bigint AS bg_mpi_recv_bytes,
               coalesce(o.mpi_p2p_ns, 0)::bigint AS mpi_p2p_ns, (coalesce(t.mpi_p2p_ns, 0) - coalesce(o.mpi_p2p_ns, 0))::bigint AS bg_mpi_p2p_ns,
               coalesce(o.mpi_coll_calls, 0)::bigint AS mpi_coll_calls, (coalesce(t.mpi_coll_calls, 0) - coalesce(o.mpi_coll_calls, 0))::bigint AS bg_mpi_coll_calls,
               coalesce(o.mpi_coll_bytes, 0)::bigint AS mpi_coll_bytes, (coalesce(t.mpi_coll_bytes, 0) - coalesce(o.mpi_coll_bytes, 0))::bigint AS bg_mpi_coll_bytes,
               coalesce(o.mpi_coll_ns, 0)::bigint AS mpi_coll_ns, (coalesce(t.mpi_coll_ns, 0) - coalesce(o.mpi_coll_ns, 0))::bigint AS bg_mpi_coll_ns,
               coalesce(o.mpiio_read_calls, 0)::bigint AS mpiio_read_calls, (coalesce(t.mpiio_read_calls, 0) - coalesce(o.mpiio_read_calls, 0))::bigint AS bg_mpiio_read_calls,
               coalesce(o.mpiio_read_bytes, 0)::bigint AS mpiio_read_bytes, (coalesce(t.mpiio_read_bytes, 0) - coalesce(o.mpiio_read_bytes, 0))::bigint AS bg_mpiio_read_bytes,
               coalesce(o.mpiio_write_calls, 0)::bigint AS mpiio_write_calls, (coalesce(t.mpiio_write_calls, 0) - coalesce(o.mpiio_write_calls, 0))::bigint AS bg_mpiio_write_calls,
               coalesce(o.mpiio_write_bytes, 0)::bigint AS mpiio_write_bytes, (coalesce(t.mpiio_write_bytes, 0) - coalesce(o.mpiio_write_bytes, 0))::bigint AS bg_mpiio_write_bytes,
               coalesce(o.mpiio_coll_calls, 0)::bigint AS mpiio_coll_calls, (coalesce(t.mpiio_coll_calls, 0) - coalesce(o.mpiio_coll_calls, 0))::bigint AS bg_mpiio_coll_calls,
               coalesce(o.mpiio_meta_calls, 0)::bigint AS mpiio_meta_calls, (coalesce(t.mpiio_meta_calls, 0) - coalesce(o.mpiio_meta_calls, 0))::bigint AS bg_mpiio_meta_calls,
               coalesce(o.mpiio_ns, 0)::bigint AS mpiio_ns, (coalesce(t.mpiio_ns, 0) - coalesce(o.mpiio_ns, 0))::bigint AS bg_mpiio_ns,
               coalesce(o.cpu_ns, 0)::bigint AS cpu_ns, (coalesce(t.cpu_ns, 0) - coalesce(o.cpu_ns, 0))::bigint AS bg_cpu_ns
        FROM generate_series(s.first_slice, s.last_slice) g(slice)
        LEFT JOIN (SELECT m.slice, sum(m.nodes) AS nodes, sum(m.posix_read_calls)::bigint AS posix_read_calls, sum(m.posix_read_bytes)::bigint AS posix_read_bytes, sum(m.posix_write_calls)::bigint AS posix_write_calls, sum(m.posix_write_bytes)::bigint AS posix_write_bytes, sum(m.posix_open_calls)::bigint AS posix_open_calls, sum(m.posix_meta_calls)::bigint AS posix_meta_calls, sum(m.posix_ns)::bigint AS posix_ns, sum(m.stdio_read_calls)::bigint AS stdio_read_calls, sum(m.stdio_read_bytes)::bigint AS stdio_read_bytes, sum(m.stdio_write_calls)::bigint AS stdio_write_calls, sum(m.stdio_write_bytes)::bigint AS stdio_write_bytes, sum(m.stdio_open_calls)::bigint AS stdio_open_calls, sum(m.stdio_meta_calls)::bigint AS stdio_meta_calls, sum(m.stdio_ns)::bigint AS stdio_ns, sum(m.lower_read_bytes)::bigint AS lower_read_bytes, sum(m.lower_write_bytes)::bigint AS lower_write_bytes, sum(m.mpi_send_calls)::bigint AS mpi_send_calls, sum(m.mpi_send_bytes)::bigint AS mpi_send_bytes, sum(m.mpi_recv_calls)::bigint AS mpi_recv_calls, sum(m.mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(m.mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(m.mpi_coll_calls)::bigint AS mpi_coll_calls, sum(m.mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(m.mpi_coll_ns)::bigint AS mpi_coll_ns, sum(m.mpiio_read_calls)::bigint AS mpiio_read_calls, sum(m.mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(m.mpiio_write_calls)::bigint AS mpiio_write_calls, sum(m.mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(m.mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(m.mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(m.mpiio_ns)::bigint AS mpiio_ns, sum(m.cpu_ns)::bigint AS cpu_ns
                   FROM js_data.step_sums m
                   WHERE m.cluster_id = s.cluster_id AND m.job_id = s.job_id AND m.step_id = s.step_id AND NOT m.live
                     AND m.chunk BETWEEN js_data.series_chunk_of(s.first_slice) AND s.last_slice
                   GROUP BY m.slice) o ON o.slice = g.slice
        LEFT JOIN (SELECT tn.slice, sum(tn.step_nodes) AS step_nodes, sum(tn.posix_read_calls)::bigint AS posix_read_calls, sum(tn.posix_read_bytes)::bigint AS posix_read_bytes, sum(tn.posix_write_calls)::bigint AS posix_write_calls, sum(tn.posix_write_bytes)::bigint AS posix_write_bytes, sum(tn.posix_open_calls)::bigint AS posix_open_calls, sum(tn.posix_meta_calls)::bigint AS posix_meta_calls, sum(tn.posix_ns)::bigint AS posix_ns, sum(tn.stdio_read_calls)::bigint AS stdio_read_calls, sum(tn.stdio_read_bytes)::bigint AS stdio_read_bytes, sum(tn.stdio_write_calls)::bigint AS stdio_write_calls, sum(tn.stdio_write_bytes)::bigint AS stdio_write_bytes, sum(tn.stdio_open_calls)::bigint AS stdio_open_calls, sum(tn.stdio_meta_calls)::bigint AS stdio_meta_calls, sum(tn.stdio_ns)::bigint AS stdio_ns, sum(tn.lower_read_bytes)::bigint AS lower_read_bytes, sum(tn.lower_write_bytes)::bigint AS lower_write_bytes, sum(tn.mpi_send_calls)::bigint AS mpi_send_calls, sum(tn.mpi_send_bytes)::bigint AS mpi_send_bytes, sum(tn.mpi_recv_calls)::bigint AS mpi_recv_calls, sum(tn.mpi_recv_bytes)::bigint AS mpi_recv_bytes, sum(tn.mpi_p2p_ns)::bigint AS mpi_p2p_ns, sum(tn.mpi_coll_calls)::bigint AS mpi_coll_calls, sum(tn.mpi_coll_bytes)::bigint AS mpi_coll_bytes, sum(tn.mpi_coll_ns)::bigint AS mpi_coll_ns, sum(tn.mpiio_read_calls)::bigint AS mpiio_read_calls, sum(tn.mpiio_read_bytes)::bigint AS mpiio_read_bytes, sum(tn.mpiio_write_calls)::bigint AS mpiio_write_calls, sum(tn.mpiio_write_bytes)::bigint AS mpiio_write_bytes, sum(tn.mpiio_coll_calls)::bigint AS mpiio_coll_calls, sum(tn.mpiio_meta_calls)::bigint AS mpiio_meta_calls, sum(tn.mpiio_ns)::bigint AS mpiio_ns, sum(tn.cpu_ns)::bigint AS cpu_ns
                   FROM js_data.slice_totals_node tn
                   WHERE tn.cluster_id = s.cluster_id AND tn.chunk BETWEEN js_data.series_chunk_of(s.first_slice) AND s.last_slice
                     AND tn.node IN (SELECT sn.node FROM js_data.step_nodes sn
                                     WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id AND sn.step_id = s.step_id)
                   GROUP BY tn.slice) t ON t.slice = g.slice) x;
COMMENT ON VIEW js.step_background_nodes IS 'background of a step, scope same nodes: per slice of the step, own metrics and bg_<metric> = sum over the step''s nodes of the node totals minus own';

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

-- as in 021, reading the series of the days' chunks only
CREATE OR REPLACE FUNCTION js_data.rollup_usage(p_from date, p_to date) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    c record;
    v_horizon bigint := (SELECT slice FROM js_data.slice_horizon);
    v_from date;
    v_lo bigint;
    v_hi bigint;
    n integer;
    total integer := 0;
BEGIN
    IF p_to < p_from OR p_to - p_from > 3660 THEN
        RAISE EXCEPTION 'rollup_usage: day range % .. % is not plausible', p_from, p_to;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('jobscreen rollup'));
    FOR c IN SELECT cluster_id, slice_seconds AS len FROM js_data.clusters LOOP
        v_from := p_from;
        IF v_horizon IS NOT NULL THEN
            -- first day that starts at or after the horizon
            v_from := greatest(p_from, (to_timestamp(v_horizon * c.len - 1) AT TIME ZONE 'UTC')::date + 1);
        END IF;
        CONTINUE WHEN v_from > p_to;
        v_lo := floor(extract(epoch FROM v_from::timestamp AT TIME ZONE 'UTC') / c.len);
        v_hi := ceil(extract(epoch FROM (p_to + 1)::timestamp AT TIME ZONE 'UTC') / c.len) - 1;
        DELETE FROM js_data.usage_daily WHERE cluster_id = c.cluster_id AND day BETWEEN v_from AND p_to;
        INSERT INTO js_data.usage_daily (cluster_id, day, uid, jobs_started, steps_started, steps_failed,
                steps_opted_out, cpu_seconds, node_seconds, read_bytes, write_bytes, meta_ops, mpi_bytes, io_ns,
                mpi_ns, process_cpu_ns, node_slices)
        SELECT c.cluster_id, x.day, x.uid, sum(x.jobs_started), sum(x.steps_started), sum(x.steps_failed),
               sum(x.steps_opted_out), sum(x.cpu_seconds), sum(x.node_seconds), sum(x.read_bytes), sum(x.write_bytes),
               sum(x.meta_ops), sum(x.mpi_bytes), sum(x.io_ns), sum(x.mpi_ns), sum(x.process_cpu_ns), sum(x.node_slices)
        FROM (
            SELECT (coalesce(j.start_time, j.submit_time) AT TIME ZONE 'UTC')::date AS day, j.uid,
                   1 AS jobs_started, 0 AS steps_started, 0 AS steps_failed, 0 AS steps_opted_out,
                   0::double precision AS cpu_seconds, 0::double precision AS node_seconds, 0::bigint AS read_bytes,
                   0::bigint AS write_bytes, 0::bigint AS meta_ops, 0::bigint AS mpi_bytes, 0::bigint AS io_ns,
                   0::bigint AS mpi_ns, 0::bigint AS process_cpu_ns, 0::bigint AS node_slices
            FROM js_data.jobs j
            WHERE j.cluster_id = c.cluster_id
              AND (coalesce(j.start_time, j.submit_time) AT TIME ZONE 'UTC')::date BETWEEN v_from AND p_to
            UNION ALL
            SELECT d.day, j.uid,
                   0, (d.day = (s.start_time AT TIME ZONE 'UTC')::date)::integer,
                   (d.day = (s.start_time AT TIME ZONE 'UTC')::date AND s.state IS DISTINCT FROM 'COMPLETED')::integer,
                   (d.day = (s.start_time AT TIME ZONE 'UTC')::date AND NOT s.profiled)::integer,
                   coalesce(s.num_cpus, 0) * d.seconds, coalesce(s.num_nodes, 1) * d.seconds,
                   0, 0, 0, 0, 0, 0, 0, 0
            FROM js_data.steps s
            JOIN js_data.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id
            CROSS JOIN LATERAL (
                SELECT g::date AS day,
                       greatest(0, extract(epoch FROM
                           least(coalesce(s.end_time, s.start_time), (g::date + 1)::timestamp AT TIME ZONE 'UTC')
                           - greatest(s.start_time, g::date::timestamp AT TIME ZONE 'UTC')))::double precision AS seconds
                FROM generate_series((s.start_time AT TIME ZONE 'UTC')::date,
                                     (coalesce(s.end_time, s.start_time) AT TIME ZONE 'UTC')::date, interval '1 day') g
            ) d
            WHERE s.cluster_id = c.cluster_id AND s.start_time IS NOT NULL
              AND s.start_time < (p_to + 1)::timestamp AT TIME ZONE 'UTC'
              AND coalesce(s.end_time, s.start_time) >= v_from::timestamp AT TIME ZONE 'UTC'
              AND d.day BETWEEN v_from AND p_to
            UNION ALL
            SELECT (to_timestamp(m.slice * c.len) AT TIME ZONE 'UTC')::date, j.uid, 0, 0, 0, 0, 0, 0,
                   sum(m.posix_read_bytes + m.stdio_read_bytes + m.mpiio_read_bytes + m.lower_read_bytes)::bigint,
                   sum(m.posix_write_bytes + m.stdio_write_bytes + m.mpiio_write_bytes + m.lower_write_bytes)::bigint,
                   sum(m.posix_open_calls + m.posix_meta_calls + m.stdio_open_calls + m.mpiio_meta_calls)::bigint,
                   sum(m.mpi_send_bytes + m.mpi_coll_bytes)::bigint,
                   sum(m.posix_ns + m.stdio_ns + m.mpiio_ns)::bigint,
                   sum(m.mpi_p2p_ns + m.mpi_coll_ns)::bigint,
                   sum(m.cpu_ns)::bigint, count(*)
            FROM js_data.slice_metrics m
            JOIN js_data.jobs j ON j.cluster_id = m.cluster_id AND j.job_id = m.job_id
            WHERE m.cluster_id = c.cluster_id AND m.slice BETWEEN v_lo AND v_hi
              AND m.chunk BETWEEN js_data.series_chunk_of(v_lo) AND v_hi
            GROUP BY 1, 2
        ) x
        WHERE x.day BETWEEN v_from AND p_to
        GROUP BY x.day, x.uid;
        GET DIAGNOSTICS n = ROW_COUNT;
        total := total + n;
    END LOOP;
    RETURN total;
END $$;

-- retention drops the partitions of the series tables (rows_dropped counts chunk rows)
CREATE OR REPLACE VIEW js.slice_partitions AS
    SELECT c.relname::text AS partition, pc.relname::text AS parent,
           b[1]::bigint AS first_slice, b[2]::bigint AS end_slice,
           to_timestamp(b[1]::bigint * (SELECT coalesce(min(slice_seconds), 4) FROM js_data.clusters)) AS oldest,
           to_timestamp(b[2]::bigint * (SELECT coalesce(max(slice_seconds), 4) FROM js_data.clusters)) AS newest
    FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    JOIN pg_class pc ON pc.oid = i.inhparent
    JOIN pg_namespace n ON n.oid = pc.relnamespace AND n.nspname = 'js_data'
    CROSS JOIN LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid),
                                    'FROM \(''?(-?[0-9]+)''?\) TO \(''?(-?[0-9]+)''?\)') b
    WHERE pc.relname IN ('series_step_node', 'series_step', 'series_node', 'series_cluster');

-- ---- the series themselves, for the CGI (it decodes them in C) and for admins ------------

CREATE FUNCTION js.series_decode(p bytea, p_n integer) RETURNS bigint[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS 'SELECT js_data.series_decode(p, p_n)';
COMMENT ON FUNCTION js.series_decode(bytea, integer) IS 'the p_n values of an encoded series of the js.series_* views (docs/schema.md, "Series")';

CREATE VIEW js.series_step AS
    SELECT s.cluster_id, s.job_id, s.step_id, s.chunk, s.first_slice, s.slices,
           s.nodes, s.processes, s.posix_read_calls, s.posix_read_bytes, s.posix_write_calls, s.posix_write_bytes, s.posix_open_calls, s.posix_meta_calls, s.posix_ns, s.stdio_read_calls, s.stdio_read_bytes, s.stdio_write_calls, s.stdio_write_bytes, s.stdio_open_calls, s.stdio_meta_calls, s.stdio_ns, s.lower_read_bytes, s.lower_write_bytes, s.mpi_send_calls, s.mpi_send_bytes, s.mpi_recv_calls, s.mpi_recv_bytes, s.mpi_p2p_ns, s.mpi_coll_calls, s.mpi_coll_bytes, s.mpi_coll_ns, s.mpiio_read_calls, s.mpiio_read_bytes, s.mpiio_write_calls, s.mpiio_write_bytes, s.mpiio_coll_calls, s.mpiio_meta_calls, s.mpiio_ns, s.cpu_ns
    FROM js_data.series_step s;
COMMENT ON VIEW js.series_step IS 'per step and chunk, the encoded series (one per metric, NULL when zero; js.series_decode) of the step summed over its folded step-nodes; add js.series_step_pending for the rest';

CREATE VIEW js.series_step_pending AS
    SELECT s.cluster_id, s.job_id, s.step_id, s.node, s.chunk, s.first_slice, s.slices,
           s.processes, s.posix_read_calls, s.posix_read_bytes, s.posix_write_calls, s.posix_write_bytes, s.posix_open_calls, s.posix_meta_calls, s.posix_ns, s.stdio_read_calls, s.stdio_read_bytes, s.stdio_write_calls, s.stdio_write_bytes, s.stdio_open_calls, s.stdio_meta_calls, s.stdio_ns, s.lower_read_bytes, s.lower_write_bytes, s.mpi_send_calls, s.mpi_send_bytes, s.mpi_recv_calls, s.mpi_recv_bytes, s.mpi_p2p_ns, s.mpi_coll_calls, s.mpi_coll_bytes, s.mpi_coll_ns, s.mpiio_read_calls, s.mpiio_read_bytes, s.mpiio_write_calls, s.mpiio_write_bytes, s.mpiio_coll_calls, s.mpiio_meta_calls, s.mpiio_ns, s.cpu_ns
    FROM js_data.series_step_node s
    JOIN js_data.totals_pending p ON p.cluster_id = s.cluster_id AND p.job_id = s.job_id AND p.step_id = s.step_id AND p.node = s.node;
COMMENT ON VIEW js.series_step_pending IS 'per step-node and chunk, the encoded series of the step-nodes not yet folded into js.series_step, js.series_node and js.series_cluster';

CREATE VIEW js.series_step_node AS
    SELECT s.cluster_id, s.job_id, s.step_id, s.node, s.chunk, s.first_slice, s.slices,
           s.processes, s.posix_read_calls, s.posix_read_bytes, s.posix_write_calls, s.posix_write_bytes, s.posix_open_calls, s.posix_meta_calls, s.posix_ns, s.stdio_read_calls, s.stdio_read_bytes, s.stdio_write_calls, s.stdio_write_bytes, s.stdio_open_calls, s.stdio_meta_calls, s.stdio_ns, s.lower_read_bytes, s.lower_write_bytes, s.mpi_send_calls, s.mpi_send_bytes, s.mpi_recv_calls, s.mpi_recv_bytes, s.mpi_p2p_ns, s.mpi_coll_calls, s.mpi_coll_bytes, s.mpi_coll_ns, s.mpiio_read_calls, s.mpiio_read_bytes, s.mpiio_write_calls, s.mpiio_write_bytes, s.mpiio_coll_calls, s.mpiio_meta_calls, s.mpiio_ns, s.cpu_ns
    FROM js_data.series_step_node s;
COMMENT ON VIEW js.series_step_node IS 'per step, node and chunk, the encoded series of the step on the node (js.series_decode)';

CREATE VIEW js.series_node AS
    SELECT s.cluster_id, s.node, s.chunk, s.first_slice, s.slices,
           s.step_nodes, s.posix_read_calls, s.posix_read_bytes, s.posix_write_calls, s.posix_write_bytes, s.posix_open_calls, s.posix_meta_calls, s.posix_ns, s.stdio_read_calls, s.stdio_read_bytes, s.stdio_write_calls, s.stdio_write_bytes, s.stdio_open_calls, s.stdio_meta_calls, s.stdio_ns, s.lower_read_bytes, s.lower_write_bytes, s.mpi_send_calls, s.mpi_send_bytes, s.mpi_recv_calls, s.mpi_recv_bytes, s.mpi_p2p_ns, s.mpi_coll_calls, s.mpi_coll_bytes, s.mpi_coll_ns, s.mpiio_read_calls, s.mpiio_read_bytes, s.mpiio_write_calls, s.mpiio_write_bytes, s.mpiio_coll_calls, s.mpiio_meta_calls, s.mpiio_ns, s.cpu_ns
    FROM js_data.series_node s;
COMMENT ON VIEW js.series_node IS 'per node and chunk, the encoded series summed over the folded steps on the node (js.series_decode)';

CREATE VIEW js.series_cluster AS
    SELECT s.cluster_id, s.chunk, s.first_slice, s.slices,
           s.step_nodes, s.posix_read_calls, s.posix_read_bytes, s.posix_write_calls, s.posix_write_bytes, s.posix_open_calls, s.posix_meta_calls, s.posix_ns, s.stdio_read_calls, s.stdio_read_bytes, s.stdio_write_calls, s.stdio_write_bytes, s.stdio_open_calls, s.stdio_meta_calls, s.stdio_ns, s.lower_read_bytes, s.lower_write_bytes, s.mpi_send_calls, s.mpi_send_bytes, s.mpi_recv_calls, s.mpi_recv_bytes, s.mpi_p2p_ns, s.mpi_coll_calls, s.mpi_coll_bytes, s.mpi_coll_ns, s.mpiio_read_calls, s.mpiio_read_bytes, s.mpiio_write_calls, s.mpiio_write_bytes, s.mpiio_coll_calls, s.mpiio_meta_calls, s.mpiio_ns, s.cpu_ns
    FROM js_data.series_cluster s;
COMMENT ON VIEW js.series_cluster IS 'per chunk, the encoded series summed over the folded step-nodes of the cluster (js.series_decode)';

CREATE VIEW js.live_slices AS
    SELECT m.cluster_id, m.job_id, m.step_id, m.node, m.slice, m.processes, m.posix_read_calls, m.posix_read_bytes, m.posix_write_calls, m.posix_write_bytes, m.posix_open_calls, m.posix_meta_calls, m.posix_ns, m.stdio_read_calls, m.stdio_read_bytes, m.stdio_write_calls, m.stdio_write_bytes, m.stdio_open_calls, m.stdio_meta_calls, m.stdio_ns, m.lower_read_bytes, m.lower_write_bytes, m.mpi_send_calls, m.mpi_send_bytes, m.mpi_recv_calls, m.mpi_recv_bytes, m.mpi_p2p_ns, m.mpi_coll_calls, m.mpi_coll_bytes, m.mpi_coll_ns, m.mpiio_read_calls, m.mpiio_read_bytes, m.mpiio_write_calls, m.mpiio_write_bytes, m.mpiio_coll_calls, m.mpiio_meta_calls, m.mpiio_ns, m.cpu_ns
    FROM js_data.live_slice_metrics m;
COMMENT ON VIEW js.live_slices IS 'the provisional per-slice vectors of running step-nodes (replaced at every snapshot, gone when the step-node is ingested)';

