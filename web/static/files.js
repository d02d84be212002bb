// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the tables of files of a job or step, and the file tab: its writers and
 * readers over time. */
import { api } from './api.js';
import { MODES } from './categories.js';
import { chart, destroyCharts, timeAxis, xRange } from './charts.js';
import { link, S } from './state.js';
import { $, clear, el, fmtBytes, fmtTime, kvTable } from './util.js';

export function filesTable(files, showSteps) {
  const t = el('table', { class: 'data files' },
    el('thead', {}, el('tr', {}, el('th', { text: 'File' }), el('th', { text: 'Mode' }), showSteps ? el('th', { text: 'Steps' }) : null, el('th', { text: 'Layer' }), el('th', { class: 'num', text: 'Read' }), el('th', { class: 'num', text: 'Written' }))));
  const tb = el('tbody');
  for (const f of files) {
    tb.appendChild(el('tr', {},
      el('td', { class: 'mono' }, f.id != null ? link(Object.assign({}, S.route, { sel: 'file:' + f.id }), f.path) : f.path),
      el('td', { text: f.mode }), showSteps ? el('td', { text: (f.steps || []).join(', ') }) : null,
      el('td', { text: f.layer || (f.layers || []).join(', ') }),
      el('td', { class: 'num', text: fmtBytes(f.read_bytes) }), el('td', { class: 'num', text: fmtBytes(f.write_bytes) })));
  }
  if (!files.length) tb.appendChild(el('tr', {}, el('td', { colspan: 6, class: 'empty', text: 'No files recorded.' })));
  t.appendChild(tb);
  return t;
}

export async function renderFile(id) {
  destroyCharts('file');
  const T = clear($('#tab-file'));
  const { file: f } = await api('file', { id });
  T.appendChild(el('h3', { class: 'mono', text: f.path }));
  T.appendChild(kvTable([['File system', f.fstype], ['Scope', f.scope === 'local' ? 'node-local (' + f.node + ')' : f.scope], ['Accesses', (f.accesses || []).length]]));
  const acc = (f.accesses || []).slice().sort((a, b) => (a.start || 0) - (b.start || 0));
  if (acc.length) {
    const card = el('div', { class: 'card' }, el('h4', { text: 'Writers and readers over time' }));
    T.appendChild(card);
    const labels = acc.map(a => 'Job ' + a.job + ' step ' + a.step);
    const color = a => (MODES.find(m => m.key === a.mode) || MODES[0]).border;
    /* from the first to the last access when the profiler saw them, else the step's span */
    const span = a => a.first_access != null ? [a.first_access, Math.max(a.first_access, a.last_access || a.first_access)] : [a.start, a.end != null ? a.end : a.start];
    chart('file', card, 'wide', { type: 'bar', data: { labels, datasets: [{ label: 'accesses', data: acc.map(span), backgroundColor: acc.map(color), borderSkipped: false, minBarLength: 3 }] }, options: { indexAxis: 'y', plugins: { legend: { display: false }, tooltip: { callbacks: { label: ctx => ({ r: 'read', w: 'written', rw: 'read and written' })[acc[ctx.dataIndex].mode] + ' from ' + fmtTime(span(acc[ctx.dataIndex])[0]) } } }, scales: { x: Object.assign(timeAxis(), xRange(acc.map(span).flat())) } } });
  }
  const t = el('table', { class: 'data' }, el('thead', {}, el('tr', {}, ['Job', 'Step', 'Name', 'Mode', 'Start', 'End', 'Read', 'Written'].map(h => el('th', { text: h })))));
  const tb = el('tbody');
  for (const a of acc) tb.appendChild(el('tr', {}, el('td', {}, link({ view: 'workflow', job: a.job, sel: 'job:' + a.job }, String(a.job))), el('td', {}, link({ view: 'workflow', job: a.job, sel: 'step:' + a.job + ':' + a.step }, String(a.step))), el('td', { text: a.job_name }), el('td', { text: a.mode }), el('td', { text: fmtTime(a.start) }), el('td', { text: fmtTime(a.end) }), el('td', { class: 'num', text: fmtBytes(a.read_bytes) }), el('td', { class: 'num', text: fmtBytes(a.write_bytes) })));
  t.appendChild(tb);
  T.appendChild(t);
}
