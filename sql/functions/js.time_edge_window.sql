-- SPDX-License-Identifier: GPL-2.0-or-later
-- Time edges (derived here, not stored, so that the order of ingest does not matter): job B
-- depends in time on job A when both belong to the same user and carry the same workflow tag
-- (or both none), B started at most js.time_edge_window() after A ended (1 s of slack: Slurm's
-- start times are whole seconds), A is the latest such job, and B has no incoming scheduler or
-- file edge (a time edge explains a start that nothing else explains).
CREATE FUNCTION js.time_edge_window() RETURNS interval LANGUAGE sql IMMUTABLE AS $$ SELECT interval '60 seconds' $$;
COMMENT ON FUNCTION js.time_edge_window() IS 'longest gap between the end of one job and the start of the next that makes a time edge';
