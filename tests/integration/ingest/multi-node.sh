#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Steps that span nodes and jobs that share them, through the ingest into the js.* views:
# a 3-node MPI step gives one step-node row per node and slices aligned across its nodes; a
# node-local /tmp/x written on three nodes is three files, a file in the shared directory one;
# jsalice's and jsbob's jobs on overlapping nodes are each other's "same nodes" background,
# and a job on a node neither uses is in the whole-cluster background only.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
[ "${JS_HAVE_MPI:-no}" = yes ] || skip_all "built without MPI (no mpicc)"
[ "$(wc -w <<< "$JS_NODES")" -ge 4 ] || skip_all "needs a cluster of 4 nodes or more (JS_CLUSTER_NODES)"
plan 11
alice=$(work_dir jsalice) bob=$(work_dir jsbob)
sub() { local u=$1 w=$2; shift 2; (cd "$w" && as_user "$u" sbatch --parsable --chdir="$w" -o out.txt "$@"); }

# --- a 3-node MPI step: every rank reduces for 9 s, writes node-local /tmp/x and its line of a shared file ---
cat > "$alice/span.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    int rank, sum = 0, one = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 180; i++, usleep(50000)) /* the same count on every rank: 9 s */
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    FILE *f = fopen("/tmp/x", "w");
    fprintf(f, "rank %d\n", rank);
    fclose(f);
    f = fopen(argv[1], "a");
    fprintf(f, "rank %d of sum %d\n", rank, sum);
    fclose(f);
    MPI_Finalize();
    return 0;
}
C
mpicc -o "$alice/span" "$alice/span.c" && chown jsalice "$alice/span" "$alice/span.c"
span=$(sub jsalice "$alice" -N3 -n3 -J span --wrap "srun --mpi=pmix ./span $alice/shared.txt")
# --- beside it: bob's I/O on two nodes, one of them alice's; a job on the fourth node ---
nodes=($JS_NODES)
for i in $(seq 100); do [ -n "$(job_nodes "$span")" ] && break; sleep 0.1; done
mapfile -t sn < <(job_nodes "$span")
free=$(for n in "${nodes[@]}"; do grep -qxF "$n" < <(printf '%s\n' "${sn[@]}") || echo "$n"; done | head -n 1)
io='for i in $(seq 40); do dd if=/dev/zero of=io.$SLURM_PROCID bs=64k count=16 conv=fsync 2>/dev/null; sleep 0.2; done'
bobj=$(sub jsbob "$bob" -N2 -n2 -w "${sn[2]},$free" -J beside --wrap "srun bash -c '$io'")
far=$(sub jsbob "$bob" -N1 -n1 -w "$free" -J far --wrap "srun bash -c '$io'")
for j in "$span" "$bobj" "$far"; do wait_job_done "$j" 120 >/dev/null; done
is "$(job_state "$span") $(job_state "$bobj") $(job_state "$far")" "COMPLETED COMPLETED COMPLETED" \
   "the 3-node MPI job and bob's two jobs beside it complete"
is "$(sort "$alice/shared.txt" | tr '\n' ';')" "rank 0 of sum 3;rank 1 of sum 3;rank 2 of sum 3;" "the ranks reduced across the nodes"

spool=$(mktemp -d "$JS_CLUSTER_DIR/spool54.XXXXXX"); chmod 711 "$spool"
for j in "$span" "$bobj" "$far"; do
  for n in $(job_nodes "$j"); do wait_file "$(job_dir "$j")/step.0.$n.json"; done
  cp -a "$(job_dir "$j")" "$spool/"
done
DB=js_t54
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
# here the shared directory is on the one ext4 every node sees: a shared file system
"$INGEST" --migrate --db "$JS_PG_CONNINFO dbname=$DB" 2>>"$spool.log" &&
  "$INGEST" --once --spool "$spool" --db "$JS_PG_CONNINFO dbname=$DB" --quarantine "$spool.quarantine" \
    --set job_grace_seconds=0 --set "shared_fs=$JS_SHARED_FS" 2>>"$spool.log"
ok $? "the ingest loads the three jobs"

is "$(q "SELECT string_agg(node, ' ' ORDER BY node) FROM js.step_nodes WHERE job_id = $span AND step_id = '0'")" \
   "$(printf '%s\n' "${sn[@]}" | sort | tr '\n' ' ' | sed 's/ $//')" "the MPI step: one step-node row per node"
is "$(q "SELECT num_nodes || ' ' || nodes_ingested || ' ' || processes || ' ' || incomplete FROM js.steps WHERE job_id = $span AND step_id = '0'")" \
   "3 3 3 false" "js.steps: three nodes, all ingested, a process each, complete"
# slices are numbered by the cluster's clock: the nodes' series line up slice by slice
is "$(q "SELECT count(*) FILTER (WHERE nodes <> 3) || ' ' || (count(*) >= 2) FROM
          (SELECT slice, count(DISTINCT node) AS nodes FROM js.step_node_slices
           WHERE job_id = $span AND step_id = '0' AND mpi_coll_calls > 0 GROUP BY slice) s")" "0 true" \
   "every slice with collectives has all three nodes in it (slices aligned across the nodes), and there are several"
is "$(q "SELECT count(*) || ' ' || count(DISTINCT file_node) || ' ' || bool_and(scope = 'local') FROM js.file_accesses
          WHERE job_id = $span AND path = '/tmp/x'")" "3 3 true" "/tmp/x written on three nodes: three node-local files"
is "$(q "SELECT count(DISTINCT file_id) || ' ' || count(*) || ' ' || min(scope) FROM js.file_accesses
          WHERE job_id = $span AND path = '$alice/shared.txt'")" "1 3 shared" "the shared file: one file, written from three nodes"

# the background: bob's job on one of alice's nodes is in her "same nodes" background; the far job is not
bg() { q "SELECT coalesce(sum(bg_posix_write_bytes), 0) > 0 FROM js.step_background_$1 WHERE job_id = $2 AND step_id = '0'"; }
is "$(bg nodes "$span") $(bg cluster "$span")" "t t" "alice's MPI step: bob's writes on a node it shares are in its same-nodes and cluster backgrounds"
is "$(bg nodes "$bobj")" "t" "and hers in his (slices where both ran)"
is "$(q "SELECT (SELECT sum(bg_posix_write_bytes) FROM js.step_background_cluster WHERE job_id = $span AND step_id = '0') >
                (SELECT sum(bg_posix_write_bytes) FROM js.step_background_nodes WHERE job_id = $span AND step_id = '0')")" "t" \
   "the writes on $free, a node alice did not use, are in her cluster background only"
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $DB" >/dev/null
rm -rf "$spool" "$spool.log" "$spool.quarantine" "$alice" "$bob"
done_testing
