// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: insight, was a run disturbed, by what, what to change (docs/api.md,
 * step "insight" and "advice"): the traffic lights of the lists and the Insight panel of a
 * step. */
import { el, fmtBytes, fmtClock, fmtDur, fmtLost, fmtNum, fmtUtc, kvTable, timeSpan } from './util.js';

const LIGHTS = {
  green: 'no disturbance found (less than 7.5 % of its run lost)',
  yellow: 'disturbed: 7.5-15 % of its run lost',
  red: 'disturbed: more than 15 % of its run lost',
  grey: 'too little data to tell',
};
/* a batch step that waits for its sruns (insight.judged_by_sruns; cli/report_insight.c says the same) */
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
export const CAUSE_METRICS = { io: ['posix_write_bytes', 'posix_read_bytes', 'stdio_write_bytes', 'stdio_read_bytes', 'mpiio_write_bytes', 'mpiio_read_bytes'],
  metadata: ['posix_meta_calls', 'posix_open_calls', 'stdio_open_calls'], mpi: ['mpi_coll_bytes', 'mpi_send_bytes'], cpu: ['cpu_ns'] };
/* a traffic-light dot; light null: nothing computed (yet) */
export function lightDot(light, lost, bySruns) {
  if (!light) return el('span', { class: 'light light-none', title: 'insight not computed yet', 'aria-label': 'insight not computed yet' });
  const t = bySruns ? BY_SRUNS : light + ': ' + (LIGHTS[light] || light) + (lost > 0 ? '; ' + fmtLost(lost) + ' lost' : '');
  return el('span', { class: 'light light-' + (LIGHTS[light] ? light : 'grey'), title: t, 'aria-label': t });
}
export function lightCell(light, lost, bySruns) {
  return el('td', { class: 'insight', 'data-sort': light ? (LIGHT_RANK[light] || 0) * 1e9 + (lost || 0) : '' }, lightDot(light, lost, bySruns),
    lost > 0 ? ' ' + fmtLost(lost) : null);
}

/* a disturbed stretch's span in epoch seconds: its slices (the charts' x), else its start */
export function stretchSpan(e, L) {
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
export function insightPanel(s) {
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
