#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-or-later
/* Browser test of a step's GPU charts in the viewer (web/static/gpu.js): playwright-core drives
 * the system's Chromium (it never downloads a browser). Prints TAP.
 *
 *   node gpu-test.js --url URL --user U --password P --step JOB:STEP --out DIR
 *                    --expect "n1 GPU-n1-0=11,n2 GPU-n2-0=12" [--expect-procs "n1 GPU-n1-0 4242=0,..."]
 *                    [--co2 G]
 *
 * It opens the step's page, waits for the GPU charts, and checks that the SM utilization chart
 * has a line per expected GPU whose every point is the scripted value, that the memory and power
 * charts are drawn, that the table lists each GPU, and that the energy is said; with
 * --expect-procs, that the processes table lists exactly those processes (node, GPU, pid = rank)
 * and says the processes of other jobs it did not count. The job tab: a line per step with GPUs,
 * the job's energy (with --co2 G, the web.conf's co2_g_per_kwh, its CO2 from that energy), and a
 * chart of SM utilization with a line per step and GPU at the scripted values. Any page error,
 * failed API call or dialog fails the test. A screenshot goes to DIR/gpu-step.png. */
'use strict';
const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const expect = Object.fromEntries(args.expect.split(',').map(e => e.split('=')).map(([k, v]) => [k, Number(v)]));
const procs = args['expect-procs'] ? args['expect-procs'].split(',').sort() : null;
fs.mkdirSync(args.out, { recursive: true });
let n = 0, failed = 0;
const co2 = args.co2 ? Number(args.co2) : null;
console.log('1..' + (9 + (procs ? 1 : 0) + (co2 != null ? 1 : 0)));
/* "12.3 J", "4.5 Wh" or "1.2 kWh" in joules; NaN when it is none of them */
const joules = (v, u) => Number(v) * ({ J: 1, Wh: 3600, kWh: 3.6e6 }[u] || NaN);
const ENERGY = '([0-9.]+) (J|Wh|kWh)';
function ok(cond, what, diag) {
  n++;
  console.log((cond ? 'ok ' : 'not ok ') + n + ' - ' + what);
  if (!cond) { failed++; if (diag) console.log('# ' + String(diag).split('\n').join('\n# ')); }
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.JS_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
  const ctx = await browser.newContext({ httpCredentials: { username: args.user, password: args.password }, viewport: { width: 1400, height: 1400 } });
  const page = await ctx.newPage();
  const problems = [];
  page.on('pageerror', e => problems.push('page error: ' + e.message));
  page.on('dialog', d => { problems.push('dialog opened: ' + d.message()); d.dismiss(); });
  page.on('response', r => { if (r.url().includes('jobscreen.cgi') && r.status() >= 400) problems.push('API ' + r.status() + ' ' + r.url()); });
  const [job, step] = args.step.split(':');
  try {
    await page.goto(args.url.replace(/\/?$/, '/') + '#view=workflow&job=' + job + '&sel=step:' + job + ':' + step);
    await page.waitForSelector('.gpu-chart canvas', { timeout: 20000 });
    const charts = await page.$$eval('.gpu-chart', cards => cards.map(c => {
      const ch = window.Chart.getChart(c.querySelector('canvas'));
      return { metric: c.dataset.metric, lines: ch.data.datasets.map(d => ({ label: d.label, ys: d.data.map(p => p.y) })) };
    }));
    const sm = charts.find(c => c.metric === 'util_sm');
    ok(sm && sm.lines.length === Object.keys(expect).length, 'the SM utilization chart has a line per GPU of the step', JSON.stringify(sm));
    const wrong = sm ? sm.lines.filter(l => !(l.label in expect) || !l.ys.length || l.ys.some(y => y !== expect[l.label])) : ['no chart'];
    ok(!wrong.length, 'every point of every line is the scripted utilization', JSON.stringify(wrong));
    ok(['mem_used', 'power_w'].every(m => charts.some(c => c.metric === m && c.lines.length === Object.keys(expect).length)),
       'memory and power charts with a line per GPU', JSON.stringify(charts.map(c => c.metric)));
    const cells = await page.$$eval('.gpu-table:not(.gpu-processes) tbody tr', rows => rows.map(r => r.cells[0].textContent + ' ' + r.cells[1].textContent));
    ok(Object.keys(expect).every(k => cells.includes(k)), 'the table lists each GPU', JSON.stringify(cells));
    const note = await page.$eval('.gpu-energy', e => e.textContent).catch(() => '');
    ok(new RegExp('^Energy: ' + ENERGY + '(; [0-9.]+ k?g CO2)? \\(GPUs ' + ENERGY + ', CPUs ').test(note), 'the step\'s energy is said', note);
    if (procs) {
      const rows = await page.$$eval('.gpu-processes tbody tr', rs => rs.map(r => [0, 1, 2].map(i => r.cells[i].textContent).join(' ') + '=' + r.cells[3].textContent));
      const other = await page.$eval('.gpu-processes-note', e => e.textContent).catch(() => '');
      ok(JSON.stringify(rows.sort()) === JSON.stringify(procs) && /processes of other jobs or daemons, not counted to this step/.test(other),
         'the processes table lists the step\'s processes on its GPUs with their ranks, and counts the others', JSON.stringify(rows) + ' ' + other);
    }
    await page.locator('.gpus').screenshot({ path: path.join(args.out, 'gpu-step.png') });
    /* the job tab: a line per step with GPUs, and the job's energy */
    await page.goto(args.url.replace(/\/?$/, '/') + '#view=workflow&job=' + job + '&sel=job:' + job);
    await page.waitForSelector('.job-gpus li', { timeout: 20000 });
    const lines = await page.$$eval('.job-gpus li', ls => ls.map(l => l.textContent));
    const ng = Object.keys(expect).length;
    ok(lines.some(l => l.startsWith('Step ' + step + ': ' + ng + ' GPU' + (ng === 1 ? '' : 's') + ', SM utilization ')), 'the job tab has a GPU line for the step', JSON.stringify(lines));
    const jnote = await page.$eval('.job-gpus .note', e => e.textContent).catch(() => '');
    const je = new RegExp('^Energy of the job: ' + ENERGY + '(; ([0-9.]+) (k?g) CO2)? \\(GPUs ' + ENERGY + ', CPUs ').exec(jnote);
    ok(je && (co2 != null) === (je[3] != null), 'the job tab says the job\'s energy' + (co2 != null ? ' and its CO2' : ', no CO2 where the site set none'), jnote);
    if (co2 != null) {
      const g = je ? Number(je[4]) * (je[5] === 'kg' ? 1000 : 1) : NaN, want = je ? joules(je[1], je[2]) / 3.6e6 * co2 : NaN;
      ok(Math.abs(g - want) <= Math.max(0.06, want * 0.06), 'the CO2 is the energy times the site\'s ' + co2 + ' g/kWh (' + g + ' g, ' + want.toFixed(2) + ' g from the energy shown)', jnote);
    }
    await page.waitForSelector('.job-gpu-chart canvas', { timeout: 20000 });
    const jc = await page.$eval('.job-gpu-chart', c => window.Chart.getChart(c.querySelector('canvas')).data.datasets.map(d => ({ label: d.label, ys: d.data.map(p => p.y) })));
    const mine = jc.filter(l => l.label.startsWith('Step ' + step + ' ')).map(l => ({ gpu: l.label.slice(('Step ' + step + ' ').length), ys: l.ys }));
    ok(mine.length === ng && mine.every(l => l.gpu in expect && l.ys.length && l.ys.every(y => y === expect[l.gpu])),
       'the job tab\'s GPU chart has a line per GPU of the step at the scripted utilization', JSON.stringify(jc));
    await page.locator('.job-gpus').screenshot({ path: path.join(args.out, 'gpu-job.png') });
  } catch (e) {
    problems.push('exception: ' + e.message);
  }
  while (n < (procs ? 8 : 7)) ok(false, 'not reached', problems.join('\n'));
  ok(!problems.length, 'no page error, failed API call or dialog', problems.join('\n'));
  await browser.close();
  process.exit(failed ? 1 : 0);
})();
