-- SPDX-License-Identifier: GPL-2.0-or-later
-- Each job's totals as js_data.job_totals keeps them (migration 053), read by key without the
-- live check of js.job_totals: for the job list, which knows from js.jobs' running_steps which
-- of its jobs have a step running and reads only those through js.job_totals (per job, that
-- check and its gated sum were a fifth of the list's database time at 10^6 jobs, issue 34), and
-- the job's step count, incomplete flag and workflow name kept with them (migration 060),
-- js.jobs' own per job.
CREATE VIEW js.job_totals_kept AS
    SELECT t.cluster_id, t.job_id, t.cpu_ns, t.max_rss_kib, t.read_bytes, t.write_bytes, t.profiled_steps,
           t.light, t.lost_s, t.steps, t.incomplete, t.workflow
    FROM js_data.job_totals t;
COMMENT ON VIEW js.job_totals_kept IS 'per job, js_data.job_totals as kept: its recorded steps but extern summed and its insights rolled up (the columns of js.job_totals); steps and incomplete: its recorded steps counted and whether one is incomplete, workflow: its workflow''s name (js.jobs'' steps, incomplete, workflow_name); a step still running is not in it (js.job_totals sums those through js.steps)';
