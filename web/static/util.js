// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: small helpers every part uses: building elements (el: text through
 * textContent only, never innerHTML), times, durations, sizes and metrics in words, table
 * cells, sortable tables. Nothing here talks to the API. */

export const $ = (sel, root) => (root || document).querySelector(sel);
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = String(v);
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}
export function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
/* times in the browser's time zone (the date pickers' too); UTC on hover (timeCell) */
export function fmtTime(t) {
  if (t === null || t === undefined) return '–';
  const d = new Date(t * 1000), p = n => String(n).padStart(2, '0');
  return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + ' ' + p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds());
}
export function fmtUtc(t) { return t === null || t === undefined ? null : new Date(t * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'); }
export function timeSpan(t) { return t === null || t === undefined || !isFinite(t) ? '–' : el('span', { text: fmtTime(t), title: fmtUtc(t) }); }
export function timeCell(t) { return el('td', { class: 'time', text: fmtTime(t), title: fmtUtc(t), 'data-sort': t == null ? '' : t }); }
export function fmtDur(s) {
  if (s === null || s === undefined || !isFinite(s)) return '–';
  if (s < 1) return (s * 1000).toFixed(0) + ' ms';
  if (s < 120) return s.toFixed(1) + ' s';
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = Math.round(s % 60);
  return (h ? h + ' h ' : '') + m + ' min ' + (h ? '' : r + ' s');
}
export function fmtBytes(b) {
  if (b === null || b === undefined) return '–';
  const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let i = 0; let v = Number(b);
  while (v >= 1024 && i < u.length - 1) { v /= 1024; i++; }
  return (i ? v.toFixed(1) : String(v)) + ' ' + u[i];
}
/* A metric's name as a reader says it (posix_read_bytes: "POSIX read", compute_ns: "compute
 * time"; the name itself on hover) and its value in its unit (bytes, durations, counts). */
const METRIC_WORDS = { posix: 'POSIX', stdio: 'stdio', mpiio: 'MPI-IO', mpi: 'MPI', cpu: 'CPU', io: 'I/O', p2p: 'point-to-point',
  coll: 'collective', meta: 'metadata', rss: 'resident set', kernel: 'kernel', rchar: 'read (rchar)', wchar: 'written (wchar)',
  syscr: 'read calls', syscw: 'write calls', wall: 'wall', sys: 'system', user: 'user', max: 'peak', write: 'write', read: 'read' };
export function metricLabel(m) {
  const w = String(m).split('_');
  const unit = w[w.length - 1];
  const words = (['bytes', 'ns', 'kib'].includes(unit) ? w.slice(0, -1) : w).map(t => METRIC_WORDS[t] || t);
  if (unit === 'ns') words.push('time');
  const t = words.join(' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}
export function fmtMetric(m, v) {
  if (v === null || v === undefined) return '–';
  if (/_bytes$|^kernel_[rw]char$/.test(m)) return fmtBytes(Math.round(v));
  if (/_kib$/.test(m)) return fmtBytes(Math.round(v * 1024));
  if (/_ns$/.test(m)) return fmtDur(v / 1e9);
  return fmtNum(v);
}
export function fmtNum(v) {
  if (v === null || v === undefined) return '–';
  const n = Number(v);
  if (Math.abs(n) >= 1e6) return n.toExponential(2);
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}
/* signal names by number (Linux), for "killed by SIGKILL" */
const SIGNALS = ['', 'SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGILL', 'SIGTRAP', 'SIGABRT', 'SIGBUS', 'SIGFPE', 'SIGKILL',
  'SIGUSR1', 'SIGSEGV', 'SIGUSR2', 'SIGPIPE', 'SIGALRM', 'SIGTERM', 'SIGSTKFLT', 'SIGCHLD', 'SIGCONT', 'SIGSTOP',
  'SIGTSTP', 'SIGTTIN', 'SIGTTOU', 'SIGURG', 'SIGXCPU', 'SIGXFSZ', 'SIGVTALRM', 'SIGPROF', 'SIGWINCH', 'SIGIO',
  'SIGPWR', 'SIGSYS'];
function signalName(n) {
  n = Number(n);
  if (SIGNALS[n]) return SIGNALS[n];
  if (n >= 34 && n <= 64) return n === 34 ? 'SIGRTMIN' : 'SIGRTMIN+' + (n - 34);
  return 'signal ' + n;
}
/* how a process ended, in words (api.md: ended_by, exit_code, signal, end, missing) */
export function processEnd(p) {
  let t;
  switch (p.ended_by) {
    case 'signal': t = 'killed by ' + signalName(p.signal) + ' at ' + fmtTime(p.end); break;
    case 'exec': t = 'replaced by exec at ' + fmtTime(p.end); break;
    case 'unknown': t = 'gone, its end not seen (last seen ' + fmtTime(p.end) + ')'; break;
    case 'exit': case '_exit': t = 'exited' + (p.exit_code ? ' with code ' + p.exit_code : '') + ' at ' + fmtTime(p.end); break;
    default: t = 'ended at ' + fmtTime(p.end);
  }
  return p.missing ? t + '; missing: ' + p.missing : t;
}
export function dur(o) { return (o && o.start != null && o.end != null) ? Math.max(0, o.end - o.start) : null; }
/* a job's name in Slurm's notation: an array task as ARRAY_TASK (35_1), else its id */
export function jobLabel(j) { return j.array_job_id != null && j.array_task_id != null ? j.array_job_id + '_' + j.array_task_id : String(j.id); }
export function stateCell(s, live) {
  const td = el('td', { class: 'state-' + String(s || '').replace(/[^A-Z_]/g, ''), text: s || '–' });
  /* a step still running on some node: provisional data from its live snapshots */
  if (live) td.appendChild(el('span', { class: 'live', title: 'running: its data so far is shown', text: 'live' }));
  return td;
}
export function kvTable(rows) {
  return el('table', { class: 'kv' }, rows.filter(r => r).map(([k, v]) =>
    el('tr', {}, el('th', { text: k }), v instanceof Node ? el('td', {}, v) : el('td', { text: v === null || v === undefined || v === '' ? '–' : v }))));
}

export function fmtLost(s) { return s < 120 ? '~' + Math.round(s) + ' s' : '~' + fmtDur(s); }
export function fmtClock(t) { const d = new Date(t * 1000), p = n => String(n).padStart(2, '0'); return p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds()); }

export function toLocalInput(epoch) {
  if (!epoch) return '';
  const d = new Date(Number(epoch) * 1000);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
}
/* CPU efficiency of a job or step: its processes' CPU time against its CPUs x elapsed time */
export function cpuEff(o) {
  const d = dur(o) ?? (o && o.start != null ? Date.now() / 1000 - o.start : null);
  return o && o.cpu_ns != null && o.cpus > 0 && d > 0 ? o.cpu_ns / 1e9 / (o.cpus * d) : null;
}
/* a share as the tables write it: "72.4 %", "–" when unknown */
export function fmtPct(v) { return v === null || v === undefined ? '–' : (100 * v).toFixed(1) + ' %'; }
/* CPU efficiency of a summed row (workflow&by=name, a comparison): CPU time / (CPUs x time) */
export function allocEff(r) { return r && r.cpu_ns != null && r.cpu_alloc_s > 0 ? r.cpu_ns / 1e9 / r.cpu_alloc_s : null; }
export function numCell(v, text) { return el('td', { class: 'num', text, 'data-sort': v == null ? '' : v }); }

/* Tables of class "sortable": a click on a header sorts the rows by that column (cells'
 * data-sort, else their text; numbers as numbers, empty last), a second click reverses. */
function sortTable(table, col, dir) {
  const tb = table.tBodies[0];
  const key = tr => { const c = tr.cells[col]; if (!c) return null; const v = c.dataset.sort ?? c.textContent; return v === '' || v === '–' ? null : v; };
  const rows = Array.from(tb.rows).filter(tr => tr.cells.length > 1);
  rows.sort((a, b) => {
    const x = key(a), y = key(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    const nx = Number(x), ny = Number(y);
    const c = !isNaN(nx) && !isNaN(ny) ? nx - ny : String(x).localeCompare(String(y), undefined, { numeric: true });
    return dir === 'ascending' ? c : -c;
  });
  const others = Array.from(tb.rows).filter(tr => tr.cells.length <= 1); /* "no rows", "more rows match" */
  for (const tr of rows.concat(others)) tb.appendChild(tr);
  for (const th of table.tHead.rows[0].cells) th.removeAttribute('aria-sort');
  table.tHead.rows[0].cells[col].setAttribute('aria-sort', dir);
}
export function makeSortable(table) {
  Array.from(table.tHead.rows[0].cells).forEach((th, col) => th.addEventListener('click', () => {
    sortTable(table, col, th.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending');
  }));
}

/* a Blob saved as a file of that name (a link clicked, its URL revoked a while after) */
export function saveBlob(blob, name) {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
