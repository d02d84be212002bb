-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.series_chunk_width() RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT 900::bigint';
COMMENT ON FUNCTION js_data.series_chunk_width() IS 'slices per stored chunk of a series (900 = one hour of 4 s slices); a divisor of js_data.slice_partition_width()';
