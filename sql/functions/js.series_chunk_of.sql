-- SPDX-License-Identifier: GPL-2.0-or-later
-- The web CGI reads through schema js only (issue 17: one recipe for the roles): a role without
-- USAGE on js_data (a member of jobscreen_report, docs/reports.md) cannot reach
-- js_data.series_chunk_of; this is the same arithmetic in schema js, so that the web role is
-- simply a member of jobscreen_report (granted by migrate/after.sql).
CREATE FUNCTION js.series_chunk_of(p_slice bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT p_slice - ((p_slice % 900) + 900) % 900';
COMMENT ON FUNCTION js.series_chunk_of(bigint) IS 'first slice of the chunk (of 900 slices) that holds a slice, as js_data.series_chunk_of: for readers without access to js_data (the web CGI)';
