-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.series_width(p_span bigint) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN p_span = 0 THEN 0 WHEN p_span < 256 THEN 1 WHEN p_span < 65536 THEN 2
                WHEN p_span < 16777216 THEN 3 WHEN p_span < 4294967296 THEN 4 WHEN p_span < 1099511627776 THEN 5
                WHEN p_span < 281474976710656 THEN 6 WHEN p_span < 72057594037927936 THEN 7 ELSE 8 END $$;
COMMENT ON FUNCTION js_data.series_width(bigint) IS 'bytes per value of an encoded series whose values span p_span';
