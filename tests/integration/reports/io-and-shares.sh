#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# top-io and runtime-shares on the real runs of reports/real-runs: the dd job of jsbob tops the I/O volume,
# the small-file storm tops the metadata operations (a compute loop does not, although bash
# flushes stdio after each of its 300000 builtins), the dd steps show a high I/O share and the
# MPI program a high MPI share, the sleep a high idle share, while the compute loop shows none.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
need_reports_db
plan 17

out=$(report top-io -v limit=3); diag "$out"
is "$(echo "$out" | section 'users by I/O volume' | head -1 | field 1)" jsbob "jsbob, who ran the dd job, is the top user by I/O volume"
is "$(echo "$out" | section 'jobs by I/O volume' | head -1 | field 1)" "$BIGIO" "the dd job (bigio) is the top job by I/O volume"
big=$(echo "$out" | section 'jobs by I/O volume' | head -1 | field 6)
ok "$([ "${big:-0}" -ge $((1024 * 1024 * 1024)) ]; echo $?)" "it moved at least 1 GiB (two dd steps, each reading and writing 256 MiB)"
is "$(echo "$out" | section 'workflows by I/O volume' | head -1 | field 2)" bigio "its workflow tops the workflows by I/O volume"
is "$(echo "$out" | section 'jobs by metadata operations' | head -1 | field 1)" "$STORM" "the small-file storm is the top job by metadata operations"
is "$(echo "$out" | section 'jobs by metadata operations' | head -1 | cut -d'|' -f7,8)" "403|403" \
  "it touched 403 files, all small (400 of its own, its script and two others)"
is "$(echo "$out" | section 'users by metadata operations' | head -1 | field 1)" jsalice "jsalice, who ran it, is the top user by metadata operations"
ok "$(echo "$out" | section 'jobs by metadata operations' | field 1 | grep -qx "$CRUNCH"; [ $? -ne 0 ]; echo $?)" \
  "the compute loop is not among the top 3 by metadata operations"

out=$(report runtime-shares -v min_wall_s=0 -v min_share=0.4); diag "$out"
steps=$(echo "$out" | section steps)
# (its batch step may be listed too: srun's blocking socket reads, sampled 1 in 16, can weigh
# seconds on a loaded machine; the sampling of blocking calls is the runtime-share issue's)
is "$(echo "$steps" | awk -F'|' -v j="$BIGIO" '$1 == j && $4 == "dd" { print $2 ":" $4 ":" $5 }' | sort | tr '\n' ' ')" "0:dd:io 1:dd:io " \
  "both dd steps of bigio have a high I/O share"
is "$(echo "$out" | section 'by user and application' | awk -F'|' '$1 == "jsbob" && $2 == "dd" { print $3 ":" $4 }')" "io:2" \
  "by user and application: jsbob's dd, 2 steps, kind io"
if [ -n "$MPIWAIT" ]; then
  is "$(echo "$steps" | awk -F'|' -v j="$MPIWAIT" '$1 == j && $2 == "0" { print $4 ":" $5 }')" "mpi_wait:mpi" \
    "the MPI program that waits half its time has a high MPI share"
else
  ok 0 "the MPI program has a high MPI share # SKIP built without MPI"
fi
is "$(echo "$steps" | awk -F'|' -v a="$CRUNCH" -v b="$BESIDEX" '($1 == a || $1 == b) && $2 == "0" { print ($1 == a ? "crunch" : "sleep") ":" $5 }')" "sleep:idle" \
  "the sleep is listed as idle; the compute loop is not listed (neither MPI nor I/O nor idle)"
is "$(echo "$steps" | awk -F'|' -v a="$CRUNCH" -v b="$BESIDEX" -v c="$BIGIO" '($1 == a || $1 == b || $1 == c) && $2 == "batch"' | wc -l)" 0 \
  "no batch step of a job with numbered steps is listed (it wraps them)"
is "$(echo "$steps" | awk -F'|' -v j="$BIGIO" '$1 == j && $5 == "mpi"' | wc -l)" 0 "the dd steps are not listed as MPI-bound"

# the runtime share tells the truth (profile format 4): a sleep is idle, not computation; a
# compute loop computes; the budget adds up
is "$(q "SELECT idle_ns > 0.9 * (compute_ns + idle_ns + io_posix_ns + io_stdio_ns + io_mpiio_ns + mpi_p2p_ns + mpi_coll_ns + mpi_setup_ns),
                compute_ns < 0.05 * wall_ns FROM js.steps WHERE job_id = $BESIDEX AND step_id = '0'")" "t|t" \
  "srun sleep 10: idle more than 90 % of its time, computation under 5 % (it used no CPU)"
is "$(q "SELECT abs(compute_ns - cpu_ns) < 0.05 * cpu_ns, cpu_ns > 0.2 * wall_ns, compute_ns > 10 * (io_posix_ns + io_stdio_ns) FROM js.steps WHERE job_id = $CRUNCH AND step_id = '0'")" "t|t|t" \
  "the compute loop: its computation is its CPU time (within 5 %; on a loaded machine the rest of its wall time it waits for a CPU), ten times its time in I/O calls (bash's fflush after each builtin)"
is "$(q "SELECT count(*) FILTER (WHERE idle_ns IS NULL OR mpi_setup_ns IS NULL OR cpu_wait_ns IS NULL), count(*) FILTER (WHERE compute_ns + cpu_wait_ns + idle_ns < wall_ns - io_posix_ns - io_stdio_ns - io_mpiio_ns - mpi_p2p_ns - mpi_coll_ns - mpi_setup_ns - processes * 1000000)
         FROM js.steps WHERE job_id IN ($BESIDEX, $CRUNCH, $BIGIO) AND processes > 0")" "0|0" \
  "every step of those jobs has idle, CPU-wait and MPI setup times, and its shares cover its processes' time"
done_testing
