-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.users AS
    SELECT u.cluster_id, c.name AS cluster, u.uid, u.name AS user_name
    FROM js_data.users u
    JOIN js_data.clusters c USING (cluster_id);
COMMENT ON VIEW js.users IS 'user names per cluster and uid, as the job records gave them';
