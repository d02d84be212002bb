-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.quarantine AS
    SELECT q.*, j.uid FROM js_data.quarantine q
    LEFT JOIN js_data.jobs j ON j.cluster_id = q.cluster_id AND j.job_id = q.job_id;
COMMENT ON VIEW js.quarantine IS 'files the ingest refused and why';
