#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A 2-rank MPI program under srun --mpi=pmix: exact point-to-point and collective counts and
# bytes per rank through PMPI, and MPI's own POSIX traffic kept out of the application's.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/profiler/lib.sh"
[ "$JS_HAVE_MPI" = yes ] || skip_all "built without MPI"
plan 10
base=$(mktemp -d "$JS_SHARED_DIR"/js-prof33.XXXXXX); dir=$base/p; mkdir -p "$dir"
prof_srun "$dir" -N1 -n2 --mpi=pmix -- "$PROG/mpi_pingpong"
ok $? "mpi_pingpong runs on 2 ranks under srun --mpi=pmix with the profiler"
is "$(find "$dir" -name '*.json' | wc -l)" 2 "one profile per rank"
r0=$(jq -r 'select(.mpi_rank == 0) | input_filename' "$dir"/*.json)
r1=$(jq -r 'select(.mpi_rank == 1) | input_filename' "$dir"/*.json)
is "$(jq -r '[.task_id, .mpi_rank, .mpi_size] | @tsv' "$r0" "$r1" | tr '\n' ' ')" "$(printf '0\t0\t2 1\t1\t2 ')" \
   "task ids, ranks and size of MPI_COMM_WORLD"
p2p='.totals | [.mpi_send_calls, .mpi_send_bytes, .mpi_recv_calls, .mpi_recv_bytes]'
is "$(jq -c "$p2p" "$r0")" "[10,40000,5,4000]" "rank 0: 10 sends of 4000 B, 5 receives of 800 B"
is "$(jq -c "$p2p" "$r1")" "[5,4000,10,40000]" "rank 1: 5 sends of 800 B, 10 receives of 4000 B"
is "$(jq -c '.totals | [.mpi_coll_calls, .mpi_coll_bytes]' "$r0" "$r1" | tr '\n' ' ')" "[6,48] [6,48] " \
   "each rank: 6 collectives, 48 B"
is "$(jq -c '.mpi_collectives | [.barrier.calls, .barrier.bytes, .allreduce.calls, .allreduce.bytes, .bcast.calls, .bcast.bytes]' "$r0")" \
   "[3,0,2,32,1,16]" "collectives split by kind: 3 barriers, 2 allreduce (32 B), 1 bcast (16 B)"
is "$(jq -r '(.totals.mpi_p2p_ns > 0) and (.totals.mpi_coll_ns > 0) and (.runtime.mpi_p2p_ns == .totals.mpi_p2p_ns)' "$r0")" true \
   "time in MPI is measured and appears in the runtime share"
is "$(jq -c '.totals | [.posix_read_calls, .posix_write_calls, .posix_open_calls, .stdio_write_calls]' "$r0" "$r1" | tr '\n' ' ')" \
   "[0,0,0,0] [0,0,0,0] " "MPI's own pipes, sockets and files are not the application's POSIX I/O"
is "$(jq -r '[(.files | length), (.totals.lower_read_bytes + .totals.lower_write_bytes > 0)] | @tsv' "$r0")" "$(printf '0\ttrue')" \
   "they count as MPI's lower layer instead, and stay out of the file list"
rm -rf "$base" "$dir.ids"
done_testing
