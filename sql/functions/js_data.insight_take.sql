-- SPDX-License-Identifier: GPL-2.0-or-later
-- the steps due: rested p_settle (NULL: every queued step, due or not), at most p_limit, taken
-- from the queue (the caller computes them in its transaction; another daemon skips the rows it
-- holds). The choice is a MATERIALIZED CTE, made once: as a subquery of the DELETE the planner
-- may rescan it in a nested-loop semi-join, and each rescan skips the rows the DELETE has
-- already taken (its own locks on deleted rows) and returns the next, so that LIMIT 1 took the
-- whole queue.
CREATE FUNCTION js_data.insight_take(p_settle interval, p_limit integer)
RETURNS TABLE (cluster_id smallint, job_id bigint, step_id text) LANGUAGE sql AS $$
    WITH due AS MATERIALIZED (
        SELECT p.cluster_id, p.job_id, p.step_id FROM js_data.insight_pending p
        WHERE p_settle IS NULL OR p.queued_at <= now() - p_settle
        ORDER BY p.queued_at LIMIT p_limit FOR UPDATE SKIP LOCKED)
    DELETE FROM js_data.insight_pending q USING due
    WHERE q.cluster_id = due.cluster_id AND q.job_id = due.job_id AND q.step_id = due.step_id
    RETURNING q.cluster_id, q.job_id, q.step_id $$;
COMMENT ON FUNCTION js_data.insight_take(interval, integer) IS 'take up to p_limit steps that rested p_settle in js_data.insight_pending (NULL: every one), oldest first';
