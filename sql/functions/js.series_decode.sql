-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js.series_decode(p bytea, p_n integer) RETURNS bigint[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    AS 'SELECT js_data.series_decode(p, p_n)';
COMMENT ON FUNCTION js.series_decode(bytea, integer) IS 'the p_n values of an encoded series of the js.series_* views (docs/schema.md, "Series")';
