# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the sql report tests (tests/integration/reports/): source after tap.sh and need_cluster.
# reports/real-runs leaves the database js_reports and the ids of the jobs it ran in $JS_CLUSTER_DIR/reports.ids.
REPORTS=$JS_TOP_SRCDIR/sql/reports
INGEST=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
REPORTS_DB=js_reports
REPORTS_IDS=$JS_CLUSTER_DIR/reports.ids

# as_user USER CMD...: a Slurm command as a test user on this cluster
as_user() { local u=$1; shift; runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" "$@"; }

# need_reports_db: skip unless reports/real-runs built the database
need_reports_db() {
  [ -s "$REPORTS_IDS" ] || skip_all "no $REPORTS_IDS: reports/real-runs.sh did not run or failed"
  # shellcheck disable=SC1090
  . "$REPORTS_IDS"
}

# report NAME [psql args...]: run sql/reports/NAME.sql on DB (default js_reports), unaligned,
# no headers, fields separated by '|'; section titles come out as lines starting with '== '
report() {
  local name=$1; shift
  psql -X -q -At -F'|' -d "${DB:-$REPORTS_DB}" -v since=2000-01-01 -v until=2100-01-01 "$@" -f "$REPORTS/$name.sql"
}

# section TITLE_PREFIX: the lines of the first section of stdin whose title starts with TITLE_PREFIX
section() {
  awk -v t="== $1" '!seen && index($0, t) == 1 { on = 1; seen = 1; next } /^== / { on = 0 } on && !/^# / { print }'
}

# field N: the Nth '|'-separated field of each line of stdin
field() { cut -d'|' -f"$1"; }

# rows_with COL VALUE: lines of stdin whose field COL equals VALUE
rows_with() { awk -F'|' -v c="$1" -v v="$2" '$c == v'; }

# q SQL: one value from the database DB (default js_reports)
q() { psql -X -q -At -F'|' -d "${DB:-$REPORTS_DB}" -c "$1"; }


# ingest_spool SPOOL DB: migrate DB and ingest SPOOL into it
ingest_spool() {
  local spool=$1 db=$2
  "$INGEST" --migrate --db "$JS_PG_CONNINFO dbname=$db" 2>>"$spool.log" &&
    "$INGEST" --once --spool "$spool" --db "$JS_PG_CONNINFO dbname=$db" --quarantine "$spool.quarantine" \
      --set "shared_fs=$JS_SHARED_FS" \
      --set job_grace_seconds=0 2>>"$spool.log"
}
