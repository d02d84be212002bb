-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.clusters AS
    SELECT cluster_id, name AS cluster, slice_seconds FROM js_data.clusters;
COMMENT ON VIEW js.clusters IS 'clusters and their slice length';
