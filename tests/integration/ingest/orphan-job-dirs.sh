#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A job directory that never got a job record (the plugin could not write it, or a user filled
# the spool through it) does not hold the spool for ever: once nothing in it has changed for
# orphan_grace_seconds, its files are quarantined with the reason and the directory removed.
# A younger one is left alone: its job may still be running.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
bin=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
[ -x "$bin" ] || bail "build first"
plan 6
db=js_orphans
conn="$JS_PG_CONNINFO dbname=$db"
spool=$(mktemp -d "$JS_CLUSTER_DIR/orphans.XXXXXX"); chmod 711 "$spool"
dropdb --if-exists "$db" 2>/dev/null; createdb "$db"
mkjob() { # mkjob ID AGE: a job directory without job.json (nor step records), a filler and a record in profiles/
  local d=$spool/job.$1
  mkdir -p "$d/profiles"; chmod 711 "$d"; chown jsbob: "$d/profiles"; chmod 700 "$d/profiles"
  head -c 65536 /dev/zero > "$d/profiles/filler"; echo '{}' > "$d/profiles/0.n1.42.rec"
  chown jsbob: "$d/profiles/"*
  touch -h -d "$2" "$d/profiles/"* "$d/profiles" "$d"
}
mkjob 901 "3 days ago"
mkjob 902 "1 hour ago"
"$bin" --migrate --db "$conn" 2>>"$spool.log"
"$bin" --once --spool "$spool" --db "$conn" --quarantine "$spool.q" --set orphan_grace_seconds=86400 2>>"$spool.log"
ok $? "the ingest passes over the spool"
ok $([ ! -e "$spool/job.901" ]; echo $?) "the 3-day-old directory without job record is gone"
is "$(ls "$spool.q/job.901" 2>/dev/null | grep -v '\.reason$' | sort | tr '\n' ' ')" "0.n1.42.rec filler " \
   "its files are in the quarantine"
like "$(psql -X -At -d "$db" -c "SELECT count(*) || ' ' || min(reason) FROM js.quarantine WHERE job_id = 901")" \
   "^2 no job record, and nothing in its directory changed for 86400 s$" "each with its reason in js.quarantine"
ok $([ -e "$spool/job.902/profiles/filler" ]; echo $?) "the one-hour-old one is left alone"
grep -q "job.901: no job record for 86400 s; quarantined and removed" "$spool.log"
ok $? "the log says what was done"
dropdb --if-exists "$db" 2>/dev/null
rm -rf "$spool" "$spool.q" "$spool.log"
done_testing
