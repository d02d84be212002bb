#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A finished step's reply kept ahead (docs/web.md, "Stored replies"; migration 052): the ingest
# stores the replies of step 0 of a two-node job of jsalice's in the viewer's forms (the
# cluster's ingest keeps steps of 1 slice x step-node and more).
# - Both forms (points=1500 and 300 with gpu_series=1) are stored, current, byte-identical to
#   the reply the CGI computes with the stored rows deleted, and served as stored.
# - A marker put into the stored body is what the owner and the admin get (also with cluster=);
#   jsbob gets 404 as for any step not his; node= and another points= are computed.
# - gzip: the stored gzip bytes sent as they are; the stored ETag; If-None-Match: 304.
# - Never stale: a change to a row the reply reads (a process; the step's folded series, a
#   partitioned table; its insight) stops the stored reply at once, and the keeper stores the
#   real reply again.
# - The step's spread at width 1 stored beside them (12 slices of 4 s, two nodes with their
#   processes' least and most): the forms computed (points=10: 2 slices a point; every slice) the
#   same bytes with it and without it (the rows of before it), and they read it (a marker).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
api="${JS_WEB_URL}cgi-bin/jobscreen.cgi"
w=$(mktemp -d "$JS_CLUSTER_DIR/tss.XXXXXX"); chown jsalice "$w"; chmod 755 "$w"
q() { psql -X -q -At -d "$JS_DB" -c "$1"; }
form=points=1500
get() { curl -s -G -u "$1:$1" "$api" --data-urlencode q=step --data-urlencode "job=$job" --data-urlencode step=0 \
          --data-urlencode "$form" --data-urlencode gpu_series=1 "${@:2}"; }
code() { get "$@" -o /dev/null -w '%{http_code}'; }
at_exit "rm -rf '$w'"
key() { echo "step=0&$form&gpu_series=1&rows=1000"; }
where() { echo "endpoint = 'step' AND key = $job AND params = '$(key)'"; }
current() { q "SELECT count(*) FROM js.stored_replies r WHERE r.$(where)"; }
real() { q "SELECT count(*) FROM js.stored_replies r WHERE r.$(where) AND r.body NOT LIKE '{\"stored\"%'"; }
wait_real() { for i in $(seq 150); do [ "$(real)" = 1 ] && return 0; sleep 0.2; done; return 1; }
plan 28

s="srun sh -c 'dd if=/dev/zero of=out.\$SLURM_PROCID bs=64k count=64 status=none; sleep 46'"
job=$(cd "$w" && runuser -u jsalice -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable -N2 -n2 -o /dev/null -J tss \
  --wrap "$s")
wait_job_done "$job" 120 >/dev/null
wait_pipeline 120 "$job"; ok $? "a two-node job $job ran and was ingested"
# its insight (computed a few seconds after the records) changes the reply: waited for
for i in $(seq 300); do [ "$(q "SELECT count(*) FROM js_data.insight_pending WHERE job_id = $job")" = 0 ] && break; sleep 0.2; done
wait_real; ok $? "the keeper stored step 0's reply at 1500 points, current"
is "$(q "SELECT string_agg(params, ' ' ORDER BY params) FROM js.stored_replies WHERE endpoint = 'step' AND key = $job
           AND params LIKE 'step=0&%'")" \
  "step=0&points=1500&gpu_series=1&rows=1000 step=0&points=300&gpu_series=1&rows=1000" "both of the viewer's forms, current"

for form in points=1500 points=300; do
  stored_vs_computed "$(where)" "$w" get jsalice
  ok $? "$form: served as stored, byte-identical to the reply computed without it ($(wc -c < "$w/stored") bytes)"
done
form=points=1500
cp "$w/stored" "$w/real"
[ "$(jq -r '.step.live' "$w/real")" = false ] && [ "$(jq '.step.series.points' "$w/real")" -ge 1 ]
ok $? "the stored reply is of a finished step with its series ($(jq '.step.series.slices' "$w/real") slices)"

# the step's spread at width 1, stored beside the forms; the forms computed read it
first=$(q "SELECT first_slice FROM js.steps WHERE job_id = $job AND step_id = '0'")
slices=$(q "SELECT last_slice - first_slice + 1 FROM js.steps WHERE job_id = $job AND step_id = '0'")
swhere="endpoint = 'step' AND key = $job AND params = 'spread&step=0&first=$first&slices=$slices'"
q "SELECT body FROM js.stored_replies r WHERE r.$swhere" > "$w/spread"
[ "$(jq '.node_names | length' "$w/spread")" = 2 ] && [ "$(jq '[.cpu_ns.max[] | select(. != null)] | length' "$w/spread")" -ge 2 ]
ok $? "the spread of its $slices slices stored beside them, current: 2 nodes, their processes' CPU least and most"
# with the stored spread and without it (the rows of before it): the same bytes
spread_agree() {
  local t=public.spread_saved_$$
  get jsalice -o "$w/with"
  q "CREATE TABLE $t AS SELECT * FROM js_data.stored_replies WHERE $swhere; DELETE FROM js_data.stored_replies WHERE $swhere"
  get jsalice -o "$w/without"
  q "INSERT INTO js_data.stored_replies SELECT * FROM $t; DROP TABLE $t"
  cmp -s "$w/with" "$w/without" && [ "$(jq '.step.series.spread.node_names | length' "$w/without")" = 2 ] &&
    [ "$(jq '.step.series.spread.cpu_ns.max | length' "$w/without")" = "$(jq '.step.series.points' "$w/without")" ]
}
form=points=10 spread_agree
ok $? "points=10 ($(jq '.step.series.slices_per_point' "$w/with") slices a point): computed with the stored spread and without it, the same bytes"
cp "$w/without" "$w/without10"
form=points=100000 spread_agree
ok $? "every slice: the same bytes with the stored spread and without it"
# read indeed: a marker in the stored spread's node names
q "UPDATE js_data.stored_replies SET body = '$(jq -c '.node_names = ["mark1","mark2"]' "$w/spread")' WHERE $swhere"
is "$(form=points=10 get jsalice | jq -c '.step.series.spread.node_names')" '["mark1","mark2"]' "points=10 reads the stored spread"
is "$(form=points=10 code jsbob)" 404 "jsbob: 404 for it as before"
q "UPDATE js_data.stored_replies SET body = '{\"processes\":[1]}' WHERE $swhere"
form=points=10 get jsalice -o "$w/bad"
cmp -s "$w/bad" "$w/without10"; ok $? "a stored spread that does not read: computed"
q "UPDATE js_data.stored_replies SET body = '$(cat "$w/spread")' WHERE $swhere"
is "$(q "SELECT count(*) FROM js.stored_replies r WHERE r.$swhere AND r.body_gz = ''")" 1 "stored without gzip (never sent as it is)"

# gzip: the stored bytes (level 9; the CGI compresses at level 1) sent as they are
cp "$w/real" "$w/stored"
stored_sent_as_is "$(where)" "$w" get jsalice

# the marker proves the store answers
mark() { q "UPDATE js_data.stored_replies SET body = '{\"stored\":true}' || chr(10), body_gz = '' WHERE $(where)"; }
mark
is "$(get jsalice)" '{"stored":true}' "the owner gets the stored body"
is "$(get jsadmin)" '{"stored":true}' "the admin gets it too"
is "$(get jsalice --data-urlencode cluster="$(q "SELECT cluster FROM js.jobs WHERE job_id = $job")")" '{"stored":true}' \
  "with its cluster named: the same"
is "$(code jsbob)" 404 "jsbob: 404 for the step although a stored reply exists"
is "$(code jsalice --data-urlencode cluster=nosuchcluster)" 404 "a cluster filter that excludes it: 404"
node=$(q "SELECT min(node) FROM js.step_nodes WHERE job_id = $job AND step_id = '0'")
is "$(get jsalice --data-urlencode "node=$node" | jq -r '.step.node')" "$node" "node= is computed, not the stored reply"
is "$(form=points=500 get jsalice | jq -r '.step.series.slices_per_point')" 1 "another points= is computed"

# never stale: each change to a row the step reply reads stops the marker at once
stale() { # stale WHAT SQL: once stored again, marked; after SQL, the computed reply (not the marker)
  wait_real && mark
  q "$2"
  get jsalice -o "$w/after"
  cmp -s "$w/after" "$w/real"; ok $? "after a change to $1: computed at once (the marker is not served)"
}
stale "a process of the step" "UPDATE js_data.processes SET pid = pid WHERE job_id = $job AND step_id = '0'"
stale "its folded series (partitioned)" "UPDATE js_data.series_step SET slices = slices WHERE job_id = $job AND step_id = '0'"
stale "the job" "UPDATE js_data.jobs SET name = name WHERE job_id = $job"
wait_real; ok $? "the keeper stored the real reply again"
get jsalice -o "$w/rekept"
cmp -s "$w/rekept" "$w/real"; ok $? "served as stored, the real reply"

done_testing
