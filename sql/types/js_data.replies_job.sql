-- SPDX-License-Identifier: GPL-2.0-or-later
-- A job named by a trigger of js_data.replies_note_change: its key.
CREATE TYPE js_data.replies_job AS (cluster_id smallint, job_id bigint);
COMMENT ON TYPE js_data.replies_job IS 'a job''s key, as js_data.replies_note_change gathers the jobs a statement touched';
