-- SPDX-License-Identifier: GPL-2.0-or-later
-- Jobs with their cluster and user names and what their records say. The job fields Slurm
-- gives (issue 16: quality of service, the time the job became eligible to run, the batch
-- script's path as submitted) are read from the kept job record (docs/record-format.md), as its
-- last columns; nothing is stored twice.
CREATE VIEW js.jobs AS
    SELECT j.cluster_id, c.name AS cluster, j.job_id, j.uid, u.name AS user_name, j.gid, j.name, j.partition,
           j.account, j.workflow_id,
           (SELECT w.name FROM js_data.workflows w
            WHERE w.cluster_id = j.cluster_id AND w.workflow_id = j.workflow_id) AS workflow_name,
           j.workflow_tag, j.submit_time, j.start_time,
           j.end_time, extract(epoch FROM j.end_time - j.start_time)::double precision AS elapsed_s,
           j.state, j.exit_code, j.num_nodes, j.num_cpus, j.num_tasks, j.nodelist, j.dependency, j.work_dir,
           (j.record->>'final')::boolean AS final,
           (SELECT count(*) FROM js_data.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id)::integer AS steps,
           EXISTS (SELECT 1 FROM js_data.steps s WHERE s.cluster_id = j.cluster_id AND s.job_id = j.job_id AND s.incomplete) AS incomplete,
           -- counted only where there is one: the count's sort, set up per job, was a tenth of the
           -- job list's database time (issue 34)
           CASE WHEN EXISTS (SELECT 1 FROM js_data.live_step_nodes l
                             WHERE l.cluster_id = j.cluster_id AND l.job_id = j.job_id)
                THEN (SELECT count(DISTINCT l.step_id) FROM js_data.live_step_nodes l
                      WHERE l.cluster_id = j.cluster_id AND l.job_id = j.job_id)::integer
                ELSE 0 END AS running_steps,
           j.array_job_id, j.array_task_id, j.reason,
           j.record->>'qos' AS qos,
           to_timestamp(nullif((j.record->>'eligible_ns')::numeric, 0) / 1e9) AS eligible_time,
           j.record->>'batch_script' AS batch_script,
           (SELECT sum(g.e) FROM (
                -- a GPU the batch step and the job's steps both read: counted once, the larger
                -- (the batch step spans them; docs/gpu.md, "A job's energy")
                SELECT greatest(sum(x.energy_j) FILTER (WHERE x.step_id = 'batch'),
                                sum(x.energy_j) FILTER (WHERE x.step_id <> 'batch')) AS e
                FROM js_data.step_node_gpus x
                WHERE x.cluster_id = j.cluster_id AND x.job_id = j.job_id
                GROUP BY x.node, x.uuid) g) AS gpu_energy_j,
           (SELECT sum(sn.cpu_energy_j) FROM js_data.step_node_energy sn
            WHERE sn.cluster_id = j.cluster_id AND sn.job_id = j.job_id) AS cpu_energy_j
    FROM js_data.jobs j
    JOIN js_data.clusters c USING (cluster_id)
    LEFT JOIN js_data.users u ON u.cluster_id = j.cluster_id AND u.uid = j.uid;
COMMENT ON VIEW js.jobs IS 'jobs with user and workflow names; final is false while the record was written before the job ended; running_steps counts the steps with provisional data (running); array_job_id/array_task_id name an array task (35_1); reason is Slurm''s state reason (a job that never started: why it waited); qos, eligible_time (when it became eligible to run) and batch_script (its path as submitted; NULL for srun jobs and --wrap) as the job record gave them; gpu_energy_j: the energy of its GPUs (a GPU both its batch step and its other steps read counted once: the larger of the two), cpu_energy_j its steps'' shares of their nodes'' CPU energy, J (NULL: none measured; docs/gpu.md)';
