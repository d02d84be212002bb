-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 039: many step records per transaction (issue 37). A step-node's
-- ingested_at is when its step record was taken in its transaction (js_data.ingest_step_record
-- sets it, clock_timestamp()): the records of one transaction keep the order they were taken
-- in, as when each had a transaction of its own.
COMMENT ON COLUMN js_data.step_nodes.ingested_at IS 'when the ingest took the step record, in its transaction (the records of one transaction in the order they were taken)';
