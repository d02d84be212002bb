-- SPDX-License-Identifier: GPL-2.0-or-later
-- A sum as bigint, at the ends of bigint rather than an error (issue 35): summed over many steps
-- or nodes, values that each stay within a node's bounds can pass 2^63 - 1 (292 CPU-years in
-- ns: a 10,000-node job's two hours), and "bigint out of range" would fail the page or the
-- ingest. NULL (the sum of no rows) stays NULL: greatest() alone would skip it and answer -2^63
-- (migration 056). Plain SQL of one expression, not STRICT: the planner inlines it.
CREATE FUNCTION js.saturated(p numeric) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS 'SELECT CASE WHEN p IS NOT NULL THEN least(greatest(p, -9223372036854775808), 9223372036854775807)::bigint END';
COMMENT ON FUNCTION js.saturated(numeric) IS 'p as bigint, at -2^63 or 2^63 - 1 when beyond, NULL when NULL (sums of bounded values; issue 35)';
