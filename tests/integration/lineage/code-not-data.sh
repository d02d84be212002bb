#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lineage that keeps the data files (issue 36, part A, item 2), on real runs through the
# cluster's pipeline, each job on another node:
# - a Python step that imports 1,100 modules of the user's own project (11 packages, not
#   site-packages) and then reads data.in and writes data.out has both file edges: from the job
#   that wrote data.in and to the job that reads data.out; its modules are counted per package
#   directory (software trees), its file list not full, the step complete;
# - one that imports modules from 300 package directories (more trees than the list gives them)
#   still has both data edges; the code it could not count is said (code_dropped, the step's
#   incomplete reason), never a data file dropped.
# (A hard link is still another file for lineage: docs/dependencies.md, "Hard links".)
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
command -v python3 >/dev/null || skip_all "no python3"
[ "$(wc -w <<< "$JS_NODES")" -ge 3 ] || skip_all "needs a cluster of 3 nodes or more"
plan 12
q() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
nodes=($JS_NODES)
w=$(work_dir jsalice)
sb() { (cd "$w" && as_user jsalice sbatch --parsable --chdir="$w" -o /dev/null "$@"); }
edges() { q "SELECT string_agg(from_job || '>' || to_job || ':' || regexp_replace(path, '.*/', ''), ' ' ORDER BY from_job, to_job, path) FROM js.dependencies WHERE kind = 'file' AND (from_job = $1 OR to_job = $1)"; }

# --- a project of 1,100 modules in 11 packages; and one of 300 packages of one module ---
mkdir -p "$w/proj" "$w/wide"
for p in $(seq -w 0 10); do
  mkdir -p "$w/proj/pkg$p" && : > "$w/proj/pkg$p/__init__.py"
  for m in $(seq -w 0 99); do echo "X = $((10#$m))" > "$w/proj/pkg$p/mod$m.py"; done
done
for p in $(seq -w 0 299); do mkdir -p "$w/wide/pkg$p" && echo "X = 1" > "$w/wide/pkg$p/__init__.py"; done
# run.py PROJ: import every package's modules, then data.in -> data.out
cat > "$w/run.py" <<'EOF'
import importlib, os, sys
proj = os.path.abspath(sys.argv[1])
sys.path.insert(0, proj)
n = 0
for pkg in sorted(os.listdir(proj)):
    importlib.import_module(pkg)
    for f in sorted(os.listdir(os.path.join(proj, pkg))):
        if f.endswith(".py") and f != "__init__.py":
            importlib.import_module(pkg + "." + f[:-3])
            n += 1
with open(sys.argv[2]) as i, open(sys.argv[3], "w") as o:
    o.write(i.read().upper())
print(n)
EOF
chown -R jsalice "$w"

run_chain() { # run_chain TAG PROJ: producer, the Python step, consumer; prints their job ids
  local tag=$1 proj=$2 p s c
  p=$(sb -J "$tag-produce" -w "${nodes[0]}" --wrap "srun bash -c 'echo data of $tag > $tag.in'")
  wait_job_done "$p" 60 >/dev/null
  s=$(sb -J "$tag-python" -w "${nodes[1]}" --wrap "srun python3 run.py $proj $tag.in $tag.out")
  wait_job_done "$s" 300 >/dev/null
  c=$(sb -J "$tag-consume" -w "${nodes[2]}" --wrap "srun bash -c 'cat $tag.out > $tag.seen'")
  wait_job_done "$c" 60 >/dev/null
  echo "$p $s $c"
}
read -r p1 s1 c1 <<< "$(run_chain deep proj)"
read -r p2 s2 c2 <<< "$(run_chain wide wide)"

is "$(for j in $p1 $s1 $c1 $p2 $s2 $c2; do job_state "$j"; done | sort -u | paste -sd' ')" COMPLETED "the jobs ran"
is "$(cat "$w/deep.out" "$w/wide.out" 2>/dev/null | paste -sd' ')" "DATA OF DEEP DATA OF WIDE" "the Python steps imported their modules and wrote their data"
wait_pipeline 180 $p1 $s1 $c1 $p2 $s2 $c2
ok $? "the jobs reached the database"

# 1,100 modules: both data edges, the modules counted per package
is "$(edges "$s1")" "$p1>$s1:deep.in $s1>$c1:deep.out" "the 1,100-module Python step has both data edges"
is "$(q "SELECT count(*), sum(opens) >= 1111 FROM js.step_trees WHERE job_id = $s1 AND step_id = '0' AND tree ~ '^$w/proj/pkg[0-9]+$'")" "11|t" \
   "its modules are counted in one tree per package (11), their 1,111 opens"
is "$(q "SELECT files_dropped, incomplete FROM js.steps WHERE job_id = $s1 AND step_id = '0'")" "0|f" \
   "its file list did not overflow: nothing dropped, the step complete"
is "$(q "SELECT count(*) FROM js.file_accesses WHERE job_id = $s1 AND path LIKE '$w/proj/%'")" 0 \
   "no module is listed as a file of its own"
is "$(q "SELECT count(*) FROM js.processes WHERE job_id = $s1 AND exe LIKE '%python%' AND sync_calls IS NOT NULL AND code_dropped = 0")" 1 \
   "its process has the profile format 8 figures, no code left uncounted"

# 300 package directories: the trees run out, the data files keep their room, and it is said
is "$(edges "$s2")" "$p2>$s2:wide.in $s2>$c2:wide.out" "the Python step of 300 packages has both data edges"
code=$(q "SELECT sum(code_dropped) FROM js.processes WHERE job_id = $s2 AND step_id = '0'")
ok "$([ "${code:-0}" -ge 40 ] && echo 0 || echo 1)" "the code the tree list had no room for is counted (${code:-?} opens)"
like "$(q "SELECT incomplete || ' ' || coalesce(incomplete_reason, '') FROM js.steps WHERE job_id = $s2 AND step_id = '0'")" \
   "^true .*code files not counted \(its list of software trees was full\)" "the step says what is missing: code, not data"
is "$(q "SELECT files_dropped FROM js.steps WHERE job_id = $s2 AND step_id = '0'")" 0 "no data file was dropped"

done_testing
