// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the page's state (S) and its routes in the URL fragment, so that every
 * workflow, job, step and file has a link:
 *   #view=list&state=FAILED...
 *   #view=workflow&id=W[&layout=graph|duration|timeline][&sel=job:12 | step:12:0 | file:7]
 *   #view=workflow&job=12...   (the workflow of job 12)
 *   #view=compare&a=wf:W|job:J&b=... */
import { el } from './util.js';

export const S = { me: null, route: {}, wf: null, cy: null, expanded: new Set(), charts: [], layout: 'graph', wfKey: '', draws: 0 };
export function parseHash() { return Object.fromEntries(new URLSearchParams(location.hash.replace(/^#/, ''))); }
export function setHash(r, replace) {
  const h = '#' + new URLSearchParams(Object.entries(r).filter(([, v]) => v !== undefined && v !== null && v !== '')).toString();
  if (replace) history.replaceState(null, '', h); else location.hash = h;
}
export function link(r, text) { return el('a', { href: '#' + new URLSearchParams(r).toString(), text }); }
