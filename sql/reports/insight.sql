-- SPDX-License-Identifier: GPL-2.0-or-later
-- insight: which steps other jobs disturbed, by how much and by what, and which advice the
-- steps got (js.step_insights, js.step_advice: sql/views/; the method in docs/insight.md). From
-- the insight that profile_ingest computes per step: the disturbed steps (those that lost at
-- least 5 % of their run to other jobs) summed per user and cause, then one by one, the largest
-- loss first, with the stretch that lost most; the traffic lights per user (of the steps judged:
-- not a batch step that waits for its sruns); the advice codes
-- counted per code and user.  A step counts in the window when it started in [since, until).
-- Steps without an insight (not computed yet, or from before it) are left out.
--   psql -f sql/reports/insight.sql -v since=2026-11-01 -v until=2026-12-01 [-v limit=50]
\ir window.psql
\if :{?limit}
\else
\set limit 50
\endif

\echo '== disturbed steps by user and cause'
SELECT i.user_name AS "user", coalesce(i.cause, 'unknown') AS cause, count(*) AS steps,
       count(DISTINCT i.job_id) AS jobs, round(sum(i.lost_s)::numeric, 1) AS lost_s,
       round(avg(i.lost_pct)::numeric, 1) AS avg_lost_pct, round(max(i.lost_pct)::numeric, 1) AS max_lost_pct,
       count(*) FILTER (WHERE i.light = 'red') AS red
FROM js.step_insights i
JOIN js.steps s ON s.cluster_id = i.cluster_id AND s.job_id = i.job_id AND s.step_id = i.step_id
WHERE i.disturbed AND s.start_time >= :'since' AND s.start_time < :'until'
GROUP BY i.cluster, i.user_name, coalesce(i.cause, 'unknown')
ORDER BY sum(i.lost_s) DESC NULLS LAST, i.user_name, cause;

-- the stretch that lost most is the evidence's first (docs/insight.md)
\echo '== disturbed steps, the largest loss first'
SELECT i.job_id, i.step_id, i.user_name AS "user", j.name AS job_name, s.name AS step_name, i.light, i.cause, round(i.lost_s::numeric, 1) AS lost_s,
       round(i.lost_pct::numeric, 1) AS lost_pct, i.evidence -> 0 ->> 'scope' AS scope,
       i.evidence -> 0 ->> 'start' AS worst_at, jsonb_array_length(i.evidence) AS stretches,
       round(i.interference_pct::numeric, 1) AS interference_pct, s.start_time
FROM js.step_insights i
JOIN js.steps s ON s.cluster_id = i.cluster_id AND s.job_id = i.job_id AND s.step_id = i.step_id
JOIN js.jobs j ON j.cluster_id = i.cluster_id AND j.job_id = i.job_id
WHERE i.disturbed AND s.start_time >= :'since' AND s.start_time < :'until'
ORDER BY i.lost_s DESC NULLS LAST, i.job_id, i.step_id
LIMIT :limit;

\echo '== traffic lights by user'
SELECT i.user_name AS "user", count(*) AS steps, count(*) FILTER (WHERE i.light = 'red') AS red,
       count(*) FILTER (WHERE i.light = 'yellow') AS yellow, count(*) FILTER (WHERE i.light = 'green') AS green,
       count(*) FILTER (WHERE i.light = 'grey') AS grey, round(coalesce(sum(i.lost_s), 0)::numeric, 1) AS lost_s,
       count(*) FILTER (WHERE i.interference_class = 'high') AS high_interference
FROM js.step_insights i
JOIN js.steps s ON s.cluster_id = i.cluster_id AND s.job_id = i.job_id AND s.step_id = i.step_id
-- a batch step that waits for its sruns has no light of its own (docs/insight.md)
WHERE NOT i.judged_by_sruns AND s.start_time >= :'since' AND s.start_time < :'until'
GROUP BY i.cluster, i.user_name
ORDER BY sum(i.lost_s) DESC NULLS LAST, i.user_name;

\echo '== advice codes by code and user'
SELECT a.code, a.user_name AS "user", count(*) AS steps, count(DISTINCT a.job_id) AS jobs,
       count(*) FILTER (WHERE a.severity = 'high') AS high, count(*) FILTER (WHERE a.severity = 'warning') AS warning,
       count(*) FILTER (WHERE a.severity = 'info') AS info
FROM js.step_advice a
JOIN js.steps s ON s.cluster_id = a.cluster_id AND s.job_id = a.job_id AND s.step_id = a.step_id
WHERE s.start_time >= :'since' AND s.start_time < :'until'
GROUP BY a.cluster, a.code, a.user_name
ORDER BY a.code, count(*) DESC, a.user_name;
