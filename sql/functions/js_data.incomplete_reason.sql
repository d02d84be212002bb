-- SPDX-License-Identifier: GPL-2.0-or-later
-- What is missing of a step on one node (p_node), or of the whole step (p_node NULL), in
-- words: the refused profiles by reason, the processes not recorded by reason (summed over
-- the nodes), then the processes by what their profile says is missing; most frequent first
-- within each kind, at most five parts (then "N more reasons"), e.g.
--   1 profile quarantined: field "end" is missing; 12 processes not recorded: the job's spool
--   quota on this node (1073741824 B, 10000 files) was reached; 2 processes: CPU time after the kill
-- NULL when nothing is missing.
CREATE FUNCTION js_data.incomplete_reason(p_cluster smallint, p_job bigint, p_step text, p_node text) RETURNS text
LANGUAGE sql STABLE AS $$
    WITH parts AS (
        SELECT 0 AS kind, count(*) AS n, q.reason AS what FROM js_data.quarantine q
        WHERE q.cluster_id = p_cluster AND q.job_id = p_job AND q.step_id = p_step AND (p_node IS NULL OR q.node = p_node)
        GROUP BY q.reason
        UNION ALL
        SELECT 1, sum(sn.unrecorded), sn.unrecorded_reason FROM js_data.step_nodes sn
        WHERE sn.cluster_id = p_cluster AND sn.job_id = p_job AND sn.step_id = p_step AND (p_node IS NULL OR sn.node = p_node)
          AND sn.unrecorded > 0
        GROUP BY sn.unrecorded_reason
        UNION ALL
        SELECT 2, count(*), p.missing FROM js_data.processes p
        WHERE p.cluster_id = p_cluster AND p.job_id = p_job AND p.step_id = p_step AND (p_node IS NULL OR p.node = p_node)
          AND p.missing <> ''
        GROUP BY p.missing
    ), ranked AS (
        SELECT kind, n, what, row_number() OVER (ORDER BY kind, n DESC, what) AS i, count(*) OVER () AS total FROM parts
    )
    SELECT nullif(concat_ws('; ',
               string_agg(n || CASE kind
                                   WHEN 0 THEN CASE WHEN n = 1 THEN ' profile quarantined: ' ELSE ' profiles quarantined: ' END || what
                                   WHEN 1 THEN CASE WHEN n = 1 THEN ' process not recorded' ELSE ' processes not recorded' END
                                               || coalesce(': ' || nullif(what, ''), '')
                                   ELSE CASE WHEN n = 1 THEN ' process: ' ELSE ' processes: ' END || what END,
                          '; ' ORDER BY i) FILTER (WHERE i <= 5),
               CASE WHEN max(total) > 5 THEN (max(total) - 5) || ' more reasons' END), '')
    FROM ranked $$;
COMMENT ON FUNCTION js_data.incomplete_reason(smallint, bigint, text, text) IS 'what is missing of a step on a node (or of the whole step: node NULL), in words: profiles quarantined, processes not recorded, processes with something missing; NULL when nothing';
