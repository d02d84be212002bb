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
