#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The job reply kept ahead (docs/web.md, "Stored replies"; migration 055): jsalice's job A
# writes three files; jsbob's job B and jsalice's job C read one (file edges out of A, one to
# another user's job); the ingest stores A's job reply as jsalice sees it (the test cluster
# keeps jobs of 2 file accesses and edges and more).
# - Stored, current, byte-identical to the reply the CGI computes for jsalice without it; it
#   shows the edge to C and not the edge to jsbob's B.
# - A marker in the stored body is what jsalice gets; the admin gets the reply computed for an
#   admin (with the edge to B), never the stored one; jsbob 404; insight=yes is computed.
# - gzip: the stored gzip bytes as they are; the stored ETag; If-None-Match: 304.
# - Never stale: C's state changed (the other end of an edge) and a new later reader D of A's
#   file stop the stored reply at once; the keeper stores the real reply again.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
api="${JS_WEB_URL}cgi-bin/jobscreen.cgi"
w=$(mktemp -d "$JS_CLUSTER_DIR/tsj.XXXXXX"); chown jsalice "$w"; chmod 755 "$w"
wb=$(mktemp -d "$JS_CLUSTER_DIR/tsjb.XXXXXX"); chown jsbob "$wb"; chmod 700 "$wb"
q() { psql -X -q -At -d "$JS_DB" -c "$1"; }
as() { local u=$1 d=$2; shift 2; (cd "$d" && runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable -N1 -n1 \
  -o /dev/null "$@"); }
get() { curl -s -G -u "$1:$1" "$api" --data-urlencode q=job --data-urlencode "id=$a" "${@:2}"; }
code() { get "$@" -o /dev/null -w '%{http_code}'; }
at_exit "rm -rf '$w' '$wb'"
where() { echo "endpoint = 'job' AND key = $a AND params = ''"; }
real() { q "SELECT count(*) FROM js.stored_replies r WHERE r.$(where) AND r.body NOT LIKE '{\"stored\"%'"; }
wait_real() { for i in $(seq 150); do [ "$(real)" = 1 ] && return 0; sleep 0.2; done; return 1; }
mark() { q "UPDATE js_data.stored_replies SET body = '{\"stored\":true}' || chr(10), body_gz = '' WHERE $(where)"; }
edge() { jq -r --arg j "$2" '[.job.edges[] | select(.job == ($j | tonumber)) | .state] | first // "none"' "$1"; }
plan 19

a=$(as jsalice "$w" -J tsj-a --wrap "srun sh -c 'for i in 1 2 3; do echo \$i > out.\$i; done'")
wait_job_done "$a" 120 >/dev/null
wait_pipeline 120 "$a"; ok $? "jsalice's job $a wrote three files and was ingested"
b=$(as jsbob "$wb" -J tsj-b --wrap "srun sh -c 'cat $w/out.1 > /dev/null'")
c=$(as jsalice "$w" -J tsj-c --wrap "srun sh -c 'cat $w/out.1 $w/out.2 > /dev/null'")
wait_job_done "$b" 120 >/dev/null; wait_job_done "$c" 120 >/dev/null
wait_pipeline 120 "$b" "$c"; ok $? "jsbob's job $b and jsalice's job $c read them and were ingested"
for i in $(seq 300); do [ "$(q "SELECT count(*) FROM js_data.insight_pending WHERE job_id IN ($a, $c)")" = 0 ] && break; sleep 0.2; done
wait_real; ok $? "the keeper stored job $a's reply, current"

stored_vs_computed "$(where)" "$w" get jsalice
ok $? "served as stored, byte-identical to the reply computed without it ($(wc -c < "$w/stored") bytes)"
cp "$w/stored" "$w/real"
is "$(edge "$w/real" "$c") $(edge "$w/real" "$b")" "COMPLETED none" "it shows the edge to $c, not to jsbob's $b"
get jsadmin -o "$w/admin"
is "$(edge "$w/admin" "$b")" COMPLETED "the admin's computed reply shows the edge to jsbob's job"

# gzip: the stored bytes (level 9; the CGI compresses at level 1) sent as they are
cp "$w/real" "$w/stored"
stored_sent_as_is "$(where)" "$w" get jsalice

# the marker proves the store answers, and to whom
mark
is "$(get jsalice)" '{"stored":true}' "the owner gets the stored body"
is "$(get jsalice --data-urlencode cluster="$(q "SELECT cluster FROM js.jobs WHERE job_id = $a")")" '{"stored":true}' \
  "with its cluster named: the same"
get jsadmin -o "$w/admin2"
cmp -s "$w/admin2" "$w/admin"; ok $? "the admin gets the admin's reply computed, not the stored one"
is "$(code jsbob)" 404 "jsbob: 404 for the job although a stored reply exists"
is "$(get jsalice --data-urlencode insight=yes | jq -r '.job.id')" "$a" "insight=yes is computed"

# never stale: the other end of an edge changed
wait_real && mark
q "UPDATE js_data.jobs SET state = 'TIMEOUT' WHERE job_id = $c"
get jsalice -o "$w/after"
is "$(edge "$w/after" "$c")" TIMEOUT "job $c's state changed: computed at once, with its new state"
q "UPDATE js_data.jobs SET state = 'COMPLETED' WHERE job_id = $c"
wait_real; ok $? "the keeper stored the real reply again"
get jsalice -o "$w/rekept"
cmp -s "$w/rekept" "$w/real"; ok $? "served as stored, the real reply"

# never stale: a later reader of A's file adds an edge out of A
mark
d=$(as jsalice "$w" -J tsj-d --wrap "srun sh -c 'cat $w/out.3 > /dev/null'")
wait_job_done "$d" 120 >/dev/null
wait_pipeline 120 "$d"; ok $? "a later reader $d of $a's file ran and was ingested"
get jsalice -o "$w/later"
is "$(edge "$w/later" "$d")" COMPLETED "the new edge to $d is in the reply at once (the marker is not served)"

done_testing
