-- SPDX-License-Identifier: GPL-2.0-or-later
-- opt-out: how many steps ran without the profiler, and why, by user and application.
-- opted_out: the user chose it (--no-profile, JOBSCREEN_NO_PROFILE); excluded: the site's
-- configuration left the step out (default off, excluded user, partition or executable);
-- failed: the plugin could not inject the profiler (profiler missing, spool error, config
-- error).  Special steps (extern) are not counted.  opt_out_rate = opted_out / steps.  A step
-- counts in the window when it started in [since, until).
--   psql -f sql/reports/opt-out.sql -v since=... -v until=...
\ir window.psql

CREATE TEMP VIEW reasons AS
SELECT r.*,
       CASE WHEN r.profiled THEN 'profiled'
            WHEN r.profile_reason ~ '(no-profile option|JOBSCREEN_NO_PROFILE)' THEN 'opted_out'
            WHEN r.profile_reason ~ '(default off|excluded)' THEN 'excluded'
            ELSE 'failed' END AS outcome
FROM js.step_report r
WHERE r.start_time >= :'since' AND r.start_time < :'until'
  AND coalesce(r.profile_reason, '') <> 'special step';

\echo '== by user'
SELECT user_name AS "user", count(*) AS steps, count(*) FILTER (WHERE outcome = 'profiled') AS profiled,
       count(*) FILTER (WHERE outcome = 'opted_out') AS opted_out, count(*) FILTER (WHERE outcome = 'excluded') AS excluded,
       count(*) FILTER (WHERE outcome = 'failed') AS failed,
       round((count(*) FILTER (WHERE outcome = 'opted_out'))::numeric / count(*), 3) AS opt_out_rate
FROM reasons GROUP BY cluster_id, user_name
ORDER BY count(*) FILTER (WHERE outcome = 'opted_out') DESC, user_name;

\echo '== by user and application'
SELECT user_name AS "user", application, count(*) AS steps, count(*) FILTER (WHERE outcome = 'profiled') AS profiled,
       count(*) FILTER (WHERE outcome = 'opted_out') AS opted_out, count(*) FILTER (WHERE outcome = 'excluded') AS excluded,
       count(*) FILTER (WHERE outcome = 'failed') AS failed,
       round((count(*) FILTER (WHERE outcome = 'opted_out'))::numeric / count(*), 3) AS opt_out_rate,
       string_agg(DISTINCT profile_reason, ',') FILTER (WHERE outcome <> 'profiled') AS reasons
FROM reasons GROUP BY cluster_id, user_name, application
ORDER BY count(*) FILTER (WHERE outcome = 'opted_out') DESC, user_name, application;
