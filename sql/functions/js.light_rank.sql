-- SPDX-License-Identifier: GPL-2.0-or-later
-- the worst light first: red, yellow, green, grey. In js, so that the web's queries (which roll
-- the lights up per job and workflow) rank them the same way; inlined by the planner.
CREATE FUNCTION js.light_rank(p_light text) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT CASE p_light WHEN 'red' THEN 3 WHEN 'yellow' THEN 2 WHEN 'green' THEN 1 ELSE 0 END $$;
COMMENT ON FUNCTION js.light_rank(text) IS 'order of the traffic lights, worst highest: red 3, yellow 2, green 1, grey 0';
