#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The profiler counts a program's known POSIX and stdio I/O exactly, per process, per file and
# per slice, in a real srun step, and writes a profile that follows docs/profile-format.md.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/profiler/lib.sh"
plan 35
base=$(mktemp -d "$JS_SHARED_DIR"/js-prof30.XXXXXX); dir=$base/profiles; work=$base/work
mkdir -p "$dir" "$work"
prof_srun "$dir" -N1 -n1 -- "$PROG/io_known" "$work"
ok $? "io_known runs to exit 0 under the profiler in an srun step"
read -r job step node < "$dir.ids"
f=$(prof_one "$dir"); ok $? "exactly one profile for one process"
like "$(basename "$f")" "^$step\\.$node\\.[0-9]+\\.json$" "named <step>.<node>.<pid>.json"
pid=$(jq -r .pid "$f")
is "$(basename "$f")" "$step.$node.$pid.json" "the pid in the name is the pid in the profile"
is "$(find "$dir" -name '.*' | wc -l)" 0 "no temporary file is left behind"
is "$(stat -c %a "$f")" 600 "the profile is private to its owner (0600)"
version=$(sed -n 's/^#define JS_PROFILE_VERSION \([0-9]*\)$/\1/p' "$JS_TOP_SRCDIR/common/profile_format.h")
is "$(jq -r '[.format, .version, .job_id, .step, .node, .task_id, .origin, .end, .slice_seconds] | @tsv' "$f")" \
   "$(printf 'jobscreen-profile\t%s\t%s\t%s\t%s\t0\tstart\texit\t4' "$version" "$job" "$step" "$node")" \
   "format, version, the ids of the step, origin and end"
is "$(jq -r 'keys_unsorted | join(" ")' "$f")" "$(field_names | tr '\n' ' ' | sed 's/ $//')" \
   "top-level members are those of JS_PROFILE_FIELDS, in order"
is "$(jq -r '.slice_metrics | join(" ")' "$f")" "$(slice_col_names | tr '\n' ' ' | sed 's/ $//')" \
   "slice_metrics is JS_PROFILE_METRICS in order, then the kernel's counts (kernel_rchar, ...)"
is "$(jq -r '.totals | keys_unsorted | join(" ")' "$f")" "$(metric_names | tr '\n' ' ' | sed 's/ $//')" \
   "totals has every metric"
is "$(jq -c '.totals as $t | [$t.posix_read_calls, $t.posix_read_bytes, $t.posix_write_calls, $t.posix_write_bytes, $t.posix_open_calls, $t.posix_meta_calls, .sync_calls]' "$f")" \
   "[6,2174,13,2150,4,10,1]" "POSIX: 6 reads 2174 B, 13 writes 2150 B (copy_file_range as one of each), 4 opens, 10 metadata calls, the fsync a sync call (not metadata)"
is "$(jq -c '.totals | [.stdio_read_calls, .stdio_read_bytes, .stdio_write_calls, .stdio_write_bytes, .stdio_open_calls, .stdio_meta_calls]' "$f")" \
   "[2,198,7,203,2,2]" "stdio: 2 reads 198 B, 7 writes 203 B, 2 opens, 2 closes; not counted again as POSIX"
is "$(jq -c '.totals | [.mpi_send_calls, .mpi_coll_calls, .mpiio_read_calls, .lower_read_bytes, .lower_write_bytes]' "$f")" \
   "[0,0,0,0,0]" "no MPI and no lower-layer bytes in a POSIX program"
is "$(jq -c '[.files[] | [.path, .layer, .open_mode, .used_mode, .opens, .read_calls, .read_bytes, .write_calls, .write_bytes]]' "$f")" \
   "[[\"$work/posix.dat\",\"posix\",\"rw\",\"rw\",3,6,2174,12,1100],[\"$work/copy.dat\",\"posix\",\"w\",\"w\",1,0,0,1,1050],[\"$work/stdio.txt\",\"stdio\",\"rw\",\"rw\",2,2,198,7,203]]" \
   "the file list: each file once, at the layer it was opened with, exact counts"
is "$(jq -r '.files[0] | [.mount, .fstype] | @tsv' "$f")" "$(findmnt -n -o TARGET,FSTYPE -T "$work" | awk '{print $1 "\t" $2}')" \
   "mount point and file system type from mountinfo"
ino=$(stat -c %i "$work/stdio.txt")
is "$(jq -r '.files[2].ino' "$f")" "$ino" "device and inode of the file"
is "$(jq -r '.files_dropped' "$f")" 0 "no file dropped"
# the slices add up to the totals
is "$(jq -c '[range(0; 31) as $i | ([.slices[][$i + 1]] | add)] == [.totals[]][0:31]' "$f")" true \
   "the per-slice vectors add up to the totals, metric by metric (cpu_ns aside)"
is "$(jq -r '([.slices[][32]] | add) <= .totals.cpu_ns' "$f")" true \
   "slices hold at most the CPU time of the totals (quiet slices under 1 ms are left out)"
is "$(jq -r '[.slices[][0]] | (. == (sort | unique))' "$f")" true "slices ascend without repeats"
is "$(jq -r '(.slices[0][0] >= (.start_ns / 4e9 | floor)) and (.slices[-1][0] <= (.end_ns / 4e9 | floor))' "$f")" true \
   "slice indices lie within the process's wall-clock life"
s_ns=$(raw_num "$f" start_ns); e_ns=$(raw_num "$f" end_ns); w_ns=$(raw_num "$f" wall_ns); c_ns=$(raw_num "$f" compute_ns)
ok $(( w_ns == e_ns - s_ns && c_ns <= w_ns ? 0 : 1 )) "wall time and runtime share are consistent"
# paths beyond read/write (issue 15): pwritev64v2/preadv64v2, __dprintf_chk, fcntl64(F_DUPFD), splice
pdir=$base/paths; mkdir -p "$pdir" "$work/paths"
prof_srun "$pdir" -N1 -n1 -- "$PROG/io_paths" "$work/paths"
ok $? "io_paths runs to exit 0 under the profiler"
g=$(prof_one "$pdir")
is "$(jq -c --arg w "$work/paths/" '[.files[] | [(.path | ltrimstr($w)), .read_bytes, .write_bytes]] | sort' "$g")" \
   '[["dprintf.txt",0,50],["dup.dat",0,7],["splice.in",64,64],["splice.out",0,64],["v2.dat",100,100]]' \
   "each file with its bytes: preadv64v2/pwritev64v2, dprintf, a write through an fcntl(F_DUPFD) copy, splice in and out"
is "$(jq -c '.totals | [.posix_read_bytes, .posix_write_bytes]' "$g")" "[228,349]" \
   "and in the totals, the pipe's side of each splice too (as a read or write on a pipe counts): 100 + 64 + 64 B read, 100 + 50 + 7 + 64 + 64 + 64 B written"
# asynchronous and other paths (issue 15): libaio, POSIX AIO, liburing, raw io_uring through
# syscall(), wide and _unlocked stdio, fscanf, mmap, openat2 through syscall(), an fd inherited
# across exec (tests/profiler/io_async.c has the known numbers)
adir=$base/async; mkdir -p "$adir" "$work/async"
prof_srun "$adir" -N1 -n1 -- "$PROG/io_async" "$work/async"
ok $? "io_async runs to exit 0 under the profiler (and execs itself once)"
main=$(jq -r 'select(.end == "exec") | input_filename' "$adir"/*.json 2>/dev/null | head -1)
child=$(jq -r 'select(.end == "exit") | input_filename' "$adir"/*.json 2>/dev/null | head -1)
is "$(jq -c --arg w "$work/async/" '[.files[] | [(.path | ltrimstr($w)), .opens, .read_calls, .read_bytes, .write_calls, .write_bytes]]' "$main")" \
   '[["aio.dat",1,1,4096,2,8192],["paio.dat",1,1,3000,2,4000],["uring.dat",1,1,8192,2,16384],["raw.dat",1,1,512,1,512],["wide.txt",1,1,12,3,12],["unl.txt",1,3,7,3,8],["scan.txt",1,1,5,1,10],["map.dat",1,0,0,0,0],["o2.dat",1,0,0,1,6],["inh.dat",1,0,0,0,0]]' \
   "each file with its exact calls and bytes: io_submit, aio_*/aio_return, liburing, raw io_uring, wide and _unlocked stdio, fscanf, mmap, openat2"
is "$(jq -c '.totals as $t | [$t.posix_read_calls, $t.posix_read_bytes, $t.posix_write_calls, $t.posix_write_bytes, $t.posix_open_calls, $t.posix_meta_calls, .sync_calls]' "$main")" \
   "[4,15800,8,29094,7,10,1]" "POSIX totals: the asynchronous requests as reads and writes, openat2 as an open, mmap as metadata, msync a sync call"
is "$(jq -c '.totals | [.stdio_read_calls, .stdio_read_bytes, .stdio_write_calls, .stdio_write_bytes, .stdio_open_calls, .stdio_meta_calls]' "$main")" \
   "[5,24,7,30,3,3]" "stdio totals: wide characters one byte each, fscanf's bytes taken from the stream"
is "$(jq -r --arg p "$work/async/map.dat" '.files[] | select(.path == $p) | .mapped_bytes' "$main")" 8192 \
   "map.dat's mapped_bytes is the 8192 B mapped"
is "$(jq -c --arg p "$work/async/inh.dat" '[.files[] | select(.path == $p) | [.opens, .open_mode, .write_calls, .write_bytes]]' "$child")" \
   '[[0,"w",1,11]]' "the exec'd image writes through fd 17, never opened by it: looked up at its first use, 11 B attributed, 0 opens"
# fio, its own report as the reference: 32 MiB written then read per engine (issue 15)
if command -v fio >/dev/null 2>&1; then
  fdir=$base/fio; mkdir -p "$fdir" "$work/fio"
  fails=""
  for eng in sync psync pvsync2 libaio io_uring posixaio mmap; do
    d=$fdir/$eng; mkdir -p "$d"
    rm -f "$work/fio/$eng.dat"
    prof_srun "$d" -N1 -n1 -- fio --name=w --filename="$work/fio/$eng.dat" --ioengine="$eng" --size=32m --bs=64k \
      --rw=write --direct=0 --name=r --stonewall --filename="$work/fio/$eng.dat" --ioengine="$eng" --size=32m --bs=64k \
      --rw=read --direct=0 --output-format=json --output="$d.json" >/dev/null 2>&1 || fails="$fails $eng:rc"
    want=$(jq -c '[(.jobs[] | select(.jobname == "r") | .read.io_bytes), (.jobs[] | select(.jobname == "w") | .write.io_bytes), (.jobs[] | select(.jobname == "r") | .read.total_ios), (.jobs[] | select(.jobname == "w") | .write.total_ios)]' "$d.json" 2>/dev/null)
    if [ "$eng" = mmap ]; then
      got=$(jq -s -c --arg p "$work/fio/$eng.dat" '[.[] | .files[] | select(.path == $p)] | [length > 0, (map(.mapped_bytes // 0) | add)]' "$d"/*.json)
      [ "$got" = "[true,67108864]" ] || fails="$fails mmap:$got" # its two jobs map the 32 MiB file each
    else
      got=$(jq -s -c --arg p "$work/fio/$eng.dat" '[.[] | .files[] | select(.path == $p)] | [(map(.read_bytes) | add), (map(.write_bytes) | add), (map(.read_calls) | add), (map(.write_calls) | add)]' "$d"/*.json)
      [ "$got" = "$want" ] && [ "$want" = "[33554432,33554432,512,512]" ] || fails="$fails $eng:got=$got,fio=$want"
    fi
  done
  is "$fails" "" "fio (sync, psync, pvsync2, libaio, io_uring, posixaio): the file's bytes and calls in the profiles are fio's io_bytes and total_ios (32 MiB, 512 x 64 KiB each way); mmap: the file's mapped_bytes, 32 MiB per job"
else
  skip "fio's engines against its own report" "fio is not installed (tests/install-deps)"
fi
# a shell's redirection: the shell opens redir.dat, the program it execs writes through fd 1
rdir=$base/redir; mkdir -p "$rdir"
prof_srun "$rdir" -N1 -n1 -- sh -c 'head -c 1000 /dev/zero > "$0"/redir.dat' "$work"
ok $? "sh -c 'head -c 1000 /dev/zero > redir.dat' runs under the profiler"
is "$(jq -c -s --arg p "$work/redir.dat" '[.[] | select(.exe | endswith("/head")) | .files[] | select(.path == $p) | [.opens, .open_mode, .write_bytes]]' "$rdir"/*.json)" \
   '[[0,"w",1000]]' "head's profile lists the file its inherited stdout was open on: 1000 B written, not opened by it"
# JOBSCREEN_PROFILE_DIR absent: nothing is recorded, the program runs as always
mkdir "$work/again"
out=$(timeout 60 srun -Q -N1 -n1 env -u JOBSCREEN_PROFILE_DIR LD_PRELOAD="$PROF_LIB" "$PROG/io_known" "$work/again" 2>&1; echo "rc=$?")
is "$out" "rc=0" "without JOBSCREEN_PROFILE_DIR the library records nothing and says nothing"
rm -rf "$base" "$dir.ids"
done_testing
