#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The data-driven suites of tests/ingest-suites (as Jansson's test/suites): each valid case is
# a spool whose ingest must produce exactly the rows in its "rows" file (and again exactly
# those after the same spool is ingested a second time: exactly once); each invalid case
# holds one bad file whose refusal must read exactly as its "error" file, while the rest of
# the step is ingested (its "rows"). Placeholders: @UID@ @GID@ @USER@ (jsalice), @UID_BOB@.
# A case with a "passes" file is ingested a pass per line, each the job directories it names
# (records that arrive in another order than their jobs ran: a writer after its readers).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
suites=$JS_TOP_SRCDIR/tests/ingest-suites
bin=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
[ -x "$bin" ] || bail "no $bin (build first)"
UID_ALICE=$(id -u jsalice); GID_ALICE=$(id -g jsalice); UID_BOB=$(id -u jsbob)
export UID_ALICE UID_BOB

valid=("$suites"/valid/*/); invalid=("$suites"/invalid/*/)
plan $(( ${#valid[@]} * 3 + ${#invalid[@]} * 2 ))

subst() { sed -e "s/@UID@/$UID_ALICE/g" -e "s/@GID@/$GID_ALICE/g" -e "s/@USER@/jsalice/g" -e "s/@UID_BOB@/$UID_BOB/g" "$@"; }
db=js_suite
conn="$JS_PG_CONNINFO dbname=$db"

# a migrated template, copied for each case
dropdb --if-exists js_suite_template; createdb js_suite_template
"$bin" --migrate --db "$JS_PG_CONNINFO dbname=js_suite_template" 2>/dev/null || bail "migrations failed"

# make_spool CASE DIR: the case's spool with real owners: records root, profiles the job user
make_spool() {
  local case=$1 dir=$2 f
  mkdir -p "$dir"; cp -r "$case/spool" "$dir/spool"
  find "$dir/spool" -type f | while read -r f; do subst -i "$f"; done
  chown -R root:root "$dir/spool"; chmod 711 "$dir/spool"
  find "$dir/spool" -mindepth 1 -type d -name 'job.*' -exec chmod 711 {} +
  find "$dir/spool" -type f -exec chmod 644 {} +
  find "$dir/spool" -type d -name profiles | while read -r f; do
    chown -R jsalice:jsalice "$f"; chmod 700 "$f"; find "$f" -type f -exec chmod 600 {} +
  done
  [ -x "$case/setup" ] && "$case/setup" "$dir/spool"
  return 0
}
ingest() { # ingest CASE DIR
  local extra=() line j; [ -f "$1/args" ] && read -r -a extra < "$1/args"
  if [ -f "$1/passes" ]; then
    mv "$2/spool" "$2/held"; mkdir -m 711 "$2/spool"
    while read -r line; do
      for j in $line; do mv "$2/held/$j" "$2/spool/"; done
      "$bin" --once --spool "$2/spool" --db "$conn" --quarantine "$2/quarantine" --set job_grace_seconds=0 "${extra[@]}" 2>>"$2/log"
    done < "$1/passes"
    rmdir "$2/held" # every job in a pass
    return
  fi
  "$bin" --once --spool "$2/spool" --db "$conn" --quarantine "$2/quarantine" --set job_grace_seconds=0 "${extra[@]}" 2>>"$2/log"
}
rows() { psql -X -q -At -F'|' -d "$db" -f "$suites/dump.sql"; }

for case in "${valid[@]}" "${invalid[@]}"; do
  case=${case%/}; name=${case#"$suites"/}
  work=$(mktemp -d "$JS_CLUSTER_DIR/suite.XXXXXX")
  dropdb --if-exists "$db"; createdb -T js_suite_template "$db"
  make_spool "$case" "$work"
  ingest "$case" "$work"
  got=$(rows); want=$(subst "$case/rows" 2>/dev/null)
  if [ "${JS_SUITE_BLESS:-}" ]; then # write what it produced as the expectation (review it!)
    printf '%s\n' "$got" | sed -e "s/uid $UID_ALICE\b/uid @UID@/g" -e "s/uid $UID_BOB\b/uid @UID_BOB@/g" -e 's/jsalice/@USER@/g' > "$case/rows"
    [[ $name == invalid/* ]] && grep -oE '(refused|kept) .*' "$work/log" | sort -u |
      sed -e "s/uid $UID_ALICE\b/uid @UID@/g" -e "s/uid $UID_BOB\b/uid @UID_BOB@/g" > "$case/error"
    want=$got
  fi
  if [[ $name == valid/* ]]; then
    is "$got" "$want" "$name: the rows it must produce"
    is "$(find "$work/spool" -mindepth 1 | sort)" "" "$name: the spool is empty once the jobs ended and were ingested"
    rm -rf "$work/spool"; make_spool "$case" "$work"; ingest "$case" "$work"
    is "$(rows)" "$want" "$name: ingesting the same spool again changes nothing"
  else
    is "$(grep -oE '(refused|kept) .*' "$work/log" | sort -u)" "$(subst "$case/error")" "$name: refused with the exact reason"
    is "$got" "$want" "$name: the rest of the step is ingested, marked incomplete"
  fi
  [ "${JS_KEEP:-}" ] || rm -rf "$work"
done
dropdb --if-exists "$db"; dropdb --if-exists js_suite_template
done_testing
