// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: a step's time series (docs/api.md, step "series" and its "spread"): its own
 * metrics per slice, summed over its nodes, as rates per second, and the spread across its
 * processes. Series names are the metrics' own; Chart.js draws them as text. */
import { el, fmtTime } from './util.js';
import { chart, palette, timeAxis, seriesPoints, ratePoints } from './charts.js';

/* The metrics of a slice vector (docs/profile-format.md), grouped for the charts. */
const METRIC_GROUPS = [
  { label: 'I/O bytes', metrics: ['posix_read_bytes', 'posix_write_bytes', 'stdio_read_bytes', 'stdio_write_bytes', 'mpiio_read_bytes', 'mpiio_write_bytes'], unit: 'B/s' },
  { label: 'I/O calls', metrics: ['posix_read_calls', 'posix_write_calls', 'posix_open_calls', 'posix_meta_calls', 'stdio_read_calls', 'stdio_write_calls', 'stdio_open_calls', 'stdio_meta_calls'], unit: 'calls/s' },
  { label: 'MPI', metrics: ['mpi_send_bytes', 'mpi_recv_bytes', 'mpi_coll_bytes', 'mpi_send_calls', 'mpi_coll_calls'], unit: '/s' },
  { label: 'CPU', metrics: ['cpu_ns'], unit: 'CPU s/s', scale: 1e-9 },
];
export const ALL_METRICS = METRIC_GROUPS.flatMap(g => g.metrics);
/* The kernel's counts per slice (profile format 5; the step's own only, no background) and
 * what it counted beyond the wrappers: I/O no wrapper saw. */
const KERNEL_GROUPS = [
  { label: 'I/O the kernel counted; unattributed = beyond the wrappers', metrics: ['unattributed_read_bytes', 'unattributed_write_bytes', 'kernel_rchar', 'kernel_wchar', 'kernel_read_bytes', 'kernel_write_bytes'], unit: 'B/s' },
  { label: 'System calls the kernel counted', metrics: ['kernel_syscr', 'kernel_syscw'], unit: 'calls/s' },
];

/* How far apart the step's processes were, slice by slice: the most and the least one process
 * had (the node keeps them when it folds; docs/api.md, "spread"), where several ran at once. */
const SPREAD = [{ key: 'cpu_ns', label: 'CPU', unit: 'CPUs', scale: 1e-9 }, { key: 'mpi_ns', label: 'Time in MPI calls', unit: 'threads', scale: 1e-9 },
  { key: 'io_ns', label: 'Time in I/O calls', unit: 'threads', scale: 1e-9 }, { key: 'io_bytes', label: 'I/O bytes', unit: 'B/s', scale: 1 }];
export function spreadCharts(T, s, L) {
  const ser = s.series || {}, sp = ser.spread || {}, procs = sp.processes || [], p = seriesPoints(ser);
  const several = procs.map((n, i) => n > 1);
  const cols = v => sp[v.key] || { min: [], max: [], node: [], pid: [] };
  const used = SPREAD.filter(v => cols(v).max.some((hi, i) => several[i] && hi != null && hi > cols(v).min[i]));
  if (!used.length) return;
  T.appendChild(el('h4', { text: 'Spread across processes per slice: the most and the least one process had' }));
  const box = el('div', { class: 'cards spread' });
  T.appendChild(box);
  for (const v of used) {
    const c = cols(v), only = a => a.map((x, i) => (several[i] ? x : null));
    const card = el('div', { class: 'card' }, el('h4', { text: v.label + ' (' + v.unit + ')' }));
    box.appendChild(card);
    const most = ratePoints(p, only(c.max), v.scale), least = ratePoints(p, only(c.min), v.scale);
    chart('step', card, '', { type: 'line', data: { datasets: [
      { label: 'most', data: most, borderColor: palette(1), backgroundColor: palette(1), pointRadius: most.length < 60 ? 3 : 0, stepped: true },
      { label: 'least', data: least, borderColor: palette(2), backgroundColor: palette(2), pointRadius: least.length < 60 ? 3 : 0, stepped: true }] },
      options: { scales: { x: Object.assign(timeAxis(), { min: (s.start != null ? s.start : 0) - L, max: (s.end != null ? s.end : 0) + L }), y: { beginAtZero: true } } } });
    const top = c.max.reduce((a, hi, i) => (several[i] && hi != null && (a < 0 || hi > c.max[a]) ? i : a), -1);
    if (top >= 0) card.appendChild(el('p', { class: 'note', text: 'The most: ' + (c.pid[top] != null ? 'process ' + c.pid[top] + ' on ' : '') + sp.node_names[c.node[top]] + ' at ' + fmtTime(p.t[top]) + '.' }));
  }
}

/* time series of its own metrics (summed over its nodes), rates per second */
export function metricSeries(T, s, L) {
  T.appendChild(el('h4', { text: 'Metrics per slice (' + L + ' s), summed over the step\'s nodes' }));
  const series = el('div', { class: 'cards' });
  T.appendChild(series);
  const ser = s.series || {}, cols = ser.metrics || {}, p = seriesPoints(ser);
  for (const g of METRIC_GROUPS.concat(KERNEL_GROUPS)) {
    const used = g.metrics.filter(m => (cols[m] || []).some(v => v > 0));
    if (!used.length) continue;
    const card = el('div', { class: 'card' }, el('h4', { text: g.label + ' (' + g.unit + ')' }));
    series.appendChild(card);
    chart('step', card, '', { type: 'line', data: { datasets: used.map((m, i) => ({ label: m, data: ratePoints(p, cols[m], g.scale), borderColor: palette(i + 2), backgroundColor: palette(i + 2), pointRadius: p.t.length < 60 ? 3 : 0, stepped: true })) }, options: { scales: { x: Object.assign(timeAxis(), { min: (s.start != null ? s.start : 0) - L, max: (s.end != null ? s.end : 0) + L }), y: { beginAtZero: true } } } });
  }
  if (!Object.keys(cols).length) series.appendChild(el('p', { class: 'empty', text: 'No per-slice metrics for this step.' }));
}
