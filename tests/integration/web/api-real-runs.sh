#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The JSON API on data from real runs: jsalice runs the sample workflow (contrib/examples/
# workflow) and a job with a hostile name, jsbob runs a job that reads a file jsalice's
# workflow wrote; the SPANK plugin and the profiler screen them, the cluster's pipeline (the
# nodes' senders, the receiver, the ingest daemon) brings them into the database, and the CGI
# is queried over HTTP through the real web server with basic auth.
# Proves: the endpoints answer with what ran; A never sees B's jobs, files or names by any
# endpoint; an admin sees all; an injection/XSS corpus gets 400/404 or escaped output; a step
# still running is in the job list, the job and the step as RUNNING (live) within 60 s.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
ingest=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
[ -x "$JS_TOP_BUILDDIR/web/jobscreen.cgi" ] || skip_all "web/jobscreen.cgi not built"
[ -x "$ingest" ] || skip_all "profile_ingest not built yet"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline (transport/ or profile_ingest not built)"
grep -q 'jobscreen.so' "$JS_PLUGSTACK" || skip_all "the SPANK plugin is not in $JS_PLUGSTACK"
command -v jq >/dev/null || skip_all "jq is not installed"
api="${JS_WEB_URL}cgi-bin/jobscreen.cgi"
state=$JS_CLUSTER_DIR/web-e2e.env
work=$JS_CLUSTER_DIR/web-e2e
plan 82

# --- real runs -----------------------------------------------------------------------------
rm -rf "$work"; install -d -m 755 "$work"
install -d -o jsalice -g jsalice -m 755 "$work/alice"
install -d -o jsbob -g jsbob -m 700 "$work/bob"
as() { local u=$1; shift; runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" PATH="$PATH" "$@"; }
# a job of jsalice's that runs on: its step 0 is live
t_live=$(date +%s)
live=$(cd "$work/alice" && as jsalice sbatch --parsable -J livejob -o /dev/null --wrap "srun sh -c 'sleep 300'")
# the sample workflow under a tag of its own: other tests may run it as jsalice too
tag=webtest$$
cp -r "$JS_TOP_SRCDIR/contrib/examples/workflow" "$work/sample"
sed -i "s/--workflow=sample/--workflow=$tag/" "$work/sample/submit.sh"
ids=$(as jsalice "$work/sample/submit.sh" "$work/alice" 2>"$work/submit.err")
diag "sample workflow: $(echo $ids)"
id_of() { awk -v n="$1" '$1 == n { print $2 }' <<< "$ids"; }
gen=$(id_of generate); sim=$(id_of simulate); ana=$(id_of analyze); arc=$(id_of archive); plo=$(id_of plot)
like "$gen $sim $plo $ana $arc" '^[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+$' "jsalice's sample workflow ran its five jobs"
# a job whose name and output file are XSS payloads, in the same workflow
xss='<img src=x onerror=alert(1)>'
evil=$(cd "$work/alice" && as jsalice sbatch --parsable --workflow="$tag" --job-name="$xss" \
  --wrap 'srun -n1 sh -c "echo boom > \"x<img src=y onerror=alert(2)>.txt\""')
# jsbob reads what jsalice's workflow wrote (a file edge across users) and writes his own
bob=$(cd "$work/bob" && as jsbob sbatch --parsable --job-name=bobsecret --workflow="bobflow$$" \
  --wrap "srun -n1 sh -c 'md5sum $work/alice/sim.out > bob-private.txt'")
is "$(wait_job_done "$evil" 60) $(wait_job_done "$bob" 60)" "COMPLETED COMPLETED" "the hostile-named job and jsbob's job completed"
wait_pipeline 120 "$gen" "$sim" "$plo" "$ana" "$arc" "$evil" "$bob"
ok $? "the pipeline brought every job that ended into the database"
# the running step: its live snapshot (refreshed every 15 s) sent and ingested
for i in $(seq 300); do
  [ "$(psql -X -q -At -d "$JS_DB" -c "SELECT state FROM js.steps WHERE job_id = $live AND step_id = '0' AND live AND processes > 0")" = RUNNING ] && break
  sleep 0.2
done
took=$(( $(date +%s) - t_live ))
ok $(( took <= 60 ? 0 : 1 )) "the running step is in the database within 60 s of its start ($took s)"
# a step of jsalice's with a process killed by SIGKILL: hand-made profiles of format version 2
# (bench/gen/jsgen: three processes, the last killed, its CPU time after the kill missing)
spool2=$(mktemp -d "$JS_CLUSTER_DIR/killed.XXXXXX"); chmod 711 "$spool2"; mkdir -m 711 "$spool2/spool"
killed=$((4000000000 + $$ % 1000000))
"$JS_TOP_BUILDDIR/bench/gen/jsgen" --uniform --out "$spool2/spool" --job-id-base "$killed" --ppn 3 --slices 2 --killed 1 \
  --uid "$(id -u jsalice)" --gid "$(id -g jsalice)" --user jsalice >/dev/null
"$ingest" --once --spool "$spool2/spool" --db "$JS_DB" --quarantine "$spool2/q" --set job_grace_seconds=0 2>"$spool2/log"
is "$?|$(find "$spool2/spool" -type f | wc -l)" "0|0" "profile_ingest loads a step whose process was killed by SIGKILL"
# a step of jsalice's on whose node the profiler refused to record 4 processes (the job's spool
# quota): one profile, and a bundle of the collector that says so
unrec=$((4100000000 + $$ % 1000000))
"$JS_TOP_BUILDDIR/bench/gen/jsgen" --uniform --out "$spool2/spool" --job-id-base "$unrec" --slices 2 \
  --uid "$(id -u jsalice)" --gid "$(id -g jsalice)" --user jsalice >/dev/null
printf '{"format": "jobscreen-profile-bundle", "version": 1, "profiles": [], "unrecorded": {"processes": 4, "reason": "the job'"'"'s spool quota on this node was reached"}}' \
  > "$spool2/spool/job.$unrec/profiles/0.gen1.b1.json"
chown jsalice:jsalice "$spool2/spool/job.$unrec/profiles/0.gen1.b1.json"; chmod 600 "$spool2/spool/job.$unrec/profiles/0.gen1.b1.json"
"$ingest" --once --spool "$spool2/spool" --db "$JS_DB" --quarantine "$spool2/q" --set job_grace_seconds=0 2>>"$spool2/log"
is "$?|$(find "$spool2/spool" -type f | wc -l)" "0|0" "profile_ingest loads a step whose bundle says 4 processes were not recorded"
cat > "$state" <<ENV
gen=$gen sim=$sim plo=$plo ana=$ana arc=$arc evil=$evil bob=$bob killed=$killed
ENV

# --- helpers -------------------------------------------------------------------------------
get() { # get USER QUERY... -> body in $body, status in $code
  local u=$1; shift
  code=$(curl -s -G -o "$work/body.json" -w '%{http_code}' -u "$u:$u" "$api" "$@")
  body=$(cat "$work/body.json")
}

# --- jsalice: her workflow -----------------------------------------------------------------
get jsalice --data-urlencode "q=workflow" --data-urlencode "job=$gen"
is "$code" 200 "workflow?job=: jsalice gets the graph of her workflow"
raw=$body
# the graph's arrays decoded into objects, as the viewer decodes them
body=$(jq -f "$JS_TOP_SRCDIR/tests/web/workflow-decode.jq" <<< "$raw")
wf=$(jq -r '.workflow.id' <<< "$body")
echo "wf=$wf" >> "$state"
is "$(jq -r '.workflow.workflow' <<< "$body")" "$tag" "it is the workflow of the sample's tag"
is "$(jq -r "[.jobs[].id] | map(tostring) | sort | join(\" \")" <<< "$body")" \
   "$(printf '%s\n' "$gen" "$sim" "$plo" "$ana" "$arc" "$evil" | sort | tr '\n' ' ' | sed 's/ $//')" \
   "its jobs are exactly the six jsalice submitted with that tag"
is "$(jq -r ".jobs[] | select(.id == $sim) | [.steps[].step] | sort | join(\",\")" <<< "$body")" "0,1" \
   "simulate has its two srun steps (the graph leaves out the batch and extern steps that wrap them)"
sched=$(jq -r '[.edges[] | select(.kind == "scheduler") | "\(.from_job)>\(.to_job)"] | sort | join(" ")' <<< "$body")
like "$sched" "$gen>$sim" "scheduler edge generate → simulate (afterok)"
like "$sched" "$sim>$plo" "scheduler edge simulate → plot (afterany)"
like "$sched" "$ana>$arc" "scheduler edge analyze → archive"
files=$(jq -r '[.edges[] | select(.kind == "file") | "\(.from_job)>\(.to_job)"] | unique | join(" ")' <<< "$body")
like "$files" "$sim>$ana" "file edge simulate → analyze, which Slurm never knew about"
is "$(jq -r "[.edges[] | select(.kind == \"file\" and .from_job == $sim and .to_job == $ana) | .files >= 1] | any" <<< "$body")" true \
   "the file edge counts its files"
get jsalice --data-urlencode q=workflow --data-urlencode "id=$wf" --data-urlencode "from=$sim" --data-urlencode "to=$ana"
jq -e ".edges[] | select(.kind == \"file\" and .from_job == $sim and .to_job == $ana) | .evidence.paths | index(\"$work/alice/sim.out\")" <<< "$body" >/dev/null
ok $? "workflow&from=&to=: the file edge names sim.out as its evidence"
get jsalice --data-urlencode q=workflow --data-urlencode "id=$wf" --data-urlencode "from=$gen" --data-urlencode "to=$sim"
is "$(jq -r '[.edges[] | select(.kind == "scheduler") | .evidence.type] | join(",")' <<< "$body")" afterok \
   "workflow&from=&to=: the scheduler edge generate → simulate says afterok"
get jsalice --data-urlencode q=workflow --data-urlencode "id=$wf" --data-urlencode "from=$sim"
is "$code" 400 "workflow&from= without to=: 400"
body=$(jq -f "$JS_TOP_SRCDIR/tests/web/workflow-decode.jq" <<< "$raw")
kinds=$(jq -r '[.edges[].kind] | unique | join(",")' <<< "$body")
diag "edge kinds in the sample workflow: $kinds"
jq -e ".jobs[] | select(.id == $sim) | .steps[] | select(.step == \"0\") | .runtime.compute_ns > 0" <<< "$body" >/dev/null
ok $? "steps carry a runtime share from the profiler"
jq -e ".jobs[] | select(.id == $sim) | .steps[] | select(.step == \"0\") | .files.w >= 1 and .files.r >= 1" <<< "$body" >/dev/null
ok $? "simulate's step 0 has read-only and write-only file boxes"
jq -e '[.. | strings] | any(test("jsbob|bobsecret|bobflow")) | not' <<< "$raw" >/dev/null
ok $? "jsalice's graph holds neither jsbob's job nor his name"
# the compact graph holds what the job pages and the views hold: per job its name, state and
# times, the steps the graph draws (numbered, else all but extern) with their times, runtime
# share (whole ms) and files per access mode; the edges as js.dependencies has them
sql() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
jobs_csv=$(jq -r '[.jobs[].id] | join(",")' <<< "$body")
bad=0
for j in $(jq -r '.jobs[].id' <<< "$body"); do
  mine=$(jq -c ".jobs[] | select(.id == $j)" <<< "$body")
  page=$(curl -s -G -u jsalice:jsalice "$api" --data-urlencode q=job --data-urlencode "id=$j" | jq -c '.job')
  want=$(jq -S -c '{name, state, t: ([.submit, .start, .end] | map(if . == null then null else (. * 1000 | round) end)),
    steps: ([.steps[] | select(.step != "extern")] as $s | ($s | map(select(.step | test("^[0-9]+$")))) as $n
            | (if ($n | length) > 0 then $n else $s end)
            | map({step, t: ([.start, .end] | map(if . == null then null else (. * 1000 | round) end)),
                   rt: (.runtime | to_entries | map({key, value: (.value / 1000000 | round)}) | from_entries)}) | sort_by(.step))}' <<< "$page")
  got=$(jq -S -c '{name, state, t: ([.submit, .start, .end] | map(if . == null then null else (. * 1000 | round) end)),
    steps: (.steps | map({step, t: ([.start, .end] | map(if . == null then null else (. * 1000 | round) end)),
                          rt: (.runtime | to_entries | map({key, value: (.value / 1000000 | round)}) | from_entries)}) | sort_by(.step))}' <<< "$mine")
  [ "$want" = "$got" ] || { bad=$((bad + 1)); diag "job $j: graph $got"; diag "job $j: page  $want"; }
  files_got=$(jq -r '.steps[] | .step as $s | .files | to_entries[] | "\($s)|\(.key)|\(.value)"' <<< "$mine" | sort)
  files_want=$(sql "SELECT step_id, mode, count(DISTINCT file_id) FROM js.file_accesses WHERE job_id = $j AND step_id IN ($(jq -r '[.steps[].step | @sh] | join(",") | if . == "" then "NULL" else . end' <<< "$mine")) GROUP BY 1, 2" | sort)
  [ "$files_got" = "$files_want" ] || { bad=$((bad + 1)); diag "job $j files: graph [$files_got] views [$files_want]"; }
done
is "$bad" 0 "the compact graph decodes to each job's name, state, times, drawn steps, runtime share and files per mode"
edges_got=$(jq -r '.edges[] | "\(.kind)|\(.from_job)|\(.to_job)|\(.from_step // "")|\(.to_step // "")|\(.files // "")"' <<< "$body" | sort)
edges_want=$(sql "SELECT kind, from_job, to_job, from_step, to_step, CASE WHEN kind = 'file' THEN count(DISTINCT file_id)::text ELSE '' END
  FROM js.dependencies WHERE from_job IN ($jobs_csv) AND to_job IN ($jobs_csv) GROUP BY kind, from_job, to_job, from_step, to_step" | sort)
is "$edges_got" "$edges_want" "the compact graph decodes to the workflow's edges of js.dependencies"

# --- a running step: RUNNING and live in the list, the job and the step; jsbob does not see it --
get jsalice --data-urlencode q=jobs
is "$(jq -r ".jobs[] | select(.id == $live) | [.live, .running_steps >= 1] | map(tostring) | join(\"|\")" <<< "$body")" "true|true" \
   "jobs: jsalice's running job is marked live, with its running steps"
get jsalice --data-urlencode q=job --data-urlencode "id=$live"
is "$(jq -r '.job.steps[] | select(.step == "0") | [.state, .live] | map(tostring) | join("|")' <<< "$body")" "RUNNING|true" \
   "job: its step 0 is RUNNING and live"
get jsalice --data-urlencode q=step --data-urlencode "job=$live" --data-urlencode step=0
is "$code|$(jq -r '[.step.state, .step.live, (.step.node_names | length), .step.processes >= 1, .step.snapshot > 0] | map(tostring) | join("|")' <<< "$body")" \
   "200|RUNNING|true|1|true|true" "step: the running step with its node, processes so far and the time of its snapshot"
get jsbob --data-urlencode q=step --data-urlencode "job=$live" --data-urlencode step=0
is "$code" 404 "step: jsbob does not see jsalice's running step"
scancel "$live"

# --- jsalice: job, step, background, file -------------------------------------------------------
get jsalice --data-urlencode q=job --data-urlencode "id=$sim"
is "$code $(jq -r '.job.name' <<< "$body")" "200 simulate" "job: jsalice's job"
is "$(jq -r '.job.steps[] | select(.step == "0") | .tasks' <<< "$body")" 2 "job: simulate's step 0 ran two tasks"
jq -e '.job.files | map(.path) | index("'"$work"'/alice/input.dat") != null' <<< "$body" >/dev/null
ok $? "job: lists the files its steps accessed"
# files=N lists at most N, those that moved the most bytes (then by path); files_total counts all
nfiles=$(jq -r '.job.files | length' <<< "$body")
is "$(jq -r '.job.files_total' <<< "$body")|$((nfiles >= 2))" "$nfiles|1" "job: files_total counts its $nfiles files, all listed"
top=$(jq -r '.job.files | sort_by([-((.read_bytes // 0) + (.write_bytes // 0)), .path]) | .[0].path' <<< "$body")
get jsalice --data-urlencode q=job --data-urlencode "id=$sim" --data-urlencode files=1
is "$code|$(jq -r '[(.job.files | length), .job.files_total, .job.files[0].path] | map(tostring) | join("|")' <<< "$body")" \
   "200|1|$nfiles|$top" "job: files=1 lists the file that moved the most bytes, files_total still $nfiles"
get jsalice --data-urlencode q=job --data-urlencode "id=$sim" --data-urlencode files=1 --data-urlencode insight=yes
is "$code|$(jq -r '[(.job.files | length), .job.files_total] | map(tostring) | join("|")' <<< "$body")" "200|1|$nfiles" \
   "job: the same with insight=yes"
get jsalice --data-urlencode q=job --data-urlencode "id=$sim" --data-urlencode files=0
is "$code" 400 "job: files=0 is refused"
# A series is columns (docs/api.md, "Series"): these turn one back into a row per point, to be
# compared with the SQL views' rows (the step's: only slices with activity, as js.step_slices).
step_rows='.step.series as $s | [range(0; $s.points) as $i | {slice: ($s.first_slice + $i * $s.slices_per_point),
  nodes: $s.nodes[$i], processes: $s.processes[$i], m: ($s.metrics | map_values(.[$i]) | with_entries(select(.value != 0)))}
  | select(.nodes > 0)]'
bg_rows='.series as $s | [range(0; $s.points) as $i | {slice: ($s.first_slice + $i * $s.slices_per_point),
  n: $s.other_step_nodes[$i], own: ($s.metrics | map_values(.[$i])), others: ($s.others | map_values(.[$i]))}]'
# every array of a series holds one value per point
whole='. as $s | ([$s.metrics[], ($s.others // empty)[], ($s.nodes // empty), ($s.processes // empty),
  ($s.other_step_nodes // empty), ($s.spread.processes // empty),
  ($s.spread // empty | to_entries[] | select(.value | type == "object") | .value[])] | all(length == $s.points))
  and $s.points == (($s.slices + $s.slices_per_point - 1) / $s.slices_per_point | floor)'
get jsalice --data-urlencode q=step --data-urlencode "job=$sim" --data-urlencode step=0
is "$code" 200 "step: jsalice's step"
jq -e '.step.processes >= 2 and .step.series.points >= 1 and (.step.digest | length) >= 1' <<< "$body" >/dev/null
ok $? "step: per-slice metrics summed over its nodes, and the digest over its processes"
jq -e ".step as \$t | .step.series | ($whole) and .first_slice == \$t.first_slice and .slices == \$t.last_slice - \$t.first_slice + 1
       and .slices_per_point == 1 and .points == .slices and .slice_seconds == \$t.slice_seconds" <<< "$body" >/dev/null
ok $? "step: its series: one point per slice from its first to its last, every array as long"
node=$(jq -r '.step.node_names[0]' <<< "$body")
get jsalice --data-urlencode q=step --data-urlencode "job=$sim" --data-urlencode step=0 --data-urlencode "node=$node"
jq -e '(.step.node_slices | length) >= 1' <<< "$body" >/dev/null
ok $? "step&node=: the per-slice metrics of one node"
for scope in cluster nodes; do
  get jsalice --data-urlencode q=background --data-urlencode "job=$sim" --data-urlencode step=0 --data-urlencode "scope=$scope"
  jq -e ".series.points >= 1 and (.series | ($whole) and has(\"metrics\") and has(\"others\") and (.metrics | length) == 32)
         and (has(\"top\") | not)" <<< "$body" >/dev/null
  ok $? "background ($scope): own metrics next to the sum over other jobs, every array as long, no job named"
  # the CGI decodes the series itself (web/web_series.c); the SQL views decode them in SQL
  # (sql/025_series.sql): slice by slice and metric by metric, the same numbers. Other jobs
  # are still being ingested, so the totals may move: the view is read before and after.
  view_rows() {
    psql -qAtX -c "SELECT coalesce(jsonb_agg(jsonb_build_object('slice', b.slice, 'n', greatest(b.bg_step_nodes, 0),
            'own', (SELECT jsonb_object_agg(k, v) FROM jsonb_each(to_jsonb(b)) e(k, v)
                    WHERE k NOT LIKE 'bg\\_%' AND k NOT IN ('cluster_id', 'job_id', 'step_id', 'slice', 'slice_start')),
            'others', (SELECT jsonb_object_agg(substr(k, 4), greatest(v::bigint, 0)) FROM jsonb_each_text(to_jsonb(b)) e(k, v)
                       WHERE k LIKE 'bg\\_%' AND k <> 'bg_step_nodes')) ORDER BY b.slice), '[]')
         FROM js.step_background_$scope b WHERE b.job_id = $sim AND b.step_id = '0'" | jq -S -c .
  }
  for try in 1 2 3 4 5 6 7 8 9 10; do
    want=$(view_rows)
    get jsalice --data-urlencode q=background --data-urlencode "job=$sim" --data-urlencode step=0 --data-urlencode "scope=$scope"
    got=$(jq -S -c "$bg_rows" <<< "$body")
    [ "$got" = "$want" ] && [ "$(view_rows)" = "$want" ] && break
    sleep 2
  done
  is "$got" "$want" "background ($scope): the CGI's decoding of the series equals the SQL view's, every slice and metric"
  get jsalice --data-urlencode q=background --data-urlencode "job=$sim" --data-urlencode step=0 --data-urlencode "scope=$scope" \
    --data-urlencode metric=cpu_ns --data-urlencode points=10
  jq -e --argjson w "$want" ".series | ($whole) and .points <= 10 and .slices == (\$w | length)
         and (.metrics.cpu_ns | add) == ([\$w[].own.cpu_ns] | add) and (.metrics | keys) == [\"cpu_ns\"]
         and (.others | keys) == [\"cpu_ns\"]" <<< "$body" >/dev/null
  ok $? "background ($scope), metric=cpu_ns&points=10: one metric, at most 10 entries, every slice summed into one"
done
get jsalice --data-urlencode q=step --data-urlencode "job=$sim" --data-urlencode step=0
want=$(psql -qAtX -c "SELECT coalesce(jsonb_agg(jsonb_build_object('slice', s.slice, 'nodes', s.nodes, 'processes', s.processes,
          'm', coalesce((SELECT jsonb_object_agg(k, v) FROM jsonb_each(to_jsonb(s) - ARRAY['cluster_id', 'job_id', 'step_id',
                'slice', 'slice_start', 'nodes', 'processes']) e(k, v) WHERE v::text <> '0'), '{}')) ORDER BY s.slice), '[]')
       FROM js.step_slices s WHERE s.job_id = $sim AND s.step_id = '0'" | jq -S -c .)
is "$(jq -S -c "$step_rows"' | [.[] | {slice, nodes, processes, m: (.m | with_entries(select(.key | test("^(kernel|unattributed)_") | not)))}]' <<< "$body")" "$want" \
  "step: its slices decoded by the CGI equal js.step_slices, every slice and metric"
want=$(psql -qAtX -c "SELECT coalesce(jsonb_agg((SELECT coalesce(jsonb_object_agg(k, v), '{}') FROM jsonb_each(to_jsonb(s) - ARRAY['cluster_id', 'job_id',
          'step_id', 'slice', 'slice_start', 'wrapped_read_bytes', 'wrapped_write_bytes']) e(k, v) WHERE v::text <> '0') ORDER BY s.slice), '[]')
       FROM js.step_kernel_slices s WHERE s.job_id = $sim AND s.step_id = '0'" | jq -S -c .)
is "$(jq -S -c "$step_rows"' | [.[] | .m | with_entries(select(.key | test("^(kernel|unattributed)_")))]' <<< "$body")" "$want" \
  "step: the kernel's counts and the unattributed bytes of its slices equal js.step_kernel_slices (2 nodes)"
# the spread across the step's processes (the node keeps it as it folds, migration 040): per slice
# the most one process had over both nodes, as the step-nodes' own series say it
want=$(psql -qAtX -c "SELECT coalesce(jsonb_agg(jsonb_build_array(slice, mx, mn) ORDER BY slice), '[]') FROM (
          SELECT x.first_slice + u.i - 1 AS slice, max(coalesce(u.hi, u.c)) AS mx, min(coalesce(u.lo, u.c)) AS mn
          FROM js.series_step_node x, unnest(js.series_decode(x.processes, x.slices), js.series_decode(x.cpu_ns, x.slices),
               js.series_decode(x.max_cpu_ns, x.slices), js.series_decode(x.min_cpu_ns, x.slices)) WITH ORDINALITY AS u(p, c, hi, lo, i)
          WHERE x.job_id = $sim AND x.step_id = '0' AND u.p > 0 GROUP BY 1) t" | jq -c .)
is "$(jq -c '.step.series as $s | [range(0; $s.points) | select($s.spread.cpu_ns.max[.] != null)
             | [$s.first_slice + ., $s.spread.cpu_ns.max[.], $s.spread.cpu_ns.min[.]]]' <<< "$body")" "$want" \
  "step: spread: per slice the most and the least CPU one process had over both nodes, as its series say"
pids=$(jq -c '[.step.process_list[] | [.node, .pid]] | unique' <<< "$body")
jq -e --argjson p "$pids" '.step.series.spread as $r | [range(0; .step.series.points) | select($r.cpu_ns.max[.] != null)] as $k
       | ($k | length) > 0 and all($k[]; [$r.node_names[$r.cpu_ns.node[.]], $r.cpu_ns.pid[.]] as $w
       | ($p | index([$w]) != null) and $r.cpu_ns.min[.] <= $r.cpu_ns.max[.] and $r.io_bytes.min[.] <= $r.io_bytes.max[.])' <<< "$body" >/dev/null
ok $? "step: spread: the most is a process of the step on its node (pid), never below the least"
jq -e '(.step.series.metrics.kernel_wchar // [0]) | add > 0' <<< "$body" >/dev/null
ok $? "step: the kernel counted the writes of its slices (profile format 5)"
is "$(steps_sums_differ "$JS_DB")|$(psql -qAtX -c "SELECT num_nodes || ':' || (processes > 1) FROM js_data.steps WHERE job_id = $sim AND step_id = '0'")|$(job_totals_differ "$JS_DB")" "0|2:true|0" \
  "the steps' sums kept by the ingest are their processes', the 2-node step's over both nodes (sql/030_step_sums.sql); the jobs' totals theirs (053)"
# how processes ended (profile format 2): the real runs ended normally; the hand-made one was killed
get jsalice --data-urlencode q=step --data-urlencode "job=$sim" --data-urlencode step=0
jq -e '.step.killed_processes == 0 and (.step.process_list | length) == .step.processes and .step.process_list_truncated == false
       and all(.step.process_list[]; (.ended_by | IN("exit", "_exit", "exec")) and .signal == 0 and .missing == ""
                                     and .end >= .start and (.exe | type == "string"))' <<< "$body" >/dev/null
ok $? "step: lists each process of a real run, each ended by exit, _exit or exec, no signal, nothing missing"
get jsalice --data-urlencode q=step --data-urlencode "job=$killed" --data-urlencode step=0
is "$code|$(jq -r '[.step.processes, .step.killed_processes, .step.unrecorded_processes, .step.incomplete, .step.incomplete_reason] | map(tostring) | join("|")' <<< "$body")" \
   "200|3|1|0|true|1 process: CPU time after the kill" "step: counts the killed process and says what is missing"
is "$(jq -r '.step.process_list[0] | [.ended_by, .signal, .exit_code, .missing, .pid] | map(tostring) | join("|")' <<< "$body")" \
   "signal|9|null|CPU time after the kill|1002" "step: the killed process comes first: killed by signal 9, no exit status"
jq -e '(.step.process_list[0].end | type == "number") and .step.process_list[0].end >= .step.start - 60 and .step.process_list[0].end <= .step.end + 60
       and ([.step.process_list[1:][] | "\(.ended_by) \(.exit_code) \(.signal)"] == ["exit 0 0", "exit 0 0"])' <<< "$body" >/dev/null
ok $? "step: the end time of the killed process lies in the step; the others exited with status 0"
get jsalice --data-urlencode q=job --data-urlencode "id=$killed"
is "$(jq -r '.job.steps[0] | [.killed_processes, .incomplete, .incomplete_reason] | map(tostring) | join("|")' <<< "$body")" \
   "1|true|1 process: CPU time after the kill" "job: its step carries the killed count and the incomplete reason"
get jsalice --data-urlencode q=step --data-urlencode "job=$unrec" --data-urlencode step=0
a=$(jq -r '[.step.processes, .step.unrecorded_processes, .step.incomplete, .step.incomplete_reason] | map(tostring) | join("|")' <<< "$body")
get jsalice --data-urlencode q=job --data-urlencode "id=$unrec"
is "$a|$(jq -r '.job.steps[0] | [.unrecorded_processes, .incomplete_reason] | map(tostring) | join("|")' <<< "$body")" \
   "1|4|true|4 processes not recorded: the job's spool quota on this node was reached|4|4 processes not recorded: the job's spool quota on this node was reached" \
   "step and job: the processes the profiler did not record are counted, and the step says why"
get jsbob --data-urlencode q=step --data-urlencode "job=$killed" --data-urlencode step=0
is "$code|$(grep -c 'CPU time after' <<< "$body")" "404|0" "step: jsbob gets a 404 for jsalice's step, not its processes"
fid=$(jq -r '.step.files[] | select(.path | endswith("/sim.out")) | .id' < <(curl -s -G -u jsalice:jsalice "$api" --data-urlencode q=step --data-urlencode "job=$sim" --data-urlencode step=1))
echo "fid=$fid" >> "$state"
get jsalice --data-urlencode q=file --data-urlencode "id=$fid"
is "$code" 200 "file: jsalice sees sim.out"
# (plot's `head -c ... sim.out | od | head -n 200` loses its reader to SIGPIPE: a process killed
# by a signal leaves no profile, so plot's read is not asserted)
acc=$(jq -r '[.file.accesses[] | "\(.job):\(.mode)"] | join(" ")' <<< "$body")
like " $acc " " $sim:w .*$ana:r | $ana:r .*$sim:w " "file: its writer (simulate) and its reader (analyze)"
jq -e '[.file.accesses[].job] | index('"$bob"') == null' <<< "$body" >/dev/null
ok $? "file: jsbob's read of sim.out is not shown to jsalice"
jq -e '[.file.accesses[] | .user] | unique == ["jsalice"]' <<< "$body" >/dev/null
ok $? "file: every access jsalice is shown is of her own jobs"
get jsbob --data-urlencode q=file --data-urlencode "id=$fid"
# (a cluster kept from an earlier run holds that run's jsbob job too: the same path, file and name)
is "$code $(jq -c '[.file.accesses[] | [.user, .job_name]] | unique' <<< "$body") $(jq '[.file.accesses[].job] | index('"$bob"') != null' <<< "$body")" \
   '200 [["jsbob","bobsecret"]] true' "file: jsbob, on jsalice's file, sees only his own read, with his name and his job's"

# --- access control: jsalice never sees jsbob's things ----------------------------------------------
get jsalice --data-urlencode q=job --data-urlencode "id=$bob"
is "$code" 404 "job: jsbob's job is a 404 for jsalice"
get jsalice --data-urlencode q=step --data-urlencode "job=$bob" --data-urlencode step=0
is "$code" 404 "step: jsbob's step is a 404 for jsalice"
get jsalice --data-urlencode q=background --data-urlencode "job=$bob" --data-urlencode step=0
is "$code" 404 "background: of jsbob's step, a 404 for jsalice"
get jsalice --data-urlencode q=workflow --data-urlencode "job=$bob"
is "$code" 404 "workflow: jsbob's workflow is a 404 for jsalice"
bobfid=$(curl -s -G -u jsbob:jsbob "$api" --data-urlencode q=job --data-urlencode "id=$bob" | jq -r '.job.files[] | select(.path | endswith("bob-private.txt")) | .id')
like "$bobfid" '^[0-9]+$' "jsbob sees his own file"
get jsalice --data-urlencode q=file --data-urlencode "id=$bobfid"
is "$code" 404 "file: jsbob's private file is a 404 for jsalice"
for q in jobs workflows; do
  get jsalice --data-urlencode "q=$q" --data-urlencode limit=1000
  jq -e '[.. | strings] | any(test("jsbob|bobsecret|bobflow")) | not' <<< "$body" >/dev/null
  ok $? "$q: jsalice's list holds nothing of jsbob's"
done
get jsbob --data-urlencode q=workflow --data-urlencode "job=$bob"
jq -e "[.jobs[][0]] == [$bob] and ([.. | strings] | any(test(\"jsalice|$tag\")) | not)" <<< "$body" >/dev/null
ok $? "jsbob's workflow is his one job: the file edge from jsalice's job does not pull hers in"

# --- the admin sees all --------------------------------------------------------------------
get jsadmin --data-urlencode q=job --data-urlencode "id=$bob"
is "$code $(jq -r '.job.user' <<< "$body")" "200 jsbob" "admin: sees jsbob's job"
get jsadmin --data-urlencode q=jobs --data-urlencode limit=1000
jq -e "[.jobs[].user] | (index(\"jsalice\") != null and index(\"jsbob\") != null)" <<< "$body" >/dev/null
ok $? "admin: the job list holds both users"
get jsadmin --data-urlencode q=background --data-urlencode "job=$sim" --data-urlencode step=0 --data-urlencode top=5 --data-urlencode metric=cpu_ns
jq -e 'has("top") and (.top | type == "array")' <<< "$body" >/dev/null
ok $? "admin: the background names its top contributing jobs"
# the CGI ranks them from the series (web/web_series.c); the same ranking in SQL over the decoded
# per-node slices, read before and after (other jobs may still be folded in)
for scope in cluster nodes; do
  top_sql() {
    psql -qAtX -c "WITH s AS (SELECT first_slice, last_slice FROM js.steps WHERE job_id = $sim AND step_id = '0'),
                        n AS (SELECT node FROM js.step_nodes WHERE job_id = $sim AND step_id = '0')
      SELECT coalesce(jsonb_agg(jsonb_build_array(x.job, x.value, x.slices, x.steps, x.cpu_ns) ORDER BY x.value DESC, x.job), '[]')
      FROM (SELECT m.job_id AS job, sum(m.posix_write_bytes)::bigint AS value, count(DISTINCT m.slice) AS slices,
                   count(DISTINCT m.step_id) AS steps, sum(m.cpu_ns)::bigint AS cpu_ns
            FROM js.step_node_slices m JOIN s ON m.slice BETWEEN s.first_slice AND s.last_slice
            WHERE NOT (m.job_id = $sim AND m.step_id = '0') AND ('$scope' = 'cluster' OR m.node IN (SELECT node FROM n))
              AND NOT EXISTS (SELECT 1 FROM js.live_slices l WHERE l.job_id = m.job_id)
            GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5) x" | jq -c .
  }
  for try in 1 2 3 4 5 6 7 8 9 10; do
    want=$(top_sql)
    get jsadmin --data-urlencode q=background --data-urlencode "job=$sim" --data-urlencode step=0 --data-urlencode top=5 \
      --data-urlencode metric=posix_write_bytes --data-urlencode "scope=$scope" --data-urlencode points=10
    got=$(jq -c '[.top[] | [.job, .value, .slices, .steps, .cpu_ns]]' <<< "$body")
    [ "$got" = "$want" ] && [ "$(top_sql)" = "$want" ] && break
    sleep 2
  done
  is "$got" "$want" "admin, top=5 ($scope): the CGI's ranking from the series equals SQL's over the decoded slices"
done
get jsadmin --data-urlencode q=file --data-urlencode "id=$fid"
jq -e '[.file.accesses[].job] | index('"$bob"') != null' <<< "$body" >/dev/null
ok $? "admin: sees jsbob's read of jsalice's file"
jq -e '([.file.accesses[] | select(.job == '"$bob"') | [.user, .job_name]] | unique == [["jsbob", "bobsecret"]])
       and ([.file.accesses[] | select(.job == '"$sim"') | [.user, .job_name]] | unique == [["jsalice", "simulate"]])' <<< "$body" >/dev/null
ok $? "admin: each access is named with its own job's owner and name"

# --- escaping -----------------------------------------------------------------------------------
get jsalice --data-urlencode q=job --data-urlencode "id=$evil"
is "$(jq -r '.job.name' <<< "$body")" "$xss" "a hostile job name comes back intact as a JSON string"
grep -q '<\\/' "$work/body.json" || ! grep -q '</' "$work/body.json"
ok $? "'</' is escaped as '<\\/' in the reply"

# --- the injection/XSS corpus against every parameter of every endpoint ----------------------------
bad=0; n=0
while IFS= read -r payload; do
  for spec in "jobs:name" "jobs:workflow" "jobs:state" "jobs:from" "jobs:user" "workflows:name" "workflow:id" "workflow:job" \
              "job:id" "step:job" "step:step" "step:node" "background:step" "background:scope" "background:metric" "file:id" "jobs:cluster"; do
    q=${spec%%:*}; p=${spec#*:}
    extra=(); case $q in step|background) [ "$p" != job ] && extra=(--data-urlencode "job=$sim"); [ "$p" != step ] && extra+=(--data-urlencode step=0) ;; esac
    get jsalice --data-urlencode "q=$q" "${extra[@]}" --data-urlencode "$p=$payload"
    n=$((n + 1))
    case $code in
      400|403|404) ;;
      200) # a payload naming jsbob may be echoed back (step&node=jsbob); his data may not
           leak=(-e bobsecret -e bobflow); [[ $payload == *jsbob* ]] || leak+=(-e jsbob)
           if ! jq -e . >/dev/null 2>&1 <<< "$body" || grep -q "${leak[@]}" <<< "$body"; then bad=$((bad + 1)); diag "leak or bad JSON: $q $p=$payload"; fi ;;
      *) bad=$((bad + 1)); diag "status $code: $q $p=$payload: $body" ;;
    esac
  done
done < "$JS_TOP_SRCDIR/tests/web/injection-corpus.txt"
is "$bad" 0 "$n injection/XSS requests: each a 400/403/404 or a 200 with valid JSON and nothing of jsbob's"
codes=""
for raw in 'id=%00' 'id=1%00' 'name=%C3%28' 'name=a%0Ab' 'q=job%27' 'name=%FF' ; do
  codes="$codes $(curl -s -o /dev/null -w '%{http_code}' -u jsalice:jsalice "$api?q=jobs&$raw")"
done
is "$codes" " 400 400 400 400 400 400" "NUL bytes, invalid UTF-8, control characters and broken escapes: 400"
done_testing
