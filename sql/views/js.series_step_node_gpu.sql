-- SPDX-License-Identifier: GPL-2.0-or-later
-- Per step-node and GPU, its slices as encoded series (migration 043; docs/schema.md, "Series"),
-- with the job's uid for js.may_see: what the step endpoint decodes for its GPU charts.
CREATE VIEW js.series_step_node_gpu AS
    SELECT s.cluster_id, s.job_id, s.step_id, s.node, j.uid, s.uuid, s.chunk, s.first_slice, s.slices,
           s.samples, s.util_n, s.util_sm_sum, s.util_mem_sum, s.util_sm_max, s.util_mem_max, s.mem_used_max,
           s.power_n, s.power_mw_sum, s.energy_uj
    FROM js_data.series_step_node_gpu s
    JOIN js_data.jobs j ON j.cluster_id = s.cluster_id AND j.job_id = s.job_id;
COMMENT ON VIEW js.series_step_node_gpu IS 'per step-node, GPU and chunk of 900 slices: readings, readings with utilization and the sums and maxima of SM and memory utilization (%), peak memory (bytes), readings with power and their sum (mW), energy (uJ); each an encoded series (js.series_decode)';
