-- The rows an ingest produced, in a stable text form (one "table|columns..." line per row):
-- what tests/integration/ingest/suites.sh compares with each case's "rows" file.
-- Times are seconds after 2026-11-18T00:00:00Z (1795219200, slice 448804800 at 4 s).
\pset footer off
SELECT 'job', job_id, user_name, name, state, final, workflow_name, (SELECT count(*) FROM js.jobs j2 WHERE j2.workflow_id = j.workflow_id), steps, incomplete
  FROM js.jobs j ORDER BY job_id;
SELECT 'step', job_id, step_id, name, state, profiled, nodes_ingested, incomplete, first_slice - 448804800, last_slice - 448804800,
       processes, wall_ns, compute_ns, io_posix_ns, read_bytes, write_bytes, killed_processes, incomplete_reason, unrecorded_processes
  FROM js.steps ORDER BY job_id, step_id;
-- a step merged over its nodes' records: its span, end (exit code) and counts
SELECT 'step_merged', job_id, step_id, extract(epoch FROM start_time) - 1795219200, extract(epoch FROM end_time) - 1795219200,
       exit_code, num_nodes, num_tasks, num_cpus, nodelist
  FROM js.steps WHERE nodes_ingested > 1 ORDER BY job_id, step_id;
SELECT 'step_node', job_id, step_id, node, extract(epoch FROM start_time) - 1795219200, extract(epoch FROM end_time) - 1795219200,
       profiles, quarantined, incomplete, incomplete_reason, unrecorded, unrecorded_reason
  FROM js.step_nodes ORDER BY job_id, step_id, node;
SELECT 'process', job_id, step_id, node, pid, image, ended_by, extract(epoch FROM start_time) - 1795219200, wall_ns, compute_ns,
       posix_read_bytes, posix_write_bytes, cpu_ns, extract(epoch FROM end_time) - 1795219200, exit_code, signal, missing
  FROM js.processes ORDER BY job_id, step_id, node, pid, image;
-- commands with characters COPY escapes (a tab, a newline, backslashes) and quotes
SELECT 'process_text', job_id, step_id, node, pid, image, to_json(exe), to_json(args)
  FROM js.processes WHERE exe || args ~ '[^A-Za-z0-9/._ -]' ORDER BY job_id, step_id, node, pid, image;
SELECT 'slice', job_id, step_id, node, slice - 448804800, processes, posix_read_bytes, posix_write_bytes, posix_ns, cpu_ns
  FROM js_data.slice_metrics ORDER BY job_id, step_id, node, slice;
SELECT 'total_node', node, slice - 448804800, step_nodes, posix_read_bytes, posix_write_bytes, cpu_ns
  FROM js.slice_totals_node ORDER BY node, slice;
SELECT 'total_cluster', slice - 448804800, step_nodes, posix_read_bytes, posix_write_bytes, cpu_ns
  FROM js.slice_totals_cluster ORDER BY slice;
SELECT 'file_access', job_id, step_id, node, path, scope, file_node, mode, access, processes, opens, reads, writes, bytes_read, bytes_written,
       extract(epoch FROM first_read) - 1795219200, extract(epoch FROM last_write) - 1795219200, interfaces
  FROM js.file_accesses ORDER BY job_id, step_id, node, path;
SELECT 'edge', kind, from_job, from_step, to_job, to_step, condition, path,
       extract(epoch FROM from_time) - 1795219200, extract(epoch FROM to_time) - 1795219200, nullif(from_path, path)
  FROM js.dependencies ORDER BY kind, from_job, to_job, from_step, to_step, path;
SELECT 'quarantine', job_id, step_id, node, file, reason FROM js.quarantine ORDER BY file;
