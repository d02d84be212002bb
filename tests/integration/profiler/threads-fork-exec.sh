#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Threads writing at once are counted exactly without locks; fork, exec and _exit each leave
# the right profile: a forked child its own, an exec'd image its own under the same pid.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/profiler/lib.sh"
plan 15
base=$(mktemp -d "$JS_SHARED_DIR"/js-prof31.XXXXXX)

# --- 8 threads x 20000 records, own files and one shared file ---
dir=$base/t; work=$base/tw; mkdir -p "$dir" "$work"
prof_srun "$dir" -N1 -n1 -c2 -- "$PROG/threads" "$work" 8 20000
ok $? "8 threads write at once under the profiler"
f=$(prof_one "$dir")
is "$(jq -c '.totals | [.posix_write_calls, .posix_write_bytes, .posix_open_calls]' "$f")" "[320000,1760000,9]" \
   "every write of every thread is counted: 320000 calls, 1760000 B, 9 opens"
is "$(jq -c '[.files[] | select(.path | endswith("/shared.dat")) | .write_calls, .write_bytes]' "$f")" "[160000,160000]" \
   "the shared file: 160000 writes of 1 B from 8 threads, none lost"
is "$(jq -c '[.files[] | select(.path | test("/t[0-9]\\.dat$")) | .write_bytes] | unique' "$f")" "[200000]" \
   "each thread's own file: 200000 B"
is "$(jq -r '[.threads_seen, .threads_peak] | @tsv' "$f")" "$(printf '9\t9')" "9 threads recorded (main + 8), 9 at once"

# --- fork, _exit, exec ---
dir=$base/f; work=$base/fw; mkdir -p "$dir" "$work"
prof_srun "$dir" -N1 -n1 -- "$PROG/forkexec" "$work"
ok $? "forkexec runs to exit 0"
is "$(find "$dir" -name '*.json' | wc -l)" 4 "four profiles: the image before exec, two children, the image after exec"
row() { jq -r --arg p "$1" '. as $d | select(.files[0].path | endswith($p)) | [.origin, .end, .totals.posix_write_calls, .totals.posix_write_bytes, (.files | length)] | @tsv' "$dir"/*.json; }
is "$(row /parent.dat)" "$(printf 'start\texec\t1\t111\t1')" "before exec: 1 write of 111 B, end exec"
is "$(row /child.dat)" "$(printf 'fork\texit\t2\t44\t1')" "forked child: its own 2 writes, 44 B, end exit"
is "$(row /quick.dat)" "$(printf 'fork\t_exit\t1\t7\t1')" "forked child that calls _exit: 1 write, 7 B, end _exit"
is "$(row /after.dat)" "$(printf 'start\texit\t3\t99\t1')" "after exec: 3 writes, 99 B"
p1=$(jq -r 'select(.end == "exec") | .pid' "$dir"/*.json)
read -r _ step node < "$dir.ids"
ok $([ -f "$dir/$step.$node.$p1.json" ] && [ -f "$dir/$step.$node.$p1-1.json" ]; echo $?) \
   "the exec'd image keeps the pid and gets <pid>-1: no profile overwritten"
is "$(jq -r 'select(.origin == "fork") | .ppid' "$dir"/*.json | sort -u)" "$p1" "the children's parent is the first image"

# --- _exit straight from main ---
dir=$base/x; mkdir -p "$dir"
prof_srun "$dir" -N1 -n1 -- "$PROG/exit_now" "$base/x.dat" 2>/dev/null
is $? 3 "exit_now's _exit(3) status reaches srun unchanged"
is "$(jq -r '[.end, .totals.posix_write_bytes] | @tsv' "$(prof_one "$dir")")" "$(printf '_exit\t5')" "_exit still writes the profile"
rm -rf "$base" "$base"/*.ids
done_testing
