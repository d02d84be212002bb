#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The insight of a step (sql/037_insight.sql) through the JSON API, on the real runs of web/api-real-runs: the
# test clears what the ingest computed and writes known insight and advice rows itself
# (tests/lib/insight.sh; test insight/verdicts checks the analysis) for jsalice's simulate (step 0 red: disturbed, with evidence, the MPI
# interference estimate, I/O period, write pattern, three advice codes, one of them an XSS
# payload; step 1 grey) and jsbob's job (green). Proves: the step endpoint carries them as the
# views hold them, advice the most severe first; a step without is "insight": null; the job,
# the job and workflow lists roll them up (the worst light, the time lost); job&insight=yes
# gives each step its whole insight; jsalice never sees jsbob's and jsbob never jsalice's, by
# any endpoint; an admin sees both. web/browser opens the same steps in the browser.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/insight.sh"
state=$JS_CLUSTER_DIR/web-e2e.env
[ -s "$state" ] || skip_all "web/api-real-runs.sh did not run (no real-run data)"
. "$state"
command -v jq >/dev/null || skip_all "jq is not installed"
api="${JS_WEB_URL}cgi-bin/jobscreen.cgi"
plan 16
sql() { psql -X -q -At -F'|' -d "$JS_DB" -c "$1"; }
get() { local u=$1; shift; code=$(curl -s -G -o "$JS_CLUSTER_DIR/insight.json" -w '%{http_code}' -u "$u:$u" "$api" "$@"); body=$(cat "$JS_CLUSTER_DIR/insight.json"); }

xss='<img src=x onerror=alert(3)> writes of 512 B'
clear_insight "$JS_DB" && put_insight "$JS_DB" "$sim" 0 red "$xss" && put_insight "$JS_DB" "$sim" 1 grey && put_insight "$JS_DB" "$sim" batch bysruns &&
  put_insight "$JS_DB" "$bob" 0 green 'bobsecret advice'
ok $? "insight rows for simulate's steps 0 (red) and 1 (grey), its batch step (no verdict: it waits for them), and for jsbob's step (green)"
echo "insight=$sim:0" >> "$state"

get jsalice --data-urlencode q=step --data-urlencode "job=$sim" --data-urlencode step=0
want=$(psql -X -q -At -d "$JS_DB" -c "SELECT to_jsonb(i) - ARRAY['cluster', 'cluster_id', 'job_id', 'step_id', 'user_name', 'computed_at']
  FROM js.step_insights i WHERE job_id = $sim AND step_id = '0'" | jq -S -c .)
is "$(jq -S -c '.step.insight | del(.computed_at)' <<< "$body")" "$want" "step: its insight, every column of js.step_insights"
is "$(jq -r '.step.insight | [.light, .disturbed, .cause, .lost_s, (.evidence | length), .evidence[0].background, .interference_class, .io_period_s, .write_pattern] | map(tostring) | join("|")' <<< "$body")" \
   "red|true|io|12.3|2|io|medium|60|write-seek" "step: red, disturbed by I/O, lost 12.3 s, two stretches, medium interference, I/O every 60 s, write-seek"
is "$(jq -r '[.step.advice[] | "\(.severity):\(.code)"] | join(" ")' <<< "$body")" "high:DISTURBED warning:SMALL_WRITES info:IO_DOMINATED" \
   "step: its advice, the most severe first"
is "$(jq -r '.step.advice[1] | "\(.message)|\(.figures.avg_write_bytes)"' <<< "$body")" "$xss|512" "an advice's message and figures come back intact as JSON strings"
ok "$(grep -q '<\\/' "$JS_CLUSTER_DIR/insight.json" || ! grep -q '</' "$JS_CLUSTER_DIR/insight.json"; echo $?)" "'</' is escaped in the reply"
get jsalice --data-urlencode q=step --data-urlencode "job=$ana" --data-urlencode step=0
is "$code|$(jq -c '[.step.insight, .step.advice]' <<< "$body")" "200|[null,[]]" "a step without insight: \"insight\": null, \"advice\": []"

get jsalice --data-urlencode q=job --data-urlencode "id=$sim"
is "$(jq -r '.job | [.light, .lost_s, .disturbed_steps, .cause] + [.steps[] | select(.step != "extern") | "\(.step)=\(.light)/\(.judged_by_sruns)"] | map(tostring) | join("|")' <<< "$body" | tr '|' '\n' | sort | tr '\n' ' ')" \
   "$(printf '%s\n' red 12.3 1 io 0=red/false 1=grey/false batch=grey/true | sort | tr '\n' ' ')" \
   "job: the worst light of its steps, the time they lost, the disturbed steps and the cause; each step's light, the batch step's judged by its sruns"
get jsalice --data-urlencode q=job --data-urlencode "id=$sim" --data-urlencode insight=yes
is "$(jq -r '[.job.steps[] | select(.step != "extern") | "\(.step)=\(.insight.light // "none"):\(.advice | length)"] | sort | join(" ")' <<< "$body")" \
   "0=red:3 1=grey:0 batch=grey:0" "job&insight=yes: each step's whole insight and advice"
get jsalice --data-urlencode q=job --data-urlencode "id=$sim" --data-urlencode insight=maybe
is "$code" 400 "job&insight=maybe: 400"
get jsalice --data-urlencode q=jobs --data-urlencode limit=1000
is "$(jq -r --argjson s "$sim" --argjson a "$ana" '[.jobs[] | select(.id == $s or .id == $a) | "\(.id)=\(.light):\(.lost_s)"] | sort | join(" ")' <<< "$body")" \
   "$(printf '%s\n' "$sim=red:12.3" "$ana=null:null" | sort | tr '\n' ' ' | sed 's/ $//')" "jobs: the light and time lost of each job (null: none computed)"
get jsalice --data-urlencode q=workflows --data-urlencode limit=1000
is "$(jq -r --argjson w "$wf" '.workflows[] | select(.id == $w) | "\(.light):\(.lost_s)"' <<< "$body")" "red:12.3" "workflows: the workflow's worst light and time lost"

# --- access: each user sees only their own ---------------------------------------------------
leak=0
for spec in "q=step&job=$bob&step=0" "q=job&id=$bob&insight=yes" "q=jobs&limit=1000" "q=workflows&limit=1000"; do
  get jsalice --data-urlencode "${spec%%&*}" $(tr '&' '\n' <<< "${spec#*&}" | sed 's/^/--data-urlencode /')
  grep -q -e bobsecret -e green <<< "$body" && { leak=1; diag "jsalice: $spec: $body"; }
done
is "$leak" 0 "jsalice sees nothing of jsbob's insight (his step and job 404, his light in no list)"
get jsbob --data-urlencode q=step --data-urlencode "job=$sim" --data-urlencode step=0
a=$code
get jsbob --data-urlencode q=jobs --data-urlencode limit=1000
is "$a|$(grep -c -e DISTURBED -e '"red"' <<< "$body")|$(jq -r --argjson b "$bob" '.jobs[] | select(.id == $b) | .light' <<< "$body")" "404|0|green" \
   "jsbob: jsalice's step is a 404, no red in his list, his own job green"
get jsadmin --data-urlencode q=step --data-urlencode "job=$bob" --data-urlencode step=0
b=$(jq -r '"\(.step.insight.light) \(.step.advice[0].message)"' <<< "$body")
get jsadmin --data-urlencode q=step --data-urlencode "job=$sim" --data-urlencode step=0
is "$b|$(jq -r '.step.insight.light' <<< "$body")" "green bobsecret advice|red" "an admin sees both users' insight"
is "$(sql "SELECT count(*) FROM js.step_insights WHERE job_id IN ($sim, $bob)")" 4 "the rows stay for the browser test (web/browser)"
done_testing
