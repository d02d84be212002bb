# SPDX-License-Identifier: GPL-2.0-or-later
# The workflow graph of the API (docs/api.md, workflow: records as arrays named by job_fields,
# step_fields and runtime_fields, times in ms after t0, edges by kind) decoded into objects:
#   {workflow, jobs: [{id, name, state, submit, start, end, array_job_id, array_task_id,
#                      steps: [{step, start, end, runtime: {compute_ns, ...}, files: {r, rw, w}}]}],
#    edges: [{kind, from_job, to_job, from_step, to_step, files}]}
# as the viewer decodes it (web/static/app.js, decodeWorkflow). Times in seconds since the
# epoch; a runtime in ns (whole ms); files only for the modes present.
# jq -f tests/web/workflow-decode.jq < reply.json
def names: to_entries | map({(.value): .key}) | add;
def at($t0): if . == null then null else $t0 + . / 1000 end;
. as $r
| ($r.job_fields | names) as $J
| ($r.step_fields | names) as $S
| {workflow: $r.workflow,
   jobs: [$r.jobs[] | . as $a | {
     id: $a[$J.id], name: $a[$J.name], state: $a[$J.state],
     submit: ($a[$J.submit] | at($r.t0)), start: ($a[$J.start] | at($r.t0)), end: ($a[$J.end] | at($r.t0)),
     array_job_id: $a[$J.array_job_id], array_task_id: $a[$J.array_task_id],
     steps: [($a[$J.steps] // [])[] | . as $b | {
       step: $b[$S.step], start: ($b[$S.start] | at($r.t0)), end: ($b[$S.end] | at($r.t0)),
       runtime: ([$r.runtime_fields | to_entries[] | {key: (.value + "_ns"), value: ((($b[$S.runtime_ms] // [])[.key] // 0) * 1000000)}] | from_entries),
       files: ([$r.file_modes | to_entries[] | {key: .value, value: (($b[$S.files] // [])[.key] // 0)} | select(.value > 0)] | from_entries)}]}],
   edges: [$r.edges | to_entries[] | .key as $k | .value[] |
     {kind: $k, from_job: .[0], to_job: .[1], from_step: .[2], to_step: .[3], files: .[4]}]}
