-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 058: the step's spread stored beside its stored replies (issue 34;
-- docs/web.md, "Stored replies"): the keeper (profile_ingest/replies_step.c) now stores, with a
-- kept step's forms, its spread across nodes at every slice (key spread&step=...), which a
-- computed form of the step reads in one row instead of every step-node's series. Steps stored
-- before it have no such row until their job changes: their jobs are noted here, so that the
-- keeper's next pass stores them again with it.
INSERT INTO js_data.reply_job_changes (cluster_id, job_id)
    SELECT DISTINCT r.cluster_id, r.key FROM js_data.stored_replies r
    WHERE r.endpoint = 'step'
      AND NOT EXISTS (SELECT 1 FROM js_data.stored_replies s
                      WHERE s.cluster_id = r.cluster_id AND s.endpoint = 'step' AND s.key = r.key
                        AND s.params LIKE 'spread&%');
