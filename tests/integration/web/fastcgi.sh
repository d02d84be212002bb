#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# jobscreen.cgi as a FastCGI responder: the test cluster's lighttpd serves it so at
# /cgi-bin/jobscreen.cgi (JS_WEB_FCGI_PROCS processes) and as a plain CGI at /cgi-plain/.
# - A process keeps one database connection across requests (its backend stays in
#   pg_stat_activity after the requests, the same one), where a plain CGI leaves none.
# - Nothing of a request reaches the next on the same process: one process (spawn-fcgi) gets
#   jsalice, no user at all, jsbob, the admin and jsalice again in turn and answers each as
#   itself (401, 404 for another's job, admin flag not kept); a killed backend is reconnected;
#   a changed configuration is read again.
# - gzip: a client that accepts it gets Content-Encoding: gzip for larger replies, decoding
#   to the same JSON; a small reply or a client without gzip gets it plain (both modes).
# - ETag: a reply's tag is that of its JSON; If-None-Match with it gives 304 and no body; an
#   error never (both modes).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
cgi=$JS_TOP_BUILDDIR/web/jobscreen.cgi
[ -x "$cgi" ] || skip_all "web/jobscreen.cgi not built"
[ "${JS_WEB_MODE:-}" = fastcgi ] || skip_all "the cluster serves jobscreen.cgi as a plain CGI (built without libfcgi?)"
api="${JS_WEB_URL}cgi-bin/jobscreen.cgi"
plain=${JS_WEB_PLAIN_CGI_URL:-${JS_WEB_URL}cgi-plain/jobscreen.cgi}
w=$(mktemp -d "$JS_CLUSTER_DIR/t67.XXXXXX")
at_exit "rm -rf '$w'"
q() { psql -X -q -At -d "$JS_DB" -c "$1"; }
get() { curl -s -G -u "$1:$1" "$2" --data-urlencode "q=$3" "${@:4}"; }
backends() { # the CGI's backends over TCP (lighttpd's FastCGI processes): pid/start
  q "SELECT pid || '/' || backend_start FROM pg_stat_activity
      WHERE application_name = 'jobscreen.cgi' AND client_addr IS NOT NULL ORDER BY 1"
}
fcgi_pids() { # the FastCGI processes lighttpd spawned
  ps -o pid= --ppid "$(cat "$JS_CLUSTER_DIR/www/lighttpd.pid")" | tr -d ' ' | while read -r p; do
    [ "$(readlink "/proc/$p/exe")" = "$(readlink -f "$cgi")" ] && echo "$p"; done | sort | paste -sd' '
}
plan 33

# --- through lighttpd --------------------------------------------------------------------
procs0=$(fcgi_pids)
is "$(wc -w <<< "$procs0")" "${JS_WEB_FCGI_PROCS:-4}" "lighttpd runs ${JS_WEB_FCGI_PROCS:-4} FastCGI processes of jobscreen.cgi"
bad=0
for i in $(seq 20); do
  for u in jsalice jsbob; do
    [ "$(get $u "$api" jobs --data-urlencode limit=5 -o /dev/null -w '%{http_code}')" = 200 ] || bad=$((bad + 1))
  done
done
is "$bad" 0 "40 job lists through FastCGI: all 200"
b1=$(backends)
n1=$(wc -l <<< "${b1:-}"); [ -n "$b1" ] || n1=0
[ "$n1" -ge 1 ] && [ "$n1" -le "${JS_WEB_FCGI_PROCS:-4}" ]
ok $? "after the requests, $n1 connection(s) stay open (at most one per process): kept, not per request"
for i in $(seq 20); do get jsalice "$api" jobs --data-urlencode limit=5 -o /dev/null; done
b2=$(backends)
missing=$(comm -23 <(echo "$b1") <(echo "$b2"))
is "$missing" "" "20 requests later the same backends (pid and start) are still there: connections reused"
[ "$(wc -l <<< "$b2")" -le "${JS_WEB_FCGI_PROCS:-4}" ]
ok $? "still no more connections than processes"
is "$(fcgi_pids)" "$procs0" "the same FastCGI processes answered every request"
for i in $(seq 5); do get jsalice "$plain" jobs --data-urlencode limit=5 -o /dev/null; done
sleep 0.5
is "$(backends)" "$b2" "the plain CGI (cgi-plain) leaves no connection behind"

# identity per request: users in turn, on whichever process lighttpd picks
leak=0
for i in $(seq 15); do
  for u in jsalice jsbob jsadmin; do
    a=false; [ $u = jsadmin ] && a=true
    [ "$(get $u "$api" me)" = "{\"user\":\"$u\",\"admin\":$a,\"api_version\":2}" ] || leak=$((leak + 1))
  done
  # a list holds its asker's jobs only
  for u in jsalice jsbob; do
    other=$(get $u "$api" jobs | jq -r --arg u $u '[.jobs[] | select(.user != $u)] | length')
    [ "$other" = 0 ] || leak=$((leak + 1))
  done
done
is "$leak" 0 "75 requests of jsalice, jsbob and jsadmin in turn: each answered as itself, lists only its own"
na=$(get jsalice "$api" jobs | jq '.jobs | length'); nb=$(get jsbob "$api" jobs | jq '.jobs | length')
[ "${na:-0}" -gt 0 ] && [ "${nb:-0}" -gt 0 ]
ok $? "jsalice and jsbob both have jobs to see (web/api-real-runs ran them): $na and $nb"

# gzip, both modes
for mode in fastcgi plain; do
  url=$api; [ $mode = plain ] && url=$plain
  get jsadmin "$url" jobs -H 'Accept-Encoding: gzip' -D "$w/h" -o "$w/b.gz"
  get jsadmin "$url" jobs -D "$w/h0" -o "$w/b"
  tr -d '\r' < "$w/h" > "$w/hh"
  if [ "$(stat -c %s "$w/b")" -ge 1024 ]; then
    grep -qx 'Content-Encoding: gzip' "$w/hh" && grep -qx 'Vary: Accept-Encoding' "$w/hh"
    ok $? "$mode: a $(stat -c %s "$w/b")-byte reply to a client accepting gzip: Content-Encoding: gzip, Vary"
    is "$(gunzip -c < "$w/b.gz" | jq -S -c .)" "$(jq -S -c . < "$w/b")" "$mode: it decodes to the same JSON ($(stat -c %s "$w/b.gz") bytes gzipped)"
  else
    skip "$mode: gzip of a reply over 1 KB" "the job list is only $(stat -c %s "$w/b") bytes"
    skip "$mode: gzip decodes to the same JSON" "no reply over 1 KB"
  fi
  ! tr -d '\r' < "$w/h0" | grep -qi '^Content-Encoding'
  ok $? "$mode: no Accept-Encoding: no gzip"
  get jsadmin "$url" jobs -H 'Accept-Encoding: gzip;q=0, deflate' -D "$w/h1" -o /dev/null
  ! tr -d '\r' < "$w/h1" | grep -qi '^Content-Encoding'
  ok $? "$mode: gzip;q=0: no gzip"
  get jsalice "$url" me -H 'Accept-Encoding: gzip' -D "$w/h2" -o "$w/me"
  ! tr -d '\r' < "$w/h2" | grep -qi '^Content-Encoding' && [ "$(cat "$w/me")" = '{"user":"jsalice","admin":false,"api_version":2}' ]
  ok $? "$mode: a small reply stays plain"
  # the entity tag: the same for the gzipped and the plain form; a client holding it gets 304
  tag=$(tr -d '\r' < "$w/h0" | sed -n 's/^ETag: //p')
  [[ $tag =~ ^W/\"[0-9a-f]{16}\"$ ]] && [ "$(tr -d '\r' < "$w/h" | sed -n 's/^ETag: //p')" = "$tag" ] &&
    tr -d '\r' < "$w/h0" | grep -qx 'Cache-Control: private, no-cache'
  ok $? "$mode: a reply's ETag ($tag) is that of its JSON, gzipped or not; private, no-cache"
  # (the list may change between two requests while the ingest works: a fresh tag, a few tries)
  for try in 1 2 3 4 5; do
    get jsadmin "$url" jobs -D "$w/h5" -o /dev/null
    tag=$(tr -d '\r' < "$w/h5" | sed -n 's/^ETag: //p'); rm -f "$w/b3"
    st=$(get jsadmin "$url" jobs -H "If-None-Match: $tag" -H 'Accept-Encoding: gzip' -D "$w/h3" -o "$w/b3" -w '%{http_code}')
    [ "$st" = 304 ] && break
  done
  [ "$st" = 304 ] && [ ! -s "$w/b3" ] && tr -d '\r' < "$w/h3" | grep -qx "ETag: $tag"
  ok $? "$mode: If-None-Match with that tag: 304 Not Modified, no body (try $try)"
  st=$(get jsalice "$url" job --data-urlencode id=999999999 -H 'If-None-Match: *' -D "$w/h4" -o /dev/null -w '%{http_code}')
  [ "$st" = 404 ] && ! tr -d '\r' < "$w/h4" | grep -qi '^ETag'
  ok $? "$mode: an error is never 304 and has no ETag (If-None-Match: * on a job not there: $st)"
done

# --- one FastCGI process, request after request (spawn-fcgi, cgi-fcgi) --------------------
if ! command -v spawn-fcgi >/dev/null || ! command -v cgi-fcgi >/dev/null; then
  for i in $(seq 8); do skip "one FastCGI process" "spawn-fcgi or cgi-fcgi (libfcgi-bin) missing"; done
  done_testing
fi
# its own configuration: the database over the Unix socket, so that its backend is the one
# without client_addr
conf=$w/web.conf
sed "s|host=[^ ]*|host=$JS_CLUSTER_DIR/pg/sock|" "$JS_CLUSTER_DIR/www/jobscreen-web.conf" > "$conf"
sock=$w/fcgi.socket
env -i JOBSCREEN_CONF="$conf" PATH=/usr/bin:/bin spawn-fcgi -n -s "$sock" -- "$cgi" > "$w/spawn.log" 2>&1 &
fpid=$!
at_exit "kill $fpid 2>/dev/null"
for i in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
# one request: fcgi USER QUERY -> the body; the status in $w/status
fcgi() {
  env -i ${1:+REMOTE_USER=$1} REQUEST_METHOD=GET QUERY_STRING="$2" HTTP_ACCEPT_ENCODING="${3:-}" \
    cgi-fcgi -bind -connect "$sock" > "$w/reply" 2>/dev/null
  sed -n '1s/^Status: \([0-9]*\).*/\1/p' "$w/reply" | tr -d '\r' > "$w/status"
  sed '1,/^\r*$/d' "$w/reply"
}
own() { q "SELECT pid FROM pg_stat_activity WHERE application_name = 'jobscreen.cgi' AND client_addr IS NULL"; }
ajob=$(q "SELECT j.job_id FROM js.jobs j WHERE j.user_name = 'jsalice' ORDER BY j.job_id LIMIT 1")
r1=$(fcgi jsalice "q=jobs&limit=100")
pid1=$(own)
r2=$(fcgi "" "q=me"); s2=$(cat "$w/status")
r3=$(fcgi jsbob "q=me")
r4=$(fcgi jsbob "q=job&id=$ajob"); s4=$(cat "$w/status")
r5=$(fcgi jsbob "q=jobs&user=jsalice"); s5=$(cat "$w/status")
r6=$(fcgi jsadmin "q=me")
r7=$(fcgi jsalice "q=me")
r8=$(fcgi jsalice "q=job&id=$ajob"); s8=$(cat "$w/status")
is "$(jq -r '[.jobs[].user] | unique | join(",")' <<< "$r1")" jsalice "one process: jsalice's list is hers"
is "$s2 $(jq -r .error.status <<< "$r2")" "401 401" "the next request without REMOTE_USER: 401 (jsalice does not stay)"
is "$r3 $s4 $s5" '{"user":"jsbob","admin":false,"api_version":2} 404 403' "then jsbob: himself, jsalice's job $ajob is a 404, her list a 403"
is "$r6 $r7" '{"user":"jsadmin","admin":true,"api_version":2} {"user":"jsalice","admin":false,"api_version":2}' "the admin, then jsalice: the admin flag does not stay"
is "$s8 $(jq -r .job.id <<< "$r8")" "200 $ajob" "jsalice again sees her job $ajob"
is "$(own)" "$pid1" "all of it on one database backend (pid $pid1)"
q "SELECT pg_terminate_backend($pid1)" > /dev/null
sleep 0.2
r9=$(fcgi jsalice "q=job&id=$ajob"); s9=$(cat "$w/status")
pid2=$(own)
[ "$s9" = 200 ] && [ -n "$pid2" ] && [ "$pid2" != "$pid1" ]
ok $? "its backend terminated: the next request reconnects and answers 200 (backend $pid2)"
printf 'admins = jsbob\n' >> "$conf"
touch -d '+2 seconds' "$conf"
r10=$(fcgi jsbob "q=me")
is "$r10" '{"user":"jsbob","admin":true,"api_version":2}' "a changed configuration is read again (jsbob made an admin)"
done_testing
