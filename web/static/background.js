// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: a step's performance background (docs/api.md, background): its own rate of
 * a metric against all other jobs' in the same slices (whole cluster or its nodes), its
 * disturbed stretches shaded, and for an admin the jobs that contributed most. */
import { el, clear, fmtNum, fmtBytes } from './util.js';
import { api } from './api.js';
import { S, link } from './state.js';
import { chart, destroyCharts, timeAxis, seriesPoints, ratePoints } from './charts.js';
import { CAUSE_METRICS, stretchSpan } from './insight.js';
import { ALL_METRICS } from './series.js';

/* the disturbed stretches [t0, t1], shaded behind the lines (a plugin of this chart only) */
function shadePlugin(spans) {
  return { id: 'disturbedStretches', beforeDatasetsDraw(c) {
    const a = c.chartArea, x = c.scales.x;
    let n = 0;
    c.ctx.save();
    c.ctx.fillStyle = 'rgba(214,39,40,0.13)';
    for (const [t0, t1] of spans) {
      const x0 = Math.max(a.left, x.getPixelForValue(t0)), x1 = Math.min(a.right, x.getPixelForValue(t1));
      if (x1 > x0) { c.ctx.fillRect(x0, a.top, x1 - x0, a.bottom - a.top); n++; }
    }
    c.ctx.restore();
    c.canvas.dataset.shaded = String(n);
  } };
}

/* The chart of q.metric in q.scope for the step s of q.job, q.step, drawn into bgBox. */
async function drawBackground(bgBox, s, q, shade) {
  destroyCharts('bg');
  clear(bgBox);
  const L = s.slice_seconds || 4, params = Object.assign({}, q, { points: 1500 });
  if (S.me.admin) params.top = 5;
  let b;
  try { b = await api('background', params); } catch (e) { bgBox.appendChild(el('p', { class: 'error', text: e.message })); return; }
  if (b.withheld) bgBox.appendChild(el('p', { class: 'note', text: 'Other jobs: ' + b.withheld + '.' }));
  const m = q.metric, ser = b.series || {}, p = seriesPoints(ser);
  const scale = m.endsWith('_ns') ? 1e-9 : 1;
  chart('bg', bgBox, 'wide', {
    type: 'line',
    plugins: [shade],
    data: { datasets: [
      { label: 'this step: ' + m, data: ratePoints(p, (ser.metrics || {})[m], scale), borderColor: '#d62728', backgroundColor: '#d62728', yAxisID: 'y', pointRadius: p.t.length < 60 ? 3 : 0, stepped: true },
      ...(b.withheld ? [] : [{ label: 'all other jobs (' + (b.scope === 'nodes' ? 'same nodes' : 'whole cluster') + ')', data: ratePoints(p, (ser.others || {})[m], scale), borderColor: '#7a8aa8', backgroundColor: 'rgba(122,138,168,0.25)', fill: true, yAxisID: 'y2', pointRadius: 0, stepped: true }]),
    ] },
    options: { scales: { x: Object.assign(timeAxis(), { min: (s.start != null ? s.start : p.t[0]) - L, max: (s.end != null ? s.end : 0) + L }), y: { beginAtZero: true, title: { display: true, text: 'this step /s' } }, y2: { beginAtZero: true, position: 'right', grid: { drawOnChartArea: false }, title: { display: true, text: 'background /s' } } } },
  });
  bgBox.appendChild(el('p', { class: 'note', text: 'A dent in this step\'s rate where the background peaks hints at interference; the metric names the likely source. Busiest slice: ' + (ser.other_step_nodes || []).reduce((a, v) => Math.max(a, v), 0) + ' other step(s) × node(s) active.' }));
  if (b.top) {
    const t = el('table', { class: 'data top' }, el('thead', {}, el('tr', {}, ['Job', 'User', 'Name', 'Slices', b.top_metric || 'value', 'I/O bytes', 'MPI bytes', 'CPU s'].map(h => el('th', { text: h })))));
    const tb = el('tbody');
    for (const r of b.top) tb.appendChild(el('tr', {}, el('td', {}, link({ view: 'workflow', job: r.job, sel: 'job:' + r.job }, String(r.job))), el('td', { text: r.user }), el('td', { text: r.name }), el('td', { class: 'num', text: r.slices }), el('td', { class: 'num', text: fmtNum(r.value) }), el('td', { class: 'num', text: fmtBytes(r.io_bytes) }), el('td', { class: 'num', text: fmtBytes(r.mpi_bytes) }), el('td', { class: 'num', text: fmtNum((r.cpu_ns || 0) / 1e9) })));
    t.appendChild(tb);
    bgBox.append(el('h4', { text: 'Top contributing jobs (admins only)' }), t);
  }
  document.body.dataset.backgroundReady = q.job + ':' + q.step;
}

/* The background card with its metric and scope; a disturbed step opens on the metric and
 * scope of its largest disturbed stretch. */
export function backgroundCard(T, s, job, step) {
  const L = s.slice_seconds || 4, cols = (s.series || {}).metrics || {};
  const bg = el('div', { class: 'card background' }, el('h4', { text: 'Performance background' }));
  T.appendChild(bg);
  const controls = el('div', { class: 'controls' });
  const metricSel = el('select', { name: 'metric' }, ALL_METRICS.map(m => el('option', { value: m, text: m })));
  const ownUses = m => (cols[m] || []).some(v => v > 0);
  const firstUsed = ALL_METRICS.find(ownUses);
  /* a disturbed step opens on the metric and scope of its largest disturbed stretch */
  const ev0 = ((s.insight || {}).evidence || [])[0], causeMetrics = ev0 && CAUSE_METRICS[ev0.background];
  metricSel.value = causeMetrics ? causeMetrics.find(ownUses) || causeMetrics[0] : firstUsed || 'cpu_ns';
  const scopeSel = el('select', { name: 'scope' }, el('option', { value: 'cluster', text: 'whole cluster' }), el('option', { value: 'nodes', text: 'same nodes' }));
  if (ev0 && ev0.scope === 'nodes') scopeSel.value = 'nodes';
  const shade = shadePlugin(((s.insight || {}).evidence || []).map(e => stretchSpan(e, L)).filter(x => x));
  controls.append(el('label', {}, 'Metric ', metricSel), el('label', {}, 'Scope ', scopeSel));
  bg.appendChild(controls);
  const bgBox = el('div');
  bg.appendChild(bgBox);
  const drawBg = () => drawBackground(bgBox, s, { job, step, scope: scopeSel.value, metric: metricSel.value }, shade);
  metricSel.addEventListener('change', drawBg);
  scopeSel.addEventListener('change', drawBg);
  drawBg();
}
