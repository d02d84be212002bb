// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the graph's elements and where they lie, for the current layout (graph,
 * duration, timeline) and expansion. dagre lays out the units (a job, or a group collapsed
 * into one box); an expanded group is one unit for dagre too, a block whose members the grid
 * layout places side by side: expanding never lays out the jobs one by one. */
import { dur, jobLabel } from './util.js';
import { S } from './state.js';
import { CATS, MODES, shares, gradient } from './categories.js';
import { FANOUT_MAX, unitOf } from './workflow-data.js';

/* Sizes of the boxes, per layout. */
const STEP_H = 34, FILE_H = 16, TITLE_H = 20, PAD = 8, GAP = 6, EQ_W = 200, BLOCK_GAP = 24, DAGRE_SIMPLEX_MAX = 60;
/* The timeline is true to scale: a box spans its job's start to end (at least TL_MIN_W, a
 * sliver for a job of no length); its label starts at the box's left edge and may run past
 * a short box, so a row keeps the label's room (about 6.6 px per character, at most
 * TL_LABEL_MAX) free after it. */
const TL_MIN_W = 4, TL_LABEL_MAX = 240;
function timelineLabel(u, layout) {
  if (layout !== 'timeline') return;
  const d = u.node.data;
  d.lw = Math.min(TL_LABEL_MAX, Math.max(u.w, String(d.label).length * 6.6 + 8));
  d.lmx = -u.w;
  u.node.classes += ' tl';
  u.room = Math.max(u.w, d.lw);
}
function layoutScale(wf) {
  const ds = wf.jobs.map(dur).filter(d => d != null && d > 0);
  const maxd = ds.length ? Math.max(...ds) : 1;
  if (S.layout === 'timeline') {
    /* the whole span on about 1200 px, whatever the waits between jobs */
    const t0 = Math.min(...wf.jobs.map(j => j.start).filter(t => t != null));
    const t1 = Math.max(...wf.jobs.map(j => j.end).filter(t => t != null));
    if (isFinite(t0) && isFinite(t1) && t1 > t0) return { maxd, k: Math.min(1200 / (t1 - t0), 640 / maxd * 4) };
  }
  return { maxd, k: 640 / maxd };
}

/* The units (a job, or a collapsed group) and the blocks of the expanded groups. */
function collectUnits(wf, layout) {
  const units = new Map(), blocks = new Map();
  for (const j of wf.jobs) {
    const u = unitOf(wf, j.id);
    if (!units.has(u)) units.set(u, { id: u, jobs: [] });
    units.get(u).jobs.push(j);
    /* a member of an expanded group: in its group's block (the timeline places by time) */
    if (layout !== 'timeline' && j.group && S.expanded.has(j.group)) {
      if (!blocks.has(j.group)) blocks.set(j.group, { id: 'b' + j.group.slice(1), group: wf.groups.get(j.group), members: [] });
      const b = blocks.get(j.group);
      if (!b.members.includes(u)) b.members.push(u);
      units.get(u).block = b;
    }
  }
  return { units, blocks };
}

/* A collapsed group's box: as wide as its longest member (graph: fixed), its summed share. */
function groupBox(u, g, layout, k, hue) {
  const d = Math.max(...g.members.map(m => dur(m) || 0));
  const starts = g.members.map(m => m.start).filter(t => t != null);
  const ends = g.members.map(m => m.end).filter(t => t != null);
  u.start = starts.length ? Math.min(...starts) : null;
  u.end = ends.length ? Math.max(...ends) : null;
  u.w = layout === 'graph' ? EQ_W : layout === 'duration' ? Math.max(90, d * k) : Math.max(TL_MIN_W, ((u.end || 0) - (u.start || 0)) * k);
  u.h = TITLE_H + STEP_H + 2 * PAD;
  const rt = {};
  for (const m of g.members) for (const c of CATS) rt[c.key] = (rt[c.key] || 0) + (Number((m.runtime || {})[c.key]) || 0);
  u.node = { data: { id: u.id, kind: 'group', label: (g.array ? 'Array ' + g.key.slice(6) + ': ' : '') + (g.name || 'jobs') + ' ×' + g.members.length + '  (click to expand)', w: u.w, h: u.h, bg: 'hsl(' + hue + ',45%,90%)', border: 'hsl(' + hue + ',40%,45%)' }, classes: 'group' };
  timelineLabel(u, layout);
  u.rt = rt;
}

/* A job's box: room for its steps (and their file boxes), to the layout's scale. */
function jobBox(u, layout, k, hue) {
  const j = u.jobs[0];
  u.start = j.start; u.end = j.end;
  const steps = j.steps;
  const hasFiles = steps.some(s => s.files && (s.files.r || s.files.rw || s.files.w));
  u.h = TITLE_H + STEP_H + (hasFiles ? FILE_H + 4 : 0) + 2 * PAD;
  const jd = dur(j) || 0;
  if (layout === 'graph') u.w = EQ_W;
  else if (layout === 'duration') {
    const stepsW = steps.reduce((a, s) => a + Math.max(24, (dur(s) || 0) * k), 0) + GAP * Math.max(0, steps.length - 1);
    u.w = Math.max(90, jd * k, stepsW + 2 * PAD);
  } else u.w = Math.max(TL_MIN_W, jd * k); /* the timeline: true to scale */
  u.node = { data: { id: u.id, kind: 'job', job: j.id, label: 'Job ' + jobLabel(j) + (j.name ? ' · ' + j.name : '') + (j.state && j.state !== 'COMPLETED' ? ' · ' + j.state : ''), w: u.w, h: u.h, bg: 'hsl(' + hue + ',45%,93%)', border: 'hsl(' + hue + ',40%,45%)' }, classes: 'job' + (j.state === 'FAILED' ? ' failed' : '') };
  timelineLabel(u, layout);
}

/* a block: its members on a grid of equal cells, about as wide as tall */
function sizeBlocks(blocks, units) {
  for (const b of blocks.values()) {
    const ms = b.members.map(id => units.get(id));
    b.cellW = Math.max(...ms.map(u => u.w)) + BLOCK_GAP;
    b.cellH = Math.max(...ms.map(u => u.h)) + BLOCK_GAP;
    b.cols = Math.max(1, Math.min(ms.length, Math.ceil(Math.sqrt(ms.length * b.cellH / b.cellW))));
    b.rows = Math.ceil(ms.length / b.cols);
    b.w = b.cols * b.cellW + 2 * PAD;
    b.h = b.rows * b.cellH + TITLE_H + 2 * PAD;
  }
}

/* The timeline: each unit at its start, in the first row free by then. */
function timelinePositions(units, tmin, k) {
  const pos = new Map(), rows = [];
  const list = [...units.values()].sort((x, y) => (x.start || 0) - (y.start || 0));
  for (const u of list) {
    const x0 = u.start != null ? (u.start - tmin) * k : 0;
    let r = rows.findIndex(end => end <= x0 + 0.5);
    if (r < 0) { r = rows.length; rows.push(0); }
    rows[r] = x0 + (u.room || u.w) + 12;
    u.row = r;
    pos.set(u.id, { x: x0 + u.w / 2, y: 0 });
  }
  const rowH = Math.max(...list.map(u => u.h)) + 40;
  for (const u of list) pos.get(u.id).y = u.row * rowH + u.h / 2;
  return pos;
}

/* The two graph layouts: dagre (headless cytoscape) places the units and blocks, the grid
 * layout the members of each block. */
function dagrePositions(wf, units, blocks, place, layout) {
  const pos = new Map(), unitEdges = new Map();
  for (const e of wf.edges) {
    const a = unitOf(wf, e.from_job), b = unitOf(wf, e.to_job);
    if (!a || !b || a === b) continue;
    const pa = place(a), pb = place(b);
    if (pa === pb) continue;
    const key = pa + '>' + pb;
    if (!unitEdges.has(key)) unitEdges.set(key, { a: pa, b: pb });
  }
  const headless = cytoscape({ headless: true, styleEnabled: true, style: [{ selector: 'node', style: { shape: 'rectangle', width: 'data(w)', height: 'data(h)' } }] });
  const tops = [...units.values()].filter(u => !u.block).map(u => ({ data: { id: u.id, w: u.w, h: u.h } }));
  for (const b of blocks.values()) tops.push({ data: { id: b.id, w: b.w, h: b.h } });
  headless.add(tops);
  headless.add([...unitEdges.values()].map((e, i) => ({ data: { id: 'he' + i, source: e.a, target: e.b } })));
  /* network simplex ranks a small graph best; longest path is far cheaper for a big one */
  headless.layout({ name: 'dagre', rankDir: 'LR', nodeSep: 30, rankSep: layout === 'duration' ? 50 : 70, edgeSep: 10, animate: false, ranker: tops.length > DAGRE_SIMPLEX_MAX ? 'longest-path' : 'network-simplex' }).run();
  headless.nodes().forEach(n => pos.set(n.id(), { x: n.position('x'), y: n.position('y') }));
  /* the members of each block: cytoscape's grid layout inside the block's box */
  for (const b of blocks.values()) {
    const p = pos.get(b.id);
    b.x = p.x; b.y = p.y;
    const ms = headless.add(b.members.map(id => ({ data: { id: 'm' + id, w: b.cellW - BLOCK_GAP, h: b.cellH - BLOCK_GAP } })));
    ms.layout({ name: 'grid', fit: false, avoidOverlap: false, condense: false, cols: b.cols, rows: b.rows, animate: false,
      boundingBox: { x1: p.x - b.w / 2 + PAD, y1: p.y - b.h / 2 + TITLE_H + PAD, w: b.cols * b.cellW, h: b.rows * b.cellH } }).run();
    ms.forEach(n => pos.set(n.id().slice(1), { x: n.position('x'), y: n.position('y') }));
  }
  headless.destroy();
  return pos;
}

/* the frames of the expanded groups, behind their members */
function blockFrames(blocks) {
  return [...blocks.values()].map(b => {
    const g = b.group;
    return { data: { id: b.id, kind: 'block', group: g.id, label: (g.array ? 'Array ' + g.key.slice(6) + ': ' : '') + (g.name || 'jobs') + ' ×' + g.members.length + '  (click here to collapse)', w: b.w, h: b.h }, classes: 'block', position: { x: b.x, y: b.y } };
  });
}

/* A unit's box at p and what it holds: a job's step boxes along it (equal, by duration, or at
 * their time), under each its file boxes, one per access mode (read-only, read-write,
 * write-only, left to right). stepNode maps "job.step" to its box. */
function unitNodes(u, p, k, stepNode) {
  const left = p.x - u.w / 2, top = p.y - u.h / 2;
  u.node.position = { x: p.x, y: p.y };
  if (u.id.startsWith('g')) {
    const g = gradient(shares(u.rt));
    u.node.data.gc = g.colors; u.node.data.gs = g.stops;
    return [u.node];
  }
  const j = u.jobs[0], steps = j.steps, nodes = [u.node];
  const inner = u.w - 2 * PAD;
  let x = left + PAD;
  const sy = top + TITLE_H + PAD + STEP_H / 2;
  steps.forEach((s, i) => {
    let sw, sx;
    if (S.layout === 'graph') { sw = (inner - GAP * (steps.length - 1)) / steps.length; sx = x; x += sw + GAP; }
    else if (S.layout === 'duration') { sw = Math.max(24, (dur(s) || 0) * k); sx = x; x += sw + GAP; }
    else {
      /* at its time, to the job's scale (no padding: the box is the job's time span) */
      sw = Math.max(2, (dur(s) || 0) * k);
      sx = j.start != null && s.start != null ? left + Math.max(0, (s.start - j.start) * k) : x;
      sx = Math.max(left, Math.min(sx, left + u.w - sw));
      x = sx + sw + 1;
    }
    if (S.layout !== 'timeline') sw = Math.max(4, sw);
    const id = 's' + j.id + '.' + s.step;
    stepNode.set(j.id + '.' + s.step, id);
    const g = gradient(shares(s.runtime));
    nodes.push({ group: 'nodes', data: { id, kind: 'step', job: j.id, step: String(s.step), label: S.layout !== 'timeline' || sw >= 40 ? 'Step ' + s.step : '', w: sw, h: STEP_H, gc: g.colors, gs: g.stops }, classes: 'step', position: { x: sx + sw / 2, y: sy } });
    if (i === 0 && sw < 1) return;
    const f = s.files || {};
    const present = MODES.filter(m => f[m.key]);
    if (!present.length) return;
    const fw = (sw - 2 * (present.length - 1)) / present.length;
    present.forEach((m, mi) => {
      nodes.push({ data: { id: id + '.f' + m.key, kind: 'files', job: j.id, step: String(s.step), mode: m.key, label: fw > 26 ? m.key + ' ' + f[m.key] : '', w: Math.max(2, fw), h: FILE_H, bg: m.color, border: m.border, title: f[m.key] + ' ' + m.label + ' file(s)' }, classes: 'files', position: { x: sx + mi * (fw + 2) + fw / 2, y: sy + STEP_H / 2 + 4 + FILE_H / 2 } });
    });
  });
  return nodes;
}

/* edges: scheduler and time between job boxes; file edges between step boxes. Where one
 * box has more than FANOUT_MAX edges of a kind with members of a block (a fan-out into an
 * expanded array), they are drawn as one edge to the block. */
function graphEdges(wf, place, stepNode) {
  const drawn = [], edges = [];
  for (const e of wf.edges) {
    const ua = unitOf(wf, e.from_job), ub = unitOf(wf, e.to_job);
    if (!ua || !ub) continue;
    let a = ua, b = ub;
    if (e.kind === 'file' && a.startsWith('j') && b.startsWith('j')) {
      a = stepNode.get(e.from_job + '.' + e.from_step) || a;
      b = stepNode.get(e.to_job + '.' + e.to_step) || b;
    }
    if (a !== b) drawn.push({ e, a, b, ba: place(ua), bb: place(ub) });
  }
  const fan = new Map();
  const fanKey = d => d.ba === d.bb ? [] : [d.bb !== d.b && d.bb.startsWith('b') ? d.e.kind + ':' + d.a + '>' + d.bb : null, d.ba !== d.a && d.ba.startsWith('b') ? d.e.kind + ':' + d.ba + '>' + d.b : null].filter(Boolean);
  for (const d of drawn) for (const key of fanKey(d)) fan.set(key, (fan.get(key) || 0) + 1);
  const seen = new Map();
  for (const d of drawn) {
    let { a, b } = d;
    for (const key of fanKey(d)) if (fan.get(key) > FANOUT_MAX) { if (key.endsWith('>' + d.bb)) b = d.bb; else a = d.ba; }
    if (a === b) continue;
    const key = d.e.kind + ':' + a + '>' + b;
    if (seen.has(key)) { seen.get(key).data.n++; continue; }
    const ed = { data: { id: 'e' + seen.size, source: a, target: b, kind: d.e.kind, n: 1, ev: d.e }, classes: 'edge ' + d.e.kind };
    seen.set(key, ed);
    edges.push(ed);
  }
  return edges;
}

/* Build the elements of the graph for the current layout and expansion (S.layout,
 * S.expanded); sets S.timeline, what the time axis needs. */
export function buildElements(wf) {
  const layout = S.layout;
  const { k } = layoutScale(wf);
  const tmin = Math.min(...wf.jobs.map(j => j.start).filter(t => t != null), Infinity);
  const { units, blocks } = collectUnits(wf, layout);
  let hue = 0;
  for (const u of units.values()) {
    hue = (hue + 137) % 360;
    if (u.id.startsWith('g')) groupBox(u, wf.groups.get(u.id), layout, k, hue);
    else jobBox(u, layout, k, hue);
  }
  sizeBlocks(blocks, units);
  const place = id => { const u = units.get(id); return u && u.block ? u.block.id : id; };
  /* positions of the units: dagre for the two graph layouts, time and rows for the timeline */
  S.timeline = layout === 'timeline' && isFinite(tmin) ? { tmin, k } : null;
  const pos = layout === 'timeline' ? timelinePositions(units, tmin, k) : dagrePositions(wf, units, blocks, place, layout);
  const nodes = blockFrames(blocks), stepNode = new Map();
  for (const u of units.values()) nodes.push(...unitNodes(u, pos.get(u.id), k, stepNode));
  return { nodes, edges: graphEdges(wf, place, stepNode) };
}
