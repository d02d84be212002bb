-- SPDX-License-Identifier: GPL-2.0-or-later
-- usage-daily: usage per UTC day and user, from the rollup js.usage_daily (kept after the
-- per-slice detail is dropped).  The rollup is as fresh as the last js_data.rollup_usage()
-- run (cron; computed_at says when); days in [since, until).
--   psql -f sql/reports/usage-daily.sql -v since=... -v until=...
\ir window.psql

\echo '== usage per day and user'
SELECT day, user_name AS "user", jobs_started AS jobs, steps_started AS steps, steps_failed AS failed,
       steps_opted_out AS opted_out, round((cpu_seconds / 3600)::numeric, 2) AS cpu_hours,
       round((node_seconds / 3600)::numeric, 2) AS node_hours, read_bytes, write_bytes,
       pg_size_pretty(read_bytes + write_bytes) AS io, meta_ops, mpi_bytes,
       round((io_ns / 3.6e12)::numeric, 3) AS io_hours, round((mpi_ns / 3.6e12)::numeric, 3) AS mpi_hours, computed_at
FROM js.usage_daily
WHERE day >= (:'since'::timestamptz AT TIME ZONE 'UTC')::date AND day < (:'until'::timestamptz AT TIME ZONE 'UTC')::date + 1
ORDER BY day, user_name;

\echo '== per day, all users'
SELECT day, count(*) AS users, sum(jobs_started) AS jobs, sum(steps_started) AS steps,
       round((sum(cpu_seconds) / 3600)::numeric, 2) AS cpu_hours, sum(read_bytes + write_bytes)::bigint AS io_bytes,
       pg_size_pretty(sum(read_bytes + write_bytes)) AS io, sum(meta_ops)::bigint AS meta_ops
FROM js.usage_daily
WHERE day >= (:'since'::timestamptz AT TIME ZONE 'UTC')::date AND day < (:'until'::timestamptz AT TIME ZONE 'UTC')::date + 1
GROUP BY day ORDER BY day;
