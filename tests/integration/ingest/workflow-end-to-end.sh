#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End to end: the demo's sample workflow (contrib/examples/workflow) runs on the real cluster
# with the real SPANK plugin and profiler, and the cluster's pipeline (node-local spools, the
# nodes' senders, the receiver, the ingest daemon) brings it into JS_DB with nothing run by hand:
# the database holds the expected jobs, steps, files, and scheduler and file edges; and the
# terminal report of the workflow (`jobscreen -w`) is the one of Slurm 22.05 (ids, times and
# the measured figures aside), whichever Slurm runs it (tests/slurm/check).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
grep -q jobscreen.so "$JS_PLUGSTACK" || skip_all "the cluster runs without the SPANK plugin"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline (transport/ or profile_ingest not built)"
plan 14
work=$(mktemp -d "$JS_CLUSTER_DIR/e2e.XXXXXX"); chmod 755 "$work"; chown jsalice:jsalice "$work"
ids=$(runuser -u jsalice -- env SLURM_CONF="$SLURM_CONF" PATH="$PATH" timeout 300 \
  "$JS_TOP_SRCDIR/contrib/examples/workflow/submit.sh" "$work")
is "$(echo "$ids" | awk '{print $1}' | tr '\n' ' ')" "generate simulate plot analyze archive " "the workflow's five jobs were submitted"
id() { echo "$ids" | awk -v n="$1" '$1 == n {print $2}'; }
for n in generate simulate plot analyze archive; do wait_job_done "$(id "$n")" 60 >/dev/null; done
jobs_in="$(id generate),$(id simulate),$(id plot),$(id analyze),$(id archive)"
wait_pipeline 120 ${jobs_in//,/ }
ok $? "the pipeline brought the five jobs into JS_DB, and the node spools and the received spool hold nothing more of them"
q() { psql -X -q -At -F' ' -d "$JS_DB" -c "$1"; }
name_of() { # job ids to names where a job id stands: at the start of a line or after a space, before "/", " " or the end
  local n e=(); for n in generate simulate plot analyze archive; do e+=(-e "s/(^| )$(id "$n")([/ ]|\$)/\\1$n\\2/g"); done
  sed -E "${e[@]}" | sed -E "${e[@]}"
}

is "$(q "SELECT name, state, workflow_name, final FROM js.jobs WHERE job_id IN ($jobs_in) ORDER BY job_id" | tr '\n' ';')" \
   "generate COMPLETED sample t;simulate COMPLETED sample t;plot COMPLETED sample t;analyze COMPLETED sample t;archive COMPLETED sample t;" \
   "the five jobs, completed, in workflow 'sample'"
is "$(q "SELECT j.name || ':' || string_agg(s.step_id, ',' ORDER BY s.step_id) FROM js.steps s JOIN js.jobs j USING (cluster_id, job_id)
         WHERE s.job_id IN ($jobs_in) GROUP BY j.job_id, j.name ORDER BY j.job_id" | tr '\n' ' ')" \
   "generate:0,1,batch simulate:0,1,batch plot:0,batch analyze:0,1,batch archive:0,batch " "every step of every job, the batch steps included"
is "$(q "SELECT count(*) FROM js.steps WHERE job_id IN ($jobs_in) AND (incomplete OR NOT profiled)")" "0" "every step profiled and complete"
is "$(q "SELECT processes FROM js.steps WHERE job_id = $(id simulate) AND step_id = '0'" )" \
   "$(q "SELECT count(*) FROM js.processes WHERE job_id = $(id simulate) AND step_id = '0'")" "the step's process count is its profiles"
ok "$([ "$(q "SELECT count(*) FROM js.processes WHERE job_id = $(id simulate) AND step_id = '0' AND exe LIKE '%/md5sum'")" -ge 2 ] && echo 0 || echo 1)" \
   "both ranks of simulate's step 0 have a profile of md5sum"

# files of the work directory (but Slurm's NAME-ID.out, written by slurmstepd), per job and step, by access mode
# (simulate's step 0 runs on two nodes: a file it read on both is one line here)
got=$(q "SELECT a.job_id || '/' || a.step_id || ' ' || replace(a.path, '$work/', '') || ' ' || a.access
         FROM (SELECT DISTINCT job_id, step_id, path, access FROM js.file_accesses) a
         WHERE a.job_id IN ($jobs_in) AND a.path LIKE '$work/%' AND a.path !~ '/(generate|simulate|plot|analyze|archive)-[0-9]+[.]out$' ORDER BY a.job_id, a.step_id, a.path" | name_of)
want="generate/0 input.dat write-only
generate/1 params.txt write-only
simulate/0 input.dat read-only
simulate/0 params.txt read-only
simulate/0 part-0.out write-only
simulate/0 part-1.out write-only
simulate/0 sim-0.bin write-only
simulate/0 sim-1.bin write-only
simulate/1 part-0.out read-only
simulate/1 part-1.out read-only
simulate/1 sim-0.bin read-only
simulate/1 sim-1.bin read-only
simulate/1 sim.out write-only
plot/0 plot.txt write-only
plot/0 sim.out read-only
analyze/0 analysis.txt write-only
analyze/0 sim.out read-only
analyze/1 analysis.txt read-only
analyze/1 report.txt write-only
archive/0 plot.txt read-only
archive/0 report.txt read-only
archive/0 results.tar write-only"
is "$got" "$want" "the files each step wrote and read"
is "$(q "SELECT bytes_written FROM js.file_accesses WHERE job_id = $(id generate) AND path = '$work/input.dat'")" "4194304" \
   "generate wrote 64 x 64 KiB into input.dat"
is "$(q "SELECT count(*) || ' ' || count(DISTINCT file_node) || ' ' || bool_and(scope = 'local') || ' ' || min(bytes_written) FROM js.file_accesses
         WHERE job_id = $(id simulate) AND path = '/tmp/stage-$(id simulate).dat'")" "2 2 true 4194304" \
   "simulate staged its input in each node's /tmp: two node-local files, 4 MiB written to each"

got=$(q "SELECT from_job || ' ' || to_job || ' ' || condition FROM js.dependencies WHERE kind = 'scheduler' AND to_job IN ($jobs_in) ORDER BY to_job, from_job" | name_of)
is "$got" "generate simulate afterok
simulate plot afterany
plot archive afterok
analyze archive afterok" "the scheduler edges, with their conditions"
got=$(q "SELECT from_job || '/' || from_step || ' ' || to_job || '/' || to_step || ' ' || replace(path, '$work/', '') FROM js.dependencies
         WHERE kind = 'file' AND to_job IN ($jobs_in) ORDER BY path, from_job, to_job" | name_of)
is "$got" "generate/0 simulate/0 input.dat
generate/1 simulate/0 params.txt
plot/0 archive/0 plot.txt
analyze/1 archive/0 report.txt
simulate/1 plot/0 sim.out
simulate/1 analyze/0 sim.out" "the file edges: who wrote what a later job read (analyze after simulate, unknown to Slurm; plot's head and od, killed by SIGPIPE, read sim.out too)"
is "$(q "SELECT count(*) FROM js.quarantine WHERE job_id IN ($jobs_in)")" "0" "nothing was quarantined"

# jobscreen -w as jsalice: its text with the ids and times out, and the figures measured (CPU,
# memory, elapsed, what each job mostly did: they change from run to run on one Slurm), and the
# edges of --json by job name and step; against the report taken on Debian's Slurm 22.05.8
wf=$(q "SELECT workflow_id FROM js.jobs WHERE job_id = $(id generate)")
cli() { runuser -u jsalice -- env JOBSCREEN_CLI_CONF="$JOBSCREEN_CLI_CONF" "$JS_CLI" -w "$wf" "$@"; }
got=$({ cli | awk '
    /^Workflow / { sub(/^Workflow [0-9]+/, "Workflow W"); print; next }
    /^  (submitted|started|ended) / { print "  " $1; next }
    /^Jobs / { sect = "jobs"; print; next }
    /^Per job and step name/ { sect = "steps"; print; next }
    /^$/ { sect = ""; print; next }
    sect == "jobs" { print "  " $2 " " $3; next }
    sect == "steps" && $1 != "job" { rows[n++] = "  " $1 " " $2 " " $3 " " $4; next }
    { print }
    END { for (i = 0; i < n; i++) print rows[i] | "sort"; close("sort") }' 2>&1
  cli --json | jq -r '(.jobs | map({key: (.[0] | tostring), value: .[1]}) | from_entries) as $n
    | (.edges.scheduler[] | "scheduler \($n[.[0] | tostring]) \($n[.[1] | tostring])"),
      (.edges.file[] | "file \($n[.[0] | tostring])/\(.[2]) \($n[.[1] | tostring])/\(.[3]) \(.[4])")' | sort; } 2>&1)
is "$got" "$(grep -v '^#' "$JS_TOP_SRCDIR/tests/slurm/sample-workflow-22.05.txt")" \
   "jobscreen -w: the workflow's jobs, steps and scheduler and file edges as on Slurm 22.05 (on $JS_SLURM_VERSION)"
# a failure says, last (where CI's excerpt of the log ends), what the database holds of the jobs
# and what the ingest said of them
if [ "$_tap_failed" -gt 0 ]; then
  diag "$(q "SELECT name, job_id, workflow_id, coalesce(workflow_tag, '-'), coalesce(dependency, '-'), final,
                    record->>'source', record->>'written_ns', coalesce(record->>'workflow', '-')
             FROM js_data.jobs WHERE job_id IN ($jobs_in) ORDER BY job_id")"
  diag "$(q "SELECT to_job, ref_job, ref_task, condition FROM js_data.dependency_refs WHERE to_job IN ($jobs_in)")"
  diag "$(grep -hE "job[. ]($(id plot)|$(id archive))\b" "$JS_CLUSTER_DIR"/log/*.log "$JS_CLUSTER_DIR"/log/www/*.log 2>/dev/null |
         tail -n 30)"
fi
done_testing
