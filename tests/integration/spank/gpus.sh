#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# GPUs and energy per step (issue 39; docs/gpu.md) through the real pipeline, on a cluster of
# its own with stand-in GPUs (tests/cluster up --fake-gpus 2: a scripted NVML and a scripted
# powercap tree per node, the GPUs given by Slurm as Gres): two multi-node jobs sharing two nodes
# get different GPUs, and what the database holds per slice equals the scripts exactly; then a
# node without NVML, an NVML whose init fails, GPUs that disappear mid-step and a powercap
# counter that wraps leave the job's exit code and output as they were and the data says what
# is missing. Per process: two tasks of a step on its GPU with their scripted memory and
# utilization, another job's process listed on the same GPU counted and not attributed, shown by
# the API, the CLI, the viewer and the export. First, on the suite's cluster (no --fake-gpus), a
# step record has no "gpu" member.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
. "$JS_TOP_SRCDIR/tests/lib/fake_gpus.sh"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
[ "$(wc -w <<< "$JS_NODES")" -ge 4 ] || skip_all "needs a cluster of 4 nodes or more (JS_CLUSTER_NODES)"
[ -e "$JS_TOP_BUILDDIR/tests/gpu/.libs/libnvml-standin.so" ] || skip_all "no NVML stand-in built"
plan 39

# --- the suite's cluster: no GPU asked for, no powercap: the step record is as before ---
private_spool
w=$(work_dir jsalice)
j=$(cd "$w" && as_user jsalice sbatch --parsable --chdir="$w" -o out.txt -N1 --wrap "srun true")
wait_job_done "$j" 60 >/dev/null
n=$(job_node "$j")
wait_file "$(job_dir "$j")/step.0.$n.json"
is "$(jget "$(job_dir "$j")/step.0.$n.json" '"gpu" in r')" "false" "without GPUs and powercap a step record has no \"gpu\" member"
# the suite's cluster gets its own plugstack.conf back now: JS_PLUGSTACK names the GPU
# cluster's below, where spank.sh's restore at exit would write it
echo "$js_plugstack_cluster" > "$JS_PLUGSTACK"
main_plugstack=$JS_PLUGSTACK
at_exit "echo \"\$js_plugstack_cluster\" > \"$main_plugstack\""

# --- a cluster of our own with two stand-in GPUs per node ---
gdir=$JS_CLUSTER_DIR-gpu
at_exit "\"$JS_TOP_SRCDIR/tests/cluster\" down --dir \"$gdir\" >/dev/null 2>&1"
# afresh: a cluster left by an earlier run has that run's scripts
"$JS_TOP_SRCDIR/tests/cluster" down --dir "$gdir" >/dev/null 2>&1
out=$(JS_CLUSTER_NODES=4 "$JS_TOP_SRCDIR/tests/cluster" up --dir "$gdir" --fake-gpus 2 2>&1); st=$?
diag "$out"
[ $st -eq 0 ] || bail "the fake-GPU cluster did not come up"
. "$gdir/env"
db() { psql -X -q -At -d "$JS_DB" -c "$1"; }
sub() { local w=$1; shift; (cd "$w" && as_user jsalice sbatch --parsable --chdir="$w" -o out.txt "$@"); }

# --- two 2-node jobs on n1 and n2 at once, a GPU each per node ---
# GPU i of node nK runs at 10 (i + 1) + K % SM, 5 (i + 1) % memory, (i + 1) GiB, 100 + i W, and
# its energy counter goes up 400 mJ a read (tests/lib/fake_gpus.sh)
wa=$(work_dir jsalice) wb=$(work_dir jsalice)
body='srun bash -c "echo \$SLURMD_NODENAME \$SLURM_STEP_GPUS; sleep 9" | sort'
ja=$(sub "$wa" -N2 -w n1,n2 --gres=gpu:1 --wrap "$body")
jb=$(sub "$wb" -N2 -w n1,n2 --gres=gpu:1 --wrap "$body")
wait_job_done "$ja" 90 >/dev/null; wait_job_done "$jb" 90 >/dev/null
is "$(job_state "$ja") $(job_state "$jb")" "COMPLETED COMPLETED" "two 2-node jobs with a GPU per node ran side by side on n1 and n2"
ga=$(awk '{print $2}' "$wa/out.txt" | sort -u) gb=$(awk '{print $2}' "$wb/out.txt" | sort -u)
ok $([ -n "$ga" ] && [ -n "$gb" ] && [ "$ga" != "$gb" ]; echo $?) "Slurm gave them different GPUs ($ga and $gb)"
wait_pipeline 90 "$ja" "$jb" || true
is "$(db "SELECT string_agg(job_id || ' ' || node || ' ' || uuid, ', ' ORDER BY job_id, node) FROM js.step_gpus
          WHERE job_id IN ($ja, $jb) AND step_id = '0'")" \
   "$ja n1 GPU-n1-$ga, $ja n2 GPU-n2-$ga, $jb n1 GPU-n1-$gb, $jb n2 GPU-n2-$gb" \
   "each step-node holds the GPU Slurm gave it, and only that one"
# every slice of every GPU: mean SM and memory utilization and peak memory as scripted
bad=$(db "SELECT count(*) FROM js_data.series_step_node_gpu s
            JOIN js_data.step_node_gpus g USING (cluster_id, job_id, step_id, node, uuid),
            LATERAL (SELECT substr(s.node, 2)::int AS k, g.minor AS i) x,
            LATERAL unnest(js.series_decode(s.util_n, s.slices), js.series_decode(s.util_sm_sum, s.slices),
                           js.series_decode(s.util_mem_sum, s.slices), js.series_decode(s.util_sm_max, s.slices),
                           js.series_decode(s.mem_used_max, s.slices), js.series_decode(s.power_mw_sum, s.slices),
                           js.series_decode(s.power_n, s.slices)) AS v(n, sm, mem, smax, peak, pw, pn)
          WHERE s.job_id IN ($ja, $jb) AND v.n > 0
            AND (v.sm <> (10 * (x.i + 1) + x.k) * v.n OR v.mem <> 5 * (x.i + 1) * v.n OR v.smax <> 10 * (x.i + 1) + x.k
                 OR v.peak <> (x.i + 1)::bigint << 30 OR v.pw <> (100000 + 1000 * x.i) * v.pn)")
slices=$(db "SELECT sum(s.slices) FROM js_data.series_step_node_gpu s WHERE s.job_id IN ($ja, $jb)")
is "$bad" "0" "per slice, SM and memory utilization, peak memory and power equal the scripted values ($slices slices)"
is "$(db "SELECT count(*) FROM js.step_gpus WHERE job_id IN ($ja, $jb) AND step_id = '0'
          AND (util_sm_mean <> 10 * (minor + 1) + substr(node, 2)::int OR util_sm_max <> 10 * (minor + 1) + substr(node, 2)::int
               OR mem_used_max <> (minor + 1)::bigint << 30 OR mem_total <> 85899345920)")" "0" \
   "js.step_gpus: mean and max utilization, peak memory and total as scripted"
# the energy: the counter's difference between the first and the last reading, exactly
is "$(db "SELECT count(*) FROM js.step_gpus WHERE job_id IN ($ja, $jb)
          AND (energy_kind <> 'counter' OR abs(energy_j - 0.4 * (samples - 1)) > 1e-9 OR samples < 8)")" "0" \
   "each GPU's energy is 400 mJ a reading after the first: the scripted counter's difference"
is "$(db "SELECT count(*) FROM js_data.series_step_node_gpu s JOIN js_data.step_node_gpus g USING (cluster_id, job_id, step_id, node, uuid)
          WHERE s.job_id IN ($ja, $jb)
          GROUP BY g.job_id, g.step_id, g.node, g.uuid, g.energy_j
          HAVING abs(sum((SELECT sum(e) FROM unnest(js.series_decode(s.energy_uj, s.slices)) e)) / 1e6 - g.energy_j) > 1e-9")" "" \
   "the per-slice energy adds up to the step's to the microjoule"
is "$(db "SELECT count(*) FROM js.steps WHERE job_id IN ($ja, $jb) AND step_id = '0' AND gpus = 2
          AND abs(gpu_energy_j - (SELECT sum(energy_j) FROM js.step_gpus g WHERE g.job_id = js.steps.job_id AND g.step_id = '0')) < 1e-9")" "2" \
   "js.steps: 2 GPUs per step, and their energy"
# the batch step read the job's GPU on n1 too: the job counts that GPU once
is "$(db "SELECT count(*) FROM js.jobs j WHERE job_id IN ($ja, $jb) AND gpu_energy_j > 0
          AND gpu_energy_j < (SELECT sum(energy_j) FROM js.step_gpus g WHERE g.job_id = j.job_id)
          AND gpu_energy_j >= (SELECT sum(energy_j) FROM js.step_gpus g WHERE g.job_id = j.job_id AND g.step_id = '0')")" "2" \
   "js.jobs: a GPU both the batch step and step 0 read counts once"

# --- shown: the step API, the terminal report, the viewer in Chromium ---
api() { local u=$1; shift; curl -s -G -u "$u:$u" -w '\n%{http_code}' "${JS_WEB_URL}cgi-bin/jobscreen.cgi" "$@"; }
r=$(api jsalice --data-urlencode q=step --data-urlencode "job=$ja" --data-urlencode step=0 --data-urlencode gpu_series=1)
body=$(head -n -1 <<< "$r")
ua=$((10 * (ga + 1) + 1)) ub=$((10 * (ga + 1) + 2)) mem=$(( (ga + 1) << 30 ))
is "$(jq -r '[.step.gpus[] | .node + " " + .uuid + " " + (.util_sm_mean | tostring) + " " + (.mem_used_max | tostring)] | join(", ")' <<< "$body")" \
   "n1 GPU-n1-$ga $ua $mem, n2 GPU-n2-$ga $ub $mem" "the step API lists its GPUs per node with their figures"
is "$(jq -r --argjson a "$ua" --argjson b "$ub" '[([.step.gpus[] | .series.points] | add > 0),
      ([.step.gpus[] | . as $g | .series.metrics.util_sm[] | select(. != (if $g.node == "n1" then $a else $b end))] | length),
      ((.step.energy_j - ([.step.gpus[].energy_j] | add)) | (if . < 0 then -. else . end) < 1e-9)] | map(tostring) | join(" ")' <<< "$body")" \
   "true 0 true" "gpu_series=1: each GPU's slices hold the scripted utilization; the step's energy is its GPUs'"
# its series as columns (docs/api.md, "Series"): a point per slice with a reading, every array as long
is "$(jq -c '[.step.gpus[].series | .points as $n | [$n == (.slice | length), all(.metrics[]; length == $n),
      (.slice == (.slice | sort)), .first_slice == .slice[0], .slices_per_point]] | unique' <<< "$body")|$(jq '[.step.gpus[].series.points] | add' <<< "$body")" \
   '[[true,true,true,true,1]]|'"$(db "SELECT count(*) FROM js_data.series_step_node_gpu s, unnest(js.series_decode(s.samples, s.slices)) n
                                          WHERE s.job_id = $ja AND s.step_id = '0' AND n > 0")" \
   "gpu_series=1: per GPU a series of columns: its points are the slices the database holds readings of"
is "$(api jsbob --data-urlencode q=step --data-urlencode "job=$ja" --data-urlencode step=0 --data-urlencode gpu_series=1 | tail -n 1) $(api jsalice --data-urlencode q=step --data-urlencode "job=$ja" --data-urlencode step=0 --data-urlencode gpu_series=2 | tail -n 1)" \
   "404 400" "another user sees none of it (404); gpu_series=2 is refused (400)"
echo "co2_g_per_kwh = 100000" >> "$JOBSCREEN_CLI_CONF"
rep=$(runuser -u jsalice -- env JOBSCREEN_CLI_CONF="$JOBSCREEN_CLI_CONF" "$JS_CLI" "$ja")
m=$(db "SELECT sum(util_sm_mean * samples) / sum(samples) || ' ' || max(util_sm_max) FROM js.step_gpus WHERE job_id = $ja AND step_id = '0'")
want="  0      2 GPUs, utilization $(printf '%.0f' "${m% *}") % (max ${m#* } %), memory peak $((ga + 1)).0 GiB of 80.0 GiB;"
e=$(db "SELECT energy_j FROM js.steps WHERE job_id = $ja AND step_id = '0'")
like "$rep" "$(sed 's/[][().]/\\&/g' <<< "$want")"$'\n'"         energy $(printf '%.1f' "$e") J; $(awk -v e="$e" 'BEGIN { printf "%.1f", e / 3.6e6 * 100000 }') g CO2" \
     "jobscreen JOBID: a GPU line for the step and its energy with the CO2 cli.conf's co2_g_per_kwh gives"
tw=$JS_TOP_SRCDIR/tests/web
if [ -x /usr/bin/chromium ] && command -v node >/dev/null &&
   { [ -d "$tw/node_modules/playwright-core" ] || (cd "$tw" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >/dev/null 2>&1); }; then
  # the site's CO2 per kWh in web.conf (the FastCGI processes read a changed file again)
  wconf=$JS_CLUSTER_DIR/www/jobscreen-web.conf
  cp "$wconf" "$gdir/web.conf.orig"; at_exit "cp '$gdir/web.conf.orig' '$wconf'"
  echo "co2_g_per_kwh = 100000" >> "$wconf"
  out=$(timeout 120 node "$tw/gpu-test.js" --url "$JS_WEB_URL" --user jsalice --password jsalice --step "$ja:0" --co2 100000 \
        --out "$gdir/web-screenshots" --expect "n1 GPU-n1-$ga=$((10 * (ga + 1) + 1)),n2 GPU-n2-$ga=$((10 * (ga + 1) + 2))" 2>&1); st=$?
  cp "$gdir/web.conf.orig" "$wconf"
  diag "$out"
  ok $st "the viewer in Chromium: a GPU chart per metric, a line per GPU at the scripted values, the table, the energy; the job tab's chart and CO2"
else
  skip "the viewer in Chromium" "no /usr/bin/chromium, node or playwright-core"
fi

# --- insight: one GPU of two used on n3, both idle on n4; the jobs above busy on 1-2 GiB of 80 ---
{ echo "gpu uuid=GPU-n3-0 name=H200-standin minor=0 mem_total=85899345920 mem_used=64424509440 util_sm=70 util_mem=30 power=400000 energy=1000+400"
  echo "gpu uuid=GPU-n3-1 name=H200-standin minor=1 mem_total=85899345920 mem_used=64424509440 util_sm=1 util_mem=0 power=90000 energy=1000+400"; } > "$JS_GPU_DIR/n3/nvml.conf"
fake_gpu_script n4 2 | sed 's/util_sm=[0-9]*/util_sm=1/' > "$JS_GPU_DIR/n4/nvml.conf"
wi=$(work_dir jsalice) wj=$(work_dir jsalice)
ji=$(sub "$wi" -N1 -w n3 --gres=gpu:2 --wrap 'srun sleep 9')
jj=$(sub "$wj" -N1 -w n4 --gres=gpu:2 --wrap 'srun sleep 9')
wait_job_done "$ji" 90 >/dev/null; wait_job_done "$jj" 90 >/dev/null
wait_pipeline 90 "$ji" "$jj" || true
for i in $(seq 300); do
  [ "$(db "SELECT count(*) FROM js_data.step_insights WHERE job_id IN ($ja, $jb, $ji, $jj) AND step_id = '0'")" = 4 ] && break
  sleep 0.2
done
advice() { db "SELECT coalesce(string_agg(code, ' ' ORDER BY code) FILTER (WHERE code LIKE '%GPU%'), '-') FROM js.step_advice WHERE job_id = $1 AND step_id = '0'"; }
is "$(advice "$ja") $(advice "$jb")" "GPU_MEMORY_UNUSED GPU_MEMORY_UNUSED" \
   "busy GPUs with 1-2 GiB of 80 GiB: GPU memory mostly unused, neither idle nor one GPU of N"
is "$(advice "$ji")|$(db "SELECT figures->>'uuid' || ' ' || (figures->>'gpus') FROM js.step_advice WHERE job_id = $ji AND step_id = '0' AND code = 'ONE_GPU_USED'")" \
   "ONE_GPU_USED|GPU-n3-0 2" "one GPU of two at work, 60 GiB used: one GPU of N used (naming it), memory and idle silent"
like "$(advice "$jj")|$(db "SELECT severity || ' ' || (figures->>'idle_share') || ' ' || message FROM js.step_advice WHERE job_id = $jj AND step_id = '0' AND code = 'GPU_IDLE'")" \
     "^GPU_IDLE\\|high 1(\\.0+)? GPUs allocated but idle: the step's 2 GPUs ran kernels under 5 % of the time in 100 % of its slices" \
     "two idle GPUs: GPUs allocated but idle, with its figures, and nothing else of GPUs"

# --- the admin report and the export ---
rep=$(psql -X -q -At -F'|' -d "$JS_DB" -v since=2000-01-01 -v until=2100-01-01 -f "$JS_TOP_SRCDIR/sql/reports/gpu-energy.sql" 2>&1)
idle_h=$(db "SELECT round(sum(last_slice - first_slice + 1) * 4 / 3600.0, 2) FROM js.step_gpus
             WHERE step_id = '0' AND ((job_id = $ji AND uuid = 'GPU-n3-1') OR job_id = $jj)")
kwh=$(db "SELECT round(((sum(gpu_energy_j) + coalesce(sum(cpu_energy_j), 0)) / 3.6e6)::numeric, 3) FROM js.jobs WHERE user_name = 'jsalice'")
like "$rep" "(^|"$'\n'")jsalice\\|[^|]*\\|[0-9]+\\|4\\|[0-9.]+\\|$idle_h\\|[0-9.]+\\|[0-9.]+\\|[0-9.]*\\|$kwh("$'\n'"|$)" \
     "sql/reports/gpu-energy.sql: jsalice's 4 GPU jobs, idle GPU-hours the idle GPUs' slices ($idle_h h), energy $kwh kWh"
is "$(api jsalice --data-urlencode q=export --data-urlencode "job=$ja" | head -n -1 |
      jq -r --arg s "$ja.0" '[(.jobs[0].jobscreen.gpu_energy_j > 0), (.jobs[0].steps[] | select(.JobID == $s) | .jobscreen.gpus | length)] | map(tostring) | join(" ")')" \
   "true 2" "the export carries the job's energy and each step's GPUs"

# --- per process: the stand-in lists on both GPUs of n1 the processes whose pids the tasks write
# (proc pidfile=...): job P's two tasks (3 GiB at 40 %, 5 GiB at 20 %) and job O's one (7 GiB at
# 60 %); P and O get one GPU each. Each step keeps its own processes only (the relay: descendants
# of the step's slurmstepd), the others are counted; the batch steps, which read the same GPUs,
# get none of them ---
wp=$(work_dir jsalice) wo=$(work_dir jsalice)
G=$((1 << 30))
{ fake_gpu_script n1 2 | while read -r line; do
    echo "$line"
    echo "proc pidfile=$wp/rank0 mem=$((3 * G)) sm=40 memutil=4"
    echo "proc pidfile=$wp/rank1 mem=$((5 * G)) sm=20 memutil=2"
    echo "proc pidfile=$wp/other mem=$((7 * G)) sm=60 memutil=6"
  done; } > "$JS_GPU_DIR/n1/nvml.conf"
jp=$(sub "$wp" -N1 -n2 -w n1 --gres=gpu:1 --wrap "srun -n2 bash -c 'echo \$\$ > $wp/rank\$SLURM_PROCID; echo \$SLURM_STEP_GPUS > $wp/gpu; exec sleep 8'")
jo=$(sub "$wo" -N1 -w n1 --gres=gpu:1 --wrap "srun bash -c 'echo \$\$ > $wp/other; sleep 8'")
wait_job_done "$jp" 90 >/dev/null; wait_job_done "$jo" 90 >/dev/null
p0=$(cat "$wp/rank0" 2>/dev/null) p1=$(cat "$wp/rank1" 2>/dev/null) po=$(cat "$wp/other" 2>/dev/null) gp=$(cat "$wp/gpu" 2>/dev/null)
is "$(job_state "$jp") $(job_state "$jo") $([ -n "$p0" ] && [ -n "$p1" ] && [ -n "$po" ] && [ -n "$gp" ] && echo pids)" "COMPLETED COMPLETED pids" \
   "job P (two tasks) and job O (one) ran side by side on n1's two GPUs, their tasks' pids written"
wait_pipeline 90 "$jp" "$jo" || true
procs() { db "SELECT coalesce(string_agg(coalesce(task_id::text, '-') || ' ' || pid || ' ' || mem_used_max || ' ' || util_sm_mean || ' ' || util_sm_max
                                         || ' ' || round(util_mem_mean::numeric, 1), ', ' ORDER BY pid), '-')
              FROM js.step_gpu_processes WHERE job_id = $1 AND step_id = '$2'"; }
want_p=$(printf '%s\n' "0 $p0 $((3 * G)) 40 40 4.0" "1 $p1 $((5 * G)) 20 20 2.0" | sort -t' ' -k2,2n | paste -sd, | sed 's/,/, /g')
is "$(procs "$jp" 0)" "$want_p" \
   "js.step_gpu_processes: P's two tasks on its GPU, each with its rank, pid, scripted peak memory and SM/memory utilization"
is "$(db "SELECT uuid || ' ' || processes_dropped || ' ' || processes_other FROM js.step_gpus WHERE job_id = $jp AND step_id = '0'")|$(procs "$jo" 0)|$(db "SELECT processes_other FROM js.step_gpus WHERE job_id = $jo AND step_id = '0'")" \
   "GPU-n1-$gp 0 1|0 $po $((7 * G)) 60 60 6.0|2" \
   "O's process on P's GPU is counted, not attributed; O's step has its own process alone, and counts P's two"
is "$(procs "$jp" batch)|$(db "SELECT processes_other FROM js.step_gpus WHERE job_id = $jp AND step_id = 'batch'")" "-|3" \
   "the batch step, reading the same GPU, is given none of step 0's processes (3 others counted)"
is "$(db "SELECT string_agg(coalesce(exe, '-') || ' ' || coalesce(args, '-'), ', ') FROM js.step_gpu_processes WHERE job_id = $jp AND step_id = '0'")" \
   "$(readlink -f "$(command -v sleep)") sleep 8, $(readlink -f "$(command -v sleep)") sleep 8" \
   "each process's command: the last image of its pid among the step's profiled processes (bash exec'd sleep)"
r=$(api jsalice --data-urlencode q=step --data-urlencode "job=$jp" --data-urlencode step=0 | head -n -1)
is "$(jq -r '[.step.gpus[] | .node + " " + .uuid + " other " + (.processes_other | tostring) + ": " + ([.processes[] | "\(.pid) rank \(.rank) \(.mem_used_max) \(.util_sm_mean)"] | join(", "))] | join("; ")' <<< "$r")" \
   "n1 GPU-n1-$gp other 1: $p1 rank 1 $((5 * G)) 20, $p0 rank 0 $((3 * G)) 40" "the step API: per GPU its processes (the highest peak first) and the others counted"
rep=$(runuser -u jsalice -- env JOBSCREEN_CLI_CONF="$JOBSCREEN_CLI_CONF" "$JS_CLI" "$jp")
like "$rep" "  0      1 GPU, [^"$'\n'"]*("$'\n'"         [^"$'\n'"]*)?"$'\n'"         n1 GPU $gp: 2 processes, rank 1 \\(pid $p1\\) 5\\.0 GiB peak" \
     "jobscreen JOBID: under the step's GPU line, its GPU's processes and the one with the highest peak"
is "$(api jsalice --data-urlencode q=export --data-urlencode "job=$jp" | head -n -1 |
      jq -r --arg s "$jp.0" '.jobs[0].steps[] | select(.JobID == $s) | .jobscreen.gpus[0] | [(.processes | map(.pid) | sort | map(tostring) | join(" ")), (.processes_other | tostring)] | join("|")')" \
   "$(printf '%s\n' "$p0" "$p1" | sort -n | paste -sd' ')|1" "the export carries each GPU's processes"
if [ -x /usr/bin/chromium ] && [ -d "$tw/node_modules/playwright-core" ]; then
  out=$(timeout 120 node "$tw/gpu-test.js" --url "$JS_WEB_URL" --user jsalice --password jsalice --step "$jp:0" --out "$gdir/web-screenshots-procs" \
        --expect "n1 GPU-n1-$gp=$((10 * (gp + 1) + 1))" --expect-procs "n1 GPU-n1-$gp $p0=0,n1 GPU-n1-$gp $p1=1" 2>&1); st=$?
  diag "$out"
  ok $st "the viewer's step page in Chromium: the processes table lists P's two tasks with their ranks, and counts O's"
else
  skip "the viewer's processes table in Chromium" "no /usr/bin/chromium, node or playwright-core"
fi
fake_gpu_script n1 2 > "$JS_GPU_DIR/n1/nvml.conf"

# --- faults: n3 without NVML, n4's NVML fails to initialise, n2's GPUs disappear after 3 reads,
# n2's powercap counter wraps every 2.5 s (0.4 J/s, max_energy_range_uj 1 J) ---
rm -f "$JS_GPU_DIR/n3/libnvidia-ml.so.1"
{ echo "init fail=9"; fake_gpu_script n4 2; } > "$JS_GPU_DIR/n4/nvml.conf"
fake_gpu_script n2 2 | sed 's/$/ fail_after=22/' > "$JS_GPU_DIR/n2/nvml.conf"
pc=$JS_GPU_DIR/n2/powercap/intel-rapl:0
echo 1000000 > "$pc/max_energy_range_uj"
( while :; do echo $(( ($(date +%s%3N) / 250 * 100000) % 1000000 )) > "$pc/energy_uj.new" && mv "$pc/energy_uj.new" "$pc/energy_uj"; sleep 0.05; done ) &
writer=$!
at_exit "kill $writer 2>/dev/null"
wf=$(work_dir jsalice)
# (each task busy 3 s, then asleep: its CPU time shares n2's CPU energy, below)
jf=$(sub "$wf" -N3 -w n2,n3,n4 --gres=gpu:1 --wrap 'srun bash -c "t=\$((SECONDS + 3)); while [ \$SECONDS -lt \$t ]; do :; done; sleep 5; echo out \$SLURM_NODEID" | sort; exit 3')
wait_job_done "$jf" 90 >/dev/null
kill "$writer" 2>/dev/null
is "$(job_state "$jf") $(scontrol show job "$jf" | sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p') $(tr '\n' ';' < "$wf/out.txt")" \
   "FAILED 3:0 out 0;out 1;out 2;" "with no NVML, a failing init and GPUs gone, the job's exit code and output are its own"
# and a relay killed mid-step on n1: no readings, said so; the job as it was
wk=$(work_dir jsalice)
jk=$(sub "$wk" -N1 -w n1 --gres=gpu:1 --wrap 'srun bash -c "sleep 8; echo done"')
relay=
for i in $(seq 100); do
  # the relay: a root slurmstepd whose parent is the step's slurmstepd (the tasks are jsalice's)
  relay=$(ps -eo pid=,ppid=,user=,comm=,args= | awk -v j="[$jk.0]" '$3 == "root" && $4 == "slurmstepd" && index($0, j) { print $1, $2 }' |
          while read -r p pp; do [ "$(ps -o comm= -p "$pp")" = slurmstepd ] && [ "$(ps -o args= -p "$pp" | grep -cF "[$jk.0]")" = 1 ] && echo "$p"; done | head -n 1)
  [ -n "$relay" ] && break
  sleep 0.1
done
sleep 2
[ -n "$relay" ] && kill -KILL "$relay"
wait_job_done "$jk" 90 >/dev/null
is "$([ -n "$relay" ] && echo killed) $(job_state "$jk") $(cat "$wk/out.txt")" "killed COMPLETED done" "a relay killed mid-step: the job completes with its output"
wait_pipeline 90 "$jf" "$jk" || true
like "$(db "SELECT gpu_note FROM js_data.step_node_energy WHERE job_id = $jk AND step_id = '0'")" \
     "the step asked for GPUs \\(SLURM_STEP_GPUS=[01]\\) but no readings: the relay ended before it wrote them" \
     "and its step-node says its GPU readings are missing, and why"

q="SELECT gpu_note FROM js_data.step_node_energy WHERE job_id = $jf AND step_id = '0' AND node ="
like "$(db "$q 'n3'")" "the step asked for GPUs \\(SLURM_STEP_GPUS=[01]\\) but no GPUs: .*libnvidia-ml.so.1: cannot open shared object file" \
     "a node without NVML: the step-node says the GPUs it asked for were not read, and why"
like "$(db "$q 'n4'")" "the step asked for GPUs \\(SLURM_STEP_GPUS=[01]\\) but no GPUs: nvmlInit_v2: " \
     "an NVML that fails to initialise: said likewise"
is "$(db "SELECT gone, samples < 6, (SELECT gpu_note FROM js_data.step_node_energy s WHERE s.job_id = g.job_id AND s.step_id = '0' AND s.node = 'n2') LIKE '%' || uuid || ' disappeared during the step%'
          FROM js.step_gpus g WHERE job_id = $jf AND step_id = '0'")" "t|t|t" \
   "a GPU that disappears mid-step: marked gone, its readings stop, the note names it"
is "$(db "SELECT count(*) FROM js_data.step_node_gpus WHERE job_id = $jf AND node IN ('n3', 'n4')")" "0" \
   "no GPU rows where NVML gave none"
# the wrapping counter: 0.4 J a second of the step on n2, in whole 0.1 J steps
e=$(db "SELECT e.node_cpu_energy_j || ' ' || extract(epoch FROM sn.end_time - sn.start_time) FROM js_data.step_nodes sn
        JOIN js_data.step_node_energy e USING (cluster_id, job_id, step_id, node)
        WHERE sn.job_id = $jf AND sn.step_id = '0' AND sn.node = 'n2'")
ok $(awk -v e="${e% *}" -v t="${e#* }" 'BEGIN { q = e / 0.1; d = q - int(q + 0.5); exit !(e > 1 && d * d < 1e-12 && e >= 0.4 * (t - 2.5) && e <= 0.4 * (t + 1.5)) }'; echo $?) \
   "a powercap counter that wraps every 2.5 s: the node's CPU energy is 0.4 J/s over the step ($e: J and s)"
# the test cluster has no cgroup of the step (proctrack/linuxproc): the step's share of n2's
# energy comes from the CPU time its processes reported, against the node's busy CPU time
# (exact per slice in unit/test_ingest_gpu), and the note says where it came from
r=$(db "SELECT round(cpu_energy_j::numeric, 2) || ' of ' || round(node_cpu_energy_j::numeric, 2) || ' J|' ||
             (cpu_energy_j > 0 AND cpu_energy_j <= node_cpu_energy_j) || '|' || gpu_note
        FROM js_data.step_node_energy WHERE job_id = $jf AND step_id = '0' AND node = 'n2'" | tr '\n' ' ')
like "$r" "^[0-9.]+ of [0-9.]+ J\\|true\\|.*CPU energy shared by the CPU time the step's processes reported \\(no cgroup v2 of the step" \
     "without a cgroup of the step, its share of the node's CPU energy from its processes' CPU time, said so (${r%%|*})"
done_testing
