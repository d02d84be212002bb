-- SPDX-License-Identifier: GPL-2.0-or-later
-- usage-monthly: usage per UTC month and user, the sums of the daily rollup (js.usage_monthly);
-- months that overlap [since, until) (default: the last 7 days, so give a wider window).
--   psql -f sql/reports/usage-monthly.sql -v since=2026-01-01 -v until=2027-01-01
\ir window.psql

\echo '== usage per month and user'
SELECT month, user_name AS "user", days, jobs_started AS jobs, steps_started AS steps, steps_failed AS failed,
       steps_opted_out AS opted_out, round((cpu_seconds / 3600)::numeric, 2) AS cpu_hours,
       round((node_seconds / 3600)::numeric, 2) AS node_hours, read_bytes, write_bytes,
       pg_size_pretty(read_bytes + write_bytes) AS io, meta_ops, mpi_bytes, computed_at
FROM js.usage_monthly
WHERE month >= date_trunc('month', :'since'::timestamptz AT TIME ZONE 'UTC')::date
  AND month < (:'until'::timestamptz AT TIME ZONE 'UTC')::date + 1
ORDER BY month, user_name;
