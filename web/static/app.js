// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer, its entry (index.html loads it as a module; the files it imports are
 * served as they are, no build step): the list of workflows and jobs, a workflow page with
 * the graph (cytoscape + dagre) and the info tabs (Chart.js), two runs side by side. It talks
 * to nothing but the JSON API of docs/api.md. Every string from the API reaches the page
 * through textContent or a chart label, never through innerHTML. The routes: state.js. */
import { $, el, clear, makeSortable } from './util.js';
import { api, hideError, showError } from './api.js';
import { S, parseHash, setHash } from './state.js';
import { initList, showList } from './jobs.js';
import { showCompare } from './compare.js';
import { showWorkflow } from './workflow.js';
import { drawGraph, renderLegend } from './graph.js';
import { renderWorkflowTab, showTab } from './summary.js';

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

/* ---------- wiring ---------- */
for (const table of document.querySelectorAll('table.sortable')) makeSortable(table);
initList();
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
