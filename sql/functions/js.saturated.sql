-- SPDX-License-Identifier: GPL-2.0-or-later
-- A sum as bigint, at the ends of bigint rather than an error (issue 35): summed over many steps
-- or nodes, values that each stay within a node's bounds can pass 2^63 - 1 (292 CPU-years in
-- ns: a 10,000-node job's two hours), and "bigint out of range" would fail the page or the
-- ingest. Plain SQL of one expression: the planner inlines it.
CREATE FUNCTION js.saturated(p numeric) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS 'SELECT least(greatest(p, -9223372036854775808), 9223372036854775807)::bigint';
COMMENT ON FUNCTION js.saturated(numeric) IS 'p as bigint, at -2^63 or 2^63 - 1 when beyond (sums of bounded values; issue 35)';
