#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The CGI behind the real web server: authentication is the server's (401 without or with a
# wrong password), the CGI answers JSON errors with the right status for bad requests, and
# knows who is an admin from its configuration.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
[ -x "$JS_TOP_BUILDDIR/web/jobscreen.cgi" ] || skip_all "web/jobscreen.cgi not built"
api="${JS_WEB_URL}cgi-bin/jobscreen.cgi"
# status USER:PASSWORD QUERY -> prints "STATUS BODY"
call() { curl -s -o "$JS_CLUSTER_DIR/t61.body" -w '%{http_code}' ${1:+-u "$1"} "$api?$2"; echo " $(cat "$JS_CLUSTER_DIR/t61.body")"; }
plan 16
like "$(call '' 'q=me')" '^401' "no credentials: the web server refuses (401)"
like "$(call 'jsalice:wrong' 'q=me')" '^401' "a wrong password: 401"
is "$(call 'jsalice:jsalice' 'q=me')" '200 {"user":"jsalice","admin":false,"api_version":2}' "me: the authenticated user, not an admin"
is "$(call 'jsadmin:jsadmin' 'q=me')" '200 {"user":"jsadmin","admin":true,"api_version":2}' "me: jsadmin is an admin by the configured list"
r=$(curl -s -D - -o /dev/null -u jsalice:jsalice "$api?q=me" | tr -d '\r')
like "$r" 'Content-Type: application/json' "replies are JSON"
like "$r" 'X-Content-Type-Options: nosniff' "replies forbid content sniffing"
like "$(call 'jsalice:jsalice' 'q=nosuch')" '^404 \{"error":\{"status":404,"message":"no such endpoint' "an unknown endpoint: JSON 404"
like "$(call 'jsalice:jsalice' '')" '^400 \{"error"' "no endpoint: JSON 400"
like "$(call 'jsalice:jsalice' 'q=job&id=abc')" "^400 .*parameter 'id': expected an integer" "a non-numeric id: 400 naming the parameter"
like "$(call 'jsalice:jsalice' 'q=job')" "^400 .*parameter 'id' is required" "a missing id: 400"
like "$(call 'jsalice:jsalice' 'q=step&job=1&step=1;DROP')" "^400 .*parameter 'step'" "a malformed step: 400"
like "$(call 'jsalice:jsalice' 'q=background&job=1&step=0&scope=galaxy')" "^400 .*parameter 'scope': expected one of cluster nodes" "an unknown scope: 400"
like "$(call 'jsalice:jsalice' 'q=background&job=1&step=0&top=5')" "^403 .*only admins" "top contributors for a non-admin: 403"
like "$(call 'jsalice:jsalice' 'q=jobs&user=jsbob')" "^403 .*only admins" "listing another user's jobs: 403"
like "$(call 'jsalice:jsalice' 'q=jobs&a=1&a=2')" "^400 .*given twice" "a repeated parameter: 400"
st=$(curl -s -o /dev/null -w '%{http_code}' -u jsalice:jsalice -X POST --data 'q=me' "$api?q=me")
is "$st" 405 "POST is refused (405)"
done_testing
