-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE FUNCTION js_data.slice_partition_width() RETURNS bigint
    LANGUAGE sql IMMUTABLE AS 'SELECT 21600::bigint';
COMMENT ON FUNCTION js_data.slice_partition_width() IS 'slices per partition of the per-slice tables (21600 = one day of 4 s slices)';
