-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.workflows AS
    SELECT w.cluster_id, c.name AS cluster, w.workflow_id, w.uid, u.name AS user_name, w.tag, w.name,
           w.tag IS NULL AS derived, w.jobs, w.first_submit, w.first_start, w.last_end, w.jobs_not_ok
    FROM js_data.workflows w
    JOIN js_data.clusters c USING (cluster_id)
    LEFT JOIN js_data.users u ON u.cluster_id = w.cluster_id AND u.uid = w.uid;
COMMENT ON VIEW js.workflows IS 'workflows: explicit (--workflow tag) or derived (connected scheduler and file edges of one user''s untagged jobs), with job counts and time span';
