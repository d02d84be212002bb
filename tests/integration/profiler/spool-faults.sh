#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The spool's faults never reach the program: a full file system and a directory the user
# cannot write leave the program's exit status and output as they were, and no stray files.
# A record that the job's record quota stops from growing keeps what it holds and says what it
# lacks. And a collector stopped in the middle of a bundle neither loses nor doubles a profile,
# also when the plugin's relay has already taken the bundle into the spool.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
. "$JS_TOP_SRCDIR/tests/profiler/lib.sh"
plan 13
base=$(mktemp -d "$JS_SHARED_DIR"/js-prof37.XXXXXX); chmod 755 "$base"

# --- full: a 4 KiB tmpfs, filled up ---
full=$base/full; mkdir -p "$full" "$base/w1"
if mount -t tmpfs -o size=4k,mode=0777 tmpfs "$full" 2>/dev/null; then
  at_exit 'umount "$full" 2>/dev/null'
  head -c 4096 /dev/zero > "$full/filler" 2>/dev/null
  out=$(timeout 60 srun -Q -N1 -n1 env JOBSCREEN_PROFILE_DIR="$full" JOBSCREEN_STEP=0 JOBSCREEN_NODE=n \
    LD_PRELOAD="$PROF_LIB" "$PROG/io_known" "$base/w1" 2>&1; echo "rc=$?")
  is "$out" "rc=0" "a full spool: exit 0, nothing on stdout or stderr"
  is "$(ls -A "$full")" "filler" "no profile and no temporary file left on the full file system"
  umount "$full"
else
  skip "a full spool: exit 0, nothing on stdout or stderr" "cannot mount a tmpfs here"
  skip "no profile and no temporary file left on the full file system" "cannot mount a tmpfs here"
fi

# --- unwritable: root's 0700 directory, the job runs as jsalice ---
locked=$base/locked; mkdir -p "$locked"; chmod 700 "$locked"
work=$(work_dir jsalice)
out=$(cd "$work" && as_user jsalice timeout 60 srun -Q -N1 -n1 --chdir="$work" env JOBSCREEN_PROFILE_DIR="$locked" \
  JOBSCREEN_STEP=0 JOBSCREEN_NODE=n LD_PRELOAD="$PROF_LIB" "$PROG/io_known" "$work" 2>&1; echo "rc=$?")
is "$out" "rc=0" "an unwritable spool: exit 0, nothing on stdout or stderr"
is "$(ls -A "$locked" | wc -l)" 0 "nothing written into it"
ok $([ -f "$work/stdio.txt" ] && [ "$(stat -c %s "$work/stdio.txt")" = 203 ]; echo $?) "the program did all its work"

# --- exit status and stdout of a program pass through untouched ---
mkdir -p "$base/p"
out=$(prof_srun "$base/p" -N1 -n1 -- sh -c 'echo out; echo err >&2; exit 7' 2>"$base/err"; echo "rc=$?")
is "$out $(grep -c '^err$' "$base/err")" "out
rc=7 1" "a profiled shell's stdout, stderr and exit status 7 reach srun unchanged"
rm -rf "$base" "$base/p.ids"

# --- a record that cannot grow: a record quota of 64 KiB (the header and two chunks) ---
grow=$base/grow; mkdir -p "$grow" "$base/g"
python3 -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("<8sqqqq", b"JSQUOTA1", 65536, 0, 0, 0).ljust(4096, b"\0"))' \
  "$grow/.quota.n1"
out=$(timeout 60 srun -Q -N1 -n1 env JOBSCREEN_PROFILE_DIR="$grow" JOBSCREEN_STEP=0 JOBSCREEN_NODE=n1 JOBSCREEN_JOB_ID=1 \
  LD_PRELOAD="$PROF_LIB" bash -c 'for i in {1..600}; do : > "$0/f$i"; done; echo done' "$base/g" 2>&1; echo "rc=$?")
is "$out" "done
rc=0" "a record refused room to grow: the program runs as ever"
"$COLLECT" --final --each "$grow" 0 n1
p=$(ls "$grow"/0.n1.*.json)
is "$(jq -r '[.end, .exit_code, (.files | length) + .files_dropped, .files_dropped > 0, .totals.posix_open_calls >= 600] | @tsv' "$p")" \
   "$(printf 'exit\t0\t600\ttrue\ttrue')" \
   "its profile keeps its counts and how it ended; the files it had no room to list are counted as dropped (listed + dropped = 600)"
like "$(jq -r .missing "$p")" "(^|; )files and slices the record had no room for \\(refused room [0-9]+ times: a full record area or the job's record quota\\)$" \
   "and it says what it lacks, and why"
rm -rf "$grow" "$base/g"

# --- a collector stopped between its markers and its bundle ---
rec=$base/rec; mkdir -p "$rec"
for i in 1 2; do
  timeout 60 srun -Q -N1 -n1 env JOBSCREEN_PROFILE_DIR="$rec" JOBSCREEN_STEP=0 JOBSCREEN_NODE=n1 JOBSCREEN_JOB_ID=1 \
    LD_PRELOAD="$PROF_LIB" "$PROG/exit_now" "$base/x$i" >/dev/null 2>&1
done
a=$(ls "$rec" | sed -n 1p) b=$(ls "$rec" | sed -n 2p)
pid_of() { sed 's/^0\.n1\.\([0-9]*\).*/\1/' <<< "$1"; }
# a: marked for bundle 1, which never appeared; b: marked for bundle 2, which did (empty here)
mv "$rec/$a" "$rec/.$a.in-b1"; mv "$rec/$b" "$rec/.$b.in-b2"
echo '{"format":"jobscreen-profile-bundle","version":1,"profiles":[]}' > "$rec/0.n1.b2.json"
"$COLLECT" --final "$rec" 0 n1
is "$(ls -A "$rec" | grep -c '^\.')" 0 "the next collection leaves no marker"
is "$(bundle_json "$rec"/0.n1.b*.json | jq -s --argjson p "$(pid_of "$a")" '[.[].profiles[] | select(.pid == $p)] | length')" 1 \
   "the record marked for a bundle that never appeared is put back and bundled once"
is "$(bundle_json "$rec"/0.n1.b*.json | jq -s --argjson p "$(pid_of "$b")" '[.[].profiles[] | select(.pid == $p)] | length')" 0 \
   "the record marked for a bundle that exists is not bundled again"
# the relay took bundle 5 into the spool and left its tombstone before the markers went
rm -f "$rec"/0.n1.b*.json
timeout 60 srun -Q -N1 -n1 env JOBSCREEN_PROFILE_DIR="$rec" JOBSCREEN_STEP=0 JOBSCREEN_NODE=n1 JOBSCREEN_JOB_ID=1 \
  LD_PRELOAD="$PROF_LIB" "$PROG/exit_now" "$base/x3" >/dev/null 2>&1
c=$(ls "$rec" | grep '\.rec$')
mv "$rec/$c" "$rec/.$c.in-b5"; : > "$rec/.0.n1.b5.json.sent"
"$COLLECT" --final "$rec" 0 n1
is "$(ls -A "$rec" | tr '\n' ' ')" "" "a record marked for a bundle the relay took is not bundled again; the marker and the tombstone go"
done_testing
