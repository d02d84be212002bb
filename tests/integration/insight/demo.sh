#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The demo's verdict (contrib/demo/disturbed, which contrib/demo/run runs after the sample
# workflow): an MPI kernel of jsalice's alone on a node, then again beside two CPU-bound jobs of
# jsbob's on that node for 20 s of its 50, through the cluster's pipeline with nothing run by hand. The
# calm run is green (less than 7.5 % lost), the other red, disturbed by CPU on its node, with
# evidence inside the hog's run; the step endpoint gives jsalice that verdict and evidence (web/browser
# shows the viewer draws an insight's evidence), and jsbob none of jsalice's jobs.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
. "$JS_TOP_SRCDIR/tests/lib/insight.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
[ "${JS_HAVE_MPI:-no}" = yes ] || skip_all "no MPI (the demo's kernel is an MPI program)"
command -v jq >/dev/null || skip_all "jq is not installed"
plan 8
q() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
nodes=($JS_NODES)
w=$JS_CLUSTER_DIR/demo-insight.$$
runs=$("$JS_TOP_SRCDIR/contrib/demo/disturbed" "$w" jsalice jsbob "${nodes[0]}")
ok $? "contrib/demo/disturbed ran its four jobs"
calm=$(awk '$1 == "calm" { print $2 }' <<< "$runs")
dist=$(awk '$1 == "disturbed" { print $2 }' <<< "$runs")
hog=$(awk '$1 == "other" { print $2; exit }' <<< "$runs")
hog2=$(awk '$1 == "other" { h = $2 } END { print h }' <<< "$runs")
is "$(job_state "$calm")|$(job_state "$dist")|$(job_state "$hog")|$(job_state "$hog2")" "COMPLETED|COMPLETED|COMPLETED|COMPLETED" \
  "the calm run, the disturbed run and the two hog jobs completed"
wait_pipeline 90 "$calm" "$dist" "$hog" "$hog2"
ok $? "the four jobs reached the database"
for i in $(seq 300); do
  [ "$(q "SELECT count(*) FROM js_data.insight_pending WHERE job_id IN ($calm, $dist)")|$(q "SELECT count(*) FROM js.step_insights WHERE job_id IN ($calm, $dist) AND step_id = '0'")" = "0|2" ] && break
  sleep 0.2
done
diag "$(q "SELECT job_id, light, disturbed, cause, round(lost_s::numeric, 1), round(lost_pct::numeric, 1), evidence FROM js.step_insights WHERE job_id IN ($calm, $dist) AND step_id = '0' ORDER BY job_id")"
is "$(q "SELECT light || ' ' || (coalesce(lost_pct, 0) < 7.5) FROM js.step_insights WHERE job_id = $calm AND step_id = '0'")" "green true" \
  "the calm run: green, less than 7.5 % of it lost"
is "$(q "SELECT light || ' ' || disturbed || ' ' || cause FROM js.step_insights WHERE job_id = $dist AND step_id = '0'")" "red true cpu" \
  "the run beside jsbob's hog: red, disturbed by others' CPU on its node"
in_time=$(evidence_within "$JS_DB" "$dist" "$hog")
is "$in_time" t "its evidence lies within the hog's run (one slice either side)"

api="${JS_WEB_URL}cgi-bin/jobscreen.cgi"
body=$(curl -s -G -u jsalice:jsalice "$api" --data-urlencode q=step --data-urlencode "job=$dist" --data-urlencode step=0)
is "$(jq -r '.step.insight | [.light, .disturbed, .cause, ((.evidence | length) >= 1)] | map(tostring) | join("|")' <<< "$body")" \
  "red|true|cpu|true" "the step endpoint gives jsalice the verdict and its evidence"
code=$(curl -s -G -o /dev/null -w '%{http_code}' -u jsbob:jsbob "$api" --data-urlencode q=step --data-urlencode "job=$dist" --data-urlencode step=0)
ok "$([ "$code" != 200 ] && echo 0 || echo 1)" "jsbob, whose hog disturbed it, may not see jsalice's step (HTTP $code)"
rm -rf "$w"
done_testing
