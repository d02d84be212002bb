-- jobscreen schema, migration 011: a runtime share that tells the truth, and what no wrapper saw
-- (issue 15, profile format 4).
-- - Processes keep idle_ns (time neither computing, nor waiting for a CPU, nor in a recorded
--   call), cpu_wait_ns (runnable, waiting for a CPU: the scheduler's run delay), mpi_setup_ns (in
--   MPI_Init and MPI_Finalize, no longer collective time) and the kernel's own I/O counts of the
--   image (/proc/self/io: kernel_rchar, _wchar, _syscr, _syscw, _read_bytes, _write_bytes); all
--   NULL for profiles of format 1-3, which did not have them. compute_ns of a format-4 profile is
--   CPU time outside the calls (docs/profile-format.md); of older ones wall time minus the calls.
-- - js.steps gains idle_ns, mpi_setup_ns, cpu_wait_ns, max_rss_kib (the largest peak of its processes) and
--   unattributed_read_bytes / _write_bytes: what the kernel counted beyond the wrappers.
-- - js.step_nodes gains max_rss_kib; js.processes the new columns and the unattributed bytes.
-- - file_accesses.mapped_bytes: bytes of the file mapped into memory (mmap).
-- - js.step_digest gains the runtime share, peak memory, the kernel's counts and the
--   unattributed bytes; its processes column counts the processes with a value.
-- Views gain columns at their end only (CREATE OR REPLACE VIEW keeps what stands on them).

ALTER TABLE js_data.processes
    ADD COLUMN idle_ns bigint, ADD COLUMN mpi_setup_ns bigint, ADD COLUMN cpu_wait_ns bigint,
    ADD COLUMN kernel_rchar bigint, ADD COLUMN kernel_wchar bigint, ADD COLUMN kernel_syscr bigint,
    ADD COLUMN kernel_syscw bigint, ADD COLUMN kernel_read_bytes bigint, ADD COLUMN kernel_write_bytes bigint;
ALTER TABLE js_data.live_processes
    ADD COLUMN idle_ns bigint, ADD COLUMN mpi_setup_ns bigint, ADD COLUMN cpu_wait_ns bigint,
    ADD COLUMN kernel_rchar bigint, ADD COLUMN kernel_wchar bigint, ADD COLUMN kernel_syscr bigint,
    ADD COLUMN kernel_syscw bigint, ADD COLUMN kernel_read_bytes bigint, ADD COLUMN kernel_write_bytes bigint;
COMMENT ON COLUMN js_data.processes.compute_ns IS 'runtime share: CPU time outside I/O and MPI calls (profile format 4; before: wall time minus the time in I/O and MPI, at least 0) (ns)';
COMMENT ON COLUMN js_data.processes.idle_ns IS 'runtime share: time neither computing, nor waiting for a CPU, nor in a recorded call (sleep, waiting for children, locks or pages); NULL before profile format 4 (ns)';
COMMENT ON COLUMN js_data.processes.cpu_wait_ns IS 'runtime share: time runnable but waiting for a CPU outside the calls (the scheduler''s run delay); NULL before profile format 4 (ns)';
COMMENT ON COLUMN js_data.processes.mpi_setup_ns IS 'time in MPI_Init, MPI_Init_thread and MPI_Finalize; NULL before profile format 4 (ns)';
COMMENT ON COLUMN js_data.processes.kernel_rchar IS 'the kernel''s count of bytes returned by read-like system calls of the image, on anything (/proc/self/io rchar); NULL: unknown';
COMMENT ON COLUMN js_data.processes.kernel_wchar IS 'bytes passed to write-like system calls (/proc/self/io wchar); NULL: unknown';
COMMENT ON COLUMN js_data.processes.kernel_syscr IS 'read-like system calls (/proc/self/io syscr); NULL: unknown';
COMMENT ON COLUMN js_data.processes.kernel_syscw IS 'write-like system calls (/proc/self/io syscw); NULL: unknown';
COMMENT ON COLUMN js_data.processes.kernel_read_bytes IS 'bytes the image caused to be fetched from storage (/proc/self/io read_bytes); NULL: unknown';
COMMENT ON COLUMN js_data.processes.kernel_write_bytes IS 'bytes the image caused to be sent to storage (/proc/self/io write_bytes); NULL: unknown';

COMMENT ON COLUMN js_data.live_processes.idle_ns IS 'as in js_data.processes';
COMMENT ON COLUMN js_data.live_processes.mpi_setup_ns IS 'as in js_data.processes';
COMMENT ON COLUMN js_data.live_processes.cpu_wait_ns IS 'as in js_data.processes';
COMMENT ON COLUMN js_data.live_processes.kernel_rchar IS 'as in js_data.processes';
COMMENT ON COLUMN js_data.live_processes.kernel_wchar IS 'as in js_data.processes';
COMMENT ON COLUMN js_data.live_processes.kernel_syscr IS 'as in js_data.processes';
COMMENT ON COLUMN js_data.live_processes.kernel_syscw IS 'as in js_data.processes';
COMMENT ON COLUMN js_data.live_processes.kernel_read_bytes IS 'as in js_data.processes';
COMMENT ON COLUMN js_data.live_processes.kernel_write_bytes IS 'as in js_data.processes';

-- the metric descriptions of profile format 4 (asynchronous I/O, wide and _unlocked stdio, every
-- call timed; non-blocking MPI, MPI_Init and MPI_Finalize apart)
COMMENT ON COLUMN js_data.processes.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';
COMMENT ON COLUMN js_data.processes.posix_read_bytes IS 'bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';
COMMENT ON COLUMN js_data.processes.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';
COMMENT ON COLUMN js_data.processes.posix_write_bytes IS 'bytes accepted by those writes (asynchronous: as for reads) (bytes)';
COMMENT ON COLUMN js_data.processes.posix_open_calls IS 'open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';
COMMENT ON COLUMN js_data.processes.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';
COMMENT ON COLUMN js_data.processes.posix_ns IS 'time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';
COMMENT ON COLUMN js_data.processes.stdio_read_calls IS 'fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.processes.stdio_read_bytes IS 'bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';
COMMENT ON COLUMN js_data.processes.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.processes.stdio_write_bytes IS 'bytes handed to the stream by those calls (wide forms: one per character) (bytes)';
COMMENT ON COLUMN js_data.processes.stdio_meta_calls IS 'fclose, fflush, fseek family, ungetc/ungetwc (calls)';
COMMENT ON COLUMN js_data.processes.stdio_ns IS 'time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';
COMMENT ON COLUMN js_data.slice_metrics.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';
COMMENT ON COLUMN js_data.slice_metrics.posix_read_bytes IS 'bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';
COMMENT ON COLUMN js_data.slice_metrics.posix_write_bytes IS 'bytes accepted by those writes (asynchronous: as for reads) (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.posix_open_calls IS 'open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';
COMMENT ON COLUMN js_data.slice_metrics.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';
COMMENT ON COLUMN js_data.slice_metrics.posix_ns IS 'time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_read_calls IS 'fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_read_bytes IS 'bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_write_bytes IS 'bytes handed to the stream by those calls (wide forms: one per character) (bytes)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_meta_calls IS 'fclose, fflush, fseek family, ungetc/ungetwc (calls)';
COMMENT ON COLUMN js_data.slice_metrics.stdio_ns IS 'time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_read_bytes IS 'bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_write_bytes IS 'bytes accepted by those writes (asynchronous: as for reads) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_open_calls IS 'open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.posix_ns IS 'time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_read_calls IS 'fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_read_bytes IS 'bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_write_bytes IS 'bytes handed to the stream by those calls (wide forms: one per character) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_meta_calls IS 'fclose, fflush, fseek family, ungetc/ungetwc (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.stdio_ns IS 'time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it) (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_read_bytes IS 'bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request''s length) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_write_bytes IS 'bytes accepted by those writes (asynchronous: as for reads) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_open_calls IS 'open, openat, creat (and 64-bit variants), openat2 through syscall() (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file, msync (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.posix_ns IS 'time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted) (ns)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_read_calls IS 'fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_read_bytes IS 'bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_write_bytes IS 'bytes handed to the stream by those calls (wide forms: one per character) (bytes)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_meta_calls IS 'fclose, fflush, fseek family, ungetc/ungetwc (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.stdio_ns IS 'time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';
COMMENT ON COLUMN js_data.processes.mpi_p2p_ns IS 'time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';
COMMENT ON COLUMN js_data.processes.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';
COMMENT ON COLUMN js_data.processes.mpi_coll_ns IS 'time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';
COMMENT ON COLUMN js_data.processes.mpiio_read_calls IS 'MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.processes.mpiio_write_calls IS 'MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.processes.mpiio_coll_calls IS 'the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';
COMMENT ON COLUMN js_data.processes.mpiio_ns IS 'time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';
COMMENT ON COLUMN js_data.slice_metrics.mpi_p2p_ns IS 'time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';
COMMENT ON COLUMN js_data.slice_metrics.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';
COMMENT ON COLUMN js_data.slice_metrics.mpi_coll_ns IS 'time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';
COMMENT ON COLUMN js_data.slice_metrics.mpiio_read_calls IS 'MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.slice_metrics.mpiio_write_calls IS 'MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.slice_metrics.mpiio_coll_calls IS 'the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';
COMMENT ON COLUMN js_data.slice_metrics.mpiio_ns IS 'time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';
COMMENT ON COLUMN js_data.slice_totals_node.mpi_p2p_ns IS 'time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';
COMMENT ON COLUMN js_data.slice_totals_node.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.mpi_coll_ns IS 'time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';
COMMENT ON COLUMN js_data.slice_totals_node.mpiio_read_calls IS 'MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.mpiio_write_calls IS 'MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.mpiio_coll_calls IS 'the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';
COMMENT ON COLUMN js_data.slice_totals_node.mpiio_ns IS 'time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpi_p2p_ns IS 'time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpi_coll_ns IS 'time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpiio_read_calls IS 'MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpiio_write_calls IS 'MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpiio_coll_calls IS 'the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';
COMMENT ON COLUMN js_data.slice_totals_cluster.mpiio_ns IS 'time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';

ALTER TABLE js_data.file_accesses ADD COLUMN mapped_bytes bigint NOT NULL DEFAULT 0;
COMMENT ON COLUMN js_data.file_accesses.mapped_bytes IS 'bytes of the file mapped into memory (mmap) by the step''s processes on the node';

-- What the kernel counted beyond what the wrappers saw (raw system calls, static helpers, stdio
-- buffers filled ahead, a path not wrapped): NULL when the kernel's count is unknown.
CREATE FUNCTION js_data.unattributed(p_kernel bigint, p_seen bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$ SELECT greatest(p_kernel - p_seen, 0) $$;
COMMENT ON FUNCTION js_data.unattributed(bigint, bigint) IS 'kernel count minus the wrappers'' count, at least 0; NULL when the kernel count is unknown';

-- mmap of files: the (rare) files of a step record that were mapped, after ingest_finish
CREATE FUNCTION js_data.ingest_mapped(p_cluster smallint, p_job bigint, p_step text, p_node text,
        p_paths text[], p_local boolean[], p_bytes bigint[]) RETURNS void
LANGUAGE sql AS $$
    UPDATE js_data.file_accesses a SET mapped_bytes = m.bytes
    FROM unnest(p_paths, p_local, p_bytes) AS m(path, is_local, bytes)
    JOIN js_data.files fi ON fi.cluster_id = p_cluster AND fi.path = m.path
        AND fi.node = CASE WHEN m.is_local THEN p_node ELSE '' END
    WHERE a.cluster_id = p_cluster AND a.job_id = p_job AND a.step_id = p_step AND a.node = p_node
      AND a.file_id = fi.file_id
$$;
COMMENT ON FUNCTION js_data.ingest_mapped(smallint, bigint, text, text, text[], boolean[], bigint[]) IS 'the mapped bytes of a step record''s files, in its transaction after ingest_finish (profile_ingest)';

CREATE OR REPLACE VIEW js.steps AS
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
           coalesce(p.cpu_ns, 0)::bigint AS cpu_ns,
           s.incomplete_reason,
           coalesce(p.killed_processes, 0)::integer AS killed_processes,
           (SELECT coalesce(sum(sn.unrecorded), 0)::integer FROM js_data.step_nodes sn
            WHERE sn.cluster_id = s.cluster_id AND sn.job_id = s.job_id AND sn.step_id = s.step_id) AS unrecorded_processes,
           EXISTS (SELECT 1 FROM js_data.live_step_nodes l
                   WHERE l.cluster_id = s.cluster_id AND l.job_id = s.job_id AND l.step_id = s.step_id) AS live,
           coalesce(p.files_dropped, 0)::bigint AS files_dropped,
           p.idle_ns::bigint AS idle_ns, p.mpi_setup_ns::bigint AS mpi_setup_ns, p.cpu_wait_ns::bigint AS cpu_wait_ns,
           p.max_rss_kib::bigint AS max_rss_kib,
           p.unattributed_read_bytes::bigint AS unattributed_read_bytes,
           p.unattributed_write_bytes::bigint AS unattributed_write_bytes,
           coalesce(p.kernel_io_unknown, 0)::integer AS kernel_io_unknown
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
               sum(cpu_ns) AS cpu_ns, count(*) FILTER (WHERE ended_by = 'signal') AS killed_processes,
               sum(files_dropped) AS files_dropped,
               sum(idle_ns) AS idle_ns, sum(mpi_setup_ns) AS mpi_setup_ns, sum(cpu_wait_ns) AS cpu_wait_ns,
               max(max_rss_kib) AS max_rss_kib,
               sum(js_data.unattributed(kernel_rchar, posix_read_bytes + stdio_read_bytes + lower_read_bytes)) AS unattributed_read_bytes,
               sum(js_data.unattributed(kernel_wchar, posix_write_bytes + stdio_write_bytes + lower_write_bytes)) AS unattributed_write_bytes,
               count(*) FILTER (WHERE kernel_rchar IS NULL) AS kernel_io_unknown
        FROM js_data.processes p
        WHERE p.cluster_id = s.cluster_id AND p.job_id = s.job_id AND p.step_id = s.step_id) p ON true
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
           coalesce(p.kernel_io_unknown, 0)::integer AS kernel_io_unknown
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
COMMENT ON VIEW js.steps IS 'steps merged over their nodes, with the runtime share summed over their processes (compute_ns + mpi_p2p_ns + mpi_coll_ns + mpi_setup_ns + io_*_ns + cpu_wait_ns + idle_ns = the processes'' time budgets: wall time, or more for processes with busy threads; before profile format 4 idle and setup are NULL and compute is the rest of wall_ns), I/O volume and metadata calls; incomplete_reason says what is missing, killed_processes counts processes killed by a signal, unrecorded_processes those the profiler did not record (spool quota), summed over the nodes; live: some node still runs (provisional data); a step with no step record ingested yet has state RUNNING, its data so far, end_time its newest snapshot; files_dropped: files its processes did not list (their lists were full); max_rss_kib: the largest peak resident set of its processes; unattributed_*_bytes: what the kernel counted beyond the wrappers, summed over the processes whose kernel counts are known (NULL: none), kernel_io_unknown: the processes whose kernel counts are unknown (killed before their first slice boundary, or profiles before format 4)';

CREATE OR REPLACE VIEW js.step_nodes AS
    SELECT sn.cluster_id, sn.job_id, sn.step_id, sn.node, sn.start_time, sn.end_time, sn.state, sn.exit_code, sn.num_tasks,
           sn.profiles, sn.quarantined, sn.incomplete, sn.ingested_at, sn.ingested_by, sn.incomplete_reason,
           sn.unrecorded, sn.unrecorded_reason,
           (SELECT max(p.max_rss_kib) FROM js_data.processes p
            WHERE p.cluster_id = sn.cluster_id AND p.job_id = sn.job_id AND p.step_id = sn.step_id AND p.node = sn.node)::bigint AS max_rss_kib
    FROM js_data.step_nodes sn;
COMMENT ON VIEW js.step_nodes IS 'one row per step and node ingested (the ingest''s unit); incomplete_reason says what is missing; unrecorded counts the processes the profiler did not record (spool quota), unrecorded_reason why; max_rss_kib the largest peak resident set of its processes on the node (a lower bound of the node''s peak: processes that ran at once add up)';

CREATE OR REPLACE VIEW js.processes AS
    SELECT p.cluster_id, p.job_id, p.step_id, p.node, p.pid, p.image, p.ppid, p.task_id, p.mpi_rank, p.mpi_size,
           p.origin, p.ended_by, p.exe, p.args, p.start_time, p.end_time, p.wall_ns, p.cpu_user_ns, p.cpu_sys_ns,
           p.max_rss_kib, p.threads_peak, p.threads_seen, p.compute_ns, p.slices_truncated, p.files_dropped,
           p.mpi_collectives,
           p.posix_read_calls, p.posix_read_bytes, p.posix_write_calls, p.posix_write_bytes, p.posix_open_calls,
           p.posix_meta_calls, p.posix_ns, p.stdio_read_calls, p.stdio_read_bytes, p.stdio_write_calls,
           p.stdio_write_bytes, p.stdio_open_calls, p.stdio_meta_calls, p.stdio_ns, p.lower_read_bytes,
           p.lower_write_bytes, p.mpi_send_calls, p.mpi_send_bytes, p.mpi_recv_calls, p.mpi_recv_bytes,
           p.mpi_p2p_ns, p.mpi_coll_calls, p.mpi_coll_bytes, p.mpi_coll_ns, p.mpiio_read_calls,
           p.mpiio_read_bytes, p.mpiio_write_calls, p.mpiio_write_bytes, p.mpiio_coll_calls,
           p.mpiio_meta_calls, p.mpiio_ns, p.cpu_ns,
           j.uid, p.exit_code, p.signal, p.missing,
           p.idle_ns, p.mpi_setup_ns, p.cpu_wait_ns, p.kernel_rchar, p.kernel_wchar, p.kernel_syscr, p.kernel_syscw,
           p.kernel_read_bytes, p.kernel_write_bytes,
           js_data.unattributed(p.kernel_rchar, p.posix_read_bytes + p.stdio_read_bytes + p.lower_read_bytes) AS unattributed_read_bytes,
           js_data.unattributed(p.kernel_wchar, p.posix_write_bytes + p.stdio_write_bytes + p.lower_write_bytes) AS unattributed_write_bytes
    FROM js_data.processes p
    JOIN js_data.jobs j ON j.cluster_id = p.cluster_id AND j.job_id = p.job_id;
COMMENT ON VIEW js.processes IS 'per-process totals (one row per profile) with the job''s uid, then how each process ended (exit_code, signal) and what its profile misses; idle_ns, mpi_setup_ns, cpu_wait_ns and the kernel''s I/O counts (kernel_*, /proc/self/io; NULL before profile format 4), and unattributed_*_bytes: what the kernel counted beyond the wrappers';

CREATE OR REPLACE VIEW js.file_accesses AS
    SELECT a.cluster_id, a.job_id, a.step_id, a.node, j.uid, a.file_id, f.path, f.scope, f.node AS file_node,
           a.mode, CASE a.mode WHEN 'r' THEN 'read-only' WHEN 'w' THEN 'write-only' ELSE 'read-write' END AS access,
           a.processes, a.opens, a.reads, a.writes, a.bytes_read, a.bytes_written, a.first_access, a.last_access,
           a.first_read, a.last_write, a.interfaces, a.dev, a.ino, a.mapped_bytes
    FROM js_data.file_accesses a
    JOIN js_data.files f ON f.cluster_id = a.cluster_id AND f.file_id = a.file_id
    JOIN js_data.jobs j ON j.cluster_id = a.cluster_id AND j.job_id = a.job_id;
COMMENT ON VIEW js.file_accesses IS 'what each step did to each file on each node; access = read-only, write-only or read-write; interfaces posix, stdio, mpiio, rename (the step renamed it to or from this name); dev and ino of the file at the first open; mapped_bytes: bytes of it mapped into memory';

-- the digest: the runtime share, peak memory and the kernel's counts beside the metrics
CREATE OR REPLACE VIEW js.step_digest AS
    SELECT p.cluster_id, p.job_id, p.step_id, m.metric, min(m.value)::bigint AS min,
           avg(m.value)::double precision AS avg, max(m.value)::bigint AS max, sum(m.value)::bigint AS sum,
           count(m.value)::integer AS processes
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
        ('cpu_ns', p.cpu_ns),
        ('compute_ns', p.compute_ns),
        ('cpu_wait_ns', p.cpu_wait_ns),
        ('idle_ns', p.idle_ns),
        ('mpi_setup_ns', p.mpi_setup_ns),
        ('max_rss_kib', p.max_rss_kib),
        ('kernel_rchar', p.kernel_rchar),
        ('kernel_wchar', p.kernel_wchar),
        ('unattributed_read_bytes', js_data.unattributed(p.kernel_rchar, p.posix_read_bytes + p.stdio_read_bytes + p.lower_read_bytes)),
        ('unattributed_write_bytes', js_data.unattributed(p.kernel_wchar, p.posix_write_bytes + p.stdio_write_bytes + p.lower_write_bytes))
    ) AS m(metric, value)
    GROUP BY p.cluster_id, p.job_id, p.step_id, m.metric;
COMMENT ON VIEW js.step_digest IS 'digest of a step: per metric, min/avg/max/sum of the per-process totals (filter by cluster_id, job_id, step_id); besides the profile metrics the runtime share (compute_ns, cpu_wait_ns, idle_ns, mpi_setup_ns), peak memory (max_rss_kib), the kernel''s counts (kernel_rchar, kernel_wchar) and unattributed_*_bytes; processes: those with a value (profiles before format 4 have none of the new ones)';
