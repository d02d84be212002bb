#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The file reply kept ahead (docs/web.md, "Stored replies"; migration 061): jsalice's job A
# writes a file, her job C reads it in six steps (the test cluster keeps files of 2 accesses and
# more); the ingest stores its file reply as jsalice sees it (params user=jsalice).
# - Stored, current, byte-identical to the reply the CGI computes for jsalice without it.
# - A marker in the stored body is what jsalice gets; the admin gets the reply computed for an
#   admin, never the stored one; jsbob (no job of his accessed it) 404.
# - gzip: the stored gzip bytes as they are; the stored ETag; If-None-Match: 304.
# - Never stale: C renamed, C's step's end moved, and a new access by another job (jsbob's B)
#   each stop the stored reply at once; the keeper stores the real reply again, and jsbob's own
#   form beside jsalice's: jsbob never gets jsalice's.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
api="${JS_WEB_URL}cgi-bin/jobscreen.cgi"
w=$(mktemp -d "$JS_CLUSTER_DIR/tsf.XXXXXX"); chown jsalice "$w"; chmod 755 "$w"
wb=$(mktemp -d "$JS_CLUSTER_DIR/tsfb.XXXXXX"); chown jsbob "$wb"; chmod 700 "$wb"
q() { psql -X -q -At -d "$JS_DB" -c "$1"; }
as() { local u=$1 d=$2; shift 2; (cd "$d" && runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable -N1 -n1 \
  -o /dev/null "$@"); }
get() { curl -s -G -u "$1:$1" "$api" --data-urlencode q=file --data-urlencode "id=$f" "${@:2}"; }
code() { get "$@" -o /dev/null -w '%{http_code}'; }
at_exit "rm -rf '$w' '$wb'"
where() { echo "endpoint = 'file' AND key = $f AND params = 'user=${1:-jsalice}'"; }
real() { q "SELECT count(*) FROM js.stored_replies r WHERE r.$(where "$1") AND r.body NOT LIKE '{\"stored\"%'"; }
wait_real() { for i in $(seq 150); do [ "$(real "$1")" = 1 ] && return 0; sleep 0.2; done; return 1; }
mark() { q "UPDATE js_data.stored_replies SET body = '{\"stored\":true}' || chr(10), body_gz = '' WHERE $(where)"; }
jobs_of() { jq -c '[.file.accesses[] | [.job, .job_name]] | unique' "$1"; }
plan 23

a=$(as jsalice "$w" -J tsf-a --wrap "srun sh -c 'echo 1 > out.1; chmod 644 out.1'")
wait_job_done "$a" 120 >/dev/null
# six steps: six accesses, a reply large enough to be stored gzipped (JSW_GZIP_MIN)
c=$(as jsalice "$w" -J tsf-c --wrap "for i in 1 2 3 4 5 6; do srun sh -c 'cat $w/out.1 > /dev/null'; done")
wait_job_done "$c" 120 >/dev/null
wait_pipeline 120 "$a" "$c"; ok $? "jsalice's job $a wrote a file, her job $c read it; both ingested"
f=$(q "SELECT file_id FROM js_data.files WHERE path = '$w/out.1'")
wait_real; ok $? "the keeper stored file $f's reply for jsalice, current"

stored_vs_computed "$(where)" "$w" get jsalice
ok $? "served as stored, byte-identical to the reply computed without it ($(wc -c < "$w/stored") bytes)"
cp "$w/stored" "$w/real"
is "$(jobs_of "$w/real")" "[[$a,\"tsf-a\"],[$c,\"tsf-c\"]]" "it shows jobs $a and $c"
is "$(q "SELECT count(*) FROM js_data.stored_replies WHERE endpoint = 'file' AND key = $f")" 1 "one form: jsalice's"

cp "$w/real" "$w/stored"
stored_sent_as_is "$(where)" "$w" get jsalice

# the marker proves the store answers, and to whom
mark
is "$(get jsalice)" '{"stored":true}' "jsalice gets the stored body"
is "$(get jsalice --data-urlencode cluster="$(q "SELECT cluster FROM js.jobs WHERE job_id = $a")")" '{"stored":true}' \
  "with its cluster named: the same"
get jsadmin -o "$w/admin"
is "$(jobs_of "$w/admin")" "$(jobs_of "$w/real")" "the admin gets the reply computed, not the stored one"
is "$(code jsbob)" 404 "jsbob (no job of his accessed it): 404 although a stored reply exists"

# never stale: a job it shows renamed
q "UPDATE js_data.jobs SET name = 'tsf-renamed' WHERE job_id = $c"
get jsalice -o "$w/after"
is "$(jobs_of "$w/after")" "[[$a,\"tsf-a\"],[$c,\"tsf-renamed\"]]" "job $c renamed: computed at once, with its new name"
q "UPDATE js_data.jobs SET name = 'tsf-c' WHERE job_id = $c"
wait_real; ok $? "the keeper stored the real reply again"
get jsalice -o "$w/rekept"
cmp -s "$w/rekept" "$w/real"; ok $? "served as stored, the real reply"

# never stale: the span of a step it shows changed (the step's end written)
mark
e0=$(jq -r --argjson c "$c" '[.file.accesses[] | select(.job == $c) | .end] | first' "$w/real")
q "UPDATE js_data.steps SET end_time = end_time + interval '7 s' WHERE job_id = $c AND end_time IS NOT NULL"
get jsalice -o "$w/after"
e1=$(jq -r --argjson c "$c" '[.file.accesses[] | select(.job == $c) | .end] | first' "$w/after")
is "$(awk -v a="$e0" -v b="$e1" 'BEGIN { print b - a }')" 7 "job $c's step ended 7 s later: computed at once, with its new end"
q "UPDATE js_data.steps SET end_time = end_time - interval '7 s' WHERE job_id = $c AND end_time IS NOT NULL"
wait_real; ok $? "the keeper stored the real reply again"

# a step's sums rewritten (the ingest does it for every step-node record) leave its span and its
# files' replies as they were: no file noted (noting them all each time grew with the square of
# a step's nodes)
is "$(psql -X -q -At -d "$JS_DB" -c "BEGIN" \
        -c "CREATE TEMP TABLE n0 AS SELECT coalesce(max(change_id), 0) AS id FROM js_data.reply_file_changes" \
        -c "UPDATE js_data.steps SET cpu_ns = cpu_ns + 1 WHERE job_id = $c" \
        -c "SELECT count(*) FROM js_data.reply_file_changes WHERE file_id = $f AND change_id > (SELECT id FROM n0)" \
        -c "ROLLBACK" | tail -n 1)" 0 "job $c's step sums rewritten: file $f not noted"

# never stale: a new access by another job (jsbob's), in no stored reply of a job
mark
b=$(as jsbob "$wb" -J tsf-b --wrap "srun sh -c 'cat $w/out.1 > /dev/null'")
wait_job_done "$b" 120 >/dev/null
wait_pipeline 120 "$b"; ok $? "jsbob's job $b read the file and was ingested"
get jsalice -o "$w/later"
cmp -s "$w/later" "$w/real"; ok $? "jsalice gets the reply computed at once (the marker is not served), still hers only"
wait_real && wait_real jsbob; ok $? "the keeper stored jsalice's and jsbob's forms"
mark
get jsbob -o "$w/bob"
is "$(jobs_of "$w/bob")" "[[$b,\"tsf-b\"]]" "jsbob gets his own form (his job only), never jsalice's"
stored_vs_computed "$(where jsbob)" "$w" get jsbob
ok $? "jsbob's form: served as stored, byte-identical to his reply computed"

done_testing
