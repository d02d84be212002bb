-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.step_advice AS
    SELECT c.name AS cluster, a.cluster_id, a.job_id, a.step_id, u.name AS user_name,
           a.code, a.severity, a.message, a.figures
    FROM js_data.step_advice a
    JOIN js_data.clusters c ON c.cluster_id = a.cluster_id
    JOIN js_data.jobs j ON j.cluster_id = a.cluster_id AND j.job_id = a.job_id
    LEFT JOIN js_data.users u ON u.cluster_id = j.cluster_id AND u.uid = j.uid;
COMMENT ON VIEW js.step_advice IS 'advice codes of each step (docs/insight.md "Advice"): code, severity, a plain sentence and the figures that triggered it';
