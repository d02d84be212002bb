-- SPDX-License-Identifier: GPL-2.0-or-later
-- a row of js_data.retention_runs, unless it is a dry run
CREATE FUNCTION js_data.retention_note(p_dry_run boolean, p_class text, p_item text, p_rows bigint, p_cutoff timestamptz)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO js_data.retention_runs (class, item, rows, cutoff)
    SELECT p_class, p_item, p_rows, p_cutoff WHERE NOT p_dry_run
    ON CONFLICT (run_at, class, item) DO UPDATE SET rows = retention_runs.rows + excluded.rows $$;
COMMENT ON FUNCTION js_data.retention_note(boolean, text, text, bigint, timestamptz) IS 'log what a retention run removed (nothing for a dry run)';
