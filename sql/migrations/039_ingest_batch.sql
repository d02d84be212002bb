-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 039: many step records per transaction (issue 37). A step-node's
-- ingested_at is its transaction's time, a microsecond apart in the order the pass took the
-- records of the transaction (js_data.ingest_step_record sets it): they keep the order they
-- had when each had a transaction of its own, though they are claimed in the order of their
-- keys (so that two daemons take their row locks alike, without deadlocks).
COMMENT ON COLUMN js_data.step_nodes.ingested_at IS 'the time of the ingest''s transaction, a microsecond apart in the order the pass took the step records of the transaction';
