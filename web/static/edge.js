// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: an edge of the graph clicked: its evidence in the workflow tab. */
import { api, showError } from './api.js';
import { EDGE_KINDS } from './categories.js';
import { link, S } from './state.js';
import { renderWorkflowTab, showTab } from './summary.js';
import { $, clear, el, fmtDur, jobLabel, kvTable, timeSpan } from './util.js';

/* An edge clicked: its evidence (dependency type, gap, files) is fetched for that pair of
 * jobs (workflow&from=&to=); the graph's reply carries only what it draws. */
export async function renderEdgeInfo(d) {
  const e = d.ev, T = clear($('#tab-workflow'));
  showTab('workflow');
  const k = EDGE_KINDS.find(x => x.key === e.kind);
  const name = id => { const j = S.wf && S.wf.jobById.get(id); return j ? jobLabel(j) : String(id); };
  T.appendChild(el('h3', { text: (k ? k.label : e.kind) + ': Job ' + name(e.from_job) + (e.from_step != null ? ' step ' + e.from_step : '') + ' → Job ' + name(e.to_job) + (e.to_step != null ? ' step ' + e.to_step : '') }));
  const rows = [['Kind', e.kind]];
  if (d.n > 1) rows.push(['Edges drawn as this one', String(d.n) + ' (the first is shown)']);
  const table = kvTable(rows.concat([e.files != null ? ['Files', String(e.files)] : null]));
  T.appendChild(table);
  const back = el('p', {}, el('a', { href: '#', text: 'Back to the workflow summary', onclick: ev2 => { ev2.preventDefault(); renderWorkflowTab(); } }));
  T.appendChild(back);
  let found;
  try {
    const r = await api('workflow', { id: S.wf.workflow.id, from: e.from_job, to: e.to_job });
    found = (r.edges || []).find(x => x.kind === e.kind && (e.kind !== 'file' || (x.from_step === e.from_step && x.to_step === e.to_step)));
  } catch (err) { showError(err); return; }
  if (!T.contains(table)) return; /* another edge or tab was shown meanwhile */
  const ev = (found && found.evidence) || {};
  if (ev.type) rows.push(['Dependency type', ev.type]);
  if (ev.gap_seconds != null) rows.push(['Gap between end and start', fmtDur(ev.gap_seconds)]);
  if (ev.files != null) rows.push(['Files', String(ev.files)]);
  if (ev.last_write != null) rows.push(['Last write', timeSpan(ev.last_write)]);
  if (ev.first_read != null) rows.push(['First read', timeSpan(ev.first_read)]);
  T.replaceChild(kvTable(rows), table);
  if (Array.isArray(ev.paths) && ev.paths.length) {
    const ul = el('ul', { class: 'mono' });
    ev.paths.forEach((p, i) => ul.appendChild(el('li', {}, ev.file_ids && ev.file_ids[i] != null ? link(Object.assign({}, S.route, { sel: 'file:' + ev.file_ids[i] }), p) : p, ev.written_as && ev.written_as[i] ? ' (written as ' + ev.written_as[i] + ')' : '')));
    T.insertBefore(ul, back);
  }
}
