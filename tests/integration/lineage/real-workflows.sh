#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lineage on real workflows (issue 14), run for real and brought into JS_DB by the cluster's
# pipeline, read back through js.* and the API:
# - a Python step that imports 500 modules and then reads and writes data files lists its data
#   files (the modules count per software tree) and links to the job that reads its output;
#   a step that opens more files than its list holds says how many it could not list;
# - a small engine-style workflow (the next job submitted when the last one ended, no
#   --dependency) run three times in one directory: each run links to itself only;
# - write-then-rename (a shell's mv) and reading through a symlinked directory keep the edge;
# - time edges only where docs/dependencies.md says: a job submitted by the same command after
#   the last one ended gets one; one submitted before it ended, or by another command, none.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline (transport/ or profile_ingest not built)"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
command -v python3 >/dev/null || skip_all "no python3"
plan 20
q() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
w=$(work_dir jsalice)
# sub DIR sbatch-args...: submit as a command of its own (a process group of its own, as a
# user's sbatch at a prompt); run: submit and wait for the job's end. Both print the job id.
sub() { (cd "$1" && shift && setsid runuser -u jsalice -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable -o /dev/null "$@"); }
run() { local j; j=$(sub "$@") && wait_job_done "$j" 120 >/dev/null && echo "$j"; }
# engine DIR SCRIPT: SCRIPT run by bash as jsalice in DIR as one command (one process group),
# as a workflow engine's run: it submits with sb NAME ARGS... (prints the id) and waits with
# wt JOBID; what it prints comes back
engine() {
  (cd "$1" && setsid runuser -u jsalice -- env SLURM_CONF="$SLURM_CONF" bash -c '
    sb() { local n=$1; shift; sbatch --parsable -o /dev/null -J "$n" "$@"; }
    wt() { while squeue -h -j "$1" 2>/dev/null | grep -q .; do sleep 0.2; done; }
    '"$2")
}
mkd() { as_user jsalice mkdir -p "$@"; }

# --- Python: 500 module imports, then its data files ---
py=$w/py; mkd "$py/pkgs/site-packages/mods"
as_user jsalice python3 - "$py/pkgs/site-packages/mods" <<'PY'
import sys, os
for i in range(500):
    open(os.path.join(sys.argv[1], "m%d.py" % i), "w").write("X = %d\n" % i)
open(os.path.join(sys.argv[1], "__init__.py"), "w").write("")
PY
as_user jsalice sh -c "head -c 100000 /dev/zero > '$py/input.dat'"
cat > "$py/rule.py" <<'PY'
import importlib, sys
sys.path.insert(0, "pkgs/site-packages")
for i in range(500):
    importlib.import_module("mods.m%d" % i)
data = open("input.dat", "rb").read()
with open("output.dat", "wb") as f:
    f.write(data[:4096])
PY
chmod 644 "$py/rule.py"
pyjob=$(run "$py" -J pyrule --wrap "srun python3 rule.py")
rdjob=$(run "$py" -J pyread --wrap "srun cat output.dat")
wide=$w/wide; mkd "$wide/d"
widejob=$(run "$wide" -J wide --wrap "srun bash -c 'for i in \$(seq 1100); do : > d/f\$i; done'")
wait_pipeline 90 "$pyjob" "$rdjob" "$widejob"
ok $? "the Python jobs and the 1100-file job reached JS_DB"
is "$(q "SELECT string_agg(replace(path, '$py/', '') || ':' || mode, ' ' ORDER BY path) FROM js.file_accesses
         WHERE job_id = $pyjob AND step_id = '0' AND path LIKE '$py/%' AND path NOT LIKE '$py/pkgs/%'")" \
   "input.dat:r output.dat:w" "the Python step lists its data files (its script rule.py is code, counted in its directory's tree), none dropped for the imports"
is "$(q "SELECT (opens >= 500)::text || ' ' || processes FROM js.step_trees WHERE job_id = $pyjob AND step_id = '0' AND tree = '$py/pkgs/site-packages'")" \
   "true 1" "its 500 module imports count together under their site-packages tree"
is "$(q "SELECT files_dropped || ' ' || incomplete FROM js.steps WHERE job_id = $pyjob AND step_id = '0'")" "0 false" \
   "nothing dropped, the step complete"
is "$(q "SELECT from_job || '>' || to_job FROM js.dependencies WHERE kind = 'file' AND to_job = $rdjob AND path = '$py/output.dat'")" \
   "$pyjob>$rdjob" "the file edge from the Python step to the job that read its output"
got=$(q "SELECT files_dropped > 0 AND incomplete AND incomplete_reason LIKE '%files not listed (its file list was full)%' FROM js.steps WHERE job_id = $widejob AND step_id = '0'")
is "$got" t "a step that opened 1100 files: the files it could not list are counted and the step says so"
api() { curl -s -G -u jsalice:jsalice "${JS_WEB_URL}cgi-bin/jobscreen.cgi" --data-urlencode q=step --data-urlencode "job=$1" --data-urlencode step=0; }
is "$(api "$pyjob" | jq -r --arg t "$py/pkgs/site-packages" '[.step.files_dropped, ([.step.software[] | select(.tree == $t) | .opens >= 500] | first)] | map(tostring) | join("|")')|$(api "$widejob" | jq -r '.step.files_dropped > 0')" \
   "0|true|true" "the step API shows the software trees and the files not listed"

# --- an engine-style workflow run three times in one directory ---
wf=$w/rerun; mkd "$wf"
runs=()
for r in 1 2 3; do # the next job submitted when the last one ended, as an engine does
  runs+=("$(engine "$wf" "g=\$(sb gen --wrap \"srun sh -c 'echo run$r > data.txt'\"); wt \$g
    u=\$(sb use --wrap \"srun sh -c 'cat data.txt > result.txt'\"); wt \$u; echo \$g:\$u")")
done
ids=$(printf '%s\n' "${runs[@]}" | tr ':' ' ' | tr '\n' ' ')
wait_pipeline 120 $ids
ok $? "three runs of gen → use reached JS_DB"
in=$(echo $ids | tr ' ' ',')
want=$(for p in "${runs[@]}"; do echo "${p%%:*}>${p##*:}"; done | sort | tr '\n' ' ')
is "$(q "SELECT from_job || '>' || to_job FROM js.dependencies WHERE kind = 'file' AND from_job IN ($in) AND to_job IN ($in) ORDER BY 1" | sort | tr '\n' ' ')" \
   "$want" "file edges: each run's use reads its own run's data.txt, none across runs"
is "$(q "SELECT count(DISTINCT workflow_id) FROM js.jobs WHERE job_id IN ($in)")|$(for p in "${runs[@]}"; do q "SELECT count(DISTINCT workflow_id) FROM js.jobs WHERE job_id IN (${p%%:*}, ${p##*:})"; done | sort -u)" \
   "3|1" "three workflows, one per run"

# --- write-then-rename, and reading through a symlinked directory ---
rn=$w/rename; mkd "$rn/data"
as_user jsalice ln -s data "$rn/staged"
wr=$(run "$rn" -J writer --wrap "srun sh -c 'echo result > data/out.tmp && mv data/out.tmp data/out'")
rd=$(run "$rn" -J reader --wrap "srun cat staged/out")
wait_pipeline 90 "$wr" "$rd"
ok $? "the renaming job and the reader reached JS_DB"
is "$(q "SELECT from_job || '>' || to_job || ' ' || replace(path, '$rn/', '') FROM js.dependencies WHERE kind = 'file' AND to_job = $rd")" \
   "$wr>$rd data/out" "written as out.tmp, renamed by mv to out, read through the link staged/: one file edge over data/out"
is "$(q "SELECT string_agg(mode || ':' || interfaces, ' ') FROM js.file_accesses WHERE job_id = $wr AND step_id = '0' AND path = '$rn/data/out'")" \
   "w:rename" "the renaming step is data/out's writer"
is "$(q "SELECT ino FROM js.file_accesses WHERE job_id = $rd AND step_id = '0' AND path = '$rn/data/out'")" "$(stat -c %i "$rn/data/out")" \
   "the reader's access keeps the file's inode beside its path"

# --- time edges only where the rule says ---
te=$w/time; mkd "$te"
# one engine: early (submitted before a ended, starting after it), a, then b once a ended;
# c: submitted after a ended too, in the same directory, by another command
read -r early a b <<< "$(engine "$te" 'e=$(sb early --begin=now+8 --wrap "srun true"); a=$(sb a --wrap "srun sleep 2"); wt $a
  b=$(sb b --wrap "srun true"); wt $b; echo $e $a $b')"
c=$(run "$te" -J c --wrap "srun true")
wait_job_done "$early" 120 >/dev/null
wait_pipeline 90 "$a" "$b" "$c" "$early"
ok $? "the time-edge jobs reached JS_DB"
is "$(q "SELECT from_job || '>' || to_job FROM js.dependencies WHERE kind = 'time' AND to_job IN ($b, $c, $early) ORDER BY 1")" \
   "$a>$b" "a time edge a → b (submitted by the same command after a ended), none to the job submitted before a ended, none to another command's"
is "$(q "SELECT count(*) FROM js.dependencies WHERE kind = 'time' AND to_time < from_time")" 0 "no time edge goes back in time"
# through the API: jsalice's workflow of b shows the time edge
code=$(curl -s -G -o "$w/wf.json" -w '%{http_code}' -u jsalice:jsalice "${JS_WEB_URL}cgi-bin/jobscreen.cgi" \
  --data-urlencode q=workflow --data-urlencode "job=$b")
is "$code|$(jq -r "[.edges.time[] | \"\(.[0])>\(.[1])\"] | join(\" \")" "$w/wf.json")" "200|$a>$b" \
   "the API's workflow of b (untagged) carries the time edge"
# every workflow's kept summary (sql/027_workflow_summary.sql) against its jobs, after the
# merges of all the runs above
is "$(q "SELECT count(*) > 5 AND bool_and(row(w.jobs, w.jobs_not_ok, w.first_submit, w.first_start, w.last_end)
           IS NOT DISTINCT FROM (SELECT row(count(j.job_id)::integer, (count(*) FILTER (WHERE j.state NOT IN ('COMPLETED', 'RUNNING')))::integer,
                                            min(j.submit_time), min(j.start_time), max(j.end_time))
                                 FROM js.jobs j WHERE j.cluster_id = w.cluster_id AND j.workflow_id = w.workflow_id))
         FROM js.workflows w")" t "every workflow's kept summary (jobs, jobs not ok, first submit and start, last end) is its jobs'"
is "$(steps_sums_differ "$JS_DB")|$(job_totals_differ "$JS_DB")" "0|0" "every step's sums kept by the ingest are its processes' (sql/030_step_sums.sql), every job's totals its steps' (053)"
done_testing
