-- SPDX-License-Identifier: GPL-2.0-or-later
-- The values of a job record: its scalar fields in js_job_record_fields' order (integers as
-- bigint), the dependency list as one array per js_dependency_fields field, then the record.
-- profile_ingest fills it as ROW($n, ...) in that order: a field added to the table is added here.
CREATE TYPE js_data.job_record_values AS (
    format text, version bigint, cluster text, job_id bigint, array_job_id bigint, array_task_id bigint,
    name text, "user" text, uid bigint, "group" text, gid bigint, account text, partition text, qos text,
    submit_ns bigint, eligible_ns bigint, start_ns bigint, end_ns bigint, nodes bigint, node_list text,
    cpus bigint, tasks bigint, dependency text,
    dependencies_type text[], dependencies_job_id bigint[], dependencies_array_task_id bigint[],
    dependencies_delay_minutes bigint[],
    dependency_any boolean, dependency_parse_error boolean, exit_code bigint, signal bigint, state text,
    final boolean, workflow text, work_dir text, batch_script text, batch boolean, source text,
    writer_version text, written_ns bigint, truncated boolean, submitter text,
    reason text,
    record jsonb
);
COMMENT ON TYPE js_data.job_record_values IS 'the values of a validated job record as profile_ingest hands them over: its scalar fields in js_job_record_fields'' order, the dependency list as one array per field, the record itself (docs/record-format.md)';
