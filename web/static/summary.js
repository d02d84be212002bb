// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the info tabs under the graph, and the workflow tab: runtime pies, the
 * workflow's figures and the table per job and step name. */
import { api } from './api.js';
import { CATS, EDGE_KINDS } from './categories.js';
import { chart, destroyCharts, palette } from './charts.js';
import { compareForm, exportButton } from './compare.js';
import { S } from './state.js';
import { $, allocEff, clear, dur, el, fmtBytes, fmtDur, fmtPct, kvTable, makeSortable, numCell, timeSpan } from './util.js';

/* one of the info tabs (workflow, job, step, file) shown, the others hidden */
export function showTab(name) {
  for (const b of document.querySelectorAll('#tabs button')) b.setAttribute('aria-selected', String(b.dataset.tab === name));
  for (const t of ['workflow', 'job', 'step', 'file']) $('#tab-' + t).hidden = t !== name;
}

export function renderWorkflowTab() {
  destroyCharts('workflow');
  const wf = S.wf, w = wf.workflow, T = clear($('#tab-workflow'));
  T.appendChild(el('h3', { text: w.workflow ? 'Workflow ' + w.workflow : 'Job ' + ((wf.jobs[0] || {}).id) + ' (no workflow tag)' }));
  const cards = el('div', { class: 'cards' });
  T.appendChild(cards);
  const c1 = el('div', { class: 'card' }, el('h4', { text: 'Job runtimes' }));
  const c2 = el('div', { class: 'card' }, el('h4', { text: 'Function groups' }));
  const c3 = el('div', { class: 'card' }, el('h4', { text: 'Info' }));
  cards.append(c1, c2, c3);
  /* the 12 longest jobs by name, the rest as one slice */
  const jobs = wf.jobs.filter(j => dur(j) > 0).sort((a, b) => dur(b) - dur(a));
  const top = jobs.slice(0, 12), rest = jobs.slice(12).reduce((a, j) => a + dur(j), 0);
  const labels = top.map(j => 'Job ' + j.id + (j.name ? ' ' + j.name : '')), values = top.map(dur);
  if (rest > 0) { labels.push((jobs.length - 12) + ' other jobs'); values.push(rest); }
  chart('workflow', c1, '', { type: 'pie', data: { labels, datasets: [{ data: values, backgroundColor: values.map((v, i) => i === 12 ? '#c8ccd4' : palette(i + 1)) }] }, options: { plugins: { legend: { position: 'right' }, tooltip: { callbacks: { label: ctx => ctx.label + ': ' + fmtDur(ctx.parsed) } } } } });
  const tot = CATS.map(c => wf.jobs.reduce((a, j) => a + (Number((j.runtime || {})[c.key]) || 0), 0) / 1e9);
  chart('workflow', c2, '', { type: 'pie', data: { labels: CATS.map(c => c.label), datasets: [{ data: tot, backgroundColor: CATS.map(c => c.color) }] }, options: { plugins: { legend: { position: 'right' }, tooltip: { callbacks: { label: ctx => ctx.label + ': ' + fmtDur(ctx.parsed) + ' (summed over processes)' } } } } });
  const nsteps = wf.jobs.reduce((a, j) => a + j.steps.length, 0);
  const kinds = {};
  for (const e of wf.edges) kinds[e.kind] = (kinds[e.kind] || 0) + 1;
  const states = {};
  for (const j of wf.jobs) states[j.state] = (states[j.state] || 0) + 1;
  c3.appendChild(kvTable([
    ['User', w.user], ['Jobs', wf.jobs.length], ['Steps', nsteps],
    ['States', Object.entries(states).map(([k, v]) => k + ' ' + v).join(', ')],
    ['First submit', timeSpan(Math.min(...wf.jobs.map(j => j.submit).filter(t => t != null)))],
    ['Start', timeSpan(w.start)], ['End', timeSpan(w.end)], ['Makespan', fmtDur(dur(w))],
    ['Sum of job runtimes', fmtDur(wf.jobs.reduce((a, j) => a + (dur(j) || 0), 0))],
    ['Edges', EDGE_KINDS.map(k => k.key + ' ' + (kinds[k.key] || 0)).join(', ')],
  ]));
  renderStepNames(T, w.id);
  T.appendChild(compareForm('wf', w.id));
  if (w.id != null) T.appendChild(exportButton('workflow', w.id));
}

/* Per job name and step name (Snakemake's rules, Nextflow's processes are job names): how
 * many, time, CPU efficiency, memory and I/O, summed over the workflow (workflow&by=name). */
async function renderStepNames(T, id) {
  const box = el('div', { class: 'step-names' }, el('h4', { text: 'Per job and step name' }), el('p', { class: 'note', text: 'Loading…' }));
  T.appendChild(box);
  let rows;
  try { rows = (await api('workflow', { id, by: 'name' })).step_names; } catch (e) { box.lastChild.textContent = 'Not available: ' + e.message; return; }
  const head = ['Job name', 'Step name', 'Jobs', 'Steps', 'Not completed', 'Time', 'CPU time', 'CPU eff.', 'Peak mem.', 'Read', 'Written'];
  const t = el('table', { class: 'data sortable' }, el('thead', {}, el('tr', {}, head.map((h, i) => el('th', { class: i >= 2 ? 'num' : null, text: h })))));
  const tb = el('tbody');
  for (const r of rows) {
    const eff = allocEff(r);
    tb.appendChild(el('tr', {}, el('td', { text: r.job_name }), el('td', { text: r.step_name }), numCell(r.jobs, r.jobs), numCell(r.steps, r.steps),
      numCell(r.not_completed, r.not_completed), numCell(r.elapsed_s, fmtDur(r.elapsed_s)), numCell(r.cpu_ns, r.cpu_ns == null ? '–' : fmtDur(r.cpu_ns / 1e9)),
      numCell(eff, fmtPct(eff)), numCell(r.max_rss_kib, r.max_rss_kib ? fmtBytes(r.max_rss_kib * 1024) : '–'),
      numCell(r.read_bytes, fmtBytes(r.read_bytes)), numCell(r.write_bytes, fmtBytes(r.write_bytes))));
  }
  t.appendChild(tb);
  makeSortable(t);
  box.replaceChild(t, box.lastChild);
}
