#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Retention (sql/022_retention.sql) on a copy of the real runs of reports/real-runs: a dry run lists the
# per-slice partitions and drops nothing; with the default age nothing is that old; run as
# if three days later with one day kept, it rolls up their days, drops every partition of the
# three per-slice tables and moves the horizon (the stored step replies that read them are no
# longer served: no trigger sees a partition dropped), while jobs, steps with their totals, processes,
# files, file accesses, dependencies and the rollups stay as they were, and a later rollup of
# those days leaves the rows alone. Then every other class (033_retention_all.sql): with
# job_keep unset no job goes; with a cutoff between the runs' jobs, a dry run counts the old
# ones and removes nothing, the real run removes exactly them with every row that names them
# (steps, step-nodes, processes, series, file accesses, dependencies at either end), the
# workflows and files left without them, and nothing of the others; rollups and quarantine
# rows go after their own settings, every run is logged; profile_ingest --retention runs it.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
need_reports_db
plan 29
export DB=js_retention
dropdb --if-exists "$DB" 2>/dev/null
createdb -T "$REPORTS_DB" "$DB" || bail "cannot copy $REPORTS_DB"
later="now() + interval '3 days'"
today="(now() AT TIME ZONE 'UTC')::date"

kept() { q "SELECT (SELECT count(*) FROM js.jobs) || ' ' || (SELECT count(*) FROM js.steps) || ' ' ||
  (SELECT sum(wall_ns) || ' ' || sum(read_bytes) || ' ' || sum(write_bytes) || ' ' || sum(meta_calls) FROM js.steps) || ' ' ||
  (SELECT count(*) FROM js.processes) || ' ' || (SELECT count(*) FROM js.files) || ' ' ||
  (SELECT count(*) FROM js.file_accesses) || ' ' || (SELECT count(*) FROM js.dependencies)"; }
usage() { q "SELECT day, uid, jobs_started, steps_started, read_bytes, write_bytes, meta_ops, node_slices FROM js.usage_daily ORDER BY 1, 2"; }
q "SELECT js_data.rollup_usage($today - 4, $today)" >/dev/null
before=$(kept); usage_before=$(usage)
parts=$(q "SELECT count(*) FROM js.slice_partitions")
ok "$([ "$parts" -ge 3 ]; echo $?)" "the real runs made per-slice partitions ($parts)"
ok "$([ "$(q "SELECT count(*) FROM js.step_slices")" -gt 0 ]; echo $?)" "and per-slice rows"

is "$(q "SELECT count(*) || ' ' || bool_and(action = 'would drop') FROM js_data.apply_retention(interval '1 day', true, $later)")" "$parts true" \
  "a dry run lists every partition as 'would drop'"
is "$(q "SELECT count(*) FROM js.slice_partitions")" "$parts" "and drops nothing"
is "$(q "SELECT count(*) FROM js_data.apply_retention()")" 0 "with the default age (180 days) nothing is old enough"

# the keeper stores the finished steps' replies on this copy, every job noted as changed (the
# copy was ingested with the default replies_min_step_slices: none kept)
q "INSERT INTO js_data.reply_job_changes (cluster_id, job_id) SELECT cluster_id, job_id FROM js_data.jobs" >/dev/null
mkdir -p "$JS_CLUSTER_DIR/retention-spool"
"$INGEST" --once --no-migrate --spool "$JS_CLUSTER_DIR/retention-spool" --db "$JS_PG_CONNINFO dbname=$DB" \
  --set replies_min_step_slices=1 --log-level warn 2>/dev/null
stored=$(q "SELECT count(*) FROM js.stored_replies WHERE endpoint = 'step'")
ok "$([ "$stored" -gt 0 ]; echo $?)" "the finished steps' replies are stored ($stored)"
is "$(q "SELECT count(*) || ' ' || bool_and(action = 'dropped') FROM js_data.apply_retention(interval '1 day', false, $later)")" "$parts true" \
  "three days later, keeping one day: every partition is dropped"
is "$(q "SELECT count(*) FROM js.stored_replies WHERE endpoint = 'step'")" 0 \
  "no stored step reply is served any more: each read a partition that is gone"
is "$(q "SELECT count(*) FROM js.slice_partitions")" 0 "none is left"
is "$(q "SELECT count(*) FROM js_data.retention_log")" "$parts" "each drop is logged"
is "$(q "SELECT count(*) FROM js.step_slices") $(q "SELECT count(*) FROM js.slice_totals_cluster")" "0 0" "the per-slice detail and totals are gone"
is "$(kept)" "$before" "jobs, steps and their totals, processes, files, file accesses and dependencies stay"
is "$(usage)" "$usage_before" "the daily rollups stay"
q "SELECT js_data.rollup_usage($today - 4, $today)" >/dev/null
is "$(usage)" "$usage_before" "a later rollup of those days leaves them as they were (their detail is gone)"
is "$(q "SELECT horizon_slice = (SELECT max(end_slice) FROM js_data.retention_log) FROM js.retention")" t \
  "js.retention shows the horizon below which the detail was dropped"
ok "$(report beside -v job="$BESIDEX" >/dev/null 2>&1; echo $?)" "the reports still run (beside finds no detail, and says nothing)"
is "$(q "SELECT coalesce(bool_and(row(w.jobs, w.first_submit, w.last_end)
           IS NOT DISTINCT FROM (SELECT row(count(j.job_id)::integer, min(j.submit_time), max(j.end_time))
                                 FROM js.jobs j WHERE j.cluster_id = w.cluster_id AND j.workflow_id = w.workflow_id)), true)
         FROM js.workflows w")" t "after retention every workflow's kept summary is still its jobs'"

# --- every other class (033) ---
is "$(q "SELECT count(*) FROM js_data.apply_job_retention()")" 0 "with job_keep unset (the default) no job goes"
cut=$(q "SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY end_time) FROM js_data.jobs WHERE end_time IS NOT NULL")
at="'$cut'::timestamptz + interval '1 day'"
old_jobs=$(q "SELECT count(*) FROM js_data.jobs WHERE end_time < '$cut'")
new_jobs=$(q "SELECT count(*) FROM js_data.jobs WHERE NOT coalesce(end_time < '$cut', false)")
kept_of_new() { q "SELECT (SELECT count(*) FROM js_data.steps s JOIN js_data.jobs j USING (cluster_id, job_id) WHERE NOT coalesce(j.end_time < '$cut', false)) || ' ' ||
  (SELECT count(*) FROM js_data.processes p JOIN js_data.jobs j USING (cluster_id, job_id) WHERE NOT coalesce(j.end_time < '$cut', false)) || ' ' ||
  (SELECT count(*) FROM js_data.file_accesses a JOIN js_data.jobs j USING (cluster_id, job_id) WHERE NOT coalesce(j.end_time < '$cut', false))"; }
new_before=$(kept_of_new)
ok "$([ "$old_jobs" -ge 1 ] && [ "$new_jobs" -ge 1 ]; echo $?)" "a cutoff between the runs' jobs: $old_jobs ended before it, $new_jobs not"
is "$(q "SELECT rows FROM js_data.apply_job_retention(interval '1 day', true, $at) WHERE item = 'jobs'") $(q "SELECT count(*) FROM js_data.jobs")" \
   "$old_jobs $((old_jobs + new_jobs))" "a dry run counts the old jobs and removes nothing"
q "SELECT * FROM js_data.apply_job_retention(interval '1 day', false, $at)" > /dev/null
is "$(q "SELECT count(*) FROM js_data.jobs") $(q "SELECT count(*) FROM js_data.jobs WHERE end_time < '$cut'") $(job_totals_differ "$DB")" "$new_jobs 0 0" \
   "the real run removes exactly the old jobs (and their kept totals: those left are the jobs' left)"
orphans=$(q "SELECT string_agg(t || ':' || n, ' ') FROM (
  SELECT 'steps' AS t, count(*) AS n FROM js_data.steps x WHERE NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = x.cluster_id AND j.job_id = x.job_id)
  UNION ALL SELECT 'step_nodes', count(*) FROM js_data.step_nodes x WHERE NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = x.cluster_id AND j.job_id = x.job_id)
  UNION ALL SELECT 'processes', count(*) FROM js_data.processes x WHERE NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = x.cluster_id AND j.job_id = x.job_id)
  UNION ALL SELECT 'series_step', count(*) FROM js_data.series_step x WHERE NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = x.cluster_id AND j.job_id = x.job_id)
  UNION ALL SELECT 'series_step_node', count(*) FROM js_data.series_step_node x WHERE NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = x.cluster_id AND j.job_id = x.job_id)
  UNION ALL SELECT 'file_accesses', count(*) FROM js_data.file_accesses x WHERE NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = x.cluster_id AND j.job_id = x.job_id)
  UNION ALL SELECT 'dependencies', count(*) FROM js_data.dependencies x WHERE NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = x.cluster_id AND j.job_id = x.from_job)
                                                                          OR NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = x.cluster_id AND j.job_id = x.to_job)) c WHERE n > 0")
is "${orphans:-none}" "none" "no step, step-node, process, series, file access or dependency names a removed job"
is "$(kept_of_new)" "$new_before" "the other jobs keep every step, process and file access"
is "$(q "SELECT (SELECT count(*) FROM js_data.workflows w WHERE NOT EXISTS (SELECT 1 FROM js_data.jobs j WHERE j.cluster_id = w.cluster_id AND j.workflow_id = w.workflow_id)) || ' ' ||
  (SELECT count(*) FROM js_data.files f WHERE NOT EXISTS (SELECT 1 FROM js_data.file_accesses a WHERE a.cluster_id = f.cluster_id AND a.file_id = f.file_id)
                                          AND NOT EXISTS (SELECT 1 FROM js_data.dependencies d WHERE d.cluster_id = f.cluster_id AND d.file_id = f.file_id)) || ' ' ||
  (SELECT count(*) FROM js_data.file_accesses a WHERE NOT EXISTS (SELECT 1 FROM js_data.files f WHERE f.cluster_id = a.cluster_id AND f.file_id = a.file_id))")" \
   "0 0 0" "no workflow is left without jobs, no file without an access or edge, and every access keeps its file"
rollups=$(q "SELECT count(*) FROM js_data.usage_daily")
q "UPDATE js_data.retention_settings SET job_keep = interval '1 day', rollup_keep = interval '1 day', quarantine_keep = interval '1 day'" >/dev/null
is "$(q "SELECT coalesce(sum(rows), 0) FROM js_data.apply_retention_all(true, now() + interval '30 days') WHERE class = 'rollups'") $(q "SELECT count(*) FROM js_data.usage_daily")" \
   "$rollups $rollups" "apply_retention_all, dry: it would remove the $rollups rollup rows and removes none"
# an old quarantine row: what the daily run (profile_ingest --retention) has to remove
q "INSERT INTO js_data.quarantine (cluster_id, job_id, step_id, node, file, moved_to, reason, at)
   SELECT min(cluster_id), 1, '0', 'n1', 'old.json', '/q/old.json', 'test: an old refusal', now() - interval '10 days' FROM js_data.clusters" >/dev/null
out=$("$JS_TOP_BUILDDIR/profile_ingest/profile_ingest" --no-migrate --log-level error \
      --db "host=$PGHOST port=$PGPORT user=$PGUSER dbname=$DB" --retention-dry-run 2>&1); st=$?
is "$st|$out|$(q "SELECT count(*) FROM js_data.quarantine WHERE at < now() - interval '1 day'")" \
   "0|retention: would remove 1 rows of quarantine (quarantine)|1" "profile_ingest --retention-dry-run says what would go and removes nothing"
out=$("$JS_TOP_BUILDDIR/profile_ingest/profile_ingest" --no-migrate --log-level error \
      --db "host=$PGHOST port=$PGPORT user=$PGUSER dbname=$DB" --retention 2>&1); st=$?
is "$st|$out" "0|retention: removed 1 rows of quarantine (quarantine)" "profile_ingest --retention applies every setting and says what it removed"
is "$(q "SELECT count(*) FROM js_data.quarantine WHERE at < now() - interval '1 day'") $(q "SELECT rows FROM js_data.retention_runs WHERE class = 'quarantine'")" \
   "0 1" "the old quarantine row is gone, and the run is logged in js_data.retention_runs"
ok "$([ "$(q "SELECT count(*) FROM js_data.usage_daily")" = "$rollups" ]; echo $?)" "rollups younger than rollup_keep stay"
dropdb "$DB"
done_testing
