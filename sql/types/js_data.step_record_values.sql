-- SPDX-License-Identifier: GPL-2.0-or-later
-- The values of a step record: its scalar fields in js_step_record_fields' order (argv and
-- task_list stay in the record), then the record.
CREATE TYPE js_data.step_record_values AS (
    format text, version bigint, cluster text, job_id bigint, step text, step_id bigint,
    array_job_id bigint, array_task_id bigint, node text, node_index bigint, nodes bigint, node_list text,
    cpus bigint, tasks bigint, local_tasks bigint, uid bigint, gid bigint, "user" text,
    start_ns bigint, end_ns bigint, elapsed_ns bigint, executable text, work_dir text,
    exit_code bigint, signal bigint, state text, profiled boolean, profile_reason text, profiler text,
    profiler_version text, slice_seconds bigint, workflow text, source text, writer_version text,
    written_ns bigint, truncated boolean,
    record jsonb
);
COMMENT ON TYPE js_data.step_record_values IS 'the values of a validated step record as profile_ingest hands them over: its scalar fields in js_step_record_fields'' order, the record itself (docs/record-format.md)';
