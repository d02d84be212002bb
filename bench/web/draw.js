#!/usr/bin/env node
/* The time the viewer takes to fetch and draw a workflow, per layout, in headless Chromium
 * (playwright-core from tests/web). Prints "web viewer ...: N ms" lines.
 *   node draw.js URL USER WORKFLOW_ID OUTDIR */
'use strict';
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tests/web/node_modules/playwright-core'));
const [url, user, wf, out] = process.argv.slice(2);

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.JS_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const ctx = await browser.newContext({ bypassCSP: true, httpCredentials: { username: user, password: user }, viewport: { width: 1400, height: 950 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(e.message));
  const base = url.replace(/\/?$/, '/');
  const t0 = Date.now();
  await page.goto(base + '#view=workflow&id=' + wf);
  await page.waitForFunction(() => document.body.dataset.graphReady === 'graph', null, { timeout: 120000 });
  const first = Date.now() - t0;
  const info = await page.evaluate(() => ({ jobs: window.jobscreenViewer.workflow().jobs.length, boxes: window.jobscreenViewer.cy().nodes().length, status: document.querySelector('#graph-status').textContent }));
  console.log('web viewer open ' + info.jobs + '-job workflow (fetch + layout + draw): ' + first + ' ms');
  for (const layout of ['duration', 'timeline', 'graph']) {
    const t = Date.now();
    await page.click('button[data-layout="' + layout + '"]');
    await page.waitForFunction(l => document.body.dataset.graphReady === l, layout, { timeout: 120000 });
    console.log('web viewer switch to ' + layout + ' layout: ' + (Date.now() - t) + ' ms');
    await page.screenshot({ path: path.join(out, 'draw-' + layout + '.png') });
  }
  const t = Date.now();
  await page.click('#expand-all');
  await page.waitForTimeout(50);
  await page.waitForFunction(() => !/collapsed/.test(document.querySelector('#graph-status').textContent), null, { timeout: 120000 });
  console.log('web viewer expand all groups (' + (await page.evaluate(() => window.jobscreenViewer.cy().nodes().length)) + ' boxes): ' + (Date.now() - t) + ' ms');
  await page.screenshot({ path: path.join(out, 'draw-expanded.png') });
  if (errors.length) console.log('# page errors: ' + errors.join('; '));
  await browser.close();
})().catch(e => { console.error(e); process.exit(1); });
