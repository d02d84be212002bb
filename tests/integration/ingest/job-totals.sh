#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The job list's totals kept per job (migration 053; js.job_totals, docs/schema.md): whoever
# writes the steps, their insights or the jobs, js_data.job_totals stays what the list summed at
# request time before (js.steps, js.step_insights), checked over every job of the database
# (job_totals_differ, tests/lib/tap.sh; retention.sh, exactly-once.sh, api-real-runs.sh and
# real-workflows.sh check it after their writers too).
# - A two-step job of jsalice's run and carried by the cluster's pipeline (ingest and fold): its
#   row agrees, the list (q=jobs) shows its steps' bytes, its step count, incomplete flag and
#   workflow as js.jobs gives them (kept too, migration 060), and its insight's light once computed.
# - Each kind of write, in a transaction rolled back: a step's sums rewritten (the ingest's step
#   sums, js_data.steps_resum), a step deleted (retention: its count too), a step marked
#   incomplete (the job's flag follows, and clears when it does), the job moved to another
#   workflow (a merge: its workflow's name follows), an insight rewritten (the insight
#   pass), a step stored before its job's record (a step record that came first) and then the
#   record, the job deleted before and after its steps; a job record with no step yet sums
#   nothing: NULL, not -2^63 (migration 056).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
plan 13
work=$(work_dir jsalice)
at_exit "rm -rf '$work'"
q() { psql -X -q -At -d "$JS_DB" -c "$1"; }
job=$(cd "$work" && as_user jsalice sbatch --parsable --chdir="$work" -o /dev/null -J totals --wrap \
  "srun -n1 dd if=/dev/zero of=a.dat bs=64k count=4 status=none; srun -n1 sh -c 'cat a.dat > b.dat'")
wait_job_done "$job" 120 >/dev/null
wait_pipeline 120 "$job"; ok $? "a two-step job ($job) ran and was ingested"

is "$(job_totals_differ "$JS_DB")" 0 "every job's kept totals are its steps' and insights' summed afresh"
sums=$(q "SELECT js.saturated(sum(write_bytes)) || ' ' || count(*) FILTER (WHERE profiled) FROM js.steps
          WHERE job_id = $job AND step_id <> 'extern'")
got=$(curl -s -G -u jsalice:jsalice "${JS_WEB_URL}cgi-bin/jobscreen.cgi" --data-urlencode q=jobs --data-urlencode limit=50 |
      jq -r --argjson id "$job" '.jobs[] | select(.id == $id) | "\(.write_bytes) \(.profiled_steps)"')
ok "$([ "$got" = "$sums" ] && [ "${got%% *}" -ge 262144 ]; echo $?)" "the job list shows its steps' bytes and profiled steps ($got)"
for i in $(seq 150); do [ -n "$(q "SELECT light FROM js.job_insights WHERE job_id = $job")" ] && break; sleep 0.2; done
is "$(curl -s -G -u jsalice:jsalice "${JS_WEB_URL}cgi-bin/jobscreen.cgi" --data-urlencode q=jobs --data-urlencode limit=50 |
      jq -r --argjson id "$job" '.jobs[] | select(.id == $id) | "\(.steps) \(.incomplete) \(.workflow)"')" \
   "$(q "SELECT steps || ' ' || incomplete || ' ' || coalesce(workflow_name, 'null') FROM js.jobs WHERE job_id = $job")" \
   "the list shows its step count, incomplete flag and workflow as js.jobs gives them"
is "$(q "SELECT light FROM js.job_totals WHERE job_id = $job")" "$(q "SELECT light FROM js.job_insights WHERE job_id = $job")" \
   "once its insight is computed, its light is the insight's rolled up"

# each kind of write in its own transaction, rolled back: "what it checks|jobs differing"
tx() { psql -X -q -At -d "$JS_DB" -c "BEGIN" -c "$1" -c "SELECT ($2)::text || '|' || ($job_totals_differ_sql)" -c "ROLLBACK" | tail -n 1; }
row() { echo "(SELECT $1 FROM js_data.job_totals WHERE job_id = ${2:-$job})"; }
cpu=$(q "SELECT cpu_ns FROM js_data.job_totals WHERE job_id = $job")
is "$(tx "UPDATE js_data.steps SET cpu_ns = cpu_ns + 7, max_rss_kib = 1::bigint << 40 WHERE job_id = $job AND step_id = '0'" \
         "$(row "cpu_ns - $cpu || ' ' || max_rss_kib")")" "7 1099511627776|0" "a step's sums rewritten: the job's follow"
is "$(tx "DELETE FROM js_data.steps WHERE job_id = $job AND step_id = '1'" "$(row "(profiled_steps, steps)") = $(q "SELECT (profiled_steps - 1, steps - 1) FROM js_data.job_totals WHERE job_id = $job")")" \
   "true|0" "a step deleted: the job's totals and step count lose it"
is "$(tx "UPDATE js_data.steps SET incomplete = true WHERE job_id = $job AND step_id = '1'; CREATE TEMP TABLE marked AS $(row incomplete);
          UPDATE js_data.steps SET incomplete = false WHERE job_id = $job" "(SELECT incomplete FROM marked) || ' ' || $(row incomplete)")" \
   "true false|0" "a step marked incomplete: the job's flag follows, and clears with it"
is "$(tx "INSERT INTO js_data.workflows (cluster_id, uid, tag, name) SELECT cluster_id, uid, 'totals-moved', 'totals-moved'
            FROM js_data.jobs WHERE job_id = $job;
          UPDATE js_data.jobs SET workflow_id = (SELECT workflow_id FROM js_data.workflows WHERE tag = 'totals-moved') WHERE job_id = $job" \
         "$(row workflow)")" "totals-moved|0" "the job moved to another workflow (a merge): its kept workflow name follows"
is "$(tx "UPDATE js_data.step_insights SET light = 'red', lost_s = 5 WHERE job_id = $job AND step_id = '0'" "$(row "light || ' ' || (lost_s >= 5)")")" \
   "red true|0" "an insight rewritten: the job's light and time lost follow"
# a step stored before its job's record: no row until the record comes; the job deleted before
# its steps leaves none either
new=$(q "SELECT max(job_id) + 1000 FROM js_data.jobs")
copy_step="INSERT INTO js_data.steps SELECT * FROM jsonb_populate_record(NULL::js_data.steps,
             (SELECT to_jsonb(s) || jsonb_build_object('job_id', $new) FROM js_data.steps s WHERE job_id = $job AND step_id = '0'))"
copy_job="INSERT INTO js_data.jobs SELECT * FROM jsonb_populate_record(NULL::js_data.jobs,
             (SELECT to_jsonb(j) || jsonb_build_object('job_id', $new, 'workflow_id', NULL) FROM js_data.jobs j WHERE job_id = $job))"
is "$(tx "$copy_step; CREATE TEMP TABLE before_record AS $(row "count(*)" "$new"); $copy_job" \
         "(SELECT count FROM before_record) || ' ' || $(row "write_bytes = (SELECT write_bytes FROM js_data.steps WHERE job_id = $job AND step_id = '0')" "$new")")" \
   "0 true|0" "a step before its job's record: no row, then the record brings the step's sums"
is "$(tx "$copy_job" "$(row "coalesce(cpu_ns::text, 'null') || ' ' || coalesce(read_bytes::text, 'null') || ' ' || coalesce(write_bytes::text, 'null')" "$new")")" \
   "null null null|0" "a job's record with no step yet: its kept CPU and bytes are unknown (NULL), not -2^63"
is "$(tx "$copy_step; $copy_job; DELETE FROM js_data.jobs WHERE job_id = $new; DELETE FROM js_data.steps WHERE job_id = $new" \
         "(SELECT count(*) FROM js_data.job_totals WHERE job_id = $new)")" "0|0" "the job deleted, then its steps: no row left"
done_testing
