-- SPDX-License-Identifier: GPL-2.0-or-later
-- A time edge from -> to that went (a scheduler or file edge explains the start now, or the
-- job's times changed) takes its merge with it (docs/dependencies.md, "Workflows"): when
-- nothing else connects the two jobs in their derived workflow, the workflow splits in two,
-- the side of its earliest job keeping it. Only the component of the edge's source is walked
-- (each job once), and not at all when another edge joins the two jobs directly (an engine's
-- next job whose time edge a file edge from the same job replaced: the usual case).
CREATE FUNCTION js_data.unmerge_time_edge(p_cluster smallint, p_from bigint, p_to bigint) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    v_wf bigint;
    v_uid integer;
    v_side bigint[];
    v_first bigint;
    v_new bigint;
BEGIN
    SELECT a.workflow_id, a.uid INTO v_wf, v_uid FROM js_data.jobs a JOIN js_data.jobs b
        ON b.cluster_id = a.cluster_id AND b.job_id = p_to AND b.workflow_id = a.workflow_id
        WHERE a.cluster_id = p_cluster AND a.job_id = p_from AND a.workflow_tag IS NULL AND b.workflow_tag IS NULL;
    IF NOT FOUND OR EXISTS (SELECT 1 FROM js_data.dependencies d WHERE d.cluster_id = p_cluster
                            AND ((d.from_job = p_from AND d.to_job = p_to) OR (d.from_job = p_to AND d.to_job = p_from))) THEN
        RETURN false;
    END IF;
    -- the jobs of the workflow the source still reaches along its edges and arrays
    WITH RECURSIVE c(job_id) AS (
        SELECT p_from
        UNION
        SELECT n.job_id FROM c CROSS JOIN LATERAL (
            SELECT d.to_job AS job_id FROM js_data.dependencies d WHERE d.cluster_id = p_cluster AND d.from_job = c.job_id
            UNION ALL
            SELECT d.from_job FROM js_data.dependencies d WHERE d.cluster_id = p_cluster AND d.to_job = c.job_id
            UNION ALL
            SELECT t.job_id FROM js_data.jobs me JOIN js_data.jobs t
                ON t.cluster_id = me.cluster_id AND t.array_job_id = me.array_job_id
            WHERE me.cluster_id = p_cluster AND me.job_id = c.job_id) n
        JOIN js_data.jobs j ON j.cluster_id = p_cluster AND j.job_id = n.job_id AND j.workflow_id = v_wf
                           AND j.uid = v_uid AND j.workflow_tag IS NULL)
    SELECT array_agg(job_id) INTO v_side FROM c;
    IF p_to = ANY (v_side) THEN
        RETURN false;
    END IF;
    -- the side without the workflow's earliest job moves to a new workflow, named by its first
    SELECT min(job_id) INTO v_first FROM js_data.jobs WHERE cluster_id = p_cluster AND workflow_id = v_wf;
    IF v_first = ANY (v_side) THEN
        v_side := ARRAY(SELECT job_id FROM js_data.jobs WHERE cluster_id = p_cluster AND workflow_id = v_wf
                        AND job_id <> ALL (v_side));
    END IF;
    INSERT INTO js_data.workflows (cluster_id, uid, tag, name)
        SELECT p_cluster, v_uid, NULL, coalesce(j.name, 'job ' || j.job_id) FROM js_data.jobs j
        WHERE j.cluster_id = p_cluster AND j.job_id = (SELECT min(x) FROM unnest(v_side) x)
        RETURNING workflow_id INTO v_new;
    UPDATE js_data.jobs SET workflow_id = v_new WHERE cluster_id = p_cluster AND job_id = ANY (v_side);
    RETURN true;
END $$;
COMMENT ON FUNCTION js_data.unmerge_time_edge(smallint, bigint, bigint) IS 'split a derived workflow where a time edge that went was all that joined its two sides (docs/dependencies.md)';
