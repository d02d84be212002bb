#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-or-later
/* The time the viewer takes to fetch and draw a workflow, per layout, in headless Chromium
 * (playwright-core from tests/web). Prints "web viewer ...: N ms" lines, each the median of
 * JS_BENCH_VIEWER_ROUNDS (5) runs; a step is done when cytoscape has drawn its first frame
 * (the page's data-graph-drawn counter).
 *   node draw.js URL USER WORKFLOW_ID OUTDIR */
'use strict';
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tests/web/node_modules/playwright-core'));
const [url, user, wf, out] = process.argv.slice(2);
const rounds = Number(process.env.JS_BENCH_VIEWER_ROUNDS || 5);
const median = a => a.slice().sort((x, y) => x - y)[a.length >> 1];

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.JS_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const ctx = await browser.newContext({ bypassCSP: true, httpCredentials: { username: user, password: user }, viewport: { width: 1400, height: 950 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(e.message));
  const base = url.replace(/\/?$/, '/');
  const drawn = () => page.evaluate(() => Number(document.body.dataset.graphDrawn || 0));
  /* click, then wait for the next drawn frame of the graph */
  const redraw = async sel => {
    const n = await drawn();
    const t = Date.now();
    await page.click(sel);
    await page.waitForFunction(k => Number(document.body.dataset.graphDrawn || 0) > k, n, { timeout: 120000 });
    return Date.now() - t;
  };
  const times = { open: [], duration: [], timeline: [], graph: [], expand: [], collapse: [] };
  let info, boxes = 0;
  for (let r = 0; r < rounds; r++) {
    await page.goto('about:blank');
    const t0 = Date.now();
    await page.goto(base + '#view=workflow&id=' + wf);
    await page.waitForFunction(() => document.body.dataset.graphReady === 'graph', null, { timeout: 120000 });
    times.open.push(Date.now() - t0);
    info = await page.evaluate(() => ({ jobs: window.jobscreenViewer.workflow().jobs.length, boxes: window.jobscreenViewer.cy().nodes().length, status: document.querySelector('#graph-status').textContent }));
    for (const layout of ['duration', 'timeline', 'graph']) {
      times[layout].push(await redraw('button[data-layout="' + layout + '"]'));
      if (r === 0) await page.screenshot({ path: path.join(out, 'draw-' + layout + '.png') });
    }
    times.expand.push(await redraw('#expand-all'));
    boxes = await page.evaluate(() => window.jobscreenViewer.cy().nodes().length);
    if (r === 0) await page.screenshot({ path: path.join(out, 'draw-expanded.png') });
    times.collapse.push(await redraw('#expand-all'));
  }
  console.log('web viewer open ' + info.jobs + '-job workflow (fetch + layout + draw, ' + info.boxes + ' boxes): ' + median(times.open) + ' ms');
  for (const layout of ['duration', 'timeline', 'graph']) console.log('web viewer switch to ' + layout + ' layout: ' + median(times[layout]) + ' ms');
  console.log('web viewer expand all groups (' + boxes + ' boxes): ' + median(times.expand) + ' ms');
  console.log('web viewer collapse them again: ' + median(times.collapse) + ' ms');
  console.log('# web viewer: median of ' + rounds + '; open ' + times.open.join(' ') + ', expand ' + times.expand.join(' ') + ' ms');
  if (errors.length) console.log('# page errors: ' + errors.join('; '));
  await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
