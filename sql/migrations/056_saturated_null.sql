-- SPDX-License-Identifier: GPL-2.0-or-later
-- jobscreen schema, migration 056: js.saturated(NULL) is NULL again. greatest() skips a NULL, so
-- the function turned the sum of no rows into -2^63: the job list's kept totals (migration 053)
-- of a job with no finished step yet (a job record before its steps, a job cancelled while it
-- waited) read cpu_ns, read_bytes and write_bytes -9223372036854775808. The function is fixed in
-- its file (sql/functions/js.saturated.sql); the rows kept so far are repaired here, and their
-- jobs noted for the stored replies. No sum of bounded values is that low: the value can only
-- be the defect's.
WITH fixed AS (
    UPDATE js_data.job_totals
        SET cpu_ns = nullif(cpu_ns, -9223372036854775808),
            read_bytes = nullif(read_bytes, -9223372036854775808),
            write_bytes = nullif(write_bytes, -9223372036854775808)
        WHERE -9223372036854775808 IN (cpu_ns, read_bytes, write_bytes)
        RETURNING cluster_id, job_id)
INSERT INTO js_data.reply_job_changes (cluster_id, job_id) SELECT cluster_id, job_id FROM fixed;
