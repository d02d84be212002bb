// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the list of the user's workflows and jobs (admins: everyone's), its
 * filter, "Go to job" and the jobs as CSV. */
import { api, showError } from './api.js';
import { lightCell } from './insight.js';
import { link, S, setHash } from './state.js';
import { $, clear, cpuEff, dur, el, fmtBytes, fmtDur, fmtPct, jobLabel, numCell, saveBlob, stateCell, timeCell, toLocalInput } from './util.js';

/* The job list as CSV (RFC 4180), times in UTC (ISO 8601); a cell that a spreadsheet would
 * take for a formula (=, +, -, @ first) is quoted with a leading apostrophe. */
function csvCell(v) {
  if (v === null || v === undefined) return '';
  let t = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(t)) t = "'" + t;
  return /[",\r\n]/.test(t) ? '"' + t.replace(/"/g, '""') + '"' : t;
}
function jobsCsv(jobs) {
  const iso = t => t == null ? null : new Date(t * 1000).toISOString();
  const cols = ['job', 'job_id', 'name', 'user', 'cluster', 'workflow', 'state', 'exit_code', 'submit', 'start', 'end',
    'elapsed_s', 'nodes', 'cpus', 'cpu_s', 'cpu_efficiency', 'max_rss_bytes', 'read_bytes', 'write_bytes', 'light', 'lost_s'];
  const rows = jobs.map(j => [jobLabel(j), j.id, j.name, j.user, j.cluster, j.workflow, j.state, j.exit_code, iso(j.submit), iso(j.start), iso(j.end),
    dur(j), j.nodes, j.cpus, j.cpu_ns == null ? null : j.cpu_ns / 1e9, cpuEff(j) == null ? null : cpuEff(j).toFixed(4),
    j.max_rss_kib == null ? null : j.max_rss_kib * 1024, j.read_bytes, j.write_bytes, j.light, j.lost_s]);
  return [cols, ...rows].map(r => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/* "Go to job": a job id opens its workflow with the job selected; an array task (A_T) is
 * looked up among the listed jobs. */
function findJob(ev) {
  ev.preventDefault();
  const v = ev.target.elements.id.value.trim();
  let m = /^(\d+)_(\d+)$/.exec(v), id = null;
  if (m) {
    const j = (S.listJobs || []).find(x => String(x.array_job_id) === m[1] && String(x.array_task_id) === m[2]);
    if (!j) { showError(new Error('array task ' + v + ' is not among the jobs listed: widen the filter, or give the task\'s own job id')); return; }
    id = j.id;
  } else if (/^\d+$/.test(v)) id = v;
  if (id === null) { showError(new Error("'" + v + "' is not a job id (1234, or 1234_5 for an array task)")); return; }
  setHash({ view: 'workflow', job: id, sel: 'job:' + id });
}

export async function showList(r) {
  $('#workflow-view').hidden = true;
  $('#compare-view').hidden = true;
  $('#list-view').hidden = false;
  const crumbs = clear($('#crumbs'));
  crumbs.appendChild(el('span', { text: 'Workflows and jobs' }));
  const f = $('#filters');
  for (const k of ['state', 'name', 'workflow', 'user']) f.elements[k].value = r[k] || '';
  f.elements.from.value = toLocalInput(r.from);
  f.elements.to.value = toLocalInput(r.to);
  const params = { from: r.from, to: r.to, state: r.state, name: r.name, workflow: r.workflow, user: r.user };
  const [wfs, jobs] = await Promise.all([api('workflows', params), api('jobs', params)]);
  const wb = clear($('#workflows tbody'));
  for (const w of wfs.workflows) {
    const states = Object.entries(w.states || {}).map(([k, v]) => k + ' ' + v).join(', ');
    wb.appendChild(el('tr', {},
      el('td', {}, link({ view: 'workflow', id: w.id }, w.workflow)),
      el('td', { text: w.user }), numCell(w.jobs, w.jobs),
      timeCell(w.start), timeCell(w.end),
      numCell(dur(w), fmtDur(dur(w))), el('td', { text: states }), lightCell(w.light, w.lost_s)));
  }
  if (!wfs.workflows.length) wb.appendChild(el('tr', {}, el('td', { colspan: 8, class: 'empty', text: 'No workflows (tag jobs with sbatch --workflow=NAME).' })));
  const jb = clear($('#jobs tbody'));
  S.listJobs = jobs.jobs;
  for (const j of jobs.jobs) {
    const eff = cpuEff(j);
    jb.appendChild(el('tr', {},
      el('td', { title: 'job id ' + j.id, 'data-sort': j.id }, link({ view: 'workflow', job: j.id, sel: 'job:' + j.id }, jobLabel(j))),
      el('td', { text: j.name }), el('td', { text: j.user }),
      el('td', {}, j.workflow_id != null ? link({ view: 'workflow', id: j.workflow_id }, j.workflow || String(j.workflow_id)) : '–'),
      stateCell(j.state, j.live), lightCell(j.light, j.lost_s), timeCell(j.submit), timeCell(j.start),
      numCell(dur(j), fmtDur(dur(j))), numCell(j.nodes, j.nodes == null ? '–' : j.nodes),
      numCell(eff, fmtPct(eff)),
      numCell(j.max_rss_kib, j.max_rss_kib ? fmtBytes(j.max_rss_kib * 1024) : '–'),
      numCell(j.read_bytes, fmtBytes(j.read_bytes)), numCell(j.write_bytes, fmtBytes(j.write_bytes))));
  }
  if (!jobs.jobs.length) jb.appendChild(el('tr', {}, el('td', { colspan: 14, class: 'empty', text: 'No jobs match.' })));
  if (wfs.truncated || jobs.truncated) jb.appendChild(el('tr', {}, el('td', { colspan: 14, class: 'note', text: 'More rows match: narrow the filter.' })));
}

/* the filter's form into the route (times as epoch seconds) */
function applyFilters(ev) {
  ev.preventDefault();
  const f = ev.target.elements;
  const toEpoch = v => v ? String(Math.floor(new Date(v).getTime() / 1000)) : '';
  setHash({ view: 'list', from: toEpoch(f.from.value), to: toEpoch(f.to.value), state: f.state.value, name: f.name.value, workflow: f.workflow.value, user: f.user.value });
}

/* The list's controls, wired once. */
export function initList() {
  $('#jobs-csv').addEventListener('click', () => saveBlob(new Blob([jobsCsv(S.listJobs || [])], { type: 'text/csv' }), 'jobscreen-jobs.csv'));
  $('#find-job').addEventListener('submit', findJob);
  $('#filters').addEventListener('submit', applyFilters);
}
