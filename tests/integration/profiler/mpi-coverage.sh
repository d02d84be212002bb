#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# MPI coverage (issue 15): Fortran (use mpi, mpif.h, mpi_f08) counted like C; non-blocking
# point-to-point, collectives and MPI-IO counted, with the time of their waits booked to the
# class of the requests completed; MPI_Init/MPI_Finalize not collectives; and the profiler stacked
# with another PMPI tool (the classic kind and Darshan's) in either preload order, both seeing
# every call. 2 nodes x 2 ranks (pairs 0-1 and 2-3 across the ranks), exact counts.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/profiler/lib.sh"
[ "$JS_HAVE_MPI" = yes ] || skip_all "built without MPI"
plan 56
base=$(mktemp -d "$JS_SHARED_DIR"/js-prof33b.XXXXXX)
at_exit 'rm -rf "$base"'
# All the "nodes" of the test cluster are one machine under one host name, each with its own /tmp:
# Open MPI takes ranks on two of them for neighbours and its shared-memory transport (vader)
# crashes or hangs between them. TCP it is, as between real nodes.
export OMPI_MCA_btl=self,tcp
TOOL=$JS_TOP_BUILDDIR/tests/profiler/.libs/libpmpi_tool.so
TOOL_DL=$JS_TOP_BUILDDIR/tests/profiler/.libs/libpmpi_tool_dl.so

# ranks DIR EXPR: EXPR of each profile in DIR, in rank order, as one JSON array
ranks() { jq -s -c "sort_by(.mpi_rank) | map($2)" "$1"/*.json; }
# run NAME [srun options] -- PROGRAM ARGS: a profiled step into $base/NAME (4 ranks on 2 nodes by default)
run() {
  local d=$base/$1; shift; mkdir -p "$d"
  if [ "$1" = -- ]; then prof_srun "$d" -N2 -n4 --ntasks-per-node=2 --mpi=pmix "$@"; else prof_srun "$d" "$@"; fi
}
p2p='.totals | [.mpi_send_calls, .mpi_send_bytes, .mpi_recv_calls, .mpi_recv_bytes]'
even_odd4='[[10,40000,5,4000],[5,4000,10,40000],[10,40000,5,4000],[5,4000,10,40000]]'
setup_checked=no
# check_setup DIR: once, when jobscreen-collect writes runtime.mpi_setup_ns, it is > 0 on every rank
check_setup() {
  [ $setup_checked = no ] || return 0
  setup_checked=yes
  if [ "$(jq -s -r 'all(.runtime | has("mpi_setup_ns"))' "$1"/*.json)" = true ]; then
    is "$(ranks "$1" '.runtime.mpi_setup_ns > 0')" "[true,true,true,true]" \
       "runtime.mpi_setup_ns: the time of MPI_Init and MPI_Finalize, > 0 on every rank"
  else
    skip "runtime.mpi_setup_ns > 0 on every rank" "jobscreen-collect does not write mpi_setup_ns yet"
  fi
}

# --- Fortran: one source built with use mpi, use mpi_f08 and include 'mpif.h' (6 tests each) ---
for v in mpi_fortran mpi_fortran_f08 mpi_fortran_mpifh; do
  if [ "${JS_HAVE_MPI_FORTRAN:-no}" != yes ]; then
    for k in 1 2 3 4 5 6; do skip "$v: Fortran test $k" "no mpifort (configure: Fortran MPI tests)"; done
    continue
  fi
  run "$v" -- "$PROG/$v" "$base/$v.data"
  ok $? "$v runs on 4 ranks over 2 nodes under srun --mpi=pmix with the profiler"
  d=$base/$v
  is "$(ranks "$d" '[.mpi_rank, .mpi_size]')" "[[0,4],[1,4],[2,4],[3,4]]" "$v: four profiles, ranks 0-3 of 4"
  is "$(ranks "$d" "$p2p")" "$even_odd4" \
     "$v: point-to-point calls and bytes (even: 10 sends of 4000 B, 5 receives of 800 B; odd the reverse)"
  is "$(ranks "$d" '[.totals.mpi_coll_calls, .totals.mpi_coll_bytes, (.mpi_collectives | [.barrier.calls, .barrier.bytes, .allreduce.calls, .allreduce.bytes, .bcast.calls, .bcast.bytes])] | flatten' | jq -c unique)" \
     "[[6,48,3,0,2,32,1,16]]" "$v: 6 collectives, 48 B on every rank: 3 barriers, 2 allreduce (32 B), 1 bcast (16 B)"
  is "$(ranks "$d" '.totals | [.mpiio_write_calls, .mpiio_write_bytes, .mpiio_read_calls, .mpiio_read_bytes, .mpiio_coll_calls, .mpiio_meta_calls]' | jq -c unique)" \
     "[[1,4000,1,4000,1,2]]" "$v: MPI-IO on every rank: a write_at of 4000 B, a read_at_all of 4000 B, open and close"
  is "$(ranks "$d" '[(.files | map([.path, .layer])), (.totals | [.posix_read_calls, .posix_write_calls, .posix_open_calls, .stdio_write_calls])]' | jq -c unique)" \
     "[[[[\"$base/$v.data\",\"mpiio\"]],[0,0,0,0]]]" \
     "$v: the data file alone is listed (mpiio), as the C run lists none of Open MPI's files; no POSIX or stdio I/O of the application"
done

# --- non-blocking, and MPI_Init/MPI_Finalize ---
run barriers -- "$PROG/mpi_nonblocking" barriers
ok $? "mpi_nonblocking barriers runs"
is "$(ranks "$base/barriers" '[.totals.mpi_coll_calls, .mpi_collectives.barrier.calls, (.mpi_collectives | keys)]' | jq -c unique)" \
   '[[3,3,["barrier"]]]' "exactly 3 barriers: mpi_coll_calls 3 (MPI_Init and MPI_Finalize are no collectives)"
is "$(ranks "$base/barriers" '((.totals.mpi_coll_ns - .mpi_collectives.barrier.ns) | fabs) < 1000' | jq -c unique)" '[true]' \
   "mpi_coll_ns is the barriers' time alone: MPI_Init and MPI_Finalize's time is not in it"
check_setup "$base/barriers"

run iallreduce -- "$PROG/mpi_nonblocking" iallreduce
ok $? "mpi_nonblocking iallreduce runs"
is "$(ranks "$base/iallreduce" '[.totals.mpi_coll_calls, .totals.mpi_coll_bytes, .mpi_collectives.allreduce.calls, .mpi_collectives.allreduce.bytes, .totals.mpi_send_calls, .totals.mpi_recv_calls, .totals.mpi_p2p_ns]' | jq -c unique)" \
   '[[1,16,1,16,0,0,0]]' "MPI_Iallreduce counted as an allreduce of 16 B; no point-to-point calls and no point-to-point time"
is "$(ranks "$base/iallreduce" '[.totals.mpi_coll_ns >= 250000000, .mpi_collectives.allreduce.ns >= 250000000] | all')" \
   '[false,true,true,true]' "ranks 1-3 wait >= 250 ms in MPI_Wait for rank 0: collective (allreduce) time"

run p2p -- "$PROG/mpi_nonblocking" p2p
ok $? "mpi_nonblocking p2p runs"
is "$(ranks "$base/p2p" "$p2p")" '[[4,1500,0,0],[0,0,4,1500],[4,1500,0,0],[0,0,4,1500]]' \
   "MPI_Isend, Issend, Ibsend, Irsend: 4 sends of 1500 B; the 4 MPI_Irecv: 4 receives of 1500 B"
is "$(ranks "$base/p2p" '[.totals.mpi_coll_calls, .mpi_collectives.barrier.calls, .totals.mpi_p2p_ns > 0]' | jq -c unique)" \
   '[[1,1,true]]' "the one barrier is the only collective; MPI_Waitall's time is point-to-point"

run coll -- "$PROG/mpi_nonblocking" coll
ok $? "mpi_nonblocking coll runs"
is "$(ranks "$base/coll" '.mpi_collectives | to_entries | map("\(.key):\(.value.calls)/\(.value.bytes)") | join(" ")' | jq -c unique)" \
   '["barrier:1/0 bcast:1/16 reduce:1/16 allreduce:1/16 gather:1/8 allgather:1/8 scatter:1/8 alltoall:1/16 reduce_scatter:2/32 other:2/32"]' \
   "every non-blocking collective counted by kind, with its bytes"
is "$(ranks "$base/coll" '[.totals.mpi_coll_calls, .totals.mpi_coll_bytes]' | jq -c unique)" '[[12,152]]' "12 collectives, 152 B"
is "$(ranks "$base/coll" '[.totals.mpi_send_calls + .totals.mpi_recv_calls, .totals.mpi_p2p_ns, .totals.mpi_coll_ns > 0]' | jq -c unique)" \
   '[[0,0,true]]' "MPI_Wait, MPI_Test and MPI_Waitall on collective requests: collective time, no point-to-point time"

run io -- "$PROG/mpi_nonblocking" io "$base/io.data"
ok $? "mpi_nonblocking io runs"
is "$(ranks "$base/io" '.totals | [.mpiio_write_calls, .mpiio_write_bytes, .mpiio_read_calls, .mpiio_read_bytes, .mpiio_coll_calls, .mpiio_meta_calls]' | jq -c unique)" \
   '[[3,1200,3,1200,2,4]]' "MPI_File_iwrite_at, iwrite_at_all, iwrite and the three reads: 3 + 3 calls of 400 B, 2 collective; open, 2 seeks, close"
is "$(ranks "$base/io" '[.totals.mpi_coll_calls, .totals.mpi_coll_ns, .totals.mpi_p2p_ns, .totals.mpi_send_calls, .totals.mpiio_ns > 0]' | jq -c unique)" \
   '[[0,0,0,0,true]]' "their waits are MPI-IO time; the collectives MPI_File_open makes inside are not the application's"
is "$(ranks "$base/io" '.files | map([.path, .layer, .read_calls, .read_bytes, .write_calls, .write_bytes])' | jq -c unique)" \
   "[[[\"$base/io.data\",\"mpiio\",3,1200,3,1200]]]" "the file lists the non-blocking reads and writes"

# --- stacking with another PMPI tool, in both preload orders (mpi_pingpong: 2 ranks, 2 nodes) ---
tool_want() { # the tool's counts of rank $1 of mpi_pingpong (or mpi_fortran on 2 ranks)
  if [ "$1" = 0 ]; then echo "Finalize 1 Init 1 Send 10 Recv 5 Barrier 3 Allreduce 2 Bcast 1"
  else echo "Finalize 1 Init 1 Send 5 Recv 10 Barrier 3 Allreduce 2 Bcast 1"; fi
}
stack() { # stack NAME TOOL ORDER PROGRAM: 3 tests
  local name=$1 tool=$2 order=$3 prog=$4 d=$base/$1 lib=$PROF_LIB
  [ -e "$tool" ] || bail "no PMPI tool at $tool"
  if [ "$order" = first ]; then lib="$tool:$PROF_LIB"; else lib="$PROF_LIB:$tool"; fi
  mkdir -p "$d"
  PROF_LIB=$lib PMPI_TOOL_OUT=$base/$name.tool prof_srun "$d" -N2 -n2 --mpi=pmix -- "$prog" "$base/$name.data"
  ok $? "$name: runs with LD_PRELOAD=$(basename "${lib%%:*}"):$(basename "${lib##*:}")"
  is "$(tr '\n' ' ' < "$base/$name.tool.0")/ $(tr '\n' ' ' < "$base/$name.tool.1")" "$(tool_want 0) / $(tool_want 1) " \
     "$name: the tool saw every call, exactly"
  is "$(ranks "$d" "[($p2p), .totals.mpi_coll_calls, .totals.mpi_coll_bytes, .mpi_collectives.barrier.calls, .mpi_collectives.allreduce.calls, .mpi_collectives.bcast.calls]")" \
     "[[[10,40000,5,4000],6,48,3,2,1],[[5,4000,10,40000],6,48,3,2,1]]" "$name: the profiler saw every call, exactly"
}
stack classic-after "$TOOL" last "$PROG/mpi_pingpong"
is "$(ranks "$base/classic-after" '[(.files | length), .totals.stdio_write_calls]' | jq -c unique)" '[[0,0]]' \
   "classic-after: the tool's output, written inside our MPI_Finalize, is MPI's lower layer, not the application's"
stack classic-before "$TOOL" first "$PROG/mpi_pingpong"
is "$(ranks "$base/classic-before" '.files | map(.path)')" "[[\"$base/classic-before.tool.0\"],[\"$base/classic-before.tool.1\"]]" \
   "classic-before: the tool's output, written before it calls PMPI_Finalize, is seen as the application's (documented)"
stack darshanlike-after "$TOOL_DL" last "$PROG/mpi_pingpong"
stack darshanlike-before "$TOOL_DL" first "$PROG/mpi_pingpong"
if [ "${JS_HAVE_MPI_FORTRAN:-no}" = yes ]; then
  stack fortran-darshanlike-after "$TOOL_DL" last "$PROG/mpi_fortran"
  stack fortran-darshanlike-before "$TOOL_DL" first "$PROG/mpi_fortran"
else
  for k in 1 2 3 4 5 6; do skip "Fortran under a PMPI tool $k" "no mpifort"; done
fi
done_testing
