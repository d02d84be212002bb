#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The per-slice series (js_data.series_* of sql/migrations/033_base.sql, common/series.h) on a
# synthetic cluster's real spool
# (bench/gen/jsgen: MPI, I/O bursts, arrays, 1-8 nodes per step, 4 processes per node):
# - what the ingest wrote decodes to the slices it read, and the C fold's step, node and
#   cluster series are exactly the sums of those slices;
# - the SQL fold (js_data.rollup_totals) writes the same bytes as the C fold, which runs clean
#   under valgrind.
# (A database of the shape before the series, migrations up to 024, is older than the squashed
# base 033 and refused by --migrate: tests/integration/ingest/schema.sh.)
# (How compact the series are is bench/run scale's figure.)
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
bin=$JS_TOP_BUILDDIR/profile_ingest/profile_ingest
gen=$JS_TOP_BUILDDIR/bench/gen/jsgen
[ -x "$bin" ] && [ -x "$gen" ] || bail "build first"
plan 9

db=js_series
work=$(mktemp -d "$JS_CLUSTER_DIR/series.XXXXXX")
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" -c "$1"; }
metrics=$(echo "@metrics{{m}}{, }@" | "$JS_TOP_BUILDDIR/sql/tools/expand-metrics")
sums=$(sed -E 's/([a-z0-9_]+)/sum(\1)::bigint AS \1/g' <<< "$metrics")

dropdb --if-exists "$db" 2>/dev/null; createdb "$db"
"$bin" --migrate --db "$JS_PG_CONNINFO dbname=$db" --log-level warn 2>/dev/null
"$gen" --out "$work/spool" --nodes 24 --hours 1 --ppn 4 --seed 7 > "$work/gen.out"
rows=$(awk '$1 == "slice_rows:" { print $2 }' "$work/gen.out")
"$bin" --once --spool "$work/spool" --db "$JS_PG_CONNINFO dbname=$db" --log-level warn 2> "$work/ingest.log"
is "$(q "SELECT count(*) FROM js_data.slice_metrics")|$(q "SELECT count(*) FROM js_data.totals_pending")" "$rows|0" \
   "the ingest's series decode to every slice row jsgen wrote ($rows), and all are folded"
# the fold writes its totals with the tables' compression (its temporary tables once made them pglz)
is "$(q "SELECT count(*) FILTER (WHERE c = 'pglz') || '|' || (count(*) FILTER (WHERE c = 'lz4') > 0)
         FROM (SELECT pg_column_compression(cpu_ns) c FROM js_data.series_step
               UNION ALL SELECT pg_column_compression(cpu_ns) FROM js_data.series_node
               UNION ALL SELECT pg_column_compression(cpu_ns) FROM js_data.series_cluster) x")" "0|true" \
   "the step, node and cluster totals are lz4 as their tables say, none pglz"
# the daemon analyses a young database once it has 64 step records of its own
records=$(awk '$1 == "step_nodes:" { print $2 }' "$work/gen.out")
is "$( [ "$records" -ge 64 ] && echo big)|$(q "SELECT count(*) FROM pg_stat_user_tables WHERE schemaname = 'js_data'
         AND relname IN ('jobs', 'files', 'file_accesses', 'dependencies') AND last_analyze IS NOT NULL")" "big|4" \
   "after $records step records the ingest has run ANALYZE on the tables its functions plan on"

# the C fold's totals against the sums of the decoded step-node slices, in SQL
is "$(q "SELECT count(*) FROM (SELECT node, slice, count(*)::integer AS step_nodes, $sums FROM js_data.slice_metrics GROUP BY 1, 2
                               EXCEPT SELECT node, slice, step_nodes, $metrics FROM js_data.slice_totals_node) x")" 0 \
   "node totals: every node and slice is the sum over its step-nodes, metric by metric"
is "$(q "SELECT count(*) FROM (SELECT slice, count(*)::integer AS step_nodes, $sums FROM js_data.slice_metrics GROUP BY 1
                               EXCEPT SELECT slice, step_nodes, $metrics FROM js_data.slice_totals_cluster) x")|$(q "SELECT count(*) FROM js_data.slice_totals_cluster")" \
   "0|$(q "SELECT count(DISTINCT slice) FROM js_data.slice_metrics")" "cluster totals: every slice is the sum over the cluster"
is "$(q "SELECT count(*) FROM (SELECT job_id, step_id, slice, count(*)::integer, sum(processes)::integer, $sums FROM js_data.slice_metrics GROUP BY 1, 2, 3
                               EXCEPT SELECT job_id, step_id, slice, nodes, processes, $metrics FROM js_data.step_series_slices) x")" 0 \
   "step series: every step and slice is the sum over its nodes, with nodes and processes"
kernel="kernel_rchar, kernel_wchar, kernel_syscr, kernel_syscw, kernel_read_bytes, kernel_write_bytes"
ksums=$(sed -E 's/([a-z0-9_]+)/sum(\1)::bigint AS \1/g' <<< "$kernel")
is "$(q "SELECT count(*) FROM (SELECT job_id, step_id, slice, $ksums FROM js_data.slice_metrics GROUP BY 1, 2, 3
                               EXCEPT SELECT job_id, step_id, slice, $kernel FROM js_data.step_series_slices) x")|$(q "SELECT sum(kernel_wchar) > 0 FROM js_data.step_series_slices")" "0|t" \
   "step series: the kernel's counts per slice (profile format 5) are summed over the nodes too"

# the SQL fold makes the same bytes
dump() { q "COPY (SELECT * FROM js_data.$1 ORDER BY 1, 2, 3, 4) TO STDOUT" | md5sum; }
c_step=$(dump series_step) c_node=$(dump series_node) c_cluster=$(dump series_cluster)
q "TRUNCATE js_data.series_step, js_data.series_node, js_data.series_cluster;
   INSERT INTO js_data.totals_pending (cluster_id, job_id, step_id, node) SELECT cluster_id, job_id, step_id, node FROM js_data.step_nodes;"
n=0; while [ "$(q "SELECT js_data.rollup_totals(7)")" != 0 ]; do n=$((n + 1)); done
is "$(dump series_step) $(dump series_node) $(dump series_cluster)" "$c_step $c_node $c_cluster" \
   "js_data.rollup_totals (SQL, $n batches of 7) writes the same step, node and cluster series as the C fold"
# the C fold again, all at once and under valgrind: a batch of 100 step-nodes makes more sums
# than the fold's first allocation holds (a pointer into it kept across its growth read freed
# memory once)
q "TRUNCATE js_data.series_step, js_data.series_node, js_data.series_cluster;
   INSERT INTO js_data.totals_pending (cluster_id, job_id, step_id, node) SELECT cluster_id, job_id, step_id, node FROM js_data.step_nodes;"
mkdir -p "$work/empty"
valgrind -q --error-exitcode=9 "$bin" --once --spool "$work/empty" --db "$JS_PG_CONNINFO dbname=$db" --log-level warn 2> "$work/valgrind.log"
st=$?
is "$st|$(dump series_step) $(dump series_node) $(dump series_cluster)" "0|$c_step $c_node $c_cluster" \
   "the C fold under valgrind: no memory error, the same series$( [ $st = 0 ] || echo "; $(grep -m1 'Invalid' "$work/valgrind.log")")"

dropdb "$db"; rm -rf "$work"
