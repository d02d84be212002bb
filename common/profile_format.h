/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The profile format: the one definition shared by the writer (profiler/, inside every user
 * process) and the reader (profile_ingest/, which validates with Jansson).
 * Documented field by field in docs/profile-format.md.
 *
 * A profile is one JSON object per process image, written as UTF-8 text. Every list of names
 * below is an X-macro: expand it with your own X to build enums, tables, SQL column lists or
 * validators, so that a field added here reaches both sides at once.
 *
 * Version rule: adding a metric, a field or a kind changes JS_PROFILE_VERSION. A reader
 * rejects any version it does not know, with a message naming the version, and keeps the file.
 */
#ifndef JS_PROFILE_FORMAT_H
#define JS_PROFILE_FORMAT_H

#include <stdint.h>

#define JS_PROFILE_FORMAT_NAME "jobscreen-profile"
#define JS_PROFILE_VERSION 9
#define JS_PROFILE_VERSION_MIN 1 /* oldest version a reader still accepts (v1 lacks exit_code, signal, missing;
                                  * v2 lacks trees, renames, renames_dropped and the files' opened_as;
                                  * v3 lacks kernel_io, the files' mapped_bytes, and runtime's mpi_setup_ns,
                                  * cpu_wait_ns and idle_ns; its compute_ns is wall time minus I/O and MPI;
                                  * v4 lacks the kernel's counts per slice: its rows end with the metrics;
                                  * v5 lacks mpi_segments;
                                  * v6 profiles always carry their slices; from v7 a profile in a
                                  * bundle of version 2 has no slice_metrics and slices: they are
                                  * summed on the node into the bundle's series;
                                  * v7 lacks sync_calls, sync_ns and code_dropped: its fsync and
                                  * fdatasync are in posix_meta_calls;
                                  * v8 lacks the files' btime) */

/* jobscreen-collect writes the profiles of a step on a node in bundles, <step>.<node>.b<N>.json:
 * {"format": JS_PROFILE_BUNDLE_FORMAT_NAME, "version": 2, "profiles": [profile, ...],
 * "series": the fold of their slices (bundle_series.h)}, at most JS_PROFILE_BUNDLE_MAX profiles
 * each (docs/profile-format.md). Version 1 had no series: its profiles (versions 1 to 6) carried
 * their own slices. */
#define JS_PROFILE_BUNDLE_FORMAT_NAME "jobscreen-profile-bundle"
#define JS_PROFILE_BUNDLE_VERSION 3
#define JS_PROFILE_BUNDLE_MAX 2048

/* Bounds the writer keeps and the reader may enforce (a file beyond them is not ours). */
#define JS_PROFILE_MAX_FILES 1024        /* entries in "files" and "trees"; more are counted in files_dropped */
#define JS_PROFILE_MAX_RENAMES 64        /* entries in "renames"; more are counted in renames_dropped */
#define JS_PROFILE_MAX_PATH 4096         /* bytes of one path, before JSON escaping */
#define JS_PROFILE_MAX_STRING 4096       /* bytes of any other string (exe, args, ...) */
#define JS_PROFILE_SLICE_BUDGET (1u << 20) /* bytes of compact slice storage per process */
#define JS_PROFILE_MAX_BYTES (64u << 20) /* a profile file is never larger than this */
#define JS_PROFILE_MAX_THREADS 4096      /* threads counted at once; a time per slice is at most this x the slice */

/*
 * Metrics of the per-slice vectors and of "totals". All are unsigned 64-bit integers.
 * X(ID, "json name", "unit", "meaning")
 * The order is the order of the values in every "slices" row and in "slice_metrics".
 * Times (unit ns) are wall-clock time inside the calls, every call timed.
 */
#define JS_PROFILE_METRICS(X) \
    X(POSIX_READ_CALLS,   "posix_read_calls",   "calls", "read, pread, readv, preadv (and 64-bit variants) called by the application; each asynchronous read: libaio io_submit, POSIX aio_read/lio_listio (when queued), io_uring READ/READV/READ_FIXED (when the kernel took it)") \
    X(POSIX_READ_BYTES,   "posix_read_bytes",   "bytes", "bytes returned by those reads (asynchronous: libaio the bytes requested, POSIX AIO what aio_return reported, io_uring the request's length)") \
    X(POSIX_WRITE_CALLS,  "posix_write_calls",  "calls", "write, pwrite, writev, pwritev (and 64-bit variants) called by the application; each asynchronous write, as for reads") \
    X(POSIX_WRITE_BYTES,  "posix_write_bytes",  "bytes", "bytes accepted by those writes (asynchronous: as for reads)") \
    X(POSIX_OPEN_CALLS,   "posix_open_calls",   "calls", "open, openat, creat (and 64-bit variants), openat2 through syscall()") \
    X(POSIX_META_CALLS,   "posix_meta_calls",   "calls", "close, lseek, ftruncate, stat family, unlink, rename, mkdir; mmap of a listed file (since version 8 not the sync calls: sync_calls)") \
    X(POSIX_NS,           "posix_ns",           "ns",    "time in POSIX I/O calls on files (on pipes, sockets, terminals and other character devices a call waits for another party: its time is not counted)") \
    X(STDIO_READ_CALLS,   "stdio_read_calls",   "calls", "fread, fgets, fgetc/getc, getline, fscanf family, their _unlocked and wide-character forms, on file streams") \
    X(STDIO_READ_BYTES,   "stdio_read_bytes",   "bytes", "bytes returned to the application by those calls (wide forms: one per character; fscanf: the bytes it took from the stream; fwscanf: none)") \
    X(STDIO_WRITE_CALLS,  "stdio_write_calls",  "calls", "fwrite, fputs, fputc/putc, fprintf family, their _unlocked and wide-character forms, on file streams") \
    X(STDIO_WRITE_BYTES,  "stdio_write_bytes",  "bytes", "bytes handed to the stream by those calls (wide forms: one per character)") \
    X(STDIO_OPEN_CALLS,   "stdio_open_calls",   "calls", "fopen, fdopen, freopen (and 64-bit variants)") \
    X(STDIO_META_CALLS,   "stdio_meta_calls",   "calls", "fclose, fflush, fseek family, ungetc/ungetwc") \
    X(STDIO_NS,           "stdio_ns",           "ns",    "time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns)") \
    X(LOWER_READ_BYTES,   "lower_read_bytes",   "bytes", "POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_*") \
    X(LOWER_WRITE_BYTES,  "lower_write_bytes",  "bytes", "POSIX write bytes issued inside an MPI call, not counted as posix_*") \
    X(MPI_SEND_CALLS,     "mpi_send_calls",     "calls", "point-to-point sends (blocking and non-blocking; sendrecv counts one send)") \
    X(MPI_SEND_BYTES,     "mpi_send_bytes",     "bytes", "bytes of those sends (count x type size)") \
    X(MPI_RECV_CALLS,     "mpi_recv_calls",     "calls", "point-to-point receives (blocking and non-blocking; sendrecv counts one receive)") \
    X(MPI_RECV_BYTES,     "mpi_recv_bytes",     "bytes", "bytes of those receives as posted (count x type size)") \
    X(MPI_P2P_NS,         "mpi_p2p_ns",         "ns",    "time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests") \
    X(MPI_COLL_CALLS,     "mpi_coll_calls",     "calls", "collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives") \
    X(MPI_COLL_BYTES,     "mpi_coll_bytes",     "bytes", "send-side bytes of those collectives on this rank") \
    X(MPI_COLL_NS,        "mpi_coll_ns",        "ns",    "time in collective calls, blocking and non-blocking, and in waits and tests on collective requests") \
    X(MPIIO_READ_CALLS,   "mpiio_read_calls",   "calls", "MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted)") \
    X(MPIIO_READ_BYTES,   "mpiio_read_bytes",   "bytes", "bytes of those reads (count x type size)") \
    X(MPIIO_WRITE_CALLS,  "mpiio_write_calls",  "calls", "MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted)") \
    X(MPIIO_WRITE_BYTES,  "mpiio_write_bytes",  "bytes", "bytes of those writes (count x type size)") \
    X(MPIIO_COLL_CALLS,   "mpiio_coll_calls",   "calls", "the collective ones (_all, _ordered) among the MPI-IO reads and writes") \
    X(MPIIO_META_CALLS,   "mpiio_meta_calls",   "calls", "MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek") \
    X(MPIIO_NS,           "mpiio_ns",           "ns",    "time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests") \
    X(CPU_NS,             "cpu_ns",             "ns",    "CPU time (user + system) of the process in the slice")

/* MPI collective kinds, split in "mpi_collectives". X(ID, "json name") */
#define JS_PROFILE_COLL_KINDS(X) \
    X(BARRIER,        "barrier") \
    X(BCAST,          "bcast") \
    X(REDUCE,         "reduce") \
    X(ALLREDUCE,      "allreduce") \
    X(GATHER,         "gather") \
    X(ALLGATHER,      "allgather") \
    X(SCATTER,        "scatter") \
    X(ALLTOALL,       "alltoall") \
    X(REDUCE_SCATTER, "reduce_scatter") \
    X(OTHER,          "other")

/*
 * MPI segments (version 6), for the single-run interference estimate (docs/profile-format.md,
 * "MPI segments"): a segment ends at each blocking all-to-all-style collective on a communicator
 * as large as MPI_COMM_WORLD (a boundary: JS_SEG_BOUNDARY_KINDS) and lasts from the end of the
 * thread's previous boundary (or of MPI_Init) to the end of this one. Like segments (the same
 * signature) should take the same time, so their durations are kept per signature as a
 * histogram on a log scale, bin b covering [js_seg_bin_lo_ns(b), js_seg_bin_lo_ns(b + 1)).
 */
#define JS_SEG_MAX_GROUPS 64     /* signatures kept per process image; others count in "ungrouped" */
#define JS_SEG_BINS 1024         /* histogram bins: 1 us .. 1000 s, 9 decades */
#define JS_SEG_BIN_MIN_NS 1000   /* lower edge of bin 1 is above it; bin 0 also holds anything shorter */
#define JS_SEG_DECADES 9
#define JS_SEG_SLOWEST 16        /* slowest segments of an image kept with their time */

/* Blocking collectives that end a segment (on a communicator of MPI_COMM_WORLD's size). */
#define JS_SEG_BOUNDARY_KINDS(X) X(BARRIER) X(ALLREDUCE) X(ALLGATHER) X(ALLTOALL) X(REDUCE_SCATTER)

/* The nominal features of a segment, hashed into its signature with the boundary's kind and
 * bytes: the deltas of these per-thread counters since the previous boundary. X(metric id) */
#define JS_SEG_FEATURES(X) \
    X(MPI_SEND_CALLS) X(MPI_SEND_BYTES) X(MPI_RECV_CALLS) X(MPI_RECV_BYTES) X(MPI_COLL_CALLS) X(MPI_COLL_BYTES) \
    X(POSIX_READ_CALLS) X(POSIX_READ_BYTES) X(POSIX_WRITE_CALLS) X(POSIX_WRITE_BYTES) X(POSIX_OPEN_CALLS) \
    X(POSIX_META_CALLS) X(STDIO_READ_CALLS) X(STDIO_READ_BYTES) X(STDIO_WRITE_CALLS) X(STDIO_WRITE_BYTES) \
    X(STDIO_OPEN_CALLS) X(STDIO_META_CALLS) X(MPIIO_READ_CALLS) X(MPIIO_READ_BYTES) X(MPIIO_WRITE_CALLS) \
    X(MPIIO_WRITE_BYTES) X(MPIIO_META_CALLS)

/* "mpi_segments" (an empty object for a process that never called MPI_Init).
 * X(ID, "json name", type, "unit", "meaning") */
#define JS_PROFILE_SEGMENT_FIELDS(X) \
    X(BOUNDARIES,      "boundaries",      'u', "segments", "segments ended (boundaries passed), grouped or not") \
    X(UNGROUPED,       "ungrouped",       'u', "segments", "segments whose signature found no free group (JS_SEG_MAX_GROUPS)") \
    X(UNGROUPED_NS,    "ungrouped_ns",    'u', "ns",       "their summed duration") \
    X(BIN_MIN_NS,      "bin_min_ns",      'u', "ns",       "JS_SEG_BIN_MIN_NS: lower edge of the histograms' scale") \
    X(BIN_COUNT,       "bin_count",       'u', "",         "JS_SEG_BINS: bins over the scale") \
    X(DECADES,         "decades",         'u', "",         "JS_SEG_DECADES: bin b covers [bin_min_ns x 10^(decades x b / bin_count), the same for b + 1) ns") \
    X(GROUPS,          "groups",          'a', "",         "objects of JS_PROFILE_SEGMENT_GROUP_FIELDS, at most JS_SEG_MAX_GROUPS") \
    X(SLOWEST,         "slowest",         'a', "",         "objects of JS_PROFILE_SEGMENT_SLOW_FIELDS, at most JS_SEG_SLOWEST, slowest first")

/* One entry of "groups": the segments of one signature. X(ID, "json name", type, "unit", "meaning") */
#define JS_PROFILE_SEGMENT_GROUP_FIELDS(X) \
    X(SIGNATURE, "signature", 's', "",         "16 lower-case hex digits: FNV-1a over the features' deltas, the boundary's kind and bytes") \
    X(BOUNDARY,  "boundary",  's', "",         "the kind (JS_PROFILE_COLL_KINDS) of the collective that ends these segments") \
    X(COUNT,     "count",     'u', "segments", "segments of this signature") \
    X(SUM_NS,    "sum_ns",    'u', "ns",       "their summed duration") \
    X(MIN_NS,    "min_ns",    'u', "ns",       "the shortest") \
    X(MAX_NS,    "max_ns",    'u', "ns",       "the longest") \
    X(BINS,      "bins",      'a', "",         "[bin, count] for each non-empty bin, ascending by bin; the counts add up to count")

/* One entry of "slowest". X(ID, "json name", type, "unit", "meaning") */
#define JS_PROFILE_SEGMENT_SLOW_FIELDS(X) \
    X(END_NS, "end_ns", 'u', "ns", "wall clock (epoch) when the segment ended") \
    X(NS,     "ns",     'u', "ns", "its duration") \
    X(GROUP,  "group",  'i', "",   "its group's index in \"groups\", -1 when ungrouped")

/* The histogram's bins: lower edge of bin b (0 <= b <= JS_SEG_BINS; b = JS_SEG_BINS is the upper
 * edge of the scale, 10^12 ns), rounded to whole ns, strictly increasing; and the bin of a
 * duration: the largest b < JS_SEG_BINS with lo(b) <= ns, 0 below JS_SEG_BIN_MIN_NS. Integer
 * answers from one table, the same in the profiler and in the analysis. js_seg_bins_init() fills
 * the table (idempotent; the functions call it themselves when needed). */
void js_seg_bins_init(void);
uint64_t js_seg_bin_lo_ns(int b);
int js_seg_bin_of(uint64_t ns);

/*
 * Field types, for readers that validate generically.
 *   S string, U unsigned 64-bit integer, I signed 64-bit integer, B boolean,
 *   O object (described by its own list), A array (described in the docs).
 */
#define JS_PROFILE_T_S 's'
#define JS_PROFILE_T_U 'u'
#define JS_PROFILE_T_I 'i'
#define JS_PROFILE_T_B 'b'
#define JS_PROFILE_T_O 'o'
#define JS_PROFILE_T_A 'a'

/* Top-level members, in the order the writer emits them. X(ID, "json name", type, "unit", "meaning") */
#define JS_PROFILE_FIELDS(X) \
    X(FORMAT,          "format",          's', "",      "always JS_PROFILE_FORMAT_NAME") \
    X(VERSION,         "version",         'u', "",      "JS_PROFILE_VERSION of the writer") \
    X(CLUSTER,         "cluster",         's', "",      "JOBSCREEN_CLUSTER (empty when unset)") \
    X(JOB_ID,          "job_id",          'u', "",      "JOBSCREEN_JOB_ID") \
    X(STEP,            "step",            's', "",      "JOBSCREEN_STEP: a number, batch, extern or interactive") \
    X(NODE,            "node",            's', "",      "JOBSCREEN_NODE") \
    X(TASK_ID,         "task_id",         'i', "",      "JOBSCREEN_TASK_ID, -1 when unset") \
    X(HOSTNAME,        "hostname",        's', "",      "gethostname()") \
    X(PID,             "pid",             'u', "",      "process id") \
    X(PPID,            "ppid",            'u', "",      "parent process id") \
    X(UID,             "uid",             'u', "",      "real user id") \
    X(ORIGIN,          "origin",          's', "",      "start (the library was loaded into a new image) or fork (a forked child)") \
    X(END,             "end",             's', "",      "exit, _exit, exec, signal (killed by one) or unknown (gone, its end not seen): how the image ended") \
    X(EXIT_CODE,       "exit_code",       'i', "",      "exit status 0-255 when known, -1 otherwise (killed, or not seen)") \
    X(SIGNAL,          "signal",          'i', "",      "number of the signal that killed it, 0 otherwise") \
    X(EXE,             "exe",             's', "",      "/proc/self/exe, truncated to JS_PROFILE_MAX_STRING") \
    X(ARGS,            "args",            's', "",      "the command line, arguments separated by spaces, truncated") \
    X(SLICE_SECONDS,   "slice_seconds",   'u', "s",     "slice length L") \
    X(START_NS,        "start_ns",        'u', "ns",    "wall clock (epoch) when recording began") \
    X(END_NS,          "end_ns",          'u', "ns",    "wall clock (epoch) when the profile was written") \
    X(MPI_RANK,        "mpi_rank",        'i', "",      "rank in MPI_COMM_WORLD, -1 when not an MPI process") \
    X(MPI_SIZE,        "mpi_size",        'i', "",      "size of MPI_COMM_WORLD, -1 when not an MPI process") \
    X(THREADS_PEAK,    "threads_peak",    'u', "threads", "most threads that did I/O or MPI at once, plus the main thread") \
    X(THREADS_SEEN,    "threads_seen",    'u', "threads", "threads that made at least one recorded call, plus the main thread") \
    X(WALL_NS,         "wall_ns",         'u', "ns",    "end_ns - start_ns") \
    X(CPU_USER_NS,     "cpu_user_ns",     'u', "ns",    "user CPU time of all threads of this image (getrusage; since version 4 less what the process used before its exec)") \
    X(CPU_SYS_NS,      "cpu_sys_ns",      'u', "ns",    "system CPU time of all threads of this image (likewise)") \
    X(MAX_RSS_KIB,     "max_rss_kib",     'u', "KiB",   "peak resident set size (getrusage)") \
    X(KERNEL_IO,       "kernel_io",       'o', "",      "the kernel's own I/O counts of this image (/proc/self/io), see JS_PROFILE_KERNEL_IO_FIELDS") \
    X(RUNTIME,         "runtime",         'o', "",      "runtime share, see JS_PROFILE_RUNTIME_FIELDS") \
    X(TOTALS,          "totals",          'o', "",      "every metric of JS_PROFILE_METRICS over the whole image") \
    X(SYNC_CALLS,      "sync_calls",      'u', "calls", "(since version 8) fsync, fdatasync, sync_file_range, syncfs, sync, msync, and writes on descriptors opened with O_SYNC or O_DSYNC: in no metadata count (a write is a write as well)") \
    X(SYNC_NS,         "sync_ns",         'u', "ns",    "(since version 8) time in those calls, part of totals.posix_ns") \
    X(MPI_COLLECTIVES, "mpi_collectives", 'o', "",      "per kind of JS_PROFILE_COLL_KINDS: {calls, bytes, ns}; only kinds used") \
    X(MPI_SEGMENTS,    "mpi_segments",    'o', "",      "(since version 6) durations of the segments between global blocking collectives, see JS_PROFILE_SEGMENT_FIELDS; {} when not an MPI process") \
    X(SLICE_METRICS,   "slice_metrics",   'a', "",      "(not in a bundle of version 2) the names of the values of a slice row: those of JS_PROFILE_METRICS, then (since version 5) \"kernel_\" and each name of JS_PROFILE_KERNEL_IO_FIELDS, in order") \
    X(SLICES,          "slices",          'a', "",      "(not in a bundle of version 2) rows [slice index, value per slice_metrics...] for slices with activity, ascending") \
    X(SLICES_TRUNCATED,"slices_truncated",'b', "",      "true when the slice budget was exhausted: later slices are missing") \
    X(FILES,           "files",           'a', "",      "file-access list, objects of JS_PROFILE_FILE_FIELDS") \
    X(FILES_DROPPED,   "files_dropped",   'u', "files", "files not listed because the list was full") \
    X(TREES,           "trees",           'a', "",      "software trees (system, package, library directories, and since version 8 the directories of code read: modules, bytecode, shared objects), objects of JS_PROFILE_TREE_FIELDS: their files counted together, not listed") \
    X(CODE_DROPPED,    "code_dropped",    'u', "files", "(since version 8) opens of code files not counted in any tree because the list of trees was full (the data files keep their room)") \
    X(RENAMES,         "renames",         'a', "",      "renames this image made, objects of JS_PROFILE_RENAME_FIELDS, in order") \
    X(RENAMES_DROPPED, "renames_dropped", 'u', "renames", "renames not listed because the list was full") \
    X(MISSING,         "missing",         's', "",      "empty when the record is complete, else what is missing, in words")

/* Runtime share: times summed over the process's threads; they add up to the image's time budget,
 * max(wall_ns, compute + I/O + MPI), so a multi-threaded image has more than its wall time.
 * X(ID, "json name", "meaning") */
#define JS_PROFILE_RUNTIME_FIELDS(X) \
    X(IO_POSIX_NS,  "io_posix_ns",  "= totals.posix_ns") \
    X(IO_STDIO_NS,  "io_stdio_ns",  "= totals.stdio_ns") \
    X(IO_MPIIO_NS,  "io_mpiio_ns",  "= totals.mpiio_ns") \
    X(MPI_P2P_NS,   "mpi_p2p_ns",   "= totals.mpi_p2p_ns") \
    X(MPI_COLL_NS,  "mpi_coll_ns",  "= totals.mpi_coll_ns") \
    X(MPI_SETUP_NS, "mpi_setup_ns", "time in MPI_Init, MPI_Init_thread and MPI_Finalize (in no metric above)") \
    X(COMPUTE_NS,   "compute_ns",   "CPU time outside I/O and MPI calls: user + system - min(system, I/O time) - MPI time, at least 0 (I/O calls spend system time, at most their own time; MPI libraries poll on the CPU)") \
    X(CPU_WAIT_NS,  "cpu_wait_ns",  "of wall - compute - I/O - MPI, the time runnable but waiting for a CPU (the scheduler's run delay of the image's threads, /proc/self/task/<tid>/schedstat): the node was busy") \
    X(IDLE_NS,      "idle_ns",      "the rest of the budget: max(wall, compute + I/O + MPI) - compute - I/O - MPI - cpu_wait, time neither computing, nor waiting for a CPU, nor in a recorded call (sleep, waiting for children, locks or pages)")

/* "kernel_io": the kernel's counts of the image's threads (/proc/self/task/<tid>/io: not those of
 * the children it reaped), at its end minus at its start (an exec'd image does not inherit its
 * predecessor's counts), less the profiler's own reads and writes. Beside the wrappers' figures
 * they show I/O no wrapper saw. An empty object when unknown: the process was killed before the
 * profiler first read them (at its first slice boundary).
 * X(ID, "json name", "unit", "meaning") */
#define JS_PROFILE_KERNEL_IO_FIELDS(X) \
    X(RCHAR,       "rchar",       "bytes", "bytes returned by read-like system calls on anything (files, pipes, sockets, terminals)") \
    X(WCHAR,       "wchar",       "bytes", "bytes passed to write-like system calls on anything") \
    X(SYSCR,       "syscr",       "calls", "read-like system calls") \
    X(SYSCW,       "syscw",       "calls", "write-like system calls") \
    X(READ_BYTES,  "read_bytes",  "bytes", "bytes the image caused to be fetched from storage") \
    X(WRITE_BYTES, "write_bytes", "bytes", "bytes the image caused to be sent to storage (dirtied page cache)")

/* One entry of "files". X(ID, "json name", type, "unit", "meaning") */
#define JS_PROFILE_FILE_FIELDS(X) \
    X(PATH,          "path",          's', "",      "absolute path, resolved through symbolic links (the kernel's name of the open file)") \
    X(OPENED_AS,     "opened_as",     's', "",      "the absolute path as opened, when it differs from path (a link on the way); else empty") \
    X(LAYER,         "layer",         's', "",      "posix, stdio or mpiio: the interface the application opened it with") \
    X(DEV,           "dev",           'u', "",      "st_dev at first open (0 when unknown)") \
    X(INO,           "ino",           'u', "",      "st_ino at first open (0 when unknown)") \
    X(BTIME,         "btime",         'u', "ns",    "(since version 9) the file's birth time at first open (statx STATX_BTIME), ns since the epoch; 0 when the file system does not report it. With dev and ino the file's identity: a freed inode reused by a new file has a new birth time") \
    X(MOUNT,         "mount",         's', "",      "mount point holding the file, from /proc/self/mountinfo") \
    X(FSTYPE,        "fstype",        's', "",      "file system type of that mount (ext4, tmpfs, lustre, nfs4, ...)") \
    X(OPEN_MODE,     "open_mode",     's', "",      "r, w or rw: union of the access modes it was opened with") \
    X(USED_MODE,     "used_mode",     's', "",      "r, w, rw or none: what was actually done to it") \
    X(OPENS,         "opens",         'u', "calls", "successful opens") \
    X(READ_CALLS,    "read_calls",    'u', "calls", "reads at this layer") \
    X(READ_BYTES,    "read_bytes",    'u', "bytes", "bytes read at this layer") \
    X(WRITE_CALLS,   "write_calls",   'u', "calls", "writes at this layer") \
    X(WRITE_BYTES,   "write_bytes",   'u', "bytes", "bytes written at this layer") \
    X(LOWER_READ_BYTES,  "lower_read_bytes",  'u', "bytes", "POSIX bytes read below this layer (mpiio), else 0") \
    X(LOWER_WRITE_BYTES, "lower_write_bytes", 'u', "bytes", "POSIX bytes written below this layer (mpiio), else 0") \
    X(MAPPED_BYTES,  "mapped_bytes",  'u', "bytes", "bytes of the file mapped into memory (mmap); what the program then touched is not seen") \
    X(FIRST_OPEN_NS, "first_open_ns", 'u', "ns",    "wall clock of the first open") \
    X(LAST_CLOSE_NS, "last_close_ns", 'u', "ns",    "wall clock of the last close; end_ns when still open at the end")

/* One entry of "trees": the files opened under a software tree, counted together.
 * X(ID, "json name", type, "unit", "meaning") */
#define JS_PROFILE_TREE_FIELDS(X) \
    X(PATH,          "path",          's', "",      "the tree: /usr/lib, /etc, a site-packages or lib/pythonX.Y directory, the directory of a shared library, ...") \
    X(OPENS,         "opens",         'u', "calls", "successful opens of files under it") \
    X(READ_BYTES,    "read_bytes",    'u', "bytes", "bytes read from them (all layers)") \
    X(WRITE_BYTES,   "write_bytes",   'u', "bytes", "bytes written to them (all layers)")

/* One entry of "renames": rename(2), renameat(2) or renameat2(2) that succeeded.
 * X(ID, "json name", type, "unit", "meaning") */
#define JS_PROFILE_RENAME_FIELDS(X) \
    X(FROM,          "from",          's', "",      "absolute old path (its directory resolved through links)") \
    X(TO,            "to",            's', "",      "absolute new path (resolved through links)") \
    X(FSTYPE,        "fstype",        's', "",      "file system type of the mount holding it (a rename never leaves one)") \
    X(NS,            "ns",            'u', "ns",    "wall clock of the rename")

enum js_metric {
#define JS_X(id, name, unit, desc) JS_M_##id,
    JS_PROFILE_METRICS(JS_X)
#undef JS_X
    JS_M_COUNT
};

enum js_kernel_io {
#define JS_X(id, name, unit, desc) JS_KIO_##id,
    JS_PROFILE_KERNEL_IO_FIELDS(JS_X)
#undef JS_X
    JS_KIO_COUNT
};

/* A slice row's values (version 5): the metrics, then the kernel's counts in the slice (the
 * JS_PROFILE_KERNEL_IO_FIELDS, as "kernel_rchar", ...). The kernel's counts are read at the
 * profiler's folds (each slice boundary a thread crosses); what one fold read is spread over the
 * slices since the one before by wall-clock overlap, as CPU time is. Zeros when unknown
 * ("kernel_io" empty). */
#define JS_SLICE_COLS (JS_M_COUNT + JS_KIO_COUNT)

enum js_coll_kind {
#define JS_X(id, name) JS_COLL_##id,
    JS_PROFILE_COLL_KINDS(JS_X)
#undef JS_X
    JS_COLL_COUNT
};

struct js_metric_def {
    const char *name; /* JSON name */
    const char *unit; /* calls, bytes or ns */
    const char *desc;
};

/* Tables built from the lists above (common/profile_format.c). */
extern const struct js_metric_def js_profile_metrics[JS_M_COUNT];
extern const char *const js_profile_coll_kinds[JS_COLL_COUNT];
/* The values of a slice row (JS_SLICE_COLS): the metrics, then "kernel_rchar", ... */
extern const struct js_metric_def js_profile_slice_cols[JS_SLICE_COLS];

/* Whether a top-level member (JS_PROFILE_FIELDS) is in a profile inside a bundle of version 2:
 * not slice_metrics and slices, which are summed into the bundle's series (a profile in a file
 * of its own keeps them). */
int js_profile_member_bundled(const char *name);

/* Index of a metric or collective kind by JSON name; -1 when unknown. */
int js_profile_metric_index(const char *name);
int js_profile_coll_kind_index(const char *name);

#endif
