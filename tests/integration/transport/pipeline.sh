#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The cluster's pipeline as a site runs it (tests/cluster up: node-local spools, a
# jobscreen-send daemon per node, the receiver behind lighttpd, the ingest daemon on the received
# spool): a batch job on three nodes and an srun-only job on two reach JS_DB with nothing run
# by hand, every step on every node it ran on, with final job records (the job epilog's joblog
# writes one on every node); then nothing of them is left in any node's spool (the nodes that
# ran no batch step included) or in the received spool, and no sender has a backlog.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
[ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ] || skip_all "the cluster runs without its pipeline (transport/ or profile_ingest not built)"
[ "$(wc -w <<< "$JS_NODES")" -ge 3 ] || skip_all "needs a cluster of 3 nodes or more"
profiler_on || skip_all "the cluster's plugstack.conf names no profiler"
SEND=$JS_TOP_BUILDDIR/transport/jobscreen-send
plan 8
q() { psql -X -q -At -F' ' -d "$JS_DB" -c "$1"; }
w=$(work_dir jsalice)

t0=$(date +%s)
batch=$(cd "$w" && as_user jsalice sbatch --parsable --chdir="$w" -o /dev/null -N3 -n3 -J pipe3 \
  --wrap "srun bash -c 'dd if=/dev/zero of=out.\$SLURM_PROCID bs=64k count=4 conv=fsync status=none'")
only=$(cd "$w" && as_user jsalice srun -N2 -n2 -J pipe2 bash -c 'echo $SLURM_JOB_ID; cat /etc/hostname >/dev/null' | head -n 1)
like "$only" '^[0-9]+$' "an srun-only job on two nodes ran"
is "$(wait_job_done "$batch" 120)" COMPLETED "the batch job on three nodes completed"
wait_pipeline 90 "$batch" "$only"
ok $? "both jobs reached JS_DB within $(( $(date +%s) - t0 )) s of their submission, and left no directory in any spool"

is "$(q "SELECT step_id || ':' || string_agg(node, ',' ORDER BY node) FROM js.step_nodes WHERE job_id = $batch GROUP BY step_id ORDER BY step_id" | tr '\n' ' ')" \
   "0:$(job_nodes "$batch" | sort | paste -sd,) batch:$(job_node "$batch") " \
   "the batch job: step 0 on each of its three nodes, the batch step on the first"
is "$(q "SELECT sum(posix_write_bytes) FROM js.processes WHERE job_id = $batch AND step_id = '0'")" $((3 * 4 * 65536)) \
   "the bytes each rank wrote, from every node"
is "$(q "SELECT state || ' ' || final || ' ' || (end_time IS NOT NULL) FROM js.jobs WHERE job_id = $only")|$(q "SELECT count(*) FROM js.step_nodes WHERE job_id = $only")" \
   "COMPLETED true true|2" "the srun-only job: final and COMPLETED with its end (the epilog's joblog), its step on both nodes"

backlog=$(for n in $JS_NODES; do "$SEND" --status --spool "$JS_SPOOL_DIR/$n"; done | sort -u)
is "$backlog" "backlog: 0 parcels waiting, oldest 0 s" "no node's sender has anything waiting"
is "$(q "SELECT count(*) FROM js.quarantine WHERE job_id IN ($batch, $only)")" 0 "nothing was quarantined"
done_testing
