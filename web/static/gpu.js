// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: a step's GPUs (docs/api.md, step "gpus"; docs/gpu.md): per metric a chart
 * with a line a GPU (SM utilization, memory used, power, per slice), a table of each GPU's
 * figures over the step, and a table of the step's processes on each GPU; the job tab's line
 * per step. Every string from the API goes through textContent or a chart label. */
import { el } from './util.js';
import { api } from './api.js';
import { S } from './state.js';
import { chart, palette, timeAxis, seriesPoints } from './charts.js';

/* An energy in the unit read at a glance (J, Wh, kWh, as the terminal report writes it); with
 * co2, its CO2 where the site set co2_g_per_kwh (the me endpoint), else nothing of CO2. */
export function energyText(j, co2) {
  if (j == null) return '-';
  const e = j < 3600 ? j.toFixed(1) + ' J' : j < 3.6e6 ? (j / 3600).toFixed(1) + ' Wh' : (j / 3.6e6).toFixed(1) + ' kWh';
  const c = S.me && S.me.co2_g_per_kwh;
  if (!co2 || c == null) return e;
  const g = j / 3.6e6 * c;
  return e + '; ' + (g < 1000 ? g.toFixed(1) + ' g' : (g / 1000).toFixed(1) + ' kg') + ' CO2';
}
const energyParts = o => energyText(o.energy_j, true) + ' (GPUs ' + energyText(o.gpu_energy_j) + ', CPUs ' +
  (o.cpu_energy_j == null ? 'not known' : energyText(o.cpu_energy_j)) + ')';

export function gpuCharts(T, s) {
  const gpus = s.gpus || [];
  if (!gpus.length && s.energy_j == null && !s.gpu_note) return;
  const L = s.slice_seconds || 4;
  const box = el('div', { class: 'gpus' });
  T.appendChild(box);
  box.appendChild(el('h4', { text: 'GPUs' + (gpus.length ? ' (' + gpus.length + ')' : '') + ' and energy' }));
  const fmt = (v, d) => (v == null ? '-' : Number(v).toFixed(d));
  const gib = b => (b == null ? '-' : (b / 1073741824).toFixed(1) + ' GiB');
  if (gpus.length) {
    const rows = gpus.map(g => el('tr', {}, ...[g.node, g.uuid, g.name, fmt(g.util_sm_mean, 1) + ' %', fmt(g.util_sm_max, 0) + ' %',
      gib(g.mem_used_max) + ' of ' + gib(g.mem_total), fmt(g.power_w_mean, 1) + ' W', energyText(g.energy_j) + (g.energy_kind === 'estimated' ? ' (estimated)' : ''),
      g.gone ? 'gone during the step' : ''].map(t => el('td', { text: String(t) }))));
    box.appendChild(el('table', { class: 'gpu-table' }, el('thead', {}, el('tr', {}, ...['Node', 'GPU', 'Name', 'SM mean', 'SM max', 'Memory peak', 'Power mean', 'Energy', ''].map(t => el('th', { text: t })))), el('tbody', {}, ...rows)));
  }
  gpuProcesses(box, gpus, el, fmt, gib);
  const parts = [];
  if (s.energy_j != null) parts.push('Energy: ' + energyParts(s) + '.');
  if (s.gpu_note) parts.push('Missing: ' + s.gpu_note + '.');
  if (parts.length) box.appendChild(el('p', { class: 'note gpu-energy', text: parts.join(' ') }));
  const withSlices = gpus.filter(g => g.series && g.series.points);
  if (!withSlices.length) return;
  const cards = el('div', { class: 'cards' });
  box.appendChild(cards);
  const metrics = [{ key: 'util_sm', label: 'SM utilization (%)', scale: 1 }, { key: 'mem_used', label: 'Memory used (GiB)', scale: 1 / 1073741824 },
    { key: 'power_w', label: 'Power (W)', scale: 1 }];
  for (const m of metrics) {
    if (!withSlices.some(g => (g.series.metrics[m.key] || []).some(v => v != null))) continue;
    const card = el('div', { class: 'card gpu-chart', 'data-metric': m.key }, el('h4', { text: m.label }));
    cards.appendChild(card);
    chart('step', card, '', { type: 'line', data: { datasets: withSlices.map((g, i) => ({ label: g.node + ' ' + g.uuid,
      data: gpuPoints(g.series, m),
      borderColor: palette(i + 2), backgroundColor: palette(i + 2), pointRadius: g.series.points < 60 ? 3 : 0, stepped: true })) },
      options: { scales: { x: Object.assign(timeAxis(), { min: (s.start != null ? s.start : 0) - L, max: (s.end != null ? s.end : 0) + L }), y: { beginAtZero: true } } } });
  }
}

/* A GPU's series (docs/api.md, "Series": a point per slice with a reading) as chart data:
 * utilization, memory and power are per slice already, not sums to turn into rates. */
function gpuPoints(ser, m) {
  const p = seriesPoints(ser), out = [];
  (ser.metrics[m.key] || []).forEach((v, i) => { if (v != null) out.push({ x: p.t[i], y: v * m.scale }); });
  return out;
}

/* Per GPU the step's processes on it (pid, rank, command, peak memory, SM utilization), and
 * what was left out: processes beyond the list, processes not the step's (counted only). */
function gpuProcesses(box, gpus, el, fmt, gib) {
  const rows = [], notes = [];
  for (const g of gpus) {
    for (const p of g.processes || []) {
      const cmd = p.args || p.exe || '';
      rows.push(el('tr', {}, ...[g.node, g.uuid, p.pid, p.rank == null ? '-' : p.rank, cmd.length > 80 ? cmd.slice(0, 77) + '...' : cmd,
        gib(p.mem_used_max), fmt(p.util_sm_mean, 1) + ' %', fmt(p.util_sm_max, 0) + ' %', String(p.slices)].map(t => el('td', { text: String(t) }))));
    }
    if (g.processes_dropped) notes.push(g.node + ' ' + g.uuid + ': ' + g.processes_dropped + ' more processes of the step not listed');
    if (g.processes_other) notes.push(g.node + ' ' + g.uuid + ': ' + g.processes_other + ' processes of other jobs or daemons, not counted to this step');
  }
  if (rows.length) {
    box.appendChild(el('table', { class: 'gpu-table gpu-processes' }, el('thead', {}, el('tr', {}, ...['Node', 'GPU', 'PID', 'Rank', 'Command', 'Memory peak', 'SM mean', 'SM max', 'Slices'].map(t => el('th', { text: t })))), el('tbody', {}, ...rows)));
  }
  if (notes.length) box.appendChild(el('p', { class: 'note gpu-processes-note', text: 'GPU processes: ' + notes.join('; ') + '.' }));
}

/* The job tab's card: per step with GPUs a line of its figures, and the job's energy (the job
 * endpoint's steps[].gpu and energy; docs/api.md, job). */
export function jobGpus(cards, j) {
  const steps = (j.steps || []).filter(s => s.gpu || s.energy_j != null);
  if (!steps.length && j.energy_j == null) return;
  const fmt = (v, d) => (v == null ? '-' : Number(v).toFixed(d));
  const gib = b => (b == null ? '-' : (b / 1073741824).toFixed(1) + ' GiB');
  const card = el('div', { class: 'card job-gpus' }, el('h4', { text: 'GPUs and energy' }));
  const ul = el('ul');
  for (const s of steps) {
    const g = s.gpu, parts = [];
    if (g) parts.push(g.count + ' GPU' + (g.count === 1 ? '' : 's') + ', SM utilization ' + fmt(g.util_sm_mean, 1) + ' % (max ' + fmt(g.util_sm_max, 0) + ' %), memory peak ' + gib(g.mem_used_max) + ' of ' + gib(g.mem_total) + (g.gone ? ', ' + g.gone + ' gone during the step' : ''));
    if (s.energy_j != null) parts.push('energy ' + energyText(s.energy_j, true));
    ul.appendChild(el('li', { text: 'Step ' + s.step + ': ' + parts.join('; ') + (s.gpu_note ? ' (missing: ' + s.gpu_note + ')' : '') }));
  }
  card.appendChild(ul);
  if (j.energy_j != null) card.appendChild(el('p', { class: 'note', text: 'Energy of the job: ' + energyParts(j) + '.' }));
  cards.appendChild(card);
  jobGpuChart(cards, j, steps.filter(s => s.gpu && s.gpu.count > 0));
}

/* The job tab's chart: SM utilization over time, a line per step and GPU, from the steps'
 * GPU series (the step endpoint with gpu_series=1, at most JOB_GPU_STEPS steps, asked after
 * the tab is drawn so that it does not wait on them). */
const JOB_GPU_STEPS = 8;
async function jobGpuChart(cards, j, steps) {
  if (!steps.length) return;
  const card = el('div', { class: 'card gpu-chart job-gpu-chart', 'data-metric': 'util_sm' }, el('h4', { text: 'GPU SM utilization (%)' }));
  cards.appendChild(card);
  const shown = steps.slice(0, JOB_GPU_STEPS), sets = [];
  const replies = await Promise.all(shown.map(s => api('step', { job: j.id, step: s.step, points: 300, gpu_series: 1 }).catch(() => null)));
  replies.forEach((r, k) => {
    for (const g of (r && r.step && r.step.gpus) || []) {
      if (!g.series || !g.series.points) continue;
      sets.push({ label: 'Step ' + shown[k].step + ' ' + g.node + ' ' + g.uuid, data: gpuPoints(g.series, { key: 'util_sm', scale: 1 }),
        borderColor: palette(sets.length + 2), backgroundColor: palette(sets.length + 2), pointRadius: g.series.points < 60 ? 3 : 0, stepped: true });
    }
  });
  if (!sets.length) {
    card.appendChild(el('p', { class: 'empty', text: 'No GPU readings per slice.' }));
    return;
  }
  if (steps.length > shown.length) card.appendChild(el('p', { class: 'note', text: 'The first ' + shown.length + ' of ' + steps.length + ' steps with GPUs.' }));
  chart('job', card, '', { type: 'line', data: { datasets: sets }, options: { scales: { x: timeAxis(), y: { beginAtZero: true } } } });
}
