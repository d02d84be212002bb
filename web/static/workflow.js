// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the workflow page, the graph on top and the info tabs below, and what
 * the route's selection (sel=job:, step:, file:) opens. */
import { api } from './api.js';
import { renderFile } from './files.js';
import { drawGraph } from './graph.js';
import { renderJob } from './job.js';
import { link, S } from './state.js';
import { renderStep } from './step.js';
import { renderWorkflowTab, showTab } from './summary.js';
import { $, clear, el } from './util.js';
import { decodeWorkflow, prepareWorkflow } from './workflow-data.js';

/* #view=workflow&id=W or &job=J: the workflow fetched once, drawn when the layout or the
 * workflow changed, then the selection. */
export async function showWorkflow(r) {
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

/* what the route's sel= names: selected in the graph, its tab shown */
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
