# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the spank/joblog integration tests (spank/, joblog/): source after tap.sh and need_cluster.

# jq-like field access without jq: jget FILE 'r["task_list"][0]["pid"]' (r is the record);
# prints JSON for lists/objects/null/booleans, plain text for strings and numbers;
# J(a, b, ...) shows several values separated by blanks.
jget() {
  python3 - "$1" "$2" <<'PY' 2>/dev/null
import json, sys
def show(v):
    return str(v) if isinstance(v, (str, int)) and not isinstance(v, bool) else json.dumps(v)
def J(*vals):  # several values, space-separated, each shown as above
    return " ".join(show(v) for v in vals)
r = json.load(open(sys.argv[1]))
print(show(eval(sys.argv[2], {"r": r, "len": len, "sorted": sorted, "J": J})))
PY
}

# bundle_json FILE...: bundles (and profiles) as readable JSON, one document each: a bundle of
# version 3's columns as the profiles they hold, "profiles" as in older bundles
# (profile_ingest --dump, docs/profile-format.md)
bundle_json() {
  local f
  for f in "$@"; do "$JS_TOP_BUILDDIR/profile_ingest/profile_ingest" --dump "$f" || return 1; done
}

# as_user USER CMD...: run a Slurm command as a test user on this cluster
as_user() { local u=$1; shift; runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" "$@"; }

# wait_file PATH [SECONDS]: the step record appears when slurmstepd ends, just after srun returns
wait_file() {
  local f=$1 secs=${2:-20} i
  for i in $(seq $((secs * 10))); do [ -e "$f" ] && return 0; sleep 0.1; done
  return 1
}

# work_dir [USER]: a fresh directory under the cluster dir that USER owns
work_dir() {
  local d; d=$(mktemp -d "$JS_CLUSTER_DIR/t4.XXXXXX"); chmod 755 "$d"
  [ -n "${1:-}" ] && chown "$1" "$d"
  echo "$d"
}

# log_mark / log_since: what the nodes' slurmd logs gained since the mark
log_mark() { local f; _log_marks=(); for f in $JS_SLURMD_LOGS; do _log_marks+=("$(stat -c %s "$f" 2>/dev/null || echo 0)"); done; }
log_since() { local f i=0; for f in $JS_SLURMD_LOGS; do tail -c +$((${_log_marks[i]:-0} + 1)) "$f" 2>/dev/null; i=$((i + 1)); done; }

# profiler_on: the cluster's plugstack.conf names a profiler (built before the cluster came up)
js_profiler=$(sed -n 's/.* profiler=\([^ ]*\).*/\1/p' "$JS_PLUGSTACK")
profiler_on() { [ -n "$js_profiler" ] && [ -e "$js_profiler" ]; }

# plugstack_with ARGS...: replace the plugin's arguments (it applies to the next step);
# plugstack_restore puts the test's own back (the cluster's, or private_spool's). Whatever a
# test did, the cluster's plugstack.conf is back when it exits.
js_plugstack_cluster=$(cat "$JS_PLUGSTACK")
js_plugstack_orig=$js_plugstack_cluster
at_exit 'echo "$js_plugstack_cluster" > "$JS_PLUGSTACK"'
plugstack_with() {
  local plugin; plugin=$(awk '{print $2}' <<< "$js_plugstack_orig")
  echo "optional $plugin $*" > "$JS_PLUGSTACK"
}
plugstack_restore() { echo "$js_plugstack_orig" > "$JS_PLUGSTACK"; }

# private_spool: this test's jobs (the steps that start from now on) write into a shared spool
# of the test's own, JS_SPOOL_DIR (docs/spool.md: every node's files in one job directory),
# where no sender or ingest daemon of the cluster's pipeline takes them away while the test
# reads them. The jobs of tests that do not call it go the way of a site: node-local spools,
# jobscreen-send, the receiver, the ingest daemon, JS_DB.
private_spool() {
  JS_SPOOL_DIR=$(mktemp -d "$JS_CLUSTER_DIR/spool.XXXXXX"); chmod 711 "$JS_SPOOL_DIR"
  js_plugstack_orig=$(sed "s| spool=[^ ]*| spool=$JS_SPOOL_DIR|" <<< "$js_plugstack_cluster")
  plugstack_restore
}

# job_dir JOBID: the job's directory in the test's private spool
job_dir() { echo "$JS_SPOOL_DIR/job.$1"; }

# job_nodes JOBID: the nodes Slurm gave the job, one per line; job_node JOBID: the first.
# While a job completes its NodeList holds only the nodes still completing: wait that out (up to
# 60 s: a loaded machine completes slowly).
job_nodes() {
  local i line
  for i in $(seq 600); do
    line=$(scontrol -o show job "$1" 2>/dev/null)
    case $line in *JobState=COMPLETING*|*" NodeList= "*|"") sleep 0.1 ;; *) break ;; esac
  done
  local list; list=$(sed -n 's/.* NodeList=\([^ ]*\).*/\1/p' <<< "$line")
  case $list in ""|"(null)") return 0 ;; esac # not started yet
  scontrol show hostnames "$list"
}
job_node() { job_nodes "$1" | head -n 1; }
