#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What users read must be right (issue 36, part B), on real runs through the cluster's pipeline:
# - a batch step that only waits for its srun is not IDLE_ALLOCATION: the job is judged by its
#   steps together (its srun kept the job's CPU busy);
# - the batch step is named batch: three jobs of one rule without srun are one per-name row
#   (API and CLI), the script's spool path kept as the step's script;
# - a job submitted by a script after an unrelated job ended, but reading what a third job
#   wrote, has the file edge from the third job, no time edge, and is in the third job's
#   workflow, not the unrelated one's; and where the time edge was made first (its record before
#   the reader's step record), the merge it made goes with it when the file edge comes;
# - warnings from file and scheduler edges together: a reader queued before its writer ended
#   with no dependency (works by luck), not the one with --dependency=afterok, nor the reader a
#   script submitted after the writer ended; a job that read a file another job was still
#   writing (race); in js.lineage_warnings, the API, the CLI and the admin report.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
CLI=$JS_TOP_BUILDDIR/cli/jobscreen
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 19
q() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
w=$(work_dir jsalice)
mkd() { as_user jsalice mkdir -p "$@"; }
sub() { (cd "$1" && shift && setsid runuser -u jsalice -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable -o /dev/null "$@"); }
api() { curl -s -G -u jsalice:jsalice "${JS_WEB_URL}cgi-bin/jobscreen.cgi" "$@"; }
cli() { runuser -u jsalice -- env JOBSCREEN_CLI_CONF="$JOBSCREEN_CLI_CONF" "$CLI" "$@"; }
engine() {
  (cd "$1" && setsid runuser -u jsalice -- env SLURM_CONF="$SLURM_CONF" bash -c '
    sb() { local n=$1; shift; sbatch --parsable -o /dev/null -J "$n" "$@"; }
    wt() { while squeue -h -j "$1" 2>/dev/null | grep -q .; do sleep 0.2; done; }
    '"$2")
}

# --- a batch step that waits for its srun, which computes for 62 s on the job's one CPU ---
ba=$w/waiter; mkd "$ba"
waiter=$(sub "$ba" -J waiter -n1 -c1 --wrap "srun awk 'BEGIN { t = systime() + 62; while (systime() < t) n++ }'")

# --- luck: a reader queued while its writer runs, started later by --begin, no dependency;
# the same with --dependency=afterok; a race: a reader while a writer still writes ---
lk=$w/luck; mkd "$lk"
lwrite=$(sub "$lk" -J lwrite --wrap "srun sh -c 'sleep 2; echo y > luck.dat'")
lread=$(sub "$lk" -J lread --begin=now+8 --wrap "srun cat luck.dat")
dread=$(sub "$lk" -J dread -d "afterok:$lwrite" --wrap "srun cat luck.dat")
rwrite=$(sub "$lk" -J rwrite --wrap "srun sh -c 'exec 3> race.dat; for i in 1 2 3 4 5 6 7 8; do echo line >&3; sleep 1; done'")
rread=$(sub "$lk" -J rread --begin=now+4 --wrap "srun cat race.dat")

# --- three jobs of one rule, without srun ---
ru=$w/rule; mkd "$ru"; as_user jsalice sh -c "echo data > '$ru/in.txt'"
tag=rule$$
rules=()
for i in 1 2 3; do rules+=("$(sub "$ru" -J count --workflow="$tag" --wrap "wc -c in.txt > out.$i")"); done

# --- a script: a third job writes c.out; an unrelated job ends after it; then a reader of c.out ---
te=$w/timeedge; mkd "$te"
# (the third job lasts 2 s: the unrelated one, submitted at once, is not "after" it by Slurm's
# whole-second submit time)
read -r third unrelated reader <<< "$(engine "$te" 'c=$(sb third --wrap "srun sh -c \"sleep 2; echo x > c.out\""); a=$(sb unrelated --wrap "srun sleep 5")
  wt $c; wt $a; b=$(sb reader --wrap "srun cat c.out"); wt $b; echo $c $a $b')"
luckjobs=("$lwrite" "$lread" "$dread" "$rwrite" "$rread")
for j in "${rules[@]}" "$third" "$unrelated" "$reader" "${luckjobs[@]}"; do wait_job_done "$j" 120 >/dev/null; done
is "$(wait_job_done "$waiter" 180)" COMPLETED "the waiting job ran"
wait_pipeline 120 "$waiter" "${rules[@]}" "$third" "$unrelated" "$reader" "${luckjobs[@]}"
ok $? "the jobs reached JS_DB"

# --- the batch step that waited: not idle allocation ---
for i in $(seq 300); do
  [ "$(q "SELECT count(*) FROM js_data.insight_pending WHERE job_id = $waiter")|$(q "SELECT count(*) FROM js.step_insights WHERE job_id = $waiter AND step_id = 'batch'")" = "0|1" ] && break
  sleep 0.2
done
diag "$(q "SELECT step_id, num_cpus, round(cpu_ns / 1e9, 1), round(elapsed_s::numeric, 1) FROM js.steps WHERE job_id = $waiter ORDER BY step_id")"
used=$(q "SELECT round(100 * sum(s.cpu_ns) / 1e9 / (extract(epoch FROM j.end_time - j.start_time) * j.num_cpus)) FROM js.steps s JOIN js.jobs j USING (cluster_id, job_id) WHERE s.job_id = $waiter AND s.step_id <> 'extern' GROUP BY j.end_time, j.start_time, j.num_cpus")
diag "the job used $used % of its CPU"
is "$(q "SELECT count(*) FROM js.step_advice WHERE job_id = $waiter AND step_id = 'batch' AND code = 'IDLE_ALLOCATION' AND figures->>'scope' = 'step'")" 0 \
   "the batch step waiting for its srun is not judged by its own CPU"
is "$(q "SELECT count(*) FROM js.step_advice WHERE job_id = $waiter AND code = 'IDLE_ALLOCATION'")" \
   "$([ "${used:-0}" -ge 25 ] && echo 0 || echo 1)" "no IDLE_ALLOCATION while its steps together used 25 % of the job's CPUs or more (here $used %)"

# --- one rule, one row ---
wf=$(q "SELECT DISTINCT workflow_id FROM js.jobs WHERE job_id IN ($(IFS=,; echo "${rules[*]}"))")
is "$(q "SELECT count(*) || ' ' || count(*) FILTER (WHERE name = 'batch' AND script LIKE '%/slurm_script') FROM js.steps WHERE job_id IN ($(IFS=,; echo "${rules[*]}")) AND step_id = 'batch'")" \
   "3 3" "the three batch steps are named batch, their scripts' spool paths kept as script"
is "$(api --data-urlencode q=workflow --data-urlencode "id=$wf" --data-urlencode by=name | jq -c '[.step_names[] | [.job_name, .step_name, .jobs]]')" \
   '[["count","batch",3]]' "the per-name table (API): one row for the rule, 3 jobs"
out=$(cli -w "$wf")
diag "$out"
like "$(grep -A3 'Per job and step name' <<< "$out" | sed -n 3p)" '^  count +batch +3 ' "the CLI's per-name table: one row 'count batch 3'"
ok "$(grep -Eq 'slurm_script|/var/tmp' <<< "$out" && echo 1 || echo 0)" "the CLI shows no spool path"
is "$(api --data-urlencode q=step --data-urlencode "job=${rules[0]}" --data-urlencode step=batch | jq -r '[.step.name, (.step.script | test("/slurm_script$"))] | join(" ")')" \
   "batch true" "the step API: name batch, the script kept"

# --- the time edge that nothing should make ---
is "$(q "SELECT kind || ':' || from_job FROM js.dependencies WHERE to_job = $reader ORDER BY kind")" "file:$third" \
   "the reader: the file edge from the third job, no time edge from the unrelated one"
is "$(q "SELECT (SELECT workflow_id FROM js.jobs WHERE job_id = $reader) = (SELECT workflow_id FROM js.jobs WHERE job_id = $third)")|$(q "SELECT (SELECT workflow_id FROM js.jobs WHERE job_id = $reader) = (SELECT workflow_id FROM js.jobs WHERE job_id = $unrelated)")" \
   "t|f" "the reader is in the third job's workflow, not in the unrelated job's"
is "$(q "SELECT count(*) FROM js.workflows w WHERE w.jobs <> (SELECT count(*) FROM js.jobs j WHERE j.cluster_id = w.cluster_id AND j.workflow_id = w.workflow_id)")" 0 \
   "every workflow's kept job count is its jobs' after the split"
# the other order, on these rows (rolled back): the reader's record first gives the time edge
# from the unrelated job, which merges; the file edge then comes, and the merge goes
is "$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$JS_DB" -v r="$reader" -v u="$unrelated" -v t="$third" <<'SQL' | sed '/^$/d'
BEGIN;
CREATE TEMP TABLE kept AS SELECT * FROM js_data.dependencies WHERE kind = 'file' AND to_job = :r;
DELETE FROM js_data.dependencies WHERE kind = 'file' AND to_job = :r;
SELECT js_data.link_by_time(cluster_id, :r) FROM js_data.jobs WHERE job_id = :r;
SELECT (SELECT string_agg(kind || ':' || from_job, ' ') FROM js_data.dependencies WHERE to_job = :r)
       || ' ' || ((SELECT workflow_id FROM js_data.jobs WHERE job_id = :r) = (SELECT workflow_id FROM js_data.jobs WHERE job_id = :u));
INSERT INTO js_data.dependencies SELECT * FROM kept;
SELECT js_data.unlink_by_time(cluster_id, ARRAY[:r::bigint]) FROM js_data.jobs WHERE job_id = :r;
SELECT (SELECT string_agg(kind || ':' || from_job, ' ') FROM js_data.dependencies WHERE to_job = :r)
       || ' ' || ((SELECT workflow_id FROM js_data.jobs WHERE job_id = :r) = (SELECT workflow_id FROM js_data.jobs WHERE job_id = :u))
       || ' ' || ((SELECT workflow_id FROM js_data.jobs WHERE job_id = :r) = (SELECT workflow_id FROM js_data.jobs WHERE job_id = :t));
ROLLBACK;
SQL
)" "$(printf '%s\n%s' "time:$unrelated true" "file:$third false true")" \
   "record first: the time edge from the unrelated job merges; the file edge replaces it and the merge goes"

# --- warnings: works by luck, race ---
warn() { q "SELECT kind || ':' || writer_job FROM js.lineage_warnings WHERE reader_job = $1 ORDER BY 1"; }
diag "$(q "SELECT kind, writer_job, reader_job, path, writer_first, writer_last, reader_first FROM js.lineage_warnings WHERE reader_job IN ($(IFS=,; echo "${luckjobs[*]}"), $reader)")"
is "$(warn "$lread")|$(warn "$dread")|$(warn "$reader")" "no_dependency:$lwrite||" \
   "works by luck: the reader queued before its writer ended with no dependency; not with afterok, nor the one submitted after its writer ended"
is "$(warn "$rread")|$(q "SELECT count(*) FROM js.dependencies WHERE kind = 'file' AND to_job = $rread")" "read_while_written:$rwrite|0" \
   "a race: the reader read race.dat while rwrite still wrote it (and no file edge: the last write came after the read)"
is "$(api --data-urlencode q=job --data-urlencode "id=$lread" | jq -r '.job.warnings[] | [.kind, .direction, .job, (.message | test("works by luck; add --dependency=afterok:'"$lwrite"'"))] | map(tostring) | join(" ")')" \
   "no_dependency in $lwrite true" "the job API: the warning, with the fix in its sentence"
is "$(api --data-urlencode q=job --data-urlencode "id=$lwrite" | jq -r '[.job.warnings[] | .direction + " " + (.job | tostring)] | join(",")')" \
   "out $lread" "the writer's job page warns too (its reader)"
out=$(cli "$rread")
diag "$(grep -A3 '^Warnings' <<< "$out")"
like "$(sed -n '/^Warnings/,$p' <<< "$out" | sed 1d | tr -s ' \n' '  ')" "^ RACE Read .*race.dat while job $rwrite was still writing it .*--dependency=afterok:$rwrite\\." \
   "the CLI: RACE and the sentence, wrapped"
rep=$(psql -X -q -A -F'|' -d "$JS_DB" -v since=2000-01-01 -f "$JS_TOP_SRCDIR/sql/reports/lineage-warnings.sql" 2>&1)
diag "$rep"
is "$(grep -cE "^(no_dependency\|$lwrite\|lwrite\|$lread|read_while_written\|$rwrite\|rwrite\|$rread)\|" <<< "$rep")" 2 \
   "the admin report lists the race and the pair that works by luck"
done_testing
