-- jobscreen schema, migration 002: per-process totals, per-slice metric vectors per step and
-- node, and the pre-aggregated slice totals per node and cluster-wide.
--
-- The metric columns are those of JS_PROFILE_METRICS in common/profile_format.h (profile
-- format version 1), in the same order; sql/tools/metric-sql prints them and
-- tests/unit/test_ingest_schema checks that this file and the header agree.
--
-- The three per-slice tables are partitioned by slice range (js_data.slice_partition_width()
-- slices per partition, one day at 4 s slices); profile_ingest creates a partition on demand
-- with js_data.ensure_slice_partitions() in a short transaction of its own, before it needs it.

CREATE FUNCTION js_data.slice_partition_width() RETURNS bigint
    LANGUAGE sql IMMUTABLE AS 'SELECT 21600::bigint';
COMMENT ON FUNCTION js_data.slice_partition_width() IS 'slices per partition of the per-slice tables (21600 = one day of 4 s slices)';

CREATE TABLE js_data.processes (
    cluster_id   smallint NOT NULL,
    job_id       bigint NOT NULL,
    step_id      text NOT NULL,
    node         text NOT NULL,
    pid          integer NOT NULL,
    image        integer NOT NULL DEFAULT 0,
    ppid         integer,
    task_id      integer,
    mpi_rank     integer,
    mpi_size     integer,
    origin       text,
    ended_by     text,
    exe          text,
    args         text,
    start_time   timestamptz NOT NULL,
    end_time     timestamptz NOT NULL,
    wall_ns      bigint NOT NULL,
    cpu_user_ns  bigint NOT NULL,
    cpu_sys_ns   bigint NOT NULL,
    max_rss_kib  bigint NOT NULL,
    threads_peak integer NOT NULL,
    threads_seen integer NOT NULL,
    compute_ns   bigint NOT NULL,
    slices_truncated boolean NOT NULL,
    files_dropped    bigint NOT NULL,
    mpi_collectives  jsonb,
    posix_read_calls     bigint NOT NULL DEFAULT 0,
    posix_read_bytes     bigint NOT NULL DEFAULT 0,
    posix_write_calls    bigint NOT NULL DEFAULT 0,
    posix_write_bytes    bigint NOT NULL DEFAULT 0,
    posix_open_calls     bigint NOT NULL DEFAULT 0,
    posix_meta_calls     bigint NOT NULL DEFAULT 0,
    posix_ns             bigint NOT NULL DEFAULT 0,
    stdio_read_calls     bigint NOT NULL DEFAULT 0,
    stdio_read_bytes     bigint NOT NULL DEFAULT 0,
    stdio_write_calls    bigint NOT NULL DEFAULT 0,
    stdio_write_bytes    bigint NOT NULL DEFAULT 0,
    stdio_open_calls     bigint NOT NULL DEFAULT 0,
    stdio_meta_calls     bigint NOT NULL DEFAULT 0,
    stdio_ns             bigint NOT NULL DEFAULT 0,
    lower_read_bytes     bigint NOT NULL DEFAULT 0,
    lower_write_bytes    bigint NOT NULL DEFAULT 0,
    mpi_send_calls       bigint NOT NULL DEFAULT 0,
    mpi_send_bytes       bigint NOT NULL DEFAULT 0,
    mpi_recv_calls       bigint NOT NULL DEFAULT 0,
    mpi_recv_bytes       bigint NOT NULL DEFAULT 0,
    mpi_p2p_ns           bigint NOT NULL DEFAULT 0,
    mpi_coll_calls       bigint NOT NULL DEFAULT 0,
    mpi_coll_bytes       bigint NOT NULL DEFAULT 0,
    mpi_coll_ns          bigint NOT NULL DEFAULT 0,
    mpiio_read_calls     bigint NOT NULL DEFAULT 0,
    mpiio_read_bytes     bigint NOT NULL DEFAULT 0,
    mpiio_write_calls    bigint NOT NULL DEFAULT 0,
    mpiio_write_bytes    bigint NOT NULL DEFAULT 0,
    mpiio_coll_calls     bigint NOT NULL DEFAULT 0,
    mpiio_meta_calls     bigint NOT NULL DEFAULT 0,
    mpiio_ns             bigint NOT NULL DEFAULT 0,
    cpu_ns               bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (cluster_id, job_id, step_id, node, pid, image)
);
COMMENT ON TABLE js_data.processes IS 'per-process totals: one row per profile (one process image) of a step on a node';
COMMENT ON COLUMN js_data.processes.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.processes.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.processes.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.processes.node IS 'node the process ran on';
COMMENT ON COLUMN js_data.processes.pid IS 'process id';
COMMENT ON COLUMN js_data.processes.image IS 'number of the image among the profiles of this pid (exec keeps the pid), in start order from 0';
COMMENT ON COLUMN js_data.processes.ppid IS 'parent process id';
COMMENT ON COLUMN js_data.processes.task_id IS 'Slurm global task id (rank), NULL when unset';
COMMENT ON COLUMN js_data.processes.mpi_rank IS 'rank in MPI_COMM_WORLD, NULL when not an MPI process';
COMMENT ON COLUMN js_data.processes.mpi_size IS 'size of MPI_COMM_WORLD, NULL when not an MPI process';
COMMENT ON COLUMN js_data.processes.origin IS 'start (new image) or fork (forked child)';
COMMENT ON COLUMN js_data.processes.ended_by IS 'exit, exec or _exit: how the image ended';
COMMENT ON COLUMN js_data.processes.exe IS 'executable (/proc/self/exe)';
COMMENT ON COLUMN js_data.processes.args IS 'command line, arguments separated by spaces (truncated by the profiler)';
COMMENT ON COLUMN js_data.processes.start_time IS 'when recording began';
COMMENT ON COLUMN js_data.processes.end_time IS 'when the profile was written';
COMMENT ON COLUMN js_data.processes.wall_ns IS 'wall time of the image (ns)';
COMMENT ON COLUMN js_data.processes.cpu_user_ns IS 'user CPU time of all threads (ns)';
COMMENT ON COLUMN js_data.processes.cpu_sys_ns IS 'system CPU time of all threads (ns)';
COMMENT ON COLUMN js_data.processes.max_rss_kib IS 'peak resident set size (KiB)';
COMMENT ON COLUMN js_data.processes.threads_peak IS 'most threads doing I/O or MPI at once, plus the main thread';
COMMENT ON COLUMN js_data.processes.threads_seen IS 'threads that made a recorded call, plus the main thread';
COMMENT ON COLUMN js_data.processes.compute_ns IS 'runtime share: wall time minus the time in I/O and MPI (posix_ns, stdio_ns, mpiio_ns, mpi_p2p_ns, mpi_coll_ns), at least 0 (ns)';
COMMENT ON COLUMN js_data.processes.slices_truncated IS 'true when the profiler''s slice budget ran out: later slices are missing';
COMMENT ON COLUMN js_data.processes.files_dropped IS 'files the profiler did not list because its list was full';
COMMENT ON COLUMN js_data.processes.mpi_collectives IS 'per collective kind {calls, bytes, ns}, as the profile gives it';
COMMENT ON COLUMN js_data.processes.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application (calls)';
COMMENT ON COLUMN js_data.processes.posix_read_bytes IS 'bytes returned by those reads (bytes)';
COMMENT ON COLUMN js_data.processes.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application (calls)';
COMMENT ON COLUMN js_data.processes.posix_write_bytes IS 'bytes accepted by those writes (bytes)';
COMMENT ON COLUMN js_data.processes.posix_open_calls IS 'open, openat, creat (and 64-bit variants) (calls)';
COMMENT ON COLUMN js_data.processes.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir (calls)';
COMMENT ON COLUMN js_data.processes.posix_ns IS 'time in POSIX I/O calls (sampled estimate) (ns)';
COMMENT ON COLUMN js_data.processes.stdio_read_calls IS 'fread, fgets, fgetc/getc, fscanf family on file streams (calls)';
COMMENT ON COLUMN js_data.processes.stdio_read_bytes IS 'bytes returned to the application by those calls (bytes)';
COMMENT ON COLUMN js_data.processes.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family on file streams (calls)';
COMMENT ON COLUMN js_data.processes.stdio_write_bytes IS 'bytes handed to the stream by those calls (bytes)';
COMMENT ON COLUMN js_data.processes.stdio_open_calls IS 'fopen, fdopen, freopen (and 64-bit variants) (calls)';
COMMENT ON COLUMN js_data.processes.stdio_meta_calls IS 'fclose, fflush, fseek family (calls)';
COMMENT ON COLUMN js_data.processes.stdio_ns IS 'time in stdio calls (sampled estimate) (ns)';
COMMENT ON COLUMN js_data.processes.lower_read_bytes IS 'POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.processes.lower_write_bytes IS 'POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.processes.mpi_send_calls IS 'point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';
COMMENT ON COLUMN js_data.processes.mpi_send_bytes IS 'bytes of those sends (count x type size) (bytes)';
COMMENT ON COLUMN js_data.processes.mpi_recv_calls IS 'point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';
COMMENT ON COLUMN js_data.processes.mpi_recv_bytes IS 'bytes of those receives as posted (count x type size) (bytes)';
COMMENT ON COLUMN js_data.processes.mpi_p2p_ns IS 'time in point-to-point calls, including wait and test (ns)';
COMMENT ON COLUMN js_data.processes.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives) (calls)';
COMMENT ON COLUMN js_data.processes.mpi_coll_bytes IS 'send-side bytes of those collectives on this rank (bytes)';
COMMENT ON COLUMN js_data.processes.mpi_coll_ns IS 'time in collective calls (ns)';
COMMENT ON COLUMN js_data.processes.mpiio_read_calls IS 'MPI_File_read* calls (calls)';
COMMENT ON COLUMN js_data.processes.mpiio_read_bytes IS 'bytes of those reads (count x type size) (bytes)';
COMMENT ON COLUMN js_data.processes.mpiio_write_calls IS 'MPI_File_write* calls (calls)';
COMMENT ON COLUMN js_data.processes.mpiio_write_bytes IS 'bytes of those writes (count x type size) (bytes)';
COMMENT ON COLUMN js_data.processes.mpiio_coll_calls IS 'the collective ones (_all) among the MPI-IO reads and writes (calls)';
COMMENT ON COLUMN js_data.processes.mpiio_meta_calls IS 'MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';
COMMENT ON COLUMN js_data.processes.mpiio_ns IS 'time in MPI-IO calls (ns)';
COMMENT ON COLUMN js_data.processes.cpu_ns IS 'CPU time (user + system) of the process in the slice (ns)';

CREATE TABLE js_data.slice_metrics (
    cluster_id   smallint NOT NULL,
    job_id       bigint NOT NULL,
    step_id      text NOT NULL,
    node         text NOT NULL,
    slice        bigint NOT NULL,
    processes    integer NOT NULL,
    posix_read_calls     bigint NOT NULL DEFAULT 0,
    posix_read_bytes     bigint NOT NULL DEFAULT 0,
    posix_write_calls    bigint NOT NULL DEFAULT 0,
    posix_write_bytes    bigint NOT NULL DEFAULT 0,
    posix_open_calls     bigint NOT NULL DEFAULT 0,
    posix_meta_calls     bigint NOT NULL DEFAULT 0,
    posix_ns             bigint NOT NULL DEFAULT 0,
    stdio_read_calls     bigint NOT NULL DEFAULT 0,
    stdio_read_bytes     bigint NOT NULL DEFAULT 0,
    stdio_write_calls    bigint NOT NULL DEFAULT 0,
    stdio_write_bytes    bigint NOT NULL DEFAULT 0,
    stdio_open_calls     bigint NOT NULL DEFAULT 0,
    stdio_meta_calls     bigint NOT NULL DEFAULT 0,
    stdio_ns             bigint NOT NULL DEFAULT 0,
    lower_read_bytes     bigint NOT NULL DEFAULT 0,
    lower_write_bytes    bigint NOT NULL DEFAULT 0,
    mpi_send_calls       bigint NOT NULL DEFAULT 0,
    mpi_send_bytes       bigint NOT NULL DEFAULT 0,
    mpi_recv_calls       bigint NOT NULL DEFAULT 0,
    mpi_recv_bytes       bigint NOT NULL DEFAULT 0,
    mpi_p2p_ns           bigint NOT NULL DEFAULT 0,
    mpi_coll_calls       bigint NOT NULL DEFAULT 0,
    mpi_coll_bytes       bigint NOT NULL DEFAULT 0,
    mpi_coll_ns          bigint NOT NULL DEFAULT 0,
    mpiio_read_calls     bigint NOT NULL DEFAULT 0,
    mpiio_read_bytes     bigint NOT NULL DEFAULT 0,
    mpiio_write_calls    bigint NOT NULL DEFAULT 0,
    mpiio_write_bytes    bigint NOT NULL DEFAULT 0,
    mpiio_coll_calls     bigint NOT NULL DEFAULT 0,
    mpiio_meta_calls     bigint NOT NULL DEFAULT 0,
    mpiio_ns             bigint NOT NULL DEFAULT 0,
    cpu_ns               bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (cluster_id, job_id, step_id, node, slice)
) PARTITION BY RANGE (slice);
CREATE INDEX slice_metrics_slice ON js_data.slice_metrics (cluster_id, slice);
COMMENT ON TABLE js_data.slice_metrics IS 'per-slice metric vector of a step on a node, summed over its processes; only slices with activity; partitioned by slice range';
COMMENT ON COLUMN js_data.slice_metrics.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.slice_metrics.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.slice_metrics.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.slice_metrics.node IS 'node';
COMMENT ON COLUMN js_data.slice_metrics.slice IS 'slice index: floor(epoch seconds / slice length)';
COMMENT ON COLUMN js_data.slice_metrics.processes IS 'processes of the step on this node with activity in this slice';
COMMENT ON COLUMN js_data.slice_metrics.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application (calls)';
COMMENT ON COLUMN js_data.slice_metrics.posix_read_bytes IS 'bytes returned by those reads (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application (calls)';
COMMENT ON COLUMN js_data.slice_metrics.posix_write_bytes IS 'bytes accepted by those writes (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.posix_open_calls IS 'open, openat, creat (and 64-bit variants) (calls)';
COMMENT ON COLUMN js_data.slice_metrics.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir (calls)';
COMMENT ON COLUMN js_data.slice_metrics.posix_ns IS 'time in POSIX I/O calls (sampled estimate) (ns)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_read_calls IS 'fread, fgets, fgetc/getc, fscanf family on file streams (calls)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_read_bytes IS 'bytes returned to the application by those calls (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family on file streams (calls)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_write_bytes IS 'bytes handed to the stream by those calls (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_open_calls IS 'fopen, fdopen, freopen (and 64-bit variants) (calls)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_meta_calls IS 'fclose, fflush, fseek family (calls)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_ns IS 'time in stdio calls (sampled estimate) (ns)';
COMMENT ON COLUMN js_data.slice_metrics.lower_read_bytes IS 'POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.lower_write_bytes IS 'POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.mpi_send_calls IS 'point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';
COMMENT ON COLUMN js_data.slice_metrics.mpi_send_bytes IS 'bytes of those sends (count x type size) (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.mpi_recv_calls IS 'point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';
COMMENT ON COLUMN js_data.slice_metrics.mpi_recv_bytes IS 'bytes of those receives as posted (count x type size) (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.mpi_p2p_ns IS 'time in point-to-point calls, including wait and test (ns)';
COMMENT ON COLUMN js_data.slice_metrics.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives) (calls)';
COMMENT ON COLUMN js_data.slice_metrics.mpi_coll_bytes IS 'send-side bytes of those collectives on this rank (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.mpi_coll_ns IS 'time in collective calls (ns)';
COMMENT ON COLUMN js_data.slice_metrics.mpiio_read_calls IS 'MPI_File_read* calls (calls)';
COMMENT ON COLUMN js_data.slice_metrics.mpiio_read_bytes IS 'bytes of those reads (count x type size) (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.mpiio_write_calls IS 'MPI_File_write* calls (calls)';
COMMENT ON COLUMN js_data.slice_metrics.mpiio_write_bytes IS 'bytes of those writes (count x type size) (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.mpiio_coll_calls IS 'the collective ones (_all) among the MPI-IO reads and writes (calls)';
COMMENT ON COLUMN js_data.slice_metrics.mpiio_meta_calls IS 'MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';
COMMENT ON COLUMN js_data.slice_metrics.mpiio_ns IS 'time in MPI-IO calls (ns)';
COMMENT ON COLUMN js_data.slice_metrics.cpu_ns IS 'CPU time (user + system) of the process in the slice (ns)';

CREATE TABLE js_data.slice_totals_node (
    cluster_id   smallint NOT NULL,
    node         text NOT NULL,
    slice        bigint NOT NULL,
    step_nodes   integer NOT NULL,
    posix_read_calls     bigint NOT NULL DEFAULT 0,
    posix_read_bytes     bigint NOT NULL DEFAULT 0,
    posix_write_calls    bigint NOT NULL DEFAULT 0,
    posix_write_bytes    bigint NOT NULL DEFAULT 0,
    posix_open_calls     bigint NOT NULL DEFAULT 0,
    posix_meta_calls     bigint NOT NULL DEFAULT 0,
    posix_ns             bigint NOT NULL DEFAULT 0,
    stdio_read_calls     bigint NOT NULL DEFAULT 0,
    stdio_read_bytes     bigint NOT NULL DEFAULT 0,
    stdio_write_calls    bigint NOT NULL DEFAULT 0,
    stdio_write_bytes    bigint NOT NULL DEFAULT 0,
    stdio_open_calls     bigint NOT NULL DEFAULT 0,
    stdio_meta_calls     bigint NOT NULL DEFAULT 0,
    stdio_ns             bigint NOT NULL DEFAULT 0,
    lower_read_bytes     bigint NOT NULL DEFAULT 0,
    lower_write_bytes    bigint NOT NULL DEFAULT 0,
    mpi_send_calls       bigint NOT NULL DEFAULT 0,
    mpi_send_bytes       bigint NOT NULL DEFAULT 0,
    mpi_recv_calls       bigint NOT NULL DEFAULT 0,
    mpi_recv_bytes       bigint NOT NULL DEFAULT 0,
    mpi_p2p_ns           bigint NOT NULL DEFAULT 0,
    mpi_coll_calls       bigint NOT NULL DEFAULT 0,
    mpi_coll_bytes       bigint NOT NULL DEFAULT 0,
    mpi_coll_ns          bigint NOT NULL DEFAULT 0,
    mpiio_read_calls     bigint NOT NULL DEFAULT 0,
    mpiio_read_bytes     bigint NOT NULL DEFAULT 0,
    mpiio_write_calls    bigint NOT NULL DEFAULT 0,
    mpiio_write_bytes    bigint NOT NULL DEFAULT 0,
    mpiio_coll_calls     bigint NOT NULL DEFAULT 0,
    mpiio_meta_calls     bigint NOT NULL DEFAULT 0,
    mpiio_ns             bigint NOT NULL DEFAULT 0,
    cpu_ns               bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (cluster_id, slice, node)
) PARTITION BY RANGE (slice);
COMMENT ON TABLE js_data.slice_totals_node IS 'pre-aggregated: per node and slice, the sum of js_data.slice_metrics over all steps but those still in js_data.totals_pending';
COMMENT ON COLUMN js_data.slice_totals_node.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.slice_totals_node.node IS 'node';
COMMENT ON COLUMN js_data.slice_totals_node.slice IS 'slice index';
COMMENT ON COLUMN js_data.slice_totals_node.step_nodes IS 'how many (step, node) vectors were added into this row';
COMMENT ON COLUMN js_data.slice_totals_node.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_read_bytes IS 'bytes returned by those reads (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_write_bytes IS 'bytes accepted by those writes (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_open_calls IS 'open, openat, creat (and 64-bit variants) (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_ns IS 'time in POSIX I/O calls (sampled estimate) (ns)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_read_calls IS 'fread, fgets, fgetc/getc, fscanf family on file streams (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_read_bytes IS 'bytes returned to the application by those calls (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family on file streams (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_write_bytes IS 'bytes handed to the stream by those calls (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_open_calls IS 'fopen, fdopen, freopen (and 64-bit variants) (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_meta_calls IS 'fclose, fflush, fseek family (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_ns IS 'time in stdio calls (sampled estimate) (ns)';
COMMENT ON COLUMN js_data.slice_totals_node.lower_read_bytes IS 'POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.lower_write_bytes IS 'POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.mpi_send_calls IS 'point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.mpi_send_bytes IS 'bytes of those sends (count x type size) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.mpi_recv_calls IS 'point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.mpi_recv_bytes IS 'bytes of those receives as posted (count x type size) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.mpi_p2p_ns IS 'time in point-to-point calls, including wait and test (ns)';
COMMENT ON COLUMN js_data.slice_totals_node.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives) (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.mpi_coll_bytes IS 'send-side bytes of those collectives on this rank (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.mpi_coll_ns IS 'time in collective calls (ns)';
COMMENT ON COLUMN js_data.slice_totals_node.mpiio_read_calls IS 'MPI_File_read* calls (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.mpiio_read_bytes IS 'bytes of those reads (count x type size) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.mpiio_write_calls IS 'MPI_File_write* calls (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.mpiio_write_bytes IS 'bytes of those writes (count x type size) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.mpiio_coll_calls IS 'the collective ones (_all) among the MPI-IO reads and writes (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.mpiio_meta_calls IS 'MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.mpiio_ns IS 'time in MPI-IO calls (ns)';
COMMENT ON COLUMN js_data.slice_totals_node.cpu_ns IS 'CPU time (user + system) of the process in the slice (ns)';

CREATE TABLE js_data.slice_totals_cluster (
    cluster_id   smallint NOT NULL,
    slice        bigint NOT NULL,
    step_nodes   integer NOT NULL,
    posix_read_calls     bigint NOT NULL DEFAULT 0,
    posix_read_bytes     bigint NOT NULL DEFAULT 0,
    posix_write_calls    bigint NOT NULL DEFAULT 0,
    posix_write_bytes    bigint NOT NULL DEFAULT 0,
    posix_open_calls     bigint NOT NULL DEFAULT 0,
    posix_meta_calls     bigint NOT NULL DEFAULT 0,
    posix_ns             bigint NOT NULL DEFAULT 0,
    stdio_read_calls     bigint NOT NULL DEFAULT 0,
    stdio_read_bytes     bigint NOT NULL DEFAULT 0,
    stdio_write_calls    bigint NOT NULL DEFAULT 0,
    stdio_write_bytes    bigint NOT NULL DEFAULT 0,
    stdio_open_calls     bigint NOT NULL DEFAULT 0,
    stdio_meta_calls     bigint NOT NULL DEFAULT 0,
    stdio_ns             bigint NOT NULL DEFAULT 0,
    lower_read_bytes     bigint NOT NULL DEFAULT 0,
    lower_write_bytes    bigint NOT NULL DEFAULT 0,
    mpi_send_calls       bigint NOT NULL DEFAULT 0,
    mpi_send_bytes       bigint NOT NULL DEFAULT 0,
    mpi_recv_calls       bigint NOT NULL DEFAULT 0,
    mpi_recv_bytes       bigint NOT NULL DEFAULT 0,
    mpi_p2p_ns           bigint NOT NULL DEFAULT 0,
    mpi_coll_calls       bigint NOT NULL DEFAULT 0,
    mpi_coll_bytes       bigint NOT NULL DEFAULT 0,
    mpi_coll_ns          bigint NOT NULL DEFAULT 0,
    mpiio_read_calls     bigint NOT NULL DEFAULT 0,
    mpiio_read_bytes     bigint NOT NULL DEFAULT 0,
    mpiio_write_calls    bigint NOT NULL DEFAULT 0,
    mpiio_write_bytes    bigint NOT NULL DEFAULT 0,
    mpiio_coll_calls     bigint NOT NULL DEFAULT 0,
    mpiio_meta_calls     bigint NOT NULL DEFAULT 0,
    mpiio_ns             bigint NOT NULL DEFAULT 0,
    cpu_ns               bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (cluster_id, slice)
) PARTITION BY RANGE (slice);
COMMENT ON TABLE js_data.slice_totals_cluster IS 'pre-aggregated: per slice, the sum of js_data.slice_metrics over the whole cluster but the steps still in js_data.totals_pending';
COMMENT ON COLUMN js_data.slice_totals_cluster.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.slice_totals_cluster.slice IS 'slice index';
COMMENT ON COLUMN js_data.slice_totals_cluster.step_nodes IS 'how many (step, node) vectors were added into this row';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_read_bytes IS 'bytes returned by those reads (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_write_bytes IS 'bytes accepted by those writes (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_open_calls IS 'open, openat, creat (and 64-bit variants) (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_ns IS 'time in POSIX I/O calls (sampled estimate) (ns)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_read_calls IS 'fread, fgets, fgetc/getc, fscanf family on file streams (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_read_bytes IS 'bytes returned to the application by those calls (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family on file streams (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_write_bytes IS 'bytes handed to the stream by those calls (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_open_calls IS 'fopen, fdopen, freopen (and 64-bit variants) (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_meta_calls IS 'fclose, fflush, fseek family (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_ns IS 'time in stdio calls (sampled estimate) (ns)';
COMMENT ON COLUMN js_data.slice_totals_cluster.lower_read_bytes IS 'POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.lower_write_bytes IS 'POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpi_send_calls IS 'point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpi_send_bytes IS 'bytes of those sends (count x type size) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpi_recv_calls IS 'point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpi_recv_bytes IS 'bytes of those receives as posted (count x type size) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpi_p2p_ns IS 'time in point-to-point calls, including wait and test (ns)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives) (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpi_coll_bytes IS 'send-side bytes of those collectives on this rank (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpi_coll_ns IS 'time in collective calls (ns)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpiio_read_calls IS 'MPI_File_read* calls (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpiio_read_bytes IS 'bytes of those reads (count x type size) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpiio_write_calls IS 'MPI_File_write* calls (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpiio_write_bytes IS 'bytes of those writes (count x type size) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpiio_coll_calls IS 'the collective ones (_all) among the MPI-IO reads and writes (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpiio_meta_calls IS 'MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpiio_ns IS 'time in MPI-IO calls (ns)';
COMMENT ON COLUMN js_data.slice_totals_cluster.cpu_ns IS 'CPU time (user + system) of the process in the slice (ns)';

CREATE TABLE js_data.totals_pending (
    cluster_id smallint NOT NULL,
    job_id     bigint NOT NULL,
    step_id    text NOT NULL,
    node       text NOT NULL,
    queued_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster_id, job_id, step_id, node)
);
CREATE INDEX totals_pending_queued ON js_data.totals_pending (queued_at);
COMMENT ON TABLE js_data.totals_pending IS 'step records whose slice vectors are in js_data.slice_metrics but not yet added into the slice totals; js_data.rollup_totals() folds them in batches (the views js.slice_totals_* add them meanwhile, so readers see exact sums)';
COMMENT ON COLUMN js_data.totals_pending.cluster_id IS 'cluster';
COMMENT ON COLUMN js_data.totals_pending.job_id IS 'Slurm job id';
COMMENT ON COLUMN js_data.totals_pending.step_id IS 'step id in words';
COMMENT ON COLUMN js_data.totals_pending.node IS 'node';
COMMENT ON COLUMN js_data.totals_pending.queued_at IS 'commit of the ingest transaction that queued it';

-- Create the partitions of the three per-slice tables that cover slices first..last.
-- Serialised by an advisory lock so that several ingest daemons may call it at once.
CREATE FUNCTION js_data.ensure_slice_partitions(first bigint, last bigint) RETURNS integer
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
        FOREACH t IN ARRAY ARRAY['slice_metrics', 'slice_totals_node', 'slice_totals_cluster'] LOOP
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
COMMENT ON FUNCTION js_data.ensure_slice_partitions(bigint, bigint) IS 'create the missing partitions (named TABLE_p<first slice>) of the per-slice tables for a slice range';
