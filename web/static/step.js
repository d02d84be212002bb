// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the step tab (docs/api.md, step): its figures and runtime share, its time
 * series and GPUs, the Insight panel, the performance background, the digest over its
 * processes, how each process ended, its files and software trees. A running step's page
 * reloads itself while it is shown. */
import { $, el, clear, kvTable, timeSpan, fmtTime, fmtDur, fmtBytes, dur, metricLabel, fmtMetric, processEnd } from './util.js';
import { api, showError } from './api.js';
import { S, link } from './state.js';
import { chart, destroyCharts } from './charts.js';
import { CATS, shares } from './categories.js';
import { lightDot, insightPanel } from './insight.js';
import { metricSeries, spreadCharts } from './series.js';
import { backgroundCard } from './background.js';
import { filesTable } from './files.js';
import { gpuCharts } from './gpu.js';

/* What the kernel counted beyond the wrappers: I/O no wrapper saw (raw system calls, static
 * helpers, stdio buffers filled ahead), or why it is not known. */
function unattributedRow(s) {
  const r = s.unattributed_read_bytes, w = s.unattributed_write_bytes, unknown = s.kernel_io_unknown || 0;
  if (r == null && w == null) return unknown ? ['I/O not seen by the profiler', 'unknown (the kernel\'s counts are missing for ' + unknown + ' process' + (unknown === 1 ? '' : 'es') + ')'] : null;
  return ['I/O not seen by the profiler', 'read ' + fmtBytes(r || 0) + ', written ' + fmtBytes(w || 0) + ' (the kernel\'s count beyond the wrappers\')' +
    (unknown ? '; unknown for ' + unknown + ' process' + (unknown === 1 ? '' : 'es') : '')];
}

/* A running step's page reloads itself every LIVE_REFRESH_MS while it is shown. */
const LIVE_REFRESH_MS = 30000;
/* The title, the step's figures and its runtime share; a running step's reload. */
function stepSummary(T, s, job, step) {
  T.appendChild(el('h3', {}, link(Object.assign({}, S.route, { sel: 'job:' + job }), 'Job ' + job), ' › Step ' + s.step + (s.name ? ' · ' + s.name : '') + ' ', el('span', { class: 'state-' + String(s.state || '').replace(/[^A-Z_]/g, ''), text: s.state || '' }), ' ', lightDot(s.insight && s.insight.light, s.insight && s.insight.lost_s, s.insight && s.insight.judged_by_sruns)));
  const cards = el('div', { class: 'cards' });
  T.appendChild(cards);
  const c0 = el('div', { class: 'card' }, el('h4', { text: 'Step' }));
  /* a running step's end is that of its latest snapshot: not an end */
  const running = s.live && s.state === 'RUNNING';
  c0.appendChild(kvTable([['Start', timeSpan(s.start)], ['End', running ? 'still running' : timeSpan(s.end)], ['Runtime', fmtDur(dur(s)) + (running ? ' so far' : '')], ['Nodes', s.nodes], ['Node list', s.node_list], ['Tasks', s.tasks], ['CPUs', s.cpus], ['Processes profiled', s.processes],
    s.killed_processes ? ['Killed by a signal', s.killed_processes + ' process' + (s.killed_processes === 1 ? '' : 'es')] : null,
    ['Exit code', s.exit_code], ['Command', s.command || s.name], s.script ? ['Script', s.script] : null,
    s.cpu_ns != null && s.wall_ns ? ['CPU used', fmtDur(s.cpu_ns / 1e9) + ' (' + (s.cpu_ns / s.wall_ns).toFixed(2) + ' effective threads: CPU time over the processes\' time)'] : null,
    s.max_rss_kib != null ? ['Peak memory', fmtBytes(s.max_rss_kib * 1024) + ' (the largest process)'] : null,
    unattributedRow(s)]));
  if (s.incomplete) T.insertBefore(el('p', { class: 'incomplete', text: 'Incomplete: ' + (s.incomplete_reason || 'some of its data is missing') }), cards);
  if (s.live) {
    T.insertBefore(el('p', { class: 'live-note', text: 'Running: its data so far (snapshot of ' + fmtTime(s.snapshot) + '); this page refreshes every ' + LIVE_REFRESH_MS / 1000 + ' s.' }), cards);
    const sel = 'step:' + job + ':' + step;
    S.liveTimer = setTimeout(() => {
      S.liveTimer = null;
      if (S.route && S.route.sel === sel && !$('#tab-step').hidden) renderStep(job, step).catch(showError);
    }, LIVE_REFRESH_MS);
  }
  const c1 = el('div', { class: 'card' }, el('h4', { text: 'Runtime share' }));
  cards.append(c0, c1);
  chart('step', c1, '', { type: 'doughnut', data: { labels: CATS.map(c => c.label), datasets: [{ data: CATS.map(c => (Number((s.runtime || {})[c.key]) || 0) / 1e9), backgroundColor: CATS.map(c => c.color) }] }, options: { plugins: { legend: { position: 'right' } } } });
  if (!shares(s.runtime)) c1.appendChild(el('p', { class: 'note', text: 'No profile for this step.' }));
}

/* digest: min/avg/max over its processes */
function digestTable(s) {
  const dg = el('table', { class: 'data digest' }, el('thead', {}, el('tr', {}, ['Metric', 'Min', 'Avg', 'Max', 'Processes'].map(h => el('th', { text: h })))));
  const db = el('tbody');
  for (const r of s.digest || []) db.appendChild(el('tr', {}, el('td', { title: r.metric, text: metricLabel(r.metric) }), el('td', { class: 'num', text: fmtMetric(r.metric, r.min) }), el('td', { class: 'num', text: fmtMetric(r.metric, r.avg) }), el('td', { class: 'num', text: fmtMetric(r.metric, r.max) }), el('td', { class: 'num', text: r.n })));
  if (!(s.digest || []).length) db.appendChild(el('tr', {}, el('td', { colspan: 5, class: 'empty', text: 'No profile.' })));
  dg.appendChild(db);
  return [el('h4', { text: 'Digest over processes (totals per process)' }), dg];
}

/* its processes and how each ended (those that did not end well first) */
function processTable(s) {
  const pt = el('table', { class: 'data processes' }, el('thead', {}, el('tr', {}, ['Node', 'PID', 'Task', 'Executable', 'Start', 'Runtime', 'CPU', 'End'].map(h => el('th', { text: h })))));
  const pb = el('tbody');
  for (const p of s.process_list || []) {
    pb.appendChild(el('tr', { class: p.ended_by === 'signal' ? 'killed' : p.ended_by === 'unknown' || p.exit_code || p.missing ? 'unusual' : null },
      el('td', { text: p.node }), el('td', { class: 'num', text: p.pid }), el('td', { class: 'num', text: p.task == null ? '–' : p.task }),
      el('td', { class: 'mono', text: p.exe }), el('td', { text: fmtTime(p.start) }), el('td', { class: 'num', text: fmtDur((p.wall_ns || 0) / 1e9) }),
      el('td', { class: 'num', text: fmtDur((p.cpu_ns || 0) / 1e9) }), el('td', { class: 'end', text: processEnd(p) })));
  }
  if (!(s.process_list || []).length) pb.appendChild(el('tr', {}, el('td', { colspan: 8, class: 'empty', text: 'No profile.' })));
  if (s.process_list_truncated) pb.appendChild(el('tr', {}, el('td', { colspan: 8, class: 'note', text: 'More processes ran: ' + s.processes + ' in all.' })));
  pt.appendChild(pb);
  return pt;
}

/* files under system, package and library directories, counted per tree (profiler.md) */
function softwareTable(s) {
  const sw = s.software || [];
  if (!sw.length) return [];
  const tt = el('table', { class: 'data software' },
    el('thead', {}, el('tr', {}, el('th', { text: 'Tree' }), el('th', { class: 'num', text: 'Opens' }), el('th', { class: 'num', text: 'Read' }), el('th', { class: 'num', text: 'Written' }))));
  const tb = el('tbody');
  for (const t of sw)
    tb.appendChild(el('tr', {}, el('td', { class: 'mono', text: t.tree }), el('td', { class: 'num', text: t.opens }),
      el('td', { class: 'num', text: fmtBytes(t.read_bytes) }), el('td', { class: 'num', text: fmtBytes(t.write_bytes) })));
  tt.appendChild(tb);
  return [el('h4', { text: 'Software (files counted per tree, not listed)' }), tt];
}

export async function renderStep(job, step) {
  if (S.liveTimer) { clearTimeout(S.liveTimer); S.liveTimer = null; }
  destroyCharts('step');
  const T = clear($('#tab-step'));
  T.appendChild(el('p', { class: 'note', text: 'Loading step ' + step + ' of job ' + job + '…' }));
  /* per-slice metrics summed by the server into at most as many points as a chart draws */
  const { step: s } = await api('step', { job, step, points: 1500, gpu_series: 1 });
  clear(T);
  const L = s.slice_seconds || 4;
  stepSummary(T, s, job, step);
  metricSeries(T, s, L);
  spreadCharts(T, s, L);
  gpuCharts(T, s);
  /* the answer first: was it disturbed, by what, what to change; then the background */
  T.appendChild(insightPanel(s));
  document.body.dataset.insightReady = job + ':' + step;
  /* the performance background: this step against all other jobs in the same slices */
  backgroundCard(T, s, job, step);
  T.append(...digestTable(s));
  T.append(el('h4', { text: 'Processes' }), processTable(s), el('h4', { text: 'Files' }), filesTable(s.files || [], false));
  if (s.files_dropped > 0)
    T.appendChild(el('p', { class: 'incomplete', text: s.files_dropped + ' more file' + (s.files_dropped === 1 ? '' : 's') + ' not listed: a process opened more files than its list holds.' }));
  T.append(...softwareTable(s));
}
