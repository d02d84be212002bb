# SPDX-License-Identifier: GPL-2.0-or-later
# Insight in tests. Source after tap.sh.
#
# What the tests of real runs read (insight/verdicts, insight/demo): evidence_within.
#
# Insight rows for the tests of what shows them (web/insight, web/browser, cli/report, reports/insight): profile_ingest computes
# insight (docs/insight.md; test insight/verdicts checks the analysis on real runs), but what these tests
# show must be known figures: a test lets the ingest finish, clears what it computed, and writes
# the rows itself, as the database owner, for steps that real runs made. Nothing here imitates
# the analysis: the figures are fixed, the evidence lies in the step's own slices.

# evidence_within DB JOB OTHER: "t" when step 0 of JOB has evidence and every disturbed stretch
# of it lies within the run of step 0 of the job OTHER (the hog beside it), one slice either
# side (a slice of the cluster's length: a stretch is whole slices, a run is not); "f" or empty
# otherwise.
evidence_within() {
  psql -X -q -At -d "$1" -v job="$2" -v other="$3" <<'SQL'
SELECT bool_and(js_data.slice_start(i.cluster_id, (e->>'last_slice')::bigint) >= s.start_time - make_interval(secs => c.slice_seconds)
                AND js_data.slice_start(i.cluster_id, (e->>'first_slice')::bigint) <= s.end_time + make_interval(secs => c.slice_seconds))
       AND count(*) >= 1
FROM js.step_insights i CROSS JOIN jsonb_array_elements(i.evidence) e
JOIN js_data.steps s ON s.cluster_id = i.cluster_id AND s.job_id = :other AND s.step_id = '0'
JOIN js_data.clusters c ON c.cluster_id = i.cluster_id
WHERE i.job_id = :job AND i.step_id = '0';
SQL
}

# clear_insight DB: wait until the ingest has computed every queued step (at most 60 s), then
# remove all insight and advice, so that only the rows a test writes are there.
clear_insight() {
  local db=$1 i
  for i in $(seq 300); do
    [ "$(psql -X -q -At -d "$db" -c "SELECT count(*) FROM js_data.insight_pending")" = 0 ] && break
    sleep 0.2
  done
  psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" -c "DELETE FROM js_data.step_advice; DELETE FROM js_data.step_insights" >/dev/null
}

# put_insight DB JOB STEP KIND [MESSAGE]: replace the insight and advice of a step that exists.
#   red:   disturbed by other jobs' I/O (whole cluster) in its first slices: lost 12.3 s
#          (15.4 %); an MPI interference estimate of 9.1 % (medium); I/O every 60 s; write-seek;
#          advice DISTURBED (high), SMALL_WRITES (warning, MESSAGE when given), IO_DOMINATED (info)
#   green: not disturbed; open-write-close; advice MANY_OPENS (info, MESSAGE when given)
#   grey:  too little data to tell (one slice)
#   bysruns: a batch step that waits for its sruns: no verdict of its own (grey, judged_by_sruns)
put_insight() {
  local db=$1 job=$2 step=$3 kind=$4 msg=${5:-}
  psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" -v job="$job" -v step="$step" -v kind="$kind" -v msg="$msg" <<'SQL'
DELETE FROM js_data.step_advice WHERE job_id = :job AND step_id = :'step';
DELETE FROM js_data.step_insights WHERE job_id = :job AND step_id = :'step';
WITH s AS (
    SELECT st.cluster_id, st.job_id, st.step_id, st.first_slice, coalesce(st.last_slice, st.first_slice) AS last_slice,
           c.slice_seconds
    FROM js_data.steps st JOIN js_data.clusters c USING (cluster_id)
    WHERE st.job_id = :job AND st.step_id = :'step')
INSERT INTO js_data.step_insights (cluster_id, job_id, step_id, light, disturbed, cause, lost_s, lost_pct, slices,
    dented_slices, disturbed_slices, evidence, segments, segment_groups, segments_flagged, segment_excess_s,
    interference_pct, interference_class, io_period_s, io_period_z, io_sigma_vol, io_sigma_time, io_time_share,
    io_phase_bandwidth, write_pattern, incomplete, judged_by_sruns)
SELECT s.cluster_id, s.job_id, s.step_id, CASE :'kind' WHEN 'bysruns' THEN 'grey' ELSE :'kind' END,
       CASE :'kind' WHEN 'red' THEN true WHEN 'green' THEN false END,
       CASE :'kind' WHEN 'red' THEN 'io' END,
       CASE :'kind' WHEN 'red' THEN 12.3 WHEN 'green' THEN 0.4 END,
       CASE :'kind' WHEN 'red' THEN 15.4 WHEN 'green' THEN 0.5 END,
       CASE :'kind' WHEN 'grey' THEN 1 WHEN 'bysruns' THEN 10 ELSE 20 END,
       CASE :'kind' WHEN 'red' THEN 4 ELSE 0 END, CASE :'kind' WHEN 'red' THEN 3 ELSE 0 END,
       CASE :'kind' WHEN 'red' THEN jsonb_build_array(
           jsonb_build_object('first_slice', s.first_slice, 'last_slice', least(s.first_slice + 1, s.last_slice),
               'start', to_char(to_timestamp(s.first_slice * s.slice_seconds) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
               'own', 'cpu', 'own_drop_pct', 42.0, 'background', 'io', 'scope', 'cluster',
               'background_rate', 4.0e8, 'background_base', 1.0e8, 'lost_s', 10.1),
           jsonb_build_object('first_slice', s.last_slice, 'last_slice', s.last_slice,
               'start', to_char(to_timestamp(s.last_slice * s.slice_seconds) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
               'own', 'io', 'own_drop_pct', 30.0, 'background', 'cpu', 'scope', 'nodes',
               'background_rate', 3.0, 'background_base', 1.0, 'lost_s', 2.2))
         ELSE '[]'::jsonb END,
       CASE :'kind' WHEN 'red' THEN 4000 END, CASE :'kind' WHEN 'red' THEN 3 END, CASE :'kind' WHEN 'red' THEN 12 END,
       CASE :'kind' WHEN 'red' THEN 1.5 END, CASE :'kind' WHEN 'red' THEN 9.1 END, CASE :'kind' WHEN 'red' THEN 'medium' END,
       CASE :'kind' WHEN 'red' THEN 60 END, CASE :'kind' WHEN 'red' THEN 4.2 END, CASE :'kind' WHEN 'red' THEN 0.12 END,
       CASE :'kind' WHEN 'red' THEN 0.08 END, CASE WHEN :'kind' IN ('grey', 'bysruns') THEN NULL ELSE 0.25 END,
       CASE WHEN :'kind' IN ('grey', 'bysruns') THEN NULL ELSE 104857600 END,
       CASE :'kind' WHEN 'red' THEN 'write-seek' WHEN 'green' THEN 'open-write-close' END,
       CASE :'kind' WHEN 'grey' THEN 'one whole slice only' ELSE '' END,
       :'kind' = 'bysruns'
FROM s;
INSERT INTO js_data.step_advice (cluster_id, job_id, step_id, code, severity, message, figures)
SELECT i.cluster_id, i.job_id, i.step_id, a.code, a.severity, coalesce(nullif(a.message, ''), a.dflt), a.figures::jsonb
FROM js_data.step_insights i
CROSS JOIN (VALUES
    ('red', 'IO_DOMINATED', 'info', '', 'I/O took 41 % of the processes'' time.', '{"io_share": 0.41}'),
    ('red', 'DISTURBED', 'high', '', 'Other jobs'' I/O slowed this step: it lost 12 s (15 %).', '{"lost_s": 12.3, "lost_pct": 15.4}'),
    ('red', 'SMALL_WRITES', 'warning', :'msg', 'Writes of 512 B on average: 3,000 calls moved 1.5 MiB; buffer them.', '{"avg_write_bytes": 512}'),
    ('green', 'MANY_OPENS', 'info', :'msg', 'It opened 400 files.', '{"opens": 400}')) a(kind, code, severity, message, dflt, figures)
WHERE i.job_id = :job AND i.step_id = :'step' AND a.kind = :'kind';
SQL
}
