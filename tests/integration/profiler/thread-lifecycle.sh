#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The profiler never changes a program's thread life: a main thread that ends with
# pthread_exit() lets the process end when its last worker does, and once the program's own
# threads have ended the process has one thread again (no heartbeat left behind), so Python's
# "multi-threaded fork" warning never appears because of us.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/profiler/lib.sh"
plan 10
base=$(mktemp -d "$JS_SHARED_DIR"/js-prof38.XXXXXX)

# --- pthread_exit in main, a worker still writing: the step ends as it would bare ---
dir=$base/p; work=$base/pw; mkdir -p "$dir" "$work"
t0=$(date +%s%N)
prof_srun "$dir" -N1 -n1 -- "$PROG/thread_life" pexit "$work"
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
is "$rc" 0 "pthread_exit in main with a live worker: the process exits 0, as bare"
ok $(( ms < 2000 ? 0 : 1 )) "the step ends in under 2 s (took $ms ms; the worker sleeps 300 ms)"
f=$(prof_one "$dir"); ok $? "its profile is written"
is "$(jq -c '.totals | [.posix_write_calls, .posix_write_bytes]' "$f")" "[100,102400]" \
   "the worker's 100 writes of 1 KiB are counted"
is "$(jq -r '[.end, .threads_seen] | @tsv' "$f")" "$(printf 'exit\t2')" "it ended by exit (glibc's, after the last thread) with 2 threads seen"

# --- a joined worker: one thread left, as bare ---
dir=$base/j; work=$base/jw; mkdir -p "$dir" "$work"
out=$(prof_srun "$dir" -N1 -n1 -- "$PROG/thread_life" joined "$work")
is "$out" "threads 1" "after its worker is joined the process has exactly one thread"

# --- Python: os.fork() after a joined thread, warnings as errors ---
cat > "$base/fork.py" <<'PY'
import os, sys, threading, time
def work():
    with open(sys.argv[1], "w") as f:
        f.write("x")
t = threading.Thread(target=work); t.start(); t.join()
def threads():
    with open("/proc/self/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[17])
deadline = time.time() + 2       # Thread.join() returns before the OS thread is gone
while threads() > 1 and time.time() < deadline:
    time.sleep(0.01)
n = threads()
pid = os.fork()
if pid == 0:
    os._exit(0)
os.waitpid(pid, 0)
print("threads at fork", n)
PY
pythons=(/usr/bin/python3)
newest=$(ls -d "$HOME"/.pyenv/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -V | tail -1)
[ -n "$newest" ] && pythons+=("$newest")
for py in "${pythons[@]}" ; do
  dir=$base/py$RANDOM; mkdir -p "$dir"
  ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  out=$(prof_srun "$dir" -N1 -n1 -- "$py" -W error "$base/fork.py" "$base/py.txt" 2>"$base/py.err")
  is "$out" "threads at fork 1" "Python $ver: one thread at os.fork() after a joined thread"
  is "$(cat "$base/py.err")" "" "Python $ver -W error: nothing on stderr, no warning"
done
if [ ${#pythons[@]} -eq 1 ]; then
  skip "a newer Python: one thread at os.fork()" "no Python 3.12+ (pyenv) on this machine"
  skip "a newer Python: nothing on stderr" "no Python 3.12+ (pyenv) on this machine"
fi
rm -rf "$base"
done_testing
