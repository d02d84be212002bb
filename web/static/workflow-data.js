// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the workflow graph's reply decoded (docs/api.md, workflow), its jobs
 * indexed and what collapses into groups: job arrays and wide fan-outs. */
import { S } from './state.js';

/* The graph's reply (docs/api.md, workflow) holds its records as arrays named by
 * job_fields, step_fields and runtime_fields, times in ms after t0, edges by kind: decoded
 * once into the objects the page works with (a step's runtime in ns per category, its files
 * per access mode; a job's runtime summed over the steps the graph draws). */
export function decodeWorkflow(r) {
  const ix = names => Object.fromEntries((names || []).map((k, i) => [k, i]));
  const J = ix(r.job_fields), T = ix(r.step_fields);
  const get = (a, i) => (i === undefined || i >= a.length || a[i] === undefined) ? null : a[i];
  const at = ms => ms === null ? null : r.t0 + ms / 1000;
  const rtKeys = (r.runtime_fields || []).map(k => k + '_ns'), modes = r.file_modes || [];
  const jobs = (r.jobs || []).map(a => {
    const steps = (get(a, J.steps) || []).map(b => {
      const v = get(b, T.runtime_ms) || [], fv = get(b, T.files) || [], runtime = {}, files = {};
      rtKeys.forEach((key, i) => { runtime[key] = (v[i] || 0) * 1e6; });
      modes.forEach((m, i) => { if (fv[i]) files[m] = fv[i]; });
      return { step: String(get(b, T.step)), start: at(get(b, T.start)), end: at(get(b, T.end)), runtime, files };
    });
    const runtime = {};
    for (const key of rtKeys) runtime[key] = steps.reduce((x, s) => x + s.runtime[key], 0);
    return {
      id: get(a, J.id), name: get(a, J.name), state: get(a, J.state), submit: at(get(a, J.submit)),
      start: at(get(a, J.start)), end: at(get(a, J.end)), array_job_id: get(a, J.array_job_id),
      array_task_id: get(a, J.array_task_id), steps, runtime,
    };
  });
  const edges = [];
  for (const [kind, list] of Object.entries(r.edges || {})) for (const e of list) {
    edges.push({ kind, from_job: e[0], to_job: e[1], from_step: get(e, 2), to_step: get(e, 3), files: get(e, 4) });
  }
  return { workflow: r.workflow, jobs, edges };
}

/* Index jobs and steps; find what collapses: job arrays and wide fan-outs. */
export const FANOUT_MAX = 6;
export function prepareWorkflow(wf) {
  wf.jobById = new Map();
  for (const j of wf.jobs) {
    /* the batch step wraps the numbered ones (and extern is Slurm's): the graph shows the
     * numbered steps, or the batch step of a job that has no other; the job tab lists all */
    const all = (j.steps || []).filter(s => s.step !== 'extern');
    const numbered = all.filter(s => /^[0-9]+$/.test(s.step));
    j.steps = (numbered.length ? numbered : all).slice().sort((a, b) => (a.start || 0) - (b.start || 0) || String(a.step).localeCompare(String(b.step), 'en', { numeric: true }));
    wf.jobById.set(j.id, j);
  }
  const preds = new Map();
  for (const e of wf.edges) if (e.kind === 'scheduler') {
    if (!preds.has(e.to_job)) preds.set(e.to_job, []);
    preds.get(e.to_job).push(e.from_job);
  }
  const groups = new Map();
  for (const j of wf.jobs) {
    let key = null;
    if (j.array_job_id != null) key = 'array:' + j.array_job_id;
    else key = 'fan:' + (preds.get(j.id) || []).sort((a, b) => a - b).join(',') + ':' + (j.name || '');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(j);
  }
  wf.groups = new Map();
  let n = 0;
  for (const [key, members] of groups) {
    const isArray = key.startsWith('array:');
    if (members.length > 1 && (isArray || members.length > FANOUT_MAX)) {
      const g = { id: 'g' + (n++), key, members, array: isArray, name: members[0].name };
      wf.groups.set(g.id, g);
      for (const m of members) m.group = g.id;
    }
  }
}

export function unitOf(wf, jobId) {
  const j = wf.jobById.get(jobId);
  if (!j) return null;
  return j.group && !S.expanded.has(j.group) ? j.group : 'j' + j.id;
}
