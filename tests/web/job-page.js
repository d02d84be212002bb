#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-or-later
/* One job's page in the viewer, in the system's Chromium (playwright-core; never downloads a
 * browser): prints the step ids its step table shows, one a line; exits 1 when the page does not
 * show them within 15 s or a page error or failed API call happens on the way.
 *
 *   node job-page.js --url URL --user U --password P --job JOBID [--shot FILE.png]
 */
'use strict';
const { chromium } = require('playwright-core');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.JS_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
  const problems = [];
  let status = 1;
  try {
    const ctx = await browser.newContext({ httpCredentials: { username: args.user, password: args.password } });
    const page = await ctx.newPage();
    page.on('pageerror', e => problems.push('page error: ' + e.message));
    page.on('response', r => { if (r.url().includes('jobscreen.cgi') && r.status() >= 400) problems.push('API ' + r.status() + ' ' + r.url()); });
    page.on('requestfailed', r => problems.push('request failed: ' + r.url()));
    const base = args.url.replace(/\/?$/, '/');
    await page.goto(base + '#view=workflow&job=' + args.job + '&sel=job:' + args.job);
    await page.waitForSelector('#tab-job table.steps tbody tr', { timeout: 15000 });
    const steps = await page.$$eval('#tab-job table.steps tbody tr', rows => rows.map(r => r.cells[0].textContent.trim()));
    if (args.shot) await page.screenshot({ path: args.shot });
    steps.forEach(s => console.log(s));
    status = problems.length ? 1 : 0;
  } catch (e) {
    problems.push(String(e.message || e));
  }
  problems.forEach(p => console.error(p));
  await browser.close();
  process.exit(status);
})();
