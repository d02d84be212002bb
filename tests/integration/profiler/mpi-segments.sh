#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# MPI segments (profile format 6) of a real 2-rank step over 2 nodes under the plugin: 60
# iterations of 20 ms of arithmetic and an allreduce of 8 B, of which 5 are held up 200 ms on
# rank 0, then 10 allreduces of 32 B; a barrier on a one-rank communicator and a non-blocking
# allreduce end no segment, nor does MPI_Finalize. The profiles' segments, their ingest summed
# per step, and hostile segments refused by name.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
[ "${JS_HAVE_MPI:-no}" = yes ] || skip_all "built without MPI (no mpicc)"
profiler_on || skip_all "no profiler built"
INGEST=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
private_spool
plan 17
work=$(work_dir jsalice)
mpicc -O1 -o "$work/mpi_segments" "$JS_TOP_SRCDIR/tests/profiler/mpi_segments.c"; ok $? "the MPI program compiles"
chown jsalice "$work/mpi_segments"
# sh forks the program (a command follows it): a process of the step that is no MPI process
out=$(cd "$work" && as_user jsalice timeout 120 srun --mpi=pmix -N2 -n2 --chdir="$work" sh -c './mpi_segments 60; echo "job $SLURM_JOB_ID"' 2>&1); st=$?
ok $st "srun --mpi=pmix -N2 -n2 (a rank on each of two nodes) exits 0"
job=$(sed -n 's/^job //p' <<< "$out" | head -n 1)
read -r n1 n2 <<< "$(job_nodes "$job" | tr '\n' ' ')"
wait_file "$(job_dir "$job")/step.0.$n1.json" && wait_file "$(job_dir "$job")/step.0.$n2.json"
all=$(bundle_json "$(job_dir "$job")"/profiles/0.*.b*.json | jq -c '.profiles[]')
rank() { jq -c "select(.mpi_rank == $1) | .mpi_segments" <<< "$all"; }
r0=$(rank 0) r1=$(rank 1)
is "$(jq -c '[.boundaries, .ungrouped, .ungrouped_ns, .bin_min_ns, .bin_count, .decades]' <<< "$r0$r1" | tr '\n' ' ')" \
   "[70,0,0,1000,1024,9] [70,0,0,1000,1024,9] " "each rank: 70 boundaries (60 + 10 allreduces; not the sub-communicator's barrier, the iallreduce or MPI_Finalize), none ungrouped"
is "$(jq -c '[.groups[] | [.boundary, .count]] | sort' <<< "$r0$r1" | tr '\n' ' ')" \
   '[["allreduce",10],["allreduce",60]] [["allreduce",10],["allreduce",60]] ' "each rank: two groups, the 60 segments of 8 B and the 10 of 32 B"
is "$(jq -r '[.groups[] | select(.count == 60) | .signature] | .[0]' <<< "$r0")" "$(jq -r '[.groups[] | select(.count == 60) | .signature] | .[0]' <<< "$r1")" \
   "the same segments have the same signature on both ranks"
is "$(jq -c '[.groups[] | (([.bins[][1]] | add) == .count) and (.min_ns <= .max_ns) and (.sum_ns >= .max_ns)] | all' <<< "$r0$r1" | tr '\n' ' ')" \
   "true true " "each group's bins add up to its count, min <= max <= sum"
# the 5 held-up segments are the 5 slowest of each rank (rank 1 waits for rank 0 in the allreduce)
slow='(.groups | map(.count == 60) | index(true)) as $g | [.slowest[:5][] | (.ns >= 200000000 and .group == $g)] + [.slowest[5].ns < 200000000]'
is "$(jq -c "$slow | all" <<< "$r0$r1" | tr '\n' ' ')" "true true " \
   "each rank: its 5 slowest segments are the held-up ones (>= 200 ms, of the 8 B group), the 6th is shorter"
is "$(jq -c '[.slowest | length, (map(.ns) == (map(.ns) | sort | reverse)), (.[0].end_ns > 0)]' <<< "$r0")" "[16,true,true]" \
   "16 slowest kept, slowest first, with the wall clock of their end"
# the 5 slow ones in bins of 200 ms and more, the 55 others below 100 ms
lo200=$(jq -r '.groups[] | select(.count == 60) | [.bins[] | select(.[0] >= 603) | .[1]] | add' <<< "$r0")
lo100=$(jq -r '.groups[] | select(.count == 60) | [.bins[] | select(.[0] < 568) | .[1]] | add' <<< "$r0")
is "$lo200 $lo100" "5 55" "rank 0's histogram: 5 segments in bins from 200 ms (bin 603) up, 55 below 100 ms (bin 568)"
is "$(jq -c 'select(.mpi_rank == -1) | .mpi_segments' <<< "$all" | sort -u)" "{}" "the shell, no MPI process, has {}"

# the ingest: the groups summed per step over its nodes
db=js_seg33c conn="$JS_PG_CONNINFO dbname=$db"
q() { psql -X -q -At -F'|' -d "$1" -c "$2"; }
ingest() { # SPOOL DB: a copy of the job's spool ingested once into a fresh database
  dropdb --if-exists "$2" 2>/dev/null; createdb "$2"
  "$INGEST" --migrate --db "$JS_PG_CONNINFO dbname=$2" 2>>"$1.log" &&
    "$INGEST" --once --spool "$1" --db "$JS_PG_CONNINFO dbname=$2" --quarantine "$1.quarantine" --set job_grace_seconds=0 2>>"$1.log"
}
copy=$(mktemp -d "$JS_CLUSTER_DIR/seg33c.XXXXXX")
cp -a "$(job_dir "$job")" "$copy/job.$job"
ingest "$copy" "$db"
is "$?|$(q "$db" "SELECT count(*) FROM js_data.quarantine")" "0|0" "the step ingests, nothing quarantined"
is "$(q "$db" "SELECT boundary, processes, count, cardinality(bins) = cardinality(counts), (SELECT sum(c) FROM unnest(counts) c) = count
                FROM js_data.step_segment_groups(1::smallint, $job, '0') ORDER BY count" | tr '\n' ' ')" \
   "allreduce|2|20|t|t allreduce|2|120|t|t " "js_data.step_segment_groups: the two groups summed over both nodes, bins and counts add up"
is "$(q "$db" "SELECT count(*) FILTER (WHERE ns >= 200000000), count(DISTINCT node) FILTER (WHERE ns >= 200000000), count(*)
                FROM js_data.step_slow_segments(1::smallint, $job, '0')")" "10|2|32" \
   "js_data.step_slow_segments: the 10 held-up segments (5 per rank, both nodes) among the 32 kept"
is "$(q "$db" "SELECT boundaries, ungrouped, ungrouped_ns, processes FROM js_data.step_segment_totals(1::smallint, $job, '0')")" "140|0|0|2" \
   "js_data.step_segment_totals: 140 segments of 2 processes, none ungrouped"
is "$(q "$db" "SELECT count(*) FROM js.step_segment_groups WHERE job_id = $job AND uid = $(id -u jsalice)")" "2" \
   "js.step_segment_groups shows them with the job's owner"

# hostile segments: a bin out of range, counts that do not add up; the profile is refused by name
bundle=$(cd "$(job_dir "$job")/profiles" && ls 0."$n1".b*.json | head -n 1)
hostile() { # DB COLUMN EXPR: the job's spool with every value x of a column of $n1's bundle made EXPR
  # (a bundle of version 3: the segments' groups and bins are columns, common/bundle_cols.h)
  local h; h=$(mktemp -d "$JS_CLUSTER_DIR/seg33c.XXXXXX")
  cp -a "$(job_dir "$job")" "$h/job.$job"
  python3 - "$h/job.$job/profiles/$bundle" "$2" "$3" <<'PY'
import base64, json, struct, sys
f, col, expr = sys.argv[1:4]
b = json.load(open(f))
n = b["segment_bins"] if col.startswith("mpi_segments.groups.bins.") else b["segment_groups"]
raw = base64.b64decode(b["columns"][col])
w = raw[0] if raw else 0
base = struct.unpack(">q", raw[1:9])[0] if raw else 0
v = [eval(expr, {"x": base + int.from_bytes(raw[9 + i * w:9 + (i + 1) * w], "big")}) for i in range(n)]
lo = min(v); w = (max(v) - lo).bit_length() + 7 >> 3
b["columns"][col] = base64.b64encode(bytes([w]) + struct.pack(">q", lo) + b"".join((x - lo).to_bytes(w, "big") for x in v)).decode()
json.dump(b, open(f, "w"))
PY
  ingest "$h" "$1"
  q "$1" "SELECT file || ': ' || reason FROM js_data.quarantine"
  rm -rf "$h" "$h.log" "$h.quarantine"
}
like "$(hostile js_seg33c_bad1 mpi_segments.groups.bins.bin 5000)" \
     "profiles/$bundle: profile [0-9] of the bundle: mpi_segments.groups\[0\].bins\[[0-9]*\]: bin 5000 is not ascending within 0..1023" \
     "a bin index out of range refuses the profile, saying where"
like "$(hostile js_seg33c_bad2 mpi_segments.groups.count 'x + 1')" \
     "profiles/$bundle: profile [0-9] of the bundle: mpi_segments.groups\[0\]: its bins hold [0-9]* segments, its count says [0-9]*" \
     "counts that do not add up refuse the profile, saying so"
rm -rf "$copy" "$copy.log" "$copy.quarantine"
dropdb --if-exists "$db"; dropdb --if-exists js_seg33c_bad1; dropdb --if-exists js_seg33c_bad2
done_testing
