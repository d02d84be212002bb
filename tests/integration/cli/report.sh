#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The terminal report, jobscreen(1), on the real cluster through the running pipeline: jsalice's
# job on two nodes (a step that writes and computes on both, a step that reads) and a job that
# depends on it and reads its file; run by jsalice on a "login node" (her shell, her munge
# credential, the cluster's cli.conf): state, times, CPU efficiency as the database has it, peak
# memory, I/O per step, the files with the most bytes, runtime share per step, the related jobs
# with why, in 80 columns; the workflow; --json. Another user is told "no job N of yours" with
# exit status 1; root, an admin of this cluster's web.conf, sees it. The credential: one used
# twice, one made for another request, none at all and one of another user are refused or see
# nothing. A running job shows with its figures so far; a job name with terminal escapes cannot
# reach the terminal. The Insight section: insight and advice rows the test writes for step 0
# (tests/lib/insight.sh), one advice a terminal escape: the light as a word (in colour only on a
# terminal), the verdict, interference, I/O period and write pattern, the advice; a step
# without insight says "not computed yet".
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
. "$JS_TOP_SRCDIR/tests/lib/insight.sh"
CLI=$JS_TOP_BUILDDIR/cli/jobscreen
[ -x "$CLI" ] || skip_all "cli/jobscreen is not built"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline"
[ "$(wc -w <<< "$JS_NODES")" -ge 2 ] || skip_all "needs a cluster of 2 nodes or more"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
plan 30
q() { psql -X -q -At -F' ' -d "$JS_DB" -c "$1"; }
cli() { local u=$1; shift; runuser -u "$u" -- env JOBSCREEN_CLI_CONF="$JOBSCREEN_CLI_CONF" "$CLI" "$@"; }
w=$(work_dir jsalice)
tmp=$(mktemp -d); at_exit "rm -rf '$tmp'"

j1=$(cd "$w" && as_user jsalice sbatch --parsable --chdir="$w" -o /dev/null -N2 -n2 -J clireport \
  --wrap "srun bash -c 'dd if=/dev/zero of=cli.\$SLURM_JOB_ID.\$SLURM_PROCID bs=64k count=8 conv=fsync status=none; timeout 2 sh -c \"while :; do :; done\"; true'
          srun -N1 -n1 cat cli.\$SLURM_JOB_ID.0 cli.\$SLURM_JOB_ID.1 > /dev/null")
j2=$(cd "$w" && as_user jsalice sbatch --parsable --chdir="$w" -o /dev/null -N1 -n1 -J clinext -d "afterok:$j1" \
  --wrap "srun cat cli.$j1.0 > /dev/null")
is "$(wait_job_done "$j1" 120) $(wait_job_done "$j2" 120)" "COMPLETED COMPLETED" "a job on two nodes and its dependant completed"
wait_pipeline 90 "$j1" "$j2"
ok $? "the pipeline brought both into the database"
cluster=$(q "SELECT cluster FROM js.jobs WHERE job_id = $j1")
clear_insight "$JS_DB"
put_insight "$JS_DB" "$j1" 0 red $'\e]0;pwned\a Writes of 512 B on average: 3,000 calls moved 1.5 MiB; buffer them in larger blocks.'

cli jsalice "$j1" > "$tmp/r1" 2> "$tmp/e1"
is "$?:$(head -n 1 "$tmp/r1")" "0:Job $j1 \"clireport\" of jsalice on $cluster: COMPLETED, exit code 0" \
   "jsalice's report of her job: who, where, state and exit code"
diag "$(cat "$tmp/r1")"
is "$(awk '{ n = length($0); if (n > m) m = n } END { print (m <= 79) }' "$tmp/r1")$(LC_ALL=C grep -c $'[\x01-\x09\x0b-\x1f\x7f]' "$tmp/r1")" "10" \
   "it fits an 80-column terminal, without control characters"
# CPU efficiency as the database has it: the CPU time of its steps (extern aside) against its
# CPUs times its elapsed time
eff=$(q "SELECT sum(s.cpu_ns)::float8 / 1e9 / (j.elapsed_s * j.num_cpus) * 100 FROM js.jobs j JOIN js.steps s USING (cluster_id, job_id)
         WHERE j.job_id = $j1 AND s.step_id <> 'extern' GROUP BY j.elapsed_s, j.num_cpus")
like "$(grep '^  CPU ' "$tmp/r1")" "^  CPU        efficiency $(printf '%.1f' "$eff")%: .* of CPU time in 2 CPUs x " \
   "CPU efficiency: $(printf '%.1f' "$eff") %, the database's figure"
rss=$(q "SELECT max(max_rss_kib) FROM js.steps WHERE job_id = $j1 AND step_id <> 'extern'")
like "$(grep '^  memory ' "$tmp/r1")" "^  memory     peak $(awk -v k="$rss" 'BEGIN { printf "%.1f MiB", k / 1024 }') \\(its largest process\\)$" \
   "peak memory: the largest process's ($rss KiB)"
like "$(grep -m1 '^  0 ' "$tmp/r1")" "^  0      bash        COMPLETED +([0-9.]+ m?s) +[0-9.]+%  +[0-9.]+ MiB   1.0 MiB   1.0 MiB$" \
   "step 0 on two nodes: state, elapsed, CPU, memory, 1 MiB read (/dev/zero) and 1 MiB written"
like "$(grep -m1 '^  1 ' "$tmp/r1")" "^  1      cat         COMPLETED .*   1.0 MiB   1.0 MiB$" "step 1 read both files"
like "$(sed -n '/^Runtime share/,/^$/p' "$tmp/r1" | grep '^  0 ')" "^  0      compute [0-9.]+%" "the runtime share of step 0, computation first"
# (a long path keeps its end: the work directory may be cut to '~...')
like "$(grep -F "/cli.$j1.0 " "$tmp/r1")" "^  (${w}|~.*)/cli\.$j1\.0 +rw +512.0 KiB +512.0 KiB$" "its top files: cli.$j1.0, written and read back"
like "$(grep -F "/cli.$j1.1 " "$tmp/r1")" "^  (${w}|~.*)/cli\.$j1\.1 +rw +512.0 KiB +512.0 KiB$" "and cli.$j1.1"
like "$(grep "^  before $j2 " "$tmp/r1" | sort | tr '\n' '|')" \
   "^  before $j2 +clinext +COMPLETED  file: .*cli\\.$j1\\.0\\|  before $j2 +clinext +COMPLETED  scheduler: afterok\\|$" \
   "related jobs: its dependant, by the scheduler and by the file it read"
ins=$(sed -n '/^Insight/,/^$/p' "$tmp/r1")
like "$(grep -A1 '^  0 ' <<< "$ins" | tr '\n' '|')" \
   "^  0      RED     Disturbed: lost ~12 s \\(15%\\) while other jobs' I/O peaked\\|                 \\(whole cluster\\) at [0-9:]{8}-[0-9:]{8}, and in 1 more stretch\\.\\|$" \
   "Insight: step 0 RED, the verdict in a sentence (wrapped in 80 columns)"
like "$(tr '\n' '|' <<< "$ins")" "MPI interference 9\\.1% \\(medium\\): 12 of 4000 segments slower.*I/O every ~60 s, I/O in 25% of its slices at 100\\.0 MiB/s;\\|  +writes with seeks in between \\(write-seek\\)\\|  +high    Other jobs' I/O slowed this step: it lost 12 s \\(15 %\\)\\.\\|  +warning \\?\\]0;pwned\\? Writes of 512 B .*\\|  +info    I/O took 41 % .*\\|  1      -       not computed yet\\|" \
   "its interference estimate, I/O period, write pattern and advice (a terminal escape as '?'); step 1 not computed yet"
if command -v script >/dev/null; then
  # on a terminal (script's pty) the light is coloured, nothing else; NO_COLOR turns it off
  tty=$(runuser -u jsalice -- env JOBSCREEN_CLI_CONF="$JOBSCREEN_CLI_CONF" TERM=xterm script -qec "$CLI $j1" /dev/null)
  notty=$(runuser -u jsalice -- env JOBSCREEN_CLI_CONF="$JOBSCREEN_CLI_CONF" TERM=xterm NO_COLOR=1 script -qec "$CLI $j1" /dev/null)
  is "$(grep -c $'\e\\[1;31mRED   \e\\[0m  Disturbed' <<< "$tty")|$(grep -o $'\e' <<< "$tty" | wc -l)|$(grep -o $'\e' <<< "$notty" | wc -l)" "1|2|0" \
     "on a terminal the light is in colour (one escape to set, one to reset), with NO_COLOR not"
else
  skip "the light in colour on a terminal" "script(1) is not installed"
fi
cli jsalice "$j2" > "$tmp/r2"
like "$(grep "^  after  $j1 " "$tmp/r2" | sort | tr '\n' '|')" "file: .*scheduler: afterok" "the dependant's report names the job it ran after"

cli jsbob "$j1" > "$tmp/rb" 2> "$tmp/eb"
is "$?:$(cat "$tmp/rb")$(cat "$tmp/eb")" "1:jobscreen: no job $j1 of yours" "jsbob: 'no job $j1 of yours', exit status 1"
cli root "$j1" > "$tmp/rr"
is "$?:$(head -n 1 "$tmp/rr")" "0:Job $j1 \"clireport\" of jsalice on $cluster: COMPLETED, exit code 0" \
   "root, an admin of this cluster's web.conf, sees jsalice's job"

cli jsalice --json "$j1" > "$tmp/j1"
is "$(jq -r --argjson j2 "$j2" '"\(.id) \(.usage.write_bytes) \([.edges[] | select(.job == $j2) | .kind] | sort | join(","))"' "$tmp/j1")" \
   "$j1 $(q "SELECT sum(write_bytes) FROM js.steps WHERE job_id = $j1 AND step_id <> 'extern'") file,scheduler" \
   "--json: the job endpoint's reply, its bytes written as the database sums them, its edges to its dependant"
wf=$(q "SELECT workflow_id FROM js.jobs WHERE job_id = $j1")
cli jsalice -w "$wf" > "$tmp/w"
like "$(head -n 1 "$tmp/w")$(grep -c -E "^  ($j1|$j2) " "$tmp/w")|$(sed -n '/^Per job and step name/,$p' "$tmp/w" | grep -c -E '^  clireport (bash|cat) +[0-9]+ +[0-9]+ ')" \
   "^Workflow $wf \".*\" of jsalice on $cluster: [0-9]+ jobs.*2\|2$" \
   "-w $wf: the workflow with both jobs, and its steps summed per job and step name"
cli jsalice --compare "$j1" "$j2" > "$tmp/c"
diag "$(cat "$tmp/c")"
like "$(head -n 2 "$tmp/c" | tr '\n' '|')$(grep -c -E '^  0 +bash .* only A ' "$tmp/c") $(grep -c -E '^  1 +cat +[0-9]{2}:[0-9]{2}:[0-9]{2} +[0-9]{2}:[0-9]{2}:[0-9]{2} ' "$tmp/c")|$(cli jsalice -w "$wf" --compare "$wf" | grep -c -E '^  clirepo~ (bash|cat) .* \+0\.0% ')" \
   "^A: job $j1 \"clireport\", COMPLETED\|B: job $j2 \"clinext\", COMPLETED\|1 1\|2$" \
   "--compare: two jobs by step name (cat in both, bash only in A); a workflow against itself: no change"
cli jsalice --export "$j1" > "$tmp/x"
is "$(jq -r --arg j "$j1" '.jobs[0] | "\(.JobId) \(.JobName) \(.NumNodes) \(.ExitCode) \([.steps[].JobID] | sort | join(",")) \(.steps[] | select(.JobID == ($j + ".0")) | "\(.NNodes) \(.State) \(.profile.runtime_share.computation_ns > 0) \([.profile.io_handles[] | select(.file | endswith("/cli." + $j + ".0")) | "\(.mode):\(.paradigms | join("+")):\(.write_bytes)"] | join(",")) \(.profile.summary.posix_write_bytes)")"' "$tmp/x")" \
   "$j1 clireport 2 0 $j1.0,$j1.1,$j1.batch 2 COMPLETED true w:posix:524288 1048576" \
   "--export: the job in the JobLog shapes (Table 4.1/4.2 fields, per-step profile: runtime share, I/O handles, summary)"
cli jsalice "${j1}_1" > /dev/null 2> "$tmp/e"
is "$?:$(cat "$tmp/e")" "2:jobscreen: '${j1}_1': give an array task by its own job id (sacct -j ${j1}_1 -o JobIDRaw)" \
   "an id that is not one: exit status 2, and how to find the task's id"

# the credential as the CGI sees it (JS_CLI_URL): covering "jobscreen-cli 1\n" and the query
url=http://127.0.0.1:$JS_WEB_PORT/cli/jobscreen.cgi
cred() { printf 'jobscreen-cli 1\n%s' "$2" | openssl dgst -sha256 -binary | runuser -u "$1" -- munge -S "$JS_MUNGE_SOCKET"; }
c=$(cred jsalice "q=job&id=$j1")
first=$(curl -s -H "X-Jobscreen-Credential: $c" "$url?q=job&id=$j1" | jq -r '.job.id')
again=$(curl -s -w ' %{http_code}' -H "X-Jobscreen-Credential: $c" "$url?q=job&id=$j1")
like "$first|$again" "^$j1\\|.*Replayed credential.* 401$" "a credential works once: used again, munged refuses it (401)"
c=$(cred jsalice "q=job&id=$j2")
like "$(curl -s -w ' %{http_code}' -H "X-Jobscreen-Credential: $c" "$url?q=job&id=$j1")" \
   "does not match the credential.* 401$" "a credential made for another request is refused"
like "$(curl -s -w ' %{http_code}' "$url?q=job&id=$j1")" "no munge credential.* 401$" "no credential: 401"
c=$(cred jsalice "q=job&id=$j1")
like "$(curl -s -w ' %{http_code}' -H "X-Jobscreen-Credential: $c" "$url/workflows?q=job&id=$j1")" "names its endpoint by q=.* 401$" \
   "a credential's request may not name another endpoint in the path"
c=$(cred jsbob "q=job&id=$j1")
like "$(curl -s -w ' %{http_code}' -H "X-Jobscreen-Credential: $c" "$url?q=job&id=$j1")" "no job $j1 of yours.* 404$" \
   "jsbob's own credential for jsalice's job: 404, as if it did not exist"

# a running job shows with its figures so far; a name made of terminal escapes stays text
run=$(cd "$w" && as_user jsalice sbatch --parsable --chdir="$w" -o /dev/null -N1 -J $'live\e[31m\e]0;pwned\a' --wrap "srun sleep 60")
at_exit "scancel $run 2>/dev/null"
for i in $(seq 60); do cli jsalice "$run" > "$tmp/live" 2>/dev/null && grep -q '^  running ' "$tmp/live" && break; sleep 1; done
like "$(head -n 1 "$tmp/live")|$(grep '^  running ' "$tmp/live")" "^Job $run \"live\\?\\[31m\\?\\]0;pwned\\?\" of jsalice on $cluster: RUNNING\\|  running    for .* \\(the figures below are so far\\)$" \
   "a running job shows within $i s, its escapes as '?'"
is "$(LC_ALL=C grep -c $'[\x01-\x09\x0b-\x1f\x7f]' "$tmp/live")" 0 "no control character of its name reaches the terminal"
scancel "$run"
done_testing
