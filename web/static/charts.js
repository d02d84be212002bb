// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: Chart.js charts (the vendored UMD build sets the global Chart), kept per
 * scope (workflow, job, step, bg, file) so that a tab destroys its own before it redraws. */
import { S } from './state.js';
import { el } from './util.js';

export function destroyCharts(scope) {
  S.charts = S.charts.filter(c => { if (c.scope === scope) { c.chart.destroy(); return false; } return true; });
}
export function chart(scope, parent, cls, cfg) {
  const box = el('div', { class: 'chart ' + (cls || '') });
  const canvas = el('canvas');
  box.appendChild(canvas);
  parent.appendChild(box);
  cfg.options = Object.assign({ responsive: true, maintainAspectRatio: false, animation: false }, cfg.options || {});
  const c = new Chart(canvas, cfg);
  S.charts.push({ scope, chart: c });
  return c;
}
export const palette = i => 'hsl(' + ((i * 137) % 360) + ',55%,60%)';

/* an axis range around some times, padded by 5 % (at least 1 s) */
export function xRange(ts) {
  const v = ts.filter(t => t != null && isFinite(t));
  if (!v.length) return {};
  const lo = Math.min(...v), hi = Math.max(...v), pad = Math.max(1, (hi - lo) * 0.05);
  return { min: lo - pad, max: hi + pad };
}
export function timeAxis() {
  return { type: 'linear', ticks: { maxTicksLimit: 8, callback: v => new Date(v * 1000).toISOString().slice(11, 19) } };
}

/* A series of docs/api.md ("Series": columns, one array per metric): per point its time
 * (epoch s, the start of its first slice) and how many slices it holds, to turn sums into
 * rates. Points lie slices_per_point apart from first_slice (the last may hold fewer), or at
 * the slices of the array `slice` where the series has one. */
export function seriesPoints(ser) {
  const n = (ser && ser.points) || 0, w = (ser && ser.slices_per_point) || 1, L = (ser && ser.slice_seconds) || 4;
  const t = new Array(n), slices = new Array(n);
  for (let i = 0; i < n; i++) {
    const first = ser.slice ? ser.slice[i] : ser.first_slice + i * w;
    t[i] = first * L;
    slices[i] = ser.slice ? w : Math.min(w, ser.slices - i * w);
  }
  return { t, slices, L };
}
/* the points of one array as chart data: rates per second (scale: a unit's factor); null skipped */
export function ratePoints(p, values, scale) {
  const out = [];
  (values || []).forEach((v, i) => { if (v != null) out.push({ x: p.t[i], y: v * (scale || 1) / (p.L * p.slices[i]) }); });
  return out;
}
