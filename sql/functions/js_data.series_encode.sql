-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.series_encode(p bigint[]) RETURNS bytea
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN coalesce(s.lo, 0) = 0 AND coalesce(s.hi, 0) = 0 THEN NULL::bytea
                ELSE set_byte('\x00'::bytea, 0, s.w) || int8send(s.lo) ||
                     CASE WHEN s.w = 0 THEN ''::bytea
                          ELSE (SELECT string_agg(substring(int8send(coalesce(x, 0) - s.lo) FROM 9 - s.w), ''::bytea ORDER BY i)
                                FROM unnest(p) WITH ORDINALITY AS u(x, i)) END
           END
    FROM (SELECT m.lo, m.hi, js_data.series_width(m.hi - m.lo) AS w
          FROM (SELECT min(coalesce(x, 0)) AS lo, max(coalesce(x, 0)) AS hi FROM unnest(p) AS x) m) s $$;
COMMENT ON FUNCTION js_data.series_encode(bigint[]) IS 'encode values as a series (common/series.h); NULL when all are zero';
