// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the job tab (docs/api.md, job): its warnings, runtime pies, times,
 * efficiency, GPUs, configuration, steps and files. */
import { api } from './api.js';
import { CATS, NO_PROFILE, shares } from './categories.js';
import { chart, destroyCharts, palette } from './charts.js';
import { compareForm, exportButton } from './compare.js';
import { filesTable } from './files.js';
import { jobGpus } from './gpu.js';
import { lightCell, lightDot } from './insight.js';
import { link, S } from './state.js';
import { jobWarnings } from './warnings.js';
import { $, clear, cpuEff, dur, el, fmtBytes, fmtDur, fmtPct, jobLabel, kvTable, stateCell, timeCell, timeSpan } from './util.js';

export async function renderJob(id) {
  destroyCharts('job');
  const T = clear($('#tab-job'));
  T.appendChild(el('p', { class: 'note', text: 'Loading job ' + id + '…' }));
  const { job: j } = await api('job', { id });
  clear(T);
  T.appendChild(el('h3', {}, 'Job ' + jobLabel(j) + (j.name ? ' · ' + j.name : '') + ' ', el('span', { class: 'state-' + String(j.state || '').replace(/[^A-Z_]/g, ''), text: j.state }), ' ', lightDot(j.light, j.lost_s)));
  const warn = jobWarnings(j.warnings, o => link({ view: 'workflow', job: o, sel: 'job:' + o }, 'Job ' + o));
  if (warn) T.appendChild(warn);
  const cards = el('div', { class: 'cards' });
  T.appendChild(cards);
  const c1 = el('div', { class: 'card' }, el('h4', { text: 'Share of each step' }));
  const c2 = el('div', { class: 'card' }, el('h4', { text: 'Categories' }));
  const c3 = el('div', { class: 'card' }, el('h4', { text: 'Times' }));
  const c4 = el('div', { class: 'card' }, el('h4', { text: 'Configuration' }));
  cards.append(c1, c2, c3, c4);
  /* the steps that do the work: the numbered ones (the batch step wraps them), else the
   * others but extern, as the graph draws them; counting both would count the time twice */
  const numbered = (j.steps || []).some(s => /^\d+$/.test(s.step));
  const steps = (j.steps || []).filter(s => dur(s) > 0 && (numbered ? /^\d+$/.test(s.step) : s.step !== 'extern'));
  chart('job', c1, '', { type: 'pie', data: { labels: steps.map(s => 'Step ' + s.step + (s.name ? ' ' + s.name : '')), datasets: [{ data: steps.map(dur), backgroundColor: steps.map((s, i) => palette(i + 3)) }] }, options: { plugins: { legend: { position: 'right', display: steps.length <= 12 }, tooltip: { callbacks: { label: ctx => ctx.label + ': ' + fmtDur(ctx.parsed) } } } } });
  chart('job', c2, '', { type: 'doughnut', data: { labels: CATS.map(c => c.label), datasets: [{ data: CATS.map(c => (Number((j.runtime || {})[c.key]) || 0) / 1e9), backgroundColor: CATS.map(c => c.color) }] }, options: { plugins: { legend: { position: 'right' }, tooltip: { callbacks: { label: ctx => ctx.label + ': ' + fmtDur(ctx.parsed) } } } } });
  c3.appendChild(kvTable([['Submit', timeSpan(j.submit)], ['Eligible', timeSpan(j.eligible)], ['Start', timeSpan(j.start)], ['End', timeSpan(j.end)],
    ['Wait', j.start != null && j.submit != null ? fmtDur(j.start - j.submit) : '–'], ['Runtime', fmtDur(dur(j))], ['Exit code', j.exit_code],
    j.reason != null ? ['Reason', j.reason] : null]));
  /* what seff and jobstats show, from the profiled processes (docs/cli.md, "What the figures are") */
  const u = j.usage || {}, eff = cpuEff({ start: j.start, end: j.end, cpus: j.cpus, cpu_ns: u.cpu_ns });
  const c5 = el('div', { class: 'card usage' }, el('h4', { text: 'Efficiency' }));
  cards.appendChild(c5);
  c5.appendChild(u.profiled_steps > 0
    ? kvTable([['CPU efficiency', eff == null && dur(j) === 0 ? '– (the job ran less than a second by Slurm\'s whole-second clock)' : fmtPct(eff)], ['CPU time', fmtDur(u.cpu_ns / 1e9)],
      ['Peak memory', u.max_rss_kib ? fmtBytes(u.max_rss_kib * 1024) + ' (largest process)' : '–'],
      ['Read', fmtBytes(u.read_bytes)], ['Written', fmtBytes(u.write_bytes)],
      u.unattributed_write_bytes > 0 ? ['Written unseen', fmtBytes(u.unattributed_write_bytes) + ' that the kernel counted beyond what the profiler\'s wrappers saw (stdio inlined into the program such as putchar_unlocked, raw system calls, sockets): a file\'s figures may be short by as much'] : null])
    : el('p', { class: 'empty', text: j.end == null ? 'No profile yet.' : 'No step of this job was profiled.' }));
  jobGpus(cards, j);
  c4.appendChild(kvTable([['User', j.user], ['Workflow', j.workflow], ['Partition', j.partition], ['Account', j.account], ['QOS', j.qos],
    ['Nodes', j.nodes], ['Node list', j.node_list], ['CPUs', j.cpus], ['Tasks', j.tasks], ['Dependency', j.dependency],
    j.array_job_id != null ? ['Array task', jobLabel(j) + ' (job id ' + j.id + ')'] : null, ['Work dir', j.work_dir], ['Batch script', j.batch_script]]));
  const st = el('table', { class: 'data steps' }, el('thead', {}, el('tr', {}, ['Step', 'Name', 'State', 'Insight', 'Start', 'Runtime', 'Nodes', 'Tasks', 'CPU eff.', 'Peak mem.', 'Share'].map(h => el('th', { text: h })))));
  const tb = el('tbody');
  for (const s of j.steps || []) {
    const sh = shares(s.runtime);
    const bar = el('div', { class: 'bar', title: sh ? CATS.map((c, i) => c.label + ' ' + (sh[i] * 100).toFixed(1) + '%').join(', ') : 'no profile' });
    if (sh) CATS.forEach((c, i) => { if (sh[i] > 0) bar.appendChild(el('span', { style: 'width:' + (sh[i] * 100).toFixed(2) + '%;background:' + c.color })); });
    else bar.appendChild(el('span', { style: 'width:100%;background:' + NO_PROFILE }));
    tb.appendChild(el('tr', {}, el('td', {}, link(Object.assign({}, S.route, { sel: 'step:' + j.id + ':' + s.step }), String(s.step))), el('td', { text: s.name }), stateCell(s.state, s.live && s.state !== 'RUNNING'),
      lightCell(s.light, s.lost_s, s.judged_by_sruns), timeCell(s.start), el('td', { class: 'num', text: fmtDur(dur(s)) }), el('td', { class: 'num', text: s.nodes == null ? '–' : s.nodes }), el('td', { class: 'num', text: s.tasks == null ? '–' : s.tasks }),
      el('td', { class: 'num', text: s.profiled ? fmtPct(cpuEff(s)) : '–' }),
      el('td', { class: 'num', text: s.profiled && s.max_rss_kib ? fmtBytes(s.max_rss_kib * 1024) : '–' }), el('td', {}, bar)));
  }
  st.appendChild(tb);
  const files = j.files || [];
  /* a job of one file per process lists the files that moved the most bytes (docs/api.md, job) */
  const fewer = j.files_total > files.length ? [el('p', { class: 'note', text: j.files_total.toLocaleString('en') + ' files; the ' + files.length.toLocaleString('en') + ' that moved the most bytes are listed.' })] : [];
  T.append(el('h4', { text: 'Steps' }), st, el('h4', { text: 'Files' }), ...fewer, filesTable(files, true), compareForm('job', j.id), exportButton('job', j.id));
}
