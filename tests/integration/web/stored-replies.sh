#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Replies kept ahead (docs/web.md, "Stored replies"): the ingest stores the graph of a workflow
# of two two-node jobs of jsalice's (the cluster's ingest keeps workflows of 2 jobs and more).
# - After the ingest the stored reply exists, current, and is byte-identical to the reply the
#   CGI computes with the stored row deleted; the CGI serves it (a marker put into the stored
#   body comes back), by id= and by job=, to the owner and the admin; jsbob gets 404 as for
#   any workflow not his, and a cluster filter that excludes it 404 too.
# - gzip (at 3 jobs, the reply above 1 kB): the stored gzip bytes are sent as they are, decoding
#   to the reply; its stored ETag; If-None-Match with it: 304.
# - Never stale: a change to a job of the workflow (a row rewritten) stops the stored reply at
#   once (the marker is no longer served), and the keeper stores it again; a third job makes
#   the reply change (3 jobs) and is stored in turn.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
api="${JS_WEB_URL}cgi-bin/jobscreen.cgi"
w=$(mktemp -d "$JS_CLUSTER_DIR/tsr.XXXXXX"); chown jsalice "$w"; chmod 755 "$w"
q() { psql -X -q -At -d "$JS_DB" -c "$1"; }
get() { curl -s -G -u "$1:$1" "$api" --data-urlencode "q=workflow" "${@:2}"; }
code() { get "$@" -o /dev/null -w '%{http_code}'; }
at_exit "rm -rf '$w'; q 'DROP TABLE IF EXISTS public.stored_replies_saved' >/dev/null 2>&1"
tag=stored$$
submit() { # submit NAME: a two-node job of jsalice's in workflow $tag, 4 steps writing a file a node
  local s="srun sh -c 'dd if=/dev/zero of=$1.\$SLURM_PROCID bs=64k count=8 status=none'"
  (cd "$w" && runuser -u jsalice -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable -N2 -n2 -o /dev/null -J "$1" \
    --workflow="$tag" --wrap "$s; $s; $s; $s")
}
# the workflow's stored reply when current: "jobs etag" of its body, else nothing
current() { q "SELECT (r.body::jsonb -> 'workflow' ->> 'jobs') || ' ' || r.etag FROM js.stored_replies r
               WHERE r.endpoint = 'workflow' AND r.key = $wf"; }
wait_current() { # wait_current JOBS: until the stored reply is current with JOBS jobs
  for i in $(seq 150); do [ "$(current | cut -d' ' -f1)" = "$1" ] && return 0; sleep 0.2; done; return 1
}
plan 20

j1=$(submit sr1); j2=$(submit sr2)
wait_job_done "$j1" 120 >/dev/null; wait_job_done "$j2" 120 >/dev/null
wait_pipeline 120 "$j1" "$j2"; ok $? "two two-node jobs of workflow $tag ran and were ingested"
wf=$(q "SELECT workflow_id FROM js.jobs WHERE job_id = $j1")
wait_current 2; ok $? "the keeper stored workflow $wf's graph, current (2 jobs)"

get jsalice --data-urlencode "id=$wf" -o "$w/served"
body() { q "SELECT body FROM js_data.stored_replies WHERE endpoint = 'workflow' AND key = $wf" | head -c -1; } # psql adds a newline
body > "$w/stored"
cmp -s "$w/served" "$w/stored"; ok $? "the reply is the stored body, byte for byte ($(wc -c < "$w/served") bytes)"
q "CREATE TABLE public.stored_replies_saved AS SELECT * FROM js_data.stored_replies WHERE endpoint = 'workflow' AND key = $wf;
   DELETE FROM js_data.stored_replies WHERE endpoint = 'workflow' AND key = $wf"
get jsalice --data-urlencode "id=$wf" -o "$w/computed"
cmp -s "$w/computed" "$w/stored"; ok $? "without the stored row the CGI computes the same bytes"
q "INSERT INTO js_data.stored_replies SELECT * FROM public.stored_replies_saved"
is "$(current | cut -d' ' -f1)" 2 "stored again as it was"

# the marker proves the store answers; the gzip bytes stay the real reply's
q "UPDATE js_data.stored_replies SET body = '{\"stored\":true}' || chr(10) WHERE endpoint = 'workflow' AND key = $wf"
is "$(get jsalice --data-urlencode "id=$wf")" '{"stored":true}' "by id=: the stored body is served"
is "$(get jsalice --data-urlencode "job=$j2")" '{"stored":true}' "by job=: the same"
is "$(get jsadmin --data-urlencode "id=$wf")" '{"stored":true}' "the admin gets it too"
is "$(code jsbob --data-urlencode "id=$wf")" 404 "jsbob: 404 for the workflow although a stored reply exists"
is "$(code jsbob --data-urlencode "job=$j1")" 404 "jsbob by job=: 404"
is "$(code jsalice --data-urlencode "id=$wf" --data-urlencode cluster=nosuchcluster)" 404 "a cluster filter that excludes it: 404"
like "$(get jsalice --data-urlencode "id=$wf" --data-urlencode by=name | jq -c 'keys')" step_names "by=name is computed, not the stored graph"
# never stale: a rewritten job row notes a change; the marker is gone at once
q "UPDATE js_data.jobs SET name = name WHERE job_id = $j1"
get jsalice --data-urlencode "id=$wf" -o "$w/after"
cmp -s "$w/after" "$w/stored"; ok $? "after a change to a job of the workflow: computed (the stored marker is not served)"
for i in $(seq 150); do [ -n "$(current)" ] && [ "$(q "SELECT body LIKE '{\"stored\"%' FROM js_data.stored_replies
  WHERE endpoint = 'workflow' AND key = $wf")" = f ] && break; sleep 0.2; done
get jsalice --data-urlencode "id=$wf" -o "$w/rekept"
cmp -s "$w/rekept" "$w/stored"; ok $? "the keeper stored it again, the real reply"

j3=$(submit sr3)
wait_job_done "$j3" 120 >/dev/null
wait_pipeline 120 "$j3"
is "$(get jsalice --data-urlencode "id=$wf" | jq '.jobs | length')" 3 "a third job: the reply has 3 jobs as soon as it is ingested"
wait_current 3; ok $? "and is stored again (3 jobs)"
get jsalice --data-urlencode "id=$wf" -o "$w/three"
body > "$w/stored3"
cmp -s "$w/three" "$w/stored3"; ok $? "served as stored, byte for byte"
# gzip: the stored bytes (level 9; the CGI compresses at level 1) sent as they are
curl -s -G -u jsalice:jsalice "$api" --data-urlencode q=workflow --data-urlencode "id=$wf" -H 'Accept-Encoding: gzip' \
  -D "$w/h" -o "$w/gz"
etag=$(q "SELECT etag FROM js_data.stored_replies WHERE endpoint = 'workflow' AND key = $wf")
[ "$(wc -c < "$w/three")" -ge 1024 ] || diag "the reply is below JSW_GZIP_MIN (1024 bytes): not gzipped, the gzip checks fail"
grep -qi '^content-encoding: gzip' "$w/h" && gunzip -c < "$w/gz" | cmp -s - "$w/stored3" &&
  [ "$(od -An -tx1 < "$w/gz" | tr -d ' \n')" = "$(q "SELECT encode(body_gz, 'hex') FROM js_data.stored_replies
                                                      WHERE endpoint = 'workflow' AND key = $wf")" ]
ok $? "gzip: the stored gzip bytes sent as they are, decoding to the reply"
is "$(sed -n 's/^[Ee][Tt]ag: *//p' "$w/h" | tr -d '\r')" "$etag" "its ETag is the stored one"
is "$(code jsalice --data-urlencode "id=$wf" -H "If-None-Match: $etag")" 304 "If-None-Match with it: 304"

done_testing
