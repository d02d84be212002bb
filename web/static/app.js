// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the list of workflows and jobs, and a workflow page with the graph
 * (cytoscape + dagre) and the info tabs (Chart.js). It talks to nothing but the JSON API of
 * docs/api.md. Every string from the API reaches the page through textContent or a chart
 * label, never through innerHTML. Routes live in the URL fragment, so that every workflow,
 * job, step and file has a link:
 *   #view=list&state=FAILED...
 *   #view=workflow&id=W[&layout=graph|duration|timeline][&sel=job:12 | step:12:0 | file:7]
 *   #view=workflow&job=12...   (the workflow of job 12)
 */
'use strict';

(function () {
  /* the API's address, relative to the page; without the credentials a page URL may carry
   * (http://user:password@host/), which fetch() refuses to send */
  const API = (() => {
    const u = new URL((document.querySelector('meta[name="jobscreen-api"]') || {}).content || 'cgi-bin/jobscreen.cgi', location.href);
    u.username = ''; u.password = ''; u.search = ''; u.hash = '';
    return u.toString();
  })();

  /* ---------- small helpers ---------- */
  const $ = (sel, root) => (root || document).querySelector(sel);
  function el(tag, attrs, ...children) {
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
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
  /* times in the browser's time zone (the date pickers' too); UTC on hover (timeCell) */
  function fmtTime(t) {
    if (t === null || t === undefined) return '–';
    const d = new Date(t * 1000), p = n => String(n).padStart(2, '0');
    return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + ' ' + p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds());
  }
  function fmtUtc(t) { return t === null || t === undefined ? null : new Date(t * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'); }
  function timeSpan(t) { return t === null || t === undefined || !isFinite(t) ? '–' : el('span', { text: fmtTime(t), title: fmtUtc(t) }); }
  function timeCell(t) { return el('td', { class: 'time', text: fmtTime(t), title: fmtUtc(t), 'data-sort': t == null ? '' : t }); }
  function fmtDur(s) {
    if (s === null || s === undefined || !isFinite(s)) return '–';
    if (s < 1) return (s * 1000).toFixed(0) + ' ms';
    if (s < 120) return s.toFixed(1) + ' s';
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = Math.round(s % 60);
    return (h ? h + ' h ' : '') + m + ' min ' + (h ? '' : r + ' s');
  }
  function fmtBytes(b) {
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
  function metricLabel(m) {
    const w = String(m).split('_');
    const unit = w[w.length - 1];
    const words = (['bytes', 'ns', 'kib'].includes(unit) ? w.slice(0, -1) : w).map(t => METRIC_WORDS[t] || t);
    if (unit === 'ns') words.push('time');
    const t = words.join(' ');
    return t.charAt(0).toUpperCase() + t.slice(1);
  }
  function fmtMetric(m, v) {
    if (v === null || v === undefined) return '–';
    if (/_bytes$|^kernel_[rw]char$/.test(m)) return fmtBytes(Math.round(v));
    if (/_kib$/.test(m)) return fmtBytes(Math.round(v * 1024));
    if (/_ns$/.test(m)) return fmtDur(v / 1e9);
    return fmtNum(v);
  }
  function fmtNum(v) {
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
  function processEnd(p) {
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
  function dur(o) { return (o && o.start != null && o.end != null) ? Math.max(0, o.end - o.start) : null; }
  /* a job's name in Slurm's notation: an array task as ARRAY_TASK (35_1), else its id */
  function jobLabel(j) { return j.array_job_id != null && j.array_task_id != null ? j.array_job_id + '_' + j.array_task_id : String(j.id); }
  function stateCell(s, live) {
    const td = el('td', { class: 'state-' + String(s || '').replace(/[^A-Z_]/g, ''), text: s || '–' });
    /* a step still running on some node: provisional data from its live snapshots */
    if (live) td.appendChild(el('span', { class: 'live', title: 'running: its data so far is shown', text: 'live' }));
    return td;
  }
  function kvTable(rows) {
    return el('table', { class: 'kv' }, rows.filter(r => r).map(([k, v]) =>
      el('tr', {}, el('th', { text: k }), v instanceof Node ? el('td', {}, v) : el('td', { text: v === null || v === undefined || v === '' ? '–' : v }))));
  }

  /* ---------- insight: was a run disturbed, by what, what to change (docs/api.md, step) ---------- */
  const LIGHTS = {
    green: 'no disturbance found (less than 7.5 % of its run lost)',
    yellow: 'disturbed: 7.5-15 % of its run lost',
    red: 'disturbed: more than 15 % of its run lost',
    grey: 'too little data to tell',
  };
  /* a batch step that waits for its sruns (insight.judged_by_sruns; web/report.c says the same) */
  const BY_SRUNS = 'No verdict of its own: the batch script waits for its srun steps, which are judged.';
  const LIGHT_RANK = { red: 3, yellow: 2, green: 1, grey: 0 };
  /* the background that peaked, as a reader says it (evidence.background, cause) */
  const BACKGROUND_WORDS = { io: 'other jobs\' I/O', metadata: 'other jobs\' metadata operations (opens, stats)',
    mpi: 'other jobs\' MPI traffic', cpu: 'other jobs\' CPU use' };
  const OWN_WORDS = { cpu: 'its CPU use', io: 'its I/O rate', mpi: 'its MPI rate' };
  const SCOPE_WORDS = { cluster: 'whole cluster', nodes: 'on its nodes' };
  const WRITE_PATTERNS = { 'open-write-close': 'opens, writes and closes its files again and again (open-write-close)',
    'write-seek': 'writes with seeks in between (write-seek)', 'aggregate-write': 'writes in few large, aggregated blocks (aggregate-write)',
    mixed: 'writes in more than one of these ways (mixed)' };
  const SEVERITIES = ['high', 'warning', 'info'];
  /* the metrics of the background chart that show a cause best */
  const CAUSE_METRICS = { io: ['posix_write_bytes', 'posix_read_bytes', 'stdio_write_bytes', 'stdio_read_bytes', 'mpiio_write_bytes', 'mpiio_read_bytes'],
    metadata: ['posix_meta_calls', 'posix_open_calls', 'stdio_open_calls'], mpi: ['mpi_coll_bytes', 'mpi_send_bytes'], cpu: ['cpu_ns'] };
  /* a traffic-light dot; light null: nothing computed (yet) */
  function lightDot(light, lost, bySruns) {
    if (!light) return el('span', { class: 'light light-none', title: 'insight not computed yet', 'aria-label': 'insight not computed yet' });
    const t = bySruns ? BY_SRUNS : light + ': ' + (LIGHTS[light] || light) + (lost > 0 ? '; ' + fmtLost(lost) + ' lost' : '');
    return el('span', { class: 'light light-' + (LIGHTS[light] ? light : 'grey'), title: t, 'aria-label': t });
  }
  function lightCell(light, lost, bySruns) {
    return el('td', { class: 'insight', 'data-sort': light ? (LIGHT_RANK[light] || 0) * 1e9 + (lost || 0) : '' }, lightDot(light, lost, bySruns),
      lost > 0 ? ' ' + fmtLost(lost) : null);
  }
  function fmtLost(s) { return s < 120 ? '~' + Math.round(s) + ' s' : '~' + fmtDur(s); }
  function fmtClock(t) { const d = new Date(t * 1000), p = n => String(n).padStart(2, '0'); return p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds()); }
  /* a disturbed stretch's span in epoch seconds: its slices (the charts' x), else its start */
  function stretchSpan(e, L) {
    if (e.first_slice != null && e.last_slice != null) return [e.first_slice * L, (e.last_slice + 1) * L];
    const t = Date.parse(e.start) / 1000;
    return isFinite(t) ? [t, t + L] : null;
  }
  /* The verdict in one plain sentence. */
  function verdictSentence(ins, L) {
    if (!ins) return 'Not computed yet: the ingest computes it shortly after the step\'s records arrive.';
    if (ins.disturbed) {
      let t = 'Disturbed: lost ' + (ins.lost_s != null ? fmtLost(ins.lost_s) : 'time') + (ins.lost_pct != null ? ' (' + ins.lost_pct.toFixed(ins.lost_pct < 10 ? 1 : 0) + ' %)' : '');
      const e = (ins.evidence || [])[0], span = e && stretchSpan(e, L);
      if (e && span) {
        t += ' while ' + (BACKGROUND_WORDS[e.background] || 'other jobs\' ' + e.background) + ' peaked (' + (SCOPE_WORDS[e.scope] || e.scope) + ') at ' + fmtClock(span[0]) + '-' + fmtClock(span[1]);
        if (ins.evidence.length > 1) t += ', and in ' + (ins.evidence.length - 1) + ' more stretch' + (ins.evidence.length === 2 ? '' : 'es');
      } else if (ins.cause) t += ', most where ' + (BACKGROUND_WORDS[ins.cause] || ins.cause) + ' peaked';
      else if (ins.interference_pct != null) t += ' by the MPI interference estimate';
      return t + '.';
    }
    if (ins.judged_by_sruns) return BY_SRUNS;
    if (ins.light === 'grey' || ins.disturbed == null) return 'Too little data to tell' + (ins.incomplete ? ': ' + ins.incomplete : '') + '.';
    return 'No disturbance found' + (ins.slices ? ' in ' + ins.slices + ' slice' + (ins.slices === 1 ? '' : 's') + ' of ' + L + ' s' : '') + '.';
  }
  function interferenceText(ins) {
    if (ins.segments == null) return 'no MPI segments between global collectives (not a bulk-synchronous MPI code)';
    if (!ins.segment_groups) return ins.segments + ' MPI segments, too few alike to judge';
    return (ins.interference_pct != null ? ins.interference_pct.toFixed(1) + ' %' : '–') + (ins.interference_class ? ' (' + ins.interference_class + ')' : '') + ': ' +
      ins.segments_flagged + ' of ' + ins.segments + ' segments slower than their like ones (' + ins.segment_groups + ' group' + (ins.segment_groups === 1 ? '' : 's') +
      '), ' + fmtDur(ins.segment_excess_s || 0) + ' beyond, summed over its processes';
  }
  function ioPeriodText(ins) {
    const share = ins.io_time_share != null ? '; I/O in ' + (100 * ins.io_time_share).toFixed(0) + ' % of its slices' + (ins.io_phase_bandwidth != null ? ' at ' + fmtBytes(Math.round(ins.io_phase_bandwidth)) + '/s' : '') : '';
    if (ins.io_period_s == null) return 'no periodic I/O found' + share;
    return 'every ' + fmtLost(ins.io_period_s) + ' (Z-score ' + fmtNum(ins.io_period_z) + '; spread of the volume per period ' + fmtNum(ins.io_sigma_vol) +
      ', of the time ' + fmtNum(ins.io_sigma_time) + ')' + share;
  }
  /* The Insight panel of a step: the light with its sentence, the evidence, the MPI interference
   * estimate, the I/O period and write pattern, the advice. */
  function insightPanel(s) {
    const ins = s.insight, L = s.slice_seconds || 4;
    const card = el('div', { class: 'card insight' + (ins ? ' insight-' + ins.light : ' insight-none') }, el('h4', { text: 'Insight: was this run disturbed?' }));
    card.appendChild(el('p', { class: 'verdict' }, lightDot(ins && ins.light, ins && ins.lost_s, ins && ins.judged_by_sruns), ' ', el('span', { class: 'sentence', text: verdictSentence(ins, L) })));
    if (ins) {
      const ev = ins.evidence || [];
      if (ev.length) {
        const t = el('table', { class: 'data evidence' }, el('thead', {}, el('tr', {}, ['When', 'What dropped', 'What peaked', 'Peak', 'Lost'].map(h => el('th', { text: h })))));
        const tb = el('tbody');
        for (const e of ev) {
          const span = stretchSpan(e, L);
          const ratio = e.background_base > 0 && e.background_rate != null ? (e.background_rate / e.background_base) : null;
          tb.appendChild(el('tr', {},
            el('td', { class: 'time', text: span ? fmtClock(span[0]) + '-' + fmtClock(span[1]) : '–', title: span ? fmtUtc(span[0]) + ' (slices ' + e.first_slice + '-' + e.last_slice + ')' : null }),
            el('td', { text: (OWN_WORDS[e.own] || e.own) + (e.own_drop_pct != null ? ' fell ' + Math.round(e.own_drop_pct) + ' %' : '') }),
            el('td', { text: (BACKGROUND_WORDS[e.background] || e.background) + ' (' + (SCOPE_WORDS[e.scope] || e.scope) + ')' }),
            el('td', { class: 'num', text: ratio != null ? ratio.toFixed(1) + '× its usual' : '–', title: 'rate ' + fmtNum(e.background_rate) + ', usual ' + fmtNum(e.background_base) + ' (per second)' }),
            el('td', { class: 'num', text: e.lost_s != null ? fmtLost(e.lost_s) : '–' })));
        }
        t.appendChild(tb);
        card.append(el('p', { class: 'note', text: 'Disturbed stretches, the largest loss first (shaded in the chart below):' }), t);
      }
      card.appendChild(kvTable([
        ['MPI interference', interferenceText(ins)],
        ['Periodic I/O', ioPeriodText(ins)],
        ['Write pattern', ins.write_pattern ? WRITE_PATTERNS[ins.write_pattern] || ins.write_pattern : 'writes little'],
        ins.incomplete && ins.light !== 'grey' ? ['Limited by', ins.incomplete] : null,
        ['Computed', timeSpan(ins.computed_at)]]));
    }
    const adv = s.advice || [];
    if (adv.length) {
      const ul = el('ul', { class: 'advice' });
      for (const a of adv) {
        /* the severity as a coloured word, not a glyph a font may lack */
        const sev = SEVERITIES.includes(a.severity) ? a.severity : 'info';
        ul.appendChild(el('li', { class: 'advice-' + sev, title: a.code },
          el('span', { class: 'sev', text: sev }), ' ', el('span', { class: 'message', text: a.message })));
      }
      card.append(el('h4', { text: 'Advice' }), ul);
    } else if (ins) card.appendChild(el('p', { class: 'note', text: 'No advice: nothing to change was found.' }));
    return card;
  }

  /* ---------- the API ---------- */
  class ApiError extends Error { constructor(status, msg) { super(msg); this.status = status; } }
  async function api(endpoint, params) {
    const q = new URLSearchParams({ q: endpoint });
    for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null && v !== '') q.set(k, v);
    const r = await fetch(API + '?' + q.toString(), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    let body = null;
    try { body = await r.json(); } catch (e) { body = null; }
    if (!r.ok) throw new ApiError(r.status, (body && body.error && body.error.message) || ('HTTP ' + r.status));
    return body;
  }
  function showError(e) {
    const box = $('#error');
    box.hidden = false;
    box.textContent = (e instanceof ApiError ? 'Error ' + e.status + ': ' : 'Error: ') + e.message;
  }
  function hideError() { $('#error').hidden = true; }

  /* What the kernel counted beyond the wrappers: I/O no wrapper saw (raw system calls, static
   * helpers, stdio buffers filled ahead), or why it is not known. */
  function unattributedRow(s) {
    const r = s.unattributed_read_bytes, w = s.unattributed_write_bytes, unknown = s.kernel_io_unknown || 0;
    if (r == null && w == null) return unknown ? ['I/O not seen by the profiler', 'unknown (the kernel\'s counts are missing for ' + unknown + ' process' + (unknown === 1 ? '' : 'es') + ')'] : null;
    return ['I/O not seen by the profiler', 'read ' + fmtBytes(r || 0) + ', written ' + fmtBytes(w || 0) + ' (the kernel\'s count beyond the wrappers\')' +
      (unknown ? '; unknown for ' + unknown + ' process' + (unknown === 1 ? '' : 'es') : '')];
  }

  /* ---------- categories of the runtime share (docs/profile-format.md) ---------- */
  const CATS = [
    { key: 'compute_ns', label: 'Computation', color: '#a99cd6' },
    { key: 'mpi_p2p_ns', label: 'MPI point-to-point', color: '#d62728' },
    { key: 'mpi_coll_ns', label: 'MPI collectives', color: '#f08080' },
    { key: 'io_posix_ns', label: 'I/O POSIX', color: '#e3b505' },
    { key: 'io_stdio_ns', label: 'I/O stdio', color: '#f6dc73' },
    { key: 'io_mpiio_ns', label: 'I/O MPI-IO', color: '#a67c00' },
    { key: 'mpi_setup_ns', label: 'MPI init/finalize', color: '#8c564b' },
    { key: 'cpu_wait_ns', label: 'Waiting for a CPU', color: '#7f7f7f' },
    { key: 'idle_ns', label: 'Idle (no CPU, no call)', color: '#e8e8e8' },
  ];
  const NO_PROFILE = '#d0d4da';
  const MODES = [
    { key: 'r', label: 'read-only', color: '#cfe8cf', border: '#3b8a3b' },
    { key: 'rw', label: 'read-write', color: '#fde2b8', border: '#b86e00' },
    { key: 'w', label: 'write-only', color: '#cfe0f5', border: '#2f5fb3' },
  ];
  const EDGE_KINDS = [
    { key: 'scheduler', label: 'scheduler dependency', style: 'solid', color: '#222' },
    { key: 'time', label: 'start after end', style: 'dotted', color: '#666' },
    { key: 'file', label: 'file written → read', style: 'dashed', color: '#2f5fb3' },
  ];
  function shares(rt) {
    if (!rt) return null;
    const v = CATS.map(c => Math.max(0, Number(rt[c.key]) || 0));
    const sum = v.reduce((a, b) => a + b, 0);
    return sum > 0 ? v.map(x => x / sum) : null;
  }

  /* ---------- state and routing ---------- */
  const S = { me: null, route: {}, wf: null, cy: null, expanded: new Set(), charts: [], layout: 'graph', wfKey: '', draws: 0 };
  function parseHash() { return Object.fromEntries(new URLSearchParams(location.hash.replace(/^#/, ''))); }
  function setHash(r, replace) {
    const h = '#' + new URLSearchParams(Object.entries(r).filter(([, v]) => v !== undefined && v !== null && v !== '')).toString();
    if (replace) history.replaceState(null, '', h); else location.hash = h;
  }
  function link(r, text) { return el('a', { href: '#' + new URLSearchParams(r).toString(), text }); }

  async function route() {
    hideError();
    const r = parseHash();
    S.route = r;
    try {
      if (!S.me) {
        S.me = await api('me');
        const w = clear($('#whoami'));
        w.appendChild(document.createTextNode(S.me.user));
        if (S.me.admin) w.appendChild(el('span', { class: 'admin', text: 'admin' }));
        $('#user-filter').hidden = !S.me.admin;
      }
      if (r.view === 'workflow') await showWorkflow(r);
      else if (r.view === 'compare') await showCompare(r);
      else await showList(r);
    } catch (e) { showError(e); }
  }

  /* ---------- the list ---------- */
  function toLocalInput(epoch) {
    if (!epoch) return '';
    const d = new Date(Number(epoch) * 1000);
    return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  }
  /* CPU efficiency of a job or step: its processes' CPU time against its CPUs x elapsed time */
  function cpuEff(o) {
    const d = dur(o) ?? (o && o.start != null ? Date.now() / 1000 - o.start : null);
    return o && o.cpu_ns != null && o.cpus > 0 && d > 0 ? o.cpu_ns / 1e9 / (o.cpus * d) : null;
  }
  /* a share as the tables write it: "72.4 %", "–" when unknown */
  function fmtPct(v) { return v === null || v === undefined ? '–' : (100 * v).toFixed(1) + ' %'; }
  /* CPU efficiency of a summed row (workflow&by=name, a comparison): CPU time / (CPUs x time) */
  function allocEff(r) { return r && r.cpu_ns != null && r.cpu_alloc_s > 0 ? r.cpu_ns / 1e9 / r.cpu_alloc_s : null; }
  function numCell(v, text) { return el('td', { class: 'num', text, 'data-sort': v == null ? '' : v }); }

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
  function makeSortable(table) {
    Array.from(table.tHead.rows[0].cells).forEach((th, col) => th.addEventListener('click', () => {
      sortTable(table, col, th.getAttribute('aria-sort') === 'descending' ? 'ascending' : 'descending');
    }));
  }
  for (const table of document.querySelectorAll('table.sortable')) makeSortable(table);

  /* The job list as CSV (RFC 4180), times in UTC (ISO 8601); a cell that a spreadsheet would
   * take for a formula (=, +, -, @ first) is quoted with a leading apostrophe. */
  function csvCell(v) {
    if (v === null || v === undefined) return '';
    let t = String(v);
    if (typeof v === 'string' && /^[=+\-@\t\r]/.test(t)) t = "'" + t;
    return /[",\r\n]/.test(t) ? '"' + t.replace(/"/g, '""') + '"' : t;
  }
  function jobsCsv(jobs) {
    const iso = t => t == null ? null : new Date(t * 1000).toISOString();
    const cols = ['job', 'job_id', 'name', 'user', 'cluster', 'workflow', 'state', 'exit_code', 'submit', 'start', 'end',
      'elapsed_s', 'nodes', 'cpus', 'cpu_s', 'cpu_efficiency', 'max_rss_bytes', 'read_bytes', 'write_bytes', 'light', 'lost_s'];
    const rows = jobs.map(j => [jobLabel(j), j.id, j.name, j.user, j.cluster, j.workflow, j.state, j.exit_code, iso(j.submit), iso(j.start), iso(j.end),
      dur(j), j.nodes, j.cpus, j.cpu_ns == null ? null : j.cpu_ns / 1e9, cpuEff(j) == null ? null : cpuEff(j).toFixed(4),
      j.max_rss_kib == null ? null : j.max_rss_kib * 1024, j.read_bytes, j.write_bytes, j.light, j.lost_s]);
    return [cols, ...rows].map(r => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
  }
  $('#jobs-csv').addEventListener('click', () => {
    const blob = new Blob([jobsCsv(S.listJobs || [])], { type: 'text/csv' });
    const a = el('a', { href: URL.createObjectURL(blob), download: 'jobscreen-jobs.csv' });
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  });

  /* "Go to job": a job id opens its workflow with the job selected; an array task (A_T) is
   * looked up among the listed jobs. */
  $('#find-job').addEventListener('submit', ev => {
    ev.preventDefault();
    const v = ev.target.elements.id.value.trim();
    let m = /^(\d+)_(\d+)$/.exec(v), id = null;
    if (m) {
      const j = (S.listJobs || []).find(x => String(x.array_job_id) === m[1] && String(x.array_task_id) === m[2]);
      if (!j) { showError(new Error('array task ' + v + ' is not among the jobs listed: widen the filter, or give the task\'s own job id')); return; }
      id = j.id;
    } else if (/^\d+$/.test(v)) id = v;
    if (id === null) { showError(new Error("'" + v + "' is not a job id (1234, or 1234_5 for an array task)")); return; }
    setHash({ view: 'workflow', job: id, sel: 'job:' + id });
  });

  async function showList(r) {
    $('#workflow-view').hidden = true;
    $('#compare-view').hidden = true;
    $('#list-view').hidden = false;
    const crumbs = clear($('#crumbs'));
    crumbs.appendChild(el('span', { text: 'Workflows and jobs' }));
    const f = $('#filters');
    for (const k of ['state', 'name', 'workflow', 'user']) f.elements[k].value = r[k] || '';
    f.elements.from.value = toLocalInput(r.from);
    f.elements.to.value = toLocalInput(r.to);
    const params = { from: r.from, to: r.to, state: r.state, name: r.name, workflow: r.workflow, user: r.user };
    const [wfs, jobs] = await Promise.all([api('workflows', params), api('jobs', params)]);
    const wb = clear($('#workflows tbody'));
    for (const w of wfs.workflows) {
      const states = Object.entries(w.states || {}).map(([k, v]) => k + ' ' + v).join(', ');
      wb.appendChild(el('tr', {},
        el('td', {}, link({ view: 'workflow', id: w.id }, w.workflow)),
        el('td', { text: w.user }), numCell(w.jobs, w.jobs),
        timeCell(w.start), timeCell(w.end),
        numCell(dur(w), fmtDur(dur(w))), el('td', { text: states }), lightCell(w.light, w.lost_s)));
    }
    if (!wfs.workflows.length) wb.appendChild(el('tr', {}, el('td', { colspan: 8, class: 'empty', text: 'No workflows (tag jobs with sbatch --workflow=NAME).' })));
    const jb = clear($('#jobs tbody'));
    S.listJobs = jobs.jobs;
    for (const j of jobs.jobs) {
      const eff = cpuEff(j);
      jb.appendChild(el('tr', {},
        el('td', { title: 'job id ' + j.id, 'data-sort': j.id }, link({ view: 'workflow', job: j.id, sel: 'job:' + j.id }, jobLabel(j))),
        el('td', { text: j.name }), el('td', { text: j.user }),
        el('td', {}, j.workflow_id != null ? link({ view: 'workflow', id: j.workflow_id }, j.workflow || String(j.workflow_id)) : '–'),
        stateCell(j.state, j.live), lightCell(j.light, j.lost_s), timeCell(j.submit), timeCell(j.start),
        numCell(dur(j), fmtDur(dur(j))), numCell(j.nodes, j.nodes == null ? '–' : j.nodes),
        numCell(eff, fmtPct(eff)),
        numCell(j.max_rss_kib, j.max_rss_kib ? fmtBytes(j.max_rss_kib * 1024) : '–'),
        numCell(j.read_bytes, fmtBytes(j.read_bytes)), numCell(j.write_bytes, fmtBytes(j.write_bytes))));
    }
    if (!jobs.jobs.length) jb.appendChild(el('tr', {}, el('td', { colspan: 14, class: 'empty', text: 'No jobs match.' })));
    if (wfs.truncated || jobs.truncated) jb.appendChild(el('tr', {}, el('td', { colspan: 14, class: 'note', text: 'More rows match: narrow the filter.' })));
  }
  $('#filters').addEventListener('submit', ev => {
    ev.preventDefault();
    const f = ev.target.elements;
    const toEpoch = v => v ? String(Math.floor(new Date(v).getTime() / 1000)) : '';
    setHash({ view: 'list', from: toEpoch(f.from.value), to: toEpoch(f.to.value), state: f.state.value, name: f.name.value, workflow: f.workflow.value, user: f.user.value });
  });

  /* ---------- the workflow page ---------- */
  async function showWorkflow(r) {
    $('#list-view').hidden = true;
    $('#compare-view').hidden = true;
    const wasHidden = $('#workflow-view').hidden;
    $('#workflow-view').hidden = false;
    if (wasHidden && S.cy) S.cy.resize(); /* its container had no size while hidden */
    const key = r.id ? 'wf:' + r.id : 'job:' + r.job;
    if (S.wfKey !== key || !S.wf) {
      const params = r.id ? { id: r.id } : { job: r.job };
      S.wf = decodeWorkflow(await api('workflow', params));
      S.wfKey = key;
      S.expanded = new Set();
      prepareWorkflow(S.wf);
      S.tabPending = true;
    }
    const w = S.wf.workflow;
    const crumbs = clear($('#crumbs'));
    crumbs.append(link({ view: 'list' }, 'Workflows and jobs'), el('span', { class: 'sep', text: '›' }),
      el('span', { text: (w.workflow ? 'Workflow ' + w.workflow : 'Job ' + (S.wf.jobs[0] || {}).id) + ' (' + w.user + ')' }));
    const layout = ['graph', 'duration', 'timeline'].includes(r.layout) ? r.layout : 'graph';
    if (!S.cy || S.layout !== layout || S.drawnKey !== key) {
      S.layout = layout;
      drawGraph();
      S.drawnKey = key;
    }
    for (const b of document.querySelectorAll('button.layout')) b.setAttribute('aria-pressed', String(b.dataset.layout === layout));
    /* the summary's charts after the graph: the graph is what the page opens for */
    if (S.tabPending) { S.tabPending = false; renderWorkflowTab(); }
    await select(r.sel);
  }

  /* ---------- two runs side by side ---------- */
  /* A job's steps as the rows a comparison matches (the steps the graph draws, by name; a
   * name that repeats as NAME#2, ...), in the shape of workflow&by=name's rows. */
  function jobRows(j) {
    const steps = j.steps || [], isNum = s => /^\d+$/.test(s.step), numbered = steps.some(isNum);
    const seen = {};
    return steps.filter(s => numbered ? isNum(s) : s.step !== 'extern').map(s => {
      const n = s.name || '';
      seen[n] = (seen[n] || 0) + 1;
      const secs = dur(s) ?? (s.start != null ? Date.now() / 1000 - s.start : null), rt = s.runtime || {};
      return { job_name: String(s.step), step_name: seen[n] > 1 ? n + '#' + seen[n] : n, elapsed_s: secs,
        cpu_ns: s.profiled ? s.cpu_ns : null, cpu_alloc_s: s.profiled && secs != null ? secs * s.cpus : null,
        read_bytes: s.read_bytes || 0, write_bytes: s.write_bytes || 0,
        runtime: { compute_ns: rt.compute_ns || 0, mpi_ns: (rt.mpi_p2p_ns || 0) + (rt.mpi_coll_ns || 0) + (rt.mpi_setup_ns || 0),
          io_ns: (rt.io_posix_ns || 0) + (rt.io_stdio_ns || 0) + (rt.io_mpiio_ns || 0), cpu_wait_ns: rt.cpu_wait_ns || 0, idle_ns: rt.idle_ns || 0 } };
    });
  }
  const CMP_CATS = [{ key: 'compute_ns', label: 'Computation', color: '#a99cd6' }, { key: 'mpi_ns', label: 'MPI', color: '#d62728' },
    { key: 'io_ns', label: 'I/O', color: '#e3b505' }, { key: 'cpu_wait_ns', label: 'Waiting for a CPU', color: '#7f7f7f' },
    { key: 'idle_ns', label: 'Idle', color: '#e8e8e8' }];
  function shareBar(rt) {
    const v = CMP_CATS.map(c => Math.max(0, Number((rt || {})[c.key]) || 0)), sum = v.reduce((a, b) => a + b, 0);
    const bar = el('div', { class: 'bar', title: sum ? CMP_CATS.map((c, i) => c.label + ' ' + (100 * v[i] / sum).toFixed(1) + '%').join(', ') : 'no profile' });
    if (sum) CMP_CATS.forEach((c, i) => { if (v[i] > 0) bar.appendChild(el('span', { style: 'width:' + (100 * v[i] / sum).toFixed(2) + '%;background:' + c.color })); });
    else bar.appendChild(el('span', { style: 'width:100%;background:' + NO_PROFILE }));
    return bar;
  }
  async function runRows(spec) {
    const m = /^(wf|job):(\d+)$/.exec(spec || '');
    if (!m) throw new Error("'" + spec + "' names no run (wf:ID or job:ID)");
    if (m[1] === 'wf') {
      const r = await api('workflow', { id: m[2], by: 'name' });
      return { title: 'Workflow ' + m[2], link: { view: 'workflow', id: m[2] }, rows: r.step_names, byStep: false };
    }
    const { job: j } = await api('job', { id: m[2] });
    return { title: 'Job ' + jobLabel(j) + (j.name ? ' · ' + j.name : '') + ' (' + j.state + ')', link: { view: 'workflow', job: j.id, sel: 'job:' + j.id }, rows: jobRows(j), byStep: true };
  }
  /* #view=compare&a=...&b=...: row by row (workflows: job and step name; jobs: step name), time,
   * its change, CPU efficiency, I/O and runtime share of each run, then the totals. */
  async function showCompare(r) {
    $('#list-view').hidden = true;
    $('#workflow-view').hidden = true;
    const V = clear($('#compare-view'));
    V.hidden = false;
    const [A, B] = await Promise.all([runRows(r.a), runRows(r.b)]);
    clear($('#crumbs')).append(link({ view: 'list' }, 'Workflows and jobs'), el('span', { class: 'sep', text: '›' }), el('span', { text: 'Compare' }));
    V.append(el('h2', { text: 'Two runs side by side' }), el('p', {}, 'A: ', link(A.link, A.title), el('br'), 'B: ', link(B.link, B.title)));
    const byStep = A.byStep && B.byStep;
    const same = (x, y) => x.step_name === y.step_name && (byStep || x.job_name === y.job_name);
    const pairs = A.rows.map(a => [a, B.rows.find(b => same(a, b)) || null]).concat(B.rows.filter(b => !A.rows.some(a => same(a, b))).map(b => [null, b]));
    const total = rows => rows.reduce((t, x) => { for (const k of ['elapsed_s', 'cpu_ns', 'cpu_alloc_s', 'read_bytes', 'write_bytes']) t[k] += Number(x[k]) || 0; return t; }, { elapsed_s: 0, cpu_ns: 0, cpu_alloc_s: 0, read_bytes: 0, write_bytes: 0 });
    const io = x => x ? (Number(x.read_bytes) || 0) + (Number(x.write_bytes) || 0) : null;
    const change = (a, b) => !a ? 'only B' : !b ? 'only A' : a.elapsed_s > 0 && b.elapsed_s != null ? ((b.elapsed_s - a.elapsed_s) / a.elapsed_s * 100 >= 0 ? '+' : '') + ((b.elapsed_s - a.elapsed_s) / a.elapsed_s * 100).toFixed(1) + ' %' : '–';
    const head = [byStep ? 'Step' : 'Job name', byStep ? 'Name' : 'Step name', 'Time A', 'Time B', 'Change', 'CPU eff. A', 'CPU eff. B', 'I/O A', 'I/O B', 'Share A', 'Share B'];
    const t = el('table', { class: 'data compare' }, el('thead', {}, el('tr', {}, head.map((h, i) => el('th', { class: i >= 2 && i <= 8 ? 'num' : null, text: h })))));
    const tb = el('tbody');
    const row = (k1, k2, a, b, cls) => el('tr', { class: cls }, el('td', { text: k1 }), el('td', { text: k2 }),
      numCell(a && a.elapsed_s, a ? fmtDur(a.elapsed_s) : '–'), numCell(b && b.elapsed_s, b ? fmtDur(b.elapsed_s) : '–'), el('td', { class: 'num change', text: change(a, b) }),
      numCell(allocEff(a), fmtPct(allocEff(a))), numCell(allocEff(b), fmtPct(allocEff(b))),
      numCell(io(a), a ? fmtBytes(io(a)) : '–'), numCell(io(b), b ? fmtBytes(io(b)) : '–'),
      el('td', {}, a && a.runtime ? shareBar(a.runtime) : '–'), el('td', {}, b && b.runtime ? shareBar(b.runtime) : '–'));
    for (const [a, b] of pairs) tb.appendChild(row((a || b).job_name, (a || b).step_name, a, b));
    tb.appendChild(row('Total', '', total(A.rows), total(B.rows), 'total'));
    t.appendChild(tb);
    V.appendChild(t);
    V.appendChild(el('p', { class: 'note', text: 'Time: wall time summed over the steps of each name; change: B against A. CPU efficiency: CPU time of the processes against CPUs × wall time. I/O: bytes read and written. Share: the runtime share of the processes (computation, MPI, I/O, waiting for a CPU, idle).' }));
  }
  /* "Export JSON": the job or workflow in the JobLog shapes (docs/api.md, export), saved */
  function exportButton(kind, id) {
    return el('button', { type: 'button', class: 'export', text: 'Export JSON', title: 'the JobLog fields and the per-step profile, as JSON', onclick: async () => {
      try {
        const body = await api('export', { [kind]: id });
        const a = el('a', { href: URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' })), download: 'jobscreen-' + kind + '-' + id + '.json' });
        document.body.appendChild(a); a.click(); a.remove();
        setTimeout(() => URL.revokeObjectURL(a.href), 10000);
      } catch (e) { showError(e); }
    } });
  }
  /* "Compare with ...": a small form under the workflow and job tabs */
  function compareForm(kind, id) {
    const f = el('form', { class: 'compare-with' }, el('label', {}, 'Compare with ' + (kind === 'wf' ? 'workflow' : 'job') + ' id ', el('input', { type: 'search', name: 'other', maxlength: 20, inputmode: 'numeric' })), el('button', { type: 'submit', text: 'Compare' }));
    f.addEventListener('submit', ev => {
      ev.preventDefault();
      const o = f.elements.other.value.trim();
      if (!/^\d+$/.test(o)) { showError(new Error("'" + o + "' is not an id")); return; }
      setHash({ view: 'compare', a: kind + ':' + id, b: kind + ':' + o });
    });
    return f;
  }

  /* The graph's reply (docs/api.md, workflow) holds its records as arrays named by
   * job_fields, step_fields and runtime_fields, times in ms after t0, edges by kind: decoded
   * once into the objects the page works with (a step's runtime in ns per category, its files
   * per access mode; a job's runtime summed over the steps the graph draws). */
  function decodeWorkflow(r) {
    const ix = names => Object.fromEntries((names || []).map((k, i) => [k, i]));
    const J = ix(r.job_fields), T = ix(r.step_fields);
    const get = (a, i) => (i === undefined || i >= a.length || a[i] === undefined) ? null : a[i];
    const at = ms => ms === null ? null : r.t0 + ms / 1000;
    const rtKeys = (r.runtime_fields || []).map(k => k + '_ns'), modes = r.file_modes || [];
    const jobs = (r.jobs || []).map(a => {
      const steps = (get(a, J.steps) || []).map(b => {
        const v = get(b, T.runtime_ms) || [], fv = get(b, T.files) || [], runtime = {}, files = {};
        rtKeys.forEach((key, i) => { runtime[key] = (v[i] || 0) * 1e6; });
        modes.forEach((m, i) => { if (fv[i]) files[m] = fv[i]; });
        return { step: String(get(b, T.step)), start: at(get(b, T.start)), end: at(get(b, T.end)), runtime, files };
      });
      const runtime = {};
      for (const key of rtKeys) runtime[key] = steps.reduce((x, s) => x + s.runtime[key], 0);
      return {
        id: get(a, J.id), name: get(a, J.name), state: get(a, J.state), submit: at(get(a, J.submit)),
        start: at(get(a, J.start)), end: at(get(a, J.end)), array_job_id: get(a, J.array_job_id),
        array_task_id: get(a, J.array_task_id), steps, runtime,
      };
    });
    const edges = [];
    for (const [kind, list] of Object.entries(r.edges || {})) for (const e of list) {
      edges.push({ kind, from_job: e[0], to_job: e[1], from_step: get(e, 2), to_step: get(e, 3), files: get(e, 4) });
    }
    return { workflow: r.workflow, jobs, edges };
  }

  /* Index jobs and steps; find what collapses: job arrays and wide fan-outs. */
  const FANOUT_MAX = 6;
  function prepareWorkflow(wf) {
    wf.jobById = new Map();
    for (const j of wf.jobs) {
      /* the batch step wraps the numbered ones (and extern is Slurm's): the graph shows the
       * numbered steps, or the batch step of a job that has no other; the job tab lists all */
      const all = (j.steps || []).filter(s => s.step !== 'extern');
      const numbered = all.filter(s => /^[0-9]+$/.test(s.step));
      j.steps = (numbered.length ? numbered : all).slice().sort((a, b) => (a.start || 0) - (b.start || 0) || String(a.step).localeCompare(String(b.step), 'en', { numeric: true }));
      wf.jobById.set(j.id, j);
    }
    const preds = new Map();
    for (const e of wf.edges) if (e.kind === 'scheduler') {
      if (!preds.has(e.to_job)) preds.set(e.to_job, []);
      preds.get(e.to_job).push(e.from_job);
    }
    const groups = new Map();
    for (const j of wf.jobs) {
      let key = null;
      if (j.array_job_id != null) key = 'array:' + j.array_job_id;
      else key = 'fan:' + (preds.get(j.id) || []).sort((a, b) => a - b).join(',') + ':' + (j.name || '');
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(j);
    }
    wf.groups = new Map();
    let n = 0;
    for (const [key, members] of groups) {
      const isArray = key.startsWith('array:');
      if (members.length > 1 && (isArray || members.length > FANOUT_MAX)) {
        const g = { id: 'g' + (n++), key, members, array: isArray, name: members[0].name };
        wf.groups.set(g.id, g);
        for (const m of members) m.group = g.id;
      }
    }
  }

  function unitOf(wf, jobId) {
    const j = wf.jobById.get(jobId);
    if (!j) return null;
    return j.group && !S.expanded.has(j.group) ? j.group : 'j' + j.id;
  }

  /* Sizes of the boxes, per layout. */
  const STEP_H = 34, FILE_H = 16, TITLE_H = 20, PAD = 8, GAP = 6, EQ_W = 200, BLOCK_GAP = 24, DAGRE_SIMPLEX_MAX = 60;
  /* The timeline is true to scale: a box spans its job's start to end (at least TL_MIN_W, a
   * sliver for a job of no length); its label starts at the box's left edge and may run past
   * a short box, so a row keeps the label's room (about 6.6 px per character, at most
   * TL_LABEL_MAX) free after it. */
  const TL_MIN_W = 4, TL_LABEL_MAX = 240, LABEL_MIN_PX = 8;
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

  /* Build the elements of the graph for the current layout and expansion. dagre lays out the
   * units (a job, or a group collapsed into one box); an expanded group is one unit for dagre
   * too, a block whose members the grid layout places side by side: expanding never lays out
   * the jobs one by one. */
  function buildElements(wf) {
    const layout = S.layout;
    const { k } = layoutScale(wf);
    const nodes = [], edges = [], units = new Map(), blocks = new Map();
    const tmin = Math.min(...wf.jobs.map(j => j.start).filter(t => t != null), Infinity);
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
    let hue = 0;
    for (const u of units.values()) {
      hue = (hue + 137) % 360;
      if (u.id.startsWith('g')) {
        const g = wf.groups.get(u.id);
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
        continue;
      }
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
    for (const b of blocks.values()) {
      const ms = b.members.map(id => units.get(id));
      b.cellW = Math.max(...ms.map(u => u.w)) + BLOCK_GAP;
      b.cellH = Math.max(...ms.map(u => u.h)) + BLOCK_GAP;
      b.cols = Math.max(1, Math.min(ms.length, Math.ceil(Math.sqrt(ms.length * b.cellH / b.cellW))));
      b.rows = Math.ceil(ms.length / b.cols);
      b.w = b.cols * b.cellW + 2 * PAD;
      b.h = b.rows * b.cellH + TITLE_H + 2 * PAD;
    }
    const place = id => { const u = units.get(id); return u && u.block ? u.block.id : id; };
    /* positions of the units: dagre for the two graph layouts, time and rows for the timeline */
    const unitEdges = new Map();
    for (const e of wf.edges) {
      const a = unitOf(wf, e.from_job), b = unitOf(wf, e.to_job);
      if (!a || !b || a === b) continue;
      const pa = place(a), pb = place(b);
      if (pa === pb) continue;
      const key = pa + '>' + pb;
      if (!unitEdges.has(key)) unitEdges.set(key, { a: pa, b: pb });
    }
    const pos = new Map();
    S.timeline = layout === 'timeline' && isFinite(tmin) ? { tmin, k } : null;
    if (layout === 'timeline') {
      const rows = [];
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
    } else {
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
    }
    /* the frames of the expanded groups, behind their members */
    for (const b of blocks.values()) {
      const g = b.group;
      nodes.push({ data: { id: b.id, kind: 'block', group: g.id, label: (g.array ? 'Array ' + g.key.slice(6) + ': ' : '') + (g.name || 'jobs') + ' ×' + g.members.length + '  (click here to collapse)', w: b.w, h: b.h }, classes: 'block', position: { x: b.x, y: b.y } });
    }
    /* the job boxes and what they hold */
    const stepNode = new Map();
    for (const u of units.values()) {
      const p = pos.get(u.id);
      const left = p.x - u.w / 2, top = p.y - u.h / 2;
      u.node.position = { x: p.x, y: p.y };
      if (u.id.startsWith('g')) {
        const g = gradient(shares(u.rt));
        u.node.data.gc = g.colors; u.node.data.gs = g.stops;
        nodes.push(u.node);
        continue;
      }
      const j = u.jobs[0];
      const steps = j.steps;
      nodes.push(u.node);
      if (!steps.length) continue;
      /* step boxes along the job box: equal, by duration, or at their time */
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
        /* file boxes: one per access mode, left to right read-only, read-write, write-only */
        const f = s.files || {};
        const present = MODES.filter(m => f[m.key]);
        if (!present.length) return;
        const fw = (sw - 2 * (present.length - 1)) / present.length;
        present.forEach((m, mi) => {
          nodes.push({ data: { id: id + '.f' + m.key, kind: 'files', job: j.id, step: String(s.step), mode: m.key, label: fw > 26 ? m.key + ' ' + f[m.key] : '', w: Math.max(2, fw), h: FILE_H, bg: m.color, border: m.border, title: f[m.key] + ' ' + m.label + ' file(s)' }, classes: 'files', position: { x: sx + mi * (fw + 2) + fw / 2, y: sy + STEP_H / 2 + 4 + FILE_H / 2 } });
        });
      });
    }
    /* edges: scheduler and time between job boxes; file edges between step boxes. Where one
     * box has more than FANOUT_MAX edges of a kind with members of a block (a fan-out into an
     * expanded array), they are drawn as one edge to the block. */
    const drawn = [];
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
    return { nodes, edges };
  }

  /* A hard-stop left-to-right gradient: the runtime share as a stacked bar across the box. */
  function gradient(sh) {
    if (!sh) return { colors: NO_PROFILE + ' ' + NO_PROFILE, stops: '0 100' };
    const colors = [], stops = [];
    let acc = 0;
    CATS.forEach((c, i) => {
      if (sh[i] <= 0) return;
      colors.push(c.color, c.color);
      stops.push((acc * 100).toFixed(2), ((acc + sh[i]) * 100).toFixed(2));
      acc += sh[i];
    });
    return { colors: colors.join(' '), stops: stops.join(' ') };
  }

  function drawGraph() {
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
      style: [
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
      ],
    });
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

  function renderLegend() {
    const L = clear($('#legend'));
    for (const c of CATS) L.appendChild(el('span', {}, el('span', { class: 'sw', style: 'background:' + c.color }), c.label));
    L.appendChild(el('span', {}, el('span', { class: 'sw', style: 'background:' + NO_PROFILE }), 'no profile'));
    for (const m of MODES) L.appendChild(el('span', {}, el('span', { class: 'sw', style: 'background:' + m.color + ';border-color:' + m.border }), 'files ' + m.label));
    for (const k of EDGE_KINDS) L.appendChild(el('span', { class: 'edge-' + k.key }, el('span', { class: 'ln ' + k.key, style: 'border-top-color:' + k.color }), k.label));
  }

  /* ---------- info tabs ---------- */
  function showTab(name) {
    for (const b of document.querySelectorAll('#tabs button')) b.setAttribute('aria-selected', String(b.dataset.tab === name));
    for (const t of ['workflow', 'job', 'step', 'file']) $('#tab-' + t).hidden = t !== name;
  }
  function destroyCharts(scope) {
    S.charts = S.charts.filter(c => { if (c.scope === scope) { c.chart.destroy(); return false; } return true; });
  }
  function chart(scope, parent, cls, cfg) {
    const box = el('div', { class: 'chart ' + (cls || '') });
    const canvas = el('canvas');
    box.appendChild(canvas);
    parent.appendChild(box);
    cfg.options = Object.assign({ responsive: true, maintainAspectRatio: false, animation: false }, cfg.options || {});
    const c = new Chart(canvas, cfg);
    S.charts.push({ scope, chart: c });
    return c;
  }
  const palette = i => 'hsl(' + ((i * 137) % 360) + ',55%,60%)';

  function renderWorkflowTab() {
    destroyCharts('workflow');
    const wf = S.wf, w = wf.workflow, T = clear($('#tab-workflow'));
    T.appendChild(el('h3', { text: w.workflow ? 'Workflow ' + w.workflow : 'Job ' + ((wf.jobs[0] || {}).id) + ' (no workflow tag)' }));
    const cards = el('div', { class: 'cards' });
    T.appendChild(cards);
    const c1 = el('div', { class: 'card' }, el('h4', { text: 'Job runtimes' }));
    const c2 = el('div', { class: 'card' }, el('h4', { text: 'Function groups' }));
    const c3 = el('div', { class: 'card' }, el('h4', { text: 'Info' }));
    cards.append(c1, c2, c3);
    /* the 12 longest jobs by name, the rest as one slice */
    const jobs = wf.jobs.filter(j => dur(j) > 0).sort((a, b) => dur(b) - dur(a));
    const top = jobs.slice(0, 12), rest = jobs.slice(12).reduce((a, j) => a + dur(j), 0);
    const labels = top.map(j => 'Job ' + j.id + (j.name ? ' ' + j.name : '')), values = top.map(dur);
    if (rest > 0) { labels.push((jobs.length - 12) + ' other jobs'); values.push(rest); }
    chart('workflow', c1, '', { type: 'pie', data: { labels, datasets: [{ data: values, backgroundColor: values.map((v, i) => i === 12 ? '#c8ccd4' : palette(i + 1)) }] }, options: { plugins: { legend: { position: 'right' }, tooltip: { callbacks: { label: ctx => ctx.label + ': ' + fmtDur(ctx.parsed) } } } } });
    const tot = CATS.map(c => wf.jobs.reduce((a, j) => a + (Number((j.runtime || {})[c.key]) || 0), 0) / 1e9);
    chart('workflow', c2, '', { type: 'pie', data: { labels: CATS.map(c => c.label), datasets: [{ data: tot, backgroundColor: CATS.map(c => c.color) }] }, options: { plugins: { legend: { position: 'right' }, tooltip: { callbacks: { label: ctx => ctx.label + ': ' + fmtDur(ctx.parsed) + ' (summed over processes)' } } } } });
    const nsteps = wf.jobs.reduce((a, j) => a + j.steps.length, 0);
    const kinds = {};
    for (const e of wf.edges) kinds[e.kind] = (kinds[e.kind] || 0) + 1;
    const states = {};
    for (const j of wf.jobs) states[j.state] = (states[j.state] || 0) + 1;
    c3.appendChild(kvTable([
      ['User', w.user], ['Jobs', wf.jobs.length], ['Steps', nsteps],
      ['States', Object.entries(states).map(([k, v]) => k + ' ' + v).join(', ')],
      ['First submit', timeSpan(Math.min(...wf.jobs.map(j => j.submit).filter(t => t != null)))],
      ['Start', timeSpan(w.start)], ['End', timeSpan(w.end)], ['Makespan', fmtDur(dur(w))],
      ['Sum of job runtimes', fmtDur(wf.jobs.reduce((a, j) => a + (dur(j) || 0), 0))],
      ['Edges', EDGE_KINDS.map(k => k.key + ' ' + (kinds[k.key] || 0)).join(', ')],
    ]));
    renderStepNames(T, w.id);
    T.appendChild(compareForm('wf', w.id));
    if (w.id != null) T.appendChild(exportButton('workflow', w.id));
  }

  /* Per job name and step name (Snakemake's rules, Nextflow's processes are job names): how
   * many, time, CPU efficiency, memory and I/O, summed over the workflow (workflow&by=name). */
  async function renderStepNames(T, id) {
    const box = el('div', { class: 'step-names' }, el('h4', { text: 'Per job and step name' }), el('p', { class: 'note', text: 'Loading…' }));
    T.appendChild(box);
    let rows;
    try { rows = (await api('workflow', { id, by: 'name' })).step_names; } catch (e) { box.lastChild.textContent = 'Not available: ' + e.message; return; }
    const head = ['Job name', 'Step name', 'Jobs', 'Steps', 'Not completed', 'Time', 'CPU time', 'CPU eff.', 'Peak mem.', 'Read', 'Written'];
    const t = el('table', { class: 'data sortable' }, el('thead', {}, el('tr', {}, head.map((h, i) => el('th', { class: i >= 2 ? 'num' : null, text: h })))));
    const tb = el('tbody');
    for (const r of rows) {
      const eff = allocEff(r);
      tb.appendChild(el('tr', {}, el('td', { text: r.job_name }), el('td', { text: r.step_name }), numCell(r.jobs, r.jobs), numCell(r.steps, r.steps),
        numCell(r.not_completed, r.not_completed), numCell(r.elapsed_s, fmtDur(r.elapsed_s)), numCell(r.cpu_ns, r.cpu_ns == null ? '–' : fmtDur(r.cpu_ns / 1e9)),
        numCell(eff, fmtPct(eff)), numCell(r.max_rss_kib, r.max_rss_kib ? fmtBytes(r.max_rss_kib * 1024) : '–'),
        numCell(r.read_bytes, fmtBytes(r.read_bytes)), numCell(r.write_bytes, fmtBytes(r.write_bytes))));
    }
    t.appendChild(tb);
    makeSortable(t);
    box.replaceChild(t, box.lastChild);
  }

  /* An edge clicked: its evidence (dependency type, gap, files) is fetched for that pair of
   * jobs (workflow&from=&to=); the graph's reply carries only what it draws. */
  async function renderEdgeInfo(d) {
    const e = d.ev, T = clear($('#tab-workflow'));
    showTab('workflow');
    const k = EDGE_KINDS.find(x => x.key === e.kind);
    const name = id => { const j = S.wf && S.wf.jobById.get(id); return j ? jobLabel(j) : String(id); };
    T.appendChild(el('h3', { text: (k ? k.label : e.kind) + ': Job ' + name(e.from_job) + (e.from_step != null ? ' step ' + e.from_step : '') + ' → Job ' + name(e.to_job) + (e.to_step != null ? ' step ' + e.to_step : '') }));
    const rows = [['Kind', e.kind]];
    if (d.n > 1) rows.push(['Edges drawn as this one', String(d.n) + ' (the first is shown)']);
    const table = kvTable(rows.concat([e.files != null ? ['Files', String(e.files)] : null]));
    T.appendChild(table);
    const back = el('p', {}, el('a', { href: '#', text: 'Back to the workflow summary', onclick: ev2 => { ev2.preventDefault(); renderWorkflowTab(); } }));
    T.appendChild(back);
    let found;
    try {
      const r = await api('workflow', { id: S.wf.workflow.id, from: e.from_job, to: e.to_job });
      found = (r.edges || []).find(x => x.kind === e.kind && (e.kind !== 'file' || (x.from_step === e.from_step && x.to_step === e.to_step)));
    } catch (err) { showError(err); return; }
    if (!T.contains(table)) return; /* another edge or tab was shown meanwhile */
    const ev = (found && found.evidence) || {};
    if (ev.type) rows.push(['Dependency type', ev.type]);
    if (ev.gap_seconds != null) rows.push(['Gap between end and start', fmtDur(ev.gap_seconds)]);
    if (ev.files != null) rows.push(['Files', String(ev.files)]);
    if (ev.last_write != null) rows.push(['Last write', timeSpan(ev.last_write)]);
    if (ev.first_read != null) rows.push(['First read', timeSpan(ev.first_read)]);
    T.replaceChild(kvTable(rows), table);
    if (Array.isArray(ev.paths) && ev.paths.length) {
      const ul = el('ul', { class: 'mono' });
      ev.paths.forEach((p, i) => ul.appendChild(el('li', {}, ev.file_ids && ev.file_ids[i] != null ? link(Object.assign({}, S.route, { sel: 'file:' + ev.file_ids[i] }), p) : p, ev.written_as && ev.written_as[i] ? ' (written as ' + ev.written_as[i] + ')' : '')));
      T.insertBefore(ul, back);
    }
  }

  async function select(sel) {
    const [kind, a, b] = String(sel || '').split(':');
    if (S.cy) S.cy.elements().unselect();
    if (kind === 'job') {
      if (S.cy) S.cy.$id('j' + a).select();
      showTab('job');
      await renderJob(Number(a));
    } else if (kind === 'step') {
      if (S.cy) S.cy.$id('s' + a + '.' + b).select();
      showTab('step');
      await renderStep(Number(a), b);
    } else if (kind === 'file') {
      showTab('file');
      await renderFile(Number(a));
    } else {
      showTab('workflow');
    }
  }

  function filesTable(files, showSteps) {
    const t = el('table', { class: 'data files' },
      el('thead', {}, el('tr', {}, el('th', { text: 'File' }), el('th', { text: 'Mode' }), showSteps ? el('th', { text: 'Steps' }) : null, el('th', { text: 'Layer' }), el('th', { class: 'num', text: 'Read' }), el('th', { class: 'num', text: 'Written' }))));
    const tb = el('tbody');
    for (const f of files) {
      tb.appendChild(el('tr', {},
        el('td', { class: 'mono' }, f.id != null ? link(Object.assign({}, S.route, { sel: 'file:' + f.id }), f.path) : f.path),
        el('td', { text: f.mode }), showSteps ? el('td', { text: (f.steps || []).join(', ') }) : null,
        el('td', { text: f.layer || (f.layers || []).join(', ') }),
        el('td', { class: 'num', text: fmtBytes(f.read_bytes) }), el('td', { class: 'num', text: fmtBytes(f.write_bytes) })));
    }
    if (!files.length) tb.appendChild(el('tr', {}, el('td', { colspan: 6, class: 'empty', text: 'No files recorded.' })));
    t.appendChild(tb);
    return t;
  }

  async function renderJob(id) {
    destroyCharts('job');
    const T = clear($('#tab-job'));
    T.appendChild(el('p', { class: 'note', text: 'Loading job ' + id + '…' }));
    const { job: j } = await api('job', { id });
    clear(T);
    T.appendChild(el('h3', {}, 'Job ' + jobLabel(j) + (j.name ? ' · ' + j.name : '') + ' ', el('span', { class: 'state-' + String(j.state || '').replace(/[^A-Z_]/g, ''), text: j.state }), ' ', lightDot(j.light, j.lost_s)));
    const warn = window.jobscreenWarnings && window.jobscreenWarnings(j.warnings, o => link({ view: 'workflow', job: o, sel: 'job:' + o }, 'Job ' + o));
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
    if (window.jobscreenJobGpus) window.jobscreenJobGpus(cards, j, el);
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
    T.append(el('h4', { text: 'Steps' }), st, el('h4', { text: 'Files' }), filesTable(j.files || [], true), compareForm('job', j.id), exportButton('job', j.id));
  }

  /* The metrics of a slice vector (docs/profile-format.md), grouped for the charts. */
  const METRIC_GROUPS = [
    { label: 'I/O bytes', metrics: ['posix_read_bytes', 'posix_write_bytes', 'stdio_read_bytes', 'stdio_write_bytes', 'mpiio_read_bytes', 'mpiio_write_bytes'], unit: 'B/s' },
    { label: 'I/O calls', metrics: ['posix_read_calls', 'posix_write_calls', 'posix_open_calls', 'posix_meta_calls', 'stdio_read_calls', 'stdio_write_calls', 'stdio_open_calls', 'stdio_meta_calls'], unit: 'calls/s' },
    { label: 'MPI', metrics: ['mpi_send_bytes', 'mpi_recv_bytes', 'mpi_coll_bytes', 'mpi_send_calls', 'mpi_coll_calls'], unit: '/s' },
    { label: 'CPU', metrics: ['cpu_ns'], unit: 'CPU s/s', scale: 1e-9 },
  ];
  const ALL_METRICS = METRIC_GROUPS.flatMap(g => g.metrics);
  /* The kernel's counts per slice (profile format 5; the step's own only, no background) and
   * what it counted beyond the wrappers: I/O no wrapper saw. */
  const KERNEL_GROUPS = [
    { label: 'I/O the kernel counted; unattributed = beyond the wrappers', metrics: ['unattributed_read_bytes', 'unattributed_write_bytes', 'kernel_rchar', 'kernel_wchar', 'kernel_read_bytes', 'kernel_write_bytes'], unit: 'B/s' },
    { label: 'System calls the kernel counted', metrics: ['kernel_syscr', 'kernel_syscw'], unit: 'calls/s' },
  ];

  /* A running step's page reloads itself every LIVE_REFRESH_MS while it is shown. */
  const LIVE_REFRESH_MS = 30000;
  /* How far apart the step's processes were, slice by slice: the most and the least one process
   * had (the node keeps them when it folds; docs/api.md, "spread"), where several ran at once. */
  const SPREAD = [{ key: 'cpu_ns', label: 'CPU', unit: 'CPUs', scale: 1e-9 }, { key: 'mpi_ns', label: 'Time in MPI calls', unit: 'threads', scale: 1e-9 },
    { key: 'io_ns', label: 'Time in I/O calls', unit: 'threads', scale: 1e-9 }, { key: 'io_bytes', label: 'I/O bytes', unit: 'B/s', scale: 1 }];
  function spreadCharts(T, s, L) {
    const rows = (s.spread || []).filter(r => r.processes > 1);
    const used = SPREAD.filter(v => rows.some(r => r[v.key] && r[v.key].max > r[v.key].min));
    if (!used.length) return;
    T.appendChild(el('h4', { text: 'Spread across processes per slice: the most and the least one process had' }));
    const box = el('div', { class: 'cards spread' });
    T.appendChild(box);
    for (const v of used) {
      const card = el('div', { class: 'card' }, el('h4', { text: v.label + ' (' + v.unit + ')' }));
      box.appendChild(card);
      const pt = (r, k) => ({ x: r.t, y: (r[v.key] ? r[v.key][k] : 0) * v.scale / (L * (r.slices || 1)) });
      chart('step', card, '', { type: 'line', data: { datasets: [
        { label: 'most', data: rows.map(r => pt(r, 'max')), borderColor: palette(1), backgroundColor: palette(1), pointRadius: rows.length < 60 ? 3 : 0, stepped: true },
        { label: 'least', data: rows.map(r => pt(r, 'min')), borderColor: palette(2), backgroundColor: palette(2), pointRadius: rows.length < 60 ? 3 : 0, stepped: true }] },
        options: { scales: { x: Object.assign(timeAxis(), { min: (s.start != null ? s.start : 0) - L, max: (s.end != null ? s.end : 0) + L }), y: { beginAtZero: true } } } });
      const top = rows.reduce((a, r) => (r[v.key] && (!a || r[v.key].max > a[v.key].max) ? r : a), null);
      if (top) card.appendChild(el('p', { class: 'note', text: 'The most: ' + (top[v.key].pid != null ? 'process ' + top[v.key].pid + ' on ' : '') + top[v.key].node + ' at ' + fmtTime(top.t) + '.' }));
    }
  }

  async function renderStep(job, step) {
    if (S.liveTimer) { clearTimeout(S.liveTimer); S.liveTimer = null; }
    destroyCharts('step');
    const T = clear($('#tab-step'));
    T.appendChild(el('p', { class: 'note', text: 'Loading step ' + step + ' of job ' + job + '…' }));
    /* per-slice metrics summed by the server into at most as many points as a chart draws */
    const { step: s } = await api('step', { job, step, points: 1500, gpu_series: 1 });
    clear(T);
    const L = s.slice_seconds || 4;
    T.appendChild(el('h3', {}, link(Object.assign({}, S.route, { sel: 'job:' + job }), 'Job ' + job), ' › Step ' + s.step + (s.name ? ' · ' + s.name : '') + ' ', el('span', { class: 'state-' + String(s.state || '').replace(/[^A-Z_]/g, ''), text: s.state || '' }), ' ', lightDot(s.insight && s.insight.light, s.insight && s.insight.lost_s, s.insight && s.insight.judged_by_sruns)));
    const cards = el('div', { class: 'cards' });
    T.appendChild(cards);
    const sh = shares(s.runtime);
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
    if (!sh) c1.appendChild(el('p', { class: 'note', text: 'No profile for this step.' }));

    /* time series of its own metrics (summed over its nodes), rates per second */
    T.appendChild(el('h4', { text: 'Metrics per slice (' + L + ' s), summed over the step\'s nodes' }));
    const series = el('div', { class: 'cards' });
    T.appendChild(series);
    const slices = s.slices || [];
    for (const g of METRIC_GROUPS.concat(KERNEL_GROUPS)) {
      const used = g.metrics.filter(m => slices.some(r => Number((r.m || {})[m]) > 0));
      if (!used.length) continue;
      const card = el('div', { class: 'card' }, el('h4', { text: g.label + ' (' + g.unit + ')' }));
      series.appendChild(card);
      chart('step', card, '', { type: 'line', data: { datasets: used.map((m, i) => ({ label: m, data: slices.map(r => ({ x: r.t, y: (Number((r.m || {})[m]) || 0) * (g.scale || 1) / (L * (r.slices || 1)) })), borderColor: palette(i + 2), backgroundColor: palette(i + 2), pointRadius: slices.length < 60 ? 3 : 0, stepped: true })) }, options: { scales: { x: Object.assign(timeAxis(), { min: (s.start != null ? s.start : 0) - L, max: (s.end != null ? s.end : 0) + L }), y: { beginAtZero: true } } } });
    }
    if (!slices.length) series.appendChild(el('p', { class: 'empty', text: 'No per-slice metrics for this step.' }));
    spreadCharts(T, s, L);
    if (window.jobscreenGpuCharts) window.jobscreenGpuCharts(T, s, { chart: (p, cfg) => chart('step', p, '', cfg), timeAxis, palette, el });

    /* the answer first: was it disturbed, by what, what to change; then the background */
    T.appendChild(insightPanel(s));
    document.body.dataset.insightReady = job + ':' + step;
    /* the performance background: this step against all other jobs in the same slices */
    const bg = el('div', { class: 'card background' }, el('h4', { text: 'Performance background' }));
    T.appendChild(bg);
    const controls = el('div', { class: 'controls' });
    const metricSel = el('select', { name: 'metric' }, ALL_METRICS.map(m => el('option', { value: m, text: m })));
    const ownUses = m => slices.some(r => Number((r.m || {})[m]) > 0);
    const firstUsed = ALL_METRICS.find(ownUses);
    /* a disturbed step opens on the metric and scope of its largest disturbed stretch */
    const ev0 = ((s.insight || {}).evidence || [])[0], causeMetrics = ev0 && CAUSE_METRICS[ev0.background];
    metricSel.value = causeMetrics ? causeMetrics.find(ownUses) || causeMetrics[0] : firstUsed || 'cpu_ns';
    const scopeSel = el('select', { name: 'scope' }, el('option', { value: 'cluster', text: 'whole cluster' }), el('option', { value: 'nodes', text: 'same nodes' }));
    if (ev0 && ev0.scope === 'nodes') scopeSel.value = 'nodes';
    /* the disturbed stretches, shaded behind the lines (a plugin of this chart only) */
    const spans = ((s.insight || {}).evidence || []).map(e => stretchSpan(e, L)).filter(x => x);
    const shade = { id: 'disturbedStretches', beforeDatasetsDraw(c) {
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
    controls.append(el('label', {}, 'Metric ', metricSel), el('label', {}, 'Scope ', scopeSel));
    bg.appendChild(controls);
    const bgBox = el('div');
    bg.appendChild(bgBox);
    const drawBg = async () => {
      destroyCharts('bg');
      clear(bgBox);
      const params = { job, step, scope: scopeSel.value, metric: metricSel.value, points: 1500 };
      if (S.me.admin) params.top = 5;
      let b;
      try { b = await api('background', params); } catch (e) { bgBox.appendChild(el('p', { class: 'error', text: e.message })); return; }
      if (b.withheld) bgBox.appendChild(el('p', { class: 'note', text: 'Other jobs: ' + b.withheld + '.' }));
      const m = metricSel.value;
      const scale = m.endsWith('_ns') ? 1e-9 : 1;
      chart('bg', bgBox, 'wide', {
        type: 'line',
        plugins: [shade],
        data: { datasets: [
          { label: 'this step: ' + m, data: b.slices.map(r => ({ x: r.t, y: (Number((r.own || {})[m]) || 0) * scale / (L * (r.slices || 1)) })), borderColor: '#d62728', backgroundColor: '#d62728', yAxisID: 'y', pointRadius: b.slices.length < 60 ? 3 : 0, stepped: true },
          ...(b.withheld ? [] : [{ label: 'all other jobs (' + (b.scope === 'nodes' ? 'same nodes' : 'whole cluster') + ')', data: b.slices.map(r => ({ x: r.t, y: (Number((r.others || {})[m]) || 0) * scale / (L * (r.slices || 1)) })), borderColor: '#7a8aa8', backgroundColor: 'rgba(122,138,168,0.25)', fill: true, yAxisID: 'y2', pointRadius: 0, stepped: true }]),
        ] },
        options: { scales: { x: Object.assign(timeAxis(), { min: (s.start != null ? s.start : b.slices[0] && b.slices[0].t) - L, max: (s.end != null ? s.end : 0) + L }), y: { beginAtZero: true, title: { display: true, text: 'this step /s' } }, y2: { beginAtZero: true, position: 'right', grid: { drawOnChartArea: false }, title: { display: true, text: 'background /s' } } } },
      });
      bgBox.appendChild(el('p', { class: 'note', text: 'A dent in this step\'s rate where the background peaks hints at interference; the metric names the likely source. Busiest slice: ' + Math.max(0, ...b.slices.map(r => r.other_step_nodes || 0)) + ' other step(s) × node(s) active.' }));
      if (b.top) {
        const t = el('table', { class: 'data top' }, el('thead', {}, el('tr', {}, ['Job', 'User', 'Name', 'Slices', b.top_metric || 'value', 'I/O bytes', 'MPI bytes', 'CPU s'].map(h => el('th', { text: h })))));
        const tb = el('tbody');
        for (const r of b.top) tb.appendChild(el('tr', {}, el('td', {}, link({ view: 'workflow', job: r.job, sel: 'job:' + r.job }, String(r.job))), el('td', { text: r.user }), el('td', { text: r.name }), el('td', { class: 'num', text: r.slices }), el('td', { class: 'num', text: fmtNum(r.value) }), el('td', { class: 'num', text: fmtBytes(r.io_bytes) }), el('td', { class: 'num', text: fmtBytes(r.mpi_bytes) }), el('td', { class: 'num', text: fmtNum((r.cpu_ns || 0) / 1e9) })));
        t.appendChild(tb);
        bgBox.append(el('h4', { text: 'Top contributing jobs (admins only)' }), t);
      }
      document.body.dataset.backgroundReady = job + ':' + step;
    };
    metricSel.addEventListener('change', drawBg);
    scopeSel.addEventListener('change', drawBg);
    drawBg();

    /* digest: min/avg/max over its processes */
    const dg = el('table', { class: 'data digest' }, el('thead', {}, el('tr', {}, ['Metric', 'Min', 'Avg', 'Max', 'Processes'].map(h => el('th', { text: h })))));
    const db = el('tbody');
    for (const r of s.digest || []) db.appendChild(el('tr', {}, el('td', { title: r.metric, text: metricLabel(r.metric) }), el('td', { class: 'num', text: fmtMetric(r.metric, r.min) }), el('td', { class: 'num', text: fmtMetric(r.metric, r.avg) }), el('td', { class: 'num', text: fmtMetric(r.metric, r.max) }), el('td', { class: 'num', text: r.n })));
    if (!(s.digest || []).length) db.appendChild(el('tr', {}, el('td', { colspan: 5, class: 'empty', text: 'No profile.' })));
    dg.appendChild(db);
    T.append(el('h4', { text: 'Digest over processes (totals per process)' }), dg);

    /* its processes and how each ended (those that did not end well first) */
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
    T.append(el('h4', { text: 'Processes' }), pt, el('h4', { text: 'Files' }), filesTable(s.files || [], false));
    if (s.files_dropped > 0)
      T.appendChild(el('p', { class: 'incomplete', text: s.files_dropped + ' more file' + (s.files_dropped === 1 ? '' : 's') + ' not listed: a process opened more files than its list holds.' }));
    /* files under system, package and library directories, counted per tree (profiler.md) */
    const sw = s.software || [];
    if (sw.length) {
      const tt = el('table', { class: 'data software' },
        el('thead', {}, el('tr', {}, el('th', { text: 'Tree' }), el('th', { class: 'num', text: 'Opens' }), el('th', { class: 'num', text: 'Read' }), el('th', { class: 'num', text: 'Written' }))));
      const tb = el('tbody');
      for (const t of sw)
        tb.appendChild(el('tr', {}, el('td', { class: 'mono', text: t.tree }), el('td', { class: 'num', text: t.opens }),
          el('td', { class: 'num', text: fmtBytes(t.read_bytes) }), el('td', { class: 'num', text: fmtBytes(t.write_bytes) })));
      tt.appendChild(tb);
      T.append(el('h4', { text: 'Software (files counted per tree, not listed)' }), tt);
    }
  }

  /* an axis range around some times, padded by 5 % (at least 1 s) */
  function xRange(ts) {
    const v = ts.filter(t => t != null && isFinite(t));
    if (!v.length) return {};
    const lo = Math.min(...v), hi = Math.max(...v), pad = Math.max(1, (hi - lo) * 0.05);
    return { min: lo - pad, max: hi + pad };
  }
  function timeAxis() {
    return { type: 'linear', ticks: { maxTicksLimit: 8, callback: v => new Date(v * 1000).toISOString().slice(11, 19) } };
  }

  async function renderFile(id) {
    destroyCharts('file');
    const T = clear($('#tab-file'));
    const { file: f } = await api('file', { id });
    T.appendChild(el('h3', { class: 'mono', text: f.path }));
    T.appendChild(kvTable([['File system', f.fstype], ['Scope', f.scope === 'local' ? 'node-local (' + f.node + ')' : f.scope], ['Accesses', (f.accesses || []).length]]));
    const acc = (f.accesses || []).slice().sort((a, b) => (a.start || 0) - (b.start || 0));
    if (acc.length) {
      const card = el('div', { class: 'card' }, el('h4', { text: 'Writers and readers over time' }));
      T.appendChild(card);
      const labels = acc.map(a => 'Job ' + a.job + ' step ' + a.step);
      const color = a => (MODES.find(m => m.key === a.mode) || MODES[0]).border;
      /* from the first to the last access when the profiler saw them, else the step's span */
      const span = a => a.first_access != null ? [a.first_access, Math.max(a.first_access, a.last_access || a.first_access)] : [a.start, a.end != null ? a.end : a.start];
      chart('file', card, 'wide', { type: 'bar', data: { labels, datasets: [{ label: 'accesses', data: acc.map(span), backgroundColor: acc.map(color), borderSkipped: false, minBarLength: 3 }] }, options: { indexAxis: 'y', plugins: { legend: { display: false }, tooltip: { callbacks: { label: ctx => ({ r: 'read', w: 'written', rw: 'read and written' })[acc[ctx.dataIndex].mode] + ' from ' + fmtTime(span(acc[ctx.dataIndex])[0]) } } }, scales: { x: Object.assign(timeAxis(), xRange(acc.map(span).flat())) } } });
    }
    const t = el('table', { class: 'data' }, el('thead', {}, el('tr', {}, ['Job', 'Step', 'Name', 'Mode', 'Start', 'End', 'Read', 'Written'].map(h => el('th', { text: h })))));
    const tb = el('tbody');
    for (const a of acc) tb.appendChild(el('tr', {}, el('td', {}, link({ view: 'workflow', job: a.job, sel: 'job:' + a.job }, String(a.job))), el('td', {}, link({ view: 'workflow', job: a.job, sel: 'step:' + a.job + ':' + a.step }, String(a.step))), el('td', { text: a.job_name }), el('td', { text: a.mode }), el('td', { text: fmtTime(a.start) }), el('td', { text: fmtTime(a.end) }), el('td', { class: 'num', text: fmtBytes(a.read_bytes) }), el('td', { class: 'num', text: fmtBytes(a.write_bytes) })));
    t.appendChild(tb);
    T.appendChild(t);
  }

  /* ---------- wiring ---------- */
  for (const b of document.querySelectorAll('button.layout')) b.addEventListener('click', () => setHash(Object.assign({}, S.route, { layout: b.dataset.layout })));
  for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => {
    if (b.dataset.tab === 'workflow') { const r = Object.assign({}, S.route); delete r.sel; setHash(r); renderWorkflowTab(); }
    showTab(b.dataset.tab);
  });
  $('#fit').addEventListener('click', () => S.cy && S.cy.fit(undefined, 20));
  /* expand every group at once (one layout), or collapse them all again */
  $('#expand-all').addEventListener('click', () => {
    if (!S.wf) return;
    const all = [...S.wf.groups.keys()];
    if (all.length && all.every(g => S.expanded.has(g))) S.expanded.clear(); else for (const g of all) S.expanded.add(g);
    drawGraph();
  });
  renderLegend();
  /* read-only hooks for the browser test (tests/web/viewer-test.js) */
  window.jobscreenViewer = Object.freeze({ cy: () => S.cy, workflow: () => S.wf, layout: () => S.layout });
  window.addEventListener('hashchange', route);
  route();
})();
