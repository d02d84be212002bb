-- SPDX-License-Identifier: GPL-2.0-or-later
-- the steps due: rested p_settle (NULL: every queued step, due or not), at most p_limit, taken
-- from the queue (the caller computes them in its transaction; another daemon skips the rows it
-- holds). Its cost does not grow with the queue (docs/insight.md, "Cost"): the settle bound is
-- a range of the index on queued_at (an OR with "p_settle IS NULL" made it a filter, read over
-- the whole queue when nothing was due); one row at a time, LIMIT 1 (a LIMIT p_limit is
-- planned for a tenth of the queue: a generic plan may sort the queue), deleted by its key. As
-- one DELETE joined to the choice, the planner hashed the whole queue for every step taken:
-- 0.4-0.6 s a step with 10^6 queued, against 0.15 ms now.
CREATE FUNCTION js_data.insight_take(p_settle interval, p_limit integer)
RETURNS TABLE (cluster_id smallint, job_id bigint, step_id text) LANGUAGE plpgsql AS $$
DECLARE
    due record;
BEGIN
    FOR i IN 1 .. p_limit LOOP
        SELECT p.cluster_id, p.job_id, p.step_id INTO due FROM js_data.insight_pending p
        WHERE p.queued_at <= coalesce(now() - p_settle, 'infinity'::timestamptz)
        ORDER BY p.queued_at LIMIT 1 FOR UPDATE SKIP LOCKED;
        EXIT WHEN NOT FOUND;
        DELETE FROM js_data.insight_pending q
        WHERE q.cluster_id = due.cluster_id AND q.job_id = due.job_id AND q.step_id = due.step_id;
        cluster_id := due.cluster_id;
        job_id := due.job_id;
        step_id := due.step_id;
        RETURN NEXT;
    END LOOP;
END $$;
COMMENT ON FUNCTION js_data.insight_take(interval, integer) IS 'take up to p_limit steps that rested p_settle in js_data.insight_pending (NULL: every one), oldest first';
