-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.retention AS
    SELECT s.slice_keep, now() - s.slice_keep AS cutoff, h.slice AS horizon_slice,
           to_timestamp(h.slice * (SELECT coalesce(max(slice_seconds), 4) FROM js_data.clusters)) AS horizon,
           (SELECT max(dropped_at) FROM js_data.retention_log) AS last_drop,
           (SELECT count(*) FROM js.slice_partitions)::integer AS partitions
    FROM js_data.retention_settings s LEFT JOIN js_data.slice_horizon h ON true;
COMMENT ON VIEW js.retention IS 'retention: how long per-slice detail is kept, the cutoff, the horizon below which it was dropped, the partitions left';
