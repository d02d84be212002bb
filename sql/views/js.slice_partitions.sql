-- SPDX-License-Identifier: GPL-2.0-or-later
-- retention drops the partitions of the series tables (rows_dropped counts chunk rows)
CREATE VIEW js.slice_partitions AS
    SELECT c.relname::text AS partition, pc.relname::text AS parent,
           b[1]::bigint AS first_slice, b[2]::bigint AS end_slice,
           to_timestamp(b[1]::bigint * (SELECT coalesce(min(slice_seconds), 4) FROM js_data.clusters)) AS oldest,
           to_timestamp(b[2]::bigint * (SELECT coalesce(max(slice_seconds), 4) FROM js_data.clusters)) AS newest
    FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    JOIN pg_class pc ON pc.oid = i.inhparent
    JOIN pg_namespace n ON n.oid = pc.relnamespace AND n.nspname = 'js_data'
    CROSS JOIN LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid),
                                    'FROM \(''?(-?[0-9]+)''?\) TO \(''?(-?[0-9]+)''?\)') b
    WHERE pc.relname IN ('series_step_node', 'series_step', 'series_node', 'series_cluster');
COMMENT ON VIEW js.slice_partitions IS 'partitions of the per-slice tables: slice range [first_slice, end_slice) and the time span it can hold (oldest, newest over the clusters'' slice lengths)';
