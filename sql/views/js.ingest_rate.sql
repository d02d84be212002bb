-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.ingest_rate AS
    SELECT date_trunc('minute', ingested_at) AS minute, count(*)::integer AS step_nodes,
           sum(profiles)::integer AS profiles, sum(quarantined)::integer AS quarantined
    FROM js_data.step_nodes GROUP BY 1;
COMMENT ON VIEW js.ingest_rate IS 'step records ingested per minute (profile_ingest --status reads it)';
