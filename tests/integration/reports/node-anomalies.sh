#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# node-anomalies: a node on which the same step computes consistently longer than on its peers
# is reported; a balanced step and a node slow only once are not; a node on which the
# single-node steps of one application compute longer than on the other nodes is reported too.  The test cluster has one
# node, so the steps come from the spool generator (bench/gen/jsgen --uniform: records and
# profiles owned as the plugin and the profiler own them) and go through the real profile_ingest:
# jobs 900-903 one step of solver on na1-na3, na3's processes computing twice as long as the
# others'; 904 balanced; 905 na2 1.5 times slower, once only; 910-921 single-node steps of sim,
# four on each of nb1-nb3 in turn, those on nb3 computing 1.8 times as long.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
[ -x "$INGEST" ] || bail "no $INGEST (build first)"
plan 11
work=$(mktemp -d "$JS_CLUSTER_DIR/reports74.XXXXXX"); spool=$work/spool
mkdir "$spool"; chmod 711 "$spool"
steps() { # steps FIRST JOBS OPTION...: uniform jobs of jsalice's, each process computing 1 s a slice for 10 slices
  local first=$1 jobs=$2; shift 2
  "$JS_TOP_BUILDDIR/bench/gen/jsgen" --uniform --out "$spool" --job-id-base "$first" --jobs "$jobs" --slices 10 --cpu-ns 1000000000 \
    --uid "$(id -u jsalice)" --gid "$(id -g jsalice)" --user jsalice --cluster anomaly "$@" >/dev/null
}
steps 900 4 --nodes 3 --node-prefix na --exe /usr/bin/solver --slow na3=2
steps 904 1 --nodes 3 --node-prefix na --exe /usr/bin/solver
steps 905 1 --nodes 3 --node-prefix na --exe /usr/bin/solver --slow na2=1.5
steps 910 12 --nodes 3 --node-prefix nb --spread --exe /usr/bin/sim --slow nb3=1.8
export DB=js_reports74
dropdb --if-exists "$DB" 2>/dev/null; createdb "$DB"
ingest_spool "$spool" "$DB"
ok $? "profile_ingest loads six three-node steps and twelve single-node steps"
is "$(q "SELECT count(*) FROM js.step_nodes")" 30 "30 step records (6 steps x 3 nodes + 12)"
is "$(q "SELECT count(*) FROM js.quarantine")" 0 "nothing quarantined"

out=$(report node-anomalies)
diag "$out"
nodes=$(echo "$out" | section 'anomalous nodes' | field 1 | tr '\n' ' ')
is "$nodes" "na3 " "na3, slow in four of its six steps, is the one anomalous node"
is "$(echo "$out" | section 'anomalous nodes' | rows_with 1 na3 | cut -d'|' -f2-5)" "6|4|0.67|2.00" \
  "na3: 6 multi-node steps, 4 slow, fraction 0.67, median ratio 2.00"
is "$(echo "$out" | section 'slow (step, node)' | rows_with 5 na3 | field 1 | tr '\n' ' ')" "900 901 902 903 " \
  "its slow steps are those of jobs 900-903 (not the balanced 904)"
is "$(echo "$out" | section 'slow (step, node)' | rows_with 5 na2 | cut -d'|' -f1,7)" "905|1.50" \
  "na2 was slow once (job 905, ratio 1.50) and is listed as a slow pair only"
is "$(report node-anomalies -v min_steps=1 | section 'anomalous nodes' | field 1 | tr '\n' ' ')" "na3 " \
  "even with min_steps=1 na2 is not anomalous: slow in one of six steps is not consistently slow"
single=$(echo "$out" | section 'nodes slower for the same application')
is "$(echo "$single" | cut -d'|' -f1-5,8)" "nb3|jsalice|sim|4|8|1.80" \
  "single-node steps: sim on nb3 (4 steps) computes 1.80 times as long as on the other nodes (8 steps)"
is "$(echo "$single" | awk -F'|' '$1 ~ /^na/' | wc -l)" 0 "the multi-node steps are not compared there"
is "$(report node-anomalies -v min_steps=5 | section 'nodes slower for the same application' | wc -l)" 0 \
  "with min_steps=5 four steps on nb3 are too few"
dropdb "$DB"
done_testing
