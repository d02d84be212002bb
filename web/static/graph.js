// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the workflow graph drawn with the vendored Cytoscape (global cytoscape;
 * layout.js places the boxes), its tooltips, the timeline's time axis and the legend. */
import { CATS, EDGE_KINDS, MODES, NO_PROFILE, shares } from './categories.js';
import { renderEdgeInfo } from './edge.js';
import { buildElements } from './layout.js';
import { S, setHash } from './state.js';
import { $, clear, dur, el, fmtDur, fmtTime, fmtUtc, jobLabel } from './util.js';

/* a job's name stays at least this large on screen, at any zoom */
const LABEL_MIN_PX = 8;

/* The graph's style: boxes coloured from their data, edges by kind; big: a graph too large
 * for curves (straight lines, none while panning). */
function graphStyle(big) {
  return [
    { selector: 'node', style: { shape: 'rectangle', width: 'data(w)', height: 'data(h)', 'font-size': 11, 'min-zoomed-font-size': 6, 'z-index': 1 } },
    { selector: 'node.job, node.group', style: { 'background-color': 'data(bg)', 'border-color': 'data(border)', 'border-width': 1.5, label: 'data(label)', 'text-valign': 'top', 'text-halign': 'center', 'text-margin-y': 18, 'text-wrap': 'ellipsis', 'text-max-width': 'data(w)', 'font-weight': 600 } },
    { selector: 'node.job.failed', style: { 'border-color': '#a3262a', 'border-width': 3 } },
    /* the timeline: the label from the box's left edge, as wide as it needs (timelineLabel) */
    { selector: 'node.tl', style: { 'text-halign': 'right', 'text-margin-x': 'data(lmx)', 'text-max-width': 'data(lw)', 'text-justification': 'left' } },
    { selector: 'node.group', style: { 'border-style': 'double', 'border-width': 4, 'text-valign': 'center', 'text-margin-y': 0 } },
    /* the runtime share as a stacked bar: hard-stop gradients from the data (no per-box style) */
    { selector: 'node.step, node.group', style: { 'background-fill': 'linear-gradient', 'background-gradient-direction': 'to-right', 'background-gradient-stop-colors': 'data(gc)', 'background-gradient-stop-positions': 'data(gs)' } },
    { selector: 'node.step', style: { 'border-width': 1, 'border-color': '#555', label: 'data(label)', 'text-valign': 'center', 'font-size': 10, color: '#111', 'text-background-color': '#fff', 'text-background-opacity': 0.7, 'text-background-padding': 1 } },
    { selector: 'node.files', style: { 'background-color': 'data(bg)', 'border-color': 'data(border)', 'border-width': 1, label: 'data(label)', 'font-size': 9, 'text-valign': 'center' } },
    { selector: 'node.block', style: { 'z-index': 0, 'background-color': '#f4f5f8', 'border-color': '#9aa1ad', 'border-width': 1, 'border-style': 'dashed', label: 'data(label)', 'text-valign': 'top', 'text-halign': 'center', 'text-margin-y': 18, 'font-size': 13, 'font-weight': 600, color: '#555', 'text-max-width': 'data(w)' } },
    { selector: 'node:selected', style: { 'overlay-color': '#2f5fb3', 'overlay-opacity': 0.18, 'border-width': 3, 'border-color': '#2f5fb3' } },
    { selector: 'edge', style: { width: 1.6, 'curve-style': big ? 'straight' : 'bezier', 'target-arrow-shape': 'triangle', 'arrow-scale': 0.9, 'z-index': 2 } },
    ...EDGE_KINDS.map(k => ({ selector: 'edge.' + k.key, style: { 'line-style': k.style, 'line-color': k.color, 'target-arrow-color': k.color } })),
    { selector: 'edge.time', style: { 'line-dash-pattern': [2, 4], width: 2 } },
    /* edges of different kinds between the same jobs must not lie on each other: file and
     * time edges arc to either side of the scheduler's straight line */
    { selector: 'edge.file', style: { 'curve-style': 'unbundled-bezier', 'control-point-distances': [26], 'control-point-weights': [0.5] } },
    { selector: 'edge.time', style: { 'curve-style': 'unbundled-bezier', 'control-point-distances': [-26], 'control-point-weights': [0.5] } },
    { selector: 'edge:selected', style: { width: 3.5 } },
  ];
}

/* What a click, a zoom and the pointer over the graph do: a box selects (a group expands, a
 * block collapses), an edge shows its evidence, the labels keep their size on screen. */
function wireGraph(cy, wf) {
  cy.on('tap', 'node', ev => {
    const d = ev.target.data();
    const r = Object.assign({}, S.route);
    if (d.kind === 'group') { S.expanded.add(d.id); drawGraph(); return; }
    if (d.kind === 'block') { S.expanded.delete(d.group); drawGraph(); return; }
    if (d.kind === 'job') r.sel = 'job:' + d.job;
    else if (d.kind === 'step') r.sel = 'step:' + d.job + ':' + d.step;
    else if (d.kind === 'files') r.sel = 'step:' + d.job + ':' + d.step;
    setHash(r);
  });
  cy.on('tap', 'edge', ev => { renderEdgeInfo(ev.target.data()); });
  cy.on('viewport resize', renderTimeAxis);
  /* job names at any zoom: zoomed out, the labels of jobs, groups and blocks grow in the
   * graph's units so that they stay at least LABEL_MIN_PX on screen (cytoscape drops a label
   * smaller than min-zoomed-font-size); restyled once per frame, in steps of 2 px */
  let raf = 0;
  const keepLabels = () => {
    raf = 0;
    const fs = Math.min(96, Math.max(11, 2 * Math.ceil(LABEL_MIN_PX / cy.zoom() / 2)));
    if (fs === S.labelFs) return;
    S.labelFs = fs;
    cy.style().selector('node.job, node.block').style({ 'font-size': fs, 'text-margin-y': Math.max(18, 1.6 * fs) })
      .selector('node.group').style({ 'font-size': fs }).update();
  };
  S.labelFs = 11;
  cy.on('zoom', () => { if (!raf) raf = requestAnimationFrame(keepLabels); });
  /* tooltips: what a box or an edge stands for, as the browser shows a title */
  const box = $('#graph');
  cy.on('mouseover', 'node, edge', ev => { box.title = tooltipOf(wf, ev.target); });
  cy.on('mouseout', 'node, edge', () => { box.title = ''; });
  return keepLabels;
}

/* Draw the workflow S.wf as S.layout and S.expanded say; document.body.dataset.graphDrawn
 * counts the graphs drawn. */
export function drawGraph() {
  const wf = S.wf;
  const t0 = performance.now();
  const seq = ++S.draws;
  delete document.body.dataset.graphReady;
  const { nodes, edges } = buildElements(wf);
  if (S.cy) S.cy.destroy();
  /* many edges: straight lines (cheaper than bundled curves) and none while panning */
  const big = nodes.length + edges.length > 2000;
  const cy = S.cy = cytoscape({
    container: $('#graph'),
    elements: { nodes, edges },
    layout: { name: 'preset' },
    autoungrabify: true,
    wheelSensitivity: 0.3,
    minZoom: 0.02, maxZoom: 4,
    textureOnViewport: big, hideEdgesOnViewport: big,
    style: graphStyle(big),
  });
  const keepLabels = wireGraph(cy, wf);
  cy.fit(undefined, 20);
  /* a long chain or a big block fits only as a speck: start readable at its beginning instead */
  if (cy.zoom() < 0.35) {
    cy.zoom(0.6);
    const bb = cy.elements().boundingBox();
    cy.pan({ x: 20 - bb.x1 * 0.6, y: cy.height() / 2 - ((bb.y1 + bb.y2) / 2) * 0.6 });
  }
  renderTimeAxis();
  keepLabels();
  const ng = [...wf.groups.keys()].filter(g => !S.expanded.has(g)).length;
  $('#expand-all').textContent = ng || !wf.groups.size ? 'Expand groups' : 'Collapse groups';
  /* ready once cytoscape has drawn the first frame (what the browser test and bench wait for) */
  cy.one('render', () => {
    if (S.draws !== seq) return;
    const ms = performance.now() - t0;
    $('#graph-status').textContent = wf.jobs.length + ' jobs, ' + wf.edges.length + ' edges' + (ng ? ', ' + ng + ' collapsed group(s)' : '') + ' · ' + (nodes.length + edges.length) + ' elements drawn in ' + ms.toFixed(0) + ' ms';
    document.body.dataset.graphDrawn = String(seq);
    document.body.dataset.graphReady = S.layout;
  });
}

/* The tooltip of a graph element: a job's name, state, times and runtime share; a group's
 * size; a step's time and share; a file box's count; an edge's kind and ends. */
function tooltipOf(wf, t) {
  const d = t.data(), job = id => wf.jobs.find(j => j.id === id);
  const shareText = rt => { const sh = shares(rt); return sh ? CATS.map((c, i) => sh[i] >= 0.005 ? c.label + ' ' + (100 * sh[i]).toFixed(0) + '%' : null).filter(Boolean).join(', ') : 'no profile'; };
  if (t.isEdge()) return ({ scheduler: 'scheduler dependency', time: 'started right after the other ended', file: 'a file written, then read' })[d.kind] + (d.ev ? ': Job ' + d.ev.from_job + ' → Job ' + d.ev.to_job : '') + (d.n > 1 ? ' (' + d.n + ' edges)' : '') + ' (click for the evidence)';
  if (d.kind === 'job') {
    const j = job(d.job);
    return j ? 'Job ' + jobLabel(j) + (j.name ? ' · ' + j.name : '') + '\n' + (j.state || '') + ', ' + fmtTime(j.start) + ' – ' + fmtTime(j.end) + ' (' + fmtDur(dur(j)) + ')\n' + shareText(j.runtime) : d.label;
  }
  if (d.kind === 'step') {
    const j = job(d.job), st = j && j.steps.find(x => String(x.step) === d.step);
    return 'Job ' + d.job + ' step ' + d.step + (st ? '\n' + fmtTime(st.start) + ' – ' + fmtTime(st.end) + ' (' + fmtDur(dur(st)) + ')\n' + shareText(st.runtime) : '');
  }
  if (d.kind === 'files') return 'Job ' + d.job + ' step ' + d.step + ': ' + d.title;
  return d.label || '';
}

/* The timeline's time axis over the graph: ticks at round times (local time; UTC on hover),
 * placed as cytoscape places the boxes (x = (t - tmin) * k * zoom + pan.x), redrawn on every
 * pan and zoom. */
const TICK_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];
function renderTimeAxis() {
  const ax = $('#time-axis'), cy = S.cy, tl = S.timeline;
  if (!cy || S.layout !== 'timeline' || !tl) { ax.hidden = true; return; }
  ax.hidden = false;
  clear(ax);
  const z = cy.zoom(), px = cy.pan().x, W = ax.clientWidth || cy.width();
  const tAt = x => tl.tmin + (x - px) / z / tl.k;
  const t0 = tAt(0), t1 = tAt(W);
  const step = TICK_STEPS.find(st => (t1 - t0) / st <= 8) || TICK_STEPS[TICK_STEPS.length - 1];
  const p = n => String(n).padStart(2, '0');
  const label = t => {
    const d = new Date(t * 1000);
    if (step >= 86400) return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate());
    return p(d.getHours()) + ':' + p(d.getMinutes()) + (step < 60 ? ':' + p(d.getSeconds()) : '');
  };
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
    const x = (t - tl.tmin) * tl.k * z + px;
    ax.appendChild(el('span', { class: 'tick', style: 'left:' + x.toFixed(1) + 'px', 'data-t': t, title: fmtUtc(t), text: label(t) }));
  }
}

export function renderLegend() {
  const L = clear($('#legend'));
  for (const c of CATS) L.appendChild(el('span', {}, el('span', { class: 'sw', style: 'background:' + c.color }), c.label));
  L.appendChild(el('span', {}, el('span', { class: 'sw', style: 'background:' + NO_PROFILE }), 'no profile'));
  for (const m of MODES) L.appendChild(el('span', {}, el('span', { class: 'sw', style: 'background:' + m.color + ';border-color:' + m.border }), 'files ' + m.label));
  for (const k of EDGE_KINDS) L.appendChild(el('span', { class: 'edge-' + k.key }, el('span', { class: 'ln ' + k.key, style: 'border-top-color:' + k.color }), k.label));
}
