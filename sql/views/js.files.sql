-- SPDX-License-Identifier: GPL-2.0-or-later
CREATE VIEW js.files AS
    SELECT cluster_id, file_id, path, node, scope, fs_type FROM js_data.files;
COMMENT ON VIEW js.files IS 'file identities (path + node for node-local files)';
