#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A threaded program across slice boundaries: the heartbeat thread (started at the program's
# first pthread_create) closes the slices and no count is lost or doubled. A signal handler
# doing I/O while the program is inside I/O calls neither deadlocks nor miscounts.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/profiler/lib.sh"
plan 9
base=$(mktemp -d "$JS_SHARED_DIR"/js-prof35.XXXXXX)

# 3 threads x 14 pairs of writes, 200 ms apart: about 3 s, 1 s slices
dir=$base/t; work=$base/tw; mkdir -p "$dir" "$work"
JS_SLICE=1 prof_srun "$dir" -N1 -n1 -c2 -- "$PROG/threads" "$work" 3 14 200000
ok $? "3 threads write for about 3 s"
f=$(prof_one "$dir")
n=$(jq '[.slices[] | select(.[3] > 0)] | length' "$f")
ok $(( n >= 3 && n <= 5 ? 0 : 1 )) "the heartbeat spread the writes over 3 to 5 slices of 1 s (got $n)"
is "$(jq -c '[([.slices[][3]] | add), ([.slices[][4]] | add), .totals.posix_write_calls, .totals.posix_write_bytes]' "$f")" \
   "[84,462,84,462]" "slices and totals: 84 writes, 462 B, none lost or doubled"
is "$(jq -r '[.threads_seen, .threads_peak] | @tsv' "$f")" "$(printf '4\t4')" "main + 3 threads recorded"

# SIGALRM every 500 us doing open/write/close while main does the same 20000 times
dir=$base/s; work=$base/sw; mkdir -p "$dir" "$work"
prof_srun "$dir" -N1 -n1 -- "$PROG/signals" "$work"
ok $? "the program with an I/O-doing signal handler finishes (no deadlock)"
read -r main handled < "$work/counts"
f=$(prof_one "$dir")
diag "main writes $main, handler writes $handled"
# and the counts file, written through syscall(SYS_write), a raw write the profiler counts too
is "$(jq -c '.totals | [.posix_write_calls, .posix_write_bytes]' "$f")" "[$((main + handled + 1)),$((main * 2 + handled + $(wc -c < "$work/counts")))]" \
   "every write counted once, in main and in the handler (and the counts written through syscall())"
is "$(jq -r '[.files[] | select(.path | endswith("/m.dat")) | .write_calls] | .[0]' "$f")" "$main" \
   "m.dat holds exactly main's writes: none of the handler's leaked into it"
# 6000 short threads one after another: more than the 4096 counter blocks
dir=$base/c; mkdir -p "$dir"
prof_srun "$dir" -N1 -n1 -- "$PROG/churn" "$base/churn.dat" 6000
ok $? "6000 threads created and joined one after another"
is "$(jq -c '[.totals.posix_write_calls, .threads_seen, (.files[0].write_calls)]' "$(prof_one "$dir")")" "[6000,6001,6000]" \
   "blocks of ended threads are handed on: all 6000 writes counted, 6001 threads seen"
rm -rf "$base" "$base.ids"
done_testing
