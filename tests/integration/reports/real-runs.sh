#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The cases the reports must find, run for real: batch jobs of jsalice and jsbob under the
# SPANK plugin and the profiler (an I/O-heavy dd, a small-file storm, a compute-only loop, an
# MPI program waiting half its time, a failing job with afterok and afterany dependants, a
# file-chained pair without a scheduler edge and one with it, steps opted out with
# --no-profile, a quiet job with the dd running beside it).  They write into the test's private
# spool (private_spool); their job directories are copied to another, where the dependants that
# never start get their job record from the joblog command, and the real profile_ingest loads it
# all into database js_reports, which the other reports/ tests read.  The job ids go to $JS_CLUSTER_DIR/reports.ids.
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
. "$JS_TOP_SRCDIR/tests/lib/reports.sh"
. "$JS_TOP_SRCDIR/tests/lib/spank.sh"
private_spool
[ -x "$INGEST" ] || bail "no $INGEST (build first)"
grep -q 'profiler=' "$JS_PLUGSTACK" || skip_all "the cluster's plugstack.conf names no profiler (build it before the cluster came up)"
joblog=$JS_TOP_BUILDDIR/joblog/joblog
[ -x "$joblog" ] || bail "no $joblog (build first)"
plan 12
rm -f "$REPORTS_IDS"

work=$(mktemp -d "$JS_CLUSTER_DIR/reports.XXXXXX"); chmod 755 "$work"
for u in jsalice jsbob; do mkdir "$work/$u"; chown "$u:" "$work/$u"; done
A=$work/jsalice B=$work/jsbob
sub() { # sub USER [sbatch options...]: submit, print the job id; each a command of its own (a
  # process group of its own, as sbatch typed at a prompt), so that no time edge joins the cases
  local u=$1; shift
  (cd "$work/$u" && setsid runuser -u "$u" -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable --chdir="$work/$u" -o /dev/null "$@")
}
wait_running() { local i; for i in $(seq 300); do [ "$(job_state "$1")" = RUNNING ] && return 0; sleep 0.1; done; return 1; }
wait_final() { # the batch step's end makes the job record final
  local i; for i in $(seq 100); do grep -qE '"final": ?true' "$JS_SPOOL_DIR/job.$1/job.json" 2>/dev/null && return 0; sleep 0.2; done; return 1
}
have_mpi=no
if [ "$JS_HAVE_MPI" = yes ] && [ -x "$JS_TOP_BUILDDIR/tests/sql/mpi_wait" ]; then
  cp "$JS_TOP_BUILDDIR/tests/sql/mpi_wait" "$A/mpi_wait"; chmod 755 "$A/mpi_wait"; have_mpi=yes
fi

# a small-file storm, alone: it ends a slice before the quiet job starts, so it must not
# show beside it
storm=$(sub jsalice -J storm --wrap 'srun bash -c "mkdir -p many; for i in \$(seq 400); do echo x > many/f\$i; done; for i in \$(seq 400); do read l < many/f\$i; done"')
wait_job_done "$storm" 60 >/dev/null; wait_final "$storm"
slice_wait() { # sleep into the next slice (the one after, when the next starts within 1 s)
  local ns; ns=$(date +%s%N); ns=$(( 4000000000 - ns % 4000000000 ))
  [ "$ns" -lt 1000000000 ] && ns=$(( ns + 4000000000 ))
  sleep "$(awk -v n="$ns" 'BEGIN { printf "%.3f", (n + 200000000) / 1e9 }')"
}
slice_wait
# a quiet job, and beside it an I/O-heavy one of another user (1 MiB calls: the profiler times
# every call of 64 KiB or more, smaller ones and a lone fsync only by sampling)
besidex=$(sub jsalice -J besidex --wrap 'srun sleep 10')
wait_running "$besidex"; ok $? "the quiet job besidex runs"
bigio=$(sub jsbob -J bigio --wrap 'srun dd if=/dev/zero of=big bs=1M count=256 && srun dd if=big of=/dev/null bs=1M; rm -f big')
crunch=$(sub jsalice -J crunch --wrap 'srun bash -c "i=0; while [ \$i -lt 300000 ]; do i=\$((i+1)); done"')
mpiwait=
[ $have_mpi = yes ] && mpiwait=$(sub jsalice -J mpiwait -n2 --wrap 'srun --mpi=pmix ./mpi_wait')

# a failing job: its afterok dependant never starts, nor the afterany one behind that; an
# afterany dependant of the failed job runs
failer=$(sub jsalice -J failer --wrap 'srun bash -c "exit 3"; exit 3')
waiter=$(sub jsalice -J waiter --dependency=afterok:"$failer" --wrap 'srun true')
waiter2=$(sub jsalice -J waiter2 --dependency=afterany:"$waiter" --wrap 'srun true')
cleanup=$(sub jsalice -J cleanup --dependency=afterany:"$failer" --wrap 'srun true')

# a pair chained by a file only (the second submitted when the first is done, as an engine
# would), and a pair chained by a file and a scheduler edge
producer=$(sub jsalice -J producer --wrap 'srun bash -c "echo data > chain.dat"')
wait_job_done "$producer" 60 >/dev/null
consumer=$(sub jsalice -J consumer --wrap 'srun bash -c "read l < chain.dat"')
dprod=$(sub jsalice -J dprod --wrap 'srun bash -c "echo data > declared.dat"')
dcons=$(sub jsalice -J dcons --dependency=afterok:"$dprod" --wrap 'srun bash -c "read l < declared.dat"')

# opting out: two of three steps of 'true'
quiet=$(sub jsbob -J quiet --wrap 'srun --no-profile true; srun --no-profile true; srun true')

ran="$besidex $bigio $storm $crunch $mpiwait $failer $cleanup $producer $consumer $dprod $dcons $quiet"
st=0
for j in $ran; do
  s=$(wait_job_done "$j" 120)
  case $j in "$failer") [ "$s" = FAILED ] || st=1 ;; *) [ "$s" = COMPLETED ] || st=1 ;; esac
  [ $st = 0 ] || { diag "job $j ended $s"; break; }
done
ok $st "the jobs end as they should (failer FAILED, the others COMPLETED)"
is "$(scontrol show job "$waiter" | grep -o 'Reason=[^ ]*')" "Reason=DependencyNeverSatisfied" "the afterok dependant of the failed job is left waiting"
is "$(job_state "$waiter2")" PENDING "and the afterany dependant behind it waits too"
st=0; for j in $ran; do wait_final "$j" || { st=1; diag "job $j: no final job record"; }; done
ok $st "every job that ran has its final job record in the spool"

# the private spool: what the plugin wrote for these jobs, plus the joblog records of the two
# that never started
spool=$work/spool; mkdir "$spool"; chmod 711 "$spool"
for j in $ran; do cp -a "$JS_SPOOL_DIR/job.$j" "$spool/"; done
"$joblog" --spool "$spool" "$waiter" "$waiter2" 2>>"$spool.log"
ok $? "joblog writes the job records of the dependants that never started"
scancel "$waiter" "$waiter2"

cp -a "$spool" "$work/spool.keep"  # for 76, which ingests it again as a non-superuser owner
dropdb --if-exists "$REPORTS_DB"; createdb "$REPORTS_DB"
ingest_spool "$spool" "$REPORTS_DB"
ok $? "profile_ingest migrates js_reports and loads the spool"
diag "$(grep -E 'done:|refused|error' "$spool.log")"
njobs=$(echo $ran | wc -w)
is "$(DB=$REPORTS_DB q 'SELECT count(*) FROM js.jobs')" "$((njobs + 2))" "every job is in the database"
is "$(DB=$REPORTS_DB q 'SELECT count(*) FROM js.quarantine')" 0 "nothing was quarantined"
is "$(DB=$REPORTS_DB q "SELECT count(*) FROM js.steps WHERE job_id = $quiet AND NOT profiled")" 2 "the two --no-profile steps are recorded as not profiled"
is "$(DB=$REPORTS_DB q "SELECT count(*) FROM js.steps WHERE job_id = $bigio AND step_id IN ('0', '1') AND profiled")" 2 "bigio's two dd steps were profiled"
is "$(DB=$REPORTS_DB q "SELECT state FROM js.jobs WHERE job_id = $waiter")" PENDING "the waiting dependant is in the database as PENDING"

cat > "$REPORTS_IDS" <<EOF
BESIDEX=$besidex BIGIO=$bigio STORM=$storm CRUNCH=$crunch MPIWAIT=$mpiwait
FAILER=$failer WAITER=$waiter WAITER2=$waiter2 CLEANUP=$cleanup
PRODUCER=$producer CONSUMER=$consumer DPROD=$dprod DCONS=$dcons QUIET=$quiet
REPORTS_WORK=$work
EOF
diag "$(cat "$REPORTS_IDS")"
done_testing
