// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: two runs side by side (#view=compare&a=wf:W|job:J&b=...), and the
 * "Compare with" and "Export JSON" controls of the workflow and job tabs. */
import { api, showError } from './api.js';
import { NO_PROFILE } from './categories.js';
import { link, setHash } from './state.js';
import { $, allocEff, clear, dur, el, fmtBytes, fmtDur, fmtPct, jobLabel, numCell, saveBlob } from './util.js';

/* A job's steps as the rows a comparison matches (the steps the graph draws, by name; a
 * name that repeats as NAME#2, ...), in the shape of workflow&by=name's rows. */
function jobRows(j) {
  const steps = j.steps || [], isNum = s => /^\d+$/.test(s.step), numbered = steps.some(isNum);
  const seen = {};
  return steps.filter(s => numbered ? isNum(s) : s.step !== 'extern').map(s => {
    const n = s.name || '';
    seen[n] = (seen[n] || 0) + 1;
    const secs = dur(s) ?? (s.start != null ? Date.now() / 1000 - s.start : null), rt = s.runtime || {};
    return { job_name: String(s.step), step_name: seen[n] > 1 ? n + '#' + seen[n] : n, elapsed_s: secs,
      cpu_ns: s.profiled ? s.cpu_ns : null, cpu_alloc_s: s.profiled && secs != null ? secs * s.cpus : null,
      read_bytes: s.read_bytes || 0, write_bytes: s.write_bytes || 0,
      runtime: { compute_ns: rt.compute_ns || 0, mpi_ns: (rt.mpi_p2p_ns || 0) + (rt.mpi_coll_ns || 0) + (rt.mpi_setup_ns || 0),
        io_ns: (rt.io_posix_ns || 0) + (rt.io_stdio_ns || 0) + (rt.io_mpiio_ns || 0), cpu_wait_ns: rt.cpu_wait_ns || 0, idle_ns: rt.idle_ns || 0 } };
  });
}
const CMP_CATS = [{ key: 'compute_ns', label: 'Computation', color: '#a99cd6' }, { key: 'mpi_ns', label: 'MPI', color: '#d62728' },
  { key: 'io_ns', label: 'I/O', color: '#e3b505' }, { key: 'cpu_wait_ns', label: 'Waiting for a CPU', color: '#7f7f7f' },
  { key: 'idle_ns', label: 'Idle', color: '#e8e8e8' }];
function shareBar(rt) {
  const v = CMP_CATS.map(c => Math.max(0, Number((rt || {})[c.key]) || 0)), sum = v.reduce((a, b) => a + b, 0);
  const bar = el('div', { class: 'bar', title: sum ? CMP_CATS.map((c, i) => c.label + ' ' + (100 * v[i] / sum).toFixed(1) + '%').join(', ') : 'no profile' });
  if (sum) CMP_CATS.forEach((c, i) => { if (v[i] > 0) bar.appendChild(el('span', { style: 'width:' + (100 * v[i] / sum).toFixed(2) + '%;background:' + c.color })); });
  else bar.appendChild(el('span', { style: 'width:100%;background:' + NO_PROFILE }));
  return bar;
}
async function runRows(spec) {
  const m = /^(wf|job):(\d+)$/.exec(spec || '');
  if (!m) throw new Error("'" + spec + "' names no run (wf:ID or job:ID)");
  if (m[1] === 'wf') {
    const r = await api('workflow', { id: m[2], by: 'name' });
    return { title: 'Workflow ' + m[2], link: { view: 'workflow', id: m[2] }, rows: r.step_names, byStep: false };
  }
  const { job: j } = await api('job', { id: m[2] });
  return { title: 'Job ' + jobLabel(j) + (j.name ? ' · ' + j.name : '') + ' (' + j.state + ')', link: { view: 'workflow', job: j.id, sel: 'job:' + j.id }, rows: jobRows(j), byStep: true };
}
/* #view=compare&a=...&b=...: row by row (workflows: job and step name; jobs: step name), time,
 * its change, CPU efficiency, I/O and runtime share of each run, then the totals. */
export async function showCompare(r) {
  $('#list-view').hidden = true;
  $('#workflow-view').hidden = true;
  const V = clear($('#compare-view'));
  V.hidden = false;
  const [A, B] = await Promise.all([runRows(r.a), runRows(r.b)]);
  clear($('#crumbs')).append(link({ view: 'list' }, 'Workflows and jobs'), el('span', { class: 'sep', text: '›' }), el('span', { text: 'Compare' }));
  V.append(el('h2', { text: 'Two runs side by side' }), el('p', {}, 'A: ', link(A.link, A.title), el('br'), 'B: ', link(B.link, B.title)));
  const byStep = A.byStep && B.byStep;
  const same = (x, y) => x.step_name === y.step_name && (byStep || x.job_name === y.job_name);
  const pairs = A.rows.map(a => [a, B.rows.find(b => same(a, b)) || null]).concat(B.rows.filter(b => !A.rows.some(a => same(a, b))).map(b => [null, b]));
  const total = rows => rows.reduce((t, x) => { for (const k of ['elapsed_s', 'cpu_ns', 'cpu_alloc_s', 'read_bytes', 'write_bytes']) t[k] += Number(x[k]) || 0; return t; }, { elapsed_s: 0, cpu_ns: 0, cpu_alloc_s: 0, read_bytes: 0, write_bytes: 0 });
  const io = x => x ? (Number(x.read_bytes) || 0) + (Number(x.write_bytes) || 0) : null;
  const change = (a, b) => !a ? 'only B' : !b ? 'only A' : a.elapsed_s > 0 && b.elapsed_s != null ? ((b.elapsed_s - a.elapsed_s) / a.elapsed_s * 100 >= 0 ? '+' : '') + ((b.elapsed_s - a.elapsed_s) / a.elapsed_s * 100).toFixed(1) + ' %' : '–';
  const head = [byStep ? 'Step' : 'Job name', byStep ? 'Name' : 'Step name', 'Time A', 'Time B', 'Change', 'CPU eff. A', 'CPU eff. B', 'I/O A', 'I/O B', 'Share A', 'Share B'];
  const t = el('table', { class: 'data compare' }, el('thead', {}, el('tr', {}, head.map((h, i) => el('th', { class: i >= 2 && i <= 8 ? 'num' : null, text: h })))));
  const tb = el('tbody');
  const row = (k1, k2, a, b, cls) => el('tr', { class: cls }, el('td', { text: k1 }), el('td', { text: k2 }),
    numCell(a && a.elapsed_s, a ? fmtDur(a.elapsed_s) : '–'), numCell(b && b.elapsed_s, b ? fmtDur(b.elapsed_s) : '–'), el('td', { class: 'num change', text: change(a, b) }),
    numCell(allocEff(a), fmtPct(allocEff(a))), numCell(allocEff(b), fmtPct(allocEff(b))),
    numCell(io(a), a ? fmtBytes(io(a)) : '–'), numCell(io(b), b ? fmtBytes(io(b)) : '–'),
    el('td', {}, a && a.runtime ? shareBar(a.runtime) : '–'), el('td', {}, b && b.runtime ? shareBar(b.runtime) : '–'));
  for (const [a, b] of pairs) tb.appendChild(row((a || b).job_name, (a || b).step_name, a, b));
  tb.appendChild(row('Total', '', total(A.rows), total(B.rows), 'total'));
  t.appendChild(tb);
  V.appendChild(t);
  V.appendChild(el('p', { class: 'note', text: 'Time: wall time summed over the steps of each name; change: B against A. CPU efficiency: CPU time of the processes against CPUs × wall time. I/O: bytes read and written. Share: the runtime share of the processes (computation, MPI, I/O, waiting for a CPU, idle).' }));
}
/* "Export JSON": the job or workflow in the JobLog shapes (docs/api.md, export), saved */
export function exportButton(kind, id) {
  return el('button', { type: 'button', class: 'export', text: 'Export JSON', title: 'the JobLog fields and the per-step profile, as JSON', onclick: async () => {
    try {
      const body = await api('export', { [kind]: id });
      saveBlob(new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' }), 'jobscreen-' + kind + '-' + id + '.json');
    } catch (e) { showError(e); }
  } });
}
/* "Compare with ...": a small form under the workflow and job tabs */
export function compareForm(kind, id) {
  const f = el('form', { class: 'compare-with' }, el('label', {}, 'Compare with ' + (kind === 'wf' ? 'workflow' : 'job') + ' id ', el('input', { type: 'search', name: 'other', maxlength: 20, inputmode: 'numeric' })), el('button', { type: 'submit', text: 'Compare' }));
  f.addEventListener('submit', ev => {
    ev.preventDefault();
    const o = f.elements.other.value.trim();
    if (!/^\d+$/.test(o)) { showError(new Error("'" + o + "' is not an id")); return; }
    setHash({ view: 'compare', a: kind + ':' + id, b: kind + ':' + o });
  });
  return f;
}
