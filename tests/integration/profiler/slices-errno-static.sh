#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A program running across slice boundaries gets one vector per active slice; errno is what
# libc alone gives; a static binary runs unprofiled; an opted-out step or an unwritable spool
# changes nothing for the program. The runtime share is measured: a sleep is idle, two compute
# loops on one CPU compute half their time and wait for the CPU the other half, a read that
# waits on a pipe is waiting (idle), not I/O.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/profiler/lib.sh"
plan 19
base=$(mktemp -d "$JS_SHARED_DIR"/js-prof32.XXXXXX)

# --- 15 writes of 1 B, 200 ms apart, 1 s slices ---
dir=$base/s; mkdir -p "$dir"
JS_SLICE=1 prof_srun "$dir" -N1 -n1 -- "$PROG/slices_span" "$base/span.dat" 15
ok $? "slices_span runs for about 3 s"
f=$(prof_one "$dir")
is "$(jq -r .slice_seconds "$f")" 1 "the slice length comes from JOBSCREEN_SLICE_SECONDS"
n=$(jq '[.slices[] | select(.[3] > 0)] | length' "$f")
ok $(( n >= 3 && n <= 5 ? 0 : 1 )) "the writes fall into 3 to 5 slices of 1 s (got $n)"
is "$(jq '[.slices[][3]] | add' "$f")" 15 "the slices' write calls add up to 15"
is "$(jq '[.slices[][3]] | max <= 6' "$f")" true "no slice holds more than the 5 or 6 writes of one second"
s0=$(raw_num "$f" start_ns); e0=$(raw_num "$f" end_ns)
is "$(jq -r '.slices[0][0], .slices[-1][0]' "$f" | tr '\n' ' ')" "$((s0 / 1000000000)) $((e0 / 1000000000)) " \
   "the first and last slice are the seconds the process started and ended in"

# --- errno ---
mkdir -p "$base/e1" "$base/e2" "$base/ep"
plain=$(timeout 60 srun -Q -N1 -n1 "$PROG/errno_check" "$base/e1" 2>&1)
prof=$(prof_srun "$base/ep" -N1 -n1 -- "$PROG/errno_check" "$base/e2" 2>&1)
is "$prof" "$plain" "errno after 23 intercepted calls (ok and failing) is the same with the profiler"
like "$prof" "open-ok 4242.*close-ok 4242.*open-missing 2.*write-badfd 9" "successful calls leave errno alone"

# --- static binary ---
dir=$base/st; mkdir -p "$dir"
prof_srun "$dir" -N1 -n1 -- "$PROG/static_write" "$base/static.dat"
ok $? "a static binary runs normally with LD_PRELOAD set"
is "$(find "$dir" -name '*.json' | wc -l) $(cat "$base/static.dat")" "0 stat" "it writes its data and no profile"

# --- opted out; unwritable profile directory ---
dir=$base/off; mkdir -p "$dir"
timeout 60 srun -Q -N1 -n1 env JOBSCREEN_VERSION="0.1.0 off" JOBSCREEN_PROFILE_DIR="$dir" JOBSCREEN_STEP=0 \
  LD_PRELOAD="$PROF_LIB" "$PROG/exit_now" "$base/off.dat" 2>/dev/null
is "$? $(find "$dir" -name '*.json' | wc -l)" "3 0" "JOBSCREEN_VERSION '... off': the step runs, no profile"
out=$(timeout 60 srun -Q -N1 -n1 env JOBSCREEN_PROFILE_DIR=/nonexistent/profiles JOBSCREEN_STEP=0 \
  LD_PRELOAD="$PROF_LIB" "$PROG/io_known" "$base" 2>&1; echo "rc=$?")
is "$out" "rc=0" "a missing profile directory: the program runs on, nothing on its stdout or stderr"

# --- the runtime share (profile format 4): sleeping is idle; sharing a CPU is waiting for it ---
dir=$base/share; mkdir -p "$dir"
loop='i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done'
prof_srun "$dir" -N1 -n1 -- sh -c "sleep 1; taskset -c 0 bash -c '$loop' & taskset -c 0 bash -c '$loop'; wait"
ok $? "a sleep, then two compute loops pinned to one CPU, under the profiler"
sleeper=$(jq -r 'select(.exe | endswith("/sleep")) | [.runtime.idle_ns > 0.9 * .wall_ns, .runtime.compute_ns < 0.1 * .wall_ns] | @tsv' "$dir"/*.json)
is "$sleeper" "$(printf 'true\ttrue')" "sleep 1: idle more than 90 % of its time, computing less than 10 %"
loops=$(jq -r 'select(.exe | endswith("/bash")) | select(.wall_ns > 100000000) |
  [((.runtime.compute_ns - .cpu_user_ns - .cpu_sys_ns) | fabs) < 0.02 * (.cpu_user_ns + .cpu_sys_ns),
   .runtime.cpu_wait_ns > 0.25 * .wall_ns, .runtime.idle_ns < 0.1 * .wall_ns] | @tsv' "$dir"/*.json | sort | uniq -c | awk '{$1=$1; print}')
is "$loops" "2 true true true" \
  "each compute loop: computation is its CPU time, it waited for the shared CPU more than a quarter of its time, idle under 10 %"
dir=$base/pipe; mkdir -p "$dir"
prof_srun "$dir" -N1 -n1 -- sh -c '(sleep 1; echo hello) | cat > /dev/null'
ok $? "cat reading a pipe whose writer sleeps 1 s, under the profiler"
is "$(jq -r 'select(.exe | endswith("/cat")) | [.totals.posix_read_bytes, .runtime.io_posix_ns < 0.05 * .wall_ns, .runtime.idle_ns > 0.8 * .wall_ns] | @tsv' "$dir"/*.json)" \
   "$(printf '6\ttrue\ttrue')" "cat: its 6 bytes read are counted, the second it waited on the pipe is idle, not I/O time"
# metadata calls are timed: 300000 stat calls take more than 100 ns each, all of it in posix_ns
if command -v python3 >/dev/null; then
  dir=$base/meta; mkdir -p "$dir"
  prof_srun "$dir" -N1 -n1 -- python3 -c 'import os
for _ in range(300000): os.stat("/")'
  ok $? "python3 calling stat 300000 times, under the profiler"
  is "$(jq -r 'select(.totals.posix_meta_calls >= 300000) | .totals.posix_ns > 30000000' "$dir"/*.json)" true \
     "its 300000 metadata calls are counted and timed (posix_ns over 30 ms)"
else
  skip "stat storm" "no python3"; skip "its time" "no python3"
fi
rm -rf "$base"
done_testing
