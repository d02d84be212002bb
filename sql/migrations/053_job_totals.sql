-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 053: each job's totals over its steps, kept (issue 34; the job
-- list). The job list showed each of its 500 jobs' usage and insight summed over the job's
-- steps at request time: a third of its database time at 10^6 jobs. The triggers of
-- sql/functions/js_data.job_totals_note.sql keep a row per job right in the writing
-- transaction, whatever writes the steps or their insight (the ingest, merges, the fold,
-- retention); js.job_totals reads it, or the steps themselves while one still runs.

CREATE TABLE js_data.job_totals (
    cluster_id smallint NOT NULL,
    job_id bigint NOT NULL,
    cpu_ns bigint,
    max_rss_kib bigint,
    read_bytes bigint,
    write_bytes bigint,
    profiled_steps integer NOT NULL,
    light text,
    lost_s double precision,
    PRIMARY KEY (cluster_id, job_id)
);

COMMENT ON TABLE js_data.job_totals IS 'per job, its recorded steps summed (steps but extern) and their insight rolled up, kept by the triggers of js_data.job_totals_note; read through js.job_totals';
COMMENT ON COLUMN js_data.job_totals.cluster_id IS 'cluster of the job';
COMMENT ON COLUMN js_data.job_totals.job_id IS 'the job';
COMMENT ON COLUMN js_data.job_totals.cpu_ns IS 'CPU time of its steps but extern (ns, saturated at the largest bigint; NULL: no such step)';
COMMENT ON COLUMN js_data.job_totals.max_rss_kib IS 'the largest peak resident set of those steps (KiB)';
COMMENT ON COLUMN js_data.job_totals.read_bytes IS 'bytes those steps read (saturated)';
COMMENT ON COLUMN js_data.job_totals.write_bytes IS 'bytes those steps wrote (saturated)';
COMMENT ON COLUMN js_data.job_totals.profiled_steps IS 'how many of those steps were profiled';
COMMENT ON COLUMN js_data.job_totals.light IS 'the worst light of its steps'' insights (js.light_rank; NULL: none computed)';
COMMENT ON COLUMN js_data.job_totals.lost_s IS 'the time its steps lost, summed over their insights (s)';

-- every job recorded so far, summed as js_data.job_totals_note sums them (js.saturated and
-- js.light_rank written out: the functions are created after the migrations); from here on
-- the triggers keep them
INSERT INTO js_data.job_totals (cluster_id, job_id, cpu_ns, max_rss_kib, read_bytes, write_bytes, profiled_steps, light, lost_s)
SELECT k.cluster_id, k.job_id, u.cpu_ns, u.max_rss_kib, u.read_bytes, u.write_bytes, coalesce(u.profiled_steps, 0), i.light, i.lost_s
FROM js_data.jobs k
LEFT JOIN (
    SELECT s.cluster_id, s.job_id,
           least(greatest(sum(s.cpu_ns), -9223372036854775808), 9223372036854775807)::bigint AS cpu_ns, max(s.max_rss_kib) AS max_rss_kib,
           least(greatest(sum(s.read_bytes), -9223372036854775808), 9223372036854775807)::bigint AS read_bytes,
           least(greatest(sum(s.write_bytes), -9223372036854775808), 9223372036854775807)::bigint AS write_bytes,
           count(*) FILTER (WHERE s.profiled)::integer AS profiled_steps
    FROM js_data.steps s WHERE s.step_id <> 'extern' GROUP BY s.cluster_id, s.job_id) u
  ON u.cluster_id = k.cluster_id AND u.job_id = k.job_id
LEFT JOIN (
    SELECT i.cluster_id, i.job_id,
           (array_agg(i.light ORDER BY CASE i.light WHEN 'red' THEN 3 WHEN 'yellow' THEN 2 WHEN 'green' THEN 1 ELSE 0 END DESC))[1] AS light,
           sum(i.lost_s) AS lost_s
    FROM js_data.step_insights i GROUP BY i.cluster_id, i.job_id) i
  ON i.cluster_id = k.cluster_id AND i.job_id = k.job_id;
