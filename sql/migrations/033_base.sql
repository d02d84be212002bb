-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 033: the tables of release 0.1.0, squashed.
--
-- Migrations 001-033 of release 0.1.0 built these tables, indexes and constraints step by step;
-- this file is what they left, written out once (pg_dump of a database they built, without the
-- views and functions, which live in sql/views/, sql/functions/ and sql/types/ and are created
-- anew by every migrate). A database of release 0.1.0 has version 33 recorded and skips it; a
-- database below 33 is refused: it upgrades with release 0.1.0 first (docs/schema.md,
-- "Migrations"). It is history: never edited, a change is a new migration.
--
-- js_data.series_chunk_of stays here with the tables: their CHECK constraints call it.

CREATE SCHEMA js;

COMMENT ON SCHEMA js IS 'jobscreen views: the contract for the web CGI, admins and reports';

COMMENT ON SCHEMA js_data IS 'jobscreen tables, written by profile_ingest; read through the views in schema js';

CREATE FUNCTION js_data.series_chunk_of(p_slice bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$SELECT p_slice - ((p_slice % 900) + 900) % 900$$;

COMMENT ON FUNCTION js_data.series_chunk_of(p_slice bigint) IS 'first slice of the chunk that holds a slice';

CREATE TABLE js_data.clusters (
    cluster_id smallint NOT NULL,
    name text NOT NULL,
    slice_seconds integer DEFAULT 4 NOT NULL,
    first_seen timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT clusters_slice_seconds_check CHECK (((slice_seconds >= 1) AND (slice_seconds <= 3600)))
);

COMMENT ON TABLE js_data.clusters IS 'Slurm clusters (ClusterName) whose spools are ingested';

COMMENT ON COLUMN js_data.clusters.cluster_id IS 'small surrogate key used in every other table';

COMMENT ON COLUMN js_data.clusters.name IS 'Slurm ClusterName as the job record names it';

COMMENT ON COLUMN js_data.clusters.slice_seconds IS 'slice length L in seconds: slice = floor(epoch seconds / L)';

COMMENT ON COLUMN js_data.clusters.first_seen IS 'when the first record of this cluster was ingested';

CREATE TABLE js_data.dependencies (
    cluster_id smallint NOT NULL,
    kind text NOT NULL,
    from_job bigint NOT NULL,
    from_step text DEFAULT ''::text NOT NULL,
    to_job bigint NOT NULL,
    to_step text DEFAULT ''::text NOT NULL,
    file_id bigint DEFAULT 0 NOT NULL,
    condition text,
    from_time timestamp with time zone,
    to_time timestamp with time zone,
    created timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT dependencies_kind_check CHECK ((kind = ANY (ARRAY['scheduler'::text, 'file'::text, 'time'::text])))
);

COMMENT ON TABLE js_data.dependencies IS 'stored dependency edges: scheduler (from the job record''s dependency string) and file (a step wrote a file a step of another job read later); time edges are derived in view js.dependencies';

COMMENT ON COLUMN js_data.dependencies.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.dependencies.kind IS 'scheduler or file';

COMMENT ON COLUMN js_data.dependencies.from_job IS 'upstream job';

COMMENT ON COLUMN js_data.dependencies.from_step IS 'upstream step (file edges), empty for a job-level edge';

COMMENT ON COLUMN js_data.dependencies.to_job IS 'downstream job';

COMMENT ON COLUMN js_data.dependencies.to_step IS 'downstream step (file edges), empty for a job-level edge';

COMMENT ON COLUMN js_data.dependencies.file_id IS 'file edges: the file written then read; 0 for scheduler edges';

COMMENT ON COLUMN js_data.dependencies.condition IS 'scheduler edges: the condition (afterok, afterany, afternotok, after, aftercorr, singleton)';

COMMENT ON COLUMN js_data.dependencies.from_time IS 'file edges: the writer''s last write';

COMMENT ON COLUMN js_data.dependencies.to_time IS 'file edges: the reader''s first read';

COMMENT ON COLUMN js_data.dependencies.created IS 'when the ingest derived the edge';

CREATE TABLE js_data.files (
    cluster_id smallint NOT NULL,
    file_id bigint NOT NULL,
    path text NOT NULL,
    node text DEFAULT ''::text NOT NULL,
    scope text NOT NULL,
    fs_type text,
    CONSTRAINT files_scope_check CHECK ((scope = ANY (ARRAY['shared'::text, 'local'::text])))
);

COMMENT ON TABLE js_data.files IS 'file identities: a path on a shared file system is one file cluster-wide, a node-local path is one file per node';

COMMENT ON COLUMN js_data.files.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.files.file_id IS 'surrogate key';

COMMENT ON COLUMN js_data.files.path IS 'absolute path as the profiler resolved it';

COMMENT ON COLUMN js_data.files.node IS 'node name for a node-local file, empty for a shared one';

COMMENT ON COLUMN js_data.files.scope IS 'shared or local, from the file system type the profiler saw';

COMMENT ON COLUMN js_data.files.fs_type IS 'file system type name (nfs, lustre, ext4, tmpfs, ...) when known';

CREATE TABLE js_data.jobs (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    uid integer NOT NULL,
    gid integer,
    name text,
    partition text,
    account text,
    workflow_tag text,
    workflow_id bigint,
    submit_time timestamp with time zone,
    start_time timestamp with time zone,
    end_time timestamp with time zone,
    state text,
    exit_code integer,
    num_nodes integer,
    num_cpus integer,
    num_tasks integer,
    nodelist text,
    dependency text,
    work_dir text,
    record jsonb NOT NULL,
    updated timestamp with time zone DEFAULT now() NOT NULL,
    array_job_id bigint,
    array_task_id integer,
    reason text
);

COMMENT ON TABLE js_data.jobs IS 'Slurm jobs, from the root-written job record (docs/record-format.md)';

COMMENT ON COLUMN js_data.jobs.cluster_id IS 'cluster the job ran on';

COMMENT ON COLUMN js_data.jobs.job_id IS 'Slurm job id (distribution column for Citus)';

COMMENT ON COLUMN js_data.jobs.uid IS 'job user (profiles are accepted only from files this uid owns)';

COMMENT ON COLUMN js_data.jobs.gid IS 'job group';

COMMENT ON COLUMN js_data.jobs.name IS 'job name (--job-name)';

COMMENT ON COLUMN js_data.jobs.partition IS 'Slurm partition';

COMMENT ON COLUMN js_data.jobs.account IS 'Slurm account';

COMMENT ON COLUMN js_data.jobs.workflow_tag IS 'the --workflow tag given at submission, NULL if none';

COMMENT ON COLUMN js_data.jobs.workflow_id IS 'workflow the job belongs to (js_data.workflows)';

COMMENT ON COLUMN js_data.jobs.submit_time IS 'submission time';

COMMENT ON COLUMN js_data.jobs.start_time IS 'start time';

COMMENT ON COLUMN js_data.jobs.end_time IS 'end time, NULL while the record was written before the job ended';

COMMENT ON COLUMN js_data.jobs.state IS 'job state as the record gives it (RUNNING, COMPLETED, FAILED, ...)';

COMMENT ON COLUMN js_data.jobs.exit_code IS 'job exit code';

COMMENT ON COLUMN js_data.jobs.num_nodes IS 'number of nodes allocated';

COMMENT ON COLUMN js_data.jobs.num_cpus IS 'number of CPUs allocated';

COMMENT ON COLUMN js_data.jobs.num_tasks IS 'number of tasks requested';

COMMENT ON COLUMN js_data.jobs.nodelist IS 'Slurm node list expression of the allocation';

COMMENT ON COLUMN js_data.jobs.dependency IS 'the dependency string captured while the job was alive (e.g. afterok:12:13)';

COMMENT ON COLUMN js_data.jobs.work_dir IS 'working directory of the job';

COMMENT ON COLUMN js_data.jobs.record IS 'the whole job record as ingested, for fields without a column';

COMMENT ON COLUMN js_data.jobs.updated IS 'when the ingest last wrote this row';

COMMENT ON COLUMN js_data.jobs.array_job_id IS 'job id of the array this job is a task of (Slurm''s ArrayJobId), NULL if none';

COMMENT ON COLUMN js_data.jobs.array_task_id IS 'index of this task in its array (35_1: 1), NULL if none';

COMMENT ON COLUMN js_data.jobs.reason IS 'Slurm''s reason for the job''s state: why a job that never started waited (DependencyNeverSatisfied, JobHeldUser), why one ended (TimeLimit, NonZeroExitCode); NULL when Slurm gave none';

CREATE TABLE js_data.file_accesses (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    file_id bigint NOT NULL,
    mode text NOT NULL,
    processes integer NOT NULL,
    opens bigint DEFAULT 0 NOT NULL,
    reads bigint DEFAULT 0 NOT NULL,
    writes bigint DEFAULT 0 NOT NULL,
    bytes_read bigint DEFAULT 0 NOT NULL,
    bytes_written bigint DEFAULT 0 NOT NULL,
    first_access timestamp with time zone,
    last_access timestamp with time zone,
    first_read timestamp with time zone,
    last_write timestamp with time zone,
    parent_file_id bigint,
    interfaces text,
    dev bigint,
    ino bigint,
    mapped_bytes bigint DEFAULT 0 NOT NULL,
    CONSTRAINT file_accesses_mode_check CHECK ((mode = ANY (ARRAY['r'::text, 'w'::text, 'rw'::text])))
);

COMMENT ON TABLE js_data.file_accesses IS 'what a step did to a file on one node, summed over its processes';

COMMENT ON COLUMN js_data.file_accesses.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.file_accesses.job_id IS 'Slurm job id';

COMMENT ON COLUMN js_data.file_accesses.step_id IS 'step id in words';

COMMENT ON COLUMN js_data.file_accesses.node IS 'node the processes ran on';

COMMENT ON COLUMN js_data.file_accesses.file_id IS 'the file (js_data.files)';

COMMENT ON COLUMN js_data.file_accesses.mode IS 'r read-only, w write-only, rw read and written by the step';

COMMENT ON COLUMN js_data.file_accesses.processes IS 'number of processes that accessed the file';

COMMENT ON COLUMN js_data.file_accesses.opens IS 'open calls';

COMMENT ON COLUMN js_data.file_accesses.reads IS 'read calls';

COMMENT ON COLUMN js_data.file_accesses.writes IS 'write calls';

COMMENT ON COLUMN js_data.file_accesses.bytes_read IS 'bytes read';

COMMENT ON COLUMN js_data.file_accesses.bytes_written IS 'bytes written';

COMMENT ON COLUMN js_data.file_accesses.first_access IS 'first access by any process';

COMMENT ON COLUMN js_data.file_accesses.last_access IS 'last access by any process';

COMMENT ON COLUMN js_data.file_accesses.first_read IS 'first read by any process (NULL if never read)';

COMMENT ON COLUMN js_data.file_accesses.last_write IS 'last write by any process (NULL if never written)';

COMMENT ON COLUMN js_data.file_accesses.parent_file_id IS 'for a lower-layer access, the file of the upper layer it served (e.g. the HDF5 file of a POSIX access)';

COMMENT ON COLUMN js_data.file_accesses.interfaces IS 'comma-separated I/O interfaces used (posix, stdio, mpiio, ...)';

COMMENT ON COLUMN js_data.file_accesses.dev IS 'st_dev of the file at the step''s first open of it on the node (NULL: unknown)';

COMMENT ON COLUMN js_data.file_accesses.ino IS 'st_ino of the file at that open (NULL: unknown; above 2^63 it reads negative)';

COMMENT ON COLUMN js_data.file_accesses.mapped_bytes IS 'bytes of the file mapped into memory (mmap) by the step''s processes on the node';

CREATE TABLE js_data.step_nodes (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    start_time timestamp with time zone,
    end_time timestamp with time zone,
    state text,
    exit_code integer,
    num_tasks integer,
    profiles integer DEFAULT 0 NOT NULL,
    quarantined integer DEFAULT 0 NOT NULL,
    incomplete boolean DEFAULT false NOT NULL,
    record jsonb NOT NULL,
    ingested_at timestamp with time zone DEFAULT now() NOT NULL,
    ingested_by text,
    incomplete_reason text,
    unrecorded integer DEFAULT 0 NOT NULL,
    unrecorded_reason text
);

COMMENT ON TABLE js_data.step_nodes IS 'one row per ingested step record (a step on one node): the unit and exactly-once key of the ingest';

COMMENT ON COLUMN js_data.step_nodes.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.step_nodes.job_id IS 'Slurm job id';

COMMENT ON COLUMN js_data.step_nodes.step_id IS 'step id in words';

COMMENT ON COLUMN js_data.step_nodes.node IS 'Slurm node name';

COMMENT ON COLUMN js_data.step_nodes.start_time IS 'step start on this node';

COMMENT ON COLUMN js_data.step_nodes.end_time IS 'step end on this node';

COMMENT ON COLUMN js_data.step_nodes.state IS 'step state on this node';

COMMENT ON COLUMN js_data.step_nodes.exit_code IS 'exit code on this node';

COMMENT ON COLUMN js_data.step_nodes.num_tasks IS 'tasks of the step on this node';

COMMENT ON COLUMN js_data.step_nodes.profiles IS 'profiles accepted for this step on this node';

COMMENT ON COLUMN js_data.step_nodes.quarantined IS 'profiles of this step on this node that were quarantined';

COMMENT ON COLUMN js_data.step_nodes.incomplete IS 'true when a profile was quarantined, a profile says part of it is missing, or processes were not recorded: the step''s data on this node is partial';

COMMENT ON COLUMN js_data.step_nodes.record IS 'the step record as ingested';

COMMENT ON COLUMN js_data.step_nodes.ingested_at IS 'commit time of the ingest transaction';

COMMENT ON COLUMN js_data.step_nodes.ingested_by IS 'host:pid of the profile_ingest that ingested it';

COMMENT ON COLUMN js_data.step_nodes.incomplete_reason IS 'what is missing when incomplete, in words (e.g. 2 processes: CPU time after the kill); NULL when complete';

COMMENT ON COLUMN js_data.step_nodes.unrecorded IS 'processes of the step on this node the profiler refused to record (the job''s spool quota was reached), summed over its bundles; 0: none';

COMMENT ON COLUMN js_data.step_nodes.unrecorded_reason IS 'why processes were not recorded, as the first bundle that said so gave it; NULL when none were refused or no reason was given';

CREATE TABLE js_data.live_step_nodes (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    start_time timestamp with time zone,
    snapshot_time timestamp with time zone NOT NULL,
    profiles integer DEFAULT 0 NOT NULL,
    running integer DEFAULT 0 NOT NULL,
    ingested_at timestamp with time zone DEFAULT now() NOT NULL,
    ingested_by text
);

COMMENT ON TABLE js_data.live_step_nodes IS 'provisional: a step on a node that is still running, from its newest live snapshot; deleted when its step record is ingested';

COMMENT ON COLUMN js_data.live_step_nodes.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.live_step_nodes.job_id IS 'Slurm job id';

COMMENT ON COLUMN js_data.live_step_nodes.step_id IS 'step id in words';

COMMENT ON COLUMN js_data.live_step_nodes.node IS 'Slurm node name';

COMMENT ON COLUMN js_data.live_step_nodes.start_time IS 'earliest start of the snapshot''s processes';

COMMENT ON COLUMN js_data.live_step_nodes.snapshot_time IS 'modification time of the snapshot file stored (a snapshot of the same time is not stored again)';

COMMENT ON COLUMN js_data.live_step_nodes.profiles IS 'profiles (processes) in the snapshot';

COMMENT ON COLUMN js_data.live_step_nodes.running IS 'of them, processes still running (end "running")';

COMMENT ON COLUMN js_data.live_step_nodes.ingested_at IS 'commit time of the transaction that stored the snapshot';

COMMENT ON COLUMN js_data.live_step_nodes.ingested_by IS 'host:pid of the profile_ingest that stored it';

CREATE TABLE js_data.steps (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    name text,
    start_time timestamp with time zone,
    end_time timestamp with time zone,
    state text,
    exit_code integer,
    num_nodes integer,
    num_tasks integer,
    num_cpus integer,
    nodelist text,
    profiled boolean DEFAULT true NOT NULL,
    first_slice bigint,
    last_slice bigint,
    nodes_ingested integer DEFAULT 0 NOT NULL,
    incomplete boolean DEFAULT false NOT NULL,
    incomplete_reason text,
    processes integer DEFAULT 0 NOT NULL,
    wall_ns bigint DEFAULT 0 NOT NULL,
    compute_ns bigint DEFAULT 0 NOT NULL,
    mpi_p2p_ns bigint DEFAULT 0 NOT NULL,
    mpi_coll_ns bigint DEFAULT 0 NOT NULL,
    io_posix_ns bigint DEFAULT 0 NOT NULL,
    io_stdio_ns bigint DEFAULT 0 NOT NULL,
    io_mpiio_ns bigint DEFAULT 0 NOT NULL,
    read_bytes bigint DEFAULT 0 NOT NULL,
    write_bytes bigint DEFAULT 0 NOT NULL,
    meta_calls bigint DEFAULT 0 NOT NULL,
    cpu_ns bigint DEFAULT 0 NOT NULL,
    killed_processes integer DEFAULT 0 NOT NULL,
    files_dropped bigint DEFAULT 0 NOT NULL,
    idle_ns bigint,
    mpi_setup_ns bigint,
    cpu_wait_ns bigint,
    max_rss_kib bigint,
    unattributed_read_bytes bigint,
    unattributed_write_bytes bigint,
    kernel_io_unknown integer DEFAULT 0 NOT NULL
);

COMMENT ON TABLE js_data.steps IS 'job steps (one srun, or the batch/extern/interactive step), merged over the step''s nodes';

COMMENT ON COLUMN js_data.steps.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.steps.job_id IS 'Slurm job id';

COMMENT ON COLUMN js_data.steps.step_id IS 'step id in words: a number, or batch, extern, interactive';

COMMENT ON COLUMN js_data.steps.name IS 'executable or step name from the step record';

COMMENT ON COLUMN js_data.steps.start_time IS 'earliest start over the step''s nodes';

COMMENT ON COLUMN js_data.steps.end_time IS 'latest end over the step''s nodes';

COMMENT ON COLUMN js_data.steps.state IS 'step state from the step record (of the last node ingested)';

COMMENT ON COLUMN js_data.steps.exit_code IS 'largest exit code over the step''s nodes';

COMMENT ON COLUMN js_data.steps.num_nodes IS 'number of nodes of the step';

COMMENT ON COLUMN js_data.steps.num_tasks IS 'number of tasks of the step';

COMMENT ON COLUMN js_data.steps.num_cpus IS 'number of CPUs of the step';

COMMENT ON COLUMN js_data.steps.nodelist IS 'node list expression of the step';

COMMENT ON COLUMN js_data.steps.profiled IS 'false when the step opted out (--no-profile)';

COMMENT ON COLUMN js_data.steps.first_slice IS 'first slice with metrics of this step (any node)';

COMMENT ON COLUMN js_data.steps.last_slice IS 'last slice with metrics of this step (any node)';

COMMENT ON COLUMN js_data.steps.nodes_ingested IS 'how many of the step''s nodes have been ingested';

COMMENT ON COLUMN js_data.steps.incomplete IS 'true when a node of the step is incomplete (a quarantined profile, a profile with something missing, processes not recorded)';

COMMENT ON COLUMN js_data.steps.incomplete_reason IS 'what is missing when incomplete, in words, counted over the step''s nodes; NULL when complete';

COMMENT ON COLUMN js_data.steps.processes IS 'over the step''s ingested processes: count(*) (js.steps)';

COMMENT ON COLUMN js_data.steps.wall_ns IS 'over the step''s ingested processes: sum(p.wall_ns) (js.steps)';

COMMENT ON COLUMN js_data.steps.compute_ns IS 'over the step''s ingested processes: sum(p.compute_ns) (js.steps)';

COMMENT ON COLUMN js_data.steps.mpi_p2p_ns IS 'over the step''s ingested processes: sum(p.mpi_p2p_ns) (js.steps)';

COMMENT ON COLUMN js_data.steps.mpi_coll_ns IS 'over the step''s ingested processes: sum(p.mpi_coll_ns) (js.steps)';

COMMENT ON COLUMN js_data.steps.io_posix_ns IS 'over the step''s ingested processes: sum(p.posix_ns) (js.steps)';

COMMENT ON COLUMN js_data.steps.io_stdio_ns IS 'over the step''s ingested processes: sum(p.stdio_ns) (js.steps)';

COMMENT ON COLUMN js_data.steps.io_mpiio_ns IS 'over the step''s ingested processes: sum(p.mpiio_ns) (js.steps)';

COMMENT ON COLUMN js_data.steps.read_bytes IS 'over the step''s ingested processes: sum(p.posix_read_bytes) + sum(p.stdio_read_bytes) + sum(p.mpiio_read_bytes) (js.steps)';

COMMENT ON COLUMN js_data.steps.write_bytes IS 'over the step''s ingested processes: sum(p.posix_write_bytes) + sum(p.stdio_write_bytes) + sum(p.mpiio_write_bytes) (js.steps)';

COMMENT ON COLUMN js_data.steps.meta_calls IS 'over the step''s ingested processes: sum(p.posix_open_calls) + sum(p.posix_meta_calls) + sum(p.stdio_open_calls) + sum(p.stdio_meta_calls) + sum(p.mpiio_meta_calls) (js.steps)';

COMMENT ON COLUMN js_data.steps.cpu_ns IS 'over the step''s ingested processes: sum(p.cpu_ns) (js.steps)';

COMMENT ON COLUMN js_data.steps.killed_processes IS 'over the step''s ingested processes: count(*) FILTER (WHERE p.ended_by = ''signal'') (js.steps)';

COMMENT ON COLUMN js_data.steps.files_dropped IS 'over the step''s ingested processes: sum(p.files_dropped) (js.steps)';

COMMENT ON COLUMN js_data.steps.idle_ns IS 'over the step''s ingested processes: sum(p.idle_ns) (js.steps)';

COMMENT ON COLUMN js_data.steps.mpi_setup_ns IS 'over the step''s ingested processes: sum(p.mpi_setup_ns) (js.steps)';

COMMENT ON COLUMN js_data.steps.cpu_wait_ns IS 'over the step''s ingested processes: sum(p.cpu_wait_ns) (js.steps)';

COMMENT ON COLUMN js_data.steps.max_rss_kib IS 'over the step''s ingested processes: max(p.max_rss_kib) (js.steps)';

COMMENT ON COLUMN js_data.steps.unattributed_read_bytes IS 'over the step''s ingested processes: sum(js_data.unattributed(p.kernel_rchar, p.posix_read_bytes + p.stdio_read_bytes + p.lower_read_bytes)) (js.steps)';

COMMENT ON COLUMN js_data.steps.unattributed_write_bytes IS 'over the step''s ingested processes: sum(js_data.unattributed(p.kernel_wchar, p.posix_write_bytes + p.stdio_write_bytes + p.lower_write_bytes)) (js.steps)';

COMMENT ON COLUMN js_data.steps.kernel_io_unknown IS 'over the step''s ingested processes: count(*) FILTER (WHERE p.kernel_rchar IS NULL) (js.steps)';

CREATE TABLE js_data.users (
    cluster_id smallint NOT NULL,
    uid integer NOT NULL,
    name text NOT NULL
);

COMMENT ON TABLE js_data.users IS 'job owners as the root-written job records name them';

COMMENT ON COLUMN js_data.users.cluster_id IS 'cluster the uid belongs to';

COMMENT ON COLUMN js_data.users.uid IS 'numeric Unix uid of the job user';

COMMENT ON COLUMN js_data.users.name IS 'user name (the name the web server authenticates)';

CREATE TABLE js_data.workflows (
    cluster_id smallint NOT NULL,
    workflow_id bigint NOT NULL,
    uid integer NOT NULL,
    tag text,
    name text NOT NULL,
    created timestamp with time zone DEFAULT now() NOT NULL,
    jobs integer DEFAULT 0 NOT NULL,
    jobs_not_ok integer DEFAULT 0 NOT NULL,
    first_submit timestamp with time zone,
    first_start timestamp with time zone,
    last_end timestamp with time zone
);

COMMENT ON TABLE js_data.workflows IS 'workflows: one per (user, --workflow tag), else one per connected component of scheduler and file edges among a user''s untagged jobs';

COMMENT ON COLUMN js_data.workflows.cluster_id IS 'cluster of the workflow''s jobs';

COMMENT ON COLUMN js_data.workflows.workflow_id IS 'surrogate key; a derived workflow keeps the smallest id when two merge';

COMMENT ON COLUMN js_data.workflows.uid IS 'owner of every job in the workflow';

COMMENT ON COLUMN js_data.workflows.tag IS 'the explicit --workflow tag, NULL for a derived workflow';

COMMENT ON COLUMN js_data.workflows.name IS 'the tag, or the name of the first job of a derived workflow';

COMMENT ON COLUMN js_data.workflows.created IS 'when the ingest created the workflow';

COMMENT ON COLUMN js_data.workflows.jobs IS 'its jobs (kept by js_data.workflow_summarise)';

COMMENT ON COLUMN js_data.workflows.jobs_not_ok IS 'its jobs in a state other than COMPLETED or RUNNING';

COMMENT ON COLUMN js_data.workflows.first_submit IS 'the first submit time of its jobs';

COMMENT ON COLUMN js_data.workflows.first_start IS 'the first start time of its jobs';

COMMENT ON COLUMN js_data.workflows.last_end IS 'the last end time of its jobs';

CREATE TABLE js_data.live_processes (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    pid integer NOT NULL,
    image integer DEFAULT 0 NOT NULL,
    ppid integer,
    task_id integer,
    mpi_rank integer,
    mpi_size integer,
    origin text,
    ended_by text,
    exe text,
    args text,
    start_time timestamp with time zone NOT NULL,
    end_time timestamp with time zone NOT NULL,
    wall_ns bigint NOT NULL,
    cpu_user_ns bigint NOT NULL,
    cpu_sys_ns bigint NOT NULL,
    max_rss_kib bigint NOT NULL,
    threads_peak integer NOT NULL,
    threads_seen integer NOT NULL,
    compute_ns bigint NOT NULL,
    slices_truncated boolean NOT NULL,
    files_dropped bigint NOT NULL,
    mpi_collectives jsonb,
    posix_read_calls bigint DEFAULT 0 NOT NULL,
    posix_read_bytes bigint DEFAULT 0 NOT NULL,
    posix_write_calls bigint DEFAULT 0 NOT NULL,
    posix_write_bytes bigint DEFAULT 0 NOT NULL,
    posix_open_calls bigint DEFAULT 0 NOT NULL,
    posix_meta_calls bigint DEFAULT 0 NOT NULL,
    posix_ns bigint DEFAULT 0 NOT NULL,
    stdio_read_calls bigint DEFAULT 0 NOT NULL,
    stdio_read_bytes bigint DEFAULT 0 NOT NULL,
    stdio_write_calls bigint DEFAULT 0 NOT NULL,
    stdio_write_bytes bigint DEFAULT 0 NOT NULL,
    stdio_open_calls bigint DEFAULT 0 NOT NULL,
    stdio_meta_calls bigint DEFAULT 0 NOT NULL,
    stdio_ns bigint DEFAULT 0 NOT NULL,
    lower_read_bytes bigint DEFAULT 0 NOT NULL,
    lower_write_bytes bigint DEFAULT 0 NOT NULL,
    mpi_send_calls bigint DEFAULT 0 NOT NULL,
    mpi_send_bytes bigint DEFAULT 0 NOT NULL,
    mpi_recv_calls bigint DEFAULT 0 NOT NULL,
    mpi_recv_bytes bigint DEFAULT 0 NOT NULL,
    mpi_p2p_ns bigint DEFAULT 0 NOT NULL,
    mpi_coll_calls bigint DEFAULT 0 NOT NULL,
    mpi_coll_bytes bigint DEFAULT 0 NOT NULL,
    mpi_coll_ns bigint DEFAULT 0 NOT NULL,
    mpiio_read_calls bigint DEFAULT 0 NOT NULL,
    mpiio_read_bytes bigint DEFAULT 0 NOT NULL,
    mpiio_write_calls bigint DEFAULT 0 NOT NULL,
    mpiio_write_bytes bigint DEFAULT 0 NOT NULL,
    mpiio_coll_calls bigint DEFAULT 0 NOT NULL,
    mpiio_meta_calls bigint DEFAULT 0 NOT NULL,
    mpiio_ns bigint DEFAULT 0 NOT NULL,
    cpu_ns bigint DEFAULT 0 NOT NULL,
    exit_code integer,
    signal integer DEFAULT 0 NOT NULL,
    missing text DEFAULT ''::text NOT NULL,
    idle_ns bigint,
    mpi_setup_ns bigint,
    cpu_wait_ns bigint,
    kernel_rchar bigint,
    kernel_wchar bigint,
    kernel_syscr bigint,
    kernel_syscw bigint,
    kernel_read_bytes bigint,
    kernel_write_bytes bigint
);

COMMENT ON TABLE js_data.live_processes IS 'provisional per-process totals of running step-nodes (js_data.processes'' columns; ended_by running for a process still running, end_time then the snapshot''s time of it)';

COMMENT ON COLUMN js_data.live_processes.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.live_processes.job_id IS 'Slurm job id';

COMMENT ON COLUMN js_data.live_processes.step_id IS 'step id in words';

COMMENT ON COLUMN js_data.live_processes.node IS 'node the process ran on';

COMMENT ON COLUMN js_data.live_processes.pid IS 'process id';

COMMENT ON COLUMN js_data.live_processes.image IS 'number of the image among the profiles of this pid (exec keeps the pid), in start order from 0';

COMMENT ON COLUMN js_data.live_processes.ppid IS 'parent process id';

COMMENT ON COLUMN js_data.live_processes.task_id IS 'Slurm global task id (rank), NULL when unset';

COMMENT ON COLUMN js_data.live_processes.mpi_rank IS 'rank in MPI_COMM_WORLD, NULL when not an MPI process';

COMMENT ON COLUMN js_data.live_processes.mpi_size IS 'size of MPI_COMM_WORLD, NULL when not an MPI process';

COMMENT ON COLUMN js_data.live_processes.origin IS 'start (new image) or fork (forked child)';

COMMENT ON COLUMN js_data.live_processes.ended_by IS 'how the image ended: exit, _exit, exec, signal (killed by one) or unknown (gone, its end not seen)';

COMMENT ON COLUMN js_data.live_processes.exe IS 'executable (/proc/self/exe)';

COMMENT ON COLUMN js_data.live_processes.args IS 'command line, arguments separated by spaces (truncated by the profiler)';

COMMENT ON COLUMN js_data.live_processes.start_time IS 'when recording began';

COMMENT ON COLUMN js_data.live_processes.end_time IS 'when the profile was written; for a killed process when its death was seen (or its last recorded activity)';

COMMENT ON COLUMN js_data.live_processes.wall_ns IS 'wall time of the image (ns)';

COMMENT ON COLUMN js_data.live_processes.cpu_user_ns IS 'user CPU time of all threads (ns)';

COMMENT ON COLUMN js_data.live_processes.cpu_sys_ns IS 'system CPU time of all threads (ns)';

COMMENT ON COLUMN js_data.live_processes.max_rss_kib IS 'peak resident set size (KiB)';

COMMENT ON COLUMN js_data.live_processes.threads_peak IS 'most threads doing I/O or MPI at once, plus the main thread';

COMMENT ON COLUMN js_data.live_processes.threads_seen IS 'threads that made a recorded call, plus the main thread';

COMMENT ON COLUMN js_data.live_processes.compute_ns IS 'runtime share: wall time minus the time in I/O and MPI (posix_ns, stdio_ns, mpiio_ns, mpi_p2p_ns, mpi_coll_ns), at least 0 (ns)';

COMMENT ON COLUMN js_data.live_processes.slices_truncated IS 'true when the profiler''s slice budget ran out: later slices are missing';

COMMENT ON COLUMN js_data.live_processes.files_dropped IS 'files the profiler did not list because its list was full';

COMMENT ON COLUMN js_data.live_processes.mpi_collectives IS 'per collective kind {calls, bytes, ns}, as the profile gives it';

COMMENT ON COLUMN js_data.live_processes.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application (calls)';

COMMENT ON COLUMN js_data.live_processes.posix_read_bytes IS 'bytes returned by those reads (bytes)';

COMMENT ON COLUMN js_data.live_processes.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application (calls)';

COMMENT ON COLUMN js_data.live_processes.posix_write_bytes IS 'bytes accepted by those writes (bytes)';

COMMENT ON COLUMN js_data.live_processes.posix_open_calls IS 'open, openat, creat (and 64-bit variants) (calls)';

COMMENT ON COLUMN js_data.live_processes.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir (calls)';

COMMENT ON COLUMN js_data.live_processes.posix_ns IS 'time in POSIX I/O calls (sampled estimate) (ns)';

COMMENT ON COLUMN js_data.live_processes.stdio_read_calls IS 'fread, fgets, fgetc/getc, fscanf family on file streams (calls)';

COMMENT ON COLUMN js_data.live_processes.stdio_read_bytes IS 'bytes returned to the application by those calls (bytes)';

COMMENT ON COLUMN js_data.live_processes.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family on file streams (calls)';

COMMENT ON COLUMN js_data.live_processes.stdio_write_bytes IS 'bytes handed to the stream by those calls (bytes)';

COMMENT ON COLUMN js_data.live_processes.stdio_open_calls IS 'fopen, fdopen, freopen (and 64-bit variants) (calls)';

COMMENT ON COLUMN js_data.live_processes.stdio_meta_calls IS 'fclose, fflush, fseek family (calls)';

COMMENT ON COLUMN js_data.live_processes.stdio_ns IS 'time in stdio calls (sampled estimate) (ns)';

COMMENT ON COLUMN js_data.live_processes.lower_read_bytes IS 'POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';

COMMENT ON COLUMN js_data.live_processes.lower_write_bytes IS 'POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';

COMMENT ON COLUMN js_data.live_processes.mpi_send_calls IS 'point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';

COMMENT ON COLUMN js_data.live_processes.mpi_send_bytes IS 'bytes of those sends (count x type size) (bytes)';

COMMENT ON COLUMN js_data.live_processes.mpi_recv_calls IS 'point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';

COMMENT ON COLUMN js_data.live_processes.mpi_recv_bytes IS 'bytes of those receives as posted (count x type size) (bytes)';

COMMENT ON COLUMN js_data.live_processes.mpi_p2p_ns IS 'time in point-to-point calls, including wait and test (ns)';

COMMENT ON COLUMN js_data.live_processes.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives) (calls)';

COMMENT ON COLUMN js_data.live_processes.mpi_coll_bytes IS 'send-side bytes of those collectives on this rank (bytes)';

COMMENT ON COLUMN js_data.live_processes.mpi_coll_ns IS 'time in collective calls (ns)';

COMMENT ON COLUMN js_data.live_processes.mpiio_read_calls IS 'MPI_File_read* calls (calls)';

COMMENT ON COLUMN js_data.live_processes.mpiio_read_bytes IS 'bytes of those reads (count x type size) (bytes)';

COMMENT ON COLUMN js_data.live_processes.mpiio_write_calls IS 'MPI_File_write* calls (calls)';

COMMENT ON COLUMN js_data.live_processes.mpiio_write_bytes IS 'bytes of those writes (count x type size) (bytes)';

COMMENT ON COLUMN js_data.live_processes.mpiio_coll_calls IS 'the collective ones (_all) among the MPI-IO reads and writes (calls)';

COMMENT ON COLUMN js_data.live_processes.mpiio_meta_calls IS 'MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';

COMMENT ON COLUMN js_data.live_processes.mpiio_ns IS 'time in MPI-IO calls (ns)';

COMMENT ON COLUMN js_data.live_processes.cpu_ns IS 'CPU time (user + system) of the process in the slice (ns)';

COMMENT ON COLUMN js_data.live_processes.exit_code IS 'exit status 0-255 when known, NULL otherwise (killed, not seen, or a version 1 profile)';

COMMENT ON COLUMN js_data.live_processes.signal IS 'number of the signal that killed the process, 0 otherwise';

COMMENT ON COLUMN js_data.live_processes.missing IS 'empty when the profile is complete, else what is missing of it, in words (e.g. slices after the 1 MiB slice budget)';

COMMENT ON COLUMN js_data.live_processes.idle_ns IS 'as in js_data.processes';

COMMENT ON COLUMN js_data.live_processes.mpi_setup_ns IS 'as in js_data.processes';

COMMENT ON COLUMN js_data.live_processes.cpu_wait_ns IS 'as in js_data.processes';

COMMENT ON COLUMN js_data.live_processes.kernel_rchar IS 'as in js_data.processes';

COMMENT ON COLUMN js_data.live_processes.kernel_wchar IS 'as in js_data.processes';

COMMENT ON COLUMN js_data.live_processes.kernel_syscr IS 'as in js_data.processes';

COMMENT ON COLUMN js_data.live_processes.kernel_syscw IS 'as in js_data.processes';

COMMENT ON COLUMN js_data.live_processes.kernel_read_bytes IS 'as in js_data.processes';

COMMENT ON COLUMN js_data.live_processes.kernel_write_bytes IS 'as in js_data.processes';

CREATE TABLE js_data.live_slice_metrics (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    slice bigint NOT NULL,
    processes integer NOT NULL,
    posix_read_calls bigint DEFAULT 0 NOT NULL,
    posix_read_bytes bigint DEFAULT 0 NOT NULL,
    posix_write_calls bigint DEFAULT 0 NOT NULL,
    posix_write_bytes bigint DEFAULT 0 NOT NULL,
    posix_open_calls bigint DEFAULT 0 NOT NULL,
    posix_meta_calls bigint DEFAULT 0 NOT NULL,
    posix_ns bigint DEFAULT 0 NOT NULL,
    stdio_read_calls bigint DEFAULT 0 NOT NULL,
    stdio_read_bytes bigint DEFAULT 0 NOT NULL,
    stdio_write_calls bigint DEFAULT 0 NOT NULL,
    stdio_write_bytes bigint DEFAULT 0 NOT NULL,
    stdio_open_calls bigint DEFAULT 0 NOT NULL,
    stdio_meta_calls bigint DEFAULT 0 NOT NULL,
    stdio_ns bigint DEFAULT 0 NOT NULL,
    lower_read_bytes bigint DEFAULT 0 NOT NULL,
    lower_write_bytes bigint DEFAULT 0 NOT NULL,
    mpi_send_calls bigint DEFAULT 0 NOT NULL,
    mpi_send_bytes bigint DEFAULT 0 NOT NULL,
    mpi_recv_calls bigint DEFAULT 0 NOT NULL,
    mpi_recv_bytes bigint DEFAULT 0 NOT NULL,
    mpi_p2p_ns bigint DEFAULT 0 NOT NULL,
    mpi_coll_calls bigint DEFAULT 0 NOT NULL,
    mpi_coll_bytes bigint DEFAULT 0 NOT NULL,
    mpi_coll_ns bigint DEFAULT 0 NOT NULL,
    mpiio_read_calls bigint DEFAULT 0 NOT NULL,
    mpiio_read_bytes bigint DEFAULT 0 NOT NULL,
    mpiio_write_calls bigint DEFAULT 0 NOT NULL,
    mpiio_write_bytes bigint DEFAULT 0 NOT NULL,
    mpiio_coll_calls bigint DEFAULT 0 NOT NULL,
    mpiio_meta_calls bigint DEFAULT 0 NOT NULL,
    mpiio_ns bigint DEFAULT 0 NOT NULL,
    cpu_ns bigint DEFAULT 0 NOT NULL,
    kernel_rchar bigint DEFAULT 0 NOT NULL,
    kernel_wchar bigint DEFAULT 0 NOT NULL,
    kernel_syscr bigint DEFAULT 0 NOT NULL,
    kernel_syscw bigint DEFAULT 0 NOT NULL,
    kernel_read_bytes bigint DEFAULT 0 NOT NULL,
    kernel_write_bytes bigint DEFAULT 0 NOT NULL
);

COMMENT ON TABLE js_data.live_slice_metrics IS 'provisional per-slice metric vectors of running step-nodes (js_data.slice_metrics'' columns); never folded into the slice totals';

COMMENT ON COLUMN js_data.live_slice_metrics.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.live_slice_metrics.job_id IS 'Slurm job id';

COMMENT ON COLUMN js_data.live_slice_metrics.step_id IS 'step id in words';

COMMENT ON COLUMN js_data.live_slice_metrics.node IS 'node';

COMMENT ON COLUMN js_data.live_slice_metrics.slice IS 'slice index: floor(epoch seconds / slice length)';

COMMENT ON COLUMN js_data.live_slice_metrics.processes IS 'processes of the step on this node with activity in this slice';

COMMENT ON COLUMN js_data.live_slice_metrics.posix_read_calls IS 'read, pread, readv, preadv (and 64-bit variants) called by the application (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.posix_read_bytes IS 'bytes returned by those reads (bytes)';

COMMENT ON COLUMN js_data.live_slice_metrics.posix_write_calls IS 'write, pwrite, writev, pwritev (and 64-bit variants) called by the application (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.posix_write_bytes IS 'bytes accepted by those writes (bytes)';

COMMENT ON COLUMN js_data.live_slice_metrics.posix_open_calls IS 'open, openat, creat (and 64-bit variants) (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.posix_meta_calls IS 'close, lseek, fsync, fdatasync, ftruncate, stat family, unlink, rename, mkdir (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.posix_ns IS 'time in POSIX I/O calls (sampled estimate) (ns)';

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_read_calls IS 'fread, fgets, fgetc/getc, fscanf family on file streams (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_read_bytes IS 'bytes returned to the application by those calls (bytes)';

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_write_calls IS 'fwrite, fputs, fputc/putc, fprintf family on file streams (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_write_bytes IS 'bytes handed to the stream by those calls (bytes)';

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_open_calls IS 'fopen, fdopen, freopen (and 64-bit variants) (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_meta_calls IS 'fclose, fflush, fseek family (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.stdio_ns IS 'time in stdio calls (sampled estimate) (ns)';

COMMENT ON COLUMN js_data.live_slice_metrics.lower_read_bytes IS 'POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';

COMMENT ON COLUMN js_data.live_slice_metrics.lower_write_bytes IS 'POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_send_calls IS 'point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_send_bytes IS 'bytes of those sends (count x type size) (bytes)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_recv_calls IS 'point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_recv_bytes IS 'bytes of those receives as posted (count x type size) (bytes)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_p2p_ns IS 'time in point-to-point calls, including wait and test (ns)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives) (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_coll_bytes IS 'send-side bytes of those collectives on this rank (bytes)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpi_coll_ns IS 'time in collective calls (ns)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_read_calls IS 'MPI_File_read* calls (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_read_bytes IS 'bytes of those reads (count x type size) (bytes)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_write_calls IS 'MPI_File_write* calls (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_write_bytes IS 'bytes of those writes (count x type size) (bytes)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_coll_calls IS 'the collective ones (_all) among the MPI-IO reads and writes (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_meta_calls IS 'MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';

COMMENT ON COLUMN js_data.live_slice_metrics.mpiio_ns IS 'time in MPI-IO calls (ns)';

COMMENT ON COLUMN js_data.live_slice_metrics.cpu_ns IS 'CPU time (user + system) of the process in the slice (ns)';

COMMENT ON COLUMN js_data.live_slice_metrics.kernel_rchar IS 'the kernel''s count in the slice, summed over the processes whose counts are known: bytes returned by read-like system calls on anything (files, pipes, sockets, terminals) (bytes); 0 before profile format 5';

COMMENT ON COLUMN js_data.live_slice_metrics.kernel_wchar IS 'the kernel''s count in the slice, summed over the processes whose counts are known: bytes passed to write-like system calls on anything (bytes); 0 before profile format 5';

COMMENT ON COLUMN js_data.live_slice_metrics.kernel_syscr IS 'the kernel''s count in the slice, summed over the processes whose counts are known: read-like system calls (calls); 0 before profile format 5';

COMMENT ON COLUMN js_data.live_slice_metrics.kernel_syscw IS 'the kernel''s count in the slice, summed over the processes whose counts are known: write-like system calls (calls); 0 before profile format 5';

COMMENT ON COLUMN js_data.live_slice_metrics.kernel_read_bytes IS 'the kernel''s count in the slice, summed over the processes whose counts are known: bytes the processes caused to be fetched from storage (bytes); 0 before profile format 5';

COMMENT ON COLUMN js_data.live_slice_metrics.kernel_write_bytes IS 'the kernel''s count in the slice, summed over the processes whose counts are known: bytes the processes caused to be sent to storage (dirtied page cache) (bytes); 0 before profile format 5';

CREATE TABLE js_data.processes (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    pid integer NOT NULL,
    image integer DEFAULT 0 NOT NULL,
    ppid integer,
    task_id integer,
    mpi_rank integer,
    mpi_size integer,
    origin text,
    ended_by text,
    exe text,
    args text,
    start_time timestamp with time zone NOT NULL,
    end_time timestamp with time zone NOT NULL,
    wall_ns bigint NOT NULL,
    cpu_user_ns bigint NOT NULL,
    cpu_sys_ns bigint NOT NULL,
    max_rss_kib bigint NOT NULL,
    threads_peak integer NOT NULL,
    threads_seen integer NOT NULL,
    compute_ns bigint NOT NULL,
    slices_truncated boolean NOT NULL,
    files_dropped bigint NOT NULL,
    mpi_collectives jsonb,
    posix_read_calls bigint DEFAULT 0 NOT NULL,
    posix_read_bytes bigint DEFAULT 0 NOT NULL,
    posix_write_calls bigint DEFAULT 0 NOT NULL,
    posix_write_bytes bigint DEFAULT 0 NOT NULL,
    posix_open_calls bigint DEFAULT 0 NOT NULL,
    posix_meta_calls bigint DEFAULT 0 NOT NULL,
    posix_ns bigint DEFAULT 0 NOT NULL,
    stdio_read_calls bigint DEFAULT 0 NOT NULL,
    stdio_read_bytes bigint DEFAULT 0 NOT NULL,
    stdio_write_calls bigint DEFAULT 0 NOT NULL,
    stdio_write_bytes bigint DEFAULT 0 NOT NULL,
    stdio_open_calls bigint DEFAULT 0 NOT NULL,
    stdio_meta_calls bigint DEFAULT 0 NOT NULL,
    stdio_ns bigint DEFAULT 0 NOT NULL,
    lower_read_bytes bigint DEFAULT 0 NOT NULL,
    lower_write_bytes bigint DEFAULT 0 NOT NULL,
    mpi_send_calls bigint DEFAULT 0 NOT NULL,
    mpi_send_bytes bigint DEFAULT 0 NOT NULL,
    mpi_recv_calls bigint DEFAULT 0 NOT NULL,
    mpi_recv_bytes bigint DEFAULT 0 NOT NULL,
    mpi_p2p_ns bigint DEFAULT 0 NOT NULL,
    mpi_coll_calls bigint DEFAULT 0 NOT NULL,
    mpi_coll_bytes bigint DEFAULT 0 NOT NULL,
    mpi_coll_ns bigint DEFAULT 0 NOT NULL,
    mpiio_read_calls bigint DEFAULT 0 NOT NULL,
    mpiio_read_bytes bigint DEFAULT 0 NOT NULL,
    mpiio_write_calls bigint DEFAULT 0 NOT NULL,
    mpiio_write_bytes bigint DEFAULT 0 NOT NULL,
    mpiio_coll_calls bigint DEFAULT 0 NOT NULL,
    mpiio_meta_calls bigint DEFAULT 0 NOT NULL,
    mpiio_ns bigint DEFAULT 0 NOT NULL,
    cpu_ns bigint DEFAULT 0 NOT NULL,
    exit_code integer,
    signal integer DEFAULT 0 NOT NULL,
    missing text DEFAULT ''::text NOT NULL,
    idle_ns bigint,
    mpi_setup_ns bigint,
    cpu_wait_ns bigint,
    kernel_rchar bigint,
    kernel_wchar bigint,
    kernel_syscr bigint,
    kernel_syscw bigint,
    kernel_read_bytes bigint,
    kernel_write_bytes bigint
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

COMMENT ON COLUMN js_data.processes.ended_by IS 'how the image ended: exit, _exit, exec, signal (killed by one) or unknown (gone, its end not seen)';

COMMENT ON COLUMN js_data.processes.exe IS 'executable (/proc/self/exe)';

COMMENT ON COLUMN js_data.processes.args IS 'command line, arguments separated by spaces (truncated by the profiler)';

COMMENT ON COLUMN js_data.processes.start_time IS 'when recording began';

COMMENT ON COLUMN js_data.processes.end_time IS 'when the profile was written; for a killed process when its death was seen (or its last recorded activity)';

COMMENT ON COLUMN js_data.processes.wall_ns IS 'wall time of the image (ns)';

COMMENT ON COLUMN js_data.processes.cpu_user_ns IS 'user CPU time of all threads (ns)';

COMMENT ON COLUMN js_data.processes.cpu_sys_ns IS 'system CPU time of all threads (ns)';

COMMENT ON COLUMN js_data.processes.max_rss_kib IS 'peak resident set size (KiB)';

COMMENT ON COLUMN js_data.processes.threads_peak IS 'most threads doing I/O or MPI at once, plus the main thread';

COMMENT ON COLUMN js_data.processes.threads_seen IS 'threads that made a recorded call, plus the main thread';

COMMENT ON COLUMN js_data.processes.compute_ns IS 'runtime share: CPU time outside I/O and MPI calls (profile format 4; before: wall time minus the time in I/O and MPI, at least 0) (ns)';

COMMENT ON COLUMN js_data.processes.slices_truncated IS 'true when the profiler''s slice budget ran out: later slices are missing';

COMMENT ON COLUMN js_data.processes.files_dropped IS 'files the profiler did not list because its list was full';

COMMENT ON COLUMN js_data.processes.mpi_collectives IS 'per collective kind {calls, bytes, ns}, as the profile gives it';

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

COMMENT ON COLUMN js_data.processes.stdio_open_calls IS 'fopen, fdopen, freopen (and 64-bit variants) (calls)';

COMMENT ON COLUMN js_data.processes.stdio_meta_calls IS 'fclose, fflush, fseek family, ungetc/ungetwc (calls)';

COMMENT ON COLUMN js_data.processes.stdio_ns IS 'time in stdio calls on file streams (not on pipes, sockets or terminals, as for posix_ns) (ns)';

COMMENT ON COLUMN js_data.processes.lower_read_bytes IS 'POSIX read bytes issued inside an MPI call (e.g. by MPI-IO), not counted as posix_* (bytes)';

COMMENT ON COLUMN js_data.processes.lower_write_bytes IS 'POSIX write bytes issued inside an MPI call, not counted as posix_* (bytes)';

COMMENT ON COLUMN js_data.processes.mpi_send_calls IS 'point-to-point sends (blocking and non-blocking; sendrecv counts one send) (calls)';

COMMENT ON COLUMN js_data.processes.mpi_send_bytes IS 'bytes of those sends (count x type size) (bytes)';

COMMENT ON COLUMN js_data.processes.mpi_recv_calls IS 'point-to-point receives (blocking and non-blocking; sendrecv counts one receive) (calls)';

COMMENT ON COLUMN js_data.processes.mpi_recv_bytes IS 'bytes of those receives as posted (count x type size) (bytes)';

COMMENT ON COLUMN js_data.processes.mpi_p2p_ns IS 'time in point-to-point calls, and in waits and tests on point-to-point (or unknown) requests (ns)';

COMMENT ON COLUMN js_data.processes.mpi_coll_calls IS 'collective calls of all kinds (see mpi_collectives), non-blocking ones included (counted when posted); MPI_Init and MPI_Finalize are not collectives (calls)';

COMMENT ON COLUMN js_data.processes.mpi_coll_bytes IS 'send-side bytes of those collectives on this rank (bytes)';

COMMENT ON COLUMN js_data.processes.mpi_coll_ns IS 'time in collective calls, blocking and non-blocking, and in waits and tests on collective requests (ns)';

COMMENT ON COLUMN js_data.processes.mpiio_read_calls IS 'MPI_File_read* and MPI_File_iread* calls (non-blocking counted when posted) (calls)';

COMMENT ON COLUMN js_data.processes.mpiio_read_bytes IS 'bytes of those reads (count x type size) (bytes)';

COMMENT ON COLUMN js_data.processes.mpiio_write_calls IS 'MPI_File_write* and MPI_File_iwrite* calls (non-blocking counted when posted) (calls)';

COMMENT ON COLUMN js_data.processes.mpiio_write_bytes IS 'bytes of those writes (count x type size) (bytes)';

COMMENT ON COLUMN js_data.processes.mpiio_coll_calls IS 'the collective ones (_all, _ordered) among the MPI-IO reads and writes (calls)';

COMMENT ON COLUMN js_data.processes.mpiio_meta_calls IS 'MPI_File_open, MPI_File_close, MPI_File_sync, MPI_File_seek (calls)';

COMMENT ON COLUMN js_data.processes.mpiio_ns IS 'time in MPI-IO calls (also set_view, set_size, preallocate, get_size, delete) and in waits and tests on MPI-IO requests (ns)';

COMMENT ON COLUMN js_data.processes.cpu_ns IS 'CPU time (user + system) of the process in the slice (ns)';

COMMENT ON COLUMN js_data.processes.exit_code IS 'exit status 0-255 when known, NULL otherwise (killed, not seen, or a version 1 profile)';

COMMENT ON COLUMN js_data.processes.signal IS 'number of the signal that killed the process, 0 otherwise';

COMMENT ON COLUMN js_data.processes.missing IS 'empty when the profile is complete, else what is missing of it, in words (e.g. slices after the 1 MiB slice budget)';

COMMENT ON COLUMN js_data.processes.idle_ns IS 'runtime share: time neither computing, nor waiting for a CPU, nor in a recorded call (sleep, waiting for children, locks or pages); NULL before profile format 4 (ns)';

COMMENT ON COLUMN js_data.processes.mpi_setup_ns IS 'time in MPI_Init, MPI_Init_thread and MPI_Finalize; NULL before profile format 4 (ns)';

COMMENT ON COLUMN js_data.processes.cpu_wait_ns IS 'runtime share: time runnable but waiting for a CPU outside the calls (the scheduler''s run delay); NULL before profile format 4 (ns)';

COMMENT ON COLUMN js_data.processes.kernel_rchar IS 'the kernel''s count of bytes returned by read-like system calls of the image, on anything (/proc/self/io rchar); NULL: unknown';

COMMENT ON COLUMN js_data.processes.kernel_wchar IS 'bytes passed to write-like system calls (/proc/self/io wchar); NULL: unknown';

COMMENT ON COLUMN js_data.processes.kernel_syscr IS 'read-like system calls (/proc/self/io syscr); NULL: unknown';

COMMENT ON COLUMN js_data.processes.kernel_syscw IS 'write-like system calls (/proc/self/io syscw); NULL: unknown';

COMMENT ON COLUMN js_data.processes.kernel_read_bytes IS 'bytes the image caused to be fetched from storage (/proc/self/io read_bytes); NULL: unknown';

COMMENT ON COLUMN js_data.processes.kernel_write_bytes IS 'bytes the image caused to be sent to storage (/proc/self/io write_bytes); NULL: unknown';

CREATE TABLE js_data.quarantine (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    file text NOT NULL,
    moved_to text NOT NULL,
    reason text NOT NULL,
    at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE js_data.quarantine IS 'files the ingest refused, moved to the quarantine directory with a .reason file beside them';

COMMENT ON COLUMN js_data.quarantine.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.quarantine.job_id IS 'job whose spool held the file';

COMMENT ON COLUMN js_data.quarantine.step_id IS 'step the file belonged to';

COMMENT ON COLUMN js_data.quarantine.node IS 'node the step ran on';

COMMENT ON COLUMN js_data.quarantine.file IS 'the file''s path relative to the spool';

COMMENT ON COLUMN js_data.quarantine.moved_to IS 'where the file was moved (absolute path in the quarantine directory)';

COMMENT ON COLUMN js_data.quarantine.reason IS 'why it was refused (the same text as the .reason file)';

COMMENT ON COLUMN js_data.quarantine.at IS 'when it was refused';

CREATE TABLE js_data.retention_log (
    partition text NOT NULL,
    parent text NOT NULL,
    first_slice bigint NOT NULL,
    end_slice bigint NOT NULL,
    rows_dropped bigint NOT NULL,
    dropped_at timestamp with time zone DEFAULT now() NOT NULL,
    dropped_by text DEFAULT CURRENT_USER NOT NULL
);

COMMENT ON TABLE js_data.retention_log IS 'partitions of the per-slice tables that retention dropped';

COMMENT ON COLUMN js_data.retention_log.partition IS 'name of the dropped partition (schema js_data)';

COMMENT ON COLUMN js_data.retention_log.parent IS 'the per-slice table it belonged to';

COMMENT ON COLUMN js_data.retention_log.first_slice IS 'first slice of its range';

COMMENT ON COLUMN js_data.retention_log.end_slice IS 'end of its range (exclusive)';

COMMENT ON COLUMN js_data.retention_log.rows_dropped IS 'rows it held when dropped';

COMMENT ON COLUMN js_data.retention_log.dropped_at IS 'when it was dropped';

COMMENT ON COLUMN js_data.retention_log.dropped_by IS 'database role that dropped it';

CREATE TABLE js_data.retention_settings (
    only_row boolean DEFAULT true NOT NULL,
    slice_keep interval DEFAULT '180 days'::interval NOT NULL,
    updated timestamp with time zone DEFAULT now() NOT NULL,
    job_keep interval,
    quarantine_keep interval,
    rollup_keep interval,
    CONSTRAINT retention_settings_job_keep_check CHECK (((job_keep IS NULL) OR (job_keep >= '1 day'::interval))),
    CONSTRAINT retention_settings_only_row_check CHECK (only_row),
    CONSTRAINT retention_settings_quarantine_keep_check CHECK (((quarantine_keep IS NULL) OR (quarantine_keep >= '1 day'::interval))),
    CONSTRAINT retention_settings_rollup_keep_check CHECK (((rollup_keep IS NULL) OR (rollup_keep >= '1 day'::interval))),
    CONSTRAINT retention_settings_slice_keep_check CHECK ((slice_keep >= '1 day'::interval))
);

COMMENT ON TABLE js_data.retention_settings IS 'one row: how long the per-slice detail is kept (change with UPDATE)';

COMMENT ON COLUMN js_data.retention_settings.only_row IS 'always true: the table has exactly one row';

COMMENT ON COLUMN js_data.retention_settings.slice_keep IS 'per-slice partitions whose newest slice is older than now() minus this are dropped';

COMMENT ON COLUMN js_data.retention_settings.updated IS 'when the setting was last changed';

COMMENT ON COLUMN js_data.retention_settings.job_keep IS 'jobs that ended before now() minus this go with everything they hold (NULL: kept forever)';

COMMENT ON COLUMN js_data.retention_settings.quarantine_keep IS 'quarantine rows older than this are removed (NULL: kept forever)';

COMMENT ON COLUMN js_data.retention_settings.rollup_keep IS 'daily usage rollups of days before now() minus this are removed (NULL: kept forever)';

CREATE TABLE js_data.slice_horizon (
    only_row boolean DEFAULT true NOT NULL,
    slice bigint NOT NULL,
    updated timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT slice_horizon_only_row_check CHECK (only_row)
);

COMMENT ON TABLE js_data.slice_horizon IS 'one row: slices below this were dropped by retention; rollups of days that start below it are final';

COMMENT ON COLUMN js_data.slice_horizon.only_row IS 'always true: the table has at most one row';

COMMENT ON COLUMN js_data.slice_horizon.slice IS 'first slice that may still be present in the per-slice tables';

COMMENT ON COLUMN js_data.slice_horizon.updated IS 'when retention last moved it';

CREATE TABLE js_data.series_cluster (
    cluster_id smallint NOT NULL,
    chunk bigint NOT NULL,
    first_slice bigint NOT NULL,
    slices smallint NOT NULL,
    step_nodes bytea,
    posix_read_calls bytea,
    posix_read_bytes bytea,
    posix_write_calls bytea,
    posix_write_bytes bytea,
    posix_open_calls bytea,
    posix_meta_calls bytea,
    posix_ns bytea,
    stdio_read_calls bytea,
    stdio_read_bytes bytea,
    stdio_write_calls bytea,
    stdio_write_bytes bytea,
    stdio_open_calls bytea,
    stdio_meta_calls bytea,
    stdio_ns bytea,
    lower_read_bytes bytea,
    lower_write_bytes bytea,
    mpi_send_calls bytea,
    mpi_send_bytes bytea,
    mpi_recv_calls bytea,
    mpi_recv_bytes bytea,
    mpi_p2p_ns bytea,
    mpi_coll_calls bytea,
    mpi_coll_bytes bytea,
    mpi_coll_ns bytea,
    mpiio_read_calls bytea,
    mpiio_read_bytes bytea,
    mpiio_write_calls bytea,
    mpiio_write_bytes bytea,
    mpiio_coll_calls bytea,
    mpiio_meta_calls bytea,
    mpiio_ns bytea,
    cpu_ns bytea,
    CONSTRAINT series_cluster_check CHECK (((chunk = js_data.series_chunk_of(first_slice)) AND ((slices >= 1) AND (slices <= 900)) AND ((first_slice + slices) <= (chunk + 900))))
)
PARTITION BY RANGE (chunk);
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN step_nodes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN posix_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN stdio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN lower_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN lower_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_send_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_send_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_recv_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_recv_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_p2p_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_coll_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpi_coll_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN mpiio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_cluster ALTER COLUMN cpu_ns SET COMPRESSION lz4;

COMMENT ON TABLE js_data.series_cluster IS 'pre-aggregated: per chunk, the per-slice sums over the whole cluster (but the step-nodes still in js_data.totals_pending)';

COMMENT ON COLUMN js_data.series_cluster.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.series_cluster.chunk IS 'first slice of the chunk (a multiple of js_data.series_chunk_width())';

COMMENT ON COLUMN js_data.series_cluster.first_slice IS 'first slice the series cover';

COMMENT ON COLUMN js_data.series_cluster.slices IS 'slices the series cover: first_slice .. first_slice + slices - 1, within the chunk';

COMMENT ON COLUMN js_data.series_cluster.step_nodes IS 'series: how many (step, node) series were added into the slice';

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

CREATE TABLE js_data.series_node (
    cluster_id smallint NOT NULL,
    node text NOT NULL,
    chunk bigint NOT NULL,
    first_slice bigint NOT NULL,
    slices smallint NOT NULL,
    step_nodes bytea,
    posix_read_calls bytea,
    posix_read_bytes bytea,
    posix_write_calls bytea,
    posix_write_bytes bytea,
    posix_open_calls bytea,
    posix_meta_calls bytea,
    posix_ns bytea,
    stdio_read_calls bytea,
    stdio_read_bytes bytea,
    stdio_write_calls bytea,
    stdio_write_bytes bytea,
    stdio_open_calls bytea,
    stdio_meta_calls bytea,
    stdio_ns bytea,
    lower_read_bytes bytea,
    lower_write_bytes bytea,
    mpi_send_calls bytea,
    mpi_send_bytes bytea,
    mpi_recv_calls bytea,
    mpi_recv_bytes bytea,
    mpi_p2p_ns bytea,
    mpi_coll_calls bytea,
    mpi_coll_bytes bytea,
    mpi_coll_ns bytea,
    mpiio_read_calls bytea,
    mpiio_read_bytes bytea,
    mpiio_write_calls bytea,
    mpiio_write_bytes bytea,
    mpiio_coll_calls bytea,
    mpiio_meta_calls bytea,
    mpiio_ns bytea,
    cpu_ns bytea,
    CONSTRAINT series_node_check CHECK (((chunk = js_data.series_chunk_of(first_slice)) AND ((slices >= 1) AND (slices <= 900)) AND ((first_slice + slices) <= (chunk + 900))))
)
PARTITION BY RANGE (chunk);
ALTER TABLE ONLY js_data.series_node ALTER COLUMN step_nodes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN posix_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN stdio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN lower_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN lower_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_send_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_send_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_recv_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_recv_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_p2p_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_coll_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpi_coll_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN mpiio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_node ALTER COLUMN cpu_ns SET COMPRESSION lz4;

COMMENT ON TABLE js_data.series_node IS 'pre-aggregated: per node and chunk, the per-slice sums over every step on the node (but those still in js_data.totals_pending)';

COMMENT ON COLUMN js_data.series_node.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.series_node.node IS 'node';

COMMENT ON COLUMN js_data.series_node.chunk IS 'first slice of the chunk (a multiple of js_data.series_chunk_width())';

COMMENT ON COLUMN js_data.series_node.first_slice IS 'first slice the series cover';

COMMENT ON COLUMN js_data.series_node.slices IS 'slices the series cover: first_slice .. first_slice + slices - 1, within the chunk';

COMMENT ON COLUMN js_data.series_node.step_nodes IS 'series: how many (step, node) series were added into the slice';

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

CREATE TABLE js_data.series_step (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    chunk bigint NOT NULL,
    first_slice bigint NOT NULL,
    slices smallint NOT NULL,
    nodes bytea,
    processes bytea,
    posix_read_calls bytea,
    posix_read_bytes bytea,
    posix_write_calls bytea,
    posix_write_bytes bytea,
    posix_open_calls bytea,
    posix_meta_calls bytea,
    posix_ns bytea,
    stdio_read_calls bytea,
    stdio_read_bytes bytea,
    stdio_write_calls bytea,
    stdio_write_bytes bytea,
    stdio_open_calls bytea,
    stdio_meta_calls bytea,
    stdio_ns bytea,
    lower_read_bytes bytea,
    lower_write_bytes bytea,
    mpi_send_calls bytea,
    mpi_send_bytes bytea,
    mpi_recv_calls bytea,
    mpi_recv_bytes bytea,
    mpi_p2p_ns bytea,
    mpi_coll_calls bytea,
    mpi_coll_bytes bytea,
    mpi_coll_ns bytea,
    mpiio_read_calls bytea,
    mpiio_read_bytes bytea,
    mpiio_write_calls bytea,
    mpiio_write_bytes bytea,
    mpiio_coll_calls bytea,
    mpiio_meta_calls bytea,
    mpiio_ns bytea,
    cpu_ns bytea,
    kernel_rchar bytea,
    kernel_wchar bytea,
    kernel_syscr bytea,
    kernel_syscw bytea,
    kernel_read_bytes bytea,
    kernel_write_bytes bytea,
    CONSTRAINT series_step_check CHECK (((chunk = js_data.series_chunk_of(first_slice)) AND ((slices >= 1) AND (slices <= 900)) AND ((first_slice + slices) <= (chunk + 900))))
)
PARTITION BY RANGE (chunk);
ALTER TABLE ONLY js_data.series_step ALTER COLUMN nodes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN processes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN posix_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN stdio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN lower_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN lower_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_send_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_send_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_recv_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_recv_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_p2p_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_coll_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpi_coll_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN mpiio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN cpu_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN kernel_rchar SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN kernel_wchar SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN kernel_syscr SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN kernel_syscw SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN kernel_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step ALTER COLUMN kernel_write_bytes SET COMPRESSION lz4;

COMMENT ON TABLE js_data.series_step IS 'per-slice series of a step summed over its nodes, one row per step and chunk; kept by js_data.rollup_totals() (the step-nodes still in js_data.totals_pending are added by the views)';

COMMENT ON COLUMN js_data.series_step.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.series_step.job_id IS 'Slurm job id';

COMMENT ON COLUMN js_data.series_step.step_id IS 'step id in words';

COMMENT ON COLUMN js_data.series_step.chunk IS 'first slice of the chunk (a multiple of js_data.series_chunk_width())';

COMMENT ON COLUMN js_data.series_step.first_slice IS 'first slice the series cover';

COMMENT ON COLUMN js_data.series_step.slices IS 'slices the series cover: first_slice .. first_slice + slices - 1, within the chunk';

COMMENT ON COLUMN js_data.series_step.nodes IS 'series: nodes of the step with activity in the slice';

COMMENT ON COLUMN js_data.series_step.processes IS 'series: processes with activity in the slice';

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

COMMENT ON COLUMN js_data.series_step.kernel_rchar IS 'series: js_data.series_step_node.kernel_rchar summed over the step''s folded step-nodes';

COMMENT ON COLUMN js_data.series_step.kernel_wchar IS 'series: js_data.series_step_node.kernel_wchar summed over the step''s folded step-nodes';

COMMENT ON COLUMN js_data.series_step.kernel_syscr IS 'series: js_data.series_step_node.kernel_syscr summed over the step''s folded step-nodes';

COMMENT ON COLUMN js_data.series_step.kernel_syscw IS 'series: js_data.series_step_node.kernel_syscw summed over the step''s folded step-nodes';

COMMENT ON COLUMN js_data.series_step.kernel_read_bytes IS 'series: js_data.series_step_node.kernel_read_bytes summed over the step''s folded step-nodes';

COMMENT ON COLUMN js_data.series_step.kernel_write_bytes IS 'series: js_data.series_step_node.kernel_write_bytes summed over the step''s folded step-nodes';

CREATE TABLE js_data.series_step_node (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    chunk bigint NOT NULL,
    first_slice bigint NOT NULL,
    slices smallint NOT NULL,
    processes bytea,
    posix_read_calls bytea,
    posix_read_bytes bytea,
    posix_write_calls bytea,
    posix_write_bytes bytea,
    posix_open_calls bytea,
    posix_meta_calls bytea,
    posix_ns bytea,
    stdio_read_calls bytea,
    stdio_read_bytes bytea,
    stdio_write_calls bytea,
    stdio_write_bytes bytea,
    stdio_open_calls bytea,
    stdio_meta_calls bytea,
    stdio_ns bytea,
    lower_read_bytes bytea,
    lower_write_bytes bytea,
    mpi_send_calls bytea,
    mpi_send_bytes bytea,
    mpi_recv_calls bytea,
    mpi_recv_bytes bytea,
    mpi_p2p_ns bytea,
    mpi_coll_calls bytea,
    mpi_coll_bytes bytea,
    mpi_coll_ns bytea,
    mpiio_read_calls bytea,
    mpiio_read_bytes bytea,
    mpiio_write_calls bytea,
    mpiio_write_bytes bytea,
    mpiio_coll_calls bytea,
    mpiio_meta_calls bytea,
    mpiio_ns bytea,
    cpu_ns bytea,
    kernel_rchar bytea,
    kernel_wchar bytea,
    kernel_syscr bytea,
    kernel_syscw bytea,
    kernel_read_bytes bytea,
    kernel_write_bytes bytea,
    CONSTRAINT series_step_node_check CHECK (((chunk = js_data.series_chunk_of(first_slice)) AND ((slices >= 1) AND (slices <= 900)) AND ((first_slice + slices) <= (chunk + 900))))
)
PARTITION BY RANGE (chunk);
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN processes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN posix_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_open_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN stdio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN lower_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN lower_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_send_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_send_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_recv_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_recv_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_p2p_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_coll_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpi_coll_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_read_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_write_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_write_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_coll_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_meta_calls SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN mpiio_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN cpu_ns SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN kernel_rchar SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN kernel_wchar SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN kernel_syscr SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN kernel_syscw SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN kernel_read_bytes SET COMPRESSION lz4;
ALTER TABLE ONLY js_data.series_step_node ALTER COLUMN kernel_write_bytes SET COMPRESSION lz4;

COMMENT ON TABLE js_data.series_step_node IS 'per-slice series of a step on a node, summed over its processes: one row per step, node and chunk of js_data.series_chunk_width() slices; one encoded series (common/series.h) per metric, NULL when zero throughout; partitioned by chunk';

COMMENT ON COLUMN js_data.series_step_node.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.series_step_node.job_id IS 'Slurm job id';

COMMENT ON COLUMN js_data.series_step_node.step_id IS 'step id in words';

COMMENT ON COLUMN js_data.series_step_node.node IS 'node';

COMMENT ON COLUMN js_data.series_step_node.chunk IS 'first slice of the chunk (a multiple of js_data.series_chunk_width())';

COMMENT ON COLUMN js_data.series_step_node.first_slice IS 'first slice the series cover';

COMMENT ON COLUMN js_data.series_step_node.slices IS 'slices the series cover: first_slice .. first_slice + slices - 1, within the chunk';

COMMENT ON COLUMN js_data.series_step_node.processes IS 'series: processes with activity in the slice';

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

COMMENT ON COLUMN js_data.series_step_node.kernel_rchar IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: bytes returned by read-like system calls on anything (files, pipes, sockets, terminals) (bytes); NULL when zero throughout or before profile format 5';

COMMENT ON COLUMN js_data.series_step_node.kernel_wchar IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: bytes passed to write-like system calls on anything (bytes); NULL when zero throughout or before profile format 5';

COMMENT ON COLUMN js_data.series_step_node.kernel_syscr IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: read-like system calls (calls); NULL when zero throughout or before profile format 5';

COMMENT ON COLUMN js_data.series_step_node.kernel_syscw IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: write-like system calls (calls); NULL when zero throughout or before profile format 5';

COMMENT ON COLUMN js_data.series_step_node.kernel_read_bytes IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: bytes the processes caused to be fetched from storage (bytes); NULL when zero throughout or before profile format 5';

COMMENT ON COLUMN js_data.series_step_node.kernel_write_bytes IS 'series: the kernel''s count in the slice, summed over the processes whose counts are known: bytes the processes caused to be sent to storage (dirtied page cache) (bytes); NULL when zero throughout or before profile format 5';

CREATE TABLE js_data.totals_pending (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    queued_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE js_data.totals_pending IS 'step records whose slice vectors are in js_data.slice_metrics but not yet added into the slice totals; js_data.rollup_totals() folds them in batches (the views js.slice_totals_* add them meanwhile, so readers see exact sums)';

COMMENT ON COLUMN js_data.totals_pending.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.totals_pending.job_id IS 'Slurm job id';

COMMENT ON COLUMN js_data.totals_pending.step_id IS 'step id in words';

COMMENT ON COLUMN js_data.totals_pending.node IS 'node';

COMMENT ON COLUMN js_data.totals_pending.queued_at IS 'commit of the ingest transaction that queued it';

CREATE TABLE js_data.step_trees (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    step_id text NOT NULL,
    node text NOT NULL,
    tree text NOT NULL,
    processes integer NOT NULL,
    opens bigint NOT NULL,
    read_bytes bigint NOT NULL,
    write_bytes bigint NOT NULL
);

COMMENT ON TABLE js_data.step_trees IS 'software trees a step used on a node: the files under each counted together (profile-format.md "trees")';

COMMENT ON COLUMN js_data.step_trees.cluster_id IS 'cluster of the step';

COMMENT ON COLUMN js_data.step_trees.job_id IS 'job of the step';

COMMENT ON COLUMN js_data.step_trees.step_id IS 'the step';

COMMENT ON COLUMN js_data.step_trees.node IS 'node of the step record';

COMMENT ON COLUMN js_data.step_trees.tree IS 'the tree: /usr/lib, /etc, a site-packages or lib/pythonX.Y directory, the directory of a shared library, ...';

COMMENT ON COLUMN js_data.step_trees.processes IS 'processes of the step on the node that opened files under it';

COMMENT ON COLUMN js_data.step_trees.opens IS 'opens of files under it';

COMMENT ON COLUMN js_data.step_trees.read_bytes IS 'bytes read from them';

COMMENT ON COLUMN js_data.step_trees.write_bytes IS 'bytes written to them';

CREATE TABLE js_data.usage_daily (
    cluster_id smallint NOT NULL,
    day date NOT NULL,
    uid integer NOT NULL,
    jobs_started integer DEFAULT 0 NOT NULL,
    steps_started integer DEFAULT 0 NOT NULL,
    steps_failed integer DEFAULT 0 NOT NULL,
    steps_opted_out integer DEFAULT 0 NOT NULL,
    cpu_seconds double precision DEFAULT 0 NOT NULL,
    node_seconds double precision DEFAULT 0 NOT NULL,
    read_bytes bigint DEFAULT 0 NOT NULL,
    write_bytes bigint DEFAULT 0 NOT NULL,
    meta_ops bigint DEFAULT 0 NOT NULL,
    mpi_bytes bigint DEFAULT 0 NOT NULL,
    io_ns bigint DEFAULT 0 NOT NULL,
    mpi_ns bigint DEFAULT 0 NOT NULL,
    process_cpu_ns bigint DEFAULT 0 NOT NULL,
    node_slices bigint DEFAULT 0 NOT NULL,
    computed_at timestamp with time zone DEFAULT now() NOT NULL
);

COMMENT ON TABLE js_data.usage_daily IS 'usage per cluster, UTC day and user, computed by js_data.rollup_usage(); kept when the per-slice detail is dropped';

COMMENT ON COLUMN js_data.usage_daily.cluster_id IS 'cluster';

COMMENT ON COLUMN js_data.usage_daily.day IS 'UTC day';

COMMENT ON COLUMN js_data.usage_daily.uid IS 'job user';

COMMENT ON COLUMN js_data.usage_daily.jobs_started IS 'jobs that started that day (submitted, for jobs that never started)';

COMMENT ON COLUMN js_data.usage_daily.steps_started IS 'steps that started that day';

COMMENT ON COLUMN js_data.usage_daily.steps_failed IS 'of those, steps whose state is not COMPLETED';

COMMENT ON COLUMN js_data.usage_daily.steps_opted_out IS 'of those, steps that were not profiled';

COMMENT ON COLUMN js_data.usage_daily.cpu_seconds IS 'CPUs of each step x the part of its run time that fell on that day (s)';

COMMENT ON COLUMN js_data.usage_daily.node_seconds IS 'nodes of each step x the part of its run time that fell on that day (s)';

COMMENT ON COLUMN js_data.usage_daily.read_bytes IS 'bytes read in that day''s slices, all interfaces including the lower layer (bytes)';

COMMENT ON COLUMN js_data.usage_daily.write_bytes IS 'bytes written in that day''s slices, all interfaces including the lower layer (bytes)';

COMMENT ON COLUMN js_data.usage_daily.meta_ops IS 'file system metadata calls in that day''s slices: POSIX open and metadata, fopen, MPI-IO open/close/sync/seek, as meta_ops of js.step_report (calls)';

COMMENT ON COLUMN js_data.usage_daily.mpi_bytes IS 'MPI point-to-point send and collective bytes in that day''s slices (bytes)';

COMMENT ON COLUMN js_data.usage_daily.io_ns IS 'time in I/O calls in that day''s slices (ns)';

COMMENT ON COLUMN js_data.usage_daily.mpi_ns IS 'time in MPI calls in that day''s slices (ns)';

COMMENT ON COLUMN js_data.usage_daily.process_cpu_ns IS 'CPU time of the profiled processes in that day''s slices (ns)';

COMMENT ON COLUMN js_data.usage_daily.node_slices IS 'per-slice vectors (step x node x slice with activity) of that day';

COMMENT ON COLUMN js_data.usage_daily.computed_at IS 'when js_data.rollup_usage() computed the row';

ALTER TABLE js_data.clusters ALTER COLUMN cluster_id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME js_data.clusters_cluster_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE js_data.dependency_refs (
    cluster_id smallint NOT NULL,
    to_job bigint NOT NULL,
    ref_job bigint NOT NULL,
    ref_task integer,
    condition text NOT NULL
);

COMMENT ON TABLE js_data.dependency_refs IS 'the jobs a job record''s dependency list names (one row per element with a job id); the scheduler edges are these resolved to jobs';

COMMENT ON COLUMN js_data.dependency_refs.cluster_id IS 'cluster of both jobs';

COMMENT ON COLUMN js_data.dependency_refs.to_job IS 'the dependant job';

COMMENT ON COLUMN js_data.dependency_refs.ref_job IS 'the job id named (afterok:35 and afterok:35_1: 35), a job or an array';

COMMENT ON COLUMN js_data.dependency_refs.ref_task IS 'the array task named (35_1: 1); NULL: the whole job, or every task of the array';

COMMENT ON COLUMN js_data.dependency_refs.condition IS 'dependency type (afterok, afterany, ...)';

ALTER TABLE js_data.files ALTER COLUMN file_id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME js_data.files_file_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE js_data.ingest_sessions (
    backend_pid integer NOT NULL,
    who text NOT NULL,
    at timestamp with time zone NOT NULL
);

COMMENT ON TABLE js_data.ingest_sessions IS 'one row per database session of a profile_ingest, updated by its durability barrier (a synchronous commit that writes, so that the log is flushed past the session''s asynchronous step commits)';

COMMENT ON COLUMN js_data.ingest_sessions.backend_pid IS 'pg_backend_pid() of the session';

COMMENT ON COLUMN js_data.ingest_sessions.who IS 'host:pid of the profile_ingest';

COMMENT ON COLUMN js_data.ingest_sessions.at IS 'its last durability barrier';

CREATE TABLE js_data.retention_runs (
    run_at timestamp with time zone DEFAULT now() NOT NULL,
    class text NOT NULL,
    item text NOT NULL,
    rows bigint NOT NULL,
    cutoff timestamp with time zone,
    run_by text DEFAULT CURRENT_USER NOT NULL
);

COMMENT ON TABLE js_data.retention_runs IS 'what each run of apply_retention_all removed, per table';

COMMENT ON COLUMN js_data.retention_runs.run_at IS 'when the run was (its transaction''s start)';

COMMENT ON COLUMN js_data.retention_runs.class IS 'the setting that applied: slices, jobs, quarantine or rollups';

COMMENT ON COLUMN js_data.retention_runs.item IS 'the table (or partition) rows were removed from';

COMMENT ON COLUMN js_data.retention_runs.rows IS 'rows removed';

COMMENT ON COLUMN js_data.retention_runs.cutoff IS 'the time before which the class''s data went';

COMMENT ON COLUMN js_data.retention_runs.run_by IS 'database role that ran it';

ALTER TABLE js_data.workflows ALTER COLUMN workflow_id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME js_data.workflows_workflow_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE ONLY js_data.clusters
    ADD CONSTRAINT clusters_name_key UNIQUE (name);

ALTER TABLE ONLY js_data.clusters
    ADD CONSTRAINT clusters_pkey PRIMARY KEY (cluster_id);

ALTER TABLE ONLY js_data.dependencies
    ADD CONSTRAINT dependencies_pkey PRIMARY KEY (cluster_id, to_job, kind, from_job, from_step, to_step, file_id);

ALTER TABLE ONLY js_data.file_accesses
    ADD CONSTRAINT file_accesses_pkey PRIMARY KEY (cluster_id, job_id, step_id, node, file_id);

ALTER TABLE ONLY js_data.files
    ADD CONSTRAINT files_cluster_id_path_node_key UNIQUE (cluster_id, path, node);

ALTER TABLE ONLY js_data.files
    ADD CONSTRAINT files_pkey PRIMARY KEY (cluster_id, file_id);

ALTER TABLE ONLY js_data.ingest_sessions
    ADD CONSTRAINT ingest_sessions_pkey PRIMARY KEY (backend_pid);

ALTER TABLE ONLY js_data.jobs
    ADD CONSTRAINT jobs_pkey PRIMARY KEY (cluster_id, job_id);

ALTER TABLE ONLY js_data.live_step_nodes
    ADD CONSTRAINT live_step_nodes_pkey PRIMARY KEY (cluster_id, job_id, step_id, node);

ALTER TABLE ONLY js_data.processes
    ADD CONSTRAINT processes_pkey PRIMARY KEY (cluster_id, job_id, step_id, node, pid, image);

ALTER TABLE ONLY js_data.quarantine
    ADD CONSTRAINT quarantine_pkey PRIMARY KEY (cluster_id, job_id, step_id, node, file);

ALTER TABLE ONLY js_data.retention_log
    ADD CONSTRAINT retention_log_pkey PRIMARY KEY (partition, dropped_at);

ALTER TABLE ONLY js_data.retention_runs
    ADD CONSTRAINT retention_runs_pkey PRIMARY KEY (run_at, class, item);

ALTER TABLE ONLY js_data.retention_settings
    ADD CONSTRAINT retention_settings_pkey PRIMARY KEY (only_row);

ALTER TABLE ONLY js_data.series_cluster
    ADD CONSTRAINT series_cluster_pkey PRIMARY KEY (cluster_id, chunk);

ALTER TABLE ONLY js_data.series_node
    ADD CONSTRAINT series_node_pkey PRIMARY KEY (cluster_id, node, chunk);

ALTER TABLE ONLY js_data.series_step_node
    ADD CONSTRAINT series_step_node_pkey PRIMARY KEY (cluster_id, job_id, step_id, node, chunk);

ALTER TABLE ONLY js_data.series_step
    ADD CONSTRAINT series_step_pkey PRIMARY KEY (cluster_id, job_id, step_id, chunk);

ALTER TABLE ONLY js_data.slice_horizon
    ADD CONSTRAINT slice_horizon_pkey PRIMARY KEY (only_row);

ALTER TABLE ONLY js_data.step_nodes
    ADD CONSTRAINT step_nodes_pkey PRIMARY KEY (cluster_id, job_id, step_id, node);

ALTER TABLE ONLY js_data.step_trees
    ADD CONSTRAINT step_trees_pkey PRIMARY KEY (cluster_id, job_id, step_id, node, tree);

ALTER TABLE ONLY js_data.steps
    ADD CONSTRAINT steps_pkey PRIMARY KEY (cluster_id, job_id, step_id);

ALTER TABLE ONLY js_data.totals_pending
    ADD CONSTRAINT totals_pending_pkey PRIMARY KEY (cluster_id, job_id, step_id, node);

ALTER TABLE ONLY js_data.usage_daily
    ADD CONSTRAINT usage_daily_pkey PRIMARY KEY (cluster_id, day, uid);

ALTER TABLE ONLY js_data.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (cluster_id, uid);

ALTER TABLE ONLY js_data.workflows
    ADD CONSTRAINT workflows_pkey PRIMARY KEY (cluster_id, workflow_id);

CREATE INDEX dependencies_from ON js_data.dependencies USING btree (cluster_id, from_job);

CREATE UNIQUE INDEX dependency_refs_key ON js_data.dependency_refs USING btree (cluster_id, to_job, ref_job, COALESCE(ref_task, '-1'::integer), condition);

CREATE INDEX dependency_refs_ref ON js_data.dependency_refs USING btree (cluster_id, ref_job);

CREATE INDEX file_accesses_readers ON js_data.file_accesses USING btree (cluster_id, file_id) WHERE (first_read IS NOT NULL);

CREATE INDEX file_accesses_writers ON js_data.file_accesses USING btree (cluster_id, file_id) WHERE (last_write IS NOT NULL);

CREATE INDEX jobs_array ON js_data.jobs USING btree (cluster_id, array_job_id) WHERE (array_job_id IS NOT NULL);

CREATE INDEX jobs_submit ON js_data.jobs USING btree (submit_time DESC NULLS LAST, job_id DESC);

CREATE INDEX jobs_user_end ON js_data.jobs USING btree (cluster_id, uid, end_time);

COMMENT ON INDEX js_data.jobs_user_end IS 'time edges: jobs of a user by end time (js.time_edges)';

CREATE INDEX jobs_user_submit ON js_data.jobs USING btree (cluster_id, uid, submit_time DESC NULLS LAST, job_id DESC);

CREATE INDEX jobs_user_time ON js_data.jobs USING btree (cluster_id, uid, start_time);

CREATE INDEX jobs_workflow ON js_data.jobs USING btree (cluster_id, workflow_id);

CREATE INDEX live_processes_step ON js_data.live_processes USING btree (cluster_id, job_id, step_id, node);

CREATE INDEX live_slice_metrics_step ON js_data.live_slice_metrics USING btree (cluster_id, job_id, step_id, node, slice);

CREATE INDEX processes_missing ON js_data.processes USING btree (cluster_id, job_id, step_id) WHERE (missing <> ''::text);

COMMENT ON INDEX js_data.processes_missing IS 'processes whose profile says something is missing (js_data.incomplete_reason)';

CREATE INDEX series_step_node_chunk ON ONLY js_data.series_step_node USING btree (cluster_id, chunk);

CREATE INDEX step_nodes_ingested ON js_data.step_nodes USING btree (ingested_at);

CREATE INDEX steps_incomplete ON js_data.steps USING btree (cluster_id, job_id) WHERE incomplete;

CREATE INDEX steps_slices ON js_data.steps USING btree (cluster_id, first_slice);

CREATE INDEX totals_pending_queued ON js_data.totals_pending USING btree (queued_at);

CREATE INDEX workflows_submit ON js_data.workflows USING btree (first_submit DESC NULLS LAST, workflow_id DESC);

CREATE UNIQUE INDEX workflows_tag ON js_data.workflows USING btree (cluster_id, uid, tag) WHERE (tag IS NOT NULL);

CREATE INDEX workflows_user_submit ON js_data.workflows USING btree (cluster_id, uid, first_submit DESC NULLS LAST, workflow_id DESC);

ALTER TABLE ONLY js_data.jobs
    ADD CONSTRAINT jobs_cluster_id_fkey FOREIGN KEY (cluster_id) REFERENCES js_data.clusters(cluster_id);

ALTER TABLE ONLY js_data.users
    ADD CONSTRAINT users_cluster_id_fkey FOREIGN KEY (cluster_id) REFERENCES js_data.clusters(cluster_id);

ALTER TABLE ONLY js_data.workflows
    ADD CONSTRAINT workflows_cluster_id_fkey FOREIGN KEY (cluster_id) REFERENCES js_data.clusters(cluster_id);

-- the one row of the retention settings (its defaults)
INSERT INTO js_data.retention_settings DEFAULT VALUES;
