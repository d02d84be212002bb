# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for benchmarks: source this file.

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# now_ns: wall clock in nanoseconds
now_ns() { date +%s%N; }

# bench_cluster_up / bench_cluster_down: the benchmarks' own cluster in $JS_BENCH_DIR
bench_cluster_up() {
  "$JS_TOP_SRCDIR/tests/cluster" up --dir "$JS_BENCH_DIR" >&2 || return 1
  # shellcheck disable=SC1091
  . "$JS_BENCH_DIR/env"
}
bench_cluster_down() { "$JS_TOP_SRCDIR/tests/cluster" down --dir "$JS_BENCH_DIR" >&2; }
