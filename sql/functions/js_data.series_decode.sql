-- SPDX-License-Identifier: GPL-2.0-or-later
-- The SQL twin of common/series.c. Decoding splits the hex text of the values with one
-- regular expression (C speed); get_byte per value would detoast the series at every call.
-- It names no other function: the views inline it, and the reporting role may not use js_data.
CREATE FUNCTION js_data.series_decode(p bytea, p_n integer) RETURNS bigint[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN p IS NULL THEN array_fill(0::bigint, ARRAY[p_n])
        WHEN get_byte(p, 0) = 0 THEN array_fill(('x' || encode(substring(p FROM 2 FOR 8), 'hex'))::bit(64)::bigint, ARRAY[p_n])
        ELSE ARRAY(SELECT ('x' || encode(substring(p FROM 2 FOR 8), 'hex'))::bit(64)::bigint
                          + ('x' || lpad(r.m[1], 16, '0'))::bit(64)::bigint
                   FROM regexp_matches(encode(substring(p FROM 10), 'hex'), '.{' || (2 * get_byte(p, 0)) || '}', 'g')
                        WITH ORDINALITY AS r(m, i)
                   ORDER BY r.i)
    END $$;
COMMENT ON FUNCTION js_data.series_decode(bytea, integer) IS 'the p_n values of an encoded series (common/series.h); NULL decodes to zeros';
