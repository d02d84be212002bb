#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# opt-out and the usage rollups on the real runs of reports/real-runs: jsbob opted out of two of his three
# steps of 'true' and jsalice of none; js_data.rollup_usage() sums the day per user (jobs,
# steps, opted-out steps, bytes of the dd job), twice gives the same, and the monthly view is
# the sum of the days.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
need_reports_db
plan 11

out=$(report opt-out); diag "$out"
is "$(echo "$out" | section 'by user and application' | awk -F'|' '$1 == "jsbob" && $2 == "true"' | cut -d'|' -f3-8)" \
  "3|1|2|0|0|0.667" "jsbob's true: 3 steps, 1 profiled, 2 opted out, opt-out rate 0.667"
like "$(echo "$out" | section 'by user and application' | awk -F'|' '$1 == "jsbob" && $2 == "true"' | field 9)" \
  "no-profile option" "the reason is the --no-profile option"
is "$(echo "$out" | section 'by user' | awk -F'|' '{ print $1 ":" $4 }' | sort | tr '\n' ' ')" "jsalice:0 jsbob:2 " \
  "by user: jsbob opted out twice, jsalice never"
is "$(echo "$out" | section 'by user and application' | awk -F'|' '$1 == "jsalice" && $5 != "0"' | wc -l)" 0 \
  "no application of jsalice has an opt-out"

today="(now() AT TIME ZONE 'UTC')::date"
is "$(DB=$REPORTS_DB q "SELECT js_data.rollup_usage($today - 1, $today) > 0")" t "rollup_usage writes the rows of the last two days"
snap() { DB=$REPORTS_DB q "SELECT day, user_name, jobs_started, steps_started, steps_failed, steps_opted_out, read_bytes, write_bytes, meta_ops FROM js.usage_daily ORDER BY 1, 2"; }
first=$(snap)
DB=$REPORTS_DB q "SELECT js_data.rollup_usage($today - 1, $today)" >/dev/null
is "$(snap)" "$first" "run again, it gives the same rows"

alice_jobs=$(DB=$REPORTS_DB q "SELECT count(*) FROM js.jobs WHERE user_name = 'jsalice'")
out=$(report usage-daily); diag "$out"
days=$(echo "$out" | section 'usage per day and user')
is "$(echo "$days" | awk -F'|' '$2 == "jsalice" { s += $3 } END { print s + 0 }')" "$alice_jobs" \
  "usage-daily: jsalice's jobs, the two that never started included (counted on their submit day)"
is "$(echo "$days" | awk -F'|' '$2 == "jsbob" { j += $3; o += $6 } END { print j ":" o }')" "2:2" "jsbob: 2 jobs, 2 opted-out steps"
ok "$(echo "$days" | awk -F'|' '$2 == "jsbob" { r += $9; w += $10 } END { exit !(r >= 2^29 && w >= 2^29) }'; echo $?)" \
  "jsbob read and wrote at least 512 MiB each (the dd steps, from the per-slice detail)"
out=$(report usage-monthly); diag "$out"
months=$(echo "$out" | section 'usage per month and user')
is "$(echo "$months" | awk -F'|' '{ j[$2] += $4; s[$2] += $5 } END { for (u in j) print u ":" j[u] ":" s[u] }' | sort | tr '\n' ' ')" \
  "$(echo "$days" | awk -F'|' '{ j[$2] += $3; s[$2] += $4 } END { for (u in j) print u ":" j[u] ":" s[u] }' | sort | tr '\n' ' ')" \
  "usage-monthly: the months sum the days (jobs and steps per user)"
is "$(DB=$REPORTS_DB q "SELECT count(*) FROM js.usage_daily WHERE user_name NOT IN ('jsalice', 'jsbob')")" 0 "no other user appears"
done_testing
