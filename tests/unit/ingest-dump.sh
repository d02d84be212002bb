#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# profile_ingest --dump FILE prints any bundle or profile as readable JSON, with no database and
# no configuration: a bundle of version 3 with its columns shown as the profiles they hold (the
# same objects as the same processes' bundle of version 2), its series decoded slice by slice (sums by name,
# the spread of its processes), the exact values the generator built in (bench/gen, uniform:
# per process and slice k one write of 1000 + k bytes); a profile of its own as it is; a file
# that is not one is named with the reason, and the status is not 0.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq is needed"
ingest=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
gen=$JS_TOP_BUILDDIR/bench/gen/jsgen
plan 7
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
"$gen" --uniform --bundle --no-chown --out "$d/b" --ppn 3 --slices 4 --start 1800000000 >/dev/null
"$gen" --uniform --bundle=2 --no-chown --out "$d/b2" --ppn 3 --slices 4 --start 1800000000 --files 2 --killed 1 >/dev/null
"$gen" --uniform --bundle=3 --no-chown --out "$d/b3" --ppn 3 --slices 4 --start 1800000000 --files 2 --killed 1 >/dev/null
"$gen" --uniform --no-chown --out "$d/f" --ppn 3 --slices 4 --start 1800000000 >/dev/null
b=$(ls "$d"/b/job.*/profiles/0.gen1.b1.json)
out=$("$ingest" --dump "$b" -c /nonexistent/profile_ingest.conf --db "host=/nonexistent"); rc=$?
is "$rc|$(jq -r '[.format, .version, (.profiles | length), (.profiles[0] | has("slices"))] | @tsv' <<< "$out")" \
   "0|$(printf 'jobscreen-profile-bundle\t3\t3\tfalse')" "a bundle of version 3: 3 profiles without slices, no database or configuration read"
v2=$("$ingest" --dump "$(ls "$d"/b2/job.*/profiles/0.gen1.b1.json)" | jq -S -c .profiles)
v3=$("$ingest" --dump "$(ls "$d"/b3/job.*/profiles/0.gen1.b1.json)" | jq -S -c .profiles)
is "$(jq length <<< "$v3")|$v3" "3|$v2" "its profiles are those of the same processes' bundle of version 2, member for member"
is "$(jq -c '[.series.slices[] | [.slice - 450000000, .processes, .posix_write_calls, .posix_write_bytes]]' <<< "$out")" \
   "[[0,3,3,3000],[1,3,3,3003],[2,3,3,3006],[3,3,3,3009]]" "its series decoded: per slice the processes and the sums of their writes"
is "$(jq -c '[.series.slices[0].spread.io_bytes | .min, .max, (.max_pid >= 1000)]' <<< "$out")" "[1000,1000,true]" \
   "the spread: the least and the most one process wrote, and whose most"
f=$(ls "$d"/f/job.*/profiles/0.gen1.*.json | head -n 1)
is "$("$ingest" --dump "$f" | jq -c '[.format, (.slices | length)]')" '["jobscreen-profile",4]' \
   "a profile of its own is printed as it is, with its slices"
echo '{"format": "jobscreen-profile-bundle", "version": 2, "profiles": [], "series": {"chunks": [{"first_slice": 1, "slices": 2, "sums": ["%%"]}]}}' > "$d/bad.json"
err=$("$ingest" --dump "$d/bad.json" 2>&1 >/dev/null); rc=$?
like "$rc|$err" "^1\\|profile_ingest: --dump $d/bad.json: series: chunks\\[0\\]: \"sums\" is not an array of 39 strings" \
     "a series that does not decode: the file and the reason, status 1"
err=$("$ingest" --dump "$d/none.json" 2>&1 >/dev/null); rc=$?
like "$rc|$err" "^1\\|profile_ingest: --dump $d/none.json: " "a file that is not there: named, status 1"
