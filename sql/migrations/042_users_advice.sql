-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 042: what users read must be right (issue 36, part B). Derived
-- workflows are the connected components of the edges that stand: a time edge joins them while
-- it stands, and the merge it made goes with it (js_data.unmerge_time_edge, called where a time
-- edge goes: docs/dependencies.md). The definitions of this change (js.steps naming the batch
-- step batch and keeping its script, js.lineage_warnings, the time-edge functions) are in
-- sql/views/ and sql/functions/; this migration says so on the table.
COMMENT ON TABLE js_data.workflows IS 'workflows: one per (user, --workflow tag), else one per connected component of the edges among a user''s untagged jobs (scheduler and file edges, and time edges while they stand: docs/dependencies.md)';
